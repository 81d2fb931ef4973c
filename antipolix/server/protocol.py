"""The match server's protocol, version :data:`PROTOCOL`: JSON frames between the server and its
clients (``docs/protocol.md`` documents every frame).

A frame is one JSON object with a ``type``: a WebSocket text message, or one line over plain TCP.
This module reads what a client sends, strictly: :func:`parse_frame` checks a frame's size, its
JSON, its type and every field, and returns a :class:`Frame`, or raises :class:`ProtocolError`
with a short ``code`` and a message naming the problem, before anything changes. What the rules
refuse (an order naming a piece that is not the player's, an army over the budget) is checked
by the match against its game (:mod:`antipolix.server.match`); what the rules drop at resolution
(an order no longer valid, R4; an undeliverable message, R9) is an event, not an error.

>>> parse_frame('{"type": "order", "turn": 3, "order": {"kind": "Pass"}}').order
Pass()
>>> parse_frame('{"type": "order", "turn": 3}')
Traceback (most recent call last):
...
antipolix.server.protocol.ProtocolError: bad-frame: an order frame needs the field 'order'
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

import orjson

from antipolix.codec import parse_item
from antipolix.envelope import line
from antipolix.errors import AntipolixError
from antipolix.messages import Command, Message
from antipolix.orders import Attack, Move, Order, Pass
from antipolix.pieces import ArmyItem

PROTOCOL = 1  # the version a client names in its hello frame
MAX_FRAME_BYTES = 16 * 1024  # a client frame larger than this is refused with an error frame
MAX_TEXT = 500  # characters of one message (R9)
MAX_MESSAGES = 8  # messages and commands a player may send with one order (R9)
MAX_ARMY = 4096  # pieces in one army frame (the rules' budget bounds it further, R3)
MAX_LISTED = 256  # pieces listed in one attack (R4)
MAX_REF = 64  # characters of a frame's ``ref``, echoed in the reply
MAX_ID = 1 << 53  # piece identifiers, cells and turns are integers below this (exact in JSON)

CLIENT_TYPES = ("hello", "army", "order", "message", "command", "ping")


class ProtocolError(AntipolixError):
    """A frame the protocol refuses: ``code`` (``bad-json``, ``too-big``, ``bad-frame``, ...)
    names the kind of problem for programs, the message says what is wrong for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.detail = message
        self.ref: str | int | None = None  # the refused frame's ref, when it could be read


class Frame(NamedTuple):
    """A client frame, checked. Only the fields of its ``type`` are set. (A named tuple: one is
    made for every frame a client sends, hundreds a second.)"""

    type: str
    ref: str | int | None = None
    protocol: int | None = None  # hello
    game: str | None = None  # hello
    token: str | None = None  # hello
    items: tuple[ArmyItem, ...] = ()  # army (R3)
    cells: tuple[tuple[int, int, int], ...] | None = None  # army: explicit cells, or None
    turn: int | None = None  # order: the turn it is for (the observation's turn + 1)
    order: Order | None = None  # order (R4)
    messages: tuple[Message | Command, ...] = ()  # order, message, command (R9)


def _fail(message: str) -> ProtocolError:
    return ProtocolError("bad-frame", message)


def _int(value: object, what: str, low: int = 0, high: int = MAX_ID) -> int:
    if type(value) is not int or not low <= value < high:
        raise _fail(f"{what} must be an integer from {low} to {high - 1}, got {_short(value)}")
    return value


def _short(value: object) -> str:
    text = json.dumps(value) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _cell(value: object, what: str) -> tuple[int, int, int]:
    """A cell as ``[z, y, x]`` (the board's bounds are the match's to check, R1)."""
    if not isinstance(value, list) or len(value) != 3:
        raise _fail(f"{what} must be a cell [z, y, x], got {_short(value)}")
    z, y, x = (_int(v, what) for v in value)
    return z, y, x


