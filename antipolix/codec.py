"""The one codec: rules, armies, orders and messages as text and data, and back.

Everything inside the package passes objects (:class:`~antipolix.Rules`, ``(PieceType, Trait)``
items, orders); they become text only at the edge, here: rules files and ``--rule`` overrides,
replay files, the columns of results, study descriptions.

- **Rules** as a dict (flat for the scalar options, one table per piece type and per trait), a
  TOML file, or ``KEY=VALUE`` overrides (``players=6``, ``shape=6,12,12``,
  ``hovercraft.cost=1``), all validated exactly like :class:`~antipolix.Rules` itself; and back
  (:func:`rules_to_dict`, :func:`rules_overrides`)::

      players = 6
      shape = [6, 12, 12]
      [hovercraft]
      cost = 1

- **Army items** by name: ``"hovercraft+invisible"`` ↔ ``(HOVERCRAFT, INVISIBLE)``
  (:func:`parse_item`, :func:`item_name`); :data:`ITEMS` lists every item in a fixed order (the
  columns of army counts in results).
- **Orders and messages** as JSON-ready dicts (replays, the match server's frames).
- **Observations** as JSON-ready dicts (:func:`observation_to_dict`): what a seat of the match
  server receives each turn, field for field :meth:`antipolix.Game.observe` (R6).

>>> rules = apply_overrides(Rules(), ["players=6", "shape=6,12,12", "hovercraft.cost=1"])
>>> rules.players, rules.shape, rules.piece_types.hovercraft.cost
(6, (6, 12, 12), 1)
>>> rules_from_dict(rules_to_dict(rules)) == rules
True
>>> rules_overrides(rules)
['shape=6,12,12', 'players=6', 'hovercraft.cost=1']
"""

from __future__ import annotations

import dataclasses
import json
import sys
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.errors import ArmyError, RulesError
from antipolix.events import Event
from antipolix.files import parse_json, text_file
from antipolix.jit import kernel
from antipolix.messages import Command, Delivered, Message
from antipolix.observation import UNKNOWN_TRAIT, Observation, Told, observe_k
from antipolix.orders import Attack, Move, Order, Pass
from antipolix.pieces import ArmyItem, PieceType, Trait, TraitCosts, TypeSpec, TypeTable
from antipolix.rules import Rules
from antipolix.state import COUNT, Arrays
from antipolix.world import IntArray

