"""The ladder in words, tables and a picture: ``ratings.csv``, ``ratings.md``, ``ratings.png``,
``gaps.csv`` (each agent's lead over the next one down), ``scores.csv`` (the win-rate matrix)
and ``usage.csv`` (what each agent buys and does)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from antipolix.files import write_atomically
from antipolix.ladder.ratings import GAP_COLUMNS, RatingFit
from antipolix.runner.rows import ARMY_COLUMNS
from antipolix.usage import USAGE

# per-seat event counts (list<int64> columns) shown when a results table has them


def usage_table(frame: pd.DataFrame, agents: Sequence[str]) -> pd.DataFrame:
    """Per agent: ``games`` (seats held), the pieces of each army item it bought per game
    (``n_army_per_game``, ``n_hovercraft_invisible_per_game``, ...) and, for the event columns
    the table has (``teleport_moves``, ``fortress_defences``, ``crushes``), their totals over
    all its games (``crushes_total``, ...). Columns the table lacks are left out."""
    seats = [np.asarray(a, dtype=object) for a in frame["agents"]]
    labels = np.concatenate(seats) if seats else np.zeros(0, dtype=object)
    out = pd.DataFrame(index=pd.Index(list(agents), name="agent"))
    out["games"] = _per_agent([np.ones(len(a)) for a in seats], labels, out.index)
    out["games"] = out["games"].astype(np.int64)
    for name in ARMY_COLUMNS:
        if name in frame:
            total = _per_agent(_values(frame[name], seats), labels, out.index)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[f"{name}_per_game"] = total / out["games"].to_numpy()
    for name in USAGE:
        if name in frame and frame[name].notna().any():
            total = _per_agent(_values(frame[name], seats), labels, out.index)
            out[f"{name}_total"] = total.astype(np.int64)
    return out.reset_index()


def _values(column: pd.Series, seats: list[Any]) -> list[Any]:
    """Per row, the per-seat values of a list column (zeros where a row has none)."""
    return [
        np.zeros(len(a)) if v is None or (np.ndim(v) == 0 and pd.isna(v)) else np.asarray(v)
        for v, a in zip(column, seats, strict=True)
    ]


def _per_agent(values: list[Any], labels: np.ndarray[Any, Any], index: pd.Index) -> Any:
    flat = np.concatenate(values).astype(np.float64) if values else np.zeros(0)
    sums = pd.Series(flat, index=labels).groupby(level=0).sum()
    return sums.reindex(index, fill_value=0.0).to_numpy()


def item_title(column: str) -> str:
    """``n_hovercraft_invisible_per_game`` → ``hovercraft+invisible``."""
    return column.removeprefix("n_").removesuffix("_per_game").replace("_", "+", 1)


PRIOR = "prior only"  # an interval cell whose bounds the prior sets, not the games


def ratings_frame(fit: RatingFit) -> pd.DataFrame:
    """The ratings table as people read it: whole Elo points, the interval, the counts. A
    rating the games cannot bound (``separated``: only the prior does) is marked ``*`` and
    its interval reads ``prior only``: its bootstrap replicates all give the prior's value, an
    interval of zero width that would read as exact (``953*``, ``953–953``)."""
    t = fit.table
    separated = [bool(s) for s in t["separated"]]
    return pd.DataFrame(
        {
            "rank": t["rank"],
            "agent": t["agent"],
            "rating": [
                f"{_elo(r)}{'*' if s else ''}" for r, s in zip(t["rating"], separated, strict=True)
            ],
            "95 % low": [PRIOR if s else _elo(x) for x, s in zip(t["low"], separated, strict=True)],
            "95 % high": [
                PRIOR if s else _elo(x) for x, s in zip(t["high"], separated, strict=True)
            ],
            "games": t["games"],
            "wins": t["wins"],
            "draws": t["draws"],
        }
    )


def _elo(x: float) -> str:
    return "–" if not math.isfinite(x) else f"{x:.0f}".replace("-", "−")


GAPS_TITLE = "gaps between neighbours (Elo; 95 % bootstrap interval of the difference itself)"


def gaps_frame(fit: RatingFit) -> pd.DataFrame:
    """Each agent's lead over the next one down the ranking, as people read it: the gap, the
    95 % interval of the difference, the share of bootstrap replicates in this order."""
    g = _gaps(fit)
    return pd.DataFrame(
        {
            "above": g["above"],
            "below": g["below"],
            "gap": [
                f"{_elo(x)}{'*' if p else ''}" for x, p in zip(g["gap"], g["prior"], strict=True)
            ],
            "95 % low": [
                PRIOR if p else _elo(x) for x, p in zip(g["low"], g["prior"], strict=True)
            ],
            "95 % high": [
                PRIOR if p else _elo(x) for x, p in zip(g["high"], g["prior"], strict=True)
            ],
            "in this order": [
                "–" if not math.isfinite(x) else f"{100 * x:.1f} %" for x in g["ordered"]
            ],
        }
    )


def _gaps(fit: RatingFit) -> pd.DataFrame:
    if fit.gaps is not None:
        return fit.gaps
    return pd.DataFrame(columns=GAP_COLUMNS)


def gaps_notes(fit: RatingFit) -> list[str]:
    """In words, the gaps that only the prior bounds (marked ``*``)."""
    g = _gaps(fit)
    return [
        f"{b} never finished ahead of {a}, directly or through other agents: the gap is "
        "bounded only by the prior, and so is its interval"
        for a, b, prior in zip(g["above"], g["below"], g["prior"], strict=True)
        if prior
    ]


def scores_frame(fit: RatingFit) -> pd.DataFrame:
    """The win-rate matrix as text: the row agent's share of decided meetings with the column
    agent in which it finished ahead, and how many meetings were decided."""
    share, met = fit.scores, fit.meetings
    cells = {
        col: [
            "–"
            if not math.isfinite(share.at[row, col])
            else f"{100 * share.at[row, col]:.0f} % ({met.at[row, col]})"
            for row in share.index
        ]
        for col in share.columns
    }
    return pd.DataFrame({"agent": list(share.index), **cells})


def scores_long(fit: RatingFit) -> pd.DataFrame:
    """One row per ordered pair of agents that met: ``ahead`` (comparisons the agent finished
    ahead of the opponent), ``behind``, ``tied``, and ``score``, the share of the decided ones
    (ahead + behind) it finished ahead in."""
    rows = []
    for agent in fit.scores.index:
        for opponent in fit.scores.columns:
            decided = int(fit.meetings.at[agent, opponent])
            tied = int(fit.ties.at[agent, opponent])
            if agent == opponent or decided + tied == 0:
                continue
            ahead = int(fit.ahead.at[agent, opponent])
            rows.append(
                {
                    "agent": agent,
                    "opponent": opponent,
                    "ahead": ahead,
                    "behind": decided - ahead,
                    "tied": tied,
                    "score": round(ahead / decided, 4) if decided else math.nan,
                }
            )
    columns = ["agent", "opponent", "ahead", "behind", "tied", "score"]
    return pd.DataFrame(rows, columns=columns)


def summary(fit: RatingFit, head: str) -> str:
    """The ladder as plain text (stdout): the head line, ratings, scores, notes."""
    lines = [
        head,
        "",
        f"ratings (Elo scale, {fit.anchor} = 0; 95 % bootstrap intervals over games):",
        ratings_frame(fit).to_string(index=False),
        "",
        f"{GAPS_TITLE}:",
        gaps_frame(fit).to_string(index=False),
        *(f"* {note}" for note in gaps_notes(fit)),
        "",
        "scores (row agent finished ahead of column agent, share of decided meetings):",
        scores_frame(fit).to_string(index=False),
    ]
    if fit.notes:
        lines += ["", *(f"* {note}" if "prior" in note else f"note: {note}" for note in fit.notes)]
    return "\n".join(lines)


def method(fit: RatingFit, seats: str = "") -> str:
    """How the ratings were made, in a paragraph (``seats``: how the tables were seated)."""
    return (
        "Every game is broken into pairwise comparisons of finishing places: the winner "
        "finished ahead of everyone; among the eliminated, the later finished ahead of the "
        "earlier; in a draw (turn limit, nul) the players still in the game tie with each other "
        "and finished ahead of the eliminated (all eliminated in one instant: the last two "
        "tie). Ratings maximise the Bradley–Terry likelihood of those comparisons, a tie "
        "counting as half a win each way, with a weak Gaussian prior on each rating (standard "
        f"deviation {fit.prior_sd:.0f} Elo) that keeps them finite when an agent won or lost "
        f"every comparison. They are on the Elo scale (400 · log10 of the odds) with "
        f"{fit.anchor} at 0. The 95 % intervals are the 2.5 and 97.5 percentiles of "
        f"{fit.bootstrap} bootstrap replicates that resample whole games within each lineup "
        "(the comparisons of one game are correlated). Think times are drawn by the engine "
        "(R7 think_times = drawn), so no agent gains on the clock." + (f" {seats}" if seats else "")
    )


def markdown(fit: RatingFit, usage: pd.DataFrame, description: str, seats: str = "") -> str:
    """``ratings.md``: what was played, the ratings, the scores, the usage, the method."""
    parts = [
        "# Rating ladder",
        "",
        description,
        "",
        f"## Ratings (Elo scale, {fit.anchor} = 0, 95 % intervals)",
        "",
        _md(ratings_frame(fit)),
    ]
    if fit.notes:
        star = "\\* "  # Markdown: a literal asterisk, the mark of the ratings it explains
        parts += ["", *(f"- {star if 'prior' in n else ''}{n}" for n in fit.notes)]
    parts += [
        "",
        "## Gaps between neighbours",
        "",
        "Each agent's lead over the next one down, with the 95 % interval of the difference "
        "itself and the share of bootstrap replicates that rank the two in this order. Two "
        "agents are told apart when that interval is clear of 0; the intervals of their "
        f"ratings also hold the uncertainty of the gap to {fit.anchor}, which both share, and "
        "may overlap even then.",
        "",
        _md(gaps_frame(fit)),
        *(["", *(f"- \\* {note}" for note in gaps_notes(fit))] if gaps_notes(fit) else []),
        "",
        "## Scores",
        "",
        "Row agent finished ahead of column agent: share of their decided meetings (a meeting "
        "is a pair of agents in one game, decided unless they tied), and how many.",
        "",
        _md(scores_frame(fit)),
        "",
        "## Army and play",
        "",
        _usage_text(usage),
        "",
        "## Method",
        "",
        method(fit, seats),
        "",
    ]
    return "\n".join(parts)


def _usage_text(usage: pd.DataFrame) -> str:
    items = [c for c in usage.columns if c.endswith("_per_game") and (usage[c].fillna(0) > 0).any()]
    events = [c for c in usage.columns if c.endswith("_total")]
    shown = pd.DataFrame({"agent": usage["agent"], "games": usage["games"]})
    for c in items:
        shown[item_title(c)] = usage[c].round(2)
    for c in events:
        shown[c.removesuffix("_total").replace("_", " ")] = usage[c]
    text = (
        "Pieces bought per game, by army item (items no agent bought are left out)"
        + (
            f"; {', '.join(c.removesuffix('_total').replace('_', ' ') for c in events)}: "
            "totals over all the agent's games"
            if events
            else ""
        )
        + "."
    )
    return text + "\n\n" + _md(shown)


def _md(frame: pd.DataFrame) -> str:
    align = ["left" if c == "agent" else "right" for c in frame.columns]
    return str(frame.to_markdown(index=False, missingval="–", floatfmt=".2f", colalign=align))


def plot_ratings(fit: RatingFit, path: Path, title: str = "") -> None:
    """Ratings with their 95 % intervals, best at the top; separated agents drawn hollow."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = fit.table.iloc[::-1].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(6.5, 1.2 + 0.45 * len(t)), dpi=120)
    y = np.arange(len(t))
    low = (t["rating"] - t["low"]).fillna(0).clip(lower=0)
    high = (t["high"] - t["rating"]).fillna(0).clip(lower=0)
    ax.axvline(0, color="0.6", lw=1, ls="--")
    ax.errorbar(t["rating"], y, xerr=[low, high], fmt="none", ecolor="#0072B2", capsize=4)
    solid = ~t["separated"].to_numpy(dtype=bool)
    ax.plot(t["rating"][solid], y[solid], "o", color="#0072B2", label="rating, 95 % interval")
    if (~solid).any():
        ax.plot(
            t["rating"][~solid], y[~solid], "o", mfc="white", color="#D55E00",
            label=f"gap to {fit.anchor} bounded only by the prior",
        )  # fmt: skip
    for yy, r in zip(y, t["rating"], strict=True):
        ax.annotate(f"{r:.0f}", (r, yy), xytext=(0, 7), textcoords="offset points", ha="center",
                    fontsize=8)  # fmt: skip
    ax.set_yticks(y, t["agent"])
    ax.set_ylim(-0.7, len(t) - 0.3)
    ax.set_xlabel(f"rating (Elo scale, {fit.anchor} = 0)")
    ax.set_title(title or f"Ratings, 95 % bootstrap intervals ({fit.games} games)", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    write_atomically(path, lambda f: fig.savefig(f, format="png"))
    plt.close(fig)


def write_reports(
    folder: Path, fit: RatingFit, usage: pd.DataFrame, description: str, seats: str = ""
) -> list[Path]:
    """Write the report files into ``folder``; the paths written."""
    table = fit.table.copy()
    for c in ("rating", "low", "high"):
        table[c] = table[c].round(1)
    files = {
        "ratings.csv": table.to_csv(index=False),
        "gaps.csv": _gaps(fit).round(4).to_csv(index=False),
        "scores.csv": scores_long(fit).to_csv(index=False),
        "usage.csv": usage.round(4).to_csv(index=False),
        "ratings.md": markdown(fit, usage, description, seats),
    }
    out = []
    for name, text in files.items():
        write_atomically(folder / name, text.encode())
        out.append(folder / name)
    plot_ratings(fit, folder / "ratings.png")
    out.append(folder / "ratings.png")
    return out
