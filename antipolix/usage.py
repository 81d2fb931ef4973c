"""How often a game's players used what each kind of piece does: teleport moves (R5),
fortress-backed defences (R8) and crushes (R6), per seat.

The compiled games count them as they play (:func:`antipolix.autoplay._count`); a game played
through :class:`~antipolix.Game` is counted by :class:`UsageCounter`, a watcher that reads the
same from the turn reports (the truth, R12). Both give the same numbers (tested):

- a **teleport move**: a move farther than its piece's own move field (it went through a
  teleporter network, R5), counted for the mover;
- a **fortress defence**: an attack on a piece when a fortress of that piece's owner is the
  target or stands within radius 1 of it at that moment (its strength is in the defence, R8),
  counted for the defender;
- a **crush**: a move onto an enemy invisible piece (R6), counted for the mover.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from antipolix.combat import Outcome
from antipolix.events import Combat, Crushed, Eliminated, Fate, Moved
from antipolix.game import Game, TurnReport
from antipolix.pieces import PieceType
from antipolix.watch import PlayedGame
from antipolix.world import Cell

USAGE = ("teleport_moves", "fortress_defences", "crushes")


def _distance(a: Cell, b: Cell) -> int:
    return max(abs(u - v) for u, v in zip(a, b, strict=True))


class UsageCounter:
    """A watcher (:class:`~antipolix.watch.Watcher`) that counts :data:`USAGE` per seat:
    ``counts[name][seat]``."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}
        self._forts: dict[int, list[Any]] = {}  # id → [owner, cell, standing]

    def start(self, played: PlayedGame, agents: Sequence[Any], armies: Any) -> None:
        self.counts = {name: [0] * played.game.rules.players for name in USAGE}
        self._snapshot(played.game)

    def _snapshot(self, game: Game) -> None:
        self._forts = {
            p.id: [p.owner, p.cell, True] for p in game.pieces() if p.type is PieceType.FORTRESS
        }

    def turn(self, played: PlayedGame, report: TurnReport, decisions: Mapping[int, Any]) -> None:
        game = played.game
        fields = {k: game.rules.piece_types[k].move for k in PieceType}
        for ev in report.events:
            if isinstance(ev, Moved):
                if _distance(ev.src, ev.dst) > fields[game.piece(ev.piece).type]:
                    self.counts["teleport_moves"][ev.player] += 1
            elif isinstance(ev, Crushed):
                self.counts["crushes"][ev.player] += 1
                if ev.victim in self._forts:
                    self._forts[ev.victim][2] = False
            elif isinstance(ev, Combat):
                if any(
                    standing and owner == ev.target_owner and _distance(cell, ev.cell) <= 1
                    for owner, cell, standing in self._forts.values()
                ):
                    self.counts["fortress_defences"][ev.target_owner] += 1
            elif isinstance(ev, Fate) and ev.target in self._forts:
                fort = self._forts[ev.target]
                if ev.destroyed:
                    fort[2] = False
                elif ev.outcome is Outcome.TELEPORT:
                    fort[1] = ev.landing
                else:
                    fort[0] = ev.player
            elif isinstance(ev, Eliminated):
                for fort in self._forts.values():
                    if fort[0] == ev.player:
                        if ev.by is None:
                            fort[2] = False
                        else:
                            fort[0] = ev.by
        self._snapshot(game)

    def finish(self, played: PlayedGame) -> None:
        return None

    def abort(self) -> None:
        return None