def _fields(
    data: Mapping[str, Any], kind: str, required: tuple[str, ...], optional: tuple[str, ...]
) -> None:
    for name in required:
        if name not in data:
            raise _fail(
                f"an {kind} frame needs the field {name!r}"
                if kind[0] in "aeiou"
                else f"a {kind} frame needs the field {name!r}"
            )
    known = _known_fields(("type", "ref", *required, *optional))
    if data.keys() <= known:  # (the usual case: no unknown field)
        return
    unknown = sorted(set(data) - known)
    raise _fail(
        f"unknown field {unknown[0][:40]!r} in a {kind} frame (its fields: "
        f"{', '.join(sorted(known - {'type'}))})"
    )


@functools.cache
def _known_fields(names: tuple[str, ...]) -> frozenset[str]:
    """The fields a frame or an order may hold, as a set made once for each kind."""
    return frozenset(names)


def order_from_data(value: object) -> Order:
    """An order as JSON data (R4): ``{"kind": "Move", "piece", "cell"}``, ``{"kind": "Attack",
    "pieces", "cell"}`` or ``{"kind": "Pass"}`` (the replay files' form)."""
    if not isinstance(value, dict):
        raise _fail(f"an order is an object with a 'kind', got {_short(value)}")
    kind = value.get("kind")
    if kind == "Pass":
        _only(value, "Pass", ())
        return Pass()
    if kind == "Move":
        _only(value, "Move", ("piece", "cell"))
        return Move(_int(value["piece"], "a Move's piece"), _cell(value["cell"], "a Move's cell"))
    if kind == "Attack":
        _only(value, "Attack", ("pieces", "cell"))
        pieces = value["pieces"]
        if not isinstance(pieces, list) or not 1 <= len(pieces) <= MAX_LISTED:
            raise _fail(f"an Attack's pieces must be a list of 1 to {MAX_LISTED} piece ids")
        return Attack(
            [_int(p, "an Attack's piece") for p in pieces], _cell(value["cell"], "an Attack's cell")
        )
    raise _fail(f"an order's kind is Move, Attack or Pass, got {_short(kind)}")


def _only(value: Mapping[str, Any], kind: str, names: tuple[str, ...]) -> None:
    missing = [n for n in names if n not in value]
    if missing:
        raise _fail(f"a {kind} order needs {', '.join(repr(n) for n in missing)}")
    known = _known_fields(("kind", *names))
    if value.keys() <= known:  # (the usual case: no unknown field)
        return
    unknown = sorted(set(value) - known)
    raise _fail(f"unknown field {unknown[0][:40]!r} in a {kind} order")


def message_from_data(value: object) -> Message | Command:
    """A message or command as JSON data (R9): ``{"kind": "Message", "text", "to"}`` (``to``
    None or absent: to everyone) or ``{"kind": "Command", "command": "NUL" | "WAR" | "QUIT"}``."""
    if not isinstance(value, dict):
        raise _fail(f"a message is an object with a 'kind', got {_short(value)}")
    kind = value.get("kind")
    if kind == "Command":
        _only(value, "Command", ("command",))
        return command_from_data(value["command"])
    if kind == "Message":
        unknown = sorted(set(value) - {"kind", "text", "to"})
        if unknown:
            raise _fail(f"unknown field {unknown[0][:40]!r} in a Message")
        return Message(_text(value.get("text")), _to(value.get("to")))
    raise _fail(f"a message's kind is Message or Command, got {_short(kind)}")


def command_from_data(value: object) -> Command:
    if value not in ("NUL", "WAR", "QUIT"):
        raise _fail(f"a command is NUL, WAR or QUIT (R9), got {_short(value)}")
    return Command(value)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise _fail(f"a message's text must be a string, got {_short(value)}")
    if len(value) > MAX_TEXT:
        raise _fail(f"a message's text is at most {MAX_TEXT} characters, got {len(value)}")
    if any(ord(c) < 32 and c not in "\n\t" for c in value):
        raise _fail("a message's text may not hold control characters (other than newline, tab)")
    return value


