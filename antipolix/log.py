"""Events and results in words: the one place that says what happened (R4–R10).

The turn log of the command line (``antipolix play --log``, ``antipolix replay show``), the
summary of a game and the captions of the 3D viewer all word events here. Cells are written in
the order of their tuple ``(z, y, x)`` (R1) with each coordinate named, ``z4 y9 x3``
(:func:`antipolix.world.cell_text`), as errors and the engine's reasons write them. Pieces are
named by a *namer*: :func:`plain_name` (``#12``), or :func:`piece_namer` (``hovercraft #12``,
with its trait where the reader may know it, R6). Whatever R6 hides from a reader is ``None``
in the events it is told and reads as ``an unseen piece``.

>>> from antipolix.events import Moved
>>> describe(Moved(0, 12, (0, 1, 0), (0, 3, 0)))
'P0 #12 moves from z0 y1 x0 to z0 y3 x0'
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from antipolix.combat import Outcome
from antipolix.end import GameResult
from antipolix.events import (
    Combat,
    Commanded,
    Crushed,
    Discarded,
    Eliminated,
    Elimination,
    Event,
    Fate,
    GameOver,
    Moved,
    Received,
    Rejected,
    Sent,
    TimerChanged,
    Undelivered,
)
from antipolix.orders import Attack, Move, Order
from antipolix.pieces import PieceType, Trait
from antipolix.world import cell_text

if TYPE_CHECKING:
    from antipolix.game import Game

Namer = Callable[[int | None], str]

# Why a player is out (R7, R8, R9); ``{by}`` is the player who took the chief
ELIMINATED_BY: dict[Elimination, str] = {
    Elimination.CHIEF: "chief taken by P{by}",
    Elimination.TIMER: "out of time",
    Elimination.QUIT: "quit",
}


def plain_name(pid: int | None) -> str:
    """A piece by its identifier: ``#12``; ``an unseen piece`` where R6 hides it."""
    return "an unseen piece" if pid is None else f"#{pid}"


def piece_namer(game: Game, reader: int | None = None) -> Namer:
    """Names pieces by type and identifier, ``hovercraft #12``, from ``game`` (a state in which
    the pieces still stand), with the trait where ``reader`` may know it (its own pieces; every
    piece for the truth, ``reader=None``; R6). Each name is looked up in the game as it is
    when asked."""

    def name(pid: int | None) -> str:
        return _named(_piece_words(game, pid), pid, reader)

    return name


def piece_namers(game: Game) -> Callable[[int | None], Namer]:
    """The :func:`piece_namer` of each reader of one state of ``game``, which look each piece
    up once for all of them (the match server words a turn's events for every seat): to be
    used while that state lasts."""
    known: dict[int, tuple[int, str, str] | None] = {}  # by identifier: owner, words, with trait

    def namer(reader: int | None) -> Namer:
        def name(pid: int | None) -> str:
            if type(pid) is not int:
                return _named(_piece_words(game, pid), pid, reader)
            if pid in known:
                return _named(known[pid], pid, reader)
            found = known[pid] = _piece_words(game, pid)
            return _named(found, pid, reader)

        return name

    return namer


def _piece_words(game: Game, pid: object) -> tuple[int, str, str] | None:
    """A piece's owner, its words without and with its trait; None for no piece of ``game``."""
    if pid is None:
        return None
    board = game.board  # (read directly: the match server words every turn's events)
    try:
        row = board.row(operator.index(pid))  # type: ignore[arg-type]
    except TypeError:
        row = -1
    if row < 0:  # not a piece of this game
        return None
    a = board.arrays
    plain = f"{_TYPE_WORDS[int(a.kind[row])]} #{pid}"
    trait = int(a.trait[row])
    traited = plain if trait == _NO_TRAIT else f"{_TRAIT_WORDS[trait]} {plain}"
    return int(a.owner[row]), plain, traited


