"""Helpers shared by the rule-section tests: hand-made positions and event filters."""

from __future__ import annotations

from antipolix import Game, Pass, Rules
from antipolix.events import Event
from antipolix.game import TurnReport


def make_game(placements, *, players=2, shape=(1, 5, 5), seed=0, timers=False, **options):
    """A started hand-made game (zones off, ample budget).

    ``placements``: ``(player, type, trait, cell)`` in seat order. Returns the game and the new
    piece ids, in the order given.
    """
    rules = Rules(shape=shape, players=players, zones=False, budget=1000, timers=timers, **options)
    game = Game(rules, seed=seed)
    ids = [game.place(p, kind, trait, cell) for p, kind, trait, cell in placements]
    game.start()
    return game, ids


def of_kind(events: TurnReport | tuple[Event, ...], kind, player=None) -> list:
    """The events of one kind (of one player's, if given), from a report or a sequence."""
    seq = events.events if isinstance(events, TurnReport) else events
    return [e for e in seq if isinstance(e, kind) and (player is None or e.player == player)]


def passes(game: Game) -> dict:
    """Every living player passes."""
    return {p: Pass() for p in game.living}


def seq(game: Game) -> dict:
    """Think times 0, 1, 2, … in seat order: reception order is seat order."""
    return {p: float(i) for i, p in enumerate(game.living)}
