"""Load on the match server: many games at once, every seat a bot client answering at once.

    .venv/bin/python experiments/bench_serve.py                 # 50 games of 4 bots, 20 s
    .venv/bin/python experiments/bench_serve.py --games 10 --seconds 5 --orders pass
    .venv/bin/python experiments/bench_serve.py --floor          # the transport alone
    .venv/bin/python experiments/bench_serve.py --think 0.1      # bots that answer after 0.1 s
    .venv/bin/python experiments/bench_serve.py --loop asyncio   # asyncio's loop, not uvloop

The server runs in its own process (``antipolix.server.Server`` on 127.0.0.1, a free port, no
built-in agents: every seat is a bot; its garbage collector and event loop set as ``antipolix
serve`` sets them: uvloop when installed), so that its CPU time is its own. This process creates
the games through the host's API and plays every seat over a WebSocket (one connection a seat:
websockets' sans-I/O client on an asyncio protocol, each frame answered in the call that read
it, JSON by orjson and the event loop as the server has them; the bots share the machine's two
cores with the server, so they spend as little as they can): each bot answers each observation
at once, with the example bot's order (``experiments/bot_example.py``: attack, else a step
toward the enemy) or, with ``--orders pass``, with Pass. A game that ends is replaced by a new
one, so the load stays.

After a warm-up, it measures for ``--seconds``: the turns served a second (all games), the time
from the last order of a turn to the next observation (each seat's, as its bot sees it: send to
receive, so the transport and both event loops are in it; 50th, 99th percentile and the worst),
and the CPU the server process used (a core = 1.0) and per turn. Loopback only, bounded in
games and time; it stops by itself and stops the server. With ``--floor`` the server answers
orders without the match logic (the same frames, see :func:`_transport_only`): its CPU a turn
is then what the WebSocket transport and the event loop cost. With ``--loop asyncio`` both
processes run on asyncio's own loop (as before uvloop: to compare). The figures depend on what
else the machine runs: say so when you quote them.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import multiprocessing
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import orjson
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from antipolix.cli import Parser
from antipolix.cli.common import float_in, int_at_least, seed_arg

ROOT = Path(__file__).resolve().parents[1]


def _loop(name: str) -> Callable[[Coroutine[Any, Any, Any]], Any]:
    """What runs a process's event loop: the server's own choice (``run_serving``: uvloop when
    installed), or asyncio's loop (``--loop asyncio``)."""
    from antipolix.server.app import run_serving

    return asyncio.run if name == "asyncio" else run_serving


def _server(
    conn: Any, data: str, profile: str | None = None, floor: bool = False, loop: str = "server"
) -> None:
    """The server's process: serves until told to stop; answers "cpu" with its CPU seconds."""
    from antipolix.server import Limits, Server, ServerConfig
    from antipolix.server.app import steady_heap

    run_loop = _loop(loop)

    if floor:
        _transport_only()

    async def main() -> None:
        config = ServerConfig(
            port=0, data=Path(data), agent_workers=0, limits=Limits(max_games=256)
        )
        server = Server(config, web={})
        await server.start()
        steady_heap()  # (as ``antipolix serve`` does)
        loop = asyncio.get_running_loop()
        conn.send((server.url, server.host_token))

        def listen() -> None:
            while True:
                message = conn.recv()
                if message == "cpu":
                    use = resource.getrusage(resource.RUSAGE_SELF)
                    conn.send(use.ru_utime + use.ru_stime)
                else:
                    loop.call_soon_threadsafe(server.stop)
                    return

        threading.Thread(target=listen, daemon=True).start()
        await server.serve()

    if profile is None:
        run_loop(main())
        return
    import cProfile

    with cProfile.Profile() as profiler:
        run_loop(main())
    profiler.dump_stats(profile)