def _named(words: tuple[int, str, str] | None, pid: int | None, reader: int | None) -> str:
    if words is None:
        return plain_name(pid)
    owner, plain, traited = words
    return traited if reader is None or owner == reader else plain


_TYPE_WORDS = {int(k): k.name.lower() for k in PieceType}
_TRAIT_WORDS = {int(t): t.name.lower() for t in Trait}
_NO_TRAIT = int(Trait.NONE)


def order_text(order: Order, name: Namer = plain_name) -> str:
    if isinstance(order, Move):
        return f"move {name(order.piece)} to {cell_text(order.cell)}"
    if isinstance(order, Attack):
        pieces = ", ".join(name(p) for p in order.pieces)
        return f"attack {cell_text(order.cell)} with {pieces}"
    return "pass"


def result_text(result: GameResult) -> str:
    """``player 1 wins (last player standing) after 234 turns; eliminated in order: P2, P0``."""
    who = "draw" if result.winner is None else f"player {result.winner} wins"
    order = ", ".join(f"P{p}" for p in result.elimination_order) or "none"
    return f"{who} ({result.reason.value}) after {result.turns} turns; eliminated in order: {order}"


def elimination_pieces(event: Eliminated) -> str:
    """What became of an eliminated player's pieces: ``", 1 piece goes to P2"``,
    ``", 3 pieces removed"``, or nothing (R7, R8, R9)."""
    out = ""
    if event.taken:
        went = "piece goes" if len(event.taken) == 1 else "pieces go"
        out += f", {len(event.taken)} {went} to P{event.by}"
    if event.removed:
        gone = "piece removed" if len(event.removed) == 1 else "pieces removed"
        out += f", {len(event.removed)} {gone}"
    return out


def elimination_text(event: Eliminated) -> str:
    """``chief taken by P1, 5 pieces go to P1``: why a player is out, and its pieces."""
    return ELIMINATED_BY[event.reason].format(by=event.by) + elimination_pieces(event)


def fate_text(event: Fate) -> str:
    """What a successful attack did to its target (R8): ``destroyed``, ``converted to P1``,
    ``teleported to z0 y2 x1``, ``teleported, destroyed on landing (out of sight)``, ..."""
    if event.outcome is Outcome.CONVERT:
        return f"converted to P{event.player}"
    if event.outcome is Outcome.DESTROY:
        return "destroyed"
    if event.landing is None:  # onto a piece this reader cannot see (R6)
        return "teleported, destroyed on landing (out of sight)"
    end = ", destroyed there (occupied)" if event.destroyed else ""
    return f"teleported to {cell_text(event.landing)}{end}"


def _combat_text(event: Combat, name: Namer) -> str:
    count = len(event.pieces)
    by = f"{count} piece{'s' if count != 1 else ''}" if count else "unseen pieces"
    text = (
        f"P{event.player} attacks P{event.target_owner}'s {name(event.target)} at "
        f"{cell_text(event.cell)} with {by}: {event.attack} vs {event.defence}"
    )
    if event.dropped:
        text += " (dropped " + ", ".join(f"{name(p)}: {why}" for p, why in event.dropped) + ")"
    return text if event.success else text + ", repelled"


