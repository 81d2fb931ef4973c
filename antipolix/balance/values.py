"""What each priced kind of piece is worth, in budget points, estimated from played games.

Costs are additive (R2: a piece costs its type's cost plus its trait's cost), so the priced kinds
are the three types and the paid traits: ``army``, ``hovercraft``, ``fortress``, ``invisible``,
``teleporter``. Each player's army is summarised by how many of each kind it holds (an invisible
hovercraft counts once as ``hovercraft`` and once as ``invisible``; the chief is left aside: every
army has exactly one).

The fit is a conditional logit (McFadden's choice model; ``statsmodels``' ``ConditionalLogit``)
of "this player won" on those counts, grouped by game: in each decided game exactly one player
wins, and the chance that player ``i`` is the one is ``exp(β·xᵢ) / Σⱼ exp(β·xⱼ)``. ``βₖ`` is the
log-odds one more piece of kind ``k`` is worth. Draws carry no information about who is stronger
and are left out.

To express ``β`` in budget points, the average spent point is set to be worth one point:
``λ = Σₖ βₖ mₖ / Σₖ cₖ mₖ`` (``mₖ`` the mean count of kind ``k``, ``cₖ`` its cost), and
``valueₖ = βₖ / λ``. Then ``value / cost`` above 1 means underpriced, below 1 overpriced.
Intervals are 95 % from the delta method on the fit's covariance. This needs armies whose total
cost varies (``RandomArmy(spend=...)``): with every army spending the same budget, only value
differences per cost point are identified, not the worth of a point.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from antipolix.agents.army import ItemLike
from antipolix.codec import ITEMS, parse_item
from antipolix.errors import AntipolixError
from antipolix.pieces import ArmyItem, PieceType, Trait
from antipolix.rules import Rules
from antipolix.runner.rows import count_column
from antipolix.stats import Z95

FloatArray = npt.NDArray[np.float64]
TYPES = ("army", "hovercraft", "fortress")
PAID_TRAITS = ("invisible", "teleporter")
KINDS = TYPES + PAID_TRAITS


class BalanceError(AntipolixError):
    """A balancing study that cannot run or cannot be fitted; the message says why."""


def kind_cost(rules: Rules, kind: str) -> int:
    """The cost of one kind under ``rules``: a type's cost, or a trait's extra cost (R2)."""
    if kind in TYPES:
        return rules.piece_types.cost(PieceType[kind.upper()])
    return rules.trait_costs.cost(Trait[kind.upper()])


def priced_kinds(rules: Rules) -> tuple[str, ...]:
    """Every type, and every paid trait whose cost is above 0 under ``rules``."""
    return TYPES + tuple(k for k in PAID_TRAITS if kind_cost(rules, k) > 0)


def kind_counts(army: Iterable[ItemLike]) -> dict[str, int]:
    """How many pieces of each kind an army holds, the chief aside.

    >>> kind_counts(["army+chief", "army", "hovercraft+invisible", "hovercraft"])
    {'army': 1, 'hovercraft': 2, 'fortress': 0, 'invisible': 1, 'teleporter': 0}
    """
    return item_kinds(Counter(parse_item(item) for item in army))


def item_kinds(items: Mapping[ArmyItem, int]) -> dict[str, int]:
    """:func:`kind_counts` of an army given as a count per item."""
    counts = dict.fromkeys(KINDS, 0)
    for (kind, trait), n in items.items():
        if trait is Trait.CHIEF:
            continue
        counts[kind.name.lower()] += n
        if trait is not Trait.NONE:
            counts[trait.name.lower()] += n
    return counts


def seat_kinds(games: pd.DataFrame) -> list[list[dict[str, int]]]:
    """Per game, per seat, the army counted by kind, from a results table's army columns
    (``n_ITEM``: per seat, the pieces of each item placed)."""
    columns = {item: games[count_column(item)].tolist() for item in ITEMS}
    out = []
    for g in range(len(games)):
        seats = len(columns[ITEMS[0]][g])
        out.append(
            [item_kinds({item: int(columns[item][g][s]) for item in ITEMS}) for s in range(seats)]
        )
    return out


@dataclass(frozen=True)
class ValueEstimate:
    """The fitted value of each priced kind.

    ``table``: one row per priced kind with ``kind``, ``cost``, ``value``, ``value_low``,
    ``value_high`` (95 %, budget points), ``ratio`` = value / cost with ``ratio_low`` and
    ``ratio_high``, ``beta`` and ``beta_se`` (log-odds per piece), ``mean_count`` (pieces per
    army), ``in_winners`` (mean count in winning armies), ``estimated`` (False for a kind the
    games cannot price: no army held one, or every army held the same number; its value
    columns are NaN) and ``note`` (why not, else empty).
    """

    table: pd.DataFrame
    games: int
    decided: int
    players: int
    games_table: pd.DataFrame | None = None  # the games it was fitted on, when it played them
    seconds_games: float = 0.0  # wall time spent getting the games (playing, or reading them)
    seconds_fit: float = 0.0  # wall time of the fit

    def ratio(self, kind: str) -> float:
        return float(self.table.set_index("kind").loc[kind, "ratio"])

    @property
    def unestimated(self) -> dict[str, str]:
        """The kinds these games could not price, each with the reason."""
        t = self.table
        if "estimated" not in t:
            return {}
        return {str(r.kind): str(r.note) for r in t.itertuples() if not r.estimated}


def estimate(players: pd.DataFrame, rules: Rules) -> ValueEstimate:
    """Fit values from a table with one row per (game, seat): ``game``, ``won`` (bool: this
    seat won; every row of a drawn game False) and one count column per kind (:data:`KINDS`)."""
    missing = [c for c in ("game", "won", *KINDS) if c not in players.columns]
    if missing:
        raise BalanceError(f"the players table lacks columns {missing}")
    games = int(players["game"].nunique())
    decided_games = players.groupby("game")["won"].transform("any")
    data = players[decided_games].sort_values(["game"], kind="stable")
    decided = int(data["game"].nunique())
    priced = list(priced_kinds(rules))
    kinds = [k for k in priced if data[k].std() > 0] if len(data) else []
    if decided < 20 or not kinds:
        raise BalanceError(
            f"only {decided} decided games with varied armies; play more games "
            "(or fewer turn-limit draws) to estimate values"
        )
    beta, cov = _fit(data, kinds)
    costs = np.array([kind_cost(rules, k) for k in kinds], dtype=float)
    mean = players[kinds].to_numpy(dtype=float).mean(axis=0)
    value, se = _in_points(beta, cov, mean, costs)
    winners = data[data["won"]]
    table = pd.DataFrame(
        {
            "kind": kinds,
            "cost": costs.astype(int),
            "value": value,
            "value_low": value - Z95 * se,
            "value_high": value + Z95 * se,
            "ratio": value / costs,
            "ratio_low": (value - Z95 * se) / costs,
            "ratio_high": (value + Z95 * se) / costs,
            "beta": beta,
            "beta_se": np.sqrt(np.maximum(np.diag(cov), 0.0)),
            "mean_count": mean,
            "in_winners": winners[kinds].to_numpy(dtype=float).mean(axis=0),
            "estimated": True,
            "note": "",
        }
    )
    notes = {k: _why_not(rules, k, data[k]) for k in priced if k not in kinds}
    if notes:  # kinds the games cannot price: kept in the table, in their place, values NaN
        table = _with_unpriced(table, notes, players, winners, rules, priced)
    return ValueEstimate(table, games, decided, len(players))


def _fit(data: pd.DataFrame, kinds: list[str]) -> tuple[FloatArray, FloatArray]:
    """The conditional logit of winning on the kinds' counts, grouped by game: β and its
    covariance (log-odds per piece)."""
    from statsmodels.discrete.conditional_models import ConditionalLogit

    x = data[kinds].to_numpy(dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence chatter; checked below
        fit = ConditionalLogit(
            data["won"].to_numpy(dtype=float), x, groups=data["game"].to_numpy()
        ).fit(disp=False)
    beta = np.asarray(fit.params, dtype=float)
    cov = np.asarray(fit.cov_params(), dtype=float)
    if not np.all(np.isfinite(beta)) or not np.all(np.isfinite(cov)):
        raise BalanceError("the value fit did not converge (too few games or no variation)")
    return beta, cov


def _in_points(
    beta: FloatArray, cov: FloatArray, mean: FloatArray, costs: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Values in budget points (the average spent point worth one point) and their standard
    errors by the delta method."""
    worth = float(mean @ beta)  # log-odds of the average army
    if worth <= 0:
        raise BalanceError(
            "the fitted pieces are worth nothing on average (more pieces do not win more "
            "games); check the agents and the number of games"
        )
    spent = float(mean @ costs)
    value: FloatArray = beta * spent / worth
    # delta method: d value_k / d beta_i = spent * (delta_ki / worth - beta_k m_i / worth²)
    grad = spent * (np.eye(len(beta)) / worth - np.outer(beta, mean) / worth**2)
    se: FloatArray = np.sqrt(np.maximum(np.diag(grad @ cov @ grad.T), 0.0))
    return value, se


