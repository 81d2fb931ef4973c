"""S11: Sight's actions as integers, and as the words and JSON of replays and logs.

On an N×N board the actions are the integers ``[0, 1 + 9·N²)``:

- ``0``: ``Swap`` (S4);
- ``1 + p``: ``Place(p)`` (S5), ``p = y·N + x``;
- ``1 + N² + 8·p + d``: ``Move(p, p + d)`` (S6), ``d`` the index of the direction in
  :data:`~antipolix.games.sight.board.DIRECTIONS`.

Ascending integers are S11's order of a position's legal actions: Swap first, then placements by
point, then moves by (from-point, to-point), since the directions are listed so that ``p + d``
ascends with ``d``. Most integers never name a legal action (a move along an undrawn line, off
the board); :func:`decode` refuses those.

>>> config = SightConfig()
>>> to_json(config, 1 + 13), to_json(config, 0)
({'place': [3, 2]}, 'swap')
>>> text(config, from_json(config, {"move": [[2, 2], [3, 3]]}))
'Move (2, 2) → (3, 3)'
>>> from_text(config, "place 3 2") == from_text(config, "Place (3, 2)") == 1 + 13
True
"""

from __future__ import annotations

import re
from typing import Any

from antipolix.checks import is_plain_int
from antipolix.games.protocol import GameError
from antipolix.games.sight.board import ADJ, DIRECTIONS, NDIR, index, point
from antipolix.games.sight.config import SightConfig
from antipolix.jit import both

SWAP = 0
PLACE0 = 1


@both
def num_actions(n: int) -> int:
    """The size of the action space of an ``n``×``n`` board: Swap, N² places, 8·N² moves."""
    return 1 + 9 * n * n


def move0(n: int) -> int:
    """The first move's integer on an ``n``×``n`` board."""
    return 1 + n * n


def place(n: int, p: int) -> int:
    """``Place(p)``."""
    return PLACE0 + p


def move(n: int, p: int, q: int) -> int:
    """``Move(p, q)``; refuses ``q`` not adjacent to ``p`` (S1)."""
    for d in range(NDIR):
        if ADJ[n, p, d] == q and q >= 0:
            return move0(n) + NDIR * p + d
    raise GameError(f"{_xy(n, p)} and {_xy(n, q)} are not joined by a drawn segment (S1)")


def decode(n: int, action: int) -> tuple[str, int, int]:
    """``("swap", -1, -1)``, ``("place", p, -1)`` or ``("move", p, q)``; refuses an integer
    that names no action of an ``n``×``n`` board."""
    if not is_plain_int(action) or not 0 <= action < num_actions(n):
        raise GameError(
            f"action {action!r} is not an action of sight on a {n}×{n} board "
            f"(0 to {num_actions(n) - 1})"
        )
    if action == SWAP:
        return "swap", -1, -1
    if action < move0(n):
        return "place", action - PLACE0, -1
    p, d = divmod(action - move0(n), NDIR)
    q = int(ADJ[n, p, d])
    if q < 0:
        dx, dy = DIRECTIONS[d]
        raise GameError(
            f"action {action} would move from {_xy(n, p)} by ({dx}, {dy}): no drawn segment "
            "there (S1)"
        )
    return "move", p, q


def _xy(n: int, p: int) -> str:
    x, y = point(n, p)
    return f"({x}, {y})"


def text(config: SightConfig, action: int) -> str:
    """In the rules' words: ``Swap``, ``Place (2, 3)``, ``Move (2, 2) → (3, 3)``."""
    n = config.size
    kind, p, q = decode(n, action)
    if kind == "swap":
        return "Swap"
    if kind == "place":
        return f"Place {_xy(n, p)}"
    return f"Move {_xy(n, p)} → {_xy(n, q)}"


def to_json(config: SightConfig, action: int) -> Any:
    """As replays store it: ``"swap"``, ``{"place": [x, y]}``, ``{"move": [[x, y], [x, y]]}``."""
    n = config.size
    kind, p, q = decode(n, action)
    if kind == "swap":
        return "swap"
    if kind == "place":
        return {"place": list(point(n, p))}
    return {"move": [list(point(n, p)), list(point(n, q))]}


def _xy_of(n: int, data: Any) -> int:
    if (
        not isinstance(data, (list, tuple))
        or len(data) != 2
        or not all(is_plain_int(v) and 0 <= v < n for v in data)
    ):
        raise GameError(f"a point of a {n}×{n} board is [x, y] with 0 <= x, y < {n}, got {data!r}")
    return index(n, int(data[0]), int(data[1]))


def from_json(config: SightConfig, data: Any) -> int:
    """Read :func:`to_json` back; anything else raises GameError."""
    n = config.size
    if isinstance(data, str) and data.strip().lower() == "swap":
        return SWAP
    if isinstance(data, dict) and len(data) == 1:
        ((kind, arg),) = data.items()
        if kind == "place":
            return place(n, _xy_of(n, arg))
        if kind == "move" and isinstance(arg, (list, tuple)) and len(arg) == 2:
            return move(n, _xy_of(n, arg[0]), _xy_of(n, arg[1]))
    raise GameError(
        'a sight action is "swap", {"place": [x, y]} or {"move": [[x, y], [x, y]]}, '
        f"got {data!r}"
    )


_NUMBERS = re.compile(r"-?\d+")


def from_text(config: SightConfig, words: str) -> int:
    """Read :func:`text` back, loosely: ``Swap``, ``Place (2, 3)`` or ``place 2 3``,
    ``Move (2, 2) → (3, 3)`` or ``move 2 2 3 3`` (what a person types)."""
    n = config.size
    head = words.strip().split(maxsplit=1)[0].lower() if words.strip() else ""
    numbers = [int(v) for v in _NUMBERS.findall(words)]
    if head == "swap" and not numbers:
        return SWAP
    if head == "place" and len(numbers) == 2:
        return place(n, _xy_of(n, numbers))
    if head == "move" and len(numbers) == 4:
        return move(n, _xy_of(n, numbers[:2]), _xy_of(n, numbers[2:]))
    raise GameError(f"a sight action is 'swap', 'place X Y' or 'move X Y X2 Y2', got {words!r}")
