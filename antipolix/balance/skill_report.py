"""The files of a values-by-skill study: ``values.csv``, ``skill.csv``, ``restricted.csv``,
``report.md`` (a page a designer reads without statistics, opening with one paragraph per kind)
and the plots (``plots/skill.png``: value per cost point against rating for every kind;
``plots/restricted.png``: what forbidding each kind costs the strongest agent)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from antipolix.balance.report import _md, _plt, clock_share, draw_shares, seat_table
from antipolix.balance.skill import PER
from antipolix.balance.skill_study import ValuesBySkill
from antipolix.balance.values import kind_cost, priced_kinds, unbuyable
from antipolix.codec import overrides_markdown
from antipolix.files import write_atomically

COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"]
MEANING = {
    "underpriced": "underpriced (worth more than it costs)",
    "overpriced": "overpriced (worth less than it costs)",
    "fair": "fairly priced (its worth and its cost agree within the measurement)",
    "not estimated": "not estimated",
}


def write_files(study: ValuesBySkill, folder: Path) -> list[Path]:
    """Write the study's tables, plots and report into ``folder``; the paths written."""
    plots = folder / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    out = []
    for name, table in (
        ("values.csv", study.values),
        ("skill.csv", study.skill),
        ("restricted.csv", study.restricted),
    ):
        write_atomically(folder / name, table.to_csv(index=False).encode())
        out.append(folder / name)
    if not study.values.empty and (study.values["verdict"] != "not estimated").any():
        plot_skill(study, plots / "skill.png")
        out.append(plots / "skill.png")
    if not study.restricted.empty and study.restricted["rating_loss"].notna().any():
        plot_restricted(study.restricted, plots / "restricted.png")
        out.append(plots / "restricted.png")
    write_atomically(folder / "report.md", report(study).encode("utf-8"))
    out.append(folder / "report.md")
    return out


# -- plots --------------------------------------------------------------------------------------


