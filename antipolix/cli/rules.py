"""``antipolix rules``: the rules' tables for any rules options (costs, strengths, move fields,
trait costs, combat, time, every option with its value), marking what differs from the 1995
rules.

antipolix rules
antipolix rules --rule hovercraft.cost=1 --rule shape=6,12,12
antipolix rules --rules proposed.toml
antipolix rules --game sight --rule size=7
"""

from __future__ import annotations

import argparse
from typing import Any

from antipolix import games
from antipolix.cli.common import add_rules_options, current_game, game_rules, rules_from_args
from antipolix.games import host
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
    if args.game == games.DEFAULT:
        print(rules_text(rules_from_args(args)))
    else:
        print(options_text(current_game(), game_rules(current_game(), args)))
    return 0


def options_text(game: Any, config: Any) -> str:
    """Another game's options (the ``--rule`` keys) with their values, ``*`` on what differs
    from its defaults, and where its rules page defines each."""
    info = game.info
    changed = {text.partition("=")[0] for text in host.overrides(game, config)}
    values = host.flat(game.config_to_dict(config))
    rows = [(o.name, values.get(o.name, o.default), o.section, o.help) for o in game.options]
    width = max(len(name) for name, *_ in rows)
    lines = [
        f"{info.title} rules (the rules in words: {info.rules_doc}, {info.sections}); "
        "* marks what differs from the defaults",
        "",
        f"  {'option':<{width}}  value        section  what it sets",
    ]
    for name, value, section, what in rows:
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        mark = "*" if name in changed else " "
        lines.append(f"  {name:<{width}}  {shown + mark:<12} {section:<8} {what}")
    return "\n".join(lines)
