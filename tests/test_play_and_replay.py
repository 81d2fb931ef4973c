"""Whole games (``antipolix.play``), replay files, and the ``play`` / ``replay`` commands.

R4 (orders), R7 (think times), R10 (results), R12 (one seed, the full truth in the replay, the
observation hides what R6 hides). Games are small (4×8×8, 2 players, at most 60 turns).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from antipolix import Game, Move, Pass, Rules, __version__, load_replay, play
from antipolix.agents import Agent, Decision, GivenArmy, GreedyAgent, RandomAgent
from antipolix.cli import main
from antipolix.codec import parse_item, rules_from_dict
from antipolix.errors import AgentError, ReplayError
from antipolix.pieces import Trait, TypeSpec, TypeTable
from antipolix.play import play_game, verify
from antipolix.replay import CHECKPOINT_EVERY, FORMAT, VERSION
from antipolix.watch import Hooks

ROOT = Path(__file__).resolve().parents[1]
SMALL = Rules(shape=(4, 8, 8), players=2, max_turns=60)
# a bigger budget and given armies with invisible pieces on both sides (R6)
RULES = Rules(shape=(4, 8, 8), players=2, max_turns=60, budget=20)
ARMIES = [
    ["hovercraft+chief", "army+invisible", "army", "hovercraft"],
    ["army+chief", "army+invisible", "hovercraft+invisible"],
]
SEED = 2  # a game that lasts to the turn limit, 60 turns


# -- agents that misbehave -------------------------------------------------------------------------


class Boom(Agent):
    """Raises from ``act`` in turn ``at_turn``; passes before."""

    name = "boom"

    def __init__(self, at_turn: int = 1) -> None:
        super().__init__()
        self.at_turn = at_turn

    def act(self, obs):
        if obs.turn + 1 >= self.at_turn:
            raise RuntimeError("kaput")
        return Decision(Pass(), think_time=1.0)


class Returns(Agent):
    """Returns ``value`` from ``act``."""

    name = "returns"

    def __init__(self, value: object) -> None:
        super().__init__()
        self.value = value

    def act(self, obs):
        return self.value


class Thief(Agent):
    """Orders a move of another player's piece."""

    name = "thief"

    def act(self, obs):
        theirs = np.flatnonzero(obs.owners != obs.player)
        row = int(theirs[0])
        return Move(int(obs.ids[row]), tuple(int(c) for c in obs.cells[row]))


class Idle(Agent):
    """Not a built-in agent: passes after one second."""

    name = "idle"

    def act(self, obs):
        return Decision(Pass(), think_time=1.0)


# -- replay files as data --------------------------------------------------------------------------


def read_lines(path: Path) -> list[bytes]:
    return gzip.decompress(path.read_bytes()).splitlines(keepends=True)


def line(obj: dict) -> bytes:
    return (json.dumps(obj, separators=(",", ":")) + "\n").encode()


def write_lines(path: Path, lines: list[bytes], *, checksum: bool) -> Path:
    """Write ``lines`` (gzip); with ``checksum``, replace the end record by a correct one."""
    if checksum:
        body = lines[:-1]
        digest = hashlib.sha256(b"".join(body)).hexdigest()
        lines = [*body, line({"type": "end", "lines": len(body), "sha256": digest})]
    path.write_bytes(gzip.compress(b"".join(lines)))
    return path


def edit(good: Path, out: Path, change, *, checksum: bool) -> Path:
    """A copy of ``good`` with ``change(records)`` applied to its parsed records."""
    lines = read_lines(good)
    records = [json.loads(x) for x in lines]
    change(records)
    return write_lines(out, [line(r) for r in records], checksum=checksum)


def first_turn_with(records: list[dict], kind: str) -> tuple[dict, dict]:
    for rec in records:
        if rec["type"] == "turn":
            for event in rec["events"]:
                if event["kind"] == kind:
                    return rec, event
    raise AssertionError(f"no {kind} event in the replay")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory):
    """One random game with a replay, and the truth seen while it was played."""
    path = tmp_path_factory.mktemp("replay") / "game.apx.json.gz"
    snapshots: dict[int, tuple] = {}
    observations: dict[int, list] = {}

    def snap(game: Game) -> None:
        snapshots[game.turn] = (game.pieces(), game.timers, game.living, game.result)
        observations[game.turn] = [game.observe(p) for p in range(game.rules.players)]

    played = play_game(
        RULES,
        [RandomAgent(), RandomAgent(mean_think=2.0)],
        SEED,
        armies=ARMIES,
        keep_reports=True,
        watchers=[
            Hooks(on_start=lambda p: snap(p.game), on_turn=lambda game, r, d: snap(game)),
            _writer(path),
        ],
    )
    return path, played, snapshots, observations


def _writer(path: Path):
    from antipolix.replay import ReplayWriter

    return ReplayWriter(path)


# -- play ------------------------------------------------------------------------------------------


def test_r10_play_returns_the_games_result(tmp_path: Path) -> None:
    agents = [GreedyAgent(), RandomAgent()]
    result = play(SMALL, agents, seed=3, replay=tmp_path / "g.apx.json.gz")
    played = play_game(SMALL, agents, seed=3)
    assert result == played.result == played.game.result
    assert result.turns == played.game.turn
    assert load_replay(tmp_path / "g.apx.json.gz").result == result


