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

Two outcomes can be fitted (:func:`estimate_games`): ``winner``, the choice above (draws left
out), and ``order``, every elimination of a game as a choice of who falls next among the
players still in it (a stratified Cox model of survival, or Plackett–Luce read from the last
place up): the first player out was the least likely to survive among all, the next among those
left, and the last elimination of a decided game names the winner, as the ``winner`` fit does.
A game that ends drawn still tells who fell first; its survivors are censored. With four players
a decided game holds three choices instead of one, so the same games give narrower intervals
(``experiments/values_design.py`` measures by how much). ``βₖ`` then reads as the log-odds of
outlasting a player one piece of kind ``k`` weaker, the finishing order the ladder also rates
agents by (R10, R11).
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
IntArray = npt.NDArray[np.int64]
TYPES = ("army", "hovercraft", "fortress")
PAID_TRAITS = ("invisible", "teleporter")
KINDS = TYPES + PAID_TRAITS
OUTCOMES = ("order", "winner")  # what a value fit reads of each game (estimate_games)
MIN_CHOICES = 20  # choices (decided games, or eliminations) below which no fit is tried
SEPARATED = 20.0  # log-odds per piece beyond which a fit is running off to infinity


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
    outcome: str = (
        "winner"  # what was fitted: the winner of each decided game, or every elimination
    )
    fit: ChoiceFit | None = None  # the fit's parts a joint covariance needs (estimate_games)

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


def unbuyable(rules: Rules) -> dict[str, str]:
    """The priced kinds no army can buy under ``rules`` (R3: a piece dearer than the budget
    left after the cheapest chief), each with why: no game can price them."""
    spend = rules.army_budget - min(rules.piece_cost(t, Trait.CHIEF) for t in PieceType)
    cheapest_type = min(rules.piece_types.cost(t) for t in PieceType)
    out = {}
    for kind in priced_kinds(rules):
        cost = kind_cost(rules, kind)
        dearest = cost if kind in TYPES else cost + cheapest_type
        if dearest > spend:
            what = f"a {kind}" if kind in TYPES else f"the cheapest {kind} piece"
            out[kind] = (
                f"{what} costs {dearest} and an army has {spend} points to spend after its "
                f"chief (budget {rules.army_budget})"
            )
    return out


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


# -- the choice fit of estimate_games: the winner, or every elimination ---------------------------


@dataclass(frozen=True)
class ChoiceFit:
    """What a conditional-logit fit of games leaves for a joint covariance across fits of the
    same games (:mod:`antipolix.balance.skill`): the estimated ``kinds``, ``beta`` (log-odds per
    piece) with its model covariance ``cov`` (the inverse information), per game (``games``,
    the game ids) the score of its choices at ``beta`` (``scores``, games × kinds: their sum is
    0 at the maximum), and ``grad``, the derivative of each kind's value in budget points by
    ``beta`` (the delta method's)."""

    kinds: tuple[str, ...]
    beta: FloatArray
    cov: FloatArray
    games: IntArray
    scores: FloatArray
    grad: FloatArray


def seat_counts(games: pd.DataFrame) -> FloatArray:
    """Per game, per seat, per kind (:data:`KINDS`): the pieces held, from a games table's
    ``kinds`` column (per seat, its pieces counted by kind)."""
    return np.array(
        [[[seat[k] for k in KINDS] for seat in seats] for seats in games["kinds"]], dtype=float
    ).reshape(len(games), -1, len(KINDS))