MAX_RULES_BYTES = 2**20  # a rules file is a page of options: a larger one is refused unread
MAX_OVERRIDE = 200  # characters of a --rule KEY=VALUE

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
        text = text_file(path, MAX_RULES_BYTES)
    except FileNotFoundError:
        raise RulesError(f"rules file {path} does not exist") from None
    except (OSError, ValueError) as exc:
        raise RulesError(f"rules file {path} cannot be read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"rules file {path} is not valid TOML: {exc}") from None
    except RecursionError:
        raise RulesError(f"rules file {path} is not valid TOML: nested too deeply") from None
    except ValueError:  # (an integer of more digits than Python converts)
        digits = sys.get_int_max_str_digits()
        raise RulesError(
            f"rules file {path} is not valid TOML: an integer of more than {digits:,} digits"
        ) from None


def load_rules_file(path: str | Path, base: Rules | None = None) -> Rules:
    """Rules from a TOML file (the dict form); errors name the file."""
    data = load_rules_table(path)
    try:
        return rules_from_dict(data, base)
    except RulesError as exc:
        raise RulesError(f"rules file {path}: {exc}") from None


def rules_to_toml(rules: Rules, comment: str = "") -> str:
    """Every option of ``rules`` as a rules file (TOML) that :func:`load_rules_file` reads back
    to the same rules: the scalar options, then one table per piece type and per trait
    (:func:`rules_to_dict`). ``comment``: lines written first, each as a TOML comment.

    >>> rules = apply_overrides(Rules(), ["fortress.cost=6", "players=3"])
    >>> import tomllib
    >>> rules_from_dict(tomllib.loads(rules_to_toml(rules, "a proposal"))) == rules
    True
    """
    head = [f"# {line}".rstrip() for line in comment.splitlines()]
    scalars, tables = [], []
    for key, value in rules_to_dict(rules).items():
        if isinstance(value, dict):
            tables += ["", f"[{key}]", *(f"{k} = {_toml(v)}" for k, v in value.items())]
        else:
            scalars.append(f"{key} = {_toml(value)}")
    return "\n".join([*head, *([""] if head else []), *scalars, *tables]) + "\n"


def _toml(value: Any) -> str:
    """One TOML value: a boolean, an integer, a float, a string or a list of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value))  # a TOML basic string: JSON's escapes are TOML's


def parse_value(text: str) -> Any:
    """``6`` → 6, ``0.5`` → 0.5, ``true`` → True, ``6,12,12`` → [6, 12, 12], else the text."""
    if "," in text:
        return [parse_value(part.strip()) for part in text.split(",")]
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    try:
        value = parse_json(text)
    except ValueError:
        return text.strip()
    return value if isinstance(value, (int, float)) else text.strip()


def parse_override(text: str) -> tuple[str, Any]:
    """``'hovercraft.cost=1'`` → ``('hovercraft.cost', 1)``; refuses text without ``=``."""
    key, sep, value = text.partition("=")
    if len(text) > MAX_OVERRIDE:  # (no option's key and value come near: refused unread)
        raise RulesError(
            f"a rule override is KEY=VALUE of at most {MAX_OVERRIDE} characters "
            f"(e.g. players=6), got {len(text):,} beginning {text[:24]!r}"
        )
    if not sep or not key.strip() or not value.strip():
        raise RulesError(f"a rule override is KEY=VALUE (e.g. players=6), got {text!r}")
    return key.strip(), parse_value(value)


def with_options(rules: Rules, options: Iterable[tuple[str, Any]]) -> Rules:
    """``rules`` with options changed, by their ``--rule`` keys: ``[("players", 6),
    ("hovercraft.cost", 1)]`` (a later value of a key wins), validated like :class:`Rules`."""
    data: dict[str, Any] = {}
    for key, value in options:
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


def apply_overrides(rules: Rules, overrides: Iterable[str]) -> Rules:
    """``rules`` with each ``KEY=VALUE`` text (``players=6``, ``hovercraft.cost=1``) applied."""
    return with_options(rules, [parse_override(text) for text in overrides])


def value_text(value: Any) -> str:
    """A rule option's value as ``--rule`` text: ``true``, ``4,8,8``, ``0.5``, ``none``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ",".join(value_text(v) for v in value)
    return str(value)


def flat_options(rules: Rules) -> dict[str, Any]:
    """Every option as ``{"players": 4, "hovercraft.cost": 2, ...}`` (the ``--rule`` keys)."""
    out: dict[str, Any] = {}
    for key, value in rules_to_dict(rules).items():
        if isinstance(value, dict):
            out.update({f"{key}.{k}": v for k, v in value.items()})
        else:
            out[key] = value
    return out


def rules_overrides(rules: Rules, base: Rules | None = None) -> list[str]:
    """The options of ``rules`` that differ from ``base`` (the defaults), as the ``KEY=VALUE``
    texts :func:`apply_overrides` (and ``--rule``) read back."""
    want, have = flat_options(rules), flat_options(base if base is not None else Rules())
    diff = [f"{k}={value_text(v)}" for k, v in want.items() if k not in have or have[k] != v]
    return diff + [f"{k}=none" for k in have if k not in want]


def overrides_markdown(rules: Rules, base: Rules | None = None, none: str = "none") -> str:
    """:func:`rules_overrides` for a report: Markdown code spans (`` `army.cost=4`,
    `max_turns=500` ``), or ``none`` when nothing differs."""
    return ", ".join(f"`{o}`" for o in rules_overrides(rules, base)) or none


# -- army items -----------------------------------------------------------------------------------

ITEMS: tuple[ArmyItem, ...] = tuple((k, t) for k in PieceType for t in Trait)


def item_name(item: ArmyItem) -> str:
    """``(HOVERCRAFT, INVISIBLE)`` → ``"hovercraft+invisible"``; no suffix for trait none."""
    kind, trait = item
    return kind.name.lower() + ("" if trait is Trait.NONE else "+" + trait.name.lower())


_KNOWN: dict[object, ArmyItem] = {}  # every item, and its name → the item (filled below)


def parse_item(item: object) -> ArmyItem:
    """``"hovercraft+invisible"`` or ``(PieceType.HOVERCRAFT, Trait.INVISIBLE)`` → the pair."""
    if isinstance(item, str | tuple) and item in _KNOWN:  # (armies are parsed every game)
        return _KNOWN[item]
    if isinstance(item, str):
        kind, _, trait = item.strip().lower().partition("+")
        try:
            return PieceType[kind.upper()], Trait[(trait or "none").upper()]
        except KeyError:
            raise ArmyError(
                f"unknown army item {item!r}: write TYPE or TYPE+TRAIT with TYPE one of "
                "army, hovercraft, fortress and TRAIT one of invisible, teleporter, chief"
            ) from None
    try:
        kind, trait = item  # type: ignore[misc]
        return PieceType(int(kind)), Trait(int(trait))
    except (TypeError, ValueError):
        raise ArmyError(
            f"an army item is a (PieceType, Trait) pair or a name like 'army+invisible', "
            f"got {item!r}"
        ) from None


_KNOWN.update((item_name(item), item) for item in ITEMS)
_KNOWN.update((item, item) for item in ITEMS)


def count_column(item: ArmyItem) -> str:
    """The results column of an army item's counts: ``hovercraft+invisible`` →
    ``n_hovercraft_invisible``."""
    return "n_" + item_name(item).replace("+", "_")


ARMY_COLUMNS: tuple[str, ...] = tuple(count_column(item) for item in ITEMS)


def army_counts(armies: Sequence[Sequence[ArmyItem]]) -> dict[str, list[int]]:
    """Per army-item column, per seat, how many such pieces the seat placed."""
    out = {name: [0] * len(armies) for name in ARMY_COLUMNS}
    column = dict(zip(ITEMS, ARMY_COLUMNS, strict=True))
    for seat, army in enumerate(armies):
        for item in army:
            out[column[item]][seat] += 1
    return out


# -- orders and messages (replays) ----------------------------------------------------------------


def order_to_dict(order: Order) -> dict[str, Any]:
    if isinstance(order, Move):
        return {"kind": "Move", "piece": int(order.piece), "cell": [int(c) for c in order.cell]}
    if isinstance(order, Attack):
        return {
            "kind": "Attack",
            "pieces": [int(p) for p in order.pieces],
            "cell": [int(c) for c in order.cell],
        }
    return {"kind": "Pass"}


def order_from_dict(data: Any) -> Order:
    kind = data["kind"]
    if kind == "Move":
        return Move(int(data["piece"]), cell_from_list(data["cell"]))
    if kind == "Attack":
        return Attack([int(p) for p in data["pieces"]], cell_from_list(data["cell"]))
    if kind == "Pass":
        return Pass()
    raise ValueError(f"unknown order kind {kind!r}")


def message_to_dict(item: Message | Command) -> dict[str, Any]:
    if isinstance(item, Command):
        return {"kind": "Command", "command": item.value}
    return {"kind": "Message", "text": item.text, "to": item.to}


def message_from_dict(data: Any) -> Message | Command:
    if data["kind"] == "Command":
        return Command(data["command"])
    if data["kind"] == "Message":
        return Message(str(data["text"]), None if data["to"] is None else int(data["to"]))
    raise ValueError(f"unknown message kind {data['kind']!r}")


def cell_from_list(value: Any) -> tuple[int, int, int]:
    z, y, x = (int(v) for v in value)
    return z, y, x


# -- observations (the match server) --------------------------------------------------------------


def delivered_to_dict(item: Delivered) -> dict[str, Any]:
    """A message as its recipient receives it (R9): turn, sender, text, ``to`` (None: to all)."""
    return {"turn": item.turn, "sender": item.sender, "text": item.text, "to": item.to}


def observation_to_dict(
    obs: Observation | Told,
    event_dict: Callable[[Event], dict[str, Any]] | None = None,
    pieces: object = None,
) -> dict[str, Any]:
    """An observation (R6) as JSON-ready data, every field of :class:`Observation`: ``player``,
    ``turn`` (turns played), ``timer`` (own seconds left, None with timers off), ``living``,
    ``nul`` (standing NUL proposals, R9), ``messages`` (delivered last turn), ``events`` (of the
    last turn as told to the player, :meth:`~antipolix.events.Event.to_dict`) and ``pieces``:
    one ``{"id", "owner", "type", "trait", "cell"}`` per piece seen, in identifier order, with
    types and traits by name (``"hovercraft"``, ``"invisible"``) and ``trait`` None for other
    players' pieces (R6). ``event_dict`` gives an event's plain form (default
    :meth:`~antipolix.events.Event.to_dict`; the match server passes the forms it made once a
    turn). ``pieces``, if given, stands for the list of pieces (the match server gives their
    JSON text, :meth:`~antipolix.game.Game.pieces_json`, with the other fields of ``obs``,
    :class:`~antipolix.observation.Told`)."""
    plain = Event.to_dict if event_dict is None else event_dict
    if pieces is None:
        assert isinstance(obs, Observation), "the pieces of an observation's other fields"
        pieces = seen_pieces(obs.ids, obs.owners, obs.types, obs.cells, obs.traits)
    return {
        "player": obs.player,
        "turn": obs.turn,
        "timer": obs.timer,
        "living": list(obs.living),
        "nul": list(obs.nul),
        "messages": [delivered_to_dict(m) for m in obs.messages],
        "events": [plain(e) for e in obs.events],
        "pieces": pieces,
    }


def seen_pieces(
    ids: npt.NDArray[Any],
    owners: npt.NDArray[Any],
    types: npt.NDArray[Any],
    cells: npt.NDArray[Any],
    traits: npt.NDArray[Any] | None = None,
) -> list[dict[str, Any]]:
    """Pieces seen (R6), from an observation's arrays, as JSON-ready data: one ``{"id",
    "owner", "type", "trait", "cell"}`` each, types and traits by name, ``trait`` None where it
    is unknown (other players' pieces, or every piece without ``traits``)."""
    known = [UNKNOWN_TRAIT] * len(ids) if traits is None else traits.tolist()
    return [
        {
            "id": pid,
            "owner": owner,
            "type": TYPE_NAMES[kind],
            "trait": None if trait == UNKNOWN_TRAIT else TRAIT_NAMES[trait],
            "cell": cell,
        }
        for pid, owner, kind, trait, cell in zip(
            ids.tolist(),
            owners.tolist(),
            types.tolist(),
            known,
            cells.reshape(-1, 3).tolist(),
            strict=True,
        )
    ]


# -- the pieces seen as JSON text, by compiled code (the match server's frames) -------------------


def _json_names() -> tuple[npt.NDArray[np.uint8], IntArray]:
    """:data:`TYPE_NAMES` then :data:`TRAIT_NAMES` as JSON strings (``"army"``,
    ``"invisible"``), by value: one run of bytes and where each begins (``starts``, one more)."""
    names = [f'"{name}"'.encode() for name in (*TYPE_NAMES, *TRAIT_NAMES)]
    starts = np.cumsum([0] + [len(n) for n in names]).astype(np.int64)
    return np.frombuffer(b"".join(names), dtype=np.uint8).copy(), starts


JSON_NAMES, JSON_STARTS = _json_names()
_TRAIT_BASE = len(TYPE_NAMES)  # the traits' rows in JSON_STARTS
_PIECE_BYTES = 192  # at most, with every number 20 digits long
# the fixed parts of a piece's JSON, in order: before its id, owner, type, trait and cell
_KEYS = np.frombuffer(b'{"id":,"owner":,"type":,"trait":,"cell":[', dtype=np.uint8).copy()
_KEY_ENDS = np.array([6, 15, 23, 32, 41], dtype=np.int64)
_NULL = np.frombuffer(b"null", dtype=np.uint8).copy()


@kernel
def pieces_json_k(a: Arrays, players: IntArray) -> tuple[npt.NDArray[np.uint8], IntArray]:
    """Per player of ``players`` (-1: no player, what every player sees), the pieces it sees
    (R6, :func:`~antipolix.observation.observe_k`) as the JSON text of :func:`seen_pieces`: a list
    of ``{"id", "owner", "type", "trait", "cell"}`` objects, types and traits by name
    (:data:`JSON_NAMES`), ``null`` for another player's trait. Returns the texts one after
    the other (UTF-8 bytes) and where each ends."""
    names, starts = JSON_NAMES, JSON_STARTS
    count = a.meta[COUNT]
    out = np.empty(len(players) * (2 + count * _PIECE_BYTES), dtype=np.uint8)
    ends = np.empty(len(players), dtype=np.int64)
    k = 0
    for v in range(len(players)):
        ids, owners, types, traits, cells = observe_k(a, players[v])
        out[k] = 91  # [
        k += 1
        for i in range(len(ids)):
            if i:
                out[k] = 44  # ,
                k += 1
            k = _json_put(out, k, _KEYS, 0, _KEY_ENDS[0])
            k = _json_int(out, k, ids[i])
            k = _json_put(out, k, _KEYS, _KEY_ENDS[0], _KEY_ENDS[1])
            k = _json_int(out, k, owners[i])
            k = _json_put(out, k, _KEYS, _KEY_ENDS[1], _KEY_ENDS[2])
            k = _json_put(out, k, names, starts[types[i]], starts[types[i] + 1])
            k = _json_put(out, k, _KEYS, _KEY_ENDS[2], _KEY_ENDS[3])
            if traits[i] == UNKNOWN_TRAIT:
                k = _json_put(out, k, _NULL, 0, 4)
            else:
                row = _TRAIT_BASE + traits[i]
                k = _json_put(out, k, names, starts[row], starts[row + 1])
            k = _json_put(out, k, _KEYS, _KEY_ENDS[3], _KEY_ENDS[4])
            for axis in range(3):
                k = _json_int(out, k, cells[i, axis])
                out[k] = 44 if axis < 2 else 93  # , or ]
                k += 1
            out[k] = 125  # }
            k += 1
        out[k] = 93  # ]
        k += 1
        ends[v] = k
    return out[:k], ends


@kernel
def _json_put(
    out: npt.NDArray[np.uint8], k: int, text: npt.NDArray[np.uint8], lo: int, hi: int
) -> int:
    """``text[lo:hi]`` written at ``out[k]``; returns where the next write goes."""
    for i in range(lo, hi):
        out[k] = text[i]
        k += 1
    return k


@kernel
def _json_int(out: npt.NDArray[np.uint8], k: int, value: int) -> int:
    """The decimal digits of ``value`` written at ``out[k]``; returns where the next write goes."""
    v = int(value)
    if v < 0:
        out[k] = 45  # -
        k += 1
        v = -v
    digits, rest = 1, v
    while rest >= 10:
        rest //= 10
        digits += 1
    for i in range(digits - 1, -1, -1):
        out[k + i] = 48 + v % 10
        v //= 10
    return k + digits
