"""A one-ply planner: every candidate order scored by its expected outcome (R4, R5, R6, R8).

:class:`PlannerAgent` looks one ply ahead. Each turn it lists its candidate orders: every attack
it can win (all own pieces that reach the target, R5), every move of every own mobile piece to a
free cell it reaches, and ``Pass``. It scores each by the change it makes to a position value,
taken in expectation over the R8 outcomes of a successful attack (destroy, teleport, convert):

- **material**: the expected swing of an attack, in piece costs (R2). A conversion counts twice
  (the enemy loses the piece and the planner gains it); a teleported piece counts as mostly lost
  to its owner. An enemy piece that may be the chief adds the value of eliminating its owner,
  weighted by the probability that it is the chief (R6 hides the trait: enemy pieces never seen
  to move are the suspects);
- **exposure**: for every own attackable piece, whether the visible enemy pieces of one owner
  that reach its cell outpower its defence (R8: its strength and its neighbours'), for sure, or
  after one more enemy move (R4) or an invisible attacker seen nearby (R6); the enemy's best
  attack counts in full, the others in part (one order a turn). Invisible own pieces cannot be
  attacked (R6) and count for defence. The chief's exposure costs the game;
- **chief guard**: enemy power that could reach the chief within a move, against the chief's
  defence, and the chief's distance from the enemy;
- **threats**: the attacks the planner could win next turn (forks count), and, late in a game,
  **pressure**: own power on enemy pieces near the front short of beating them;
- **hunt**: how well own pieces cover the cells the likeliest chief suspects may flee to (a
  lone chief is caught by covering its escapes, not by chasing it);
- **advance** and **cohesion**: distance of each piece from the nearest enemy, and the strength
  of own pieces around the moved piece (defence counts adjacent own pieces, R8).

Moves are scored all at once with numpy: grids of defence, enemy reach and own reach are built
once per turn (cube sums, R1), and a move only changes the pieces around its start and end
cells. A decision takes about 2 ms on the default rules.

It decides from its own observation only (R6): enemy traits are hidden and enemy invisible
pieces are absent. It remembers, per game, which enemy pieces it has seen move (chief
suspects), the defence its failed attacks revealed (invisible defenders, R6), and the cells near
which invisible enemy pieces attacked it. It offers a draw (R9 NUL) when nothing has been taken
for a long time or it can no longer win a fight. All randomness (ties, think time) comes from
``self.rng`` (R12).

>>> from antipolix import Rules, play
>>> from antipolix.agents import GreedyAgent
>>> result = play(Rules(shape=(4, 8, 8), players=2), [PlannerAgent(), GreedyAgent()], seed=3)
>>> result.turns > 0
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.agents.army import ArmyPolicy, FixedArmy
from antipolix.agents.base import Agent, Decision, unit_strength
from antipolix.events import Combat, Crushed
from antipolix.messages import Command
from antipolix.observation import Observation
from antipolix.orders import Attack, Move, Order, Pass
from antipolix.pieces import CHIEF as _CHIEF
from antipolix.pieces import FORTRESS as _FORTRESS
from antipolix.pieces import INVISIBLE as _INVISIBLE
from antipolix.pieces import PieceType, Trait
from antipolix.rules import Rules
from antipolix.world import IntArray, Shape, indices, offsets
from tests.oracle.agents.base import View
from tests.oracle.reach import reach_many

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

# Values, in points of piece cost (R2).
WIN = 150.0  # eliminating a player (taking its chief), or losing one's own chief (R8)
TELEPORTED = 0.6  # share of a teleported piece's value its owner loses (it lands anywhere, R8)
# Exposure (R8): an own piece is lost for sure when the enemy power reaching it exceeds its
# defence, and with P_NEAR when one more enemy piece (one move, R4) or an invisible attacker
# seen nearby (R6) would tip it.
P_NEAR = 0.3
SPREAD = 0.5  # weight of every exposure or threat but the largest (one order a turn, R4)
W_THREAT = 0.35  # a winning attack available next turn, relative to making it now
# Pressure: own power on each enemy piece near the front, as a share of the power that beats
# it. Off at first (it slows the win against pieces that come to it), then growing from turn
# PRESS_FROM to W_PRESS at turn 2 * PRESS_FROM, to break stand-offs of two defensive fronts.
W_PRESS = 0.6
PRESS_FROM = 150
NUL_AFTER = 200  # turns without a piece taken after which it offers a draw (R9 NUL)
W_HUNT = 0.3  # covering the cells a suspected chief may flee to, relative to taking it
HUNT_K = 3  # chief suspects hunted at most (the likeliest)
HUNT_MIN = 0.12  # ... and only those at least this likely
# Strengths are never written here as numbers: they come from the rules (R2), in units of the
# strongest piece that can attack (its "unit"), so that re-balanced strengths re-scale them.
W_GUARD = 2.0  # per point of enemy power within two moves of the chief above its defence
GUARD_MARGIN = 1  # units of defence the chief keeps above the power that could reach it
# Defence kept around the chief even with no enemy in sight (invisible ones, R6): GUARD_SHARE
# of the own strength, at most GUARD_MIN units.
GUARD_MIN = 3
GUARD_SHARE = 0.1
CHIEF_UNSEEN = 1  # units of unseen invisible attack power the chief allows for near enemies (R6)
W_CHIEF_FAR = 0.5  # per cell of the chief's distance from the nearest enemy (up to CHIEF_FAR)
CHIEF_FAR = 6
W_ADVANCE = 0.12  # per cell a piece closes on the nearest enemy
W_COHESION = 0.03  # per point of own strength around the moved piece, near the front
FRONT = 4  # "near the front": within this distance of a visible enemy
MOVED_SUSPECT = 0.1  # chief-suspect weight of an enemy piece seen to move (1 if never seen to)
MEMORY = 12  # turns the hidden defence of a failed attack, or an invisible attacker, is kept
HIDDEN_PROBE = 0.1  # chance a narrow win (margin <= one unit) meets unseen invisible defenders


def box_sum(grid: IntArray, r: int) -> IntArray:
    """Sum of ``grid`` over the cube of radius ``r`` around every cell (the Chebyshev ball,
    R1), clipped at the board's edges; the last three axes are the board's. (The plain
    version of :func:`box_sums`.)

    >>> g = np.zeros((1, 3, 3), dtype=np.int64); g[0, 0, 0] = 5
    >>> box_sum(g, 1)[0].tolist()
    [[5, 5, 0], [5, 5, 0], [0, 0, 0]]
    """
    out = grid
    for axis in (-3, -2, -1):
        src, n = out, out.shape[axis]
        out = src.copy()
        for d in range(1, min(r, n - 1) + 1):  # add the cells d before and d after
            head = [slice(None)] * src.ndim
            tail = [slice(None)] * src.ndim
            head[axis], tail[axis] = slice(d, None), slice(None, n - d)
            out[tuple(head)] += src[tuple(tail)]
            out[tuple(tail)] += src[tuple(head)]
    return out


Layer = tuple[IntArray, npt.NDArray[Any], int]  # flat cells, values, radius


def box_sums(shape: Shape, layers: list[Layer]) -> list[npt.NDArray[Any]]:
    """For each ``(flat cells, values, r)``: the :func:`box_sum` of radius ``r`` of a board
    holding ``values`` on those cells (summed where a cell repeats), flat; integer layers
    stay integers.

    All layers in one pass: a cube sum is three one-dimensional window sums, each a product
    with a band matrix (``|i - j| <= r``), and the layers are stacked.
    """
    p, n, m = shape
    size = p * n * m
    grid = np.zeros((len(layers), size))
    for row, (flat, values, _) in enumerate(layers):
        np.add.at(grid[row], flat, values)
    bz, by, bx = _bands(shape, tuple(r for _, _, r in layers))
    g = grid.reshape(len(layers), p, n, m) @ bx
    g = by @ g
    g = bz @ g.reshape(len(layers), p, n * m)
    flat_g = g.reshape(len(layers), size)
    return [
        np.rint(flat_g[row]).astype(np.int64) if values.dtype.kind in "iu" else flat_g[row]
        for row, (_, values, _) in enumerate(layers)
    ]


@lru_cache(maxsize=256)
def _bands(shape: Shape, radii: tuple[int, ...]) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Band matrices ``|i - j| <= r`` per axis, stacked per layer, shaped to broadcast over
    ``(layers, P, N, N)`` boards: ``(L, P, P)``, ``(L, 1, N, N)``, ``(L, 1, N, N)``."""

    def band(size: int) -> FloatArray:
        i = np.arange(size)
        gap = np.abs(i[:, None] - i[None, :])
        out: FloatArray = (gap[None, :, :] <= np.asarray(radii)[:, None, None]).astype(float)
        return out

    return band(shape[0]), band(shape[1])[:, None], band(shape[2])[:, None]


