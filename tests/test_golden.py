"""Golden replays: stored seeded games replayed event by event (R4–R12).

Loading a replay re-simulates every turn with today's engine and compares every event, and
``verify`` plays the built-in agents again and compares every decision; an unintended change of
any rule or agent fails here loudly, naming the first turn that differs.
"""

from __future__ import annotations

import pytest

from antipolix import load_replay
from antipolix.play import verify
from tests import golden


@pytest.mark.parametrize("name", sorted(golden.GAMES))
def test_golden_replay_replays_event_for_event(name: str) -> None:
    replay = load_replay(golden.path(name))  # raises at the first event that differs
    rules, agents, seed, _ = golden.GAMES[name]
    assert replay.rules == rules
    assert replay.agents == tuple(a.name for a in agents)
    assert replay.seed.entropy == seed
    report = verify(replay)
    assert report.agents_rerun
    assert report.turns_checked == replay.last_turn == replay.result.turns