def choice_sets(
    games: pd.DataFrame, outcome: str
) -> tuple[FloatArray, npt.NDArray[np.bool_], IntArray, IntArray]:
    """The choices a value fit reads in a games table (``game``, ``winner``,
    ``elimination_order``, ``kinds``): rows (one per player in a choice) with their counts by
    kind ``x`` (negated for ``order``: a piece makes a player less likely to fall), whether the
    row was chosen, its choice's index, and per choice the row index of its game in ``games``.

    ``winner``: one choice per decided game, among all its players. ``order``: one choice per
    elimination (R10: the order in which players were eliminated), among the players still in
    the game; the last elimination of a decided game leaves the winner."""
    if outcome not in OUTCOMES:
        raise BalanceError(f"outcome must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
    counts = seat_counts(games)
    xs: list[FloatArray] = []
    chosen: list[npt.NDArray[np.bool_]] = []
    group: list[IntArray] = []
    owner: list[int] = []
    winners = games["winner"].tolist()
    orders = games["elimination_order"].tolist() if outcome == "order" else []
    for g in range(len(games)):
        seats = counts.shape[1]
        if outcome == "winner":
            w = winners[g]
            if w is None or (isinstance(w, float) and np.isnan(w)):
                continue
            steps = [(list(range(seats)), int(w), 1.0)]
        else:
            alive = list(range(seats))
            steps = []
            for out in orders[g]:
                if len(alive) < 2:
                    break
                steps.append((list(alive), int(out), -1.0))
                alive.remove(int(out))
        for alive, pick, sign in steps:
            xs.append(sign * counts[g, alive])
            chosen.append(np.array([s == pick for s in alive]))
            group.append(np.full(len(alive), len(owner), dtype=np.int64))
            owner.append(g)
    if not owner:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros((0, len(KINDS))), np.zeros(0, dtype=bool), empty, empty
    return (
        np.concatenate(xs),
        np.concatenate(chosen),
        np.concatenate(group),
        np.asarray(owner, dtype=np.int64),
    )


def fit_choices(
    x: FloatArray, chosen: npt.NDArray[np.bool_], group: IntArray, choices: int
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The conditional logit of ``chosen`` on ``x`` within each choice (McFadden; exactly one
    row of each choice is chosen): ``β`` by Newton's method with step halving (the
    log-likelihood is concave), the information matrix at ``β``, and each choice's score
    (choices × columns). Where the likelihood has no finite maximum (a column that always went
    with the chosen row, or never: separation), ``β`` runs off towards infinity in that column
    and comes back beyond :data:`SEPARATED`."""
    k = x.shape[1]
    beta = np.zeros(k)

    def parts(b: FloatArray) -> tuple[float, FloatArray, FloatArray]:
        eta = x @ b
        top = np.full(choices, -np.inf)
        np.maximum.at(top, group, eta)
        e = np.exp(eta - top[group])
        total = np.bincount(group, e, minlength=choices)
        p: FloatArray = np.asarray(e / total[group], dtype=np.float64)
        loglik = float(eta[chosen].sum() - (top + np.log(total)).sum())
        columns = [np.bincount(group, p * x[:, j], minlength=choices) for j in range(k)]
        mean: FloatArray = np.asarray(np.stack(columns, 1), dtype=np.float64)
        return loglik, p, mean

    loglik, p, mean = parts(beta)
    picked = np.zeros((choices, k))
    picked[group[chosen]] = x[chosen]
    for _ in range(200):
        grad = (picked - mean).sum(axis=0)
        info = (x * p[:, None]).T @ x - mean.T @ mean
        step = np.linalg.lstsq(info, grad, rcond=None)[0]
        t = 1.0
        new = parts(beta + step)
        while new[0] < loglik - 1e-12 * max(1.0, abs(loglik)) and t > 1e-12:
            t /= 2
            new = parts(beta + t * step)
        beta = beta + t * step
        loglik, p, mean = new
        if float(np.max(np.abs(t * step))) < 1e-10 or float(np.max(np.abs(beta))) > SEPARATED:
            break
    info = (x * p[:, None]).T @ x - mean.T @ mean
    return beta, info, picked - mean


def estimate_games(games: pd.DataFrame, rules: Rules, outcome: str = "order") -> ValueEstimate:
    """Fit values from a games table (one row per game: ``game``, ``winner`` (seat or None),
    ``elimination_order`` (seats, first out first), ``kinds`` (per seat, its pieces counted by
    kind)), reading each game's ``outcome``: ``winner`` (the conditional logit of
    :func:`estimate`, the same fit) or ``order`` (every elimination, see the module's
    docstring). Returns a :class:`ValueEstimate` whose ``fit`` holds what a joint covariance of
    several fits on the same games needs."""
    missing = [c for c in ("game", "winner", "elimination_order", "kinds") if c not in games]
    if missing:
        raise BalanceError(f"the games table lacks columns {missing}")
    x_all, chosen, group, owner = choice_sets(games, outcome)
    n_choices = len(owner)
    counts = seat_counts(games) if len(games) else np.zeros((0, 1, len(KINDS)))
    flat = counts.reshape(-1, len(KINDS))
    priced = list(priced_kinds(rules))
    columns = [KINDS.index(k) for k in priced]
    varied = _varies_within(x_all[:, columns], group, n_choices) if n_choices else []
    kinds = [k for k, v in zip(priced, varied, strict=True) if v] if n_choices else []
    what = "decided games" if outcome == "winner" else "eliminations"
    if n_choices < MIN_CHOICES or not kinds:
        raise BalanceError(
            f"only {n_choices} {what} with varied armies; play more games "
            "(or fewer turn-limit draws) to estimate values"
        )
    separated: dict[str, str] = {}
    while True:
        use = [KINDS.index(k) for k in kinds]
        beta, info, choice_scores = fit_choices(x_all[:, use], chosen, group, n_choices)
        worst = int(np.argmax(np.abs(beta)))
        if abs(beta[worst]) <= SEPARATED and np.linalg.cond(info) < 1e12:
            break
        held = int(np.count_nonzero(flat[:, KINDS.index(kinds[worst])]))
        separated[kinds[worst]] = (
            f"the games cannot price it: the {held} armies that held one always did better (or "
            "always worse) than the armies they met, so its worth has no finite estimate; play "
            "more games"
        )
        kinds = [k for i, k in enumerate(kinds) if i != worst]
        if not kinds:
            raise BalanceError(
                "the value fit did not converge: every kind separates the players; play more games"
            )
    cov: FloatArray = np.asarray(np.linalg.inv(info), dtype=np.float64)
    costs = np.array([kind_cost(rules, k) for k in kinds], dtype=float)
    mean: FloatArray = np.asarray(flat[:, use].mean(axis=0), dtype=np.float64)
    value, se = _in_points(beta, cov, mean, costs)
    spent, worth = float(mean @ costs), float(mean @ beta)
    grad = spent * (np.eye(len(beta)) / worth - np.outer(beta, mean) / worth**2)
    decided = [
        w is not None and not (isinstance(w, float) and np.isnan(w)) for w in games["winner"]
    ]
    won = np.zeros(counts.shape[:2], dtype=bool)
    for g, w in enumerate(games["winner"]):
        if decided[g]:
            won[g, int(w)] = True
    winners = counts[won][:, use] if won.any() else np.full((1, len(use)), np.nan)
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
            "in_winners": winners.mean(axis=0),
            "estimated": True,
            "note": "",
        }
    )
    per_game = np.zeros((len(games), len(kinds)))
    np.add.at(per_game, owner, choice_scores)
    ids = games["game"].to_numpy(dtype=np.int64)
    fit = ChoiceFit(tuple(kinds), beta, cov, ids, per_game, grad)
    left_out = [k for k in priced if k not in kinds]
    if left_out:
        rows = pd.DataFrame(
            {"game": np.repeat(ids, counts.shape[1]), "won": won.reshape(-1)}
            | {k: flat[:, KINDS.index(k)] for k in KINDS}
        )
        decided_rows = rows[rows.groupby("game")["won"].transform("any")]
        notes = {
            k: separated.get(k)
            or _why_not(rules, k, decided_rows[k] if len(decided_rows) else rows[k])
            for k in left_out
        }
        table = _with_unpriced(table, notes, rows, rows[rows["won"]], rules, priced)
    return ValueEstimate(table, len(games), int(sum(decided)), len(flat), outcome=outcome, fit=fit)


def _varies_within(x: FloatArray, group: IntArray, choices: int) -> list[bool]:
    """Per column: does it differ between the rows of some choice (else the fit cannot price
    it: the conditional logit sees only differences within a choice)?"""
    out = []
    for j in range(x.shape[1]):
        high = np.full(choices, -np.inf)
        low = np.full(choices, np.inf)
        np.maximum.at(high, group, x[:, j])
        np.minimum.at(low, group, x[:, j])
        out.append(bool(np.any(high > low)))
    return out