@lru_cache(maxsize=16)
def _gaps(n: int, big: int) -> npt.NDArray[np.signedinteger[Any]]:
    """``|i - j|`` for ``0 <= i, j < n``, in the smallest integer type that holds ``big``."""
    i = np.arange(n, dtype=np.int64)
    gaps: npt.NDArray[np.signedinteger[Any]] = np.abs(i[:, None] - i[None, :])
    return gaps.astype(np.int8 if big < 127 else np.int32)


def distance_grid(shape: Shape, flats: IntArray) -> IntArray:
    """Chebyshev distance (R1) from every cell to the nearest of ``flats`` (flat indices);
    ``max(shape)`` where there are none.

    Separable: ``d(c) = min_e max(|dz|, |dy|, |dx|)`` is three one-dimensional min-max
    transforms, one per axis (``f'(i) = min_j max(|i - j|, f(j))``).

    >>> distance_grid((1, 1, 4), np.array([1])).tolist()
    [1, 0, 1, 2]
    """
    big = max(shape)
    f = np.full(shape, big, dtype=np.int8 if big < 127 else np.int32)
    f.flat[flats] = 0
    w = _gaps(shape[0], big)
    f = np.maximum(w[:, :, None, None], f[None, :, :, :]).min(axis=1)
    w = _gaps(shape[1], big)
    f = np.maximum(w[None, :, :, None], f[:, None, :, :]).min(axis=2)
    w = _gaps(shape[2], big)
    f = np.maximum(w[None, None, :, :], f[:, :, None, :]).min(axis=3)
    out: IntArray = f.reshape(-1).astype(np.int64)
    return out


