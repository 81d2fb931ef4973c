"""Army policies (R3): how an agent spends its budget before the game.

Four policies, all small picklable objects and all drawing only from the agent's generator:

- :class:`RandomArmy`: a random composition under the budget (the default of most agents, and
  what balancing studies use);
- :class:`FixedArmy`: a fixed composition, filled in the given proportions up to the budget;
- :class:`GivenArmy`: an explicit list of pieces;
- :class:`MixedArmy`: one of several policies, drawn per game.

Items are ``(PieceType, Trait)`` pairs or their names, ``"hovercraft"``, ``"army+invisible"``,
``"army+chief"`` (:func:`antipolix.codec.parse_item`).

>>> from antipolix import Rules
>>> import numpy as np
>>> army = FixedArmy({"army": 2, "hovercraft": 1}).choose(Rules(), np.random.default_rng(0))
>>> [item_name(i) for i in army[:4]], len(army)
(['army+chief', 'army', 'army', 'hovercraft'], 23)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from antipolix.codec import item_name, parse_item
from antipolix.errors import ArmyError
from antipolix.pieces import ArmyItem, PieceType, Trait
from antipolix.rules import Rules

ItemLike = ArmyItem | str

MAX_FREE_PIECES = 64  # pieces that cost nothing (a rules variant) are bought up to this count


class ArmyPolicy(Protocol):
    def choose(self, rules: Rules, rng: np.random.Generator) -> list[ArmyItem]: ...

    def spec(self) -> dict[str, Any]: ...


def _fill(
    rules: Rules,
    chief: ArmyItem,
    menu: Sequence[ArmyItem],
    pick: Any,
    budget: int | None = None,
) -> list[ArmyItem]:
    """A chief, then ``pick(affordable_mask, counts)`` → index into ``menu``, while affordable
    within ``budget`` (default: the rules' army budget) and while the army has room
    (:attr:`Rules.room`: a budget larger than a zone holds buys a full zone, R3 lets an army
    cost less; the armies that fit are the same as without the limit, the same draws)."""
    army = [chief]
    left = (rules.army_budget if budget is None else budget) - rules.piece_cost(*chief)
    costs = np.array([rules.piece_cost(*i) for i in menu], dtype=np.int64)
    counts = np.zeros(len(menu), dtype=np.int64)
    most = rules.room
    while True:
        affordable = costs <= left
        if not affordable.any() or (len(army) > MAX_FREE_PIECES and (costs[affordable] == 0).all()):
            return army
        if len(army) >= most:  # (another piece could not be placed)
            return army
        i = pick(affordable, counts)
        if i is None:
            return army
        army.append(menu[i])
        counts[i] += 1
        left -= int(costs[i])


@dataclass(frozen=True)
class RandomArmy:
    """A chief of a random mobile type, then random purchases (by ``weights``) while any item
    of ``menu`` is affordable. The default menu is every type with trait none, invisible or
    teleporter, equally weighted.

    ``spend=(low, high)`` first draws a fraction of the budget uniformly in ``[low, high]`` and
    buys within that fraction only (never less than the chief): armies of varied total cost, which
    balancing studies need to tell what a budget point is worth.
    """

    menu: tuple[ArmyItem, ...] = tuple(
        (k, t) for k in PieceType for t in (Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER)
    )
    weights: tuple[float, ...] | None = None
    chief: tuple[PieceType, ...] = (PieceType.ARMY, PieceType.HOVERCRAFT)
    spend: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.spend is not None:
            try:
                low, high = (float(v) for v in self.spend)
            except (TypeError, ValueError):
                raise ArmyError(
                    f"RandomArmy spend must be (low, high), got {self.spend!r}"
                ) from None
            if not 0 <= low <= high <= 1:
                raise ArmyError(f"RandomArmy spend needs 0 <= low <= high <= 1, got {self.spend}")
            object.__setattr__(self, "spend", (low, high))
        object.__setattr__(self, "menu", tuple(parse_item(i) for i in self.menu))
        if not self.menu:
            raise ArmyError("RandomArmy needs a non-empty menu")
        if any(t is Trait.CHIEF for _, t in self.menu):
            raise ArmyError("RandomArmy's menu must not hold a chief (one is always bought)")
        if self.weights is not None:
            w = tuple(float(v) for v in self.weights)
            if len(w) != len(self.menu) or min(w) < 0 or sum(w) <= 0:
                raise ArmyError(
                    f"RandomArmy needs one weight >= 0 per menu item, not all zero, got {w}"
                )
            object.__setattr__(self, "weights", w)
        object.__setattr__(self, "chief", tuple(PieceType(k) for k in self.chief))
        if not self.chief:
            raise ArmyError("RandomArmy needs at least one chief type")

    def choose(self, rules: Rules, rng: np.random.Generator) -> list[ArmyItem]:
        chiefs = [k for k in self.chief if rules.piece_cost(k, Trait.CHIEF) <= rules.army_budget]
        if not chiefs:
            names = ", ".join(k.name.lower() for k in self.chief)
            raise ArmyError(
                f"RandomArmy: no chief type it may buy ({names}) fits the budget of "
                f"{rules.army_budget} (R3)"
            )
        kind = chiefs[int(rng.integers(len(chiefs)))] if len(chiefs) > 1 else chiefs[0]
        p = np.ones(len(self.menu)) if self.weights is None else np.asarray(self.weights)

        def pick(affordable: np.ndarray, counts: np.ndarray) -> int | None:
            w = np.where(affordable, p, 0.0)
            total = w.sum()
            if total <= 0:
                return None
            return int(rng.choice(len(w), p=w / total))

        budget = None
        if self.spend is not None:
            fraction = float(rng.uniform(*self.spend))
            budget = max(int(fraction * rules.army_budget), rules.piece_cost(kind, Trait.CHIEF))
        return _fill(rules, (kind, Trait.CHIEF), self.menu, pick, budget)

    def spec(self) -> dict[str, Any]:
        return {
            "policy": "random",
            "menu": [item_name(i) for i in self.menu],
            "weights": None if self.weights is None else list(self.weights),
            "chief": [k.name.lower() for k in self.chief],
            "spend": None if self.spend is None else list(self.spend),
        }


@dataclass(frozen=True)
class FixedArmy:
    """A fixed composition: a chief, then items bought in the proportions of ``mix`` (the item
    furthest below its share first, ties in ``mix`` order) until none is affordable. Draws
    nothing from the generator."""

    mix: Mapping[ItemLike, float]
    chief: PieceType = PieceType.ARMY
    _items: tuple[ArmyItem, ...] = field(init=False, repr=False, compare=False)
    _shares: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.mix, Mapping) or not self.mix:
            raise ArmyError(f"FixedArmy needs a non-empty mapping item → share, got {self.mix!r}")
        items = tuple(parse_item(i) for i in self.mix)
        shares = tuple(float(v) for v in self.mix.values())
        if any(t is Trait.CHIEF for _, t in items):
            raise ArmyError("FixedArmy's mix must not hold a chief (one is always bought)")
        if min(shares) <= 0:
            raise ArmyError(f"FixedArmy's shares must be > 0, got {shares}")
        object.__setattr__(self, "mix", dict(zip(items, shares, strict=True)))
        object.__setattr__(self, "chief", PieceType(self.chief))
        object.__setattr__(self, "_items", items)
        object.__setattr__(self, "_shares", shares)

    def choose(self, rules: Rules, rng: np.random.Generator) -> list[ArmyItem]:
        return list(_fixed_army(self.chief, self._items, self._shares, rules))

    def spec(self) -> dict[str, Any]:
        return {
            "policy": "fixed",
            "mix": {item_name(i): s for i, s in zip(self._items, self._shares, strict=True)},
            "chief": self.chief.name.lower(),
        }


@functools.lru_cache(maxsize=64)
def _fixed_army(
    chief: PieceType, items: tuple[ArmyItem, ...], shares: tuple[float, ...], rules: Rules
) -> tuple[ArmyItem, ...]:
    """:meth:`FixedArmy.choose`, worked out once per policy and rules (it draws nothing). The
    chief is of the policy's type, or, where that does not fit the budget (a small board's few
    points), of the cheapest type (R3: the rules refuse a budget that buys no chief)."""
    weights = np.asarray(shares)

    def pick(affordable: np.ndarray, counts: np.ndarray) -> int | None:
        need = np.where(affordable, (counts + 1) / weights, np.inf)
        return int(np.argmin(need))

    if rules.piece_cost(chief, Trait.CHIEF) > rules.army_budget:  # (the rules ensure one fits)
        chief = min(PieceType, key=lambda k: rules.piece_cost(k, Trait.CHIEF))
    return tuple(_fill(rules, (chief, Trait.CHIEF), items, pick))


@dataclass(frozen=True)
class GivenArmy:
    """Exactly these pieces (one of them the chief); checked against the rules when chosen."""

    items: tuple[ArmyItem, ...]

    def __init__(self, items: Iterable[ItemLike]) -> None:
        if isinstance(items, str):
            items = [i for i in items.split(",") if i.strip()]
        object.__setattr__(self, "items", tuple(parse_item(i) for i in items))

    def choose(self, rules: Rules, rng: np.random.Generator) -> list[ArmyItem]:
        return list(self.items)

    def spec(self) -> dict[str, Any]:
        return {"policy": "given", "items": [item_name(i) for i in self.items]}


@dataclass(frozen=True)
class MixedArmy:
    """One of several policies per game, drawn with the given weights from the agent's
    generator: an agent with several doctrines (a line of armies, a fortress guard around the
    chief, a teleporter network, invisible raiders) plays each in some games."""

    choices: tuple[tuple[float, ArmyPolicy], ...]

    def __post_init__(self) -> None:
        try:
            pairs = tuple((float(w), p) for w, p in self.choices)
        except (TypeError, ValueError):
            raise ArmyError(
                f"MixedArmy needs (weight, policy) pairs, got {self.choices!r}"
            ) from None
        if not pairs or min(w for w, _ in pairs) < 0 or sum(w for w, _ in pairs) <= 0:
            raise ArmyError("MixedArmy needs one or more weights >= 0, not all zero")
        object.__setattr__(self, "choices", pairs)

    def choose(self, rules: Rules, rng: np.random.Generator) -> list[ArmyItem]:
        weights = np.array([w for w, _ in self.choices])
        i = int(rng.choice(len(weights), p=weights / weights.sum()))
        return self.choices[i][1].choose(rules, rng)

    def spec(self) -> dict[str, Any]:
        return {
            "policy": "mixed",
            "choices": [{"weight": w, "army": p.spec()} for w, p in self.choices],
        }


MOBILE = (PieceType.ARMY, PieceType.HOVERCRAFT)  # the types a chief may be (it must move)


def holds(item: ArmyItem, kind: str) -> bool:
    """Is ``item`` of ``kind``: a type (``army``, ``hovercraft``, ``fortress``) or a trait
    (``invisible``, ``teleporter``)?"""
    return item[0].name.lower() == kind or item[1].name.lower() == kind


def without_kind(policy: ArmyPolicy, kind: str) -> ArmyPolicy:
    """``policy`` forbidden to buy ``kind`` (a type or a paid trait): every item of that kind
    leaves its menu, mix or list, and the budget it took goes to the items left, in their
    proportions (a :class:`FixedArmy` fills up to the budget with the rest; a
    :class:`MixedArmy` keeps each choice's weight, each choice restricted). A chief of a
    forbidden type becomes a chief of the other mobile type (R2: a chief must be able to move,
    and exactly one is bought). A :class:`FixedArmy` whose mix holds nothing else buys its
    chief alone.

    >>> from antipolix import Rules
    >>> line = FixedArmy({"army": 4, "hovercraft": 1, "army+teleporter": 0.5})
    >>> sorted({item_name(i) for i in without_kind(line, "teleporter").choose(Rules(), None)})
    ['army', 'army+chief', 'hovercraft']
    """
    if kind not in ("army", "hovercraft", "fortress", "invisible", "teleporter"):
        raise ArmyError(
            f"a kind to forbid is a type or a paid trait (army, hovercraft, fortress, "
            f"invisible, teleporter), got {kind!r}"
        )

    def chief_type(current: PieceType) -> PieceType:
        if current.name.lower() != kind:
            return current
        return next(t for t in MOBILE if t.name.lower() != kind)

    if isinstance(policy, RandomArmy):
        menu = tuple(i for i in policy.menu if not holds(i, kind))
        weights = None
        if policy.weights is not None:
            weights = tuple(
                w for i, w in zip(policy.menu, policy.weights, strict=True) if not holds(i, kind)
            )
        chiefs = tuple(dict.fromkeys(chief_type(t) for t in policy.chief))
        return RandomArmy(menu=menu, weights=weights, chief=chiefs, spend=policy.spend)
    if isinstance(policy, FixedArmy):
        mix = {i: w for i, w in policy.mix.items() if not holds(parse_item(i), kind)}
        chief = chief_type(policy.chief)
        if not mix:
            return GivenArmy([(chief, Trait.CHIEF)])
        return FixedArmy(mix, chief=chief)
    if isinstance(policy, GivenArmy):
        items = []
        for item in policy.items:
            if item[1] is Trait.CHIEF:
                items.append((chief_type(item[0]), Trait.CHIEF))
            elif not holds(item, kind):
                items.append(item)
        return GivenArmy(items)
    if isinstance(policy, MixedArmy):
        return MixedArmy(tuple((w, without_kind(p, kind)) for w, p in policy.choices))
    raise ArmyError(f"cannot forbid a kind to the army policy {policy!r}")


def policy_from_spec(spec: Mapping[str, Any]) -> ArmyPolicy:
    """Rebuild a policy from :meth:`spec` data (replays, result tables)."""
    try:
        kind = spec["policy"]
        if kind == "random":
            return RandomArmy(
                menu=tuple(spec["menu"]),
                weights=None if spec.get("weights") is None else tuple(spec["weights"]),
                chief=tuple(PieceType[k.upper()] for k in spec["chief"]),
                spend=None if spec.get("spend") is None else tuple(spec["spend"]),
            )
        if kind == "fixed":
            return FixedArmy(dict(spec["mix"]), chief=PieceType[spec["chief"].upper()])
        if kind == "given":
            return GivenArmy(spec["items"])
        if kind == "mixed":
            return MixedArmy(
                tuple((float(c["weight"]), policy_from_spec(c["army"])) for c in spec["choices"])
            )
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise ArmyError(f"malformed army policy {dict(spec)!r}: {exc}") from None
    raise ArmyError(f"unknown army policy {spec.get('policy')!r} (random, fixed, given or mixed)")


def checked_army(rules: Rules, seat: int, items: Iterable[ItemLike]) -> list[ArmyItem]:
    """Parse ``items`` and check them against the rules (R3); errors name the seat."""
    army = [parse_item(i) for i in items]
    rules.check_army(seat, army)
    return army
