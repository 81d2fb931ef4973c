"""Game health at a cost table, and the bounds a proposal must keep (Ludii's measures of a
game: draws, length, seat advantage; plus the ladder's order and the meta).

At a table, :func:`play_health` plays ``games`` games of the strongest agent in every seat,
each with its own armies (its army policy), think times drawn by the engine (R7), and
:func:`measure` reads from them:

- turn-limit draws (R10), their share with a 95 % Wilson interval; every draw beside them;
- the median game length in turns;
- seat advantage: each seat's share of the decided games it won, with a 95 % interval
  corrected for the number of seats (Bonferroni); a seat is *measurably favoured* when its
  interval lies wholly above the fair share ``1 / players``. Every seat is the same agent, so a
  favoured seat is the board's doing (R3 home zones).

The ladder's order is a short re-run of the ladder's neighbouring agents with the tournament
machinery (:func:`antipolix.ladder.tournament`) at the table; the meta, an army search
(:mod:`antipolix.meta.search`).

:class:`Bounds` holds the limits, with the issue's defaults: turn-limit draws no more than at
the start or 5 %, whichever is larger; the median length within 25 % of the start's; no seat
measurably favoured; no neighbours of the start's ladder measurably reversed; the best army
found against the meta's mixture at most 56 %. :func:`judge` says, bound by bound, whether a
table keeps it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.agents import Agent
from antipolix.checks import is_plain_number
from antipolix.errors import AntipolixError
from antipolix.meta.armies import MetaError
from antipolix.meta.search import Meta, play_rules
from antipolix.rules import Rules
from antipolix.stats import wilson_interval

Progress = Callable[[int, int], None]
BOUNDS = ("draws", "length", "seats", "ladder", "meta")


@dataclass(frozen=True)
class Bounds:
    """The health a proposal must keep (module doc). ``draws``: turn-limit draws at most
    ``max(start's, draws)``; ``length``: the median length within ``±length`` of the start's
    (a fraction); ``seat_level``: the error level of the seat test (no seat's interval, at this
    level shared among the seats, wholly above the fair share); ``ladder``: keep the ladder's
    order; ``meta``: the best army found against the meta's mixture at most this share."""

    draws: float = 0.05
    length: float = 0.25
    seat_level: float = 0.05
    ladder: bool = True
    meta: float = 0.56

    def checked(self) -> Bounds:
        """These bounds, or a :class:`MetaError` naming one that no table can meet."""
        if not is_plain_number(self.draws) or not 0 <= self.draws <= 1:
            raise MetaError(f"the draws bound must be a share from 0 to 1, got {self.draws!r}")
        if not is_plain_number(self.seat_level) or not 0 < self.seat_level < 1:
            raise MetaError(
                f"the seat test's level must be a number above 0 and below 1 (0.05: 95 % "
                f"intervals), got {self.seat_level!r}"
            )
        if not is_plain_number(self.length) or not self.length >= 0:
            raise MetaError(
                f"the length bound is a fraction of the start's median length, 0 or more, got "
                f"{self.length!r}"
            )
        if not is_plain_number(self.meta) or not 0 <= self.meta <= 1:
            raise MetaError(f"the meta bound must be a share from 0 to 1, got {self.meta!r}")
        if self.meta < 0.5:
            raise MetaError(
                f"the meta bound of {self.meta:.0%} cannot be met: every army of the meta's "
                "support scores 50 % against its mixture (that is what an equilibrium is), so "
                "the best army scores at least 50 %; use 0.5 or more (default 0.56)"
            )
        if not isinstance(self.ladder, bool):
            raise MetaError(f"the ladder bound is True or False, got {self.ladder!r}")
        return self


@dataclass(frozen=True)
class Measures:
    """Draws, length and seats of one table's games (module doc)."""

    games: int
    turn_limit: int
    draws: int
    median_turns: float
    seat_wins: tuple[int, ...]
    decided: int
    level: float = 0.05

    @property
    def turn_limit_share(self) -> float:
        return self.turn_limit / self.games if self.games else math.nan

    @property
    def turn_limit_interval(self) -> tuple[float, float]:
        lo, hi = wilson_interval(self.turn_limit, self.games)
        return float(lo), float(hi)

    def seat_table(self) -> list[dict[str, Any]]:
        """Per seat: its wins, its share of decided games, the corrected interval, and whether
        it is measurably favoured."""
        from scipy.stats import norm

        players = len(self.seat_wins)
        z = float(norm.ppf(1 - self.level / (2 * players)))
        lo, hi = wilson_interval(list(self.seat_wins), [self.decided] * players, z=z)
        fair = 1 / players
        return [
            {
                "seat": s,
                "wins": w,
                "share": w / self.decided if self.decided else math.nan,
                "low": float(lo[s]),
                "high": float(hi[s]),
                "favoured": bool(float(lo[s]) > fair),
            }
            for s, w in enumerate(self.seat_wins)
        ]

    @property
    def favoured(self) -> list[int]:
        return [r["seat"] for r in self.seat_table() if r["favoured"]]


def measure(frame: Any, players: int, level: float = 0.05) -> Measures:
    """:class:`Measures` of a results table (``winner``, ``reason``, ``turns``)."""
    games = len(frame)
    reason = frame["reason"].astype(str).str.lower()
    import pandas as pd

    winners = [int(w) for w in frame["winner"] if not pd.isna(w)]
    wins = tuple(sum(1 for w in winners if w == s) for s in range(players))
    return Measures(
        games=games,
        turn_limit=int((reason == "turn_limit").sum()),
        draws=games - len(winners),
        median_turns=float(np.median(frame["turns"])) if games else math.nan,
        seat_wins=wins,
        decided=len(winners),
        level=level,
    )


def play_health(
    rules: Rules,
    agent: Agent,
    games: int,
    seed: int,
    *,
    out: Path | None = None,
    workers: int | None = None,
    progress: bool | Progress = False,
    level: float = 0.05,
) -> Measures:
    """Play ``games`` games of ``agent`` in every seat (its own armies, think times drawn) and
    measure them; ``out``: a resumable ``simulate`` folder."""
    from antipolix.runner import simulate

    table = play_rules(rules)
    try:
        results = simulate(
            table,
            [agent] * table.players,
            games,
            seed,
            workers=workers,
            out=out,
            progress=progress,
        )
    except AntipolixError as exc:
        raise MetaError(f"the health games cannot be played: {exc}") from None
    return measure(results.to_pandas(columns=["winner", "reason", "turns"]), table.players, level)


@dataclass(frozen=True)
class LadderOrder:
    """A short ladder at one table: the agents best first, with ratings, and the bootstrap
    replicates of the ratings (agents in ``agents`` order) that give the interval of any
    difference."""

    agents: tuple[str, ...]
    ranked: tuple[str, ...]
    rating: dict[str, float]
    samples: np.ndarray[Any, np.dtype[np.float64]] = field(repr=False)
    games: int = 0

    def gap(self, above: str, below: str) -> tuple[float, float, float]:
        """``above``'s lead over ``below`` (Elo) and its 95 % interval."""
        d = self.rating[above] - self.rating[below]
        if len(self.samples):
            s = (
                self.samples[:, self.agents.index(above)]
                - self.samples[:, self.agents.index(below)]
            )
            lo, hi = np.percentile(s, [2.5, 97.5])
            return d, float(lo), float(hi)
        return d, math.nan, math.nan


def play_ladder(
    rules: Rules,
    agents: Sequence[str],
    games: int,
    seed: int,
    *,
    out: Path | None = None,
    workers: int | None = None,
    progress: bool | Progress = False,
) -> LadderOrder:
    """The short ladder of ``agents`` at ``rules``: ``games`` games per pair, two players,
    every seat order (:func:`antipolix.ladder.tournament`)."""
    from antipolix.ladder import tournament

    try:
        ladder = tournament(
            list(agents),
            games,
            2,
            rules=rules,
            seed=seed,
            out=out,
            workers=workers,
            progress=progress,
            report=out is not None,
            bootstrap=400,
        )
    except AntipolixError as exc:
        raise MetaError(f"the ladder's re-run cannot be played: {exc}") from None
    table = ladder.ratings
    return LadderOrder(
        agents=tuple(ladder.agents),
        ranked=tuple(table["agent"]),
        rating={str(a): float(r) for a, r in zip(table["agent"], table["rating"], strict=True)},
        samples=ladder.fit.samples,
        games=len(ladder.games),
    )


@dataclass(frozen=True)
class Verdict:
    """One bound at one table: its name, the measured value and the limit in words, and
    whether the table keeps it (None: not measured)."""

    bound: str
    value: str
    limit: str
    kept: bool | None


@dataclass
class Health:
    """What was measured at one cost table (the parts not measured are None)."""

    measures: Measures | None = None
    ladder: LadderOrder | None = None
    meta: Meta | None = None


def judge(health: Health, start: Health, bounds: Bounds) -> list[Verdict]:
    """Each bound (:data:`BOUNDS`) at a table, against the start's measures."""
    out = []
    m, s = health.measures, start.measures
    if m is None or s is None:
        out += [Verdict(b, "–", "–", None) for b in ("draws", "length", "seats")]
    else:
        limit = max(s.turn_limit_share, bounds.draws)
        lo, hi = m.turn_limit_interval
        out.append(
            Verdict(
                "draws",
                f"{m.turn_limit_share:.1%} [{lo:.1%}, {hi:.1%}] of {m.games}",
                f"≤ {limit:.1%} (start {s.turn_limit_share:.1%}, or {bounds.draws:.0%})",
                m.turn_limit_share <= limit + 1e-12,
            )
        )
        change = m.median_turns / s.median_turns - 1 if s.median_turns else math.nan
        out.append(
            Verdict(
                "length",
                f"median {m.median_turns:g} turns ({change:+.0%})",
                f"within ±{bounds.length:.0%} of {s.median_turns:g}",
                bool(abs(change) <= bounds.length + 1e-12),
            )
        )
        seats = m.seat_table()
        top = max(seats, key=lambda r: r["share"] if math.isfinite(r["share"]) else -1)
        out.append(
            Verdict(
                "seats",
                f"best seat {top['seat']}: {top['share']:.1%} [{top['low']:.1%}, "
                f"{top['high']:.1%}] of {m.decided} decided",
                f"no interval above the fair {1 / len(seats):.1%}",
                not m.favoured,
            )
        )
    out.append(_ladder_verdict(health.ladder, start.ladder, bounds))
    if health.meta is None:
        out.append(Verdict("meta", "–", f"≤ {bounds.meta:.0%}", None))
    else:
        best = health.meta.best_response()
        out.append(
            Verdict(
                "meta",
                f"{best['rate']:.1%} [{best['low']:.1%}, {best['high']:.1%}]",
                f"≤ {bounds.meta:.0%}",
                best["rate"] <= bounds.meta + 1e-12,
            )
        )
    return out


def _ladder_verdict(now: LadderOrder | None, start: LadderOrder | None, b: Bounds) -> Verdict:
    if not b.ladder:
        return Verdict("ladder", "not checked", "bound off", True)
    if now is None or start is None:
        return Verdict("ladder", "–", "the start's order", None)
    reversed_, swapped = [], []
    for above, below in zip(start.ranked, start.ranked[1:], strict=False):
        d, lo, hi = now.gap(above, below)
        if hi < 0:
            reversed_.append(f"{below} over {above} by {-d:.0f} Elo [{-hi:.0f}, {-lo:.0f}]")
        elif d < 0:
            swapped.append(f"{below} over {above} by {-d:.0f} Elo (not measurably)")
    order = " > ".join(now.ranked)
    if reversed_:
        return Verdict(
            "ladder", f"{order}: " + "; ".join(reversed_), f"{' > '.join(start.ranked)} kept", False
        )
    text = order + (f" ({'; '.join(swapped)})" if swapped else "")
    return Verdict("ladder", text, f"{' > '.join(start.ranked)} kept", True)


def binding(verdicts: Sequence[Verdict]) -> list[str]:
    """The bounds a table breaks."""
    return [v.bound for v in verdicts if v.kept is False]


__all__ = [
    "BOUNDS",
    "Bounds",
    "Health",
    "LadderOrder",
    "Measures",
    "Verdict",
    "binding",
    "judge",
    "measure",
    "play_health",
    "play_ladder",
]