def test_r12_same_seed_same_game_and_same_replay_bytes(tmp_path: Path) -> None:
    agents = [GreedyAgent(), RandomAgent()]
    a = play(SMALL, agents, seed=8, replay=tmp_path / "a.apx.json.gz")
    b = play(SMALL, agents, seed=8, replay=tmp_path / "b.apx.json.gz")
    assert a == b
    assert (tmp_path / "a.apx.json.gz").read_bytes() == (tmp_path / "b.apx.json.gz").read_bytes()


def test_r12_different_seed_different_game() -> None:
    agents = [RandomAgent(), RandomAgent()]
    one = play_game(SMALL, agents, seed=1, keep_reports=True)
    two = play_game(SMALL, agents, seed=2, keep_reports=True)
    assert one.armies != two.armies
    assert [r.events for r in one.reports] != [r.events for r in two.reports]


def test_r3_given_armies_are_placed(tmp_path: Path) -> None:
    given = ["hovercraft+chief", "army", "army+invisible", "hovercraft"]
    path = tmp_path / "g.apx.json.gz"
    played = play_game(SMALL, ["random", "greedy"], seed=2, armies=[given, None])
    assert [(p.type, p.trait) for p in played.armies[0]] == [parse_item(i) for i in given]
    default = play_game(SMALL, ["random", "greedy"], seed=2)
    kinds = [[(p.type, p.trait) for p in seat] for seat in (played.armies[1], default.armies[1])]
    assert kinds[0] == kinds[1]  # seat 1 keeps its own policy and generator (R12)
    play(SMALL, ["random", "greedy"], seed=2, armies=[given, None], replay=path)
    assert load_replay(path).armies == [given, None]


def test_an_agent_may_return_a_bare_order() -> None:
    result = play(SMALL, [Returns(Pass()), GreedyAgent()], seed=0)
    assert result.winner == 1


# -- bad input: clear errors, nothing corrupted ----------------------------------------------------


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        (["random"], "2 players need 2 agents, got 1"),
        (["random", "greedy", "random"], "2 players need 2 agents, got 3"),
        ("random", "agents must be a list with one agent per seat"),
        ([RandomAgent, RandomAgent()], r"seat 0: got the class RandomAgent; pass an agent object"),
        ([RandomAgent(), "nobody"], r"unknown agent 'nobody' \(built-in agents: .*greedy"),
        ([RandomAgent(), object()], "seat 1: an agent must be an antipolix.agents.Agent"),
    ],
)
def test_bad_agent_lists_are_refused(agents, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        play(SMALL, agents, seed=0)


def test_armies_must_have_one_entry_per_seat() -> None:
    with pytest.raises(AgentError, match=r"one entry \(or None\) per seat"):
        play(SMALL, ["random", "random"], seed=0, armies=[None])


def test_an_agent_that_raises_is_named_with_its_seat_and_turn() -> None:
    with pytest.raises(AgentError, match=r"agent 'boom' \(seat 1\) at turn 3: kaput") as info:
        play(SMALL, [Idle(), Boom(at_turn=3)], seed=0)
    assert isinstance(info.value.__cause__, RuntimeError)
    assert str(info.value.__cause__) == "kaput"


def test_a_failing_agent_leaves_the_game_at_the_last_whole_turn() -> None:
    seen: dict = {}

    def on_start(played) -> None:
        seen["game"] = played.game

    def on_turn(game, report, decisions) -> None:
        seen[game.turn] = (game.pieces(), game.timers)

    with pytest.raises(AgentError, match="at turn 3"):
        play_game(
            SMALL,
            [Idle(), Boom(at_turn=3)],
            0,
            watchers=[Hooks(on_start=on_start, on_turn=on_turn)],
        )
    game = seen["game"]
    assert game.turn == 2 and game.result is None
    assert (game.pieces(), game.timers) == seen[2]  # nothing of turn 3 happened
    game.play_turn({p: Pass() for p in game.living})  # and the game still works
    assert game.turn == 3


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, "None"), ("Pass", "'Pass'"), (Decision, "<class"), (42, "42")],
)
def test_an_agent_that_returns_no_order_is_named(value, shown: str) -> None:
    pattern = (
        r"agent 'returns' \(seat 0\) at turn 1: act\(\) must return a Decision or an order "
        rf"\(Move, Attack, Pass\), got {re.escape(shown)}"
    )
    with pytest.raises(AgentError, match=pattern):
        play(SMALL, [Returns(value), RandomAgent()], seed=0)


@pytest.mark.parametrize(
    ("decision", "message"),
    [
        (Decision(Pass(), think_time=-1.0), "think time must be a finite number >= 0"),
        (Decision(Pass(), think_time=float("nan")), "think time must be a finite number >= 0"),
        (Decision(Move(-1, (0, 0, 0))), r"player 0 has no piece -1"),
        (Decision(Pass(), messages=("hello",)), "a message must be a Message or a Command"),
    ],
)
def test_a_submission_the_engine_refuses_names_the_agent_and_turn(decision, message) -> None:
    with pytest.raises(AgentError, match=r"agent 'returns' \(seat 0\) at turn 1: ") as info:
        play(SMALL, [Returns(decision), RandomAgent()], seed=0)
    assert re.search(message, str(info.value))