def _transport_only() -> None:
    """``--floor``: the server's sessions answer orders without the match (no engine, no
    checks, no journal, no clocks): each order is read (orjson) and gets a received frame (of
    a Pass, encoded as the server encodes it), and once every seat of a game has answered,
    each seat gets its first observation frame again (made once), the turn's number changed.
    As many frames in and out as a real turn has, about as large: the server's CPU is then
    what the transport and the event loop cost, the floor under what the match logic adds."""
    import antipolix.server.app as app
    from antipolix.server.protocol import encode

    take = app.Session.take
    games: dict[str, dict[str, Any]] = {}

    def answer(self: Any, raw: str | bytes) -> None:
        data = orjson.loads(raw)
        if data.get("type") != "order":
            take(self, raw)  # (hello, armies: as the server does)
            return
        match, turn = self.match, data["turn"]
        game = games.get(match.id)
        if game is None:  # the first turn's observations, cut around the turn's number
            texts = {}
            for seat in match.game.living:
                text = encode(match._observation(seat, turn, match._clocks()))
                cut = text.index(f'"turn":{turn},') + len('"turn":')
                texts[seat] = (text[:cut], text[cut + len(str(turn)) :])
            game = games[match.id] = {"texts": texts, "in": set(), "peers": {}}
        game["peers"][self.seat] = self.peer
        received = {"type": "received", "game": match.id, "turn": turn, "at": 0.1}
        received.update(order={"kind": "Pass"}, messages=[], legal_now=True)
        self.peer.send(encode(received))
        game["in"].add(self.seat)
        if len(game["in"]) == len(game["texts"]):
            game["in"] = set()
            for seat, (head, tail) in game["texts"].items():
                peer = game["peers"].get(seat)
                if peer is not None:
                    peer.send(f"{head}{turn + 1}{tail}")

    setattr(app.Session, "take", answer)  # noqa: B010 (a method replaced, in this process only)


