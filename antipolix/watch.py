"""Following a game as it is played: the finished game (:class:`PlayedGame`), and the one way to
watch one (:class:`Watcher`: a replay writer, the command line's log, a test's checks).

:func:`antipolix.play.play_game` calls every watcher's ``start`` once the armies are placed,
``turn`` after each turn, then ``finish`` when the game ends, or ``abort`` if it stops on an
error. :class:`Hooks` turns plain functions into a watcher.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from antipolix.agents.base import Agent, Decision
from antipolix.end import GameResult
from antipolix.game import Game, TurnReport
from antipolix.pieces import Piece

OnTurn = Callable[[Game, TurnReport, Mapping[int, Decision]], None]


@dataclass
class PlayedGame:
    """A game being played, then finished: the game object, the agents' names, the armies as
    placed, and (if kept) every turn report."""

    game: Game
    agents: tuple[str, ...]
    armies: tuple[tuple[Piece, ...], ...]  # each seat's pieces as placed
    reports: list[TurnReport] = field(default_factory=list)

    @property
    def result(self) -> GameResult:
        assert self.game.result is not None
        return self.game.result


class Watcher(Protocol):
    """Follows a game: ``agents`` are the agent objects as given, ``armies`` the armies given to
    chosen seats (or None)."""

    def start(self, played: PlayedGame, agents: Sequence[Agent], armies: Any) -> None: ...

    def turn(
        self, played: PlayedGame, report: TurnReport, decisions: Mapping[int, Decision]
    ) -> None: ...

    def finish(self, played: PlayedGame) -> None: ...

    def abort(self) -> None: ...


@dataclass
class Hooks:
    """A watcher made of plain functions: ``on_start(played)``, ``on_turn(game, report,
    decisions)``, ``on_end(played)``; each optional."""

    on_start: Callable[[PlayedGame], None] | None = None
    on_turn: OnTurn | None = None
    on_end: Callable[[PlayedGame], None] | None = None

    def start(self, played: PlayedGame, agents: Sequence[Agent], armies: Any) -> None:
        if self.on_start is not None:
            self.on_start(played)

    def turn(
        self, played: PlayedGame, report: TurnReport, decisions: Mapping[int, Decision]
    ) -> None:
        if self.on_turn is not None:
            self.on_turn(played.game, report, decisions)

    def finish(self, played: PlayedGame) -> None:
        if self.on_end is not None:
            self.on_end(played)

    def abort(self) -> None:
        return None