def test_r4_a_move_of_a_piece_the_agent_does_not_own_is_named() -> None:
    with pytest.raises(
        AgentError, match=r"agent 'thief' \(seat 1\) at turn 1: .*is player 0's, not yours"
    ):
        play(SMALL, [RandomAgent(), Thief()], seed=0)


def test_r3_an_army_over_budget_is_named_with_its_seat() -> None:
    over = GivenArmy(["army+chief", "fortress", "fortress"])  # 27 > 15
    with pytest.raises(AgentError, match=r"agent 'greedy' \(seat 1\) when choosing its army"):
        play(SMALL, [RandomAgent(), GreedyAgent(army=over)], seed=0)


def test_r3_an_army_that_does_not_fit_its_zone_is_named_with_its_seat() -> None:
    rules = Rules(shape=(4, 8, 8), players=2, piece_types=TypeTable(hovercraft=TypeSpec(0, 1, 2)))
    crowd = GivenArmy(["army+chief"] + ["hovercraft"] * 40)  # costs 3; the zone has 36 cells
    assert rules.home_zones is not None and rules.home_zones[0].volume == 36
    with pytest.raises(AgentError, match=r"agent 'random' \(seat 0\)"):
        play(rules, [RandomAgent(army=crowd), RandomAgent()], seed=0)


@pytest.mark.parametrize(
    "agents",
    [[Idle(), Boom(at_turn=5)], [RandomAgent(), GreedyAgent(army=GivenArmy(["army"]))]],
    ids=["fails in play", "fails in setup"],
)
def test_a_failed_game_leaves_no_replay_file(tmp_path: Path, agents) -> None:
    with pytest.raises(AgentError):
        play(SMALL, agents, seed=0, replay=tmp_path / "g.apx.json.gz")
    assert list(tmp_path.iterdir()) == []  # no replay, no temporary file


