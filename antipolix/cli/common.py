"""What every command shares: the game played, argument types, rules options, agents, error
reporting.

Every command takes ``--game NAME`` (default ``antipolix``). The command line is read once for
it before the commands' parsers are built (:func:`game_in`), so that ``--agents`` is checked
against that game's agents and defaults to its own (:data:`GAME`).
"""

from __future__ import annotations

import argparse
import contextvars
import hashlib
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from antipolix import games
from antipolix.agents import Agent, agent_named
from antipolix.codec import (
    load_rules_file,
    load_rules_table,
    parse_override,
    with_options,
)
from antipolix.errors import AntipolixError, RulesError, shown
from antipolix.games import host
from antipolix.limits import check_seed, check_size, size_warning
from antipolix.rulebook import DOC
from antipolix.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

# The game the command line names (``--game``), read before the parsers are built.
GAME: contextvars.ContextVar[str] = contextvars.ContextVar("game", default=games.DEFAULT)


def game_in(argv: Sequence[str]) -> str | None:
    """The game ``argv`` names with ``--game NAME`` (or ``--game=NAME``, the last one given),
    the default when it names none, None when it names one that is not registered (the parser
    refuses it: :func:`game_arg`)."""
    found: str | None = games.DEFAULT
    for i, token in enumerate(argv):
        if token == "--":
            break
        name = None
        if token == "--game" and i + 1 < len(argv):
            name = argv[i + 1]
        elif token.startswith("--game="):
            name = token.partition("=")[2]
        if name is not None:
            key = name.strip().lower()
            found = key if key in games.names() else None
    return found


def game_arg(text: str) -> str:
    """An argparse type: a registered game's name."""
    key = text.strip().lower()
    if key not in games.names():
        raise argparse.ArgumentTypeError(
            f"unknown game {text!r} (games: {', '.join(games.names())})"
        )
    return key


def add_game_option(parser: argparse.ArgumentParser, default: str | None = games.DEFAULT) -> None:
    """``--game NAME``: one of the registered games (``default``; None: as a file says)."""
    parser.add_argument(
        "--game",
        type=game_arg,
        default=default,
        metavar="NAME",
        help=f"the game played: {', '.join(games.names())} ("
        + (f"default {default})" if default else "default: the file's)"),
    )


def current_game() -> Any:
    """The :class:`~antipolix.games.protocol.GameDef` the command line names."""
    return games.game(GAME.get())


def default_agents(antipolix: str) -> str:
    """A command's default ``--agents``: ``antipolix`` for AntipoliX, else the game's own."""
    if GAME.get() == games.DEFAULT:
        return antipolix
    return ",".join(host.default_agents(current_game()))


MAX_COUNT = 10**9  # the largest count a command reads: a billion games, workers, replicates...


def int_at_least(minimum: int, what: str = "", maximum: int = MAX_COUNT) -> Callable[[str], int]:
    """An argparse type: an integer from ``minimum`` to ``maximum`` (by default a billion:
    a count beyond it is a slip, and 10**20 games hung in planning their chunks), refused
    with a message that says why."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what}{value} must be >= {minimum}")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"{what}{value:,} must be at most {maximum:,}")
        return value

    return parse


def float_in(
    low: float, high: float = math.inf, what: str = "", *, open_low: bool = False
) -> Callable[[str], float]:
    """An argparse type: a number from ``low`` to ``high`` (above ``low`` with ``open_low``),
    refused with a message that says why (``nan`` and the infinities included)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a number") from None
        too_low = value <= low if open_low else value < low
        if not math.isfinite(value) or too_low or value > high:
            bounds = f"> {low:g}" if open_low else f">= {low:g}"
            if high < math.inf:
                bounds += f" and <= {high:g}"
            said = text if len(text) <= 60 else shown(text)
            raise argparse.ArgumentTypeError(f"{what}{said} must be a number {bounds}")
        return value

    return parse