def _to(value: object) -> int | None:
    return None if value is None else _int(value, "a message's recipient 'to'", 0, 1024)


def _ref(value: object) -> str | int | None:
    if value is None or (type(value) is int and abs(value) < MAX_ID):
        return value
    if isinstance(value, str) and len(value) <= MAX_REF:
        return value
    raise _fail(f"'ref' must be an integer or a string of at most {MAX_REF} characters")


def decode(raw: str | bytes, limit: int = MAX_FRAME_BYTES) -> dict[str, Any]:
    """The JSON object of a frame: at most ``limit`` bytes of UTF-8 text holding one object."""
    if isinstance(raw, str):  # (its UTF-8 bytes: as many as its characters if all are ASCII)
        size = len(raw) if raw.isascii() else len(raw.encode("utf-8"))
    else:
        size = len(raw)
    if size > limit:
        raise ProtocolError("too-big", f"a frame is at most {limit} bytes, this one has {size}")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:  # (what orjson refuses, the standard library reads or refuses
        data = _slow_loads(raw)  # as before: NaN, lone surrogates, integers beyond 64 bits ...)
    else:  # (orjson reads an integer beyond 64 bits as a float: read it as the integer it is,
        # to refuse it; such an integer is a run of 19 digits or more, which frames seldom hold)
        long = _LONG_DIGITS.search(raw) if isinstance(raw, str) else _LONG_DIGITS_BYTES.search(raw)
        if type(data) is dict and long is not None and _big(data):
            data = _slow_loads(raw)
    if not isinstance(data, dict):
        raise ProtocolError("bad-json", f"a frame must be a JSON object, got {type(data).__name__}")
    return data


# 2**63 has 19 digits: an integer orjson reads as a float is written with 19 digits or more
# (a float written so, 1e19, is read as the same float either way)
_LONG_DIGITS = re.compile(r"[0-9]{19}")
_LONG_DIGITS_BYTES = re.compile(rb"[0-9]{19}")


def _slow_loads(raw: str | bytes) -> Any:
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("bad-json", "a frame must be one JSON object (UTF-8 text)") from None


def _big(value: Any) -> bool:
    """Does ``value`` hold a float of 2**63 or more (an integer beyond 64 bits, as orjson
    reads it)?"""
    if type(value) is float:
        return abs(value) >= 2.0**63
    if type(value) is dict:
        return any(_big(v) for v in value.values())
    if type(value) is list:
        return any(_big(v) for v in value)
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_frame(raw: str | bytes, limit: int = MAX_FRAME_BYTES) -> Frame:
    """Check one client frame and return it (see the module docstring). The error of a frame
    whose ``ref`` could be read carries it, for the reply."""
    data = decode(raw, limit)
    try:
        ref = _ref(data.get("ref"))
    except ProtocolError:
        ref = None
    try:
        return _frame(data, ref)
    except ProtocolError as exc:
        exc.ref = ref
        raise