def _cheb(a: IntArray, b: IntArray) -> IntArray:
    """Pairwise Chebyshev distances (R1) between the rows of ``a`` (n, 3) and ``b`` (k, 3)."""
    d: IntArray = np.abs(a[:, None, 0] - b[None, :, 0])
    np.maximum(d, np.abs(a[:, None, 1] - b[None, :, 1]), out=d)
    np.maximum(d, np.abs(a[:, None, 2] - b[None, :, 2]), out=d)
    return d


def _total(values: FloatArray) -> float:
    """The largest value in full, the others at ``SPREAD``: one order a turn (R4)."""
    if not len(values):
        return 0.0
    top = float(values.max())
    return top + SPREAD * (float(values.sum()) - top)


def _totals(values: FloatArray) -> FloatArray:
    """:func:`_total` of each column of a ``(n, k)`` array (``n >= 1``)."""
    top = values.max(axis=0)
    out: FloatArray = top + SPREAD * (values.sum(axis=0) - top)
    return out


def _risk(threat: IntArray, extra: IntArray, defence: IntArray, loss: FloatArray) -> FloatArray:
    """Expected loss of own pieces with this enemy power reaching them, this much more power
    one enemy move away, and this defence (R8)."""
    p = np.where(
        threat > defence, 1.0, np.where((threat > 0) & (threat + extra > defence), P_NEAR, 0.0)
    )
    out: FloatArray = loss * p
    return out


def _hunt_cover(power: IntArray, defence: IntArray) -> FloatArray:
    """How well own attack ``power`` covers a cell where a piece would have ``defence``: half
    if it beats it outright (R8), half in proportion to the power."""
    need = defence + 1
    out: FloatArray = 0.5 * np.minimum(power, need) / need + 0.5 * (power >= need)
    return out


