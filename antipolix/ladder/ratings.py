"""Bradley–Terry ratings from finishing orders, on the Elo scale, with bootstrap intervals.

Every game is broken into pairwise comparisons of its seats' finishing places (R10, R11): the
winner finished ahead of everyone; among the eliminated, the later finished ahead of the
earlier; in a draw (``turn_limit``, ``nul``) the players still in the game tie with each other
and finished ahead of every eliminated one. A comparison scores 1 (ahead), ½ (tie) or 0, and
the ratings ``r`` maximise

    Σ over comparisons  s · log σ(r_i − r_j) + (1 − s) · log σ(r_j − r_i)  −  Σ_i r_i² / (2 τ²)

(σ the logistic function): Bradley–Terry with ties counted as half a win each way, as Elo does,
plus a weak Gaussian prior (``τ`` = :data:`PRIOR_SD` Elo points a rating) that keeps every
rating finite when an agent won, or lost, every comparison (perfect separation, where the
maximum-likelihood rating is infinite). With a few dozen games per pair the prior moves a
rating by a few Elo points; an agent ``separated`` from the anchor (the games never ranked it
both ahead of and behind the anchor's group) has a gap to the anchor that only the prior
bounds, and the table says so.

Ratings are on the Elo scale (``400 · log10`` of the odds: 400 points ahead means ten-to-one
odds) and anchored: the agent ``random`` is 0, or the first agent when there is none. The 95 %
intervals are percentiles of a seeded bootstrap over *games* (the comparisons of one game are
correlated, so whole games are resampled), within each lineup (the set of agents at a table),
since a tournament fixes how many games each lineup plays.

>>> import pandas as pd
>>> games = pd.DataFrame({
...     "agents": [["a", "b"]] * 4,
...     "winner": [0, 0, 1, None],
...     "elimination_order": [[1], [1], [0], []],
...     "reason": ["last_player"] * 3 + ["turn_limit"],
... })
>>> fit_ratings(games, bootstrap=0)[["agent", "games", "wins", "draws"]].to_dict("list")
{'agent': ['a', 'b'], 'games': [4, 4], 'wins': [2, 1], 'draws': [1, 1]}
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from antipolix.errors import SimulationError

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped, unused-ignore]

ELO = 400.0 / math.log(10.0)  # Elo points per unit of log-odds
PRIOR_SD = 1000.0  # the Gaussian prior's standard deviation of a rating, in Elo points
BOOTSTRAP = 1000  # bootstrap replicates (games resampled within each lineup)
ANCHOR = "random"  # the agent rated 0 when present
COLUMNS = ("agents", "winner", "elimination_order", "reason")  # what a fit reads
GAP_COLUMNS = ["above", "below", "gap", "low", "high", "ordered", "prior"]  # RatingFit.gaps

FloatArray = npt.NDArray[np.float64]


class LadderError(SimulationError):
    """A tournament or a rating fit that cannot start: bad agents, games, players, folder or
    results table."""


def finishing_places(
    winner: int | None, elimination_order: Sequence[int], reason: str, players: int
) -> list[float]:
    """Each seat's place at the end of a game (0 first; tied seats share the mean of their
    places): the winner first, then the players still in the game, then the eliminated, the
    last eliminated first (R10, R11). In a draw the players still in the game tie. For
    ``all_eliminated`` (the remaining players went out in the same instant) a results row does
    not say who went out in that final instant: at least the last two did, and they tie.

    >>> finishing_places(2, [0, 3, 1], "last_player", 4)
    [3.0, 1.0, 0.0, 2.0]
    >>> finishing_places(None, [1], "turn_limit", 3)
    [0.5, 2.0, 0.5]
    >>> finishing_places(None, [0, 1, 2], "all_eliminated", 3)
    [2.0, 0.5, 0.5]
    """
    order = [int(s) for s in elimination_order]
    in_game = [s for s in range(players) if s not in order]
    if winner is not None:
        first = [int(winner)]
    elif reason == "all_eliminated":
        first = order[-2:]
    else:
        first = in_game
    others = [s for s in in_game if s not in first]  # none, unless the row is inconsistent
    groups = [first, others, *([s] for s in reversed(order) if s not in first)]
    places = [math.nan] * players
    at = 0
    for group in groups:
        for seat in group:
            places[seat] = at + (len(group) - 1) / 2
        at += len(group)
    return places


@dataclass
class _Patterns:
    """The games of a results table, grouped into distinct outcomes (who sat where, who won,
    the elimination order, why it ended): a bootstrap resamples games by counting outcomes."""

    agents: list[str]
    counts: npt.NDArray[np.int64]  # (U,) games per outcome
    score: FloatArray  # (U, n, n) per outcome: score of i against j (1 ahead, ½ tie)
    ahead: FloatArray  # (U, n, n) comparisons i finished ahead of j
    tied: FloatArray  # (U, n, n) comparisons i tied with j
    seated: FloatArray  # (U, n) seats held
    wins: FloatArray  # (U, n)
    draws: FloatArray  # (U, n)
    strata: npt.NDArray[np.int64]  # (U,) lineup of each outcome
    games: int = 0


def _patterns(frame: Any, order: Sequence[str] | None) -> _Patterns:
    import pandas as pd

    missing = [c for c in COLUMNS if c not in frame]
    if missing:
        raise LadderError(f"a results table needs the columns {', '.join(missing)}")
    keys: dict[tuple[Any, ...], int] = {}
    codes = []
    for labels, winner, eliminated, reason in zip(*(frame[c] for c in COLUMNS), strict=True):
        w = None if pd.isna(winner) else int(winner)
        key = (tuple(str(a) for a in labels), w, tuple(int(s) for s in eliminated), str(reason))
        codes.append(keys.setdefault(key, len(keys)))
    seen = list(dict.fromkeys(a for key in keys for a in key[0]))
    agents = list(order) if order is not None else seen
    unknown = [a for a in seen if a not in agents]
    if unknown:
        raise LadderError(f"the games hold agents not in the list: {', '.join(unknown)}")
    index = {a: i for i, a in enumerate(agents)}
    n, u = len(agents), len(keys)
    p = _Patterns(
        agents=agents,
        counts=np.bincount(np.asarray(codes, dtype=np.int64), minlength=u),
        score=np.zeros((u, n, n)),
        ahead=np.zeros((u, n, n)),
        tied=np.zeros((u, n, n)),
        seated=np.zeros((u, n)),
        wins=np.zeros((u, n)),
        draws=np.zeros((u, n)),
        strata=np.zeros(u, dtype=np.int64),
        games=len(codes),
    )
    lineups: dict[tuple[str, ...], int] = {}
    for k, (labels, winner, eliminated, reason) in enumerate(keys):
        seats = [index[a] for a in labels]
        places = finishing_places(winner, eliminated, reason, len(seats))
        p.strata[k] = lineups.setdefault(tuple(sorted(set(labels))), len(lineups))
        for s, i in enumerate(seats):
            p.seated[k, i] += 1
            p.wins[k, i] += winner == s
            p.draws[k, i] += winner is None
            for t in range(s + 1, len(seats)):
                j = seats[t]
                if i == j:  # the same agent in two seats: no comparison
                    continue
                if places[s] == places[t]:
                    p.tied[k, i, j] += 1
                    p.tied[k, j, i] += 1
                    p.score[k, i, j] += 0.5
                    p.score[k, j, i] += 0.5
                else:
                    a, b = (i, j) if places[s] < places[t] else (j, i)
                    p.ahead[k, a, b] += 1
                    p.score[k, a, b] += 1
    return p


def fit_bt(score: FloatArray, prior_sd: float = PRIOR_SD) -> FloatArray:
    """Bradley–Terry ratings (log-odds units, mean-free up to the prior) maximising the
    penalised likelihood of the module docstring; ``score`` is (n, n) or a batch (B, n, n) of
    score matrices (``score[i, j]``: points of i against j). Newton's method with step halving
    (the objective is strictly concave)."""
    w = np.asarray(score, dtype=np.float64)
    single = w.ndim == 2
    if single:
        w = w[None]
    tau2 = (prior_sd / ELO) ** 2
    meet = w + np.swapaxes(w, 1, 2)
    r = np.zeros(w.shape[:2])
    value = _objective(w, r, tau2)
    eye = np.eye(w.shape[1])
    for _ in range(200):
        d = r[:, :, None] - r[:, None, :]
        p = np.exp(-np.logaddexp(0.0, -d))
        grad = (w - meet * p).sum(axis=2) - r / tau2
        curv = meet * p * (1.0 - p)
        neg_hess = eye * (curv.sum(axis=2) + 1.0 / tau2)[:, :, None] - curv
        step = np.linalg.solve(neg_hess, grad[:, :, None])[:, :, 0]
        t = np.ones(len(r))
        for _ in range(60):
            trial = r + t[:, None] * step
            new = _objective(w, trial, tau2)
            worse = new < value - 1e-12 * np.maximum(1.0, np.abs(value))
            if not worse.any():
                break
            t[worse] /= 2
        r, value = trial, new
        if np.max(np.abs(t[:, None] * step)) < 1e-10:
            break
    out: FloatArray = r[0] if single else r
    return out


def _objective(w: FloatArray, r: FloatArray, tau2: float) -> FloatArray:
    d = r[:, :, None] - r[:, None, :]
    value: FloatArray = -(w * np.logaddexp(0.0, -d)).sum(axis=(1, 2)) - (r * r).sum(1) / (2 * tau2)
    return value


def _reach(score: FloatArray) -> npt.NDArray[np.bool_]:
    """``reach[i, j]``: a chain of comparisons where each finished ahead of (or tied with) the
    next leads from i to j (transitive closure)."""
    reach = score > 0
    np.fill_diagonal(reach, True)
    for k in range(len(reach)):
        reach = reach | (reach[:, k : k + 1] & reach[k : k + 1, :])
    return reach


@dataclass(frozen=True)
class RatingFit:
    """A fitted ladder: ``table`` (one row per agent, best first: ``rank``, ``agent``,
    ``rating``, ``low``, ``high``, ``games``, ``wins``, ``draws``, ``losses``, ``separated``),
    ``scores`` (row agent's share of the decided meetings with the column agent in which it
    finished ahead), ``meetings`` (those decided meetings, counted), ``ahead`` (those it
    finished ahead in), ``ties`` (meetings tied), the ``anchor`` (rated 0) and ``notes`` (in
    words: the anchor when it is not random, agents separated from it). A meeting is a pair
    of agents in one game. ``gaps``: each agent's lead over the next one down the ranking, with
    the 95 % interval of that difference (see :func:`neighbour_gaps`)."""

    table: pd.DataFrame
    scores: pd.DataFrame
    meetings: pd.DataFrame
    ahead: pd.DataFrame
    ties: pd.DataFrame
    anchor: str
    games: int
    bootstrap: int
    prior_sd: float
    notes: tuple[str, ...] = ()
    samples: FloatArray = field(default_factory=lambda: np.zeros((0, 0)), repr=False)
    gaps: pd.DataFrame | None = field(default=None, repr=False)


def fit(
    frame: Any,
    *,
    agents: Sequence[str] | None = None,
    anchor: str | None = None,
    prior_sd: float = PRIOR_SD,
    bootstrap: int = BOOTSTRAP,
    seed: int = 0,
) -> RatingFit:
    """Fit the ratings of the games of ``frame`` (a results table: pandas or pyarrow, with the
    columns ``agents``, ``winner``, ``elimination_order``, ``reason``; any study's
    ``Results.to_pandas()``). ``agents`` orders the agents (default: as they first appear);
    ``anchor`` is the agent rated 0 (default ``random`` if present, else the first agent);
    ``bootstrap`` replicates (0: no intervals) drawn from ``seed``."""
    import pandas as pd

    if hasattr(frame, "to_pandas") and not isinstance(frame, pd.DataFrame):
        frame = frame.to_pandas()
    if not isinstance(bootstrap, int) or isinstance(bootstrap, bool) or bootstrap < 0:
        raise LadderError(f"bootstrap must be an integer >= 0, got {bootstrap!r}")
    if not isinstance(prior_sd, (int, float)) or not 0 < prior_sd < math.inf:
        raise LadderError(f"prior_sd must be a positive number of Elo points, got {prior_sd!r}")
    p = _patterns(frame, agents)
    names = p.agents
    if len(names) < 2:
        raise LadderError(f"a rating needs games between at least two agents, got {names}")
    notes = []
    if anchor is None:
        anchor = ANCHOR if ANCHOR in names else names[0]
        if anchor != ANCHOR:
            notes.append(f"no agent named {ANCHOR!r}: the first agent, {anchor}, is rated 0")
    elif anchor not in names:
        raise LadderError(f"the anchor {anchor!r} is not one of the agents: {', '.join(names)}")
    a = names.index(anchor)
    counts = p.counts.astype(np.float64)
    score = np.tensordot(counts, p.score, axes=1)
    ahead = np.tensordot(counts, p.ahead, axes=1)
    tied = np.tensordot(counts, p.tied, axes=1)
    r = fit_bt(score, prior_sd)
    rating = (r - r[a]) * ELO
    samples = _bootstrap(p, bootstrap, seed, prior_sd, a)
    if len(samples):
        low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    else:
        low = high = np.full(len(names), math.nan)
    reach = _reach(score)
    separated = ~(reach[:, a] & reach[a, :])
    together = reach & reach.T  # the strongly connected groups of the comparisons
    groups = list(dict.fromkeys(tuple(np.flatnonzero(row)) for row in together))
    for group in groups:
        if a not in group:
            i = group[0]
            members = [names[j] for j in group]
            notes.append(_separation(members, anchor, bool(reach[i, a]), bool(reach[a, i])))
    seated = counts @ p.seated
    wins = counts @ p.wins
    draws = counts @ p.draws
    table = pd.DataFrame(
        {
            "agent": names,
            "rating": rating,
            "low": low,
            "high": high,
            "games": seated.round().astype(np.int64),
            "wins": wins.round().astype(np.int64),
            "draws": draws.round().astype(np.int64),
            "losses": (seated - wins - draws).round().astype(np.int64),
            "separated": separated,
        }
    )
    table = table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    ranked = table["agent"].tolist()
    decided = ahead + ahead.T
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(decided > 0, ahead / decided, math.nan)
    np.fill_diagonal(share, math.nan)

    def matrix(values: FloatArray, kind: Any) -> pd.DataFrame:
        m = pd.DataFrame(values, index=names, columns=names).loc[ranked, ranked]
        m.index.name = "agent"
        return m.astype(kind)

    return RatingFit(
        table=table,
        scores=matrix(share, np.float64),
        meetings=matrix(decided, np.int64),
        ahead=matrix(ahead, np.int64),
        ties=matrix(tied, np.int64),
        anchor=anchor,
        games=p.games,
        bootstrap=bootstrap,
        prior_sd=float(prior_sd),
        notes=tuple(notes),
        samples=samples,
        gaps=neighbour_gaps(table, names, samples, reach),
    )


def neighbour_gaps(
    table: pd.DataFrame,
    agents: Sequence[str],
    samples: FloatArray,
    reach: npt.NDArray[np.bool_] | None = None,
) -> pd.DataFrame:
    """Per agent but the last of the ranked ``table``: ``above``, ``below`` (the next agent
    down), ``gap`` (the difference of their ratings, Elo) and, from the bootstrap ``samples``
    (replicates × ``agents``), its 95 % interval ``low`` … ``high`` and ``ordered``, the share
    of replicates that rank them in this order; ``prior``: the lower one never finished ahead
    of (or tied with) the upper one, directly or through other agents (``reach``, see
    :func:`_reach`), so that only the prior bounds the gap and its interval is the prior's.

    The interval of a difference is what says whether two agents are told apart: the
    intervals of their ratings also hold the uncertainty of the gap to the anchor, which both
    share (all the more when only the prior bounds it), and may overlap when the difference
    itself is clear of 0."""
    import pandas as pd

    ranked = table["agent"].tolist()
    rating = dict(zip(ranked, table["rating"], strict=True))
    rows = []
    for above, below in itertools.pairwise(ranked):
        if len(samples):
            d = samples[:, agents.index(above)] - samples[:, agents.index(below)]
            low, high = np.percentile(d, [2.5, 97.5])
            ordered = float(np.mean(d > 0))
        else:
            low = high = ordered = math.nan
        gap = rating[above] - rating[below]
        prior = reach is not None and not reach[agents.index(below), agents.index(above)]
        rows.append({"above": above, "below": below, "gap": gap, "low": low, "high": high,
                     "ordered": ordered, "prior": prior})  # fmt: skip
    return pd.DataFrame(rows, columns=GAP_COLUMNS)


def fit_ratings(
    frame: Any,
    *,
    agents: Sequence[str] | None = None,
    anchor: str | None = None,
    prior_sd: float = PRIOR_SD,
    bootstrap: int = BOOTSTRAP,
    seed: int = 0,
) -> pd.DataFrame:
    """The ratings table of :func:`fit` (one row per agent, best first: ``rank``, ``agent``,
    ``rating`` and its 95 % interval ``low`` … ``high`` on the Elo scale, ``games``, ``wins``,
    ``draws``, ``losses``, ``separated``) for any results table."""
    return fit(
        frame, agents=agents, anchor=anchor, prior_sd=prior_sd, bootstrap=bootstrap, seed=seed
    ).table


def _bootstrap(p: _Patterns, replicates: int, seed: int, prior_sd: float, a: int) -> FloatArray:
    """Anchored Elo ratings of ``replicates`` bootstrap samples: the games of each lineup
    resampled with replacement (as many as it played), counted by outcome (a multinomial
    draw over the lineup's outcomes is the same as drawing its games)."""
    if replicates == 0:
        return np.zeros((0, len(p.agents)))
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0xB007,)))
    counts = np.zeros((replicates, len(p.counts)))
    for stratum in np.unique(p.strata):
        members = np.flatnonzero(p.strata == stratum)
        total = int(p.counts[members].sum())
        counts[:, members] = rng.multinomial(total, p.counts[members] / total, size=replicates)
    scores = np.tensordot(counts, p.score, axes=1)
    r = fit_bt(scores, prior_sd)
    out: FloatArray = (r - r[:, a : a + 1]) * ELO
    return out


def _separation(agents: Sequence[str], anchor: str, above: bool, below: bool) -> str:
    """Why the ratings of a group of agents cut off from the anchor's group rest on the prior."""
    many = len(agents) > 1
    who = ", ".join(agents)
    if above or below:
        side, limit = ("at or below", "a floor") if above else ("at or above", "a ceiling")
        text = (
            f"{who}: never ranked {side} {anchor}, directly or through other agents, so the "
            f"gap to {anchor} is bounded only by the prior: read "
            f"{'each rating' if many else 'the rating'} as {limit} and "
            f"{'the intervals' if many else 'its interval'} as the prior's, not the games'"
        )
    else:
        whose = "their ratings are" if many else "its rating is"
        text = f"{who}: never met {anchor}'s group: {whose} the prior's"
    if many:
        text += f" (the differences among {who} are measured by the games)"
    return text
