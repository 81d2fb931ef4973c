"""``antipolix serve``: the live match server (:mod:`antipolix.server`).

antipolix serve --seats human,greedy --rule shape=4,8,8      # play in the browser
antipolix serve --seats bot,bot,greedy,tuned --seed 7        # programs in any language
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from antipolix import games
from antipolix.cli.common import add_rules_options, int_at_least, rules_from_args, seed_arg
from antipolix.errors import AntipolixError
from antipolix.files import check_creatable
from antipolix.rules import Rules
from antipolix.scores import PlayersFile
from antipolix.server.app import (
    Created,
    Server,
    ServerConfig,
    ServerError,
    check_game,
    run_serving,
    steady_heap,
)
from antipolix.server.match import WATCH_MODES
from antipolix.server.seats import SeatSpec, parse_seats

OPEN_HOSTS = ("0.0.0.0", "::", "")


MAX_AGENT_WORKERS = 64  # processes for the built-in agents, at most (each loads the compiled core)


def register(sub: Any) -> None:
    serve = sub.add_parser(
        "serve",
        help="serve live games to browsers and bots (a match server)",
        description="Serve live games: people play in the browser, programs in any language "
        "over the documented protocol (docs/protocol.md), built-in agents on the server. "
        "--seats creates a game and prints each seat's secret link; unfinished games of --data "
        "go on where they stopped. Listens on 127.0.0.1 (this machine) unless --host says "
        "otherwise.",
    )
    serve.add_argument(
        "--seats",
        metavar="SEATS",
        help="a game to create, one seat each: human (the browser), bot (a program) or a "
        "built-in agent (greedy, tuned, search:rollouts=4 ...), each optionally @NAME for the "
        "players file, e.g. human@ada,greedy",
    )
    add_rules_options(serve)
    serve.add_argument("--seed", type=seed_arg, help="the game's seed (default: drawn)")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to "
        "every machine that can reach this one, and says what that exposes)",
    )
    serve.add_argument("--port", type=_port, default=8037, help="HTTP and WebSocket port (8037)")
    serve.add_argument(
        "--tcp-port",
        type=_port,
        metavar="PORT",
        help="also speak the protocol as JSON lines over plain TCP on PORT",
    )
    serve.add_argument(
        "--data",
        type=Path,
        default=Path("out/served"),
        metavar="DIR",
        help="folder of the games' journals and replays (default out/served)",
    )
    serve.add_argument(
        "--players-file", type=Path, metavar="FILE", help="keep the players' scores here (R11)"
    )
    serve.add_argument(
        "--agent-min-think",
        type=_seconds,
        default=1.0,
        metavar="S",
        help="the built-in agents answer no sooner than this (seconds, default 1; 0: at once)",
    )
    serve.add_argument(
        "--agent-workers",
        type=int_at_least(0, maximum=MAX_AGENT_WORKERS),
        default=1,
        metavar="N",
        help=f"processes for the built-in agents' decisions, 0 to {MAX_AGENT_WORKERS} (default 1; "
        "0: a thread)",
    )
    serve.add_argument(
        "--watch",
        choices=WATCH_MODES,
        default="public",
        help="what spectators see: public (the board as every player sees it, default) or "
        "end (nothing until the game is over)",
    )
    serve.set_defaults(func=run_serve)


def _check_places(args: argparse.Namespace) -> None:
    """The ports, the data folder and the players file, before anything is bound or written."""
    if args.tcp_port is not None and args.tcp_port == args.port != 0:
        raise ServerError(f"--tcp-port {args.tcp_port} is the HTTP port (--port): give another")
    if args.data.exists() and not args.data.is_dir():
        raise ServerError(f"--data {args.data} is a file: give a folder for the games")
    if not args.data.exists():
        check_creatable(args.data, lambda why: ServerError(f"--data: {why}"))
    players = args.players_file
    if players is not None:
        if players.is_dir():
            raise ServerError(f"--players-file {players} is a folder: give a file")
        if not players.parent.is_dir():
            raise ServerError(f"the players file's folder {players.parent} does not exist")
        PlayersFile.load(players)  # (a file that is not a players file is refused now)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {port}")
    return port


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"give 0 to 3600 seconds, got {text}")
    return value


def run_serve(args: argparse.Namespace) -> int:
    if args.game != games.DEFAULT:
        raise ServerError(f"antipolix serve plays AntipoliX only, not {args.game}")
    seats = parse_seats(args.seats) if args.seats else None
    rules = rules_from_args(args, None if seats is None else len(seats), seats="--seats")
    _check_places(args)
    config = ServerConfig(
        host=args.host,
        port=args.port,
        tcp_port=args.tcp_port,
        data=args.data,
        players_file=args.players_file,
        agent_workers=args.agent_workers,
    )
    if seats is not None:  # refused before anything is bound or written
        check_game(seats, rules, args.watch, args.agent_min_think)
    run_serving(_serve(config, seats, rules, args))
    return 0


async def _serve(config: ServerConfig, seats: Any, rules: Any, args: argparse.Namespace) -> None:
    server = Server(config)
    await server.start()
    steady_heap()  # (after the imports and the restored games)
    try:
        _exposure(server, config)
        for match in server.restored:
            print(
                f"game {match.id}: restored from its journal ({match.phase}, turn "
                f"{match.game.turn}); its links are the ones printed when it was created"
            )
        if seats is not None:
            if any(s.kind == "agent" for s in seats):
                print(
                    "seating the built-in agents (the first time after an install their compiled "
                    "code is built: a minute or so)...",
                    flush=True,
                )
            created = await server.create_game(
                seats,
                rules,
                seed=args.seed,
                watch=args.watch,
                agent_min_think=args.agent_min_think,
            )
            _print_links(server, created)
        print(f"host token (the JSON API, POST /api/games): {server.host_token}")
        print(
            f"journals and replays in {config.data}; Ctrl-C stops the server (games in progress "
            "go on when it starts again)",
            flush=True,
        )
        if "play.html" not in server.web:
            print("note: no browser client (the viz package is missing): bots only", flush=True)
    except AntipolixError:
        await server.shutdown()
        raise
    await server.serve()


def _exposure(server: Server, config: ServerConfig) -> None:
    tcp = f"; protocol over TCP on port {server.tcp_address[1]}" if server.tcp_address else ""
    if config.host in OPEN_HOSTS or not config.host.startswith(("127.", "localhost", "::1")):
        print(
            f"antipolix serve: {server.url}{tcp}\n"
            f"WARNING: listening on {config.host or 'every address'}, not only this machine: "
            "anyone who can reach it can load the pages and the API's answers and connect to "
            "/ws. Playing a seat or watching a game needs its secret link, creating games the "
            "host token. The traffic is plain HTTP, not encrypted: use it on networks you trust."
        )
    else:
        print(f"antipolix serve: {server.url}{tcp} (this machine only)")


def _print_links(server: Server, created: Created) -> None:
    links = server.links(created)
    match = created.match
    rules = match.rules
    shape = "×".join(str(d) for d in rules.shape)
    labels = ", ".join(s.label for s in match.spec.seats)
    print(f"game {match.id}: {rules.players} players ({labels}) on {shape}, seed {match.spec.seed}")
    for seat in links["seats"]:
        who = f"P{seat['seat']} {seat['name']}"
        if seat["link"] is not None:
            print(f"  {who} ({seat['kind']}): {seat['link']}")
        else:
            wait = match.spec.agent_min_think
            agent = seat["agent"]
            print(f"  {who} ({agent}): played by the server, answers after {wait:g} s at least")
    print(f"  spectators ({match.spec.watch}): {links['watch']['link']}", flush=True)
    hint = clock_hint(rules, match.spec.seats, match.spec.agent_min_think)
    if hint:
        print(hint, flush=True)


PERSON_THINKS = 10.0  # seconds a turn: what the clock hint assumes of a person
LONG_GAME = 200  # turns: a game the clock hint deems long enough to play out


def clock_hint(rules: Rules, seats: Sequence[SeatSpec], min_think: float) -> str | None:
    """What the clocks (R7) mean for the people of a game against built-in agents, when they
    run out within :data:`LONG_GAME` turns (with the 1995 credit a person is out of time long
    before the armies meet: zero-sum, while a person thinks each agent that has answered takes
    a second a second from them), and the credit that would last that long. None otherwise,
    or when no person plays an agent, or there are no clocks."""
    people = sum(1 for s in seats if s.kind == "human")
    agents = sum(1 for s in seats if s.kind == "agent")
    lost = agents * max(PERSON_THINKS - min_think, 0.0)  # a turn, the agents' order first
    if not rules.timers or not people or not lost:
        return None
    credit = rules.initial_timer
    turns = int(credit // lost)
    if turns >= LONG_GAME:
        return None
    need = 60 * math.ceil(lost * LONG_GAME / 60)  # (whole minutes)
    return (
        f"  clocks (R7): {credit:g} s each, zero-sum: a person who thinks {PERSON_THINKS:g} s "
        f"a turn while {agents} agent{'s' if agents > 1 else ''} answer{'' if agents > 1 else 's'}"
        f" in {min_think:g} s loses about {lost:g} s a turn: out of time after about "
        f"{max(turns, 1)} turns. For about {LONG_GAME}: --rule time_credit={need} --rule "
        f"time_total={need * rules.players}, or no clocks: --rule timers=false"
    )
