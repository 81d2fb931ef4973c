"""Plots and a one-page Markdown report of a balancing study, readable without code."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from antipolix.balance.study import CostFit
from antipolix.files import write_atomically
from antipolix.stats import wilson_interval


def seat_table(games: pd.DataFrame, players: int) -> pd.DataFrame:
    """Win rate by seat among all games (draws count as no win), with 95 % intervals."""
    rows = []
    for seat in range(players):
        wins = int((games["winner"] == seat).sum())
        low, high = wilson_interval(wins, len(games))
        rate = wins / len(games) if len(games) else float("nan")
        rows.append(
            {"seat": seat, "wins": wins, "win_rate": rate, "low": float(low), "high": float(high)}
        )
    return pd.DataFrame(rows)


def draw_shares(games: pd.DataFrame) -> tuple[float, float]:
    """Shares of games without a winner, and of those ended by the turn limit (R10)."""
    return (
        float(games["winner"].isna().mean()),
        float((games["reason"].str.lower() == "turn_limit").mean()),
    )


def clock_share(games: pd.DataFrame) -> float | None:
    """The share of the players out of these games whose clock ran out (R7), among those whose
    rows say why (None when none do: tables written before they said, or no one out)."""
    if "elimination_reason" not in games:
        return None
    out = [r for why in games["elimination_reason"] if why is not None for r in why if r]
    return sum(r == "timer" for r in out) / len(out) if out else None


def measures_table(fit: CostFit) -> pd.DataFrame:
    """Per iteration, the balance measures a designer watches while costs move: draws (and
    turn-limit draws), median game length, and the gap between the best and worst seat."""
    rows = []
    for i, games in enumerate(fit.games):
        seats = seat_table(games, fit.rules.players)
        draws, limit = draw_shares(games)
        rows.append(
            {
                "iteration": i,
                "draws": f"{draws:.1%}",
                "turn limit": f"{limit:.1%}",
                "median turns": int(games["turns"].median()),
                "seat gap (best − worst win rate)": (
                    f"{seats['win_rate'].max() - seats['win_rate'].min():.1%}"
                ),
            }
        )
    return pd.DataFrame(rows)


def _appearances(games: pd.DataFrame) -> pd.DataFrame:
    """How often each kind appears: pieces per army, in all armies and in winning ones."""
    from antipolix.balance.values import KINDS

    every: list[dict[str, int]] = [seat for seats in games["kinds"] for seat in seats]
    won = [
        seats[int(w)]
        for seats, w in zip(games["kinds"], games["winner"], strict=True)
        if w is not None and not (isinstance(w, float) and math.isnan(w))
    ]
    return pd.DataFrame(
        {
            "kind": list(KINDS),
            "pieces per army": [sum(a[k] for a in every) / max(len(every), 1) for k in KINDS],
            "pieces per winning army": [
                sum(a[k] for a in won) / len(won) if won else math.nan for k in KINDS
            ],
        }
    )


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _estimated(table: pd.DataFrame) -> pd.DataFrame:
    return table[table["estimated"]] if "estimated" in table else table


def plot_values(table: pd.DataFrame, path: Path, title: str) -> None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4.5), dpi=120)
    missing = [str(k) for k in table["kind"] if k not in set(_estimated(table)["kind"])]
    table = _estimated(table)
    top = float(max(table["cost"].max(), table["value_high"].max())) * 1.1
    ax.plot([0, top], [0, top], color="0.6", lw=1, ls="--", label="value = cost (balanced)")
    ax.errorbar(
        table["cost"],
        table["value"],
        yerr=[table["value"] - table["value_low"], table["value_high"] - table["value"]],
        fmt="o",
        capsize=4,
        color="#0072B2",
        label="estimated value, 95 % interval",
    )
    for _, row in table.iterrows():
        ax.annotate(
            row["kind"], (row["cost"], row["value"]), xytext=(6, 4), textcoords="offset points"
        )
    ax.set_xlabel("cost (budget points)")
    ax.set_ylabel("value (budget points)")
    ax.set_title(title)
    ax.legend(loc="upper left", fontsize=8)
    if missing:
        ax.text(
            0.98,
            0.02,
            f"not estimated: {', '.join(missing)}",
            transform=ax.transAxes,
            ha="right",
            va="bottom",
            fontsize=8,
            color="#D55E00",
        )
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_convergence(iterations: pd.DataFrame, path: Path) -> None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4.5), dpi=120)
    colours = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"]
    for colour, (kind, rows) in zip(
        colours, _estimated(iterations).groupby("kind", sort=False), strict=False
    ):
        ax.errorbar(
            rows["iteration"],
            rows["ratio"],
            yerr=[rows["ratio"] - rows["ratio_low"], rows["ratio_high"] - rows["ratio"]],
            fmt="-o",
            capsize=3,
            color=colour,
            label=kind,
        )
    ax.axhline(1.0, color="0.6", lw=1, ls="--")
    ax.set_xlabel("iteration")
    ax.set_ylabel("value / cost (1 = fairly priced)")
    ax.set_title("Convergence of value per cost point")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def fair_share(games: pd.DataFrame, players: int) -> float:
    """The win rate every seat has when no seat is favoured: the decided games shared equally
    (a draw is no seat's win, so the fair share is below 1 / players when there are draws)."""
    draws, _ = draw_shares(games)
    return (1.0 - draws) / players


def plot_seats(seats: pd.DataFrame, path: Path, players: int, fair: float | None = None) -> None:
    """Win rate by seat (all games) with 95 % intervals, and the fair share line: ``fair``
    (net of draws, :func:`fair_share`), or 1 / players when not given."""
    fair = 1 / players if fair is None else fair
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=120)
    ax.bar(seats["seat"], seats["win_rate"], color="#009E73")
    ax.errorbar(
        seats["seat"],
        seats["win_rate"],
        yerr=[seats["win_rate"] - seats["low"], seats["high"] - seats["win_rate"]],
        fmt="none",
        capsize=4,
        color="black",
    )
    label = (
        f"fair share 1/{players}"
        if abs(fair - 1 / players) < 1e-12
        else f"fair share {100 * fair:.1f} % (games not drawn, shared by {players} seats)"
    )
    ax.axhline(fair, color="0.4", lw=1.2, ls="--", label=label)
    ax.set_xticks(seats["seat"])
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate (all games)")
    ax.set_title("Win rate by seat, 95 % intervals")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _noted(table: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """``columns`` of a value table, with the ``note`` of kinds that could not be estimated."""
    if "estimated" in table and not table["estimated"].all():
        out = table[[*columns, "note"]].copy()
        out["note"] = [n if n else "" for n in out["note"]]
        return out
    return table[columns]


def _md(frame: pd.DataFrame) -> str:
    return str(frame.to_markdown(index=False, floatfmt=".2f", missingval="–"))


def conclusion(fit: CostFit) -> str:
    """How sure the study is of its proposal, in a designer's words: balanced within the
    intervals, stopped at the nearest whole-point table, or stopped at the iteration limit."""
    last = fit.estimates[-1]
    missing = fit.unestimated
    if fit.stopped:
        return (
            f"The study stopped ({fit.stopped}) after {len(fit.estimates)} fitted "
            f"iteration{'s' if len(fit.estimates) != 1 else ''}: the proposal is the step the "
            "last fitted iteration gave, not a balanced table."
        )
    if missing:
        kinds = ", ".join(missing)
        return (
            f"The games could not price {kinds} (see the cautions), so the study "
            f"cannot call any cost table balanced: {kinds} kept "
            f"{'its' if len(missing) == 1 else 'their'} cost, and the other kinds' values are "
            "measured without "
            f"{'it' if len(missing) == 1 else 'them'} in play. Change the rules (budget, board) "
            "so that armies can buy every kind, or play more games."
        )
    if fit.converged:
        return (
            "Every kind's value per cost point is 1 within its 95 % interval at the last "
            f"iteration ({last.games} games): with this many games, no kind is measurably under- "
            "or overpriced at the proposed costs."
        )
    if fit.proposed == fit.costs[-1]:
        return (
            "The fit stopped because the next step rounds to the same costs, although some "
            "kind's value per cost point is not 1 within its interval: whole-point costs cannot "
            "get closer. Treat the proposal as the nearest whole-point table."
        )
    return (
        f"The iteration limit ({len(fit.estimates)}) was reached before every kind's value "
        "per cost point was 1 within its interval; the proposal (the next step) is a "
        "direction, not a balanced table: run more iterations (the study resumes) or more "
        "games per iteration."
    )


def cautions(fit: CostFit) -> list[str]:
    """What a designer should read with the proposal: whose play the values measure, draws that
    rose while costs moved, kinds stuck at the lowest cost, kinds that could not be priced."""
    out = [
        f"The values are those of the `{fit.agent_name}` agent's play: they say what each kind "
        "is worth to that agent, not to players who use it differently (an agent with a plan "
        "for teleporter networks or fortress lines may value them more)."
    ]
    if len(fit.games) >= 2:
        first, _ = draw_shares(fit.games[0])
        last, _ = draw_shares(fit.games[-1])
        if last - first >= 0.05:
            out.append(
                f"Draws rose from {first:.0%} of games at the start to {last:.0%} at the last "
                "iteration: a table that prices the kinds fairly can still make games end "
                "without a winner more often. Check the game lengths below before adopting it."
            )
    floor = [k for k, v in fit.proposed.items() if v <= 1]
    if floor:
        names = ", ".join(floor)
        out.append(
            f"{names} {'is' if len(floor) == 1 else 'are'} proposed at the lowest cost, 1 "
            "point: a cost cannot go lower, so if such a piece is worth less than a point the "
            "table cannot make it fair. Consider changing what it does (strength, move field) "
            "instead of its price."
        )
    for kind, why in fit.unestimated.items():
        out.append(f"{kind} could not be estimated ({why}); its cost was not moved.")
    return out


def write_report(fit: CostFit, folder: Path) -> Path:
    """Write ``plots/*.png`` and ``report.md`` for a study, finished or stopped (its verdict
    and the reason first, then what it had); returns the report path."""
    plots = folder / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    players = fit.rules.players
    sections = [f"# Balancing study: {fit.agent_name} agents, {players} players\n", _verdict(fit)]
    sections.append(f"{fit.description}\n")
    if fit.estimates:
        last = fit.estimates[-1]
        title = f"Values at iteration {len(fit.estimates) - 1}"
        plot_values(last.table, plots / "values.png", title)
        plot_convergence(fit.iterations, plots / "convergence.png")
        sections += [_proposal_section(fit), _values_section(fit), _convergence_section(fit)]
    games = fit.stopped_games if fit.stopped_games is not None else None
    if games is None and fit.games:
        games = fit.games[-1]
    if games is not None and len(games):
        seats = seat_table(games, players)
        fair = fair_share(games, players)
        plot_seats(seats, plots / "seats.png", players, fair)
        sections.append(_measures_section(fit, games, seats, fair))
    sections.append(f"## How this was made\n\n{fit.method}\n")
    path = folder / "report.md"
    write_atomically(path, "\n".join(sections).encode("utf-8"))
    return path


def _verdict(fit: CostFit) -> str:
    """The report's first words: how the study ended and why, and the kinds these rules
    cannot price."""
    from antipolix.balance.values import unbuyable

    text = f"**Verdict: {fit.verdict}.**\n"
    if fit.stopped:
        text += (
            "\nThe study stopped before its end; this report shows what it had"
            + (
                f" ({len(fit.estimates)} iteration{'s' if len(fit.estimates) != 1 else ''} fitted)."
                if fit.estimates
                else " (no iteration could be fitted)."
            )
            + "\n"
        )
    impossible = unbuyable(fit.rules)
    if impossible:
        kinds = list(impossible)
        names = ", ".join(kinds[:-1]) + " and " + kinds[-1] if len(kinds) > 1 else kinds[0]
        text += (
            f"\n{names} cannot be priced under these rules: no army can buy "
            f"{'it' if len(kinds) == 1 else 'them'} ("
            + "; ".join(f"{k}: {why}" for k, why in impossible.items())
            + "). Change the budget or the board so that armies can buy every kind.\n"
        )
    return text


def _proposal_section(fit: CostFit) -> str:
    proposed = pd.DataFrame(
        {
            "kind": list(fit.proposed),
            "start cost": [fit.costs[0].get(k) for k in fit.proposed],
            "proposed cost": list(fit.proposed.values()),
        }
    )
    warnings = "\n".join(f"- {line}" for line in cautions(fit))
    return f"""## Proposed costs

{_md(proposed)}

{conclusion(fit)}

## Cautions

{warnings}
"""


def _values_section(fit: CostFit) -> str:
    last, first = fit.estimates[-1], fit.estimates[0].table
    columns = ["kind", "cost", "value", "value_low", "value_high", "ratio", "ratio_low"]
    return f"""## What each kind is worth

Value is in budget points: what a piece of that kind adds to the chance to win, scaled so that
the average spent point is worth one point. A kind whose value is above its cost is underpriced
(players who buy it win more than its price says); below, overpriced.

![value against cost](plots/values.png)

Last iteration ({last.decided} decided games of {last.games}):

{_md(_noted(last.table, [*columns, "ratio_high"]))}

At the start (the rules as given, {fit.estimates[0].decided} decided games):

{_md(_noted(first, ["kind", "cost", "value", "value_low", "value_high", "ratio"]))}
"""


def _convergence_section(fit: CostFit) -> str:
    return f"""## Convergence

![value per cost point by iteration](plots/convergence.png)

{_md(fit.costs_table())}

What the games looked like at each iteration (a cost table can balance the kinds and still change
how games go: watch the draws):

{_md(measures_table(fit))}
"""


def _measures_section(fit: CostFit, games: pd.DataFrame, seats: pd.DataFrame, fair: float) -> str:
    players = fit.rules.players
    draws, limit = draw_shares(games)
    turns = games["turns"].describe(percentiles=[0.1, 0.5, 0.9])
    shown = seats.assign(
        seat=seats["seat"].astype(str),
        win_rate=[f"{100 * v:.1f} %" for v in seats["win_rate"]],
        low=[f"{100 * v:.1f} %" for v in seats["low"]],
        high=[f"{100 * v:.1f} %" for v in seats["high"]],
    )
    appear = _appearances(games)
    which = "the iteration it stopped at" if games is fit.stopped_games else "last iteration"
    return f"""## Balance measures ({which})

![win rate by seat](plots/seats.png)

- Draws: {draws:.1%} of games ({limit:.1%} by the turn limit of {fit.rules.max_turns}).
- Game length: median {turns["50%"]:.0f} turns; 10th percentile {turns["10%"]:.0f}, 90th
  percentile {turns["90%"]:.0f}, longest {turns["max"]:.0f}.
- Win rate by seat (all games, 95 % intervals; with no seat favoured each would win
  {fair:.1%}, the games not drawn shared by {players} seats):

{_md(shown)}

- How often each kind appears (pieces per army, all armies and winning armies):

{_md(appear)}
"""
