"""R11 Scores and the persistent players file."""

import json

import pytest

from antipolix import Attack, Command, EndReason, Game, Pass, PieceType, Rules, Trait
from antipolix.end import GameResult
from antipolix.errors import PlayersFileError
from antipolix.scores import PlayerRecord, PlayersFile, score_changes

# -- score_changes -------------------------------------------------------------------------------


def test_r11_score_changes_four_players():
    # R11: n = 4; winner P2 +4; eliminated P0 (1st) −3, P3 (2nd) −2, P1 (3rd) −1.
    result = GameResult(2, EndReason.LAST_PLAYER, 40, (0, 3, 1))
    assert score_changes(result, 4) == {2: 4, 0: -3, 3: -2, 1: -1}


def test_r11_score_changes_five_players_of_the_original_text():
    # R11 / original text: with 5 players the winner gains 5, the first eliminated loses 4,
    # the second 3, … the fourth 1. Elimination order (4, 0, 3, 1), winner 2.
    result = GameResult(2, EndReason.LAST_PLAYER, 12, (4, 0, 3, 1))
    assert score_changes(result, 5) == {2: 5, 4: -4, 0: -3, 3: -2, 1: -1}


def test_r11_score_changes_two_players():
    # R11: n = 2: winner +2, the one eliminated player −1.
    assert score_changes(GameResult(1, EndReason.LAST_PLAYER, 3, (0,)), 2) == {1: 2, 0: -1}


@pytest.mark.parametrize(
    "result",
    [
        GameResult(None, EndReason.NUL, 7, ()),
        GameResult(None, EndReason.TURN_LIMIT, 1000, (3,)),  # someone went out, still a draw
        GameResult(None, EndReason.ALL_ELIMINATED, 9, (0, 1, 2, 3)),
    ],
    ids=["nul", "turn-limit", "all-eliminated"],
)
def test_r11_draws_change_nothing(result):
    # R11: only games that are not draws change scores.
    assert score_changes(result, 4) == {}
    book = PlayersFile([PlayerRecord(n, "", 5) for n in ("ann", "bob", "cat", "dan")])
    applied = book.apply(result, ["ann", "bob", "cat", "dan"])
    assert all(v == 0 for v in applied.values())
    assert [r.score for r in book] == [5, 5, 5, 5]


# -- the players file ----------------------------------------------------------------------------


def test_r11_register_starts_at_zero():
    # R11: per player: name, email, score starting at 0.
    book = PlayersFile()
    record = book.register("ada", "ada@example.org")
    assert (record.name, record.email, record.score) == ("ada", "ada@example.org", 0)
    assert "ada" in book and len(book) == 1
    assert book["ada"] == record


def test_r11_register_keeps_an_existing_record():
    # R11: registering a known name does not reset its score.
    book = PlayersFile([PlayerRecord("ada", "ada@example.org", 7)])
    assert book.register("ada", "other@example.org").score == 7
    assert book["ada"].score == 7 and len(book) == 1


def test_r11_apply_with_floor_at_zero():
    # R11: 4 players, winner dan (seat 3), elimination order bob (1), ann (0), cat (2).
    #   bob: 2 − 3 = −1 -> floored to 0     ann: 0 − 2 -> stays 0
    #   cat: 5 − 1 = 4                      dan: 1 + 4 = 5
    book = PlayersFile(
        [
            PlayerRecord("ann", "a@x", 0),
            PlayerRecord("bob", "b@x", 2),
            PlayerRecord("cat", "c@x", 5),
            PlayerRecord("dan", "d@x", 1),
        ]
    )
    result = GameResult(3, EndReason.LAST_PLAYER, 20, (1, 0, 2))
    applied = book.apply(result, ["ann", "bob", "cat", "dan"])
    assert {r.name: r.score for r in book} == {"ann": 0, "bob": 0, "cat": 4, "dan": 5}
    assert applied == {"bob": -2, "ann": 0, "cat": -1, "dan": 4}
    assert book["bob"].email == "b@x"  # the rest of the record is kept


def test_r11_apply_follows_seats_not_name_order():
    # R11: seats map to names: seat 0 is "zed", seat 1 is "amy". Winner seat 0.
    book = PlayersFile([PlayerRecord("amy", "", 3), PlayerRecord("zed", "", 3)])
    book.apply(GameResult(0, EndReason.LAST_PLAYER, 4, (1,)), ["zed", "amy"])
    assert book["zed"].score == 5 and book["amy"].score == 2


def test_r11_save_then_load_round_trip(tmp_path):
    # R11: the players file keeps name, email and score; reloading from disk gives them back.
    path = tmp_path / "players.json"
    book = PlayersFile()
    book.register("ann", "ann@example.org")
    book.register("bob", "bob@example.org")
    book.register("émile", "")
    book.apply(GameResult(1, EndReason.LAST_PLAYER, 3, (2, 0)), ["ann", "bob", "émile"])
    book.save(path)
    assert path.exists()
    json.loads(path.read_text(encoding="utf-8"))  # it is JSON
    loaded = PlayersFile.load(path)
    assert loaded is not book
    assert sorted(loaded, key=lambda r: r.name) == [
        PlayerRecord("ann", "ann@example.org", 0),
        PlayerRecord("bob", "bob@example.org", 3),
        PlayerRecord("émile", "", 0),
    ]


