"""``antipolix balance propose | meta | compare``: a cost table a designer can adopt, the meta at
given costs, and two cost tables side by side.

    antipolix balance propose --agent tuned --beside greedy,planner --fix fortress --out runs/p
    antipolix balance meta --agent tuned --rules proposed.toml --out runs/m
    antipolix balance compare start.toml runs/p/proposed.toml --out runs/c

Each writes a resumable study folder (running the same command again plays only what is
missing) with ``report.md`` and CSVs; bad input ends in one line, ``antipolix: error: ...``,
exit code 2, before any game or file.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from antipolix.cli.common import add_rules_options, add_seed_option, int_at_least, rules_from_args


def _names(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated names (agents, kinds), checked later as a whole."""
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def add_subcommands(balance: argparse.ArgumentParser) -> None:
    """``propose``, ``meta`` and ``compare`` under ``antipolix balance``."""
    sub = balance.add_subparsers(
        dest="balance_command",
        metavar="{propose,meta,compare}",
        title="subcommands (without one, balance fits a cost table at one agent)",
    )
    propose = sub.add_parser(
        "propose",
        help="propose a cost table balanced at the strongest agent that keeps the game healthy",
        description="Balance every kind's value per cost point at the strongest agent (values "
        "measured, the smallest change to each unbalanced kind, measured again), then keep the "
        "closest table to the start that keeps the health bounds (turn-limit draws, game "
        "length, seats, the ladder's order, the meta), re-derived on independent seed sets. "
        "Writes proposed.toml (every command takes it with --rules), report.md and CSVs.",
    )
    propose.add_argument("--agent", default="tuned", help="the strongest agent (default tuned)")
    propose.add_argument(
        "--beside",
        type=_names,
        default=(),
        metavar="A,B",
        help="agents whose values are reported beside the strongest agent's",
    )
    propose.add_argument(
        "--fix",
        type=_names,
        default=(),
        metavar="KINDS",
        help="kinds whose costs never move, e.g. fortress,army",
    )
    propose.add_argument(
        "--ladder",
        default=None,
        metavar="DIR|CSV",
        help="where the values study rates its agents: a tournament folder or a ratings.csv "
        "(default: the committed ladder at the table size)",
    )
    propose.add_argument(
        "--value-games",
        type=int_at_least(1),
        default=3000,
        metavar="N",
        help="games per values study, per agent and cost table (default 3000)",
    )
    propose.add_argument(
        "--iterations",
        type=int_at_least(1),
        default=6,
        metavar="K",
        help="balance steps at most per seed set (default 6)",
    )
    propose.add_argument(
        "--replicates",
        type=int_at_least(1),
        default=3,
        metavar="K",
        help="independent seed sets the balance is re-derived on (default 3)",
    )
    propose.add_argument(
        "--candidates",
        type=int_at_least(1),
        default=6,
        metavar="K",
        help="cost tables whose health is measured at most, the start aside (default 6)",
    )
    _add_health_options(propose)
    _add_meta_options(propose)
    _add_common(propose, rules=True)
    propose.set_defaults(func=run_propose)

    meta = sub.add_parser(
        "meta",
        help="the meta at given costs: which armies an agent buys to win",
        description="Search the armies the agent buys when it chooses its army to win (CMA-ES "
        "rounds against the equilibrium of the armies found so far), then the maximum-entropy "
        "Nash equilibrium between them: its armies, their compositions, the meta's diversity "
        "and the best army found against its mixture.",
    )
    meta.add_argument("--agent", default="tuned", help="the agent in every seat (default tuned)")
    _add_meta_options(meta)
    meta.add_argument(
        "--max-meta",
        type=_number,
        default=0.56,
        metavar="SHARE",
        help="the share the report compares the best army against the mixture with (0.56)",
    )
    _add_common(meta, rules=True)
    meta.set_defaults(func=run_meta)

    compare = sub.add_parser(
        "compare",
        help="two cost tables side by side: health and the meta of each, on common seeds",
        description="Play the health games, the ladder's re-run and the army search at both "
        "tables on the same seeds, and judge the second against the first with the proposal's "
        "bounds.",
    )
    compare.add_argument("first", type=Path, metavar="A.toml", help="the first rules file")
    compare.add_argument("second", type=Path, metavar="B.toml", help="the second rules file")
    compare.add_argument("--agent", default="tuned", help="the strongest agent (default tuned)")
    _add_health_options(compare)
    _add_meta_options(compare)
    _add_common(compare, rules=False)
    compare.set_defaults(func=run_compare)


