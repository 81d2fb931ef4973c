"""R10 End of game: who won, why, after how many turns, and the elimination order."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class EndReason(enum.Enum):
    LAST_PLAYER = "last player standing"  # the one living player wins
    NUL = "nul"  # every living player has a standing NUL (R9): draw
    ALL_ELIMINATED = "all eliminated"  # the remaining players went out in the same instant: draw
    TURN_LIMIT = "turn limit"  # max_turns reached: draw


REASONS: tuple[EndReason, ...] = tuple(EndReason)  # the compiled core's codes: index → reason


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: int | None  # None for a draw
    reason: EndReason
    turns: int
    elimination_order: tuple[int, ...]  # first eliminated first

    @property
    def draw(self) -> bool:
        return self.winner is None
