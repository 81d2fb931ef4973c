"""Events in words, for turn logs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from antipolix.combat import Outcome
from antipolix.end import GameResult
from antipolix.events import (
    Combat,
    Commanded,
    Crushed,
    Discarded,
    Eliminated,
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

if TYPE_CHECKING:
    from antipolix.game import Game


def cell_text(cell: tuple[int, int, int] | None) -> str:
    return "-" if cell is None else "({},{},{})".format(*cell)


def order_text(order: Order) -> str:
    if isinstance(order, Move):
        return f"move #{order.piece} to {cell_text(order.cell)}"
    if isinstance(order, Attack):
        return f"attack {cell_text(order.cell)} with " + ",".join(f"#{p}" for p in order.pieces)
    return "pass"


def result_text(result: GameResult) -> str:
    who = "draw" if result.winner is None else f"player {result.winner} wins"
    order = ", ".join(f"P{p}" for p in result.elimination_order) or "none"
    return f"{who} ({result.reason.value}) after {result.turns} turns; eliminated in order: {order}"


def elimination_pieces(event: Eliminated) -> str:
    """What became of an eliminated player's pieces, for a log line: ``", 1 piece goes to P2"``,
    ``", 3 pieces removed"``, or nothing (R7, R8, R9)."""
    out = ""
    if event.taken:
        went = "piece goes" if len(event.taken) == 1 else "pieces go"
        out += f", {len(event.taken)} {went} to P{event.by}"
    if event.removed:
        gone = "piece removed" if len(event.removed) == 1 else "pieces removed"
        out += f", {len(event.removed)} {gone}"
    return out


def describe(event: Event) -> str:
    """One line of plain text for an event."""
    match event:
        case Received(player, at):
            return f"P{player} order received at {at:.2f}s"
        case Rejected(player, order, reason):
            return f"P{player} {order_text(order)}: rejected, {reason}"
        case Discarded(player, order, reason):
            return f"P{player} {order_text(order)}: discarded, {reason}"
        case Moved(player, piece, src, dst):
            return f"P{player} moves #{piece} {cell_text(src)} -> {cell_text(dst)}"
        case Crushed(player, piece, victim, owner, cell):
            mover = "an unseen piece" if piece is None else f"#{piece}"
            crushed = "piece" if victim is None else f"#{victim}"
            return f"P{player} {mover} crushes P{owner}'s invisible {crushed} on {cell_text(cell)}"
        case Combat() as c:
            verdict = "succeeds" if c.success else "fails"
            dropped = ", ".join(f"#{p}: {why}" for p, why in c.dropped)
            return (
                f"P{c.player} attacks P{c.target_owner}'s #{c.target} on {cell_text(c.cell)} "
                f"with {','.join(f'#{p}' for p in c.pieces)}: {c.attack} vs {c.defence}, "
                f"{verdict}" + (f" (dropped {dropped})" if dropped else "")
            )
        case Fate(player, target, _, outcome, draw, landing, destroyed, _):
            if outcome is Outcome.TELEPORT and landing is None:  # onto a piece not seen (R6)
                what = "teleported and destroyed (landed on an occupied cell out of sight)"
            elif outcome is Outcome.TELEPORT:
                end = "and is destroyed (cell occupied)" if destroyed else "and survives"
                what = f"teleported to {cell_text(landing)} {end}"
            elif outcome is Outcome.CONVERT:
                what = f"converted to P{player}"
            else:
                what = "destroyed"
            return f"  draw {draw:.3f}: #{target} {what}"
        case Eliminated(player, reason, at, by):
            how = {"chief": f"lost its chief to P{by}", "timer": "ran out of time", "quit": "quit"}
            pieces = elimination_pieces(event)
            return f"P{player} ELIMINATED at {at:.2f}s: {how.get(reason, reason)}{pieces}"
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


def summary_lines(
    game: Game, agents: Sequence[str], eliminations: Sequence[tuple[int, Eliminated]]
) -> list[str]:
    """A readable summary of a finished game: winner, reason, turns, eliminations (turn, how),
    and the pieces and points each player has left.

    ``eliminations`` are ``(turn, event)`` pairs in the order they happened.
    """
    result = game.result
    assert result is not None
    seat = [f"P{p} ({name})" for p, name in enumerate(agents)]
    winner = "draw" if result.winner is None else f"{seat[result.winner]} wins"
    lines = [f"result: {winner}, {result.reason.value}, after {result.turns} turns"]
    for turn, e in eliminations:
        how = {"chief": f"chief taken by P{e.by}", "timer": "out of time", "quit": "quit"}
        lines.append(
            f"  turn {turn:4d}: {seat[e.player]} eliminated, {how.get(e.reason, e.reason)}"
        )
    lines.append("pieces left (pieces, points of the budget):")
    for p in range(game.rules.players):
        mine = game.pieces(p)
        points = sum(game.rules.piece_cost(x.type, x.trait) for x in mine)
        state = "alive" if p in game.living else "out"
        timer = game.timers.get(p)
        clock = f", timer {timer:.1f} s" if timer is not None else ""
        lines.append(f"  {seat[p]:<16} {len(mine):3d} pieces, {points:3d} points  ({state}{clock})")
    return lines
