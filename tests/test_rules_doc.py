"""The rules in the project (``docs/rules/antipolix.md``) kept in step with the code and the
contract: a section for each of R1–R12 (the contract's headings, when the shared folder is
beside the project), every option of ``Rules`` documented with its default and section, every
section the code cites present; ``--help`` points at the page; ``antipolix rules`` prints the
tables of any rules, marking what differs from 1995."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from antipolix.cli import main, parser
from antipolix.codec import apply_overrides, load_rules_file, value_text
from antipolix.rulebook import DOC, MARK, OPTIONS, options
from antipolix.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / DOC
CONTRACT = ROOT.parent / "shared" / "RULES.md"  # the contract, outside the repository
SECTIONS = [
    "R1 World",
    "R2 Pieces",
    "R3 Setup",
    "R4 Turns and orders",
    "R5 Reach and teleportation",
    "R6 Invisible pieces",
    "R7 Time and reception order",
    "R8 Combat",
    "R9 Messages",
    "R10 End of game",
    "R11 Scores",
    "R12 Randomness and observations",
]


def _headings(text: str) -> list[str]:
    return re.findall(r"^## (R\d+ .+)$", text, re.M)


def _option_rows(text: str) -> dict[str, tuple[str, str]]:
    """The page's options table: key → (default, section)."""
    rows = re.findall(r"^\| `([\w.]+)` \| `([^`]*)` \| (R\d+) \|", text, re.M)
    return {key: (default, section) for key, default, section in rows}


def test_the_page_has_a_section_for_every_rule_in_order() -> None:
    assert _headings(PAGE.read_text(encoding="utf-8")) == SECTIONS


def test_the_sections_are_the_contracts() -> None:
    if not CONTRACT.is_file():
        pytest.skip(f"the contract is not beside the project ({CONTRACT})")
    assert _headings(CONTRACT.read_text(encoding="utf-8")) == SECTIONS


def test_every_option_is_documented_with_its_default_and_section() -> None:
    documented = _option_rows(PAGE.read_text(encoding="utf-8"))
    defaults = options(Rules())
    assert list(documented) == list(OPTIONS) == list(defaults)  # the same options, one order
    for key, (default, section) in documented.items():
        assert default == value_text(defaults[key]), key
        assert section == OPTIONS[key][0], key


def test_every_option_of_rules_has_a_key() -> None:
    """A field added to Rules needs its line in OPTIONS (and so on the page)."""
    import dataclasses

    from antipolix.codec import flat_options

    fields = {f.name for f in dataclasses.fields(Rules)} - {"piece_types", "trait_costs"}
    assert set(flat_options(Rules())) | {"budget"} == set(OPTIONS)
    assert fields <= set(OPTIONS)


def test_every_section_the_code_cites_is_on_the_page() -> None:
    cited = set()
    for path in (ROOT / "antipolix").rglob("*.py"):
        cited |= {int(n) for n in re.findall(r"\bR(\d+)\b", path.read_text(encoding="utf-8"))}
    assert cited and cited <= set(range(1, 13))
    assert {int(h.split()[0][1:]) for h in _headings(PAGE.read_text(encoding="utf-8"))} >= cited


def _subparsers(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_help_with_rules_options_points_at_the_page() -> None:
    with_rules = []
    for name, sub in _subparsers(parser()).items():
        text = sub.format_help()
        assert "RULES.md options" not in text, name
        if "--rule KEY=VALUE" in text:
            with_rules.append(name)
            assert DOC in text, name
    assert {"play", "demo", "simulate", "balance", "tournament", "tune", "rules"} <= set(with_rules)
    assert PAGE.is_file()


def test_rules_prints_the_tables_and_marks_what_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "proposed.toml"
    file.write_text("shape = [6, 12, 12]\n[hovercraft]\ncost = 1\n[invisible]\ncost = 4\n")
    assert main(["rules", "--rules", str(file), "--rule", "p_destroy=0.5",
                 "--rule", "p_convert=0.2"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert DOC in out.splitlines()[0]
    # R2: the changed cost is marked in the type table and in every cost it enters
    assert re.search(rf"^  hovercraft +1\{MARK} +1 +2$", out, re.M)
    assert re.search(r"^  army +3 +2 +1$", out, re.M)
    assert re.search(rf"^  hovercraft +1\{MARK} +5\{MARK} +11\{MARK} +1\{MARK}$", out, re.M)
    assert re.search(rf"^  invisible +4\{MARK} ", out, re.M)
    assert f"each army bought within 25 points{MARK}" in out  # 12 × 864 / 100 / 4 (R3)
    assert f"destroys 50 %, teleports 30 %, converts 20 %{MARK}" in out
    rules = apply_overrides(load_rules_file(file), ["p_destroy=0.5", "p_convert=0.2"])
    for key, value in options(rules).items():  # every option, its value, 1995's when it differs
        line = next(x for x in out.splitlines() if x.startswith(f"  {key} "))
        was = options(Rules())[key]
        if value == was:
            assert re.match(rf"  {re.escape(key)} +{re.escape(value_text(value))} ", line)
        else:
            assert f"{value_text(value)}{MARK}" in line and f"(1995: {value_text(was)})" in line


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ([], None),  # 61 points buy at most 30 pieces: no line
        (
            ["budget=3000"],
            "the budget buys up to 1,500 pieces, more than the 200 an army can place",
        ),
        (["zones=false", "budget=9999"], "up to 4,999 pieces, more than the 2,045 an army can"),
        (["hovercraft.cost=0"], "the budget buys any number of pieces, more than the 200"),
    ],
)
def test_rules_says_when_the_budget_buys_more_than_an_army_can_place(
    rules: list[str], said: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """R3: a home zone holds so many pieces (200 cells at 4 players on the default board; without
    zones the board less a cell for each other chief): a budget that buys more is named."""
    assert main(["rules", *[a for r in rules for a in ("--rule", r)]]) == 0
    out = capsys.readouterr().out
    zones = "zones=false" not in rules
    assert ("placed in its home zone of 200 cells" in out) == zones
    beyond = [line for line in out.splitlines() if "an army can place" in line]
    if said is None:
        assert beyond == []
    else:
        assert len(beyond) == 1 and said in beyond[0]
        assert beyond[0].endswith(
            "the built-in agents buy no more than fit; a larger army is refused"
        )


def test_rules_refuses_bad_options_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--rule", "hovercraft.speed=3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: invalid rules: unknown option")
    assert err.count("\n") == 1
