"""A game's story (antipolix.story): its eliminations, its end, and its decisive turn, the
winner's first chief taken (R8: the army goes with it); else the first chief taken; else the
height of the battle. Read from what every player is told (R6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from antipolix import Rules, load_replay, play
from antipolix.agents import Agent, Decision, GreedyAgent, RandomAgent
from antipolix.events import Combat, Eliminated, Elimination
from antipolix.messages import Command
from antipolix.replay import Replay
from antipolix.story import DECISIVE, ELIMINATED, END, story
from tests import golden


def _eliminations(replay: Replay) -> list[tuple[int, Eliminated]]:
    return [
        (t, e)
        for t in range(1, replay.last_turn + 1)
        for e in replay.events(t)
        if isinstance(e, Eliminated)
    ]


@pytest.mark.parametrize("name", sorted(golden.GAMES))
def test_the_decisive_turn_is_the_winners_first_chief(name: str) -> None:
    replay = load_replay(golden.path(name))
    told = story(replay)
    out = _eliminations(replay)
    winner = replay.result.winner
    assert winner is not None and out
    first = next(t for t, e in out if e.reason is Elimination.CHIEF and e.by == winner)
    assert told.decisive.turn == first and told.decisive.kind == DECISIVE
    assert f"P{winner} ({replay.agents[winner]}) takes its first chief" in told.decisive.text
    # every elimination a moment, in turn order, the end last
    assert [(m.turn, m.kind) for m in told.moments if m.kind == ELIMINATED] == [
        (t, ELIMINATED) for t, _ in out
    ]
    assert told.moments[-1].kind == END and told.moments[-1].turn == replay.last_turn
    assert [m.turn for m in told.moments] == sorted(m.turn for m in told.moments)
    assert told.decisive in told.moments
    assert f"P{winner} ({replay.agents[winner]}) wins" in told.result


class Quitter(Agent):
    """Sends QUIT on turn ``at`` (R9): it leaves the game without its chief taken."""

    name = "quitter"

    def __init__(self, at: int = 2) -> None:
        super().__init__()
        self.at = at
        self.turns = 0

    def act(self, obs: object) -> Decision:
        self.turns += 1
        return Decision(think_time=1.0, messages=(Command.QUIT,) if self.turns == self.at else ())


def test_without_a_chief_taken_the_decisive_turn_is_the_height_of_the_battle(
    tmp_path: Path,
) -> None:
    path = tmp_path / "q.apx.json.gz"
    rules = Rules(shape=(4, 8, 8), players=3, max_turns=30)
    play(rules, [Quitter(3), Quitter(5), GreedyAgent()], 1, replay=path)
    replay = load_replay(path)
    assert replay.result.winner == 2
    assert all(e.reason is Elimination.QUIT for _, e in _eliminations(replay))
    told = story(replay)
    assert [m.text for m in told.moments if m.kind == ELIMINATED] == [
        "P0 (quitter) is out: quit",
        "P1 (quitter) is out: quit",
    ]
    alive, best, score = 3, 1, 0  # the most attacks times players still in, the first such
    for t in range(1, replay.last_turn + 1):
        events = replay.events(t)
        if sum(isinstance(e, Combat) for e in events) * alive > score:
            best, score = t, sum(isinstance(e, Combat) for e in events) * alive
        alive -= sum(isinstance(e, Eliminated) for e in events)
    assert told.decisive.turn == best
    assert "no chief was taken" in told.decisive.text
    assert ("no attack made" in told.decisive.text) == (score == 0)


def test_a_draw_at_the_turn_limit_has_a_story_too(tmp_path: Path) -> None:
    path = tmp_path / "d.apx.json.gz"
    play(Rules(shape=(4, 8, 8), players=2, max_turns=12), [RandomAgent(), RandomAgent()], 4,
         replay=path)  # fmt: skip
    replay = load_replay(path)
    told = story(replay)
    assert replay.result.winner is None
    assert told.result == "a draw (turn limit) after 12 turns"
    assert 1 <= told.decisive.turn <= 12
    assert [m.kind for m in told.moments][-1] == END