def _with_unpriced(
    table: pd.DataFrame,
    notes: dict[str, str],
    players: pd.DataFrame,
    winners: pd.DataFrame,
    rules: Rules,
    priced: list[str],
) -> pd.DataFrame:
    """The table with the kinds the games cannot price, in their place, values NaN."""
    left_out = pd.DataFrame(
        {
            "kind": list(notes),
            "cost": [kind_cost(rules, k) for k in notes],
            "mean_count": [float(players[k].mean()) for k in notes],
            "in_winners": [float(winners[k].mean()) for k in notes],
            "estimated": False,
            "note": list(notes.values()),
        }
    )
    table = pd.concat([table, left_out], ignore_index=True)
    table["kind"] = pd.Categorical(table["kind"], categories=priced, ordered=True)
    table = table.sort_values("kind", ignore_index=True)
    table["kind"] = table["kind"].astype(str)
    return table


def _why_not(rules: Rules, kind: str, counts: pd.Series) -> str:
    """Why the decided games cannot price ``kind`` (its count never varies)."""
    held = int(counts.iloc[0]) if len(counts) else 0
    if held:
        return f"every army held {held}: the games cannot tell what one more is worth"
    cost = kind_cost(rules, kind)
    spend = rules.army_budget - min(rules.piece_cost(t, Trait.CHIEF) for t in PieceType)
    cheapest_type = min(rules.piece_types.cost(t) for t in PieceType)
    dearest = cost if kind in TYPES else cost + cheapest_type  # a trait rides the cheapest type
    if dearest > spend:
        what = f"a {kind}" if kind in TYPES else f"the cheapest {kind} piece"
        return (
            f"no army held one: {what} costs {dearest} and an army has {spend} points to "
            f"spend after its chief (budget {rules.army_budget})"
        )
    return "no army held one in a decided game: play more games"


def players_table(
    games: Sequence[int],
    winners: Sequence[int | None],
    kinds: Sequence[Sequence[Mapping[str, int]]],
) -> pd.DataFrame:
    """Build the per-(game, seat) table :func:`estimate` reads from per-game lists: game ids,
    winners (seat or None) and each seat's army counted by kind."""
    rows = []
    for game, winner, seats in zip(games, winners, kinds, strict=True):
        for seat, counts in enumerate(seats):
            rows.append({"game": game, "seat": seat, "won": winner == seat, **counts})
    return pd.DataFrame(rows)