def test_a_bad_replay_path_fails_before_the_game_is_played(tmp_path: Path) -> None:
    # Boom would raise an AgentError in turn 1: a ReplayError shows that nothing was played
    agents = [Boom(), Boom()]
    with pytest.raises(ReplayError, match="does not exist"):
        play(SMALL, agents, seed=0, replay=tmp_path / "missing" / "g.apx.json.gz")
    (tmp_path / "file").write_text("")
    with pytest.raises(ReplayError, match="does not exist"):
        play(SMALL, agents, seed=0, replay=tmp_path / "file" / "g.apx.json.gz")
    with pytest.raises(ReplayError, match="is a folder"):
        play(SMALL, agents, seed=0, replay=tmp_path)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_replay_folder_fails_before_the_game_is_played(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(ReplayError, match="not writable"):
            play(SMALL, [Boom(), Boom()], seed=0, replay=folder / "g.apx.json.gz")
    finally:
        folder.chmod(0o700)


# -- replay content --------------------------------------------------------------------------------


def test_replay_is_gzip_json_lines_with_a_checksummed_end(recorded) -> None:
    path, played, _, _ = recorded
    lines = read_lines(path)
    records = [json.loads(x) for x in lines]
    kinds = [r["type"] for r in records]
    assert kinds == ["header", "placement", *["turn"] * played.result.turns, "result", "end"]
    end = records[-1]
    assert end["lines"] == len(lines) - 1
    assert end["sha256"] == hashlib.sha256(b"".join(lines[:-1])).hexdigest()
    result = records[-2]
    assert result["turns"] == played.result.turns
    assert result["reason"] == played.result.reason.name
    assert result["winner"] == played.result.winner


def test_replay_header(recorded) -> None:
    path, _, _, _ = recorded
    header = json.loads(read_lines(path)[0])
    assert header["format"] == FORMAT == "antipolix-replay"
    assert header["version"] == VERSION == 2
    assert header["engine"] == __version__
    assert rules_from_dict(header["rules"]) == RULES
    assert header["agents"] == [RandomAgent().spec(), RandomAgent(mean_think=2.0).spec()]
    assert header["armies"] == ARMIES
    assert header["seed"] == {"entropy": SEED, "spawn_key": []}
    replay = load_replay(path)
    assert replay.rules == RULES
    assert replay.agents == ("random", "random")
    assert replay.seed.entropy == SEED
    assert replay.engine_version == __version__


def test_replay_turns_record_orders_think_times_and_reception(recorded) -> None:
    path, played, _, _ = recorded
    records = [json.loads(x) for x in read_lines(path)]
    turns = [r for r in records if r["type"] == "turn"]
    for rec, report in zip(turns, played.reports, strict=True):
        assert rec["turn"] == report.turn
        assert rec["reception"] == list(report.reception)
        assert rec["events"] == [e.to_dict() for e in report.events]
        assert set(rec["orders"]) == set(rec["think"]) == {"0", "1"}
        # R7: reception order is ascending think time
        times = [rec["think"][str(p)] for p in rec["reception"]]
        assert times == sorted(times)


def test_replay_placement_equals_the_placed_pieces(recorded) -> None:
    path, played, snapshots, _ = recorded
    replay = load_replay(path)
    placed = [p for seat in played.armies for p in seat]
    assert replay.placement == [
        {
            "id": p.id,
            "owner": p.owner,
            "type": p.type.name,
            "trait": p.trait.name,
            "cell": list(p.cell),
        }
        for p in placed  # in the order placed, seat by seat
    ]
    assert replay.state_at(0).pieces() == snapshots[0][0]


def test_r12_state_at_equals_the_game_at_that_turn(recorded) -> None:
    path, played, snapshots, _ = recorded
    replay = load_replay(path)
    last = replay.last_turn
    assert last == played.result.turns == 60 > CHECKPOINT_EVERY + 1
    for turn in sorted(
        {0, 1, 7, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, last}
    ):
        game = replay.state_at(turn)
        assert game.turn == turn
        assert (game.pieces(), game.timers, game.living, game.result) == snapshots[turn], turn


def test_state_at_gives_a_fresh_game_each_time(recorded) -> None:
    path, _, snapshots, _ = recorded
    replay = load_replay(path)
    game = replay.state_at(CHECKPOINT_EVERY)
    game.play_turn({p: Pass() for p in game.living})
    assert replay.state_at(CHECKPOINT_EVERY).pieces() == snapshots[CHECKPOINT_EVERY][0]
    assert replay.state_at(CHECKPOINT_EVERY + 1).pieces() == snapshots[CHECKPOINT_EVERY + 1][0]


def test_replay_events_equal_the_reported_events(recorded) -> None:
    path, played, _, _ = recorded
    replay = load_replay(path)
    for turn, report in enumerate(played.reports, start=1):
        assert replay.events(turn) == report.events
    assert list(replay) == played.reports


def same_observation(a, b) -> bool:
    arrays = all(
        np.array_equal(getattr(a, n), getattr(b, n))
        for n in ("ids", "owners", "types", "traits", "cells")
    )
    fields = ("player", "turn", "timer", "living", "nul", "messages", "events")
    return arrays and all(getattr(a, n) == getattr(b, n) for n in fields)


def test_r6_r12_replay_observation_equals_what_the_player_saw(recorded) -> None:
    path, _, _, observations = recorded
    replay = load_replay(path)
    for turn in (0, 1, 2, CHECKPOINT_EVERY, replay.last_turn):
        for player in (0, 1):
            assert same_observation(replay.observation(player, turn), observations[turn][player])


def test_r6_replay_observation_hides_enemy_invisible_pieces(recorded) -> None:
    path, _, _, _ = recorded
    replay = load_replay(path)
    for turn in (0, replay.last_turn):
        truth = replay.state_at(turn)
        for player, enemy in ((0, 1), (1, 0)):
            hidden = {p.id for p in truth.pieces(enemy) if p.trait is Trait.INVISIBLE}
            own = {p.id for p in truth.pieces(player)}
            seen = set(replay.observation(player, turn).ids.tolist())
            assert own <= seen
            assert not hidden & seen
    at_start = replay.state_at(0)
    assert any(p.trait is Trait.INVISIBLE for p in at_start.pieces(0))
    assert any(p.trait is Trait.INVISIBLE for p in at_start.pieces(1))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: r.state_at(-1), r"turn -1 is outside this replay \(turns 0 to 60"),
        (lambda r: r.state_at(61), r"turn 61 is outside this replay"),
        (lambda r: r.state_at(1.5), r"a turn is an integer, got 1.5"),
        (lambda r: r.state_at(True), r"a turn is an integer, got True"),
        (lambda r: r.events(0), r"turn 0 is the placement; it has no events"),
        (lambda r: r.events(61), r"turn 61 is outside this replay"),
        (lambda r: r.observation(2, 0), r"there is no player 2 \(players are 0..1\)"),
        (lambda r: r.observation(-1, 0), r"there is no player -1"),
        (lambda r: r.observation("0", 0), r"there is no player '0'"),
        (lambda r: r.observation(0, 99), r"turn 99 is outside this replay"),
    ],
)
def test_replay_queries_out_of_range_are_refused(recorded, call, message: str) -> None:
    replay = load_replay(recorded[0])
    with pytest.raises(ReplayError, match=message):
        call(replay)


def test_an_uncompressed_replay_is_plain_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "g.apx.jsonl"
    result = play(SMALL, ["greedy", "random"], seed=4, replay=path)
    first = json.loads(path.read_text().splitlines()[0])
    assert first["type"] == "header"
    assert load_replay(path).result == result


# -- corrupt, truncated, foreign, edited, newer ----------------------------------------------------


def _missing(good: Path, d: Path) -> Path:
    return d / "nope.apx.json.gz"


def _empty(good: Path, d: Path) -> Path:
    (d / "empty.apx.json.gz").write_bytes(b"")
    return d / "empty.apx.json.gz"


def _random_bytes(good: Path, d: Path) -> Path:
    data = np.random.default_rng(0).bytes(3000)
    assert data[:2] != b"\x1f\x8b"
    (d / "noise.apx.json.gz").write_bytes(data)
    return d / "noise.apx.json.gz"


def _foreign_json(good: Path, d: Path) -> Path:
    (d / "package.json").write_text('{"name": "left-pad", "version": "1.3.0"}\n')
    return d / "package.json"


def _foreign_header(good: Path, d: Path) -> Path:
    (d / "other.json").write_text('{"type": "header", "format": "some-other-format"}\n')
    return d / "other.json"


