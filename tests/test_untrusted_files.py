"""Files a user hands the program, whatever they hold: refused in one line, never a traceback.

Python's JSON and TOML readers raise more than their decode errors: ``RecursionError`` for an
array nested thousands deep, and a bare ``ValueError`` for an integer of more digits than
Python converts (``sys.get_int_max_str_digits``, 4,300). Every reader of a user's file (rules
files, ``--rule`` values, replays, players files, and the descriptions and logs of studies,
tournaments, tunings and metas) turns them, and files too large to be what they claim, into its
own error with a message; nothing is written.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from antipolix.balance.by_skill import _open_folder
from antipolix.balance.study import _read as read_balance_study
from antipolix.balance.values import BalanceError
from antipolix.cli import main
from antipolix.codec import load_rules_table, parse_override, parse_value
from antipolix.errors import (
    AntipolixError,
    PlayersFileError,
    ReplayError,
    RulesError,
    SimulationError,
)
from antipolix.files import json_file, parse_json, read_json, read_json_lines, text_file
from antipolix.ladder.folder import MANIFEST, read_manifest
from antipolix.ladder.ratings import LadderError
from antipolix.meta.armies import MetaError
from antipolix.meta.folder import check_folder
from antipolix.play import play
from antipolix.replay import load_replay
from antipolix.rules import Rules
from antipolix.runner import Results
from antipolix.runner.store import STUDY_FILE, read_study
from antipolix.scores import PlayersFile
from antipolix.tuning.space import TuningError

LONG_INT = "9" * (sys.get_int_max_str_digits() + 10)
DEEP = "[" * 100_000 + "]" * 100_000
BAD_JSON = {  # what each holds, and what its refusal says
    "long integer": ('{"format": ' + LONG_INT + "}", "integer of more than 4,300 digits"),
    "deep nesting": ('{"format": ' + DEEP + "}", "nested too deeply"),
}


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# each reader of a JSON file a user may hand it: (where the file goes, a call that reads it,
# the error it raises)
READERS: dict[str, tuple[str, Callable[[Path], Any], type[AntipolixError]]] = {
    "players file": ("players.json", lambda f: PlayersFile.load(f / "players.json"),
                     PlayersFileError),
    "simulate study": (STUDY_FILE, read_study, SimulationError),
    "tournament manifest": (MANIFEST, read_manifest, LadderError),
    "balancing study": ("study.json", lambda f: read_balance_study(f / "study.json"),
                        BalanceError),
    "values study": ("study.json", lambda f: _open_folder(f, {"format": "x"}, []),
                     BalanceError),
    "meta study": ("meta.json", lambda f: check_folder(f, {"format": "x"}, "meta.json", "meta"),
                   MetaError),
    "tuning description": ("study.json", lambda f: read_json(f / "study.json", TuningError),
                           TuningError),
}  # fmt: skip


@pytest.mark.parametrize("holds", sorted(BAD_JSON))
@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_json_file_no_reader_can_hold_is_refused_with_its_reason(
    reader: str, holds: str, tmp_path: Path
) -> None:
    name, read, error = READERS[reader]
    text, reason = BAD_JSON[holds]
    path = _write(tmp_path / "folder", name, text)
    with pytest.raises(error, match=reason):
        read(tmp_path / "folder")
    assert path.read_text(encoding="utf-8") == text  # (nothing written)


def test_the_json_readers_refuse_what_is_not_json_utf8_or_too_large(tmp_path: Path) -> None:
    assert parse_json('{"a": [1, 2.5, "x"]}') == {"a": [1, 2.5, "x"]}
    assert parse_json(b'{"a": 1}') == {"a": 1}
    with pytest.raises(ValueError, match="not UTF-8"):
        parse_json(b'{"a": "\xff"}')
    with pytest.raises(ValueError, match="Expecting"):
        parse_json("{")
    path = _write(tmp_path, "a.json", '{"a": "' + "x" * 100 + '"}')
    assert json_file(path)["a"] == "x" * 100
    with pytest.raises(ValueError, match="larger than 50 bytes"):
        text_file(path, 50)
    assert len(text_file(path, 200)) == 109
    log = _write(tmp_path, "log.jsonl", '{"n": 1}\n{"n": ' + LONG_INT + "}\n" + DEEP + "\n{\n")
    assert read_json_lines(log, TuningError) == [{"n": 1}, None, None, None]


def test_a_rules_file_or_override_no_reader_can_hold_is_refused(tmp_path: Path) -> None:
    big = _write(tmp_path, "big.toml", f"max_turns = {LONG_INT}\n")
    with pytest.raises(RulesError, match="not valid TOML: an integer of more than 4,300 digits"):
        load_rules_table(big)
    deep = _write(tmp_path, "deep.toml", f"x = {DEEP}\n")
    with pytest.raises(RulesError, match="not valid TOML: nested too deeply"):
        load_rules_table(deep)
    huge = _write(tmp_path, "huge.toml", "# a comment\n" * 100_000)  # (1.2 MB)
    with pytest.raises(RulesError, match="cannot be read: it is larger than 1,048,576 bytes"):
        load_rules_table(huge)
    assert parse_value("[[1]]") == "[[1]]" and parse_value(DEEP[:5000]) == DEEP[:5000]
    assert parse_value("12") == 12
    with pytest.raises(RulesError, match=r"at most 200 characters .* got 4,320 beginning"):
        parse_override(f"max_turns={LONG_INT}")


def test_a_replay_line_no_reader_can_hold_is_corrupt(tmp_path: Path) -> None:
    good = tmp_path / "g.apx.json.gz"
    play(Rules(shape=(3, 6, 6), players=2, max_turns=4), ["random", "random"], 1, replay=good)
    lines = gzip.decompress(good.read_bytes()).split(b"\n")
    for holds, (text, _) in BAD_JSON.items():
        bad = tmp_path / f"{holds}.apx.json.gz"
        bad.write_bytes(gzip.compress(b"\n".join([*lines[:2], text.encode(), *lines[2:]])))
        with pytest.raises(ReplayError, match="is corrupt: line 3 is not JSON"):
            load_replay(bad)
    assert json.loads(lines[0])["type"] == "header"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["rules", "--rules", "{big}"], "not valid TOML: an integer of more than 4,300 digits"),
        (["play", "--rule", f"max_turns={LONG_INT}"], "a rule override is KEY=VALUE of at most"),
        (["play", "--rule", f"max_turns={DEEP[:150]}"], "max_turns must be an integer >= 1"),
        (["play", "--agents", "x" * 5000 + ",greedy"], "... (5,000 characters) (built-in"),
        (["play", "--game", "sight", "--agents", "x" * 5000], "... (5,000 characters) for sight"),
        # (what the system refuses, here a name too long for a file, ended in an OSError
        # traceback where a command did not expect it)
        (
            ["balance", "--out", "{tmp}/b", "--workers", "0", "--ladder", "x" * 3000],
            "error: File name too long: 'xxxxx",
        ),
    ],
)
def test_the_commands_refuse_them_in_one_line(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = _write(tmp_path, "big.toml", f"max_turns = {LONG_INT}\n")
    try:
        code = main([a.replace("{big}", str(big)).replace("{tmp}", str(tmp_path)) for a in argv])
    except SystemExit as exit_info:  # (argparse's refusals)
        code = exit_info.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: ") and err.count("\n") == 1, err
    assert says in err and len(err) < 400


def test_a_damaged_chunk_of_a_study_is_named_and_its_games_played_again_once_deleted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a chunk file cut short (a full disk, a copy stopped half-way): every read of the study
    # names it and says what to do, the command exits 2 in one line; deleted, its games are
    # played again, the same games (R12)
    out = tmp_path / "study"
    argv = ["simulate", "--games", "8", "--workers", "0", "--chunk-size", "4"]
    argv += ["--rule", "shape=3,6,6", "--rule", "max_turns=40", "--out", str(out)]
    assert main(argv) == 0
    whole = Results.open(out).to_pandas().drop(columns="seconds")
    first = Results.open(out).files()[0]
    first.write_bytes(first.read_bytes()[:100])
    for read in (len, lambda r: r.to_pandas(), lambda r: r.win_rates()):
        with pytest.raises(SimulationError, match=f"{first.name} is damaged .*delete it"):
            read(Results.open(out))
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()  # (the progress line, then the refusal)
    assert err[-1].startswith(f"antipolix: error: {first} is damaged"), err
    assert not any("Traceback" in line for line in err)
    first.unlink()
    assert main(argv) == 0
    assert "played 4 games" in capsys.readouterr().out
    again = Results.open(out).to_pandas().drop(columns="seconds")
    assert again.equals(whole)


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda d: d.update(games=-5), "its seed and games are not integers"),
        (lambda d: d.update(variants="x"), "its variants are not a list"),
        (lambda d: d.update(labels=None), "its labels are not a list of agent names"),
        (lambda d: d.pop("variants"), "its variants are not a list"),
        (lambda d: d.update(agents=[]), "its agents are not a list of one record per label"),
        (lambda d: d["variants"][0].pop("rules"), "variant 'base' has no rules table"),
    ],
)
def test_a_study_description_edited_out_of_shape_is_refused_by_every_reader(
    edit: Callable[[dict[str, Any]], Any], says: str, tmp_path: Path
) -> None:
    # (the Python API read it and failed in a TypeError or KeyError; a negative games count
    # was taken as a smaller study to grow)
    out = tmp_path / "study"
    argv = ["simulate", "--games", "2", "--workers", "0", "--rule", "shape=3,6,6"]
    argv += ["--rule", "max_turns=20", "--out", str(out)]
    assert main(argv) == 0
    data = json.loads((out / STUDY_FILE).read_text())
    edit(data)
    (out / STUDY_FILE).write_text(json.dumps(data))
    with pytest.raises(SimulationError, match=f"edited or damaged: {says}"):
        Results.open(out)
    assert main(argv) == 2


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda d: d.update(players="x"), "its players, games_per_lineup and seed are not"),
        (lambda d: d.update(plan=None), "its plan is not a table of sittings"),
        (lambda d: d["plan"].update(sittings=5), "its plan is not a table of sittings"),
        (lambda d: d.update(agent_specs=[1, 2]), "its agent_specs are not a list of one record"),
        (lambda d: d.update(agents=["random"]), "its agent_specs are not a list of one record"),
    ],
)
def test_a_tournament_manifest_edited_out_of_shape_is_refused_by_every_reader(
    edit: Callable[[dict[str, Any]], Any], says: str, tmp_path: Path
) -> None:
    # (a values study rating its agents by such a folder failed in a ValueError or an
    # AttributeError; the tournament itself took a manifest without its plan)
    out = tmp_path / "ladder"
    argv = ["tournament", "--agents", "random,greedy", "--games", "2", "--workers", "0"]
    argv += ["--rule", "shape=3,6,6", "--rule", "max_turns=20", "--no-progress", "--out", str(out)]
    assert main(argv) == 0
    data = json.loads((out / MANIFEST).read_text())
    edit(data)
    (out / MANIFEST).write_text(json.dumps(data))
    with pytest.raises(LadderError, match=f"edited or damaged: {says}"):
        read_manifest(out)
    assert main(argv) == 2
    values = ["balance", "--agents", "random,greedy", "--games", "2", "--workers", "0"]
    values += ["--out", str(tmp_path / "values"), "--rule", "shape=3,6,6", "--rule", "players=2"]
    assert main([*values, "--ladder", str(out)]) == 2