def test_r11_atomic_save_leaves_no_temp_files(tmp_path):
    # R11: saving writes atomically and cleans up: only the players file is left, also after
    # overwriting an existing file.
    path = tmp_path / "players.json"
    book = PlayersFile()
    book.register("ann")
    book.save(path)
    book.register("bob")
    book.save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.json"]
    assert {r.name for r in PlayersFile.load(path)} == {"ann", "bob"}


def test_r11_failed_save_keeps_the_previous_file(tmp_path, monkeypatch):
    # R11: a crash mid-write leaves the previous file intact and no temporary file behind.
    path = tmp_path / "players.json"
    book = PlayersFile([PlayerRecord("ann", "", 4)])
    book.save(path)
    before = path.read_text(encoding="utf-8")

    def crash(obj, out, **kwargs):
        out.write('{"format": "antipolix-pla')  # half a file, then the crash
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("antipolix.scores.json.dump", crash)
    book.register("bob")
    with pytest.raises(RuntimeError):
        book.save(path)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.json"]
    assert [r.name for r in PlayersFile.load(path)] == ["ann"]


def test_r11_missing_file_loads_as_empty(tmp_path):
    book = PlayersFile.load(tmp_path / "nobody-here.json")
    assert len(book) == 0 and list(book) == []


def _valid():
    return {
        "format": "antipolix-players",
        "version": 1,
        "players": [
            {"name": "ann", "email": "a@x", "score": 3},
            {"name": "bob", "email": "b@x", "score": 0},
        ],
    }


def test_r11_valid_file_loads(tmp_path):
    # the reference document of the malformed cases below is itself valid
    path = tmp_path / "players.json"
    path.write_text(json.dumps(_valid()), encoding="utf-8")
    assert {r.name: r.score for r in PlayersFile.load(path)} == {"ann": 3, "bob": 0}


def _bad_format(d):
    d["format"] = "something-else"


def _negative(d):
    d["players"][0]["score"] = -1


def _duplicate(d):
    d["players"][1]["name"] = "ann"


def _missing(d):
    del d["players"][1]["email"]


def _not_int(d):
    d["players"][0]["score"] = 2.5


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (_bad_format, ["format"]),
        (_negative, ["score", "-1"]),
        (_duplicate, ["ann"]),
        (_missing, ["email"]),
        (_not_int, ["score", "2.5"]),
    ],
    ids=["format-tag", "negative-score", "duplicate-name", "missing-field", "non-int-score"],
)
def test_r11_malformed_file_raises(tmp_path, spoil, words):
    # R11: a file that is not a valid players file raises PlayersFileError naming the problem.
    data = _valid()
    spoil(data)
    path = tmp_path / "players.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PlayersFileError) as info:
        PlayersFile.load(path)
    message = str(info.value)
    for word in words:
        assert word in message


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2"])
def test_r11_bad_json_raises(tmp_path, text):
    # R11: bad JSON raises PlayersFileError naming the file.
    path = tmp_path / "players.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PlayersFileError, match=r"players\.json"):
        PlayersFile.load(path)


# -- end to end ----------------------------------------------------------------------------------


def test_r11_end_to_end_game_result_applied_to_players_file(tmp_path):
    # R11, R10, R8: a real 3-player game on a 1×6×6 board, Rules(p_destroy=1):
    #
    #   y\x 0 1 2 3 4 5
    #   0   c . . . . .     c = P0's chief army     (0,0,0)
    #   2   . . A h . .     A = P0's army (0,2,2),  h = P1's chief hovercraft (0,2,3)
    #   5   . . . . . g     g = P2's chief army     (0,5,5)
    #
    # Turn 1: P2 quits (eliminated first). Turn 2: A attacks h: attack 2 > defence 1,
    # destroyed -> P1 eliminated second, P0 wins. n = 3: P0 +3, P2 −2, P1 −1.
    # Players: ann (seat 0) at 0, bob (seat 1) at 5, cat (seat 2) at 1:
    #   ann 0 + 3 = 3, bob 5 − 1 = 4, cat 1 − 2 -> 0 (floor).
    rules = Rules(
        shape=(1, 6, 6),
        players=3,
        zones=False,
        budget=100,
        p_destroy=1.0,
        p_teleport=0.0,
        p_convert=0.0,
    )
    game = Game(rules, seed=2024)
    game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0))
    army = game.place(0, PieceType.ARMY, Trait.NONE, (0, 2, 2))
    game.place(1, PieceType.HOVERCRAFT, Trait.CHIEF, (0, 2, 3))
    game.place(2, PieceType.ARMY, Trait.CHIEF, (0, 5, 5))
    game.start()
    game.play_turn(
        {p: Pass() for p in range(3)},
        think_times={0: 0.0, 1: 1.0, 2: 2.0},
        messages={2: [Command.QUIT]},
    )
    assert game.result is None
    game.play_turn({0: Attack([army], (0, 2, 3)), 1: Pass()}, think_times={0: 0.0, 1: 1.0})
    result = game.result
    assert result is not None
    assert (result.winner, result.reason) == (0, EndReason.LAST_PLAYER)
    assert result.elimination_order == (2, 1)

    path = tmp_path / "players.json"
    PlayersFile(
        [PlayerRecord("ann", "", 0), PlayerRecord("bob", "", 5), PlayerRecord("cat", "", 1)]
    ).save(path)
    book = PlayersFile.load(path)
    applied = book.apply(result, ["ann", "bob", "cat"])
    assert applied == {"ann": 3, "bob": -1, "cat": -1}
    book.save(path)
    assert {r.name: r.score for r in PlayersFile.load(path)} == {"ann": 3, "bob": 4, "cat": 0}
