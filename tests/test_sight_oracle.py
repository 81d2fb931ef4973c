"""Proof by difference: a plain-Python Sight written from RULES-sight.md alone (dicts of points,
no tables, no kernels) against the compiled rules: the same legal actions in S11's order and
the same positions along seeded games, and the same perft, for every option."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME, SightConfig
from antipolix.games.sight.actions import decode, move, place
from antipolix.games.sight.perft import perft
from antipolix.games.sight.position import colours, heights

Point = tuple[int, int]
DIRS = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]


@dataclass
class Plain:
    """A position as the contract describes it: groups by point, hands, turn, mover."""

    n: int
    hand: int | None
    pie: bool
    strict: bool
    groups: dict[Point, tuple[int, int]] = field(default_factory=dict)  # point -> (colour, h)
    hands: list[float] = field(default_factory=list)
    turn: int = 1
    mover: int = 0
    swapped: bool = False

    def __post_init__(self) -> None:
        self.hands = [float("inf") if self.hand is None else self.hand] * 2

    def copy(self) -> Plain:
        other = Plain(self.n, self.hand, self.pie, self.strict, dict(self.groups))
        other.hands, other.turn = list(self.hands), self.turn
        other.mover, other.swapped = self.mover, self.swapped
        return other

    def on(self, x: int, y: int) -> bool:
        return 0 <= x < self.n and 0 <= y < self.n

    def drawn(self, p: Point, d: Point) -> bool:  # S1
        return d[0] == 0 or d[1] == 0 or (p[0] + p[1]) % 2 == 0

    def adjacent(self, p: Point) -> list[Point]:  # S1
        return [
            (p[0] + d[0], p[1] + d[1])
            for d in DIRS
            if self.drawn(p, d) and self.on(p[0] + d[0], p[1] + d[1])
        ]

    def sight(self, p: Point) -> list[Point]:  # S3
        out = []
        for d in DIRS:
            if not self.drawn(p, d):
                continue
            x, y = p[0] + d[0], p[1] + d[1]
            while self.on(x, y) and (x, y) not in self.groups:
                x, y = x + d[0], y + d[1]
            if self.on(x, y):
                out.append((x, y))
        return out

    def own_seen(self, p: Point, skip: Point | None) -> list[Point]:  # S5, S6, S7
        return [q for q in self.sight(p) if q != skip and self.groups[q][0] == self.mover]

    def legal(self) -> list[tuple]:  # S4-S6, S2, in S11's order
        out: list[tuple] = []
        if self.pie and self.turn == 2 and not self.swapped:
            out.append(("swap",))
        me, hand = self.mover, self.hands[self.mover]
        stacks = {p: h for p, (c, h) in self.groups.items() if c == me and h >= 2}
        empty = [(x, y) for y in range(self.n) for x in range(self.n) if (x, y) not in self.groups]
        if not stacks:
            out += [("place", p) for p in empty if 1 + len(self.own_seen(p, None)) <= hand]
            return out
        free = {p for p in stacks if any(q not in self.groups for q in self.adjacent(p))}
        pool = stacks if self.strict else {p: stacks[p] for p in free}
        if not pool:
            return out
        top = max(pool.values())
        moves = []
        for p in stacks:
            if stacks[p] == top:
                for q in self.adjacent(p):
                    if q not in self.groups and len(self.own_seen(q, p)) <= hand:
                        moves.append(("move", p, q))
        key = lambda m: (m[1][1] * self.n + m[1][0], m[2][1] * self.n + m[2][0])  # noqa: E731
        return out + sorted(moves, key=key)

    def apply(self, action: tuple) -> None:
        if action[0] == "swap":  # S4
            self.swapped = True
            return
        me = self.mover
        if action[0] == "place":  # S5
            target, origin = action[1], None
            self.hands[me] -= 1
        else:  # S6
            origin, target = action[1], action[2]
            c, h = self.groups[origin]
            self.groups[origin] = (c, h - 1)
        self.groups[target] = (me, 1)
        chosen = self.own_seen(target, origin)  # S7: chosen once, after the arrival
        for q in chosen:
            c, h = self.groups[q]
            self.groups[q] = (c, h + 1)
        self.hands[me] -= len(chosen)
        self.turn += 1
        self.mover = 1 - me


def _code(config: SightConfig, action: tuple) -> int:
    n = config.size
    if action[0] == "swap":
        return 0
    if action[0] == "place":
        return place(n, action[1][1] * n + action[1][0])
    (px, py), (qx, qy) = action[1], action[2]
    return move(n, py * n + px, qy * n + qx)


def _plain(config: SightConfig) -> Plain:
    hand = None if config.hand == "unlimited" else int(config.hand)
    return Plain(config.size, hand, config.pie, config.stack_priority == "strict")


def _plain_perft(state: Plain, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in state.legal():
        child = state.copy()
        child.apply(a)
        total += _plain_perft(child, depth - 1)
    return total


OPTIONS = [
    {},
    {"size": 3},
    {"size": 4, "stack_priority": "strict"},
    {"size": 6, "pie": True},
    {"hand": 5},
    {"size": 4, "hand": 7, "pie": True, "stack_priority": "strict"},
    {"size": 9},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_sight_compiled_rules_agree_with_the_plain_reading(options: dict) -> None:
    config = GAME.config(**options)
    n = config.size
    agents = [GAME.agents["random"](), GAME.agents["greedy"]()]
    for seed in range(6):
        plain = _plain(config)

        def follow(state, actions, plain=plain):  # type: ignore[no-untyped-def]
            seat = state.to_act()[0]
            legal = plain.legal()
            assert [_code(config, a) for a in legal] == state.legal_actions(seat)
            col, hgt = colours(state.pos), heights(state.pos)
            groups = {(p % n, p // n): (int(col[p]), int(hgt[p])) for p in np.flatnonzero(hgt)}
            assert groups == plain.groups
            action = legal[[_code(config, a) for a in legal].index(actions[seat])]
            plain.apply(action)

        state, outcome = play_one(GAME, config, agents, seed=seed, on_action=follow)
        assert plain.legal() == []  # the plain reading ends the game too (S8)
        assert outcome.winner == (1 - plain.mover) ^ int(plain.swapped)


@pytest.mark.parametrize(
    ("options", "depth"),
    [({"size": 3}, 6), ({"size": 4, "pie": True}, 4), ({"size": 3, "hand": 3}, 7), ({}, 3)],
)
def test_sight_perft_agrees_with_the_plain_reading(options: dict, depth: int) -> None:
    config = GAME.config(**options)
    assert perft(config, depth) == _plain_perft(_plain(config), depth)


def test_sight_decode_names_what_the_plain_reading_plays() -> None:
    config = GAME.config(size=4)
    for a in _plain(config).legal():
        kind = decode(4, _code(config, a))[0]
        assert kind == a[0]
