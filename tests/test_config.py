"""Rules as plain data (antipolix.codec): dict form, TOML files, ``KEY=VALUE`` overrides.

Everything goes through :func:`rules_from_dict`, so bad values are refused exactly as
:class:`~antipolix.Rules` refuses them, and unknown options are named.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from antipolix import Rules
from antipolix.codec import (
    apply_overrides,
    load_rules_file,
    parse_override,
    rules_from_dict,
    rules_to_dict,
)
from antipolix.errors import RulesError
from antipolix.pieces import TraitCosts, TypeSpec, TypeTable

CUSTOM = Rules(
    shape=(6, 12, 12),
    players=6,
    budget=50,
    credits_per_100=10,
    piece_types=TypeTable(
        army=TypeSpec(4, 3, 1), hovercraft=TypeSpec(1, 1, 3), fortress=TypeSpec(9, 6, 0)
    ),
    trait_costs=TraitCosts(invisible=4, teleporter=7, chief=2),
    teleport_field=3,
    teleport_network="all",
    p_destroy=0.5,
    p_teleport=0.25,
    p_convert=0.25,
    defence_counts="all",
    timers=False,
    time_credit=30.0,
    time_total=100.0,
    max_turns=77,
    zones=False,
)


def rules_error(**options) -> str:
    with pytest.raises(RulesError) as info:
        Rules(**options)
    return str(info.value)


# -- dict form -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules", [Rules(), CUSTOM, Rules(shape=(1, 2, 2), players=2, zones=False, budget=2)]
)
def test_rules_dict_round_trips(rules: Rules) -> None:
    data = rules_to_dict(rules)
    assert rules_from_dict(data) == rules
    assert rules_from_dict(json.loads(json.dumps(data))) == rules  # plain JSON data


def test_rules_dict_form_is_flat_with_one_table_per_type_and_trait() -> None:
    data = rules_to_dict(CUSTOM)
    assert data["shape"] == [6, 12, 12]
    assert data["players"] == 6 and data["budget"] == 50 and data["zones"] is False
    assert data["hovercraft"] == {"cost": 1, "strength": 1, "move": 3}
    assert data["fortress"] == {"cost": 9, "strength": 6, "move": 0}
    assert data["invisible"] == {"cost": 4}
    assert data["chief"] == {"cost": 2}
    assert "budget" not in rules_to_dict(Rules())  # derived from credits_per_100 (R3)


def test_rules_from_dict_keeps_the_base_for_options_not_given() -> None:
    rules = rules_from_dict({"max_turns": 5, "army": {"cost": 4}}, base=CUSTOM)
    assert rules.max_turns == 5
    assert rules.piece_types.army == TypeSpec(4, 3, 1)  # strength and move from the base
    assert rules.players == CUSTOM.players
    assert rules_from_dict({}) == Rules()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"colour": "red"}, r"unknown option 'colour' \(known: shape, players, .*chief\)"),
        ({"piece_types": {}}, r"unknown option 'piece_types'"),
        (
            {"hovercraft": {"speed": 3}},
            r"unknown option hovercraft\.speed \(known: cost, strength, move\)",
        ),
        ({"invisible": {"strength": 1}}, r"unknown option invisible\.strength \(known: cost\)"),
        ({"hovercraft": 3}, r"hovercraft must be a table of cost, strength, move"),
        ([("players", 3)], r"expected a table of options, got list"),
    ],
)
def test_rules_from_dict_refuses_unknown_options_by_name(data, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_from_dict(data)


@pytest.mark.parametrize(
    ("data", "options"),
    [
        ({"players": 11}, {"players": 11}),
        ({"players": "4"}, {"players": "4"}),
        ({"shape": [4, 8]}, {"shape": (4, 8)}),
        ({"shape": [4, 8, 9]}, {"shape": (4, 8, 9)}),
        ({"timers": "yes"}, {"timers": "yes"}),
        ({"p_destroy": 0.5}, {"p_destroy": 0.5}),
        ({"max_turns": 0}, {"max_turns": 0}),
        ({"defence_counts": "nobody"}, {"defence_counts": "nobody"}),
        ({"hovercraft": {"cost": -1}}, {"piece_types": TypeTable(hovercraft=TypeSpec(-1, 1, 2))}),
        ({"fortress": {"move": 1}}, {"piece_types": TypeTable(fortress=TypeSpec(12, 5, 1))}),
        ({"teleporter": {"cost": 1.5}}, {"trait_costs": TraitCosts(teleporter=1.5)}),
    ],
)
def test_rules_from_dict_refuses_bad_values_like_rules(data: dict, options: dict) -> None:
    with pytest.raises(RulesError) as info:
        rules_from_dict(data)
    assert str(info.value) == rules_error(**options)


# -- TOML files ------------------------------------------------------------------------------------


def test_load_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "six.toml"
    path.write_text(
        "# six players on a smaller board\n"
        "players = 6\n"
        "shape = [6, 12, 12]\n"
        "timers = false\n"
        "p_destroy = 0.5\np_teleport = 0.25\np_convert = 0.25\n"
        "\n[hovercraft]\ncost = 1\n\n[invisible]\ncost = 4\n"
    )
    rules = load_rules_file(path)
    assert rules == Rules(
        players=6,
        shape=(6, 12, 12),
        timers=False,
        p_destroy=0.5,
        p_teleport=0.25,
        p_convert=0.25,
        piece_types=TypeTable(hovercraft=TypeSpec(1, 1, 2)),
        trait_costs=TraitCosts(invisible=4),
    )
    assert load_rules_file(path, base=Rules(max_turns=9)).max_turns == 9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("players = \n", r"is not valid TOML"),
        ("[hovercraft\ncost = 1\n", r"is not valid TOML"),
        ("colour = 'red'\n", r": invalid rules: unknown option 'colour'"),
        ("[tank]\ncost = 1\n", r": invalid rules: unknown option 'tank'"),
        ("[army]\nspeed = 1\n", r": invalid rules: unknown option army\.speed"),
        ("players = 11\n", r": invalid rules: players must be an integer from 2 to 10, got 11"),
        ("shape = '4,8,8'\n", r": invalid rules: shape must be \(P, N, N\)"),
    ],
)
def test_bad_rules_files_are_refused_naming_the_file(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulesError, match=rf"^rules file {path}(:| is not valid TOML)") as info:
        load_rules_file(path)
    assert str(path) in str(info.value)
    assert re.search(message, str(info.value))


def test_missing_or_unreadable_rules_files_are_named(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    with pytest.raises(RulesError, match=f"rules file {missing} does not exist"):
        load_rules_file(missing)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00players = 3")
    with pytest.raises(RulesError, match=f"rules file {binary} cannot be read"):
        load_rules_file(binary)


# -- KEY=VALUE overrides ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("players=6", ("players", 6)),
        (" players = 6 ", ("players", 6)),
        ("time_credit=30.5", ("time_credit", 30.5)),
        ("p_destroy=-0.5", ("p_destroy", -0.5)),
        ("timers=false", ("timers", False)),
        ("zones=TRUE", ("zones", True)),
        ("budget=none", ("budget", None)),
        ("shape=6,12,12", ("shape", [6, 12, 12])),
        ("shape=6, 12, 12", ("shape", [6, 12, 12])),
        ("teleport_network=all", ("teleport_network", "all")),
        ("hovercraft.cost=1", ("hovercraft.cost", 1)),
        ("key=a=b", ("key", "a=b")),
    ],
)
def test_parse_override_values(text: str, want: tuple) -> None:
    got = parse_override(text)
    assert got == want
    assert type(got[1]) is type(want[1])  # 6 stays an int, 30.5 a float, false a bool


def test_apply_overrides_changes_only_what_is_named() -> None:
    base = Rules(max_turns=5, budget=50)
    rules = apply_overrides(
        base,
        [
            "players=6",
            "shape=6,12,12",
            "timers=false",
            "time_credit=30.5",
            "defence_counts=all",
            "army.cost=4",
            "army.strength=3",
            "hovercraft.move=3",
            "invisible.cost=4",
            "chief.cost=1",
        ],
    )
    assert rules == Rules(
        players=6,
        shape=(6, 12, 12),
        timers=False,
        time_credit=30.5,
        defence_counts="all",
        max_turns=5,
        budget=50,
        piece_types=TypeTable(army=TypeSpec(4, 3, 1), hovercraft=TypeSpec(2, 1, 3)),
        trait_costs=TraitCosts(invisible=4, chief=1),
    )
    assert apply_overrides(base, []) is base
    assert apply_overrides(base, ["players=6", "players=3"]).players == 3  # the last one wins
    assert apply_overrides(base, ["budget=none"]).budget is None  # back to the R3 default


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("players", r"a rule override is KEY=VALUE \(e\.g\. players=6\), got 'players'"),
        ("=6", r"a rule override is KEY=VALUE .*got '=6'"),
        ("players=", r"a rule override is KEY=VALUE .*got 'players='"),
        ("colour=red", r"unknown option 'colour'"),
        ("tank.cost=1", r"unknown option 'tank\.cost' \(a dotted option is TYPE\.cost"),
        ("hovercraft.speed=3", r"unknown option hovercraft\.speed"),
        ("invisible.strength=1", r"unknown option invisible\.strength"),
        ("players=six", r"players must be an integer from 2 to 10, got 'six'"),
        ("players=6.0", r"players must be an integer from 2 to 10, got 6\.0"),
        ("hovercraft.cost=1.5", r"piece_types\.hovercraft\.cost must be an integer >= 0, got 1\.5"),
        ("shape=6,12", r"shape must be \(P, N, N\) with integer sizes, got \(6, 12\)"),
        ("timers=maybe", r"timers must be True or False, got 'maybe'"),
        ("credits_per_100=nan", r"credits_per_100 must be a number >= 0"),
        # upper bounds: 10**20 overflowed the compiled core's integers (a traceback)
        ("max_turns=" + "9" * 20, r"max_turns must be at most 1,000,000,000, got 99,999"),
        ("budget=1000000001", r"budget must be at most 1,000,000,000, got 1,000,000,001"),
        ("teleport_field=10001", r"teleport_field must be at most 10,000, got 10,001"),
        ("army.cost=" + "9" * 20, r"piece_types\.army\.cost must be at most 1,000,000, got"),
        ("army.strength=10001", r"piece_types\.army\.strength must be at most 10,000, got"),
        ("hovercraft.move=10001", r"piece_types\.hovercraft\.move must be at most 10,000"),
        ("invisible.cost=1000001", r"trait_costs\.invisible must be at most 1,000,000"),
        ("credits_per_100=1e308", r"credits_per_100 = 1e\+308 gives a budget of more than 1,0"),
        # (a side of 10**20 hung in the search for home zones, R3)
        ("shape=4,2049,2049", r"N at most 2,048 \(R1\), got \(4, 2,049, 2,049\)"),
        ("shape=" + "9" * 20 + ",4,4", r"P at most 4,194,304 and N at most 2,048 \(R1\)"),
    ],
)
def test_malformed_overrides_are_refused_naming_the_option(override: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        apply_overrides(Rules(), [override])


def test_the_largest_options_are_accepted() -> None:
    rules = apply_overrides(
        Rules(),
        ["max_turns=1000000000", "budget=1000000000", "teleport_field=10000",
         "army.cost=1000000", "army.strength=10000", "hovercraft.move=10000",
         "invisible.cost=1000000"],
    )  # fmt: skip
    assert (rules.max_turns, rules.army_budget, rules.teleport_field) == (10**9, 10**9, 10**4)
    assert rules.piece_types.army.strength == 10**4 and rules.trait_costs.invisible == 10**6


def test_a_table_option_given_a_value_then_a_dotted_key_is_refused() -> None:
    with pytest.raises(RulesError, match="army"):
        apply_overrides(Rules(), ["army=3", "army.cost=4"])
