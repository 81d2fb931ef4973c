"""What the viewer shows: the view options (:class:`View`) and the interactive state and keys
(:class:`ViewerState`), with no rendering, so both are tested without a window.

Modes, as in the 1995 game: the whole universe; three boards (slices of the universe) at a time,
taken along a chosen axis and spread apart so each reads as a 2D board; or a single board.

>>> v = View(mode="boards", axis="y", boards=(3, 4, 5))
>>> v.check((8, 16, 16)).boards
(3, 4, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from viz.errors import ViewError

Mode = Literal["universe", "boards", "slice"]
Axis = Literal["z", "y", "x"]
Layout = Literal["row", "stack"]
Angle = Literal["oblique", "top", "front", "side"]

MODES: tuple[Mode, ...] = ("universe", "boards", "slice")
AXES: tuple[Axis, ...] = ("z", "y", "x")  # index = position in a (z, y, x) cell
LAYOUTS: tuple[Layout, ...] = ("row", "stack")
ANGLES: tuple[Angle, ...] = ("oblique", "top", "front", "side")
AXIS_INDEX: dict[str, int] = {"z": 0, "y": 1, "x": 2}

KEYS: tuple[tuple[str, str], ...] = (
    ("v", "mode: universe / three boards / one board"),
    ("u / j", "boards up / down (the chosen one, or all)"),
    ("b", "choose the board u / j move: all, 1st, 2nd, 3rd"),
    ("o / p", "axis the boards are taken along: z, y, x"),
    ("a", "viewing angle: oblique, top, front, side"),
    ("l", "boards side by side / stacked"),
    ("f", "fog: the truth, or one player's view (R6)"),
    ("e", "events of the turn on / off"),
    ("space", "play / pause"),
    ("Right / Left", "next / previous turn"),
    ("Home / End", "first / last turn"),
    ("s", "save a PNG of this view"),
    ("h", "this help on / off"),
    ("q", "quit"),
)


def _choice(value: object, options: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str) or value not in options:
        raise ViewError(f"unknown {what} {value!r}: choose one of {', '.join(options)}")
    return value


def _index(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ViewError(f"{what} must be an integer, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class View:
    """How to look at a turn.

    - ``mode``: ``universe`` (every cell), ``boards`` (the slices ``boards`` along ``axis``,
      spread apart) or ``slice`` (the single slice ``slice`` along ``axis``);
    - ``axis``: ``z`` (the default: the P boards of the universe), ``y`` or ``x``;
    - ``boards``: 1 to 3 distinct slice indices (default ``()``: the first three along the
      axis, or as many as the universe has, chosen by :meth:`check`);
    - ``layout``: boards ``row`` (side by side) or ``stack`` (one above the other);
    - ``fog``: ``None`` for the truth (R12: what the replay records), or a player whose
      observation is shown (R6: enemy invisible pieces absent, other players' traits unknown,
      only the events that player was told of);
    - ``events``: draw the turn's attacks, outcomes, crushed invisibles and moves;
    - ``angle``: the camera preset.
    """

    mode: Mode = "universe"
    axis: Axis = "z"
    boards: tuple[int, ...] = ()
    slice: int = 0
    layout: Layout = "row"
    fog: int | None = None
    events: bool = True
    angle: Angle = "oblique"

    def __post_init__(self) -> None:
        _choice(self.mode, MODES, "mode")
        _choice(self.axis, AXES, "axis")
        _choice(self.layout, LAYOUTS, "layout")
        _choice(self.angle, ANGLES, "angle")
        boards = self.boards
        if isinstance(boards, int) and not isinstance(boards, bool):
            boards = (boards,)
        try:
            boards = tuple(_index(b, "a board index") for b in boards)
        except TypeError:
            raise ViewError(f"boards must be 1 to 3 slice indices, got {self.boards!r}") from None
        if len(boards) > 3 or len(set(boards)) != len(boards):
            raise ViewError(f"boards must be 1 to 3 distinct slice indices, got {self.boards!r}")
        object.__setattr__(self, "boards", tuple(sorted(boards)))
        object.__setattr__(self, "slice", _index(self.slice, "slice"))
        if self.fog is not None:
            object.__setattr__(self, "fog", _index(self.fog, "fog (a player)"))
        if not isinstance(self.events, bool):
            raise ViewError(f"events must be True or False, got {self.events!r}")

    @property
    def axis_index(self) -> int:
        return AXIS_INDEX[self.axis]

    @property
    def shown(self) -> tuple[int, ...]:
        """Slice indices drawn (empty in universe mode: everything is drawn)."""
        if self.mode == "universe":
            return ()
        return (self.slice,) if self.mode == "slice" else self.boards

    def check(self, shape: tuple[int, int, int], players: int | None = None) -> View:
        """This view, checked against a universe of ``shape`` (and a number of players).

        Boards and slice must lie along the axis; a fog player must exist. Boards not given are
        the first three along the axis, or as many as it has (a universe of one or two boards).
        """
        length = shape[self.axis_index]
        if not self.boards:
            return replace(self, boards=tuple(range(min(3, length)))).check(shape, players)
        bad = [b for b in self.boards if not 0 <= b < length]
        if bad:
            raise ViewError(
                f"board {bad[0]} is outside the universe: along axis {self.axis} the boards are "
                f"0 to {length - 1}"
            )
        if not 0 <= self.slice < length:
            raise ViewError(
                f"slice {self.slice} is outside the universe: along axis {self.axis} the slices "
                f"are 0 to {length - 1}"
            )
        if self.fog is not None and players is not None and not 0 <= self.fog < players:
            raise ViewError(
                f"there is no player {self.fog} to see through (players 0 to {players - 1})"
            )
        return self


def fit_boards(boards: tuple[int, ...], length: int, count: int = 3) -> tuple[int, ...]:
    """Boards moved inside ``0..length-1`` (consecutive from the first when they do not fit)."""
    count = min(count, length)
    if len(boards) == count and all(0 <= b < length for b in boards):
        return boards
    start = min(max(boards[0] if boards else 0, 0), length - count)
    return tuple(range(start, start + count))


@dataclass
class ViewerState:
    """The interactive viewer's state; :meth:`key` applies one key press (see :data:`KEYS`).

    Pure Python: the viewer draws whatever this state says, so tests drive it directly.
    """

    shape: tuple[int, int, int]
    players: int
    last_turn: int
    turn: int = 0
    view: View = field(default_factory=View)
    playing: bool = False
    selected: int | None = None  # which board u / j move: None = all of them
    help: bool = True
    saves: int = 0  # PNGs asked for with ``s`` (the viewer writes them)

    def __post_init__(self) -> None:
        self.view = self.view.check(self.shape, self.players)
        if not 0 <= self.turn <= self.last_turn:
            raise ViewError(f"turn {self.turn} is outside 0 to {self.last_turn}")

    @property
    def length(self) -> int:
        """Number of slices along the current axis."""
        return self.shape[self.view.axis_index]

    def set_turn(self, turn: int) -> None:
        self.turn = min(max(int(turn), 0), self.last_turn)

    def step(self) -> bool:
        """Advance one turn while playing; stops (and returns False) at the last turn."""
        if self.turn >= self.last_turn:
            self.playing = False
            return False
        self.turn += 1
        return True

    def _set(self, **changes: object) -> None:
        self.view = replace(self.view, **changes)  # type: ignore[arg-type]

    def _move_boards(self, delta: int) -> None:
        view = self.view
        if view.mode == "slice":
            self._set(slice=min(max(view.slice + delta, 0), self.length - 1))
            return
        boards = list(view.boards)
        if self.selected is None or self.selected >= len(boards):
            if boards[0] + delta >= 0 and boards[-1] + delta < self.length:
                boards = [b + delta for b in boards]
        else:
            i = self.selected
            target = boards[i] + delta
            while target in boards:
                target += delta
            if 0 <= target < self.length:
                boards[i] = target
                boards.sort()
                self.selected = boards.index(target)
        self._set(boards=tuple(boards))

    def _cycle_axis(self, delta: int) -> None:
        axis = AXES[(AXES.index(self.view.axis) + delta) % len(AXES)]
        length = self.shape[AXIS_INDEX[axis]]
        self._set(
            axis=axis,
            boards=fit_boards(self.view.boards, length),
            slice=min(self.view.slice, length - 1),
        )
        self.selected = None

    def key(self, key: str) -> bool:
        """Apply one key (VTK key symbol, e.g. ``"v"``, ``"space"``, ``"Right"``); returns
        whether it changed anything."""
        view = self.view
        before = (self.view, self.turn, self.playing, self.selected, self.help, self.saves)
        if key == "v":
            self._set(mode=MODES[(MODES.index(view.mode) + 1) % len(MODES)])
        elif key in ("u", "j"):
            self._move_boards(+1 if key == "u" else -1)
        elif key == "b":
            count = len(view.boards)
            self.selected = 0 if self.selected is None else self.selected + 1
            if self.selected >= count:
                self.selected = None
        elif key in ("o", "p"):
            self._cycle_axis(-1 if key == "o" else +1)
        elif key == "a":
            self._set(angle=ANGLES[(ANGLES.index(view.angle) + 1) % len(ANGLES)])
        elif key == "l":
            self._set(layout=LAYOUTS[(LAYOUTS.index(view.layout) + 1) % len(LAYOUTS)])
        elif key == "f":
            fog = view.fog
            self._set(fog=0 if fog is None else (fog + 1 if fog + 1 < self.players else None))
        elif key == "e":
            self._set(events=not view.events)
        elif key == "space":
            self.playing = not self.playing and self.turn < self.last_turn
        elif key in ("Right", "n"):
            self.set_turn(self.turn + 1)
        elif key in ("Left", "N"):
            self.set_turn(self.turn - 1)
        elif key == "Home":
            self.set_turn(0)
        elif key == "End":
            self.set_turn(self.last_turn)
        elif key == "h":
            self.help = not self.help
        elif key == "s":
            self.saves += 1
        return before != (self.view, self.turn, self.playing, self.selected, self.help, self.saves)

    def status(self) -> str:
        """One line: turn, mode, boards and the chosen one, fog."""
        view = self.view
        if view.mode == "universe":
            where = "whole universe"
        elif view.mode == "slice":
            where = f"board {view.axis}={view.slice}"
        else:
            marks = [f"[{b}]" if self.selected == i else str(b) for i, b in enumerate(view.boards)]
            where = f"boards {view.axis}={','.join(marks)}"
        fog = "truth" if view.fog is None else f"seen by P{view.fog}"
        state = "playing" if self.playing else "paused"
        return f"turn {self.turn}/{self.last_turn} · {where} · {fog} · {state}"
