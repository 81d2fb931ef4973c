"""``antipolix rules``: the rules' tables for any rules options (costs, strengths, move fields,
trait costs, combat, time, every option with its value), marking what differs from the 1995
rules.

antipolix rules
antipolix rules --rule hovercraft.cost=1 --rule shape=6,12,12
antipolix rules --rules proposed.toml
"""

from __future__ import annotations

import argparse
from typing import Any

from antipolix.cli.common import add_rules_options, rules_from_args
from antipolix.rulebook import DOC, rules_text


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rules",
        help="print the rules' tables (costs, strengths, fields, every option) for any rules",
        description="Print the rules a game would be played with: the piece types' costs, "
        "strengths and move fields, the traits' costs, every piece's cost, combat, time and "
        "teleporters, and every option with its value (the --rule keys), marking with * what "
        f"differs from the 1995 rules. The rules themselves, in words: {DOC}.",
    )
    add_rules_options(p)
    p.set_defaults(func=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    print(rules_text(rules_from_args(args)))
    return 0
