"""The viewer's scene layer (viz.scene): what is drawn for a replay turn, without VTK.

A small seeded game (3 players on a 3×6×6 universe, every piece type and trait in each army) is
played once per module; the tests compare each scene with the replay's truth and observations.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from antipolix import Rules, load_replay, play
from antipolix.agents import GreedyAgent, RandomAgent
from antipolix.combat import Outcome
from antipolix.errors import ReplayError
from antipolix.events import Combat, Crushed, Eliminated, Fate, Moved
from antipolix.observation import UNKNOWN_TRAIT
from antipolix.pieces import Trait
from antipolix.replay import Replay
from viz import View, ViewError, build_scene
from viz.scene import PlayerEntry, Projection

ARMY = ["army+chief", "army+invisible", "hovercraft", "fortress", "hovercraft+teleporter", "army"]


def write_small_replay(path: Path, seed: int = 3) -> Path:
    """A short 3-player game on a 3×6×6 universe with invisible pieces, a teleporter and a
    fortress in every army (seed 3: combats of every outcome, an invisible piece crushed)."""
    rules = Rules(shape=(3, 6, 6), players=3, budget=40)
    play(rules, [GreedyAgent(), GreedyAgent(), RandomAgent()], seed, armies=[ARMY] * 3, replay=path)
    return path


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    return load_replay(write_small_replay(tmp_path_factory.mktemp("viz") / "small.apx.json.gz"))


def first_turn(replay: Replay, kind: type, test=lambda e: True) -> int:
    for t in range(1, replay.last_turn + 1):
        if any(isinstance(e, kind) and test(e) for e in replay.events(t)):
            return t
    pytest.fail(f"no {kind.__name__} event in this game: choose another seed for the fixture")


def test_truth_shows_every_living_piece_at_every_turn(replay: Replay) -> None:
    for t in range(replay.last_turn + 1):
        scene = build_scene(replay, t)
        pieces = replay.state_at(t).pieces()
        assert sorted(scene.glyphs.ids.tolist()) == [p.id for p in pieces]
        assert len(scene.glyphs) == len(pieces)
        # universe mode: cell (z, y, x) is drawn at (x, y, z)
        np.testing.assert_array_equal(scene.glyphs.points, scene.glyphs.cells[:, ::-1])


def test_truth_draws_invisible_pieces_see_through(replay: Replay) -> None:
    scene = build_scene(replay, 0)
    ghost = scene.glyphs.ghost
    assert ghost.any()
    np.testing.assert_array_equal(ghost, scene.glyphs.traits == int(Trait.INVISIBLE))


def test_r6_fog_shows_the_players_observation(replay: Replay) -> None:
    for player in range(replay.rules.players):
        scene = build_scene(replay, 0, View(fog=player))
        obs = replay.observation(player, 0)
        assert sorted(scene.glyphs.ids.tolist()) == sorted(obs.ids.tolist())
        truth = build_scene(replay, 0)
        hidden = {
            int(i)
            for i, o, tr in zip(
                truth.glyphs.ids, truth.glyphs.owners, truth.glyphs.traits, strict=True
            )
            if o != player and tr == int(Trait.INVISIBLE)
        }
        assert hidden, "every army has an invisible piece"
        assert hidden.isdisjoint(scene.glyphs.ids.tolist())
        others = scene.glyphs.owners != player
        assert (scene.glyphs.traits[others] == UNKNOWN_TRAIT).all()  # traits unknown (R6)
        own_ghosts = scene.glyphs.ghost & ~others
        assert own_ghosts.sum() == 1  # its own invisible piece, drawn see-through


def test_r6_fog_draws_only_the_events_the_player_was_told(replay: Replay) -> None:
    t = first_turn(replay, Moved)
    for player in range(replay.rules.players):
        scene = build_scene(replay, t, View(fog=player))
        told = replay.observation(player, t).events
        moves = [e for e in told if isinstance(e, Moved)]
        assert all(e.player == player for e in moves)
        assert sum(line.kind == "move" for line in scene.lines) == len(moves)
    truth = build_scene(replay, t)
    assert sum(line.kind == "move" for line in truth.lines) == sum(
        isinstance(e, Moved) for e in replay.events(t)
    )


@pytest.mark.parametrize("axis", ["z", "y", "x"])
def test_boards_mode_shows_the_chosen_slices_only(replay: Replay, axis: str) -> None:
    a = "zyx".index(axis)
    boards = (0, 2) if axis == "z" else (1, 3, 4)
    pieces = replay.state_at(0).pieces()
    scene = build_scene(replay, 0, View(mode="boards", axis=axis, boards=boards))  # type: ignore[arg-type]
    assert len(scene.panels) == len(boards)
    assert [b.index for b in scene.panels] == list(boards)
    assert len(scene.glyphs) == sum(p.cell[a] in boards for p in pieces)
    assert set(scene.glyphs.cells[:, a].tolist()) <= set(boards)
    # the boards are spread apart: glyphs of different boards never share a world point
    assert len({tuple(p) for p in scene.glyphs.points.tolist()}) == len(scene.glyphs)


def test_slice_mode_shows_one_board(replay: Replay) -> None:
    pieces = replay.state_at(0).pieces()
    scene = build_scene(replay, 0, View(mode="slice", axis="y", slice=2))
    assert len(scene.panels) == 1 and scene.panels[0].label == "y = 2"
    assert len(scene.glyphs) == sum(p.cell[1] == 2 for p in pieces)


def test_projection_places_cells_on_their_board() -> None:
    projection = Projection((8, 16, 16), View(mode="boards", axis="z", boards=(3, 4, 6)))
    points, shown = projection.place([(3, 1, 2), (5, 1, 2), (6, 0, 0)])
    assert shown.tolist() == [True, False, True]
    np.testing.assert_allclose(points[0], (2, 1, 0))
    assert points[2][0] > 2 * 16  # third board, further right
    stacked = Projection((8, 16, 16), View(mode="boards", layout="stack", boards=(3, 4, 6)))
    p, _ = stacked.place([(3, 1, 2), (6, 1, 2)])
    assert p[0][:2].tolist() == p[1][:2].tolist() and p[1][2] > p[0][2]


def test_r8_attack_lines_run_from_each_attacker_to_the_target(replay: Replay) -> None:
    t = first_turn(replay, Combat, lambda e: len(e.pieces) > 0)
    combats = [e for e in replay.events(t) if isinstance(e, Combat)]
    scene = build_scene(replay, t)
    attacks = [line for line in scene.lines if line.kind == "attack"]
    assert len(attacks) == sum(len(c.pieces) for c in combats)
    targets = {tuple(np.asarray(c.cell)[::-1].tolist()) for c in combats}
    assert {tuple(line.points[-1].tolist()) for line in attacks} <= targets
    before = replay.state_at(t - 1)
    starts = {tuple(line.points[0].tolist()) for line in attacks}
    for c in combats:
        for pid in c.pieces:
            assert tuple(np.asarray(before.piece(pid).cell, dtype=float)[::-1].tolist()) in starts
    text = " ".join(label.text for label in scene.labels)
    assert f"{combats[0].attack} vs {combats[0].defence}" in text


@pytest.mark.parametrize(
    ("outcome", "mark"),
    [(Outcome.DESTROY, "destroyed"), (Outcome.CONVERT, "converted"), (Outcome.TELEPORT, None)],
)
def test_r8_outcomes_are_marked(replay: Replay, outcome: Outcome, mark: str | None) -> None:
    t = first_turn(replay, Fate, lambda e: e.outcome is outcome)
    scene = build_scene(replay, t)
    kinds = [m.kind for m in scene.marks]
    if outcome is Outcome.TELEPORT:
        assert any(line.kind == "teleport" for line in scene.lines)
    else:
        assert mark in kinds
    if outcome is Outcome.DESTROY:
        assert "casualty" in kinds  # the destroyed piece's ghost, in its owner's colour


def test_r6_crushed_invisible_piece_is_marked(replay: Replay) -> None:
    t = first_turn(replay, Crushed)
    scene = build_scene(replay, t)
    assert "crushed" in [m.kind for m in scene.marks]
    assert any("crushes" in line for line in scene.log)


def test_eliminations_and_winner_in_the_legend(replay: Replay) -> None:
    t = first_turn(replay, Eliminated)
    out = [e.player for e in replay.events(t) if isinstance(e, Eliminated)]
    scene = build_scene(replay, t)
    assert any("ELIMINATED" in line for line in scene.log)
    for entry in scene.players:
        if entry.player in out:
            assert not entry.alive and f"out at turn {t}" in entry.text
    last = build_scene(replay)
    winner = replay.result.winner
    assert last.turn == replay.last_turn
    if winner is not None:
        assert "winner" in last.players[winner].text and "wins" in last.title


def test_the_legend_counts_one_piece_in_the_singular() -> None:
    entry = PlayerEntry(player=0, agent="greedy", colour="#000080", pieces=1, alive=True, note="")
    assert entry.text == "P0 greedy: 1 piece"
    assert replace(entry, pieces=2).text == "P0 greedy: 2 pieces"
    assert replace(entry, seen=True).text == "P0 greedy: 1 seen"


def test_in_between_frames_glide(replay: Replay) -> None:
    def near(e: Moved) -> bool:  # a glide, not a jump through the teleporters (R5)
        return max(abs(a - b) for a, b in zip(e.src, e.dst, strict=True)) <= 2

    t = first_turn(replay, Moved, near)
    move = next(e for e in replay.events(t) if isinstance(e, Moved) and near(e))
    scene = build_scene(replay, t, progress=0.5)
    row = scene.glyphs.ids.tolist().index(move.piece)
    expected = (np.array(move.src, dtype=float) + np.array(move.dst, dtype=float)) / 2
    np.testing.assert_allclose(scene.glyphs.points[row], expected[::-1])
    end = build_scene(replay, t, progress=1.0)
    assert sorted(end.glyphs.ids.tolist()) == sorted(build_scene(replay, t).glyphs.ids.tolist())


def test_events_can_be_switched_off(replay: Replay) -> None:
    t = first_turn(replay, Combat)
    scene = build_scene(replay, t, View(events=False))
    assert not scene.lines and not scene.marks and not scene.labels and not scene.log


def test_bad_turns_are_refused_with_a_clear_error(replay: Replay) -> None:
    with pytest.raises(ReplayError, match="outside this replay"):
        build_scene(replay, replay.last_turn + 1)
    with pytest.raises(ReplayError, match="outside this replay"):
        build_scene(replay, -1)
    with pytest.raises(ViewError, match="integer"):
        build_scene(replay, True)  # type: ignore[arg-type]


def test_bad_view_options_are_refused_with_a_clear_error(replay: Replay) -> None:
    with pytest.raises(ViewError, match="unknown mode 'spiral'"):
        View(mode="spiral")  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="unknown axis 'w'"):
        View(axis="w")  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="distinct"):
        View(boards=(1, 1, 2))
    with pytest.raises(ViewError, match="board 3 is outside"):
        build_scene(replay, 0, View(mode="boards", boards=(3, 4, 5)))  # only 3 boards along z
    with pytest.raises(ViewError, match="no player 3"):
        build_scene(replay, 0, View(fog=3))


def test_viz_reads_games_through_the_engine_s_public_api_only() -> None:
    """The engine's piece table (``game.board``, :mod:`antipolix.state`) will be replaced by a
    compiled core: viz reads a game through ``Game``'s public API (``pieces``, ``piece``,
    ``observe``, ``living``) and touches no private name of another object."""
    found = []
    for path in sorted((Path(__file__).parents[1] / "viz").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom) and (node.module or "") == "antipolix.state":
                found.append(f"{where} imports antipolix.state")
            if not isinstance(node, ast.Attribute):
                continue
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            if node.attr == "board" or (private and not own):
                found.append(f"{where} reads .{node.attr}")
    assert found == []