def _frame(data: dict[str, Any], ref: str | int | None) -> Frame:
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown-type",
            f"frame type {_short(kind)} is unknown (known: {', '.join(CLIENT_TYPES)})",
        )
    _ref(data.get("ref"))  # (refused here if it is not a ref)
    if kind == "hello":
        _fields(data, kind, ("protocol", "game", "token"), ())
        version = data["protocol"]
        if version != PROTOCOL or type(version) is not int:
            raise ProtocolError(
                "protocol", f"this server speaks protocol {PROTOCOL}, the client {_short(version)}"
            )
        game, token = data["game"], data["token"]
        if not isinstance(game, str) or not 0 < len(game) <= 64:
            raise _fail("'game' must be a game's id (a short string)")
        if not isinstance(token, str) or not 0 < len(token) <= 128:
            raise _fail("'token' must be the secret of a seat or of the spectators (a string)")
        return Frame(kind, ref, protocol=version, game=game, token=token)
    if kind == "army":
        _fields(data, kind, ("items",), ("cells",))
        items = data["items"]
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_ARMY:
            raise _fail(
                f"an army's items must be a list of 1 to {MAX_ARMY} names like 'army+chief'"
            )
        try:
            parsed = tuple(parse_item(i) if isinstance(i, str) else _not_item(i) for i in items)
        except AntipolixError as exc:
            raise _fail(str(exc)) from None
        cells = data.get("cells")
        if cells is not None:
            if not isinstance(cells, list) or len(cells) != len(items):
                raise _fail(
                    f"an army's cells must be null (random cells of the zone, R3) or one cell "
                    f"per item ({len(items)})"
                )
            cells = tuple(_cell(c, "an army's cell") for c in cells)
        return Frame(kind, ref, items=parsed, cells=cells)
    if kind == "order":
        _fields(data, kind, ("turn", "order"), ("messages",))
        messages = data.get("messages", [])
        if not isinstance(messages, list) or len(messages) > MAX_MESSAGES:
            raise _fail(f"an order's messages must be a list of at most {MAX_MESSAGES}")
        return Frame(
            kind,
            ref,
            turn=_int(data["turn"], "an order's turn", 1),
            order=order_from_data(data["order"]),
            messages=tuple(message_from_data(m) for m in messages),
        )
    if kind == "message":
        _fields(data, kind, ("text",), ("to",))
        return Frame(kind, ref, messages=(Message(_text(data["text"]), _to(data.get("to"))),))
    if kind == "command":
        _fields(data, kind, ("command",), ())
        return Frame(kind, ref, messages=(command_from_data(data["command"]),))
    _fields(data, kind, (), ())
    return Frame(kind, ref)


def _not_item(value: object) -> ArmyItem:
    raise _fail(f"an army item is a name like 'army+chief' or 'hovercraft', got {_short(value)}")


class JsonText:
    """JSON text made elsewhere (bytes), written into a frame as it is: :func:`encode` puts it
    in place of this object (the pieces of an observation, written by compiled code:
    :meth:`antipolix.game.Game.pieces_json`)."""

    __slots__ = ("text",)

    def __init__(self, text: bytes) -> None:
        self.text = text


def _raw(value: object) -> orjson.Fragment:
    if type(value) is JsonText:
        return orjson.Fragment(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _parsed(value: object) -> Any:
    if type(value) is JsonText:
        return orjson.loads(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


def encode(frame: Mapping[str, Any]) -> str:
    """A server frame as text: compact JSON (every number of the engine is finite: no NaN).

    orjson writes it: with the standard library's encoder, JSON was the largest single cost of
    serving a turn. What orjson refuses goes to the standard library, which says what is wrong
    or writes it with every character beyond ASCII escaped: a text holding a lone surrogate (a
    client may send ``"\\ud800"`` in a message) reaches its readers as it was sent, where
    UTF-8 could not carry it.

    >>> print(encode({"text": "a" + chr(0xD800)}))
    {"text":"a\\ud800"}
    """
    try:
        return orjson.dumps(frame, default=_raw, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(frame, separators=(",", ":"), allow_nan=False, default=_parsed)


def encode_line(record: Mapping[str, Any]) -> bytes:
    """A record as one line of UTF-8 compact JSON, as :func:`encode` writes frames: the lines of
    a served game's journal and replay."""
    try:
        return orjson.dumps(record, option=_OPTIONS) + b"\n"
    except orjson.JSONEncodeError:
        return line(record)  # (the replays' own line: what orjson refuses)


# keys that are not text become text, numpy numbers plain numbers (as the standard library does)
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY


def error_frame(code: str, message: str, ref: str | int | None = None) -> dict[str, Any]:
    """The frame that answers a refused client frame; nothing changed."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    return out


def finite(value: float) -> float:
    """``value``, checked finite (frames never carry NaN or infinities)."""
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value}")
    return value