def describe(event: Event, name: Namer = plain_name) -> str:
    """One line of plain text for any event."""
    match event:
        case Received(player, at):
            return f"P{player} order received at {at:.2f}s"
        case Rejected(player, order, reason):
            return f"P{player} {order_text(order, name)}: rejected, {reason}"
        case Discarded(player, order, reason):
            return f"P{player} {order_text(order, name)}: discarded, {reason}"
        case Moved(player, piece, src, dst):
            return f"P{player} {name(piece)} moves from {cell_text(src)} to {cell_text(dst)}"
        case Crushed(player, piece, victim, owner, cell):
            return (
                f"P{player} {name(piece)} crushes P{owner}'s invisible {name(victim)} at "
                f"{cell_text(cell)}"
            )
        case Combat():
            return _combat_text(event, name)
        case Fate(target=target, draw=draw):
            return f"  draw {draw:.3f}: {name(target)} {fate_text(event)}"
        case Eliminated(player=player, at=at):
            return f"P{player} ELIMINATED at {at:.2f}s: {elimination_text(event)}"
        case Sent(sender, to, text):
            return f"P{sender} -> {'all' if to is None else f'P{to}'}: {text!r}"
        case Undelivered(sender, to, reason):
            return f"P{sender} -> P{to}: undelivered, {reason}"
        case Commanded(player, command):
            return f"P{player} sends {command.value}"
        case TimerChanged(player, before, after):
            return f"P{player} timer {before:.1f} -> {after:.1f}"
        case GameOver(result):
            return "GAME OVER: " + result_text(result)
    return repr(event)


def story(events: Sequence[Event], name: Namer = plain_name) -> list[str]:
    """A turn as a designer reads it (the viewer's caption): moves, crushes, attacks with their
    outcome on the same line, eliminations and the end; receptions, timers and refusals left
    out."""
    lines: list[str] = []
    for e in events:
        if isinstance(e, Moved | Crushed | Combat):
            lines.append(describe(e, name))
        elif isinstance(e, Fate) and lines:
            lines[-1] += f": {fate_text(e)}"
        elif isinstance(e, Eliminated):
            lines.append(f"P{e.player} ELIMINATED: {elimination_text(e)}")
        elif isinstance(e, GameOver):
            result = e.result
            who = "draw" if result.winner is None else f"P{result.winner} wins"
            lines.append(f"game over: {who} ({result.reason.value})")
    return lines


def summary_lines(
    game: Game,
    agents: Sequence[str],
    eliminations: Sequence[tuple[int, Eliminated]],
    placed: Mapping[int, int] | None = None,
) -> list[str]:
    """A readable summary of a finished game: winner, reason, turns, eliminations (turn, how),
    and the pieces each player holds at the end, what they cost (points of R2), and how many
    it took from others (R8: converted, or the army of a player whose chief it took), which
    is why a player can end with more points than its budget.

    ``eliminations`` are ``(turn, event)`` pairs in the order they happened; ``placed`` maps
    each piece to the seat that placed it (``{piece.id: piece.owner}`` at the start), which
    the count of taken pieces needs (left out without it).
    """
    result = game.result
    assert result is not None
    rules = game.rules
    seat = [f"P{p} ({name})" for p, name in enumerate(agents)]
    winner = "draw" if result.winner is None else f"{seat[result.winner]} wins"
    lines = [f"result: {winner}, {result.reason.value}, after {result.turns} turns"]
    for turn, e in eliminations:
        how = ELIMINATED_BY[e.reason].format(by=e.by)
        lines.append(f"  turn {turn:4d}: {seat[e.player]} eliminated, {how}")
    taken = (
        "; taken: of those, pieces it converted or won with a chief, R8"
        if placed is not None
        else ""
    )
    lines.append(
        f"pieces at the end (points: their cost, R2, each army bought within "
        f"{rules.army_budget}, R3{taken}):"
    )
    for p in range(rules.players):
        mine = game.pieces(p)
        points = sum(rules.piece_cost(x.type, x.trait) for x in mine)
        state = "alive" if p in game.living else "out"
        timer = game.timers.get(p)
        clock = f", {timer:.1f} s left on its timer" if timer is not None else ""
        noun = "piece, " if len(mine) == 1 else "pieces,"  # (the columns stay aligned)
        text = f"  {seat[p]:<16} {len(mine):3d} {noun} {points:3d} points"
        if placed is not None:
            won = sum(1 for x in mine if placed.get(x.id, p) != p)
            text += f", {won:3d} taken"
        lines.append(f"{text}  ({state}{clock})")
    return lines