def plot_skill(study: ValuesBySkill, path: Path) -> None:
    """One panel per kind: value per cost point against rating, each agent's with its 95 %
    interval, the fitted line with its 95 % band, and the line of a fair price (1)."""
    plt = _plt()
    kinds = list(priced_kinds(study.rules))
    cols = 3 if len(kinds) > 4 else 2
    rows = math.ceil(len(kinds) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), dpi=110, squeeze=False)
    ratings = study.axis.ratings
    low, high = min(ratings.values()), max(ratings.values())
    pad = max(50.0, 0.08 * (high - low))
    grid = np.linspace(low - pad, high + pad, 50)
    for i, kind in enumerate(kinds):
        ax = axes[i // cols][i % cols]
        colour = COLOURS[i % len(COLOURS)]
        part = study.values[(study.values["kind"] == kind) & study.values["ratio"].notna()]
        ax.axhline(1.0, color="0.55", lw=1, ls="--")
        line = study.lines.get(kind)
        cost = kind_cost(study.rules, kind)
        if line is not None:
            centre = np.array([line.at(r)[0] for r in grid]) / cost
            se = np.array([line.at(r)[1] for r in grid]) / cost
            ax.fill_between(grid, centre - 1.96 * se, centre + 1.96 * se, color=colour, alpha=0.15)
            ax.plot(grid, centre, color=colour, lw=1.2)
        if len(part):
            ax.errorbar(
                part["rating"],
                part["ratio"],
                yerr=[part["ratio"] - part["ratio_low"], part["ratio_high"] - part["ratio"]],
                fmt="o",
                capsize=4,
                color=colour,
            )
        for a in study.agents:
            ax.axvline(ratings[a], color="0.85", lw=0.8, zorder=0)
        missing = [a for a in study.agents if a not in set(part["agent"])]
        title = f"{kind} (cost {cost})"
        if line is not None:
            title += f": {line.slope / cost:+.2f} per {PER:.0f} Elo"
        ax.set_title(title, fontsize=9)
        if missing:
            ax.text(
                0.02, 0.02, f"not estimated: {', '.join(missing)}", transform=ax.transAxes,
                fontsize=7, color="#D55E00",
            )  # fmt: skip
        ax.set_xlim(low - pad, high + pad)
        ax.tick_params(labelsize=8)
        if i % cols == 0:
            ax.set_ylabel("value per cost point", fontsize=8)
        if i // cols == rows - 1 or i + cols >= len(kinds):
            ax.set_xlabel("rating (Elo)", fontsize=8)
    for j in range(len(kinds), rows * cols):
        ax = axes[j // cols][j % cols]
        ax.axis("off")
        text = "\n".join(
            f"{a}: {ratings[a]:.0f} Elo" for a in sorted(ratings, key=ratings.__getitem__)
        )
        ax.text(
            0.05, 0.95,
            "agents (ladder rating)\n" + text
            + "\n\n95 % intervals; dashed: a fair price\n(value per cost point 1); line and band:"
            "\nvalue against rating, 95 %",
            va="top", fontsize=8, transform=ax.transAxes,
        )  # fmt: skip
    fig.suptitle("Value per cost point against the players' rating", fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_restricted(table: pd.DataFrame, path: Path) -> None:
    """The strongest agent's rating loss when it may not buy each kind, 95 % intervals."""
    plt = _plt()
    done = table[table["rating_loss"].notna()]
    fig, ax = plt.subplots(figsize=(6, 0.6 * len(done) + 1.4), dpi=110)
    y = np.arange(len(done))
    loss = done["rating_loss"].to_numpy(dtype=float)
    ax.barh(y, loss, color="#0072B2", alpha=0.8)
    ax.errorbar(
        loss, y,
        xerr=[loss - done["loss_low"].to_numpy(dtype=float),
              done["loss_high"].to_numpy(dtype=float) - loss],
        fmt="none", capsize=4, color="black",
    )  # fmt: skip
    ax.axvline(0, color="0.4", lw=1)
    ax.set_yticks(y, [f"no {k}" for k in done["forbidden"]])
    ax.invert_yaxis()
    agent = str(done["agent"].iloc[0]) if len(done) else ""
    ax.set_xlabel(f"Elo points {agent} loses (95 %)")
    ax.set_title(f"Restricted play: {agent} forbidden one kind", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# -- the report ---------------------------------------------------------------------------------


def report(study: ValuesBySkill) -> str:
    """The Markdown report of a study (finished or stopped)."""
    rules = study.rules
    parts = [
        f"# What each piece is worth, by skill: {', '.join(study.agents)}; "
        f"{rules.players} players\n",
        f"**Verdict: {study.verdict}.**\n",
    ]
    if study.stopped:
        parts.append(
            "The study stopped before it finished; what follows is what it had. Run the same "
            "command again to resume it (the games played are kept).\n"
        )
    notes = [*study.precision_notes]
    impossible = unbuyable(rules)
    if impossible and study.precision is None:
        notes += [
            f"{k} cannot be priced under these rules: {why}." for k, why in impossible.items()
        ]
    if notes:
        parts.append("\n".join(f"- {n}" for n in notes) + "\n")
    parts.append(
        "## In short\n\nWhat a piece of each kind is worth, in budget points (a kind worth more "
        "than its cost is underpriced, less overpriced), to each agent from the weakest to the "
        "strongest (ratings in Elo); the numbers in brackets are the range the games allow "
        "(95 %).\n"
    )
    parts.extend(kind_paragraph(study, kind) + "\n" for kind in priced_kinds(rules))
    parts.append(_values_section(study))
    parts.append(_skill_section(study))
    parts.append(_restricted_section(study))
    parts.append(_games_section(study))
    parts.append(_method_section(study))
    return "\n".join(parts)


def _agents_words(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def kind_paragraph(study: ValuesBySkill, kind: str) -> str:
    """One kind in plain words: what it is worth to each agent, whether its price is right at
    every level of play, how its worth moves with skill, and what forbidding it costs."""
    cost = kind_cost(study.rules, kind)
    part = study.values[study.values["kind"] == kind].sort_values("rating", kind="stable")
    done = part[part["verdict"] != "not estimated"]
    head = f"**{kind.capitalize()}** (costs {cost})."
    if done.empty:
        why = next((str(n) for n in part["note"] if isinstance(n, str) and n), "no estimate")
        return f"{head} Not estimated: {why}."
    worth = "; ".join(
        f"{r.value:.1f} points [{r.value_low:.1f}, {r.value_high:.1f}] to {r.agent} "
        f"({r.rating:.0f} Elo)"
        for r in done.itertuples()
    )
    verdicts = list(dict.fromkeys(done["verdict"]))
    if len(verdicts) == 1:
        price = f"{MEANING[verdicts[0]].capitalize()} for every agent measured."
    else:
        by = [
            f"{v} for {_agents_words(done[done['verdict'] == v]['agent'].tolist())}"
            for v in verdicts
        ]
        price = f"Its price is right for some players and not others: {'; '.join(by)}."
    text = f"{head} Worth {worth}. {price}"
    row = study.skill.set_index("kind").loc[kind] if kind in set(study.skill["kind"]) else None
    line = study.lines.get(kind)
    if line is not None and row is not None:
        if bool(row["depends_on_skill"]):
            way = "more" if line.slope > 0 else "less"
            text += (
                f" It is worth {way} to stronger players: {line.slope:+.1f} points per "
                f"{PER:.0f} Elo [{line.slope_low:+.1f}, {line.slope_high:+.1f}]."
            )
        else:
            text += (
                f" The games do not show its worth moving with skill ({line.slope:+.1f} points "
                f"per {PER:.0f} Elo, [{line.slope_low:+.1f}, {line.slope_high:+.1f}])."
            )
        if math.isfinite(line.p) and line.p < 0.05:
            text += " Its values do not lie on a straight line in rating: read them agent by agent."
    missing = part[part["verdict"] == "not estimated"]
    if len(missing):
        text += f" Not estimated for {_agents_words(missing['agent'].tolist())}."
    r = study.restricted
    hit = r[(r["forbidden"] == kind) & r["rating_loss"].notna()] if len(r) else r
    if len(hit):
        h = hit.iloc[0]
        loss, low, high = float(h["rating_loss"]), float(h["loss_low"]), float(h["loss_high"])
        if low > 0:
            text += (
                f" Forbidden to buy it, {h['agent']} loses {loss:.0f} Elo [{low:.0f}, "
                f"{high:.0f}]: it needs it."
            )
        elif high < 0:
            text += (
                f" Forbidden to buy it, {h['agent']} gains {-loss:.0f} Elo [{-high:.0f}, "
                f"{-low:.0f}]: it plays better without it."
            )
        else:
            text += (
                f" Forbidden to buy it, {h['agent']}'s rating changes by {_signed(-loss)} Elo "
                f"[{_signed(-high)}, {_signed(-low)}]: the games do not show that it needs it."
            )
    return text


def _values_section(study: ValuesBySkill) -> str:
    v = study.values
    shown = v.assign(
        rating=[f"{r:.0f}" for r in v["rating"]],
        value=[_interval(r.value, r.value_low, r.value_high, 1) for r in v.itertuples()],
        value_per_cost=[_interval(r.ratio, r.ratio_low, r.ratio_high, 2) for r in v.itertuples()],
    )[["kind", "cost", "agent", "rating", "value", "value_per_cost", "verdict"]]
    shown = shown.iloc[
        sorted(range(len(v)), key=lambda i: (_KIND_ORDER.get(str(v["kind"].iloc[i]), 99),
                                             float(v["rating"].iloc[i])))
    ]  # fmt: skip
    picture = (
        "![value per cost point against rating](plots/skill.png)\n\n"
        if (v["verdict"] != "not estimated").any()
        else ""
    )
    notes = v[(v["verdict"] == "not estimated") & v["note"].astype(bool)]
    lines = []
    for agent, part in notes.groupby("agent", sort=False):
        if len(part) == len(v[v["agent"] == agent]) and part["note"].nunique() == 1:
            lines.append(f"- {agent}: {part['note'].iloc[0]}")  # the whole agent
        else:
            lines += [f"- {r.kind} for {agent}: {r.note}" for r in part.itertuples()]
    why = "\n" + "\n".join(lines) + "\n" if lines else ""
    return f"""## What each kind is worth to each agent

Value is in budget points: what a piece of that kind adds to the chance to finish ahead, scaled
so that the average spent point is worth one point (95 % intervals). Value per cost point above 1
means underpriced (players who buy it do better than its price says), below 1 overpriced.

{picture}{_md(shown)}
{why}"""


def _skill_section(study: ValuesBySkill) -> str:
    s = study.skill
    if s.empty or s["slope"].isna().all():
        return (
            "## How value changes with skill\n\nA line needs two agents with different "
            "ratings that price the kind; this study has none.\n"
        )
    shown = s.assign(
        slope=[_interval(r.slope, r.slope_low, r.slope_high, 2) for r in s.itertuples()],
    )[["kind", "cost", "slope", "weakest_verdict", "strongest_verdict"]].rename(
        columns={
            "slope": f"value change per {PER:.0f} Elo (points, 95 %)",
            "weakest_verdict": f"verdict at the weakest ({s['weakest'].iloc[0]})",
            "strongest_verdict": f"at the strongest ({s['strongest'].iloc[0]})",
        }
    )
    flags = [str(f) for f in s["flag"] if isinstance(f, str) and f]
    flagged = (
        "\n".join(f"- {f}" for f in flags)
        if flags
        else "- No kind's value measurably depends on skill, and no verdict changes between "
        "the weakest and the strongest agent."
    )
    saved = s.dropna(subset=["slope"])
    crn = ""
    if len(saved):
        ratio = (saved["slope_se_independent_seeds"] / saved["slope_se"]) ** 2
        crn = (
            "\nThe agents played the same game seeds; had they played independent seeds, the "
            "slopes' variances would have been "
            f"{ratio.min():.1f}–{ratio.max():.1f} times as large (the same intervals would have "
            "needed that many times the games).\n"
        )
    return f"""## How value changes with skill

Each kind's value is fitted as a straight line in the agents' ratings (generalised least squares
over the agents, with the covariance their common seeds give). A kind depends on skill when the
95 % interval of its slope excludes 0.

{_md(shown)}

{flagged}
{crn}"""


def _restricted_section(study: ValuesBySkill) -> str:
    r = study.restricted
    run = study.restricted_run
    if r.empty:
        return (
            "## Restricted play\n\nNot run: `--restricted-games N` (``restricted_games=`` in "
            "Python) rates the strongest agent against copies of itself that may not buy each "
            "kind.\n"
        )
    shown = r.assign(
        rating_loss=[_interval(x.rating_loss, x.loss_low, x.loss_high, 0) for x in r.itertuples()]
    )[["forbidden", "rating_loss", "note"]]
    picture = (
        "![rating loss when forbidden a kind](plots/restricted.png)\n\n"
        if r["rating_loss"].notna().any()
        else ""
    )
    how = run.how if run is not None else ""
    played = ""
    if run is not None and run.ladder is not None:
        played = f" {run.ladder.description()}"
    return f"""## Restricted play: what {r["agent"].iloc[0]} loses without each kind

{how}{played} Rating loss in Elo points at {study.rules.players}-player tables (the agent's
rating minus its restricted copy's; 95 % bootstrap interval over games). A kind whose loss is
near 0 is one the agent can do without; a large loss marks one it needs.

{picture}{_md(shown)}
"""


def _games_section(study: ValuesBySkill) -> str:
    rows = []
    for a in study.agents:
        g = study.games.get(a)
        if g is None or g.empty:
            continue
        draws, limit = draw_shares(g)
        seats = seat_table(g, study.rules.players)
        clock = clock_share(g)
        rows.append(
            {
                "agent": a,
                "games": len(g),
                "draws": f"{draws:.1%}",
                "turn limit": f"{limit:.1%}",
                "out on time": "–" if clock is None else f"{clock:.1%}",
                "median turns": int(g["turns"].median()),
                "seat gap": f"{seats['win_rate'].max() - seats['win_rate'].min():.1%}",
                "seconds of play": f"{g['seconds'].sum():.0f}",
            }
        )
    if not rows:
        return "## The games\n\nNo game was played.\n"
    return f"""## The games

Per agent: its games (every seat that agent, random armies), draws and turn-limit draws, the
players out of a game whose clock ran out (R7: a value measured where many do measures the
clocks as well as the pieces; – where the rows do not say), median game length, the gap between
the best and worst seat's win rate, and seconds of play (summed over games, each on one core).

{_md(pd.DataFrame(rows))}
"""


def _method_section(study: ValuesBySkill) -> str:
    axis = study.axis
    ratings = ", ".join(f"{a} {axis.ratings[a]:.0f}" for a in study.agents)
    notes = "".join(f"\n- {n}" for n in axis.notes)
    rules = study.rules
    return f"""## How this was made

- Rules: board {"×".join(map(str, rules.shape))}, {rules.players} players, budget
  {rules.army_budget}, turn limit {rules.max_turns}, think times {rules.think_times}; options
  changed from the 1995 rules: {overrides_markdown(rules)}; study seed {study.seed}. Costs:
  {", ".join(f"{k} {kind_cost(rules, k)}" for k in priced_kinds(rules))}.
- {study.design.describe()} Every seat of a game is the same agent; game `i` of every agent
  starts from the same armies on the same cells (common random numbers, R12).
- The fit: a conditional logit of each choice on the players' counts of each kind
  (types, and the paid traits invisible and teleporter; the chief aside), its log-odds per piece
  divided by the log-odds of the average spent budget point, so that values read in budget
  points; 95 % intervals by the delta method.
- Ratings: {ratings} (Elo), from {axis.source}.{notes}
- The skill line: generalised least squares of each kind's value on the rating, with the
  covariance of the agents' values from their shared games (the sandwich of the fits' scores
  over the seeds they share); the ratings' own uncertainty is left out.
"""


def _signed(x: float) -> str:
    """A whole number with its sign; 0 has none (never "-0")."""
    return f"{round(x):+d}" if round(x) else "0"


def _interval(x: Any, low: Any, high: Any, digits: int) -> str:
    if not isinstance(x, (int, float)) or not math.isfinite(float(x)):
        return "–"
    return f"{x:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


_KIND_ORDER = {
    k: i for i, k in enumerate(("army", "hovercraft", "fortress", "invisible", "teleporter"))
}