def make_folder(path: Path, what: str = "--out") -> Path:
    """Create folder ``path`` (and its parents) now, before any work whose results go there;
    one that cannot be made (a file in the way, no permission) is refused in one line."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = _why_not(exc)
        raise AntipolixError(f"{what} {path}: cannot make this folder ({why})") from None
    return path


def _why_not(exc: OSError) -> str:
    """Why a folder could not be made, in words."""
    if isinstance(exc, FileExistsError | NotADirectoryError):
        return "a file is in the way"
    return exc.strerror or str(exc)


def file_to_write(path: Path, what: str = "--out") -> Path:
    """A file that will be written after minutes of work: its folder made now and the name
    not a folder's, else refused in one line."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AntipolixError(f"{what} {path}: cannot make its folder ({_why_not(exc)})") from None
    if path.is_dir():
        raise AntipolixError(f"{what} {path}: a folder, not a file")
    return path


def seed_arg(text: str) -> int:
    """An argparse type: a seed from 0 to 2**63 - 1, the same range for every command (R12)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    try:
        return check_seed(value)
    except AntipolixError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_seed_option(parser: argparse.ArgumentParser, default: int, what: str) -> None:
    parser.add_argument(
        "--seed",
        type=seed_arg,
        default=default,
        help=f"{what}, 0 to 2**63 - 1 (default {default})",
    )


def add_ray_options(
    parser: argparse.ArgumentParser, *, in_process: str = "0", chunks: bool = True
) -> None:
    """``--workers`` and ``--address`` (where games run: Ray, or this process for the
    ``in_process`` worker counts), and ``--chunk-size`` when ``chunks``."""
    parser.add_argument(
        "--workers",
        type=int_at_least(0, "workers "),
        metavar="K",
        help=f"games at a time on Ray (default: every CPU); {in_process} plays in this process"
        + (", no Ray" if in_process == "0" else ""),
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        help="Ray cluster to join: auto, or HOST:PORT (default: start Ray on this machine)",
    )
    if chunks:
        parser.add_argument(
            "--chunk-size",
            type=int_at_least(1, "chunk size "),
            metavar="N",
            help="games per task and per file (default: automatic, tasks of a few seconds)",
        )


def agent_list(text: str) -> list[str]:
    """An argparse type: comma-separated built-in agent names of the game the command line
    names (:data:`GAME`), checked at once."""
    names = [n.strip() for n in text.split(",")]
    game = current_game()
    for name in names:
        try:
            host.make_agent(game, name)
        except AntipolixError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--game``, ``--rules FILE`` and ``--rule KEY=VALUE``: what game, under what rules."""
    add_game_option(parser)
    group = parser.add_argument_group(
        "rules (the options of the game's rules page, for AntipoliX "
        f"{DOC}; default: the 1995 rules; 'antipolix rules' prints them)"
    )
    group.add_argument(
        "--rules",
        type=Path,
        metavar="FILE",
        help="a TOML file of rule options (e.g. players = 6, [hovercraft] cost = 1)",
    )
    group.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one option, repeatable: players=6, shape=6,12,12, hovercraft.cost=1, "
        "invisible.cost=4, max_turns=500, timers=false",
    )


def checked_rules(rules: Rules) -> Rules:
    """``rules`` if a game of them fits the size limits (:mod:`antipolix.limits`); a large but
    allowed game gets one warning line on stderr with its estimated memory and time."""
    check_size(rules)
    warning = size_warning(rules)
    if warning is not None:
        print(f"antipolix: warning: {warning}", file=sys.stderr, flush=True)
    return rules


def rules_from_args(
    args: argparse.Namespace, players: int | None = None, seats: str = "--agents"
) -> Rules:
    """Rules from ``--rules`` and ``--rule``; ``players`` (the number of agents given, by the
    option ``seats``: ``--agents``, or ``serve``'s ``--seats``) fills in the player count when
    neither sets it, and must agree with it when one does. Every command checks them the same
    way: :class:`Rules`, then the size limits (:func:`checked_rules`)."""
    return checked_rules(_rules_from_args(args, players, seats))


def _rules_from_args(args: argparse.Namespace, players: int | None, seats: str) -> Rules:
    base = Rules() if args.rules is None else load_rules_file(args.rules)
    options = [parse_override(r) for r in args.rule]
    explicit = any(key == "players" for key, _ in options) or (
        args.rules is not None and "players" in load_rules_table(args.rules)
    )
    if players is not None and not explicit:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:  # (the agents are the players)
            raise RulesError(
                f"AntipoliX seats {MIN_PLAYERS} to {MAX_PLAYERS} players (R3), but "
                f"{_seats_given(players, seats)}"
            )
        # the agents' count with the other options, checked once at it: checked first at the
        # default's 4 players, --rule shape=2,5,5 was refused a 2-player game it allows (R3)
        options.append(("players", players))
    rules = with_options(base, options)
    if players is not None and rules.players != players:
        by_file = not any(key == "players" for key, _ in options)  # (the rules file's count)
        hint = f" (or --rule players={players} for a game of {players})" if by_file else ""
        raise RulesError(
            f"the rules are for {rules.players} players but {_seats_given(players, seats)}{hint}"
        )
    return rules