class _Turn:
    """One turn's reading of the observation, as arrays and board grids (R5, R6, R8).

    Own pieces are indexed in :attr:`View.own` order, visible enemy pieces in
    :attr:`View.enemy` order; grids are flat over the board.
    """

    def __init__(self, agent: PlannerAgent, view: View) -> None:
        rules, obs = agent.rules, view.obs
        self.view = view
        shape = self.shape = view.shape
        size = int(np.prod(shape))
        own, enemy = view.own, view.enemy
        self.o_flat, self.o_pos, self.o_s = view.flat[own], obs.cells[own], view.strengths[own]
        self.o_f = view.fields[own]
        self.e_flat, self.e_pos, self.e_s = (
            view.flat[enemy],
            obs.cells[enemy],
            view.strengths[enemy],
        )
        self.e_f, e_owner = view.fields[enemy], obs.owners[enemy]
        o_trait = obs.traits[own]

        # every grid is a box sum (R1 cubes) of strengths on cells; the requests, by index:
        layers: list[Layer] = []
        if rules.defence_counts == "all":  # own defence (R8): a piece's and its neighbours'
            layers.append((view.flat, view.strengths, 1))
        else:
            layers.append((self.o_flat, self.o_s, 1))
        for f in np.unique(self.o_f[self.o_f > 0]).tolist():  # own attack power (R5)
            layers.append((self.o_flat[self.o_f == f], self.o_s[self.o_f == f], f))
        hidden = agent._hidden_attack  # invisible attackers seen near these cells (R6)
        layers.append(
            (
                np.array([h[1] for h in hidden], dtype=np.int64),
                np.array([h[2] for h in hidden], dtype=np.int64),
                2,
            )
        )
        owners = np.unique(e_owner).tolist()
        plan: list[tuple[int, list[tuple[int, int]]]] = []
        for owner in owners:  # each enemy's defence, reach now and one move later (R4, R8)
            mine = e_owner == owner
            layers.append((self.e_flat[mine], self.e_s[mine], 1))
            fields = []
            for f in np.unique(self.e_f[mine & (self.e_f > 0)]).tolist():
                sel = mine & (self.e_f == f)
                layers.append((self.e_flat[sel], self.e_s[sel], f))
                layers.append((self.e_flat[sel], self.e_s[sel], 2 * f))
                fields.append((len(layers) - 2, len(layers) - 1))
            plan.append((len(layers) - 1 - 2 * len(fields), fields))
        grids = box_sums(shape, layers)
        self.defence = grids[0]
        self.d_own = self.defence[self.o_flat]
        n_own = len(np.unique(self.o_f[self.o_f > 0]))
        self.power = np.sum(grids[1 : 1 + n_own], axis=0) if n_own else np.zeros(size, np.int64)
        reach = np.zeros(size, dtype=np.int64)  # the strongest enemy's power on each cell
        far = np.zeros(size, dtype=np.int64)
        self.e_def = np.zeros(len(enemy), dtype=np.int64)
        self.e_grid: dict[int, IntArray] = {}  # owner → its defence grid (R8, as seen)
        for owner, (k, fields) in zip(owners, plan, strict=True):
            mine = e_owner == owner
            self.e_grid[owner] = grids[k]
            self.e_def[mine] = grids[k][self.e_flat[mine]]
            if fields:
                np.maximum(reach, np.sum([grids[n] for n, _ in fields], axis=0), out=reach)
                np.maximum(far, np.sum([grids[n] for _, n in fields], axis=0), out=far)
        if rules.defence_counts == "all":
            self.e_def = self.defence[self.e_flat].copy()
        self.e_hidden = np.zeros(len(enemy), dtype=np.int64)
        for j, pid in enumerate(obs.ids[enemy].tolist()):
            seen = agent._hidden_defence.get(pid)
            if seen is not None and obs.turn - seen[0] < MEMORY:
                self.e_hidden[j] = seen[1]
        self.e_def += self.e_hidden
        strongest = int(self.e_s[self.e_f > 0].max(initial=0))
        self.threat = reach + grids[1 + n_own]
        self.extra = np.minimum(np.maximum(far - reach, 0), strongest)  # one more piece (R4)

        # values (R2, R8): what losing each own piece costs, what taking each enemy piece gains
        costs = agent._costs[obs.types[own], o_trait]
        self.loss: FloatArray = costs * agent._swing
        self.loss[o_trait == _INVISIBLE] = 0.0  # cannot be attacked (R6)
        chiefs = indices(o_trait == _CHIEF)
        self.ci = int(chiefs[0]) if len(chiefs) else -1
        if self.ci >= 0:
            self.loss[self.ci] = agent._lose_chief
        self.gain, self.chief_gain = agent._gains(view)

        self.t_own = self.threat[self.o_flat]
        self.x_own = self.extra[self.o_flat]
        if self.ci >= 0:
            self.x_own[self.ci] += CHIEF_UNSEEN * agent.unit
        self.base_risk = _total(_risk(self.t_own, self.x_own, self.d_own, self.loss))
        self.dist = distance_grid(shape, self.e_flat)
        # beyond this distance from every enemy a cell is out of every enemy's reach within a
        # move, and of every own attack or hunt next turn (R5): only the advance counts there
        e_move = int(self.e_f.max(initial=0))
        self.horizon = max(FRONT, 2 * e_move, e_move + int(self.o_f.max(initial=0)))
        self.chief_ring = np.zeros(size, dtype=bool)  # the chief's cell and its neighbours
        if self.ci >= 0:
            ring = self.o_pos[self.ci] + np.vstack([np.zeros((1, 3), np.int64), offsets(1)])
            ring = ring[np.all((ring >= 0) & (ring < np.asarray(shape)), axis=1)]
            self.chief_ring[np.ravel_multi_index(ring.T, shape)] = True


