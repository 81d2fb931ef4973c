"""The commands for every game but AntipoliX, through the game protocol: ``play``, ``demo``,
``tournament`` and ``replay`` with ``--game NAME`` (AntipoliX's own printing
stays in each command's module).

    antipolix play --game sight --agents random,random --seed 3 --log
    antipolix demo --game sight
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from antipolix.cli.common import current_game, demo_stem, game_agents, game_rules
from antipolix.errors import RulesError, SimulationError
from antipolix.games import host, replays
from antipolix.games.protocol import GameDef, Outcome, State, play_one, seed_sequence
from antipolix.runner import check_out, simulate

DEMO_BATCH = 200  # games of the demo batch, as AntipoliX's
PICTURES = "antipolix.pictures"  # entry points of picture writers (viz registers ``png``)


def _rules_text(game: GameDef, config: Any) -> str:
    return " ".join(host.overrides(game, config)) or "the defaults"


def _indented(text: str, by: str = "    ") -> str:
    return "\n".join(by + line for line in text.splitlines())


def play_and_print(
    game: GameDef,
    config: Any,
    names: Sequence[str],
    seed: int,
    replay: Path | None,
    log: bool,
    boards: bool = False,
) -> Outcome:
    """Play one game, printing what it is, with ``log`` every turn's actions (and with
    ``boards`` the board after each), then the result and the final board; write its replay
    when asked."""
    agents = game_agents(game, names)
    host.check_agents(game, config, agents)
    ss = seed_sequence(seed)
    recorder = None if replay is None else replays.Recorder(game, config, agents, ss, replay)
    print(
        f"{game.info.title}: {config.players} players ({', '.join(names)}), seed {seed}, "
        f"rules {_rules_text(game, config)}"
    )

    def on_action(state: State, actions: Mapping[int, int]) -> None:
        if recorder is not None:
            recorder.action(state, actions)
        if log:
            for seat, action in actions.items():
                text = game.action_to_text(state, action)
                print(f"turn {state.turn + 1:4d}: seat {seat} ({names[seat]}): {text}")
                if boards:
                    after = state.clone()
                    after.apply(actions)
                    print(_indented(host.board_text(game, after)))

    state, outcome = play_one(game, config, agents, ss, on_action=on_action)
    if recorder is not None:
        recorder.finish(state, outcome)
    for line in replays.result_lines(outcome, names):
        print(line)
    if not boards and game.info.board == "2d":
        print(_indented(host.board_text(game, state)))
    if replay is not None:
        print(f"replay written to {replay}")
    return outcome


def run_play(args: argparse.Namespace) -> int:
    game = current_game()
    config = game_rules(game, args, players=len(args.agents))
    play_and_print(game, config, args.agents, args.seed, args.replay, args.log)
    return 0


def demo_name(game: GameDef, args: argparse.Namespace, config: Any, default: str) -> str:
    """The name of a demo's files: ``demo-GAME`` for the game's default demo, else one naming
    its seed, agents and (when the rules differ from the defaults) a short digest of them."""
    name = f"demo-{game.info.name}"
    changed = host.overrides(game, config)
    if args.seed == 7 and ",".join(args.agents) == default and not changed:
        return name
    return demo_stem(name, args.seed, args.agents, changed)


def run_demo(args: argparse.Namespace, default_agents: str) -> int:
    """A game of another game than AntipoliX, played and printed turn by turn with its board in
    text, its replay and a picture of its end beside it, then a batch of games on Ray."""
    game = current_game()
    config = game_rules(game, args, players=len(args.agents))
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise SimulationError(f"cannot use --out {out}: it is a file, not a folder")
    name = demo_name(game, args, config, default_agents)
    replay = out / f"{name}.apx.json.gz"
    batch = out / f"{name}-batch-{args.batch}"
    if args.batch:
        check_out(config, args.agents, args.batch, args.seed, batch, shuffle_seats=True,
                  game=game.info.name)  # fmt: skip
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimulationError(f"cannot create --out {out}: {exc.strerror}") from None
    play_and_print(game, config, args.agents, args.seed, replay, log=True, boards=True)
    code = _picture(replay, out / f"{name}.png")
    if code or not args.batch:
        return code
    print(
        f"\nbatch: {args.batch} games of {', '.join(args.agents)}, seats shuffled per game, "
        f"seed {args.seed}, in {batch}"
    )
    results = simulate(
        config,
        args.agents,
        args.batch,
        args.seed,
        game=game.info.name,
        workers=args.workers,
        out=batch,
        shuffle_seats=True,
        progress=True,
    )
    print(results.summary())
    return 0


def _picture(replay: Path, png: Path) -> int:
    """Draw the game's last turn into ``png`` with the picture writer another package
    registers (``viz``'s ``png``), so that antipolix never imports the viewer by name."""
    entry = next((e for e in entry_points(group=PICTURES) if e.name == "png"), None)
    if entry is None:
        print("antipolix: error: the view command is not installed (package viz)", file=sys.stderr)
        return 2
    try:
        save = entry.load()
    except ImportError as exc:
        print(f"antipolix: error: the picture writer is unavailable: {exc}", file=sys.stderr)
        return 2
    recorded = replays.load(replay)
    path = save(recorded, recorded.last_turn, png)
    print(f"picture: the last turn, written to {path}")
    return 0


def table_rules(args: argparse.Namespace) -> Any:
    """Another game's rules for ``--players`` seats (an explicit other count is refused)."""
    game = current_game()
    config = game_rules(game, args)
    given = [r for r in args.rule if r.partition("=")[0].strip() == "players"]
    if args.players is None:  # the tables' size from the rules, else two
        args.players = config.players if given else 2
    if given and config.players != args.players:
        raise RulesError(
            f"the rules are for {config.players} players but --players is {args.players}; "
            "--players sets the size of the tables"
        )
    return host.table_config(game, config, args.players)


def run_verify(args: argparse.Namespace, replay: Any) -> int:
    report = replays.verify(replay)
    print(f"{args.file}: {report}")
    return 0 if report.complete else 1


def run_show(args: argparse.Namespace, replay: Any) -> int:
    for line in replays.summary_lines(replay, log=args.log):
        print(line)
    game = replay.game
    if game.info.board == "2d":
        print(_indented(host.board_text(game, replay.state_at(replay.last_turn))))
    return 0
