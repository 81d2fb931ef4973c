"""Armies as points of a box: what the army search (:mod:`antipolix.meta.search`) moves in.

CMA-ES searches ``[0, 1]^D``; :class:`ArmySpace` turns any point of it into a legal army (R3:
exactly one chief, total cost within the budget, and no more pieces than the home zone holds).
Coordinate 0 chooses the chief's type (below 1/2 an army, else a hovercraft: the mobile
types, as :class:`~antipolix.agents.RandomArmy` buys them); the others are the *budget shares*
of the nine items every type with trait none, invisible or teleporter (R2), in
:data:`MENU` order. A share below :data:`NONE_BELOW` buys none of that item, so that "none"
is a region of the box that CMA-ES can find, not a single point.

Decoding: the budget left after the chief is divided among the items in proportion to their
shares; each item buys as many pieces as its part affords, then the points left go, one piece
at a time, to the affordable item furthest below its part (ties in :data:`MENU` order). It
draws nothing: the same point is the same army.

>>> from antipolix import Rules
>>> space = ArmySpace()
>>> army = space.decode([0.2, 1, 0, 0, 0, 0, 0, 0, 0, 0], Rules())
>>> counts(army)["army"], Rules().army_cost(army) <= Rules().army_budget
(19, True)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from antipolix.balance.values import KINDS, item_kinds
from antipolix.codec import item_name, parse_item
from antipolix.errors import AntipolixError
from antipolix.pieces import ArmyItem, PieceType, Trait
from antipolix.rules import Rules

FloatArray = npt.NDArray[np.float64]
MENU: tuple[ArmyItem, ...] = tuple(
    (k, t) for k in PieceType for t in (Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER)
)
CHIEFS = (PieceType.ARMY, PieceType.HOVERCRAFT)
NONE_BELOW = 0.1  # a share below this buys none of its item
Army = tuple[ArmyItem, ...]


class MetaError(AntipolixError):
    """An army search, empirical game or proposal that cannot start or go on; the message says
    why."""


class SettingError(MetaError):
    """A setting of the army search (:class:`~antipolix.meta.search.MetaSettings`) refused:
    ``setting`` is its field's name (``games``, ``check_games``...) and ``reason`` what is wrong
    with it, so that a command can name the option that set it instead; the message is the
    setting in words and the reason ("check games must be ...")."""

    def __init__(self, setting: str, reason: str) -> None:
        super().__init__(f"{setting.replace('_', ' ')} {reason}")
        self.setting = setting
        self.reason = reason

    def __reduce__(self) -> tuple[type[SettingError], tuple[str, str]]:
        return SettingError, (self.setting, self.reason)  # (pickled by Ray as it was made)


@dataclass(frozen=True)
class ArmySpace:
    """The box ``[0, 1]^(1 + len(MENU))`` and its decoding into legal armies (module doc)."""

    menu: tuple[ArmyItem, ...] = MENU
    none_below: float = NONE_BELOW

    @property
    def dims(self) -> int:
        return 1 + len(self.menu)

    def centre(self) -> list[float]:
        """The start of a search: an army chief, every item's share equal (1/2)."""
        return [0.25] + [0.5] * len(self.menu)

    def decode(self, x: Sequence[float] | FloatArray, rules: Rules) -> Army:
        """The legal army (R3) of point ``x`` under ``rules`` (points outside the box are
        clipped to it); the chief first, then the items in :data:`MENU` order."""
        v = np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)
        if v.shape != (self.dims,) or not np.all(np.isfinite(v)):
            raise MetaError(f"an army point has {self.dims} finite coordinates, got {list(x)}")
        chief = _chief(rules, CHIEFS[0] if v[0] < 0.5 else CHIEFS[1])
        budget = rules.army_budget - rules.piece_cost(*chief)
        room = _room(rules) - 1
        shares = np.where(v[1:] >= self.none_below, v[1:], 0.0)
        costs = np.array([rules.piece_cost(*i) for i in self.menu], dtype=np.int64)
        shares = np.where(costs > 0, shares, 0.0)  # a free item would fill the zone
        n = np.zeros(len(self.menu), dtype=np.int64)
        if shares.sum() > 0 and budget > 0:
            target = shares / shares.sum() * budget
            n = np.floor(target / np.maximum(costs, 1)).astype(np.int64)
            left = budget - int(n @ costs)
            while True:
                can = (shares > 0) & (costs <= left)
                if not can.any():
                    break
                deficit = np.where(can, target - n * costs, -np.inf)
                i = int(np.argmax(deficit))
                n[i] += 1
                left -= int(costs[i])
        while n.sum() > room:  # a small board: drop the cheapest pieces first (stays legal)
            held = np.flatnonzero(n > 0)
            n[held[np.argmin(costs[held])]] -= 1
        army: list[ArmyItem] = [chief]
        for item, count in zip(self.menu, n.tolist(), strict=True):
            army.extend([item] * count)
        rules.check_army(0, army)
        return tuple(army)