def _add_common(p: argparse.ArgumentParser, *, rules: bool) -> None:
    add_seed_option(p, 0, "study seed")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="study folder")
    p.add_argument(
        "--workers",
        type=int_at_least(0),
        default=None,
        help="parallel workers (default: all cores; 0: in this process)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    if rules:
        add_rules_options(p)


def _add_health_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("health (the bounds a table must keep)")
    g.add_argument(
        "--health-games",
        type=int_at_least(1),
        default=400,
        metavar="N",
        help="games of the strongest agent per table (default 400)",
    )
    g.add_argument(
        "--max-draws",
        type=_number,
        default=0.05,
        metavar="SHARE",
        help="turn-limit draws at most the start's or this, whichever is larger (0.05)",
    )
    g.add_argument(
        "--max-length-change",
        type=_number,
        default=0.25,
        metavar="SHARE",
        help="the median game length within this share of the start's (0.25)",
    )
    g.add_argument(
        "--seat-level",
        type=_number,
        default=0.05,
        metavar="P",
        help="error level of the seat test (0.05: 95 %% intervals, shared among the seats)",
    )
    g.add_argument(
        "--max-meta",
        type=_number,
        default=0.56,
        metavar="SHARE",
        help="the best army found at most this share against the meta's mixture (0.56)",
    )
    g.add_argument(
        "--ladder-agents",
        type=_names,
        default=None,
        metavar="A,B",
        help="the agents of the ladder's re-run (default: --beside and --agent, or the "
        "planner and --agent)",
    )
    g.add_argument(
        "--ladder-games",
        type=int_at_least(1),
        default=200,
        metavar="N",
        help="games per pair of the ladder's re-run, two players (default 200)",
    )
    g.add_argument(
        "--no-ladder", action="store_true", help="do not check the ladder's order (no re-run)"
    )


def _add_meta_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("army search (the meta)")
    g.add_argument(
        "--rounds",
        type=int_at_least(1),
        default=4,
        metavar="K",
        help="rounds: each adds the best army against the equilibrium so far (4)",
    )
    g.add_argument(
        "--generations",
        type=int_at_least(1),
        default=8,
        metavar="K",
        help="CMA-ES generations per round (8)",
    )
    g.add_argument(
        "--population",
        type=int_at_least(2),
        default=None,
        metavar="K",
        help="candidates per generation (default: CMA-ES's, 10)",
    )
    g.add_argument(
        "--search-games",
        type=int_at_least(1),
        default=24,
        metavar="N",
        help="games per candidate, a multiple of the players (24)",
    )
    g.add_argument(
        "--check-games",
        type=int_at_least(1),
        default=96,
        metavar="N",
        help="fresh games of each round's best army against the field (96)",
    )
    g.add_argument(
        "--pair-games",
        type=int_at_least(1),
        default=48,
        metavar="N",
        help="games per pair of armies of the empirical game (48)",
    )


def _meta_settings(args: argparse.Namespace) -> Any:
    from antipolix.meta import MetaSettings

    return MetaSettings(
        rounds=args.rounds,
        generations=args.generations,
        population=args.population,
        games=args.search_games,
        check_games=args.check_games,
        pair_games=args.pair_games,
    )


# the army search's settings (MetaSettings' fields) → the options that set them
_OPTIONS = {
    "games": "--search-games",
    "check_games": "--check-games",
    "pair_games": "--pair-games",
    "rounds": "--rounds",
    "generations": "--generations",
    "population": "--population",
}


@contextmanager
def _options_named() -> Iterator[None]:
    """A refusal of the army search's settings names the option that set it: "games must be a
    positive multiple of 4" is the Python API's word for what ``--search-games`` sets (which
    of the three counts of games given was it?)."""
    from antipolix.meta import MetaError, SettingError

    try:
        yield
    except SettingError as exc:
        if exc.setting not in _OPTIONS:  # (sigma0: no option sets it)
            raise
        raise MetaError(f"argument {_OPTIONS[exc.setting]}: {exc.reason}") from None


def _settings(args: argparse.Namespace, **more: Any) -> Any:
    from antipolix.meta.health import Bounds
    from antipolix.meta.propose import ProposalSettings

    bounds = Bounds(
        draws=args.max_draws,
        length=args.max_length_change,
        seat_level=args.seat_level,
        ladder=not args.no_ladder,
        meta=args.max_meta,
    )
    return ProposalSettings(
        agent=args.agent,
        bounds=bounds,
        health_games=args.health_games,
        ladder_agents=args.ladder_agents,
        ladder_games=args.ladder_games,
        meta=_meta_settings(args),
        **more,
    )


def _say(line: str) -> None:
    print(line, flush=True)


def run_propose(args: argparse.Namespace) -> int:
    from antipolix.meta.run import propose

    rules = rules_from_args(args)
    settings = _settings(
        args,
        beside=args.beside,
        fix=args.fix,
        value_games=args.value_games,
        iterations=args.iterations,
        replicates=args.replicates,
        candidates=args.candidates,
        ladder=args.ladder,
    )
    with _options_named():
        result = propose(
            rules,
            settings,
            seed=args.seed,
            out=args.out,
            workers=args.workers,
            say=_say,
            progress=not args.no_progress,
        )
    print(result.stability().to_string(index=False))
    print(f"{result.verdict()}")
    if result.proposal is not None:
        print(f"proposed rules: {args.out / 'proposed.toml'}")
    print(f"report: {args.out / 'report.md'}")
    return 0 if result.proposal is not None else 1


def run_meta(args: argparse.Namespace) -> int:
    from antipolix.meta import MetaError, meta_search
    from antipolix.meta.health import Bounds
    from antipolix.meta.report import armies_text, how_sure, meta_verdict

    rules = rules_from_args(args)
    bound = Bounds(meta=args.max_meta)
    try:
        bound.checked()
    except MetaError as exc:
        raise MetaError(f"--max-meta: {exc}") from None
    with _options_named():
        meta = meta_search(
            rules,
            args.agent,
            settings=_meta_settings(args),
            seed=args.seed,
            out=args.out,
            workers=args.workers,
            progress=not args.no_progress,
            bound=args.max_meta,
        )
    print(armies_text(meta))
    print(how_sure(meta))
    print(meta_verdict(meta, args.max_meta))
    for flag in meta.flags():
        print(f"flag: {flag}")
    print(f"report: {args.out / 'report.md'}")
    return 0


def run_compare(args: argparse.Namespace) -> int:
    from antipolix.cli.common import checked_rules
    from antipolix.meta.compare import compare, load_table

    first = checked_rules(load_table(args.first))
    second = checked_rules(load_table(args.second))
    with _options_named():
        result = compare(
            first,
            second,
            _settings(args),
            names=(args.first.stem, args.second.stem),
            seed=args.seed,
            out=args.out,
            workers=args.workers,
            say=_say,
            progress=not args.no_progress,
        )
    print(result.verdicts_frame().to_string(index=False))
    print(f"report: {args.out / 'report.md'}")
    return 0


__all__ = ["add_subcommands"]