def bot_module() -> Any:
    """The example bot (``experiments/bot_example.py``), loaded from its file."""
    spec = importlib.util.spec_from_file_location(
        "bot_example", ROOT / "experiments" / "bot_example.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Load:
    """The bots of every game, and what they measure."""

    def __init__(self, url: str, host: str, args: argparse.Namespace) -> None:
        self.url, self.host, self.args = url, host, args
        self.ws = "ws" + url[4:] + "/ws"
        self.bot = bot_module()
        self.rng = random.Random(args.seed)
        self.measuring = False
        self.latencies: list[float] = []
        self.turns = 0
        self.games_done = 0
        self.ends: dict[str, int] = {}  # how the games that ended ended
        self.last_order: dict[tuple[str, int], float] = {}  # (game, turn) -> last order sent
        self.stop = asyncio.Event()

    def create(self) -> dict[str, Any]:
        body = json.dumps(
            {
                "seats": ",".join(["bot"] * self.args.players),
                "rule": self.args.rule,
                "seed": self.rng.randrange(2**62),
            }
        ).encode()
        request = urllib.request.Request(
            self.url + "/api/games",
            data=body,
            method="POST",
            headers={"Authorization": f"Bearer {self.host}"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            created: dict[str, Any] = json.loads(response.read())
        return created

    async def game(self) -> None:
        """One game's bots; a new game when it ends, until the run stops."""
        while not self.stop.is_set():
            created = await asyncio.to_thread(self.create)
            seats = [s["token"] for s in created["seats"]]
            await asyncio.gather(*(self.seat(created["game"], s, t) for s, t in enumerate(seats)))
            self.games_done += 1

    async def seat(self, game: str, seat: int, token: str) -> None:
        """Play one seat until its game ends or the run stops."""
        host, port = self.ws.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
        loop = asyncio.get_running_loop()
        transport, bot = await loop.create_connection(
            lambda: Seat(self, game, seat, token), host, int(port)
        )
        try:
            while not self.stop.is_set() and not bot.done.done():
                await asyncio.wait([bot.done], timeout=1)
        finally:
            transport.close()

    def observed(self, game: str, turn: int, seat: int, now: float) -> None:
        """A seat's observation of ``turn`` arrived at ``now``: the time since the last order
        of the turn before."""
        last = self.last_order.get((game, turn - 1))
        self.last_order.pop((game, turn - 2), None)
        if self.measuring and last is not None:
            self.latencies.append(now - last)
            if seat == 0:
                self.turns += 1

    def ordered(self, game: str, turn: int, stamp: float) -> None:
        key = (game, turn)
        self.last_order[key] = max(self.last_order.get(key, 0.0), stamp)


class Seat(asyncio.Protocol):
    """One bot's connection: websockets' sans-I/O client protocol on an asyncio protocol, each
    frame answered in the call that read it (no task, coroutine or queue a message), so that
    the bots' process, which shares the machine with the server, spends little on each
    frame."""

    def __init__(self, load: Load, game: str, seat: int, token: str) -> None:
        self.load, self.game, self.seat, self.token = load, game, seat, token
        self.ws = ClientProtocol(parse_uri(load.ws), max_size=2**24)
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.bot: Any = None
        self.parts: list[Any] = []  # (a message's frames: bytes-like)
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def flush(self) -> None:
        for chunk in self.ws.data_to_send():
            if chunk:
                self.transport.write(chunk)
            elif self.transport.can_write_eof():
                self.transport.write_eof()

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(orjson.dumps(message))
        self.flush()

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:  # (refused: this seat ends)
                    self.transport.close()
                    return
                hello = {"type": "hello", "protocol": 1, "game": self.game, "token": self.token}
                self.send(hello)
            elif isinstance(event, Frame) and event.opcode in (Opcode.TEXT, Opcode.CONT):
                self.parts.append(event.data)
                if event.fin:
                    text, self.parts = b"".join(self.parts), []
                    self.frame(orjson.loads(text), now)
        self.flush()
        if self.ws.close_expected() or self.done.done():
            self.transport.close()

    def frame(self, frame: dict[str, Any], now: float) -> None:
        load, kind = self.load, frame["type"]
        if kind == "welcome":
            self.bot = load.bot.Bot(frame, random.Random(self.seat))
            if frame["phase"] == "armies":
                self.send({"type": "army", "items": load.bot.choose_army(frame)})
        elif kind == "observation" and frame["turn"] is not None:
            turn = frame["turn"]
            load.observed(self.game, turn, self.seat, now)
            if load.args.orders == "pass":
                order: dict[str, Any] = {"kind": "Pass"}
            else:
                order = self.bot.decide(frame["observation"])
            if load.args.think > 0:
                loop = asyncio.get_running_loop()
                loop.call_later(load.args.think, self.order, turn, order)
            else:
                self.order(turn, order)
        elif kind == "result":
            if self.seat == 0:
                why = frame["result"]["why"]
                load.ends[why] = load.ends.get(why, 0) + 1
            if not self.done.done():
                self.done.set_result(None)

    def order(self, turn: int, order: dict[str, Any]) -> None:
        if self.done.done() or self.transport.is_closing():
            return
        self.send({"type": "order", "turn": turn, "order": order})
        self.load.ordered(self.game, turn, time.perf_counter())


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 10) - 1] if len(values) > 1 else values[0]


async def run(args: argparse.Namespace, url: str, host: str, cpu: Any) -> dict[str, Any]:
    load = Load(url, host, args)
    tasks = [asyncio.create_task(load.game()) for _ in range(args.games)]
    await asyncio.sleep(args.warmup)
    before_cpu = cpu()
    client_before = time.process_time()
    started = time.perf_counter()
    load.measuring = True
    await asyncio.sleep(args.seconds)
    load.measuring = False
    elapsed = time.perf_counter() - started
    server_cpu = cpu() - before_cpu
    client_cpu = time.process_time() - client_before
    load.stop.set()
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    return {
        "elapsed": elapsed,
        "turns": load.turns,
        "latencies": load.latencies,
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
        "games_done": load.games_done,
        "loop": type(asyncio.get_running_loop()).__module__.split(".")[0],
        "ends": load.ends,
    }


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int_at_least(1), default=50, help="games at once (default 50)"
    )
    parser.add_argument(
        "--players", type=int_at_least(2), default=4, help="bots a game (default 4)"
    )
    parser.add_argument(
        "--seconds",
        type=float_in(0, 600, open_low=True),
        default=20.0,
        help="measured seconds (20)",
    )
    parser.add_argument(
        "--warmup", type=float_in(0, 600), default=5.0, help="seconds before measuring (5)"
    )
    parser.add_argument(
        "--orders",
        choices=("bot", "pass"),
        default="bot",
        help="what the bots answer: the example bot's order, or Pass",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=["shape=4,12,12", "max_turns=400"],
        metavar="KEY=VALUE",
        help="rules of the games (default shape=4,12,12, max_turns=400)",
    )
    parser.add_argument(
        "--think",
        type=float_in(0, 10),
        default=0.0,
        metavar="SECONDS",
        help="each bot answers this long after its observation (default 0: at once)",
    )
    parser.add_argument("--seed", type=seed_arg, default=1)
    parser.add_argument("--profile", metavar="FILE", help="profile the server (cProfile) into FILE")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="orders answered without the match (the same frames): what the transport costs",
    )
    parser.add_argument(
        "--loop",
        choices=("server", "asyncio"),
        default="server",
        help="the event loop of both processes: the server's (uvloop when installed), or asyncio's",
    )
    args = parser.parse_args()
    if args.games > 200 or args.players > 10:
        parser.error(f"--games 1 to 200, --players 2 to 10, got {args.games} and {args.players}")
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    with tempfile.TemporaryDirectory() as data:
        process = context.Process(
            target=_server,
            args=(child, data, args.profile, args.floor, args.loop),
            daemon=True,
        )
        process.start()
        if not parent.poll(120):
            process.kill()
            sys.exit("antipolix: error: the server did not start within 120 s")
        url, host = parent.recv()
        lock = threading.Lock()

        def cpu() -> float:
            with lock:
                parent.send("cpu")
                value: float = parent.recv()
                return value

        try:
            out = _loop(args.loop)(run(args, url, host, cpu))
        finally:
            parent.send("stop")
            process.join(30)
            if process.is_alive():
                process.kill()
    lat = sorted(out["latencies"])
    rate = out["turns"] / out["elapsed"]
    rules = " ".join(args.rule)
    pace = f"answered after {args.think:g} s" if args.think else "answered at once"
    ends = ", ".join(f"{n} by {why}" for why, n in sorted(out["ends"].items())) or "none"
    print(
        f"{args.games} games of {args.players} bots ({args.orders} orders, {pace}, rules {rules}), "
        f"{out['elapsed']:.1f} s measured after {args.warmup:g} s of warm-up; games that ended "
        f"and were replaced: {ends}; event loops: {out['loop']}"
    )
    print(f"turns served: {out['turns']} ({rate:.0f} turns/s, {rate * args.players:.0f} orders/s)")
    if lat:
        print(
            f"last order of a turn -> next observation, at the bots ({len(lat)} observations): "
            f"p50 {1000 * percentile(lat, 50):.1f} ms, p99 {1000 * percentile(lat, 99):.1f} ms, "
            f"worst {1000 * lat[-1]:.1f} ms"
        )
    print(
        f"server CPU: {out['server_cpu'] / out['elapsed']:.2f} of a core "
        f"({1000 * out['server_cpu'] / max(out['turns'], 1):.2f} ms a turn); "
        f"the bots' process: {out['client_cpu'] / out['elapsed']:.2f} of a core "
        f"({1000 * out['client_cpu'] / max(out['turns'], 1):.2f} ms a turn)"
    )


if __name__ == "__main__":
    main()