def _seats_given(count: int, option: str = "--agents") -> str:
    """What ``--agents`` (or ``--seats``) gave, for a refusal: the players are its seats."""
    noun = "agent" if option == "--agents" else "seat"
    given = f"1 {noun} is given" if count == 1 else f"{count} {noun}s are given"
    return f"{given}: {option} names " + ("one agent a seat" if noun == "agent" else "each seat")


def add_agents_option(parser: argparse.ArgumentParser, lineup: str) -> None:
    """``--agents``, one built-in agent a seat, whose default ``lineup`` takes as many seats
    as the rules have players (:func:`seat_agents`)."""
    parser.add_argument(
        "--agents",
        type=agent_list,
        default=None,
        metavar="A,B,...",
        help=f"one built-in agent per seat, comma-separated (default {lineup}; with --rule "
        "players=P, P seats of them in turn); the number of agents sets the number of players",
    )
    parser.set_defaults(lineup=lineup)


def seat_agents(args: argparse.Namespace) -> list[str]:
    """The agents of ``--agents`` (:func:`add_agents_option`), or, when none are given, the
    command's default lineup in turn, one a seat of the players the rules set (``--rule
    players=3``, a rules file's ``players``; the game's default count otherwise): ``play
    --rule players=3`` is a game of three, not a refusal of the default's four agents."""
    if args.agents is not None:
        return list(args.agents)
    lineup = agent_list(args.lineup)
    if GAME.get() == games.DEFAULT:  # (not checked_rules: the command checks them next, once)
        players = _rules_from_args(args, None, "--agents").players
    else:
        players = game_rules(current_game(), args).players
    return [lineup[i % len(lineup)] for i in range(players)]


DEMO_AGENTS_CHARS = 80  # the longest the agents' part of a demo's file names is written out


def demo_stem(prefix: str, seed: int, agents: Sequence[str], changed: Sequence[str]) -> str:
    """The stem of a demo's files that is not the default demo: ``prefix``, the seed, the agents
    (parameters without ``:`` and ``=``, which some systems refuse in file names) and a short
    digest of the rule options ``changed``; ten agents with parameters named in full made a name
    longer than a file system takes, so agents past :data:`DEMO_AGENTS_CHARS` characters are
    their count and a digest of their names."""
    who = "-".join(agents).replace(":", "_").replace("=", "")
    if len(who) > DEMO_AGENTS_CHARS:
        who = f"{len(agents)}-agents-{_digest(','.join(agents))}"
    name = f"{prefix}-seed{seed}-{who}"
    return name + (f"-rules-{_digest(' '.join(changed))}" if changed else "")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def agents_from_names(names: list[str]) -> list[Agent]:
    return [agent_named(n) for n in names]


def game_rules(game: Any, args: argparse.Namespace, players: int | None = None) -> Any:
    """Another game's rules from ``--rules`` (a TOML table of its options) and ``--rule``
    (validated by the game); ``players`` (the number of agents given) fills in the player count
    when neither sets it, and must agree with it when one does."""
    texts: dict[str, str] = {}
    if getattr(args, "rules", None) is not None:
        for key, value in host.flat(load_rules_table(args.rules)).items():
            texts[key] = _toml_text(value)
    for text in getattr(args, "rule", []):
        key, _ = parse_override(text)
        texts[key] = text.partition("=")[2].strip()
    explicit = "players" in texts
    config = game.config_from_text(texts) if texts else game.config()
    if players is None:
        return config
    if not explicit and config.players != players:
        return host.with_options(game, config, [("players", players)])
    if config.players != players:
        raise RulesError(f"the rules are for {config.players} players but {_seats_given(players)}")
    return config


def _toml_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_toml_text(v) for v in value)
    return str(value)


def game_agents(game: Any, names: Sequence[str]) -> list[Any]:
    return [host.make_agent(game, n) for n in names]
