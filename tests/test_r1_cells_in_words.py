"""R1: one way to write a cell wherever a person reads one. The API's cells are ``(z, y, x)``
tuples; logs, the engine's reasons, errors, captions and replay pages write them in the same
order with each coordinate named, ``z0 y1 x2`` (a log once wrote ``attack x5 y5 z2 …:
rejected, no visible enemy piece on (2, 5, 5)``: two orders in one line)."""

from __future__ import annotations

import re

import pytest

from antipolix import Attack, Move, PieceType, Trait, load_replay
from antipolix.errors import EmptyCellError, OccupiedCellError, OffBoardError, OutsideZoneError
from antipolix.events import Rejected
from antipolix.game import Game
from antipolix.log import describe, piece_namer
from antipolix.rules import Rules
from antipolix.world import cell_text
from tests import golden
from tests.positions import make_game, of_kind

ARMY, HOVER = PieceType.ARMY, PieceType.HOVERCRAFT
NONE, CHIEF = Trait.NONE, Trait.CHIEF
CELL = re.compile(r"\bz\d+ y\d+ x\d+\b")
OTHER_ORDERS = re.compile(r"\bx\d+ y\d+ z\d+\b|\(\d+, \d+, \d+\)")  # x first, or a bare tuple


def test_r1_a_cell_is_written_in_its_tuples_order_with_each_coordinate_named() -> None:
    assert cell_text((2, 5, 4)) == "z2 y5 x4"
    assert cell_text(None) == "-"


def test_r1_a_log_line_and_the_engines_reason_name_a_cell_alike() -> None:
    # R4: t1 leaves (0, 1, 2) before a0's attack on it arrives: rejected, with the reason
    #   A0 .  .  .  B1
    #   .  a0 t1 .  .        t1 -> (0, 2, 2) at t=1; a0 attacks (0, 1, 2) at t=2
    game, (_, a0, _, t1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, HOVER, NONE, (0, 1, 2)),
        ]
    )
    report = game.play_turn(
        {0: Attack([a0], (0, 1, 2)), 1: Move(t1, (0, 2, 2))}, think_times={0: 2.0, 1: 1.0}
    )
    (rejected,) = of_kind(report, Rejected)
    assert rejected.reason == "no visible enemy piece on z0 y1 x2"
    line = describe(rejected, piece_namer(game))
    assert line == (
        f"P0 attack z0 y1 x2 with army #{a0}: rejected, no visible enemy piece on z0 y1 x2"
    )
    moved = describe(report.events[[type(e).__name__ for e in report.events].index("Moved")])
    assert "from z0 y1 x2 to z0 y2 x2" in moved


def test_r1_errors_name_cells_as_the_log_does() -> None:
    game, _ = make_game([(0, ARMY, CHIEF, (0, 0, 0)), (1, ARMY, CHIEF, (0, 0, 4))], shape=(2, 5, 5))
    with pytest.raises(EmptyCellError, match=r"^no piece on z1 y3 x2: nothing to defend$"):
        game.defence_power((1, 3, 2))
    with pytest.raises(OffBoardError, match=r"^cell z9 y0 x0 is outside the 2×5×5 board"):
        game.defence_power((9, 0, 0))
    placing = Game(Rules(shape=(4, 8, 8), players=2), seed=1)
    zone = placing.zone(0)
    assert zone is not None
    inside = tuple(zone.lo)
    placing.place(0, ARMY, CHIEF, inside)
    with pytest.raises(OccupiedCellError, match=f"^player 0: cell {cell_text(inside)} already"):
        placing.place(0, ARMY, NONE, inside)
    outside = next(
        (z, y, x) for z in range(4) for y in range(8) for x in range(8) if (z, y, x) not in zone
    )
    with pytest.raises(OutsideZoneError) as refused:
        placing.place(0, ARMY, NONE, outside)
    box = " ".join(f"{a}{lo}..{hi - 1}" for a, lo, hi in zip("zyx", zone.lo, zone.hi, strict=True))
    assert str(refused.value) == (
        f"player 0: cell {cell_text(outside)} is outside its home zone {box} (R3)"
    )
    assert CELL.fullmatch(cell_text(outside))


def test_r1_a_replay_written_before_reads_its_reasons_cells_as_now() -> None:
    """The golden replays were written when the engine's reasons named cells as tuples: they
    still load (every event re-played and compared) and read as the engine writes today."""
    path = golden.path("3p_small_greedy_random_seed7")
    import gzip

    assert "holds an enemy piece" in gzip.decompress(path.read_bytes()).decode()
    assert re.search(r'"reason":"cell \(\d+, \d+, \d+\) holds', gzip.decompress(
        path.read_bytes()).decode())  # fmt: skip
    replay = load_replay(path)
    reasons = [
        e.reason
        for t in range(1, replay.last_turn + 1)
        for e in replay.events(t)
        if isinstance(e, Rejected)
    ]
    assert any(CELL.search(r) for r in reasons)
    assert not any(OTHER_ORDERS.search(r) for r in reasons), reasons
