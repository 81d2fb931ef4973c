"""Player colours (viz.palette): ten colours that stay apart, also for colour-blind readers."""

from __future__ import annotations

from viz.palette import PALETTE, VISIONS, min_difference, player_colour


def test_ten_distinct_player_colours() -> None:
    assert len(PALETTE) == len(set(PALETTE)) == 10
    assert [player_colour(p) for p in range(10)] == list(PALETTE)


def test_colours_stay_apart_under_colour_vision_deficiencies() -> None:
    """Smallest ΔE*ab between any two seats, under normal vision and simulated protanopia,
    deuteranopia and tritanopia (Machado 2009): the first 4 seats (the default game) stay
    far apart, all 10 stay distinguishable."""
    four = min_difference(PALETTE[:4])
    eight = min_difference(PALETTE[:8])
    ten = min_difference(PALETTE)
    assert set(four) == set(VISIONS)
    assert min(four.values()) >= 45
    assert min(eight.values()) >= 23  # 8 players: every pair told apart (it was 17)
    assert min(ten.values()) >= 15
    for k in range(2, 11):  # each added seat keeps the set usable
        assert min(min_difference(PALETTE[:k]).values()) >= 15
