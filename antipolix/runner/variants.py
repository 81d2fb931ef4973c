"""Rules variants of a study: one configuration, a list, a dict, or a grid.

A configuration is a game's (:mod:`antipolix.games`): AntipoliX's :class:`~antipolix.Rules`
by default. Every variant plays the same game seeds (common random numbers), so variants are
compared game by game. A variant is named by the options that tell it apart
(``hovercraft.cost=1``), and records the options that differ from the defaults
(``overrides``, the ``--rule`` text of a results row).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from antipolix import games
from antipolix.codec import value_text
from antipolix.errors import AntipolixError, SimulationError
from antipolix.games import host
from antipolix.rules import Rules

RulesLike = Rules | Sequence[Rules] | Mapping[str, Rules] | Any  # or another game's configs


@dataclass(frozen=True)
class Variant:
    name: str
    rules: Any  # the game's configuration (AntipoliX: a Rules)
    overrides: str  # options that differ from the defaults, ``--rule`` text


def rules_grid(
    base: Any, grid: Mapping[str, Sequence[Any]], game: str = games.DEFAULT
) -> dict[str, Any]:
    """One rules variant per combination of the ``grid`` values, named by its options.

    >>> variants = rules_grid(Rules(), {"hovercraft.cost": [1, 2, 3]})
    >>> list(variants)
    ['hovercraft.cost=1', 'hovercraft.cost=2', 'hovercraft.cost=3']
    >>> variants["hovercraft.cost=1"].piece_types.hovercraft.cost
    1

    Keys are ``--rule`` keys and values Python values (``(6, 12, 12)``, ``1``, ``True``); several
    keys give their Cartesian product. Each variant is validated like :class:`Rules` itself (or
    the configuration of ``game``).
    """
    played = games.game(game)
    if not isinstance(grid, Mapping) or not grid:
        raise SimulationError("a grid maps at least one option to its values")
    axes = []
    for key, values in grid.items():
        if isinstance(values, str) or not isinstance(values, Sequence) or not values:
            raise SimulationError(f"grid option {key!r} needs a non-empty list of values")
        axes.append([(key, v) for v in values])
    out: dict[str, Any] = {}
    for combo in itertools.product(*axes):
        name = " ".join(f"{key}={value_text(v)}" for key, v in combo)
        if name in out:
            raise SimulationError(f"grid variant {name!r} appears twice")
        out[name] = host.with_options(played, base, combo)
    return out


def variants(rules: RulesLike, game: str = games.DEFAULT) -> tuple[Variant, ...]:
    """The variants of ``rules`` (a configuration of ``game``, a list or a dict name →
    configuration), named; refuses two variants with the same rules."""
    played = games.game(game)
    items = _named_items(rules, played)
    flats = [host.flat(played.config_to_dict(r)) for _, r in items]
    for i, j in itertools.combinations(range(len(items)), 2):
        if flats[i] == flats[j]:
            raise SimulationError(f"variants {i} and {j} have the same rules")
    if items[0][0] is None:  # a list: name each variant by the options that tell them apart
        keys = [k for k in flats[0] if len({value_text(f.get(k)) for f in flats}) > 1]
        keys += [k for f in flats for k in f if k not in flats[0] and k not in keys]
        names = [
            " ".join(f"{k}={value_text(f.get(k))}" for k in keys) if len(items) > 1 else "base"
            for f in flats
        ]
        items = list(zip(names, (r for _, r in items), strict=True))
    return tuple(Variant(str(n), r, " ".join(host.overrides(played, r))) for n, r in items)


def _named_items(rules: RulesLike, game: Any) -> list[tuple[str | None, Any]]:
    kind = type(game.config())
    what = "Rules" if kind is Rules else f"configuration of {game.info.name}"
    items: list[tuple[str | None, Any]]
    if isinstance(rules, kind):
        items = [("base", rules)]
    elif isinstance(rules, Mapping):
        items = list(rules.items())
        for name, _ in items:
            if not isinstance(name, str) or not name.strip():
                raise SimulationError(f"a variant's name must be a non-empty string: {name!r}")
    elif isinstance(rules, Sequence) and not isinstance(rules, str):
        items = [(None, r) for r in rules]
    else:
        raise SimulationError(
            f"rules must be a {what}, a list of them or a dict name → {what}, got {rules!r}"
        )
    if not items:
        raise SimulationError("no rules variant given")
    for name, r in items:
        if not isinstance(r, kind):
            raise SimulationError(f"variant {name or ''!r}: expected a {what}, got {r!r}")
    return items


def check_game(name: object) -> str:
    """A registered game's name (``--game``), or a :class:`SimulationError` naming the games."""
    try:
        games.game(name)  # type: ignore[arg-type]
    except AntipolixError as exc:
        raise SimulationError(str(exc)) from None
    return str(name).strip().lower()
