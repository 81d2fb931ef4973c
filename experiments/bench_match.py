"""The match server's own work without the network: whole served games, every seat a bot.

    .venv/bin/python experiments/bench_match.py                 # 40 games of 4 bots
    .venv/bin/python experiments/bench_match.py --games 10 --profile

Each game is an ``antipolix.server.match.Match`` as the server makes it (its journal, its replay
written at the end), its four seats held by peers that keep the frames they are sent, each
seat played by the example bot (``experiments/bot_example.py``) from the observation frames it
got. What is timed (CPU time of this process) is what the server does for the frames a client
sends: each order frame parsed, checked and answered (``received``), and the turn resolved
with every frame that follows (observations, the spectators' view) made and handed to the
peers; and, apart, what it does once a game: creating it, the armies, the end. The bots'
decisions and the JSON the peers read are not timed. Without the transport, the event loop's
wake-ups and the other games, this is the part of ``experiments/bench_serve.py``'s server CPU
that the match logic takes; ``--profile`` lists where it goes (cProfile, timed parts only).
The figures depend on what else the machine runs: say so when you quote them.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

from bench_serve import bot_module  # the example bot, loaded as the load benchmark loads it

from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg


class Peer:
    """A client as the match sees it: keeps the last observation frame it was sent."""

    def __init__(self) -> None:
        self.observation = ""
        self.frames = 0

    def send(self, text: str) -> None:
        self.frames += 1
        if text.startswith('{"type":"observation"'):
            self.observation = text

    def close(self, reason: str) -> None:
        pass


async def run(args: argparse.Namespace, profiler: cProfile.Profile | None) -> dict[str, float]:
    from antipolix import Rules
    from antipolix.server.agents import agent_host
    from antipolix.server.match import Match, MatchSpec
    from antipolix.server.protocol import parse_frame
    from antipolix.server.seats import parse_seats

    bot = bot_module()
    rules = Rules(shape=(4, 12, 12), players=args.players, max_turns=400)
    agents = agent_host(0)
    seats = parse_seats(",".join(["bot"] * args.players))
    turns = frames = 0
    per_turn = per_game = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for g in range(-2, args.games):  # (two games first, not counted: the kernels load)
            measured = g >= 0

            def timed(start: float, profiling: bool = measured) -> float:
                if profiler is not None and profiling:
                    profiler.disable()
                return time.process_time() - start if profiling else 0.0

            def begin(profiling: bool = measured) -> float:
                if profiler is not None and profiling:
                    profiler.enable()
                return time.process_time()

            spec = MatchSpec(
                id=f"g{g + 2}",
                rules=rules,
                seats=seats,
                seed=args.seed + g + 2,
                seat_digests=tuple(f"s{s}" for s in range(args.players)),
                watch_digest="w",
            )
            start = begin()
            match = await Match.create(spec, agents=agents, data=Path(folder))
            peers = [Peer() for _ in range(args.players)]
            for s, peer in enumerate(peers):
                match.join(s, peer)
            welcome = match.welcome(0)
            for s in range(args.players):
                army = json.dumps({"type": "army", "items": bot.choose_army(welcome)})
                match.handle(s, parse_frame(army))
            per_game += timed(start)
            await asyncio.sleep(0)  # (the armies are placed after their replies)
            bots = [bot.Bot(match.welcome(s), random.Random(s)) for s in range(args.players)]
            while match.game.result is None:
                orders = []
                for s in match.game.living:
                    frame = json.loads(peers[s].observation)
                    order = {"type": "order", "turn": frame["turn"]}
                    order["order"] = bots[s].decide(frame["observation"])
                    orders.append((s, json.dumps(order)))
                start = begin()
                for s, text in orders:
                    match.handle(s, parse_frame(text))
                per_turn += timed(start)
                turns += measured
            start = begin()
            assert match._ending is not None
            await match._ending  # (the replay, written in a thread)
            await asyncio.sleep(0)
            per_game += timed(start)
            if measured:
                frames += sum(p.frames for p in peers)
    return {
        "turns": turns,
        "per_turn_ms": 1000 * per_turn / turns,
        "per_game_ms": 1000 * per_game / args.games,
        "frames_per_turn": frames / turns,
    }


def main() -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games", type=int_at_least(1), default=40, help="games measured (default 40)"
    )
    parser.add_argument(
        "--players", type=int_at_least(2), default=4, help="bots a game (default 4)"
    )
    parser.add_argument("--seed", type=seed_arg, default=1)
    parser.add_argument("--profile", action="store_true", help="list where the time goes")
    args = parser.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    out = asyncio.run(run(args, profiler))
    print(
        f"{args.games} games of {args.players} bots, {out['turns']:.0f} turns "
        f"({out['frames_per_turn']:.1f} frames a turn): {out['per_turn_ms']:.3f} ms a turn "
        f"(orders in, the turn, its frames out), {out['per_game_ms']:.2f} ms once a game "
        "(created, armies, end); CPU time of this process"
    )
    if profiler is not None:
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    run_script(main)
