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
from antipolix.errors import ReplayError, UnknownPieceError
from antipolix.events import Combat, Crushed, Eliminated, Elimination, Event, Fate, Moved
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
    ``antipolix.state.Board`` (the game's piece table)."""

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
        noun = "seen" if self.seen else "piece" if self.pieces == 1 else "pieces"
        count = f"{self.pieces} {noun}"
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
    """The pieces ``fog`` sees (R6), or the truth (R12) for ``None``, in identifier order."""
    if fog is None:
        return _table(game.pieces())
    obs = game.observe(fog)  # R6
    return _Pieces(
        ids=np.asarray(obs.ids, dtype=np.int64),
        owners=np.asarray(obs.owners, dtype=np.int64),
        types=np.asarray(obs.types, dtype=np.int64),
        traits=np.asarray(obs.traits, dtype=np.int64),
        cells=np.asarray(obs.cells, dtype=np.int64).reshape(-1, 3),
    )


def _table(pieces: Sequence[Piece]) -> _Pieces:
    """Pieces of the engine's public API (:meth:`Game.pieces`) as columns."""
    return _Pieces(
        ids=np.array([p.id for p in pieces], dtype=np.int64),
        owners=np.array([p.owner for p in pieces], dtype=np.int64),
        types=np.array([int(p.type) for p in pieces], dtype=np.int64),
        traits=np.array([int(p.trait) for p in pieces], dtype=np.int64),
        cells=np.array([p.cell for p in pieces], dtype=np.int64).reshape(-1, 3),
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
    """What a turn's events add to its scene (nothing for turn 0)."""

    lines: list[Line] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    labels: dict[Cell, str] = field(default_factory=dict)  # outcomes beside their cell
    label_cells: dict[Cell, FloatArray] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)  # the caption (antipolix.log.story)
    jumps: set[int] = field(default_factory=set)  # pieces that jumped: no gliding across
    notes: list[Label] = field(default_factory=list)  # "from z=5": lines from another board

    def all_labels(self) -> tuple[Label, ...]:
        """The outcomes beside their cells, then the notes of lines from another board."""
        outcomes = tuple(Label(self.label_cells[k], t) for k, t in self.labels.items())
        return outcomes + tuple(self.notes)


class _EventPainter:
    """Draws a turn's events one after the other, one step per event kind, into an
    :class:`_EventDrawing`. It follows where each piece stands as the turn goes on (from
    ``before``, the state when the turn began), so an attack starts where its attackers stood
    when it was resolved."""

    def __init__(self, before: Game, projection: Projection) -> None:
        self.before = before
        self.projection = projection
        self.out = _EventDrawing()
        self.cells: dict[int, Cell] = {p.id: p.cell for p in before.pieces()}
        self.combat: Combat | None = None  # the last attack: where its outcome (Fate) falls

    def draw(self, events: Sequence[Event]) -> _EventDrawing:
        for e in events:
            match e:
                case Moved():
                    self.moved(e)
                case Crushed():
                    self.crushed(e)
                case Combat():
                    self.attacked(e)
                case Fate():
                    self.fate(e)
                case Eliminated():
                    self.eliminated(e)
        return self.out

    # -- one step per event kind

    def moved(self, e: Moved) -> None:
        """R4, R5: an arrow from where the piece stood."""
        self._line("move", e.src, e.dst, player_colour(e.player))
        if max(abs(a - b) for a, b in zip(e.src, e.dst, strict=True)) > 2:
            self.out.jumps.add(e.piece)  # through the teleporters (R5): no gliding across
        self.cells[e.piece] = e.dst

    def crushed(self, e: Crushed) -> None:
        """R6: a move onto an enemy invisible piece."""
        self._mark("crushed", e.cell, DANGER)
        self._casualty(e.cell, e.victim_owner, e.victim)
        self._label(e.cell, "invisible crushed")

    def attacked(self, e: Combat) -> None:
        """R8: an arrow from each attacker to the target; the powers beside the target."""
        self.combat = e
        for pid in e.pieces:
            if pid in self.cells:
                self._line("attack", self.cells[pid], e.cell, player_colour(e.player))
        verdict = "" if e.success else ": repelled"
        self._label(e.cell, f"{e.attack} vs {e.defence}{verdict}")

    def fate(self, e: Fate) -> None:
        """R8: what a successful attack did to its target, marked where the target stood."""
        attack = self.combat
        if attack is not None and attack.target == e.target:
            cell: Cell | None = attack.cell
        else:
            cell = self.cells.get(e.target)
        if cell is None:
            return
        if e.outcome is Outcome.TELEPORT and e.landing is not None:
            short = self._teleported(e, cell, e.landing)
        elif e.outcome is Outcome.CONVERT:
            self._mark("converted", cell, player_colour(e.player))
            short = "converted"
        else:  # destroyed, or teleported onto a piece this reader cannot see (R6)
            self._mark("destroyed", cell, DANGER)
            self._casualty(cell, e.target_owner, e.target)
            short = "destroyed" if e.outcome is Outcome.DESTROY else "teleported, destroyed"
        self._label(cell, short, append=True)

    def _teleported(self, e: Fate, cell: Cell, landing: Cell) -> str:
        """R8: an arc to the landing cell (and the piece destroyed there if it was taken)."""
        self._arc(cell, landing, player_colour(e.target_owner))
        self.out.jumps.add(e.target)
        short = "teleported"
        if e.destroyed:
            self._casualty(cell, e.target_owner, e.target)
            self._mark("destroyed", landing, DANGER)
            short += ", destroyed on landing"
        self.cells[e.target] = landing
        return short

    def eliminated(self, e: Eliminated) -> None:
        """R8: the pieces of a player whose chief was taken go to the taker."""
        for pid in e.taken:
            if pid in self.cells and e.by is not None:
                self._mark("converted", self.cells[pid], player_colour(e.by))

    # -- what the steps draw

    def _mark(
        self, kind: str, cell: Sequence[int], colour: str, piece_type: PieceType | None = None
    ) -> None:
        point = self.projection.point(cell)
        if point is not None:
            self.out.marks.append(Mark(kind, point, colour, piece_type))

    def _casualty(self, cell: Sequence[int], owner: int, pid: int | None) -> None:
        """The ghost of a piece that left the board, in its owner's colour, shaped as its type
        (unknown when R6 hides which piece it was)."""
        try:
            piece_type = None if pid is None else self.before.piece(pid).type
        except UnknownPieceError:
            piece_type = None
        self._mark("casualty", cell, player_colour(owner), piece_type)

    def _line(self, kind: str, a: Sequence[int], b: Sequence[int], colour: str) -> None:
        """A move or an attack from cell ``a`` to cell ``b``."""
        projection = self.projection
        pa, pb = projection.point(a), projection.point(b)
        if pb is None:
            return
        if projection.view.mode != "universe" and projection.board_of(a) != projection.board_of(b):
            pa = self._from_another_board(a, b, pb)
        if pa is not None:
            self.out.lines.append(Line(kind, np.stack([pa, pb]), colour))

    def _from_another_board(self, a: Sequence[int], b: Sequence[int], pb: FloatArray) -> FloatArray:
        """Boards: a line from another board (shown or not) starts on the target's board, over
        its source, with a note of the board it came from."""
        pa = self.projection.projected(a, b)
        assert pa is not None
        axis = self.projection.view.axis_index
        note = f"from {AXIS_NAMES[axis]}={int(a[axis])}"
        if np.allclose(pa, pb):  # straight across the boards: come in from the corner
            pa = pa + np.array([-0.9, -0.9, 0.0])
        if not any(np.allclose(n.point, pa) and n.text == note for n in self.out.notes):
            self.out.notes.append(Label(pa, note))
        return pa

    def _arc(self, a: Sequence[int], b: Sequence[int], colour: str) -> None:
        """A teleport: an arc over the board from ``a`` to ``b`` (both shown)."""
        pa, pb = self.projection.point(a), self.projection.point(b)
        if pa is not None and pb is not None:
            self.out.lines.append(Line("teleport", _arc(pa, pb), colour))

    def _label(self, cell: Cell, text: str, append: bool = False) -> None:
        """An outcome beside ``cell`` (``append``: after what is already written there)."""
        key = (int(cell[0]), int(cell[1]), int(cell[2]))
        point = self.projection.point(key)
        if point is None:
            return
        labels = self.out.labels
        self.out.label_cells[key] = point
        labels[key] = f"{labels[key]}: {text}" if append and key in labels else text


def _draw_events(
    events: Sequence[Event],
    before: Game,
    projection: Projection,
    fog: int | None,
) -> _EventDrawing:
    """Lines, marks, labels and the caption of a turn's events, as ``fog`` was told of them
    (``before``: the state when the turn began)."""
    drawing = _EventPainter(before, projection).draw(events)
    drawing.log = story(events, piece_namer(before, fog))
    return drawing


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

    def state(t: int) -> Game:
        return states[t] if states is not None and t in states else replay.state_at(t)

    projection = Projection(replay.rules.shape, view)
    out = _eliminations(replay, turn)
    # R6 with fog: a player out of the game sees nothing from the turn it was eliminated on
    # (that turn's events, which it was told of, are still drawn); it did not play on as a
    # spectator of every visible piece
    out_at = out[view.fog][0] if view.fog is not None and view.fog in out else None
    now_game = state(turn)
    now = _pieces(now_game, view.fog) if out_at is None else _NO_PIECES
    drawing, before = _EventDrawing(), None
    if turn > 0:
        before_game = state(turn - 1)
        if out_at is None or turn == out_at:
            events = replay.events(turn) if view.fog is None else now_game.observe(view.fog).events
            drawing = _draw_events(events, before_game, projection, view.fog)
        if progress < 1.0:
            blind_before = out_at is not None and turn > out_at
            before = _NO_PIECES if blind_before else _pieces(before_game, view.fog)
    shown = drawing if view.events else _EventDrawing()
    seen, notice = _seen(replay.agents, view.fog, out_at)
    return Scene(
        shape=replay.rules.shape,
        turn=turn,
        last_turn=replay.last_turn,
        view=view,
        progress=progress,
        glyphs=_glyphs(now, before, projection, progress, drawing.jumps),
        lines=tuple(shown.lines),
        marks=tuple(shown.marks),
        labels=shown.all_labels(),
        panels=projection.panels,
        players=_legend(replay, turn, view, now, now_game.living, out),
        title=_title(replay, turn),
        subtitle=f"{_where(replay.rules.shape, view)} · {seen}",
        log=_caption(shown.log),
        bounds=projection.bounds,
        agents=tuple(replay.agents),
        notice=notice,
    )


# -- the words around the picture --------------------------------------------------------------


def _legend(
    replay: Replay,
    turn: int,
    view: View,
    now: _Pieces,
    living: Sequence[int],
    out: Mapping[int, tuple[int, Eliminated]],
) -> tuple[PlayerEntry, ...]:
    """One entry per player: its agent, colour, pieces shown, and whether it is out or won."""
    players = replay.rules.players
    agents = tuple(replay.agents)
    counts = np.bincount(now.owners, minlength=players) if len(now.owners) else np.zeros(players)
    return tuple(
        PlayerEntry(
            player=p,
            agent=agents[p] if p < len(agents) else "?",
            colour=player_colour(p),
            pieces=int(counts[p]),
            alive=p in living,
            note=_player_note(replay, turn, p, out),
            seen=view.fog is not None and view.fog != p,
        )
        for p in range(players)
    )


def _player_note(
    replay: Replay, turn: int, player: int, out: Mapping[int, tuple[int, Eliminated]]
) -> str:
    """``out at turn 120`` (`` (time)`` when its timer ran out, R7), ``winner`` or nothing."""
    if player in out:
        t, e = out[player]
        return f"out at turn {t}" + (" (time)" if e.reason is Elimination.TIMER else "")
    if turn == replay.last_turn and replay.result.winner == player:
        return "winner"
    return ""


def _title(replay: Replay, turn: int) -> str:
    """``AntipoliX · turn 26 of 234``, with the result on the last turn."""
    title = f"AntipoliX · turn {turn} of {replay.last_turn}"
    if turn != replay.last_turn:
        return title
    result = replay.result
    winner = result.winner
    if winner is None:
        return f"{title} · draw, {result.reason.value}"
    return f"{title} · P{winner} ({replay.agents[winner]}) wins, {result.reason.value}"


def _where(shape: tuple[int, int, int], view: View) -> str:
    """What part of the universe is shown (the first half of the subtitle)."""
    size = "×".join(str(d) for d in shape)
    if view.mode == "universe":
        return f"whole universe {size} (z up)"
    if view.mode == "slice":
        return f"board {view.axis} = {view.slice} of {size}"
    return f"boards {view.axis} = {', '.join(str(b) for b in view.boards)} of {size}"


def _seen(agents: Sequence[str], fog: int | None, out_at: int | None) -> tuple[str, str]:
    """Whose view is shown (the second half of the subtitle), and the notice drawn across the
    board when that player is out of the game (R6: it sees nothing from then on)."""
    if fog is None:
        return "the truth (invisible pieces see-through)", ""
    if out_at is not None:
        return (
            f"as P{fog} ({agents[fog]}) sees it: nothing, out since turn {out_at}",
            f"P{fog} was eliminated at turn {out_at}: it sees nothing from then on",
        )
    agent = agents[fog] if fog < len(agents) else "?"
    return f"as P{fog} ({agent}) sees it: enemy invisible pieces hidden, traits unknown (R6)", ""


def _caption(log: Sequence[str]) -> tuple[str, ...]:
    """The turn's story, cut to :data:`MAX_LOG` lines (the rest: ``… and 3 more``)."""
    if len(log) > MAX_LOG:
        return (*log[: MAX_LOG - 1], f"… and {len(log) - MAX_LOG + 1} more")
    return tuple(log)


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
