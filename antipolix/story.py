"""A game's story: the turns a reader of a replay wants to jump to, and the decisive one.

The moments are the eliminations (R7, R8, R9: a chief taken, which gives its whole army to the
taker, R8; a timer run out; a quit) and the end (R10). The **decisive turn** is the turn the
winner took its first chief: in AntipoliX taking a chief takes the army with it (R8), the
snowball a game turns on. When the winner took none (its rivals ran out of time, quit or took
each other's chiefs), or the game is a draw, it is the first chief taken by anyone; when no
chief was taken at all, the turn with the most attacks times the players still in the game
(the height of the battle). The demo draws that turn; the replay page marks every moment on
its timeline.

The story is read from the elimination events and the result only, which every player is told
(R6): a page that holds one player's view may show it whole.

>>> from antipolix import load_replay                                # doctest: +SKIP
>>> print(story(load_replay("out/demo.apx.json.gz")).decisive.text)  # doctest: +SKIP
the decisive turn: P1 (greedy) takes its first chief, P2's: P2's army is P1's now (R8)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from antipolix.events import Combat, Eliminated, Elimination
from antipolix.log import ELIMINATED_BY
from antipolix.replay import Replay

ELIMINATED, DECISIVE, END = "eliminated", "decisive", "end"  # the kinds of moments


@dataclass(frozen=True)
class Moment:
    """A turn of the story: its ``kind`` (:data:`ELIMINATED`, :data:`DECISIVE`, :data:`END`),
    what happened, in words, and for a chief taken the cell ``(z, y, x)`` it was taken on
    (the truth: a page that holds one player's view leaves it out)."""

    turn: int
    kind: str
    text: str
    cell: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Story:
    """A replay's moments in turn order (several may share a turn), the decisive one among
    them, and the result in words."""

    moments: tuple[Moment, ...]
    decisive: Moment
    result: str


def story(replay: Replay) -> Story:
    """The story of ``replay`` (see the module docstring)."""
    agents = replay.agents

    def who(p: int | None) -> str:
        return "?" if p is None else f"P{p} ({agents[p]})"

    out: list[tuple[int, Eliminated]] = []
    cells: dict[int, tuple[int, int, int]] = {}  # eliminated player → its chief's cell
    busiest, score, alive = (1, 0, replay.rules.players), -1, replay.rules.players
    for report in replay:
        attacks = sum(isinstance(e, Combat) for e in report.events)
        if attacks * alive > score:
            busiest, score = (report.turn, attacks, alive), attacks * alive
        last: dict[tuple[int, int], Combat] = {}  # the last successful attack of P on Q
        for e in report.events:
            if isinstance(e, Combat) and e.success:
                last[(e.player, e.target_owner)] = e
            elif isinstance(e, Eliminated):
                out.append((report.turn, e))
                hit = last.get((e.by, e.player)) if e.by is not None else None
                if e.reason is Elimination.CHIEF and hit is not None:
                    cells[e.player] = (int(hit.cell[0]), int(hit.cell[1]), int(hit.cell[2]))
                alive -= 1
    moments = [
        Moment(t, ELIMINATED, f"{who(e.player)} is out: {_how(e, who)}", cells.get(e.player))
        for t, e in out
    ]
    result = replay.result
    winner = result.winner
    taken = [(t, e) for t, e in out if e.reason is Elimination.CHIEF and e.by is not None]
    chosen = next(((t, e) for t, e in taken if e.by == winner), taken[0] if taken else None)
    if chosen is not None:
        t, e = chosen
        how = (
            f"{who(winner)} takes its first chief"
            if e.by == winner
            else f"the first chief taken, by {who(e.by)}"
        )
        text = f"the decisive turn: {how}, P{e.player}'s: P{e.player}'s army is P{e.by}'s now (R8)"
        decisive = Moment(t, DECISIVE, text, cells.get(e.player))
    else:
        t, attacks, players = busiest
        text = (
            f"the decisive turn: no chief was taken; the height of the battle ({attacks} "
            f"attack{'s' if attacks != 1 else ''} with {players} players in the game)"
            if attacks
            else "the decisive turn: no chief was taken and no attack made: the first turn"
        )
        decisive = Moment(min(max(t, 1), replay.last_turn), DECISIVE, text)
    said = (
        "a draw" if winner is None else f"{who(winner)} wins"
    ) + f" ({result.reason.value}) after {result.turns} turns"
    moments.append(decisive)
    moments.append(Moment(replay.last_turn, END, f"game over: {said}"))
    order = {ELIMINATED: 1, DECISIVE: 0, END: 2}
    moments.sort(key=lambda m: (m.turn, order[m.kind]))
    return Story(tuple(moments), decisive, said)


def _how(e: Eliminated, who: Callable[[int | None], str]) -> str:
    if e.reason is Elimination.CHIEF:
        return f"{who(e.by)} took its chief, and with it its army (R8)"
    return ELIMINATED_BY[e.reason].format(by=e.by)
