"""S11: perft, the legal action sequences from the start, against the contract's references."""

from __future__ import annotations

import pytest

from antipolix.games.protocol import GameError
from antipolix.games.sight import GAME, SightConfig
from antipolix.games.sight.perft import perft

REFERENCE = [1, 25, 600, 13_800, 303_600, 4_205_376]  # S11, default rules, 5×5


@pytest.mark.parametrize("priority", ["movable", "strict"])
def test_s11_perft_matches_the_reference_to_depth_5(priority: str) -> None:
    config = SightConfig(stack_priority=priority)
    assert [perft(config, d) for d in range(6)] == REFERENCE


def test_s11_perft_with_the_pie_counts_swap() -> None:
    config = SightConfig(pie=True)
    assert perft(config, 1) == 25
    assert perft(config, 2) == 625
    assert perft(config, 3) == 14_400


def test_s11_perft_through_the_game_definition_and_bad_depths() -> None:
    assert GAME.perft(GAME.config(size=3), 2) == 9 * 8
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(GameError, match="perft depth"):
            GAME.perft(GAME.config(), bad)  # type: ignore[arg-type]


def test_s11_perft_counts_ended_games_as_zero() -> None:
    # 3×3: the game lasts at most 9 turns, so perft(10) counts sequences that all end earlier
    config = SightConfig(size=3)
    assert perft(config, 10) == 0
    assert perft(config, 9) > 0