class PlannerAgent(Agent):
    """One-ply lookahead over every winning attack and every move, in expectation over R8.

    See the module docstring for what it evaluates. Decides from its observation only (R6),
    remembering per game (state made in :meth:`setup`) which enemy pieces moved, the hidden
    defence its failed attacks revealed and where invisible enemies attacked it.

    Think time: uniform in ``[min_think, max_think)`` seconds (R7), by default ``[0.2, 1.5)``,
    the same as :class:`~antipolix.agents.GreedyAgent`, so that a win comes from play, not from
    the clock. Default army: armies and hovercraft in the ratio 4 : 1 with an army chief (R2:
    armies give the most strength per point; one hovercraft in five, field 2, attacks from two
    cells away and runs down a fleeing chief): 34 armies and 8 hovercraft in a two-player
    game, 16 and 5 in a four-player one; the first hovercraft comes after four armies, so a
    small budget buys armies only.
    """

    name = "planner"

    def __init__(
        self, army: ArmyPolicy | None = None, min_think: float = 0.2, max_think: float = 1.5
    ) -> None:
        super().__init__(army)
        if not 0 <= min_think <= max_think:
            raise ValueError(f"need 0 <= min_think <= max_think, got {min_think}, {max_think}")
        self.min_think = float(min_think)
        self.max_think = float(max_think)

    def default_army(self) -> ArmyPolicy:
        return FixedArmy({"army": 4, "hovercraft": 1})

    def params(self) -> dict[str, Any]:
        return {"min_think": self.min_think, "max_think": self.max_think}

    def setup(self, rules: Rules, seat: int, rng: np.random.Generator) -> None:
        super().setup(rules, seat, rng)
        self._first_cell: dict[int, int] = {}  # enemy piece id → first cell seen on
        self._moved: set[int] = set()  # enemy pieces seen to move: unlikely chiefs
        self._hidden_defence: dict[int, tuple[int, int]] = {}  # id → (turn, unseen defence)
        self._hidden_attack: list[tuple[int, int, int]] = []  # (turn, flat cell, unseen power)
        self._last_fight = 0  # the last turn it was told of a piece taken (R8) or crushed (R6)
        self._nul = False  # its draw offer stands (R9)
        p = rules.p_destroy, rules.p_teleport, rules.p_convert
        self._swing = p[0] + p[1] * TELEPORTED + 2 * p[2]  # per point of a piece taken (R8)
        self._take_chief = p[0] + p[2]  # a chief destroyed or converted eliminates (R8)
        self._lose_chief = WIN * (p[0] + p[2]) + WIN * p[1] * 0.25
        self._costs = np.array(  # [type, trait] → cost (R2)
            [[rules.piece_cost(kind, trait) for trait in Trait] for kind in PieceType], dtype=float
        )
        self.unit = unit_strength(rules)
        self._types: dict[int, int] = {}  # enemy piece id → its type, as last seen (R6)

    def act(self, obs: Observation) -> Decision:
        think = float(self.rng.uniform(self.min_think, self.max_think))
        view = View(self.rules, obs)
        self._remember(view)
        order: Order = Pass()
        dead = False
        if len(view.enemy) and len(view.mobile):
            turn = _Turn(self, view)
            score, order = self._best_attack(turn)
            move_score, move = self._best_move(turn)
            if move is not None and move_score > score:
                order = move
            dead = view.power(view.mobile) <= int(turn.e_def.min())
        elif len(view.enemy):
            dead = True  # nothing left that can attack (fortresses only, R2)
        return Decision(order, think, self._draw_offer(obs.turn, dead))

    def _draw_offer(self, turn: int, dead: bool) -> tuple[Command, ...]:
        """R9: offer a draw (NUL) when no piece has been taken for ``NUL_AFTER`` turns, or when
        the position is ``dead`` (all its pieces together cannot outpower the defence of any
        enemy piece it sees, R8); withdraw it (WAR) when that changes. A draw needs every
        living player's NUL."""
        want = dead or turn - self._last_fight >= NUL_AFTER
        if want == self._nul:
            return ()
        self._nul = want
        return (Command.NUL,) if want else (Command.WAR,)

    # -- memory (R6: only what the observation shows) ----------------------------------------

    def _remember(self, view: View) -> None:
        obs = view.obs
        for pid, flat in zip(
            obs.ids[view.enemy].tolist(), view.flat[view.enemy].tolist(), strict=True
        ):
            if self._first_cell.setdefault(pid, flat) != flat:
                self._moved.add(pid)
        visible = {p: r for r, p in enumerate(obs.ids.tolist())}
        enemy = view.enemy
        self._types.update(zip(obs.ids[enemy].tolist(), obs.types[enemy].tolist(), strict=True))
        for event in obs.events:
            if isinstance(event, Crushed) or (isinstance(event, Combat) and event.success):
                self._last_fight = obs.turn
            if not isinstance(event, Combat):
                continue
            if event.player == self.seat:
                row = visible.get(event.target)
                if row is not None and not event.success:  # its defence counted unseen pieces
                    seen = view.visible_defence(row)
                    self._hidden_defence[event.target] = (obs.turn, max(0, event.defence - seen))
            elif event.target_owner == self.seat:
                # attackers left out of the event are invisible (R6): the rest of the power
                listed = sum(self.attacker_strength(p) for p in event.pieces)
                if event.attack > listed:
                    flat = int(np.ravel_multi_index(event.cell, view.shape))
                    self._hidden_attack.append((obs.turn, flat, event.attack - listed))
        self._hidden_attack = [h for h in self._hidden_attack if obs.turn - h[0] < MEMORY]

    def attacker_strength(self, pid: int) -> int:
        """R2 strength of an enemy piece named in an attack on this player: its type's, as last
        seen; one unit if it was never seen (it cannot be stronger than the strongest type)."""
        kind = self._types.get(pid)
        if kind is None:
            return self.unit
        return int(self.rules.strength_table[kind])

    def _gains(self, view: View) -> tuple[FloatArray, FloatArray]:
        """Expected gain of taking each visible enemy piece (R8), and the part of it that comes
        from the piece perhaps being its owner's chief (never-moved pieces are the suspects)."""
        obs, enemy = view.obs, view.enemy
        types = obs.types[enemy]
        costs = self._costs[types, 0]
        ids = obs.ids[enemy].tolist()
        weight = np.array([MOVED_SUSPECT if p in self._moved else 1.0 for p in ids])
        weight[types == _FORTRESS] *= 0.3
        owners = obs.owners[enemy]
        chief: FloatArray = np.zeros(len(enemy))
        for owner in np.unique(owners).tolist():
            mine = owners == owner
            chief[mine] = WIN * self._take_chief * weight[mine] / weight[mine].sum()
        gain: FloatArray = costs * self._swing + chief
        return gain, chief

    # -- candidate orders ----------------------------------------------------------------------

    def _best_attack(self, t: _Turn) -> tuple[float, Order]:
        """Every target that the own pieces reaching it outpower (R4, R8), attacked by all of
        them (attackers never move): its expected gain plus the exposure it relieves."""
        view = t.view
        best: tuple[float, Order] = (0.0, Pass())
        for row, attackers in view.targets.items():
            j = int(np.searchsorted(view.enemy, row))
            margin = view.power(attackers) - int(t.e_def[j])
            if margin <= 0:
                continue
            near = _cheb(t.o_pos, t.e_pos[j : j + 1])[:, 0] <= t.e_f[j]
            relieved = _risk(np.maximum(t.t_own - t.e_s[j] * near, 0), t.x_own, t.d_own, t.loss)
            score = t.gain[j] + t.base_risk - _total(relieved)
            if margin <= self.unit and not t.e_hidden[j]:
                score *= 1.0 - HIDDEN_PROBE
            score += 0.02 * min(margin / self.unit, 2.5)  # wider wins first
            if score > best[0]:
                ids = [int(p) for p in view.obs.ids[attackers]]
                best = score, Attack(ids, view.cell(view.flat[row]))
        return best

    def _best_move(self, t: _Turn) -> tuple[float, Move | None]:
        """Every move of every own mobile piece to a free cell it reaches (R4, R5), scored all
        at once: a move changes the defence around its start and end cells only (R8)."""
        view = t.view
        obs, shape = view.obs, t.shape
        mobile = view.mobile
        who, dest = reach_many(shape, obs.cells[mobile], view.fields[mobile], view.net)
        keep = ~view.occupied[dest]
        who, dest = who[keep], dest[keep]
        i = np.searchsorted(view.own, mobile)[who]  # own index of each candidate's mover
        ci = t.ci
        # far from every enemy, only closing in counts (and guarding the chief, and fleeing an
        # unseen attacker): drop the rest
        far = t.dist[dest] > t.horizon
        far &= (t.dist[dest] >= t.dist[t.o_flat[i]]) & (t.t_own[i] == 0)
        if ci >= 0:
            far &= (i != ci) & ~t.chief_ring[dest] & ~t.chief_ring[t.o_flat[i]]
        keep = ~far
        who, dest, i = who[keep], dest[keep], i[keep]
        if not len(dest):
            return 0.0, None
        b = np.stack(np.unravel_index(dest, shape), axis=1).astype(np.int64)
        a = t.o_pos[i]
        s_i = t.o_s[i]
        f_i = t.o_f[i]

        # exposure after the move: the mover on its new cell, the pieces around both cells
        adj_ab = np.abs(a - b).max(axis=1) <= 1
        d_mover = t.defence[dest] + s_i - s_i * adj_ab
        unseen = np.where(i == ci, CHIEF_UNSEEN * self.unit, 0)  # invisible attackers
        r_mover = _risk(t.threat[dest], t.extra[dest] + unseen, d_mover, t.loss[i])
        rel = indices((t.t_own > 0) & (t.loss > 0))  # the pieces at risk at all
        r0 = _risk(t.t_own[rel], t.x_own[rel], t.d_own[rel], t.loss[rel])
        top = np.maximum(r0.max(initial=0.0), r_mover)  # moves that touch no piece at risk
        risk = top + SPREAD * (r0.sum() + r_mover - top)
        near_rel = _cheb(t.o_pos[rel], t.o_pos) <= 1  # (rel, own), a piece is near itself
        layers = [(t.o_flat[rel], np.ones(len(rel), dtype=np.int64), 1)]
        close = indices(_cheb(t.e_pos, t.o_pos).min(axis=1) <= FRONT)
        fields = np.unique(f_i).tolist()
        layers += [(t.e_flat[close], np.ones(len(close), dtype=np.int64), f) for f in fields]
        grids = box_sums(shape, layers)
        touch: BoolArray = np.asarray(near_rel.any(axis=0))
        sel = indices(touch[i] | (grids[0][dest] > 0))
        if len(sel):
            ii = i[sel]
            adj_b = _cheb(t.o_pos[rel], b[sel]) <= 1  # (rel, sel)
            d_rel = t.d_own[rel][:, None] + s_i[sel][None, :] * (
                adj_b.astype(np.int64) - near_rel[:, ii]
            )
            r_rel = _risk(t.t_own[rel][:, None], t.x_own[rel][:, None], d_rel, t.loss[rel][:, None])
            r_rel[rel[:, None] == ii[None, :]] = 0.0
            risk[sel] = _totals(np.vstack([r_rel, r_mover[sel][None, :]]))
        score = t.base_risk - risk

        if ci >= 0:  # chief guard: power within two enemy moves against its defence
            here = int(t.o_flat[ci])
            chief = t.o_pos[ci]
            d_c = t.d_own[ci] + s_i * (
                (np.abs(b - chief).max(axis=1) <= 1).astype(np.int64)
                - (np.abs(a - chief).max(axis=1) <= 1)
            )
            d_c = np.where(i == ci, d_mover, d_c)
            t2_c = np.where(i == ci, t.threat[dest] + t.extra[dest], t.threat[here] + t.extra[here])
            least = min(GUARD_MIN * self.unit, GUARD_SHARE * float(t.o_s.sum()))
            margin = GUARD_MARGIN * self.unit
            need0 = max(int(t.threat[here] + t.extra[here]) + margin, least)
            need = np.maximum(t2_c + margin, least)
            guard0 = max(0, need0 - int(t.d_own[ci]))
            score += W_GUARD * (guard0 - np.maximum(0, need - d_c))
            far0 = min(int(t.dist[here]), CHIEF_FAR)
            score += np.where(
                i == ci, W_CHIEF_FAR * (np.minimum(t.dist[dest], CHIEF_FAR) - far0), 0.0
            )

        # threats: the winning attacks open next turn (forks count); only moves that start or
        # end within reach of an enemy near the front change them. The chief takes no part.
        offence = np.zeros(len(i))
        if len(close):
            de = _cheb(t.e_pos[close], t.o_pos)
            reach = de <= t.o_f[None, :]
            power = (t.o_s[None, :] * reach).sum(axis=1)
            need = t.e_def[close]
            wins0 = _total(t.gain[close] * (power > need))
            press0 = float((t.gain[close] * np.minimum(power, need + 1) / (need + 1)).sum())
            reaching: BoolArray = np.asarray(reach.any(axis=0))
            touch = reaching[i]
            for n, f in enumerate(fields):
                touch |= (f_i == f) & (grids[1 + n][dest] > 0)
            sel = indices(touch)
            if len(sel):
                ii = i[sel]
                moved = s_i[sel][None, :] * (
                    (_cheb(t.e_pos[close], b[sel]) <= f_i[sel][None, :]).astype(np.int64)
                    - reach[:, ii]
                )
                wins = t.gain[close][:, None] * (power[:, None] + moved > need[:, None])
                offence[sel] += W_THREAT * (_totals(wins) - wins0)
                pressed = np.minimum(power[:, None] + moved, need[:, None] + 1) / (
                    need[:, None] + 1
                )
                press = W_PRESS * min(max(obs.turn / PRESS_FROM - 1, 0.0), 1.0)
                offence[sel] += press * ((t.gain[close][:, None] * pressed).sum(axis=0) - press0)

        # hunt: cover the cells the likeliest chief suspects may step to (R8 needs power > defence)
        suspects = []
        for j in np.argsort(-t.chief_gain, kind="stable")[:HUNT_K].tolist():
            if t.chief_gain[j] < HUNT_MIN * WIN * self._take_chief:
                break
            if t.e_f[j] > 0:
                suspects.append(j)
        if suspects:
            offence += self._hunt(t, suspects, i, a, b, dest, s_i, f_i)
        not_chief = i != ci
        score += np.where(not_chief, offence, 0.0)

        # advance and cohesion (not the chief)
        d_b = t.dist[dest]
        score += np.where(not_chief, W_ADVANCE * (t.dist[t.o_flat[i]] - d_b), 0.0)
        support = (t.defence[dest] - s_i * adj_ab) - (t.d_own[i] - s_i)
        score += np.where(not_chief & (d_b <= FRONT), W_COHESION * support, 0.0)

        score += self.rng.random(len(score)) * 1e-6  # ties, from the agent's generator (R12)
        k = int(np.argmax(score))
        return float(score[k]), Move(int(obs.ids[mobile[who[k]]]), view.cell(int(dest[k])))

    def _hunt(
        self,
        t: _Turn,
        suspects: list[int],
        i: IntArray,
        a: IntArray,
        b: IntArray,
        dest: IntArray,
        s_i: IntArray,
        f_i: IntArray,
    ) -> FloatArray:
        """Change, per candidate move, in how well own pieces cover the cells the ``suspects``
        (likely chiefs) may stand on next turn: their cells and every free cell they reach.

        A piece that reaches none of those cells before its move only adds its power where it
        lands: the change is a box sum (R1) of per-cell gains, looked up at the destination.
        The pieces that already reach some are counted exactly, cell by cell.
        """
        pairs = np.stack([s_i, f_i], axis=1)
        kinds, code = np.unique(pairs, axis=0, return_inverse=True)  # (strength, field) of movers
        code = code.reshape(-1)
        gains = [np.zeros(t.power.shape) for _ in kinds]
        near = np.zeros(len(t.o_pos), dtype=bool)
        refuges = []
        for j in suspects:
            cells, flat, need = self._refuges(t, j)
            now = t.power[flat]
            weight = W_HUNT * float(t.chief_gain[j]) / len(flat)
            base = _hunt_cover(now, need)
            for k, (strength, _) in enumerate(kinds.tolist()):
                gains[k][flat] += weight * (_hunt_cover(now + strength, need) - base)
            near |= _cheb(t.o_pos, t.e_pos[j : j + 1])[:, 0] <= t.o_f + int(t.e_f[j])
            refuges.append((cells, now, need, base, weight))
        layers: list[Layer] = []
        for k, (_, field) in enumerate(kinds.tolist()):
            nonzero = indices(gains[k])
            layers.append((nonzero, gains[k][nonzero], field))
        boxed = box_sums(t.shape, layers)
        out = np.zeros(len(i))
        for k, grid in enumerate(boxed):
            mine = code == k
            out[mine] = grid[dest[mine]]
        sel = indices(near[i])  # movers that reach some of the cells now: exactly
        if len(sel):
            out[sel] = 0.0
            for cells, now, need, base, weight in refuges:
                change = s_i[sel][None, :] * (
                    (_cheb(cells, b[sel]) <= f_i[sel][None, :]).astype(np.int64)
                    - (_cheb(cells, a[sel]) <= f_i[sel][None, :])
                )
                cover = _hunt_cover(now[:, None] + change, need[:, None])
                out[sel] += weight * (cover - base[:, None]).sum(axis=0)
        return out

    def _refuges(self, t: _Turn, j: int) -> tuple[IntArray, IntArray, IntArray]:
        """The cells enemy piece ``j`` may stand on next turn (its own, and the free cells it
        reaches, R5 without teleporters), flat, and its defence on each (R8, as seen)."""
        view = t.view
        centre = t.e_pos[j]
        cells = np.vstack([centre[None, :], centre + offsets(int(t.e_f[j]))])
        cells = cells[np.all((cells >= 0) & (cells < np.asarray(t.shape)), axis=1)]
        flat = np.ravel_multi_index(cells.T, t.shape)
        keep = ~view.occupied[flat]
        keep[0] = True
        cells, flat = cells[keep], flat[keep]
        s_e = int(t.e_s[j])
        owner = int(view.obs.owners[view.enemy[j]])
        grid = t.defence if self.rules.defence_counts == "all" else t.e_grid[owner]
        step = np.abs(cells - centre).max(axis=1) <= 1  # next to where it stands now
        need: IntArray = grid[flat] + s_e - s_e * step + t.e_hidden[j]
        return cells, flat, need
