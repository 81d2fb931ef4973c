"""A generic invariant checker for any game state (pgx ``api_test`` / OpenSpiel style)."""

from __future__ import annotations

import numpy as np

from antipolix import Game, Trait
from antipolix.events import Crushed, Eliminated, Fate
from antipolix.game import TurnReport


def check_state(game: Game) -> None:
    """Raise AssertionError naming the first broken invariant of ``game``'s state."""
    board = game.board
    n = board.count
    alive = np.flatnonzero(board.alive[:n])
    # R1: one piece per cell, and grid and piece table agree
    occupied = np.flatnonzero(board.grid.ravel() >= 0)
    assert len(occupied) == len(alive), f"{len(occupied)} occupied cells, {len(alive)} pieces"
    for pid in alive:
        assert board.grid[tuple(board.pos[pid])] == pid, f"piece {pid} not on its grid cell"
    on_grid = set(board.grid.ravel()[occupied].tolist())
    assert on_grid == set(alive.tolist()), "the grid names a dead piece"
    # R6: identifiers and rows name each other
    rows = game.arrays.rows
    assert all(rows[board.ids[r]] == r for r in range(n)), "identifier and row disagree"
    assert np.count_nonzero(rows >= 0) == n, "an identifier names no piece"
    # R8, R10: pieces belong to living players only; each living player has exactly one chief
    living = set(game.living)
    owners = set(board.owner[alive].tolist())
    assert owners <= living, f"pieces of eliminated players {sorted(owners - living)} remain"
    for p in range(game.rules.players):
        chiefs = [int(i) for i in alive if board.owner[i] == p and board.trait[i] == Trait.CHIEF]
        if p in living:
            assert len(chiefs) == 1, f"living player {p} has chiefs {chiefs}"
            assert board.chief[p] == chiefs[0], f"chief index of player {p} is stale"
        else:
            assert not chiefs and board.chief[p] == -1, f"eliminated player {p} keeps a chief"
    # R10: living and eliminated partition the seats
    assert living.isdisjoint(game.elimination_order)
    assert len(living) + len(game.elimination_order) == game.rules.players


def destroyed_in(report: TurnReport) -> int:
    """Pieces a turn took off the board: crushed, destroyed in combat, removed with a player."""
    count = 0
    for event in report.events:
        if isinstance(event, Crushed) or (isinstance(event, Fate) and event.destroyed):
            count += 1
        elif isinstance(event, Eliminated):
            count += len(event.removed)
    return count