def _gzip_text(good: Path, d: Path) -> Path:
    (d / "notes.gz").write_bytes(gzip.compress(b"dear diary\ntoday I played antipolix\n"))
    return d / "notes.gz"


def _folder(good: Path, d: Path) -> Path:
    (d / "dir.apx.json.gz").mkdir()
    return d / "dir.apx.json.gz"


def _cut(n: int):
    def cut(good: Path, d: Path) -> Path:
        raw = good.read_bytes()
        (d / "cut.apx.json.gz").write_bytes(raw[: -n if n > 0 else len(raw) // 2])
        return d / "cut.apx.json.gz"

    return cut


def _damaged_gzip(good: Path, d: Path) -> Path:
    raw = bytearray(good.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    (d / "damaged.apx.json.gz").write_bytes(bytes(raw))
    return d / "damaged.apx.json.gz"


def _drop_last_lines(good: Path, d: Path) -> Path:
    return write_lines(d / "short.apx.json.gz", read_lines(good)[:-3], checksum=False)


def _drop_a_turn(good: Path, d: Path) -> Path:
    lines = read_lines(good)
    return write_lines(d / "hole.apx.json.gz", lines[:5] + lines[6:], checksum=False)


def _move_elsewhere(records: list[dict]) -> None:
    _, event = first_turn_with(records, "Moved")
    z, y, x = event["dst"]
    event["dst"] = [z, y, x + 1 if x < 7 else x - 1]


def _edited(good: Path, d: Path) -> Path:
    return edit(good, d / "edited.apx.json.gz", _move_elsewhere, checksum=False)


def _edited_resigned(good: Path, d: Path) -> Path:
    return edit(good, d / "resigned.apx.json.gz", _move_elsewhere, checksum=True)


def _newer(good: Path, d: Path) -> Path:
    return edit(good, d / "v3.apx.json.gz", lambda r: r[0].update(version=3), checksum=True)


def _older(good: Path, d: Path) -> Path:
    return edit(good, d / "v1.apx.json.gz", lambda r: r[0].update(version=1), checksum=True)


def _placement_edited(good: Path, d: Path) -> Path:
    def swap_ids(records: list) -> None:
        pieces = records[1]["pieces"]
        pieces[0]["id"], pieces[1]["id"] = pieces[1]["id"], pieces[0]["id"]

    return edit(good, d / "ids.apx.json.gz", swap_ids, checksum=True)


def _result_changed(good: Path, d: Path) -> Path:
    return edit(good, d / "won.apx.json.gz", lambda r: r[-2].update(winner=1), checksum=True)


CORRUPT = {
    "missing": (_missing, r"replay .*nope.apx.json.gz does not exist"),
    "empty": (_empty, r"replay .*empty.apx.json.gz is empty"),
    "folder": (_folder, r"is a folder, not a file"),
    "random bytes": (_random_bytes, r"is not an antipolix replay"),
    "foreign json": (
        _foreign_json,
        r"package.json is (not an antipolix replay|corrupt: line 1 is not a replay record)",
    ),
    "foreign header": (
        _foreign_header,
        r"other.json is not an antipolix replay \(no replay header\)",
    ),
    "gzip of text": (_gzip_text, r"notes.gz is not an antipolix replay"),
    "gzip cut 1 byte": (_cut(1), r"is truncated"),
    "gzip cut 9 bytes": (_cut(9), r"is truncated"),
    "gzip cut in half": (_cut(0), r"is truncated"),
    "gzip damaged": (_damaged_gzip, r"is (corrupt|truncated)"),
    "last lines dropped": (_drop_last_lines, r"is truncated: .* no end record"),
    "a turn dropped": (_drop_a_turn, r"was edited or damaged: line 6 holds turn 5 where turn 4"),
    "event edited": (_edited, r"was edited or damaged: its checksum does not match"),
    "event edited, checksum redone": (_edited_resigned, r"turn \d+ does not replay as recorded"),
    "result edited, checksum redone": (
        _result_changed,
        r"recorded result .* differs from the re-played",
    ),
    "newer version": (
        _newer,
        r"format version 3; this antipolix .* reads versions up to 2: upgrade",
    ),
    "older version": (_older, r"format version 1, from an older antipolix .* play the game again"),
    "placement identifiers edited": (_placement_edited, r"placement was edited"),
}


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_bad_replay_files_are_refused_with_a_reason(
    recorded, tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make, message = CORRUPT[case]
    bad = make(recorded[0], tmp_path)
    with pytest.raises(ReplayError, match=message):
        load_replay(bad)
    assert main(["replay", "verify", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("antipolix: error: ")
    assert re.search(message, captured.err)
    assert "Traceback" not in captured.err


def test_bad_replay_on_the_command_line_has_no_traceback(recorded, tmp_path: Path) -> None:
    bad = _edited_resigned(recorded[0], tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "antipolix", "replay", "verify", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("antipolix: error: replay ")
    assert "does not replay as recorded" in proc.stderr


def _orders_not_a_table(records: list[dict]) -> None:
    records[2]["orders"] = []


def _unknown_piece_type(records: list[dict]) -> None:
    records[1]["pieces"][0]["type"] = "TANK"


def _cell_not_numbers(records: list[dict]) -> None:
    records[1]["pieces"][0]["cell"] = "abc"


@pytest.mark.parametrize(
    "change",
    [_orders_not_a_table, _unknown_piece_type, _cell_not_numbers],
    ids=lambda f: f.__name__,
)
def test_malformed_records_with_a_valid_checksum_are_refused(
    recorded, tmp_path: Path, change
) -> None:
    bad = edit(recorded[0], tmp_path / "bad.apx.json.gz", change, checksum=True)
    with pytest.raises(ReplayError, match=r"malformed|not valid|corrupt"):
        load_replay(bad)


def _rules_key_dropped(records: list[dict]) -> None:
    del records[0]["rules"]["max_turns"]
    del records[0]["rules"]["hovercraft"]["move"]


def _agent_dropped(records: list[dict]) -> None:
    records[0]["agents"].pop()


def _agent_nameless(records: list[dict]) -> None:
    records[0]["agents"][1] = {"params": {}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_rules_key_dropped, r"its rules lack max_turns, hovercraft.move \(a replay records"),
        (_agent_dropped, r"its header names 1 agents for 2 players"),
        (_agent_nameless, r"seat 1's agent has no name"),
    ],
    ids=lambda v: getattr(v, "__name__", "message"),
)
def test_a_header_that_cannot_be_a_replay_is_refused_even_with_a_good_checksum(
    recorded, tmp_path: Path, change, message: str
) -> None:
    """Missing rule options were filled with defaults and the file verified "OK"."""
    bad = edit(recorded[0], tmp_path / "bad.apx.json.gz", change, checksum=True)
    with pytest.raises(ReplayError, match=message):
        load_replay(bad)


def test_a_replay_is_read_as_a_stream_and_stops_at_the_first_bad_record(
    recorded, tmp_path: Path
) -> None:
    """A valid header then millions of short lines (a few KB compressed): refused at line 2
    without reading the rest (it took gigabytes)."""
    header = read_lines(recorded[0])[0]
    bad = tmp_path / "short-lines.apx.json.gz"
    bad.write_bytes(gzip.compress(header + b"{}\n" * 5_000_000, compresslevel=9))
    assert bad.stat().st_size < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(ReplayError, match="line 2 is not a replay record"):
            load_replay(bad)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5 * 2**20, f"{peak / 2**20:.0f} MB to refuse a bad line 2"


def test_a_replay_may_not_decompress_beyond_its_caps(
    recorded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = read_lines(recorded[0])
    long_line = tmp_path / "long-line.apx.json.gz"
    long_line.write_bytes(gzip.compress(lines[0] + b'{"type":"placement","x":"' + b"a" * 2**25))
    tracemalloc.start()
    try:
        with pytest.raises(ReplayError, match="line 2 is longer than 16 MB"):
            load_replay(long_line)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20
    noise = tmp_path / "noise.apx.json.gz"
    noise.write_bytes(gzip.compress(b"x" * 2**23))  # no newline at all
    with pytest.raises(ReplayError, match=r"not an antipolix replay .* longer than 4 MB"):
        load_replay(noise)
    import antipolix.replay as replay_module

    monkeypatch.setattr(replay_module, "MAX_REPLAY_BYTES", len(b"".join(lines)) // 2)
    with pytest.raises(ReplayError, match=r"holds more than .* of data .*once decompressed"):
        load_replay(recorded[0])


def test_a_replay_with_more_turns_than_its_limit_is_refused(recorded, tmp_path: Path) -> None:
    def lower_limit(records: list[dict]) -> None:
        records[0]["rules"]["max_turns"] = 10

    bad = edit(recorded[0], tmp_path / "long.apx.json.gz", lower_limit, checksum=True)
    with pytest.raises(ReplayError, match=r"more turns than its turn limit \(10\)"):
        load_replay(bad)


# -- verify ----------------------------------------------------------------------------------------


def test_verify_says_plainly_what_it_could_not_check(
    recorded, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seat's agent renamed to an unknown name (checksum redone): the events still replay,
    the decisions cannot be checked, and verify says so with exit code 1 (it said "OK")."""

    def rename(records: list[dict]) -> None:
        records[0]["agents"][1]["name"] = "nobody"

    bad = edit(recorded[0], tmp_path / "renamed.apx.json.gz", rename, checksum=True)
    assert main(["replay", "verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{bad}: PARTLY VERIFIED: 60 of 60 turns replay event by event")
    assert "decisions were NOT checked: seat 1's agent 'nobody' is not a built-in agent" in out
    assert "OK" not in out
    assert main(["replay", "verify", str(recorded[0])]) == 0
    assert capsys.readouterr().out.startswith(f"{recorded[0]}: OK: ")


def test_verify_plays_the_builtin_agents_again(
    recorded, capsys: pytest.CaptureFixture[str]
) -> None:
    path = recorded[0]
    report = verify(load_replay(path))
    assert report.agents_rerun
    assert report.turns == report.turns_checked == 60
    assert str(report).startswith("OK: 60 of 60 turns replay event by event")
    assert main(["replay", "verify", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: OK: ")


def test_verify_checks_the_agents_decisions(tmp_path: Path) -> None:
    # Recorded with RandomAgent(mean_think=1.0) in both seats; the edited header says 2.0. The
    # recorded orders still replay event by event, but the agents played again draw the same
    # orders with doubled think times (same reception order, same game length: 3 turns), so
    # verify finds their first decision differs from the file.
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=3)
    path = tmp_path / "g.apx.json.gz"
    play(rules, [RandomAgent(), RandomAgent()], seed=6, replay=path)

    def claim(records: list[dict]) -> None:
        for spec in records[0]["agents"]:
            spec["params"]["mean_think"] = 2.0

    bad = edit(path, tmp_path / "claim.apx.json.gz", claim, checksum=True)
    replay = load_replay(bad)  # the engine check passes
    with pytest.raises(ReplayError, match=r"at turn 1 the agents played again decide"):
        verify(replay)


def test_verify_with_custom_agents_checks_the_engine_only(tmp_path: Path) -> None:
    path = tmp_path / "idle.apx.json.gz"
    result = play(SMALL, [Idle(), RandomAgent()], seed=5, replay=path)
    report = verify(load_replay(path))
    assert not report.agents_rerun and not report.complete
    assert report.turns_checked == result.turns
    assert str(report).startswith("PARTLY VERIFIED: ")
    assert "seat 0's agent 'idle' is not a built-in agent" in str(report)
    with pytest.raises(ReplayError, match="does not replay as recorded"):
        load_replay(_edited_resigned(path, tmp_path))


# -- command line ----------------------------------------------------------------------------------


def test_cli_play_prints_log_and_summary_and_writes_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.apx.json.gz"
    argv = ["play", "--agents", "greedy,random", "--seed", "3", "--rule", "shape=4,8,8"]
    assert main([*argv, "--replay", str(path), "--log"]) == 0
    out = capsys.readouterr().out
    replay = load_replay(path)
    result, names = replay.result, ["greedy", "random"]
    # budget: floor(12 × 4·8·8 / 100 / 2) = floor(15.36) = 15 (R3); turn limit by default 1000
    assert out.splitlines()[0] == (
        "AntipoliX: 2 players (greedy, random) on a 4×8×8 board, seed 3, an army budget of 15 "
        "points a player (R3), turn limit 1000 turns"
    )
    assert re.search(r"^army of P0 \(greedy, \d+ pieces, 1[0-5] points\): ", out, flags=re.M)
    assert re.search(r"^army of P1 \(random, \d+ pieces, \d+ points\): ", out, flags=re.M)
    assert len(re.findall(r"^turn +\d+: ", out, flags=re.M)) == result.turns  # one per turn
    winner = "draw" if result.winner is None else f"P{result.winner} ({names[result.winner]}) wins"
    assert f"result: {winner}, {result.reason.value}, after {result.turns} turns" in out
    for player in result.elimination_order:
        assert re.search(
            rf"^  turn +\d+: P{player} \({names[player]}\) eliminated", out, flags=re.M
        )
    assert "pieces at the end (points: their cost" in out
    for seat, name in enumerate(names):
        assert re.search(rf"^  P{seat} \({name}\) +\d+ pieces, +\d+ points", out, flags=re.M)
    assert out.rstrip().endswith(f"replay written to {path}")
    assert replay.rules == Rules(shape=(4, 8, 8), players=2)
    assert replay.seed.entropy == 3


def test_cli_play_reads_a_rules_file_and_overrides(tmp_path: Path, capsys) -> None:
    rules_file = tmp_path / "small.toml"
    rules_file.write_text("shape = [4, 8, 8]\nmax_turns = 25\n\n[hovercraft]\ncost = 1\n")
    path = tmp_path / "g.apx.json.gz"
    argv = ["play", "--agents", "random,random", "--seed", "1", "--rules", str(rules_file)]
    assert main([*argv, "--replay", str(path)]) == 0
    assert "turn limit 25" in capsys.readouterr().out
    want = Rules(
        shape=(4, 8, 8),
        players=2,
        max_turns=25,
        piece_types=TypeTable(hovercraft=TypeSpec(1, 1, 2)),
    )
    assert load_replay(path).rules == want
    assert main([*argv, "--rule", "max_turns=10", "--replay", str(path)]) == 0
    assert load_replay(path).rules.max_turns == 10  # --rule wins over the file


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--rule", "colour=red"], r"unknown option 'colour'"),
        (["--rule", "players=eleven"], r"players must be an integer from 2 to 10, got 'eleven'"),
        (["--rule", "players"], r"a rule override is KEY=VALUE .*got 'players'"),
        (["--rule", "hovercraft.speed=3"], r"hovercraft\.speed"),
        (["--rule", "tank.cost=1"], r"unknown option 'tank\.cost'"),
        (["--rule", "players=3"], r"the rules are for 3 players but 2 agents are given"),
        (["--rules", "missing.toml"], r"rules file missing.toml does not exist"),
    ],
)
def test_cli_rule_errors_name_the_option(
    extra, message: str, capsys, tmp_path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--agents", "greedy,random", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: ")
    assert re.search(message, err), err
    assert not list(tmp_path.iterdir())


def test_cli_players_in_a_rules_file_must_match_the_agents(tmp_path: Path, capsys) -> None:
    rules_file = tmp_path / "three.toml"
    rules_file.write_text("players = 3\nshape = [4, 8, 8]\n")
    assert main(["play", "--agents", "greedy,random", "--rules", str(rules_file)]) == 2
    err = capsys.readouterr().err  # (a rules file names its players: the way to another count)
    assert "the rules are for 3 players but 2 agents are given: --agents names one agent a " in err
    assert err.endswith("seat (or --rule players=2 for a game of 2)\n")
    argv = ["play", "--agents", "greedy,random", "--rules", str(rules_file), "--seed", "1"]
    assert main([*argv, "--rule", "players=2"]) == 0
    assert capsys.readouterr().out.startswith("AntipoliX: 2 players (greedy, random) on a 4×8×8")


def test_cli_without_agents_seats_the_default_lineup_for_the_rules_players(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """No --agents: the command's default lineup takes as many seats as the rules name, its
    agents in turn (the demo's greedy, greedy, random, greedy: three seats of it); it was the
    default's four agents, and ``--rule players=3`` alone was refused for agents never given."""
    monkeypatch.chdir(tmp_path)
    small = ["--rule", "shape=4,8,8", "--seed", "4"]
    assert main(["play", "--rule", "players=3", *small]) == 0
    assert capsys.readouterr().out.startswith("AntipoliX: 3 players (greedy, greedy, greedy) ")
    rules_file = tmp_path / "five.toml"
    rules_file.write_text("players = 5\nshape = [4, 10, 10]\n")
    assert main(["play", "--rules", str(rules_file), "--seed", "4"]) == 0
    assert capsys.readouterr().out.startswith("AntipoliX: 5 players (greedy, greedy, greedy, gre")
    assert main(["demo", "--rule", "players=3", *small, "--batch", "0", "--out", "d"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("AntipoliX: 3 players (greedy, greedy, random) ")
    assert len(list((tmp_path / "d").glob("demo-seed4-greedy-greedy-random-rules-*.gz"))) == 1
    argv = ["simulate", "--games", "2", "--rule", "players=3", *small, "--workers", "0"]
    assert main([*argv, "--no-progress"]) == 0
    assert "agents greedy, greedy, greedy" in capsys.readouterr().out
    assert main(["play", "--rule", "players=11"]) == 2  # the rules' own refusal, no agents named
    err = capsys.readouterr().err
    assert "players must be an integer from 2 to 10, got 11" in err and "agents" not in err


def test_cli_demo_files_are_named_within_what_a_file_system_takes(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """A demo's files name its agents, their parameters without ``:`` and ``=``; past 80
    characters, their count and a digest (ten agents with parameters named in full made a name
    of 380 characters: 'File name too long')."""
    monkeypatch.chdir(tmp_path)
    small = ["--rule", "shape=4,8,8", "--rule", "max_turns=3", "--batch", "0"]
    long = ",".join(["random:mean_think=2.5"] * 4)
    assert main(["demo", "--agents", long, *small, "--out", "a"]) == 0
    names = {p.name for p in (tmp_path / "a").iterdir()}
    stem = "demo-seed7-4-agents-" + hashlib.sha256(long.encode()).hexdigest()[:8] + "-rules-"
    assert len(names) == 3 and all(n.startswith(stem) and len(n) < 80 for n in names), names
    assert main(["demo", "--agents", "greedy,random:mean_think=2.5", *small, "--out", "b"]) == 0
    assert all(
        p.name.startswith("demo-seed7-greedy-random_mean_think2.5-rules-")
        for p in (tmp_path / "b").iterdir()
    )
    capsys.readouterr()


def test_cli_replay_show(recorded, capsys) -> None:
    path = recorded[0]
    assert main(["replay", "show", str(path), "--log"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: AntipoliX replay written by antipolix {__version__}; ")
    # the rules it was played with (RULES): the players and board, then what else differs
    head = out.splitlines()[0]
    assert head.endswith(
        f"2 players (random, random) on a 4×8×8 board, other rules budget=20 max_turns=60, "
        f"seed {SEED}"
    )
    assert "result: draw, turn limit, after 60 turns" in out


@pytest.mark.parametrize(
    ("taken", "removed", "text"),
    [
        ((5,), (), "chief taken by P1, 1 piece goes to P1"),
        ((5, 6), (), "chief taken by P1, 2 pieces go to P1"),
        ((), (7,), "out of time, 1 piece removed"),
    ],
)
def test_r8_elimination_line_counts_pieces_in_plain_english(taken, removed, text) -> None:
    from antipolix.events import Eliminated, Elimination
    from antipolix.log import describe

    reason = Elimination.TIMER if removed else Elimination.CHIEF
    line = describe(Eliminated(0, reason, 1.5, 1 if taken else None, taken, removed))
    assert line == f"P0 ELIMINATED at 1.50s: {text}"


def test_cli_without_agents_warns_of_a_large_game_once(capsys) -> None:
    """Seating the default lineup reads the rules' players; the size warning of a large game
    is the command's, printed once (it was printed twice without --agents)."""
    from antipolix.cli import parser
    from antipolix.cli.common import rules_from_args, seat_agents

    large = ["--rule", "shape=8,64,64", "--rule", "budget=2000"]
    args = parser().parse_args(["play", *large])
    assert seat_agents(args) == ["greedy"] * 4
    rules_from_args(args, players=4)  # what play does next
    assert capsys.readouterr().err.count("antipolix: warning: large game") == 1
