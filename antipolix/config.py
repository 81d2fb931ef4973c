"""Rules as plain data: to and from a dict, a TOML file, and ``key=value`` overrides.

Every command takes rules the same way: a TOML file (``--rules FILE``) and repeatable overrides
(``--rule players=6 --rule shape=6,12,12 --rule hovercraft.cost=1``). Both go through
:func:`rules_from_dict`, so they are validated exactly like :class:`~antipolix.Rules` itself.

The dict form is flat for the scalar options and has one table per piece type (``cost``,
``strength``, ``move``) and per trait (``cost``)::

    players = 6
    shape = [6, 12, 12]
    [hovercraft]
    cost = 1
    [invisible]
    cost = 4

>>> rules = apply_overrides(Rules(), ["players=6", "shape=6,12,12", "hovercraft.cost=1"])
>>> rules.players, rules.shape, rules.piece_types.hovercraft.cost
(6, (6, 12, 12), 1)
>>> rules_from_dict(rules_to_dict(rules)) == rules
True
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from antipolix.errors import RulesError
from antipolix.pieces import PieceType, Trait, TraitCosts, TypeSpec, TypeTable
from antipolix.rules import Rules

TYPE_NAMES = tuple(k.name.lower() for k in PieceType)
TRAIT_NAMES = tuple(t.name.lower() for t in Trait)
_SCALARS = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in ("piece_types", "trait_costs")
)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every option of ``rules`` as JSON/TOML-ready data (``budget`` left out when derived)."""
    out: dict[str, Any] = {}
    for name in _SCALARS:
        value = getattr(rules, name)
        if value is None:
            continue
        out[name] = list(value) if name == "shape" else value
    for kind in PieceType:
        out[kind.name.lower()] = dataclasses.asdict(rules.piece_types[kind])
    for trait in Trait:
        out[trait.name.lower()] = {"cost": rules.trait_costs.cost(trait)}
    return out


def _table(name: str, value: object, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise RulesError(f"invalid rules: {name} must be a table of {', '.join(keys)}")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise RulesError(
            f"invalid rules: unknown option {name}.{unknown[0]} (known: {', '.join(keys)})"
        )
    return dict(value)


def rules_from_dict(data: Mapping[str, Any], base: Rules | None = None) -> Rules:
    """Rules from the dict form; options not given keep their value in ``base`` (the defaults).

    Unknown options and bad values raise :class:`RulesError` naming the option.
    """
    if not isinstance(data, Mapping):
        raise RulesError(f"invalid rules: expected a table of options, got {type(data).__name__}")
    base = base if base is not None else Rules()
    scalars: dict[str, Any] = {}
    types = {k: dataclasses.asdict(base.piece_types[k]) for k in PieceType}
    traits = {t: base.trait_costs.cost(t) for t in Trait}
    for key, value in data.items():
        if key in _SCALARS:
            if key == "shape" and isinstance(value, list):
                value = tuple(value)
            scalars[key] = value
        elif key in TYPE_NAMES:
            types[PieceType[key.upper()]].update(_table(key, value, ("cost", "strength", "move")))
        elif key in TRAIT_NAMES:
            traits[Trait[key.upper()]] = _table(key, value, ("cost",)).get(
                "cost", traits[Trait[key.upper()]]
            )
        else:
            known = ", ".join((*_SCALARS, *TYPE_NAMES, *TRAIT_NAMES))
            raise RulesError(f"invalid rules: unknown option {key!r} (known: {known})")
    try:
        piece_types = TypeTable(**{k.name.lower(): TypeSpec(**v) for k, v in types.items()})
    except TypeError as exc:
        raise RulesError(f"invalid rules: {exc}") from None
    trait_costs = TraitCosts(**{t.name.lower(): v for t, v in traits.items()})
    return dataclasses.replace(base, **scalars, piece_types=piece_types, trait_costs=trait_costs)


def load_rules_table(path: str | Path) -> dict[str, Any]:
    """The TOML table of a rules file, unchecked; errors name the file."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"rules file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError(f"rules file {path} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"rules file {path} is not valid TOML: {exc}") from None


def load_rules_file(path: str | Path, base: Rules | None = None) -> Rules:
    """Rules from a TOML file (the dict form); errors name the file."""
    data = load_rules_table(path)
    try:
        return rules_from_dict(data, base)
    except RulesError as exc:
        raise RulesError(f"rules file {path}: {exc}") from None


def _parse_value(text: str) -> Any:
    """``6`` → 6, ``0.5`` → 0.5, ``true`` → True, ``6,12,12`` → [6, 12, 12], else the text."""
    if "," in text:
        return [_parse_value(part.strip()) for part in text.split(",")]
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text.strip()
    return value if isinstance(value, (int, float)) else text.strip()


def parse_override(text: str) -> tuple[str, Any]:
    """``'hovercraft.cost=1'`` → ``('hovercraft.cost', 1)``; refuses text without ``=``."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise RulesError(f"a rule override is KEY=VALUE (e.g. players=6), got {text!r}")
    return key.strip(), _parse_value(value)


def apply_overrides(rules: Rules, overrides: Iterable[str]) -> Rules:
    """``rules`` with each ``KEY=VALUE`` (``players=6``, ``hovercraft.cost=1``) applied."""
    data: dict[str, Any] = {}
    for text in overrides:
        key, value = parse_override(text)
        head, dot, tail = key.partition(".")
        if dot:
            if head not in TYPE_NAMES + TRAIT_NAMES:
                raise RulesError(
                    f"invalid rules: unknown option {key!r} (a dotted option is TYPE.cost, "
                    f"TYPE.strength, TYPE.move or TRAIT.cost, with TYPE one of "
                    f"{', '.join(TYPE_NAMES)} and TRAIT one of {', '.join(TRAIT_NAMES)})"
                )
            table = data.setdefault(head, {})
            if not isinstance(table, dict):
                raise RulesError(
                    f"invalid rules: {head} is a table of options; set {head}.{tail}=... alone, "
                    f"not {head}={table!r}"
                )
            table[tail] = value
        else:
            data[key] = value
    return rules_from_dict(data, rules) if data else rules
