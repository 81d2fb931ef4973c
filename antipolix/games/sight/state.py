"""The Python face of one game of Sight (:class:`antipolix.games.protocol.State`).

:class:`SightState` keeps the position as one array (:mod:`antipolix.games.sight.position`),
validates every call, and leaves the rules to the kernels of
:mod:`antipolix.games.sight.rules`. Its observation is the whole position (S9: perfect
information), JSON-ready; agents rebuild the position from it with :func:`position_of`.

>>> state = SightState(SightConfig(size=3))
>>> state.to_act(), state.legal_actions(0)[:3]
((0,), [1, 2, 3])
>>> state.apply({0: 5}); state.observe(1)["board"]
[[0, 0, 0], [0, 1, 0], [0, 0, 0]]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.checks import is_int
from antipolix.games.protocol import GameError, IllegalActionError, Outcome, places_of
from antipolix.games.sight import actions as act
from antipolix.games.sight.config import SightConfig
from antipolix.games.sight.position import (
    ACTIONS,
    ADDS,
    BLACK,
    COLOURS,
    HAND,
    LAST,
    LIMITED,
    META,
    MOVER,
    OVER,
    PIE,
    REASON,
    REASONS,
    SIZE,
    SWAPPED,
    TURN,
    UNLIMITED_HAND,
    WHITE,
    WINNER,
    IntArray,
    colours,
    digest_start,
    digest_step,
    heights,
    new_position,
    recount,
    seat_of,
)
from antipolix.games.sight.rules import apply_k, start_turn_k, top_height_k
from antipolix.jit import kernel

PLANES = 8  # observation_tensor's planes (see SightState.observation_tensor)


@kernel
def _apply_and_start_k(pos: IntArray, action: int, added: IntArray, legal: IntArray) -> int:
    """Apply ``action`` (S4–S7), then start the next turn (S8): its legal actions in
    ``legal[:k]``, k returned; the number of additions stays in ``pos[ADDS]``."""
    apply_k(pos, action, added)
    return start_turn_k(pos, legal)


class SightState:
    """One game of Sight in progress (RULES-sight.md)."""

    def __init__(self, config: SightConfig) -> None:
        self.config = config
        self.pos = new_position(config)
        self._buffer = np.zeros(act.num_actions(config.size), dtype=np.int64)
        self._added_buf = np.zeros(8, dtype=np.int64)
        self.added: tuple[int, ...] = ()  # the points the last action added to (S7)
        self._digest = digest_start(self.pos)
        self._legal = self._buffer[: start_turn_k(self.pos, self._buffer)].copy()

    # -- the protocol -----------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Actions applied so far (Swap included)."""
        return int(self.pos[ACTIONS])

    @property
    def turns(self) -> int:
        """Turns played (S4; Swap is not a turn): the occupied points (S7)."""
        return int(self.pos[TURN])

    @property
    def over(self) -> bool:
        return bool(self.pos[OVER])

    def to_act(self) -> tuple[int, ...]:
        """The seat playing the colour to move (S4), or () once the game is over."""
        return () if self.over else (seat_of(self.pos, int(self.pos[MOVER])),)

    def legal_actions(self, seat: int) -> list[int]:
        """S11's order: Swap, then placements by point, then moves by (from, to)."""
        return self._legal.tolist() if seat in self.to_act() else []

    def action_mask(self, seat: int) -> npt.NDArray[np.bool_]:
        mask = np.zeros(act.num_actions(self.config.size), dtype=np.bool_)
        if seat in self.to_act():
            mask[self._legal] = True
        return mask

    def apply(self, actions: Mapping[int, int]) -> None:
        """One action of the seat to move; anything else raises IllegalActionError and
        changes nothing."""
        seats = self.to_act()
        if self.over:
            raise IllegalActionError("the game is over (S8): no seat acts")
        if not isinstance(actions, Mapping) or set(actions) != set(seats):
            got = sorted(actions) if isinstance(actions, Mapping) else actions
            raise IllegalActionError(f"seat {seats[0]} acts now (S4), got actions for {got!r}")
        action = actions[seats[0]]
        i = np.searchsorted(self._legal, action) if is_int(action) else 0
        if not is_int(action) or i >= len(self._legal) or self._legal[i] != action:
            raise IllegalActionError(self._illegal_text(action))
        self.play(int(action))

    def play(self, action: int) -> None:
        """Apply one action known to be legal (no check: :meth:`apply` checks)."""
        k = _apply_and_start_k(self.pos, action, self._added_buf, self._buffer)
        self._legal = self._buffer[:k].copy()
        self.added = tuple(self._added_buf[: int(self.pos[ADDS])].tolist())
        self._digest = digest_step(self._digest, action)

    def _illegal_text(self, action: Any) -> str:
        where = f"at turn {self.turns + 1} ({COLOURS[int(self.pos[MOVER])]} to move, S4–S6)"
        try:
            words = act.text(self.config, action)
        except ValueError:
            return f"action {action!r} is not a sight action: not legal {where}"
        return f"{words} is not legal {where}"

    def observe(self, seat: int) -> dict[str, Any]:
        """Everything (S9: perfect information), JSON-ready: ``board`` rows of signed heights
        (White's groups positive, Black's negative, 0 empty; row ``y``, column ``x``), the
        colour to move and its mode, the hands (None when unlimited), the last action and the
        points it added to."""
        n = self.config.size
        pos = self.pos
        signed = np.where(colours(pos) == WHITE, heights(pos), -heights(pos)).reshape(n, n)
        limited = bool(pos[LIMITED])
        last = int(pos[LAST])
        return {
            "seat": int(seat),
            "colour": COLOURS[seat_of(pos, int(seat))],
            "size": n,
            "turn": self.turns + (0 if self.over else 1),
            "actions": self.turn,
            "to_move": None if self.over else COLOURS[int(pos[MOVER])],
            "mode": self.mode,
            "swapped": bool(pos[SWAPPED]),
            "swap_offered": bool(len(self._legal) and self._legal[0] == act.SWAP),
            "hands": {c: (int(pos[HAND + i]) if limited else None) for i, c in enumerate(COLOURS)},
            "board": signed.tolist(),
            "last": None if last < 0 else act.to_json(self.config, last),
            "added": [[p % n, p // n] for p in self.added],
        }

    @property
    def mode(self) -> str:
        """``place`` (S5), ``move`` (S6) or ``over`` (S8), fixed at the turn's start (S4)."""
        if self.over:
            return "over"
        return "place" if top_height_k(self.pos, int(self.pos[MOVER])) < 0 else "move"

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """``(8, N, N)`` float32, from ``seat``'s side: its groups, the other's, their heights
        over N², the seat to move (all ones if it is ``seat``), Swap offered, each hand over
        the most pieces a game can use (ones when unlimited)."""
        n = self.config.size
        pos = self.pos
        me = seat_of(pos, int(seat))
        col, hgt = colours(pos).reshape(n, n), heights(pos).reshape(n, n)
        out = np.zeros((PLANES, n, n), dtype=np.float32)
        occupied = hgt > 0
        out[0] = occupied & (col == me)
        out[1] = occupied & (col != me)
        out[2] = np.where(col == me, hgt, 0) / (n * n)
        out[3] = np.where(col != me, hgt, 0) / (n * n)
        out[4] = float(not self.over and int(pos[MOVER]) == me)
        out[5] = float(bool(pos[PIE]) and len(self._legal) > 0 and self._legal[0] == act.SWAP)
        most = 9 * n * n
        for plane, colour in ((6, me), (7, 1 - me)):
            hand = int(pos[HAND + colour])
            out[plane] = 1.0 if hand >= UNLIMITED_HAND else min(hand, most) / most
        return out

    def result(self) -> Outcome | None:
        """S8: the winner (a seat), the reason, the turns played; extras: ``swapped`` (S4)."""
        if not self.over:
            return None
        winner = seat_of(self.pos, int(self.pos[WINNER]))
        return Outcome(
            winner=winner,
            reason=REASONS[int(self.pos[REASON])],
            turns=self.turns,
            places=places_of(2, winner, [1 - winner]),
            elimination_order=(1 - winner,),
            extras={"swapped": bool(self.pos[SWAPPED])},
        )

    def digest(self) -> int:
        """FNV-1a over the rules and every action (S9: the game is a function of them)."""
        return int(self._digest)

    def clone(self) -> SightState:
        other = SightState.__new__(SightState)
        other.config = self.config
        other.pos = self.pos.copy()
        other._buffer = np.zeros_like(self._buffer)
        other._added_buf = np.zeros_like(self._added_buf)
        other.added = self.added
        other._digest = self._digest
        other._legal = self._legal.copy()
        return other

    @classmethod
    def from_drawing(
        cls,
        config: SightConfig,
        drawing: str,
        to_move: str | None = None,
        hands: Mapping[str, int] | None = None,
        swapped: bool = False,
    ) -> SightState:
        """A position drawn as N rows of N tokens (row 0 first): ``.`` empty, ``W`` or ``B`` a
        singleton, ``W3`` or ``B2`` a stack. The colour to move defaults to the turn's parity
        (White plays odd turns, S4); ``hands`` (limited hands only) by colour. For tests and
        designers' positions; the game goes on from there by the rules.

        >>> state = SightState.from_drawing(SightConfig(size=3), "W . B2 / . . . / . . W")
        >>> print(state.drawing())
        W  .  B2
        .  .  .
        .  .  W
        """
        n = config.size
        rows = [r.split() for r in drawing.replace("/", "\n").strip().splitlines() if r.strip()]
        if len(rows) != n or any(len(r) != n for r in rows):
            raise GameError(f"a drawing of a {n}×{n} board has {n} rows of {n} tokens: {drawing!r}")
        state = cls(config)
        pos = state.pos
        for y, row in enumerate(rows):
            for x, token in enumerate(row):
                p = y * n + x
                if token == ".":
                    continue
                colour = "WB".find(token[0].upper())
                height = int(token[1:]) if token[1:].isdigit() else (1 if len(token) == 1 else 0)
                if colour < 0 or height < 1:
                    raise GameError(f"a point is '.', W, B, Wh or Bh (h >= 2), got {token!r}")
                pos[META + p] = colour
                pos[META + n * n + p] = height
        turns = int(np.count_nonzero(heights(pos)))
        recount(pos)
        pos[TURN] = pos[ACTIONS] = turns
        pos[MOVER] = turns % 2 if to_move is None else COLOURS.index(to_move)
        pos[SWAPPED] = int(swapped)
        pos[ACTIONS] += int(swapped)
        for name, count in (hands or {}).items():
            pos[HAND + COLOURS.index(name)] = count
        state._legal = state._buffer[: start_turn_k(pos, state._buffer)].copy()
        state._digest = digest_start(pos)
        for v in pos[META:]:
            state._digest = digest_step(state._digest, int(v))
        return state

    def drawing(self) -> str:
        """The board as :meth:`from_drawing` reads it."""
        n = self.config.size
        col, hgt = colours(self.pos), heights(self.pos)
        tokens = [
            "." if h == 0 else "WB"[c] + (str(h) if h > 1 else "")
            for c, h in zip(col.tolist(), hgt.tolist(), strict=True)
        ]
        return "\n".join(
            " ".join(t.ljust(2) for t in tokens[y * n : (y + 1) * n]).rstrip() for y in range(n)
        )

    def __repr__(self) -> str:
        return f"SightState(turn={self.turns}, mode={self.mode!r}, over={self.over})"


def position_of(config: SightConfig, observation: Mapping[str, Any]) -> IntArray:
    """The position an observation shows (S9: it shows everything), for agents that search."""
    n = config.size
    pos = new_position(config)
    board = np.asarray(observation["board"], dtype=np.int64).reshape(n * n)
    pos[META : META + n * n] = np.where(board < 0, BLACK, WHITE)
    pos[META + n * n :] = np.abs(board)
    turns = int(np.count_nonzero(board))
    recount(pos)
    pos[TURN] = turns
    pos[ACTIONS] = int(observation["actions"])
    pos[SWAPPED] = int(bool(observation["swapped"]))
    to_move = observation["to_move"]
    pos[MOVER] = turns % 2 if to_move is None else COLOURS.index(to_move)
    hands = observation["hands"]
    for i, c in enumerate(COLOURS):
        if hands[c] is not None:
            pos[HAND + i] = int(hands[c])
    last = observation["last"]
    pos[LAST] = -1 if last is None else act.from_json(config, last)
    if observation["mode"] == "over":
        pos[OVER] = 1
    assert pos[SIZE] == n
    return pos