def _chief(rules: Rules, wanted: PieceType) -> ArmyItem:
    """The chief of ``wanted`` type, or of the other mobile type when it alone fits the
    budget."""
    for kind in (wanted, *(k for k in CHIEFS if k is not wanted)):
        if rules.piece_cost(kind, Trait.CHIEF) <= rules.army_budget:
            return (kind, Trait.CHIEF)
    raise MetaError(
        f"no chief (army or hovercraft) fits the budget of {rules.army_budget} (R3): no army "
        "can be bought"
    )


def _room(rules: Rules) -> int:
    """The pieces a seat's home zone holds (R3; the smallest zone), or the board without
    zones."""
    zones = rules.home_zones
    if zones is None:
        p, n, m = rules.shape
        return max(1, (p * n * m) // rules.players)
    return min(int(np.prod(np.subtract(z.hi, z.lo))) for z in zones)


def counts(army: Iterable[ArmyItem]) -> dict[str, int]:
    """Pieces of each priced kind (the chief aside; an invisible hovercraft counts once as
    ``hovercraft`` and once as ``invisible``), as :func:`antipolix.balance.kind_counts`."""
    return item_kinds(Counter(army))


def points(army: Iterable[ArmyItem], rules: Rules) -> dict[str, float]:
    """Budget points spent on each priced kind (a type's cost to its type, a trait's extra
    cost to its trait; the chief aside)."""
    out = dict.fromkeys(KINDS, 0.0)
    for kind, trait in army:
        if trait is Trait.CHIEF:
            continue
        out[kind.name.lower()] += rules.piece_types.cost(kind)
        if trait is not Trait.NONE:
            out[trait.name.lower()] += rules.trait_costs.cost(trait)
    return out


def shares(army: Iterable[ArmyItem], rules: Rules) -> dict[str, float]:
    """Each priced kind's share of the points an army spent (the chief aside; all 0 for an
    army of its chief alone)."""
    spent = points(army, rules)
    total = sum(spent.values())
    return {k: (v / total if total else 0.0) for k, v in spent.items()}


def piece_shares(army: Iterable[ArmyItem]) -> dict[str, float]:
    """Each priced kind's share of an army's pieces, the chief aside: the share of pieces of a
    type, or carrying a trait (all 0 for an army of its chief alone)."""
    held = counts(army)
    pieces = sum(held[k] for k in ("army", "hovercraft", "fortress"))
    return {k: (v / pieces if pieces else 0.0) for k, v in held.items()}


def entropy(weights: Iterable[float]) -> float:
    """Shannon entropy in bits of non-negative ``weights`` (normalised; 0 for none)."""
    w = np.array([float(v) for v in weights if v > 0], dtype=np.float64)
    if not len(w):
        return 0.0
    w = w / w.sum()
    return float(-(w * np.log2(w)).sum())


def army_text(army: Iterable[ArmyItem]) -> str:
    """An army in words, the chief first: ``"army+chief, 12 army, 2 fortress+teleporter"``."""
    items = list(army)
    chief = [item_name(i) for i in items if i[1] is Trait.CHIEF]
    rest = Counter(i for i in items if i[1] is not Trait.CHIEF)
    order = {item: n for n, item in enumerate(MENU)}
    parts = [
        f"{n} {item_name(i)}" for i, n in sorted(rest.items(), key=lambda e: order.get(e[0], 99))
    ]
    return ", ".join(chief + parts)


def army_names(army: Iterable[ArmyItem]) -> list[str]:
    """An army as item names (what a log or a GivenArmy keeps)."""
    return [item_name(i) for i in army]


def army_from_names(names: Iterable[object]) -> Army:
    return tuple(parse_item(n) for n in names)


def mean_counts(armies: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """The mean of several armies' counts (or shares) by kind."""
    rows = list(armies)
    if not rows:
        return dict.fromkeys(KINDS, math.nan)
    return {k: float(np.mean([r[k] for r in rows])) for k in KINDS}


__all__ = [
    "CHIEFS",
    "KINDS",
    "MENU",
    "NONE_BELOW",
    "Army",
    "ArmySpace",
    "MetaError",
    "army_from_names",
    "army_names",
    "army_text",
    "counts",
    "entropy",
    "mean_counts",
    "piece_shares",
    "points",
    "shares",
]
