"""The scene of one replay turn as plain arrays: no VTK here, so it is tested on its own.

:func:`build_scene` turns (replay, turn, :class:`~viz.view.View`) into a :class:`Scene`: the
pieces to draw (glyph centres in world coordinates, owners, types, traits, see-through flags),
the turn's events as lines, marks and labels, the boards drawn (:class:`Panel`) and the legend;
:class:`Projection` puts cells in world coordinates. :mod:`viz.render` draws a scene with one
merged mesh per glyph kind.

World coordinates: one cell is one unit. In ``universe`` mode cell ``(z, y, x)`` is drawn at
``(x, y, z)`` (boards are horizontal layers, z up). In ``boards`` and ``slice`` mode each shown
slice is a horizontal board whose cells ``(u, v)`` are the two other axes (for axis z: x, y; for
y: x, z; for x: y, z), the boards spread side by side (``row``) or one above the other
(``stack``); pieces stand on their board (its plane is half a cell below their centres).

What a player sees (``view.fog = p``) is its observation (R6): its own pieces with their traits,
other players' visible pieces without traits, no enemy invisible piece, and only the events it
was told of, with the ids of enemy invisible pieces left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace

import numpy as np
import numpy.typing as npt

from antipolix.combat import Outcome
from antipolix.errors import ReplayError
from antipolix.events import Combat, Crushed, Eliminated, Event, Fate, Moved
from antipolix.game import Game
from antipolix.log import piece_namer, story
from antipolix.observation import UNKNOWN_TRAIT
from antipolix.pieces import Piece, PieceType, Trait
from antipolix.replay import Replay
from antipolix.world import Cell
from viz.errors import ViewError
from viz.palette import DANGER, player_colour
from viz.view import View

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

# (u, v) axes of a board taken along z, y, x: indices into a (z, y, x) cell.
BOARD_AXES: dict[int, tuple[int, int]] = {0: (2, 1), 1: (2, 0), 2: (1, 0)}
AXIS_NAMES = ("z", "y", "x")
TYPE_NAMES = {
    PieceType.ARMY: "army",
    PieceType.HOVERCRAFT: "hovercraft",
    PieceType.FORTRESS: "fortress",
}
MAX_LOG = 10  # event lines written on the picture (the rest: "… and 3 more")


@dataclass(frozen=True, eq=False)
class Glyphs:
    """The pieces drawn, one row each."""

    ids: IntArray
    owners: IntArray
    types: IntArray
    traits: IntArray  # UNKNOWN_TRAIT (-1) where the viewer may not know it (R6)
    cells: IntArray  # (k, 3) cells (z, y, x) at the turn
    points: FloatArray  # (k, 3) world centres
    ghost: BoolArray  # invisible pieces, drawn see-through

    def __len__(self) -> int:
        return len(self.ids)

    def count(self, kind: PieceType) -> int:
        return int((self.types == int(kind)).sum())


@dataclass(frozen=True, eq=False)
class Line:
    """A polyline over the pieces: an attack, a move or a teleport arc."""

    kind: str  # "attack" | "move" | "teleport"
    points: FloatArray  # (m, 3)
    colour: str


@dataclass(frozen=True, eq=False)
class Mark:
    """A point event: ``destroyed``, ``crushed`` (R6), ``converted``, or ``casualty`` (the ghost
    of a piece that left the board this turn, drawn where it stood)."""

    kind: str
    point: FloatArray  # (3,)
    colour: str
    piece_type: PieceType | None = None


@dataclass(frozen=True, eq=False)
class Label:
    point: FloatArray
    text: str


@dataclass(frozen=True, eq=False)
class Panel:
    """One drawn board of the ``boards`` / ``slice`` modes (a slice of the universe laid flat):
    cell ``(u, v)`` of the slice sits at ``origin + u * du + v * dv`` (world). Not the engine's
    :class:`antipolix.state.Board` (the game's piece table)."""

    axis: str
    index: int
    size: tuple[int, int]  # cells along u, v
    origin: FloatArray
    du: FloatArray
    dv: FloatArray
    names: tuple[str, str]  # axis names of u and v

    @property
    def label(self) -> str:
        return f"{self.axis} = {self.index}"


@dataclass(frozen=True)
class PlayerEntry:
    player: int
    agent: str
    colour: str
    pieces: int  # pieces shown (in a fog view: those the viewer sees)
    alive: bool
    note: str  # "", "winner", "out at turn 120"
    seen: bool = False  # a fog view: ``pieces`` counts those the viewer sees (R6)

    @property
    def text(self) -> str:
        count = f"{self.pieces} {'seen' if self.seen else 'pieces'}"
        if not self.alive:
            return f"P{self.player} {self.agent}: {self.note or 'out'}"
        return f"P{self.player} {self.agent}: {count}" + (f", {self.note}" if self.note else "")


@dataclass(frozen=True, eq=False)
class Scene:
    shape: tuple[int, int, int]
    turn: int
    last_turn: int
    view: View
    progress: float
    glyphs: Glyphs
    lines: tuple[Line, ...]
    marks: tuple[Mark, ...]
    labels: tuple[Label, ...]
    panels: tuple[Panel, ...]  # the boards drawn (boards and slice mode; none for universe)
    players: tuple[PlayerEntry, ...]
    title: str
    subtitle: str
    log: tuple[str, ...]
    bounds: tuple[float, float, float, float, float, float]
    agents: tuple[str, ...] = field(default=())
    notice: str = ""  # a line drawn across the board (e.g. the fog player is out of the game)


# -- where cells go ----------------------------------------------------------------------------


class Projection:
    """Maps cells to world points for a view (and says which cells are shown). Not the view's
    ``layout`` option (``row`` / ``stack``), which is one of its inputs."""

    def __init__(self, shape: tuple[int, int, int], view: View) -> None:
        self.shape = shape
        self.view = view
        self.panels: tuple[Panel, ...] = ()
        if view.mode == "universe":
            p, n, m = shape
            self.bounds: tuple[float, float, float, float, float, float] = (
                -0.5,
                m - 0.5,
                -0.5,
                n - 0.5,
                -0.5,
                p - 0.5,
            )
            return
        a = view.axis_index
        iu, iv = BOARD_AXES[a]
        size_u, size_v = shape[iu], shape[iv]
        self._axes = (a, iu, iv)
        shown = view.shown
        self._slot = np.full(shape[a], -1, dtype=np.int64)
        self._slot[list(shown)] = np.arange(len(shown))
        if view.layout == "row":
            gap = max(2.0, round(0.2 * size_u))
            step = np.array([size_u + gap, 0.0, 0.0])
        else:
            gap = max(3.0, round(0.45 * max(size_u, size_v)))
            step = np.array([0.0, 0.0, gap])
        self._step = step
        self.panels = tuple(
            Panel(
                axis=view.axis,
                index=s,
                size=(size_u, size_v),
                origin=step * k,
                du=np.array([1.0, 0.0, 0.0]),
                dv=np.array([0.0, 1.0, 0.0]),
                names=(AXIS_NAMES[iu], AXIS_NAMES[iv]),
            )
            for k, s in enumerate(shown)
        )
        last = step * (len(shown) - 1)
        self.bounds = (
            -0.5,
            size_u - 0.5 + float(last[0]),
            -0.5,
            size_v - 0.5,
            -0.5,
            0.5 + float(last[2]),
        )

    def place(self, cells: npt.ArrayLike) -> tuple[FloatArray, BoolArray]:
        """World points of ``cells`` (k, 3) and which of them are shown."""
        c = np.asarray(cells, dtype=np.float64).reshape(-1, 3)
        if self.view.mode == "universe":
            return c[:, ::-1].copy(), np.ones(len(c), dtype=bool)
        a, iu, iv = self._axes
        index = np.rint(c[:, a]).astype(np.int64)
        inside = (index >= 0) & (index < len(self._slot))
        slot = np.where(inside, self._slot[np.clip(index, 0, len(self._slot) - 1)], -1)
        points = np.stack([c[:, iu], c[:, iv], np.zeros(len(c))], axis=1)
        points += slot[:, None].clip(0) * self._step[None, :]
        return points, slot >= 0

    def point(self, cell: Sequence[float]) -> FloatArray | None:
        points, shown = self.place([cell])
        return points[0] if shown[0] else None

    def board_of(self, cell: Sequence[float]) -> int:
        """The slot of the board ``cell`` is drawn on (-1: not shown; 0 in universe mode)."""
        if self.view.mode == "universe":
            return 0
        index = round(cell[self._axes[0]])
        return int(self._slot[index]) if 0 <= index < len(self._slot) else -1

    def projected(self, cell: Sequence[float], onto: Sequence[float]) -> FloatArray | None:
        """Where ``cell`` lies over the board ``onto`` is drawn on: its two board coordinates on
        that board (boards and slice mode), so a line from another board stays a short arrow on
        the target's board instead of crossing the boards between."""
        slot = self.board_of(onto)
        if self.view.mode == "universe" or slot < 0:
            return self.point(cell)
        _, iu, iv = self._axes
        point: FloatArray = np.array([float(cell[iu]), float(cell[iv]), 0.0]) + slot * self._step
        return point


# -- pieces ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Pieces:
    ids: IntArray
    owners: IntArray
    types: IntArray
    traits: IntArray
    cells: IntArray


_NO_PIECES = _Pieces(
    ids=np.zeros(0, dtype=np.int64),
    owners=np.zeros(0, dtype=np.int64),
    types=np.zeros(0, dtype=np.int64),
    traits=np.zeros(0, dtype=np.int64),
    cells=np.zeros((0, 3), dtype=np.int64),
)


def _pieces(game: Game, fog: int | None) -> _Pieces:
    if fog is None:  # the truth (R12): the engine's piece table, in identifier order
        board = game.board
        rows = board.by_id(board.living_rows())
        return _Pieces(
            ids=board.ids[rows].astype(np.int64),
            owners=board.owner[rows].astype(np.int64),
            types=board.kind[rows].astype(np.int64),
            traits=board.trait[rows].astype(np.int64),
            cells=board.pos[rows].astype(np.int64).reshape(-1, 3),
        )
    obs = game.observe(fog)  # R6
    return _Pieces(
        ids=np.asarray(obs.ids, dtype=np.int64),
        owners=np.asarray(obs.owners, dtype=np.int64),
        types=np.asarray(obs.types, dtype=np.int64),
        traits=np.asarray(obs.traits, dtype=np.int64),
        cells=np.asarray(obs.cells, dtype=np.int64).reshape(-1, 3),
    )


def _glyphs(
    now: _Pieces,
    before: _Pieces | None,
    projection: Projection,
    progress: float,
    jumps: set[int],
) -> Glyphs:
    """The pieces at ``progress`` (0 to 1) of the way from ``before`` to ``now``."""
    points, shown = projection.place(now.cells)
    owners = now.owners.copy()
    if before is None or progress >= 1.0:
        keep = shown
        return Glyphs(
            ids=now.ids[keep],
            owners=owners[keep],
            types=now.types[keep],
            traits=now.traits[keep],
            cells=now.cells[keep],
            points=points[keep],
            ghost=(now.traits[keep] == int(Trait.INVISIBLE)),
        )
    half = progress >= 0.5
    old_points, old_shown = projection.place(before.cells)
    old_row = {int(i): r for r, i in enumerate(before.ids)}
    rows = [old_row.get(int(i), -1) for i in now.ids]
    keep = shown.copy()
    for r, old in enumerate(rows):
        if old < 0:  # appears during the turn (came into view)
            keep[r] = shown[r] and half
            continue
        if not half:
            owners[r] = before.owners[old]
        if shown[r] and old_shown[old] and int(now.ids[r]) not in jumps:
            points[r] = old_points[old] + (points[r] - old_points[old]) * progress
        elif old_shown[old] and not half:
            points[r], keep[r] = old_points[old], True
        else:
            keep[r] = shown[r] and half
    current = set(now.ids.tolist())
    gone = np.array([int(i) not in current for i in before.ids], dtype=bool)
    gone &= old_shown & (progress < 0.5)
    ids = np.concatenate([now.ids[keep], before.ids[gone]])
    traits = np.concatenate([now.traits[keep], before.traits[gone]])
    return Glyphs(
        ids=ids,
        owners=np.concatenate([owners[keep], before.owners[gone]]),
        types=np.concatenate([now.types[keep], before.types[gone]]),
        traits=traits,
        cells=np.concatenate([now.cells[keep], before.cells[gone]]).reshape(-1, 3),
        points=np.concatenate([points[keep], old_points[gone]]).reshape(-1, 3),
        ghost=traits == int(Trait.INVISIBLE),
    )


# -- events ------------------------------------------------------------------------------------


def _arc(a: FloatArray, b: FloatArray, samples: int = 24) -> FloatArray:
    t = np.linspace(0.0, 1.0, samples)[:, None]
    height = 1.0 + 0.35 * float(np.linalg.norm(b - a))
    return a + (b - a) * t + np.array([0.0, 0.0, height]) * 4 * t * (1 - t)


@dataclass
class _EventDrawing:
    lines: list[Line] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    labels: dict[tuple[int, int, int], str] = field(default_factory=dict)
    label_cells: dict[tuple[int, int, int], FloatArray] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    moves: int = 0
    jumps: set[int] = field(default_factory=set)
    notes: list[Label] = field(default_factory=list)  # "from z=5": lines from another board


def _draw_events(
    events: Sequence[Event],
    before: Game,
    projection: Projection,
    fog: int | None,
) -> _EventDrawing:
    """Lines, marks, labels and log lines for a turn's events (the positions walked through the
    turn, so an attack starts where its attackers stood when it was resolved)."""
    out = _EventDrawing()
    board = before.board
    living = board.living_rows()
    pos: dict[int, tuple[int, int, int]] = {
        int(pid): (int(c[0]), int(c[1]), int(c[2]))
        for pid, c in zip(board.ids[living].tolist(), board.pos[living].tolist(), strict=True)
    }
    combat: Combat | None = None

    def piece(pid: int | None) -> Piece | None:
        return before.piece(pid) if pid is not None and board.row(pid) >= 0 else None

    def mark(kind: str, cell: Sequence[int], colour: str, pid: int | None = None) -> None:
        point = projection.point(cell)
        if point is None:
            return
        p = piece(pid) if pid is not None else None
        out.marks.append(Mark(kind, point, colour, None if p is None else p.type))

    def line(kind: str, a: Sequence[int], b: Sequence[int], colour: str) -> None:
        pa, pb = projection.point(a), projection.point(b)
        if pb is None:
            return
        if kind == "teleport":
            if pa is not None:
                out.lines.append(Line(kind, _arc(pa, pb), colour))
            return
        if projection.view.mode != "universe" and projection.board_of(a) != projection.board_of(b):
            # boards: an attack or move from another board (shown or not) is drawn on the
            # target's board from over its source, with a note of the board it came from
            pa = projection.projected(a, b)
            axis = projection.view.axis_index
            note = f"from {AXIS_NAMES[axis]}={int(a[axis])}"
            assert pa is not None
            if np.allclose(pa, pb):  # straight across the boards: come in from the corner
                pa = pa + np.array([-0.9, -0.9, 0.0])
            if not any(np.allclose(n.point, pa) and n.text == note for n in out.notes):
                out.notes.append(Label(pa, note))
        if pa is None:
            return
        out.lines.append(Line(kind, np.stack([pa, pb]), colour))

    def label(cell: Cell, text: str, append: bool = False) -> None:
        key = (int(cell[0]), int(cell[1]), int(cell[2]))
        point = projection.point(key)
        if point is None:
            return
        out.label_cells[key] = point
        out.labels[key] = f"{out.labels[key]}: {text}" if append and key in out.labels else text

    for e in events:
        if isinstance(e, Moved):
            out.moves += 1
            line("move", e.src, e.dst, player_colour(e.player))
            if max(abs(a - b) for a, b in zip(e.src, e.dst, strict=True)) > 2:
                out.jumps.add(e.piece)  # through the teleporters (R5): no gliding across
            pos[e.piece] = e.dst
        elif isinstance(e, Crushed):  # R6: a move onto an enemy invisible piece
            mark("crushed", e.cell, DANGER)
            mark("casualty", e.cell, player_colour(e.victim_owner), e.victim)
            label(e.cell, "invisible crushed")
        elif isinstance(e, Combat):  # R8
            combat = e
            for pid in e.pieces:
                if pid in pos:
                    line("attack", pos[pid], e.cell, player_colour(e.player))
            verdict = "" if e.success else ": repelled"
            label(e.cell, f"{e.attack} vs {e.defence}{verdict}")
        elif isinstance(e, Fate):
            cell = (
                combat.cell
                if combat is not None and combat.target == e.target
                else pos.get(e.target)
            )
            if cell is None:
                continue
            if e.outcome is Outcome.DESTROY:
                mark("destroyed", cell, DANGER)
                mark("casualty", cell, player_colour(e.target_owner), e.target)
                short = "destroyed"
            elif e.outcome is Outcome.TELEPORT and e.landing is None:  # landed out of sight (R6)
                mark("destroyed", cell, DANGER)
                mark("casualty", cell, player_colour(e.target_owner), e.target)
                short = "teleported, destroyed"
            elif e.outcome is Outcome.TELEPORT:
                assert e.landing is not None
                line("teleport", cell, e.landing, player_colour(e.target_owner))
                out.jumps.add(e.target)
                short = "teleported"
                if e.destroyed:
                    mark("casualty", cell, player_colour(e.target_owner), e.target)
                    mark("destroyed", e.landing, DANGER)
                    short += ", destroyed on landing"
                pos[e.target] = e.landing
            else:
                mark("converted", cell, player_colour(e.player))
                short = "converted"
            label(cell, short, append=True)
        elif isinstance(e, Eliminated):
            for pid in e.taken:
                if pid in pos and e.by is not None:
                    mark("converted", pos[pid], player_colour(e.by))
    out.log = story(events, piece_namer(before, fog))
    return out


def _eliminations(replay: Replay, turn: int) -> dict[int, tuple[int, Eliminated]]:
    out: dict[int, tuple[int, Eliminated]] = {}
    for report in replay:
        if report.turn > turn:
            break
        for e in report.events:
            if isinstance(e, Eliminated):
                out[e.player] = (report.turn, e)
    return out


# -- the scene ---------------------------------------------------------------------------------


def check_turn(replay: Replay, turn: object) -> int:
    """``turn`` checked against the replay (None means the last turn)."""
    if turn is None:
        return replay.last_turn
    if isinstance(turn, bool) or not isinstance(turn, (int, np.integer)):
        raise ViewError(f"a turn is an integer, got {turn!r}")
    if not 0 <= turn <= replay.last_turn:
        raise ReplayError(
            f"turn {turn} is outside this replay (turns 0 to {replay.last_turn}; "
            "0 is the position after placement)"
        )
    return int(turn)


def view_of(view: View | None = None, **options: object) -> View:
    """A :class:`View` from a view and/or keyword options (``mode="boards"``, ``fog=1``...)."""
    names = {f.name for f in fields(View)}
    unknown = sorted(set(options) - names)
    if unknown:
        raise ViewError(f"unknown view option {unknown[0]!r} (options: {', '.join(sorted(names))})")
    given = {k: v for k, v in options.items() if v is not None or k == "fog"}  # fog=None: truth
    base = view if view is not None else View()
    return replace(base, **given) if given else base  # type: ignore[arg-type]


def build_scene(
    replay: Replay,
    turn: int | None = None,
    view: View | None = None,
    progress: float = 1.0,
    states: Mapping[int, Game] | None = None,
) -> Scene:
    """The scene of ``turn`` (default: the last) seen with ``view``.

    ``progress`` below 1 gives an in-between frame for animations: pieces glide from where they
    stood after turn ``turn - 1`` (0) to where they stand after ``turn`` (1). ``states`` may
    hold already computed :meth:`Replay.state_at` results, by turn.
    """
    turn = check_turn(replay, turn)
    view = (view if view is not None else View()).check(replay.rules.shape, replay.rules.players)
    if not 0.0 <= progress <= 1.0:
        raise ViewError(f"progress must be between 0 and 1, got {progress!r}")
    shape = replay.rules.shape

    def state(t: int) -> Game:
        if states is not None and t in states:
            return states[t]
        return replay.state_at(t)

    projection = Projection(shape, view)
    out = _eliminations(replay, turn)
    # R6 with fog: a player out of the game sees nothing from the turn it was eliminated on
    # (that turn's events, which it was told of, are still drawn); it did not play on as a
    # spectator of every visible piece
    out_at = out[view.fog][0] if view.fog is not None and view.fog in out else None
    now_game = state(turn)
    now = _pieces(now_game, view.fog) if out_at is None else _NO_PIECES
    before_game = state(turn - 1) if turn > 0 else None
    drawing = _EventDrawing()
    if before_game is not None and (out_at is None or turn == out_at):
        events = replay.events(turn) if view.fog is None else now_game.observe(view.fog).events
        drawing = _draw_events(events, before_game, projection, view.fog)
    before = None
    if before_game is not None and progress < 1.0:
        blind_before = out_at is not None and turn > out_at
        before = _NO_PIECES if blind_before else _pieces(before_game, view.fog)
    glyphs = _glyphs(now, before, projection, progress, drawing.jumps)

    if not view.events:
        lines: tuple[Line, ...] = ()
        marks: tuple[Mark, ...] = ()
        labels: tuple[Label, ...] = ()
    else:
        lines = tuple(drawing.lines)
        marks = tuple(drawing.marks)
        labels = tuple(Label(drawing.label_cells[k], t) for k, t in drawing.labels.items())
        labels += tuple(drawing.notes)

    players = replay.rules.players
    agents = tuple(replay.agents)
    counts = np.bincount(now.owners, minlength=players) if len(now.owners) else np.zeros(players)
    result = replay.result
    entries = []
    for p in range(players):
        note = ""
        if p in out:
            t, e = out[p]
            note = f"out at turn {t}" + (" (time)" if e.reason == "timer" else "")
        elif turn == replay.last_turn and result.winner == p:
            note = "winner"
        entries.append(
            PlayerEntry(
                player=p,
                agent=agents[p] if p < len(agents) else "?",
                colour=player_colour(p),
                pieces=int(counts[p]),
                alive=p in now_game.living,
                note=note,
                seen=view.fog is not None and view.fog != p,
            )
        )

    size = "×".join(str(d) for d in shape)
    if view.mode == "universe":
        where = f"whole universe {size} (z up)"
    elif view.mode == "slice":
        where = f"board {view.axis} = {view.slice} of {size}"
    else:
        where = f"boards {view.axis} = {', '.join(str(b) for b in view.boards)} of {size}"
    if view.fog is None:
        seen = "the truth (invisible pieces see-through)"
    else:
        agent = agents[view.fog] if view.fog < len(agents) else "?"
        seen = (
            f"as P{view.fog} ({agent}) sees it: enemy invisible pieces hidden, traits unknown (R6)"
        )
    notice = ""
    if out_at is not None and view.fog is not None:
        notice = f"P{view.fog} was eliminated at turn {out_at}: it sees nothing from then on"
        seen = f"as P{view.fog} ({agents[view.fog]}) sees it: nothing, out since turn {out_at}"
    title = f"AntipoliX · turn {turn} of {replay.last_turn}"
    if turn == replay.last_turn:
        winner = result.winner
        title += " · " + (
            f"P{winner} ({agents[winner]}) wins, {result.reason.value}"
            if winner is not None
            else f"draw, {result.reason.value}"
        )
    log = drawing.log if view.events else []
    if len(log) > MAX_LOG:
        log = [*log[: MAX_LOG - 1], f"… and {len(log) - MAX_LOG + 1} more"]
    return Scene(
        shape=shape,
        turn=turn,
        last_turn=replay.last_turn,
        view=view,
        progress=progress,
        glyphs=glyphs,
        lines=lines,
        marks=marks,
        labels=labels,
        panels=projection.panels,
        players=tuple(entries),
        title=title,
        subtitle=f"{where} · {seen}",
        log=tuple(log),
        bounds=projection.bounds,
        agents=agents,
        notice=notice,
    )


__all__ = [
    "UNKNOWN_TRAIT",
    "Glyphs",
    "Label",
    "Line",
    "Mark",
    "Panel",
    "PlayerEntry",
    "Projection",
    "Scene",
    "build_scene",
    "check_turn",
    "view_of",
]
