"""The match server: one process, many games, on Starlette and uvicorn (asyncio, on uvloop
where it is installed: :func:`run_serving`).

- **WebSockets** (``/ws``) carry the protocol (:mod:`antipolix.server.protocol`) for seats and
  spectators; with ``tcp_port`` the same frames also travel as lines over plain TCP.
- **Pages**: ``/play/GAME`` (a seat; its secret after ``#`` in the link, never sent in the
  request) and ``/watch/GAME`` (spectators) serve the browser client, which the ``viz`` package
  provides through the ``antipolix.web`` entry point (``antipolix`` never imports ``viz``);
  without it the server serves bots only.
- **A small JSON API** for the host (its token, printed at the start, as ``Authorization:
  Bearer TOKEN``): ``POST /api/games`` creates a game, ``GET /api/games`` lists them;
  ``GET /api/games/GAME/replay`` gives a finished game's replay to any token of that game.

Every client frame is bounded (:class:`Limits`: size, rate, refused frames in a row), every
connection must say who it is within seconds, and frames waiting for a slow client are
bounded too (the client is dropped and may reconnect). Tokens are compared in constant time
(:mod:`antipolix.server.tokens`). The server listens on 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import secrets
import socket
import sys
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, cast

from antipolix.codec import parse_override, with_options
from antipolix.errors import AntipolixError, RulesError
from antipolix.files import parse_json
from antipolix.games.host import flat
from antipolix.limits import check_seed, check_size
from antipolix.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from antipolix.server import direct
from antipolix.server.agents import AgentHost, agent_host
from antipolix.server.journal import SUFFIX
from antipolix.server.match import WATCH_MODES, Match, MatchSpec, Watch, now_text
from antipolix.server.protocol import (
    MAX_FRAME_BYTES,
    PROTOCOL,
    ProtocolError,
    encode,
    error_frame,
    parse_frame,
)
from antipolix.server.seats import SeatSpec, parse_seats
from antipolix.server.tokens import digest, matches, new_token

WEB_ENTRY_POINTS = "antipolix.web"
MAX_BODY = 64 * 1024  # bytes of an API request's body


class ServerError(AntipolixError):
    """A server that cannot start (a port in use, a bad option) or a game it cannot create."""


@dataclass(frozen=True)
class Limits:
    """What one client may do, and what the server holds at most."""

    frame_bytes: int = MAX_FRAME_BYTES  # a larger frame gets an error frame ("too-big")
    socket_bytes: int = 1 << 20  # a WebSocket message above this closes the connection (1009)
    rate: float = 20.0  # frames a second a connection may send, on average ...
    burst: int = 60  # ... and at once
    strikes: int = 200  # refused frames in a row before the connection is closed
    hello_seconds: float = 10.0  # a connection names its game and token within this
    max_games: int = 64  # games in progress
    max_connections: int = 512
    max_watchers: int = 32  # spectators of one game
    queue: int = 512  # frames waiting to go out to one client
    kept_games: int = 64  # finished games kept (their results for late clients)


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8037  # 0: any free port
    tcp_port: int | None = None  # the protocol as lines over plain TCP (0: any free port)
    data: Path = Path("out/served")  # journals and replays
    players_file: Path | None = None  # R11 scores
    agent_workers: int = 1  # worker processes of built-in agents (0: a thread)
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True)
class Created:
    """A new game and its secrets, shown once: each client seat's token and the spectators'."""

    match: Match
    seat_tokens: dict[int, str]
    watch_token: str


def web_files() -> dict[str, tuple[str, bytes]]:
    """The browser client's files from the ``antipolix.web`` entry points (``viz``), or none."""
    files: dict[str, tuple[str, bytes]] = {}
    for entry in entry_points(group=WEB_ENTRY_POINTS):
        try:
            files.update(entry.load()())
        except Exception as exc:  # a broken plug-in must not stop the server: bots still play
            print(
                f"antipolix: warning: the pages of {entry.name!r} are unavailable: {exc}",
                file=sys.stderr,
            )
    return files


def check_game(
    seats: Sequence[SeatSpec] | str, rules: Rules, watch: str, agent_min_think: float
) -> tuple[tuple[SeatSpec, ...], Rules]:
    """A game the server can host, or the error that says why not: the seats, and the rules
    with their number of players (R3; the seats set it unless the rules do)."""
    specs = parse_seats(seats) if isinstance(seats, str) else tuple(seats)
    if rules.players != len(specs):
        rules = replace(rules, players=len(specs))
    check_size(rules)
    if rules.think_times != "agent":
        raise RulesError(
            "a served game measures think times (R7 think_times=agent); think_times=drawn "
            "is for tournaments of built-in agents"
        )
    if watch not in WATCH_MODES:
        raise ServerError(f"spectators see 'public' or 'end', not {watch!r}")
    if not 0 <= agent_min_think <= 3600:
        raise ServerError(f"the agents' minimum think time is 0 to 3600 s, got {agent_min_think}")
    return specs, rules


class Bucket:
    """A token bucket: ``rate`` frames a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Session:
    """A client after its hello: each frame it sends is checked (size, rate, the protocol) and
    acted on at once, its reply or error frame sent; ``ended`` is set when the connection is
    to end (the client was closed: too many refused frames, or another connection took its
    seat)."""

    def __init__(self, match: Match, seat: int, peer: ClientPeer, limits: Limits) -> None:
        self.match, self.seat, self.peer, self.limits = match, seat, peer, limits
        self.loop = asyncio.get_running_loop()
        self.bucket = Bucket(limits.rate, limits.burst, self.loop.time())
        self.strikes = 0
        self.ended: asyncio.Future[None] = self.loop.create_future()

    def take(self, raw: str | bytes) -> None:
        if self.ended.done():
            return
        peer, limits = self.peer, self.limits
        if peer.closed:
            self.ended.set_result(None)
            return
        ref = None
        try:
            allowed = self.bucket.take(self.loop.time())
            if isinstance(raw, bytes):
                raise ProtocolError("bad-json", "binary frames are refused: send JSON text")
            frame = parse_frame(raw, limits.frame_bytes)
            ref = frame.ref
            if not allowed and not self.match.awaits(self.seat, frame):  # (a turn's order passes)
                raise ProtocolError(
                    "rate",
                    f"at most {limits.rate:g} frames a second ({limits.burst} at once) "
                    "besides each turn's order: this one was dropped",
                )
            if frame.type == "hello":
                raise ProtocolError("already", "this connection has said hello already")
            reply = self.match.handle(self.seat, frame)
            self.strikes = 0
            if reply is not None:
                if ref is not None:
                    reply["ref"] = ref
                peer.send(encode(reply))
        except ProtocolError as exc:
            self.strikes += 1
            why = error_frame(exc.code, exc.detail, ref if ref is not None else exc.ref)
            peer.send(encode(why))
            if self.strikes >= limits.strikes:
                peer.close(f"{self.strikes} refused frames in a row")
                self.ended.set_result(None)


class ClientPeer:
    """A client connection. Frames go out in the order given: at once when the transport takes
    them without waiting, the usual case (a turn's frames leave in the event loop's step that
    made them, with no task switch a frame: :func:`_start`; with no coroutine either where the
    connection gives ``send_now``, which writes a frame at once or says it cannot), else through
    a bounded backlog that a task writes as the transport allows (a client that lets more than
    ``limit`` frames pile up is dropped, and may reconnect)."""

    def __init__(
        self,
        send: Callable[[str], Coroutine[Any, Any, None]],
        close: Callable[[], Awaitable[None]],
        limit: int,
        send_now: Callable[[str], bool] | None = None,
    ) -> None:
        self._send, self._close, self._send_now = send, close, send_now
        self.limit = limit
        self.closed = False  # no more frames are taken (the last ones may still be going out)
        self._backlog: deque[str] = deque()
        self._writer: asyncio.Task[None] | None = None  # writes the backlog, while there is one
        self._gone = False  # the transport failed: nothing more goes out
        self._done = asyncio.get_running_loop().create_future()  # set once the transport closed

    def send(self, text: str) -> None:
        if self.closed:
            return
        self._put(text)

    def _put(self, text: str) -> None:
        if self._gone:
            return
        if self._writer is not None:
            if len(self._backlog) >= self.limit:
                self.close(f"more than {self.limit} frames wait for this client: reconnect")
                return
            self._backlog.append(text)
            return
        try:
            if self._send_now is not None and self._send_now(text):
                return  # (written at once, without a coroutine)
            waiting = _start(self._send(text))
        except Exception:  # the client has gone: nothing more to send
            self._gone = True
            return
        if waiting is not None:  # the transport makes it wait: a task finishes it, then the rest
            self._writer = asyncio.ensure_future(self._write(waiting))

    def close(self, reason: str) -> None:
        """Say why, and close the transport once the frames before are out."""
        if self.closed:
            return
        self.closed = True
        text = encode(error_frame("closed", reason))
        if self._writer is not None:  # (the writer closes the transport after the backlog)
            self._backlog.append(text)
            return
        self._put(text)
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._write(None))

    async def _write(self, waiting: _Started | None) -> None:
        try:
            if waiting is not None:
                await _finish(*waiting)
            while self._backlog:
                await self._send(self._backlog.popleft())
        except Exception:  # the client has gone: nothing more to send
            self._gone = True
            self._backlog.clear()
        finally:
            self._writer = None
            if self.closed or self._gone:
                self.closed = True
                with contextlib.suppress(Exception):
                    await self._close()
                if not self._done.done():
                    self._done.set_result(None)

    async def finished(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the last frames are out and the transport
        is closed."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._done), timeout)


# a coroutine started by _start, and what it waits for
_Started = tuple[Coroutine[Any, Any, None], Any]


def _start(coroutine: Coroutine[Any, Any, None]) -> _Started | None:
    """Run ``coroutine`` (a transport's send) now, as a task's first step would: None if it
    ran to its end without waiting, else the coroutine and what it waits for, for
    :func:`_finish`. Its exceptions are raised here."""
    try:
        waiting = coroutine.send(None)
    except StopIteration:
        return None
    return coroutine, waiting


async def _finish(coroutine: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Run a coroutine that :func:`_start` began on to its end, in this task: each time, wait
    for what it waits for (a future, or None for a bare yield), then resume it."""
    try:
        while True:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                waiting._asyncio_future_blocking = False  # (what a task does with a future)
                if not waiting.done():
                    await asyncio.wait([waiting])  # (its outcome goes back to the coroutine)
            try:
                waiting = coroutine.send(None)
            except StopIteration:
                return
    finally:
        coroutine.close()  # (nothing if it ended; cancelled with this task otherwise)


class Server:
    """The match server (see the module docstring). ``await run()`` serves until stopped;
    :func:`running` runs one in a thread (tests, benchmarks)."""

    def __init__(
        self, config: ServerConfig, web: Mapping[str, tuple[str, bytes]] | None = None
    ) -> None:
        self.config = config
        self.limits = config.limits
        self.matches: dict[str, Match] = {}
        self.finished: list[str] = []
        self.host_token = new_token()
        self._host_digest = digest(self.host_token)
        self.connections = 0
        self.web = dict(web_files() if web is None else web)
        self.agents: AgentHost | None = None
        self.url = ""
        self.tcp_address: tuple[str, int] | None = None
        self.restored: list[Match] = []
        self._uvicorn: Any = None
        self._tcp: asyncio.Server | None = None
        self._tcp_writers: set[asyncio.StreamWriter] = set()
        self._stopped: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    # -- games -------------------------------------------------------------------------------

    async def create_game(
        self,
        seats: Sequence[SeatSpec] | str,
        rules: Rules,
        *,
        seed: int | None = None,
        watch: str = "public",
        agent_min_think: float = 0.0,
    ) -> Created:
        """A new game: its seats (``"human,greedy"`` or :class:`SeatSpec`), its rules (the
        number of seats sets the number of players unless the rules say otherwise, and then
        they must agree), a seed (default: drawn), what spectators see (``public`` or
        ``end``) and the built-in agents' minimum think time (seconds, R7)."""
        # (in a thread: the rules of a large board take seconds to check, R3's home zones, and
        # every game the server plays would wait for them)
        specs, rules = await asyncio.to_thread(check_game, seats, rules, watch, agent_min_think)
        active = sum(1 for m in self.matches.values() if m.result_frame == "")
        if active >= self.limits.max_games:
            raise ServerError(f"this server plays at most {self.limits.max_games} games at once")
        seed = secrets.randbits(63) if seed is None else check_seed(seed)
        seat_tokens = {s: new_token() for s in range(len(specs))}
        watch_token = new_token()
        game_id = secrets.token_hex(4)
        while game_id in self.matches or (self.config.data / f"{game_id}{SUFFIX}").exists():
            game_id = secrets.token_hex(4)
        spec = MatchSpec(
            id=game_id,
            rules=rules,
            seats=specs,
            seed=seed,
            watch=cast(Watch, watch),
            agent_min_think=float(agent_min_think),
            seat_digests=tuple(digest(seat_tokens[s]) for s in range(len(specs))),
            watch_digest=digest(watch_token),
            created=now_text(),
        )
        match = await Match.create(spec, **self._match_options())
        self.matches[game_id] = match
        remote = {s: t for s, t in seat_tokens.items() if specs[s].remote}
        return Created(match, remote, watch_token)

    def _match_options(self) -> dict[str, Any]:
        assert self.agents is not None
        return {
            "agents": self.agents,
            "data": self.config.data,
            "players_file": self.config.players_file,
            "on_end": self._ended,
        }

    def _ended(self, match: Match) -> None:
        self.finished.append(match.id)
        while len(self.finished) > self.limits.kept_games:
            old = self.matches.pop(self.finished.pop(0), None)
            if old is not None:
                old.close()

    async def restore(self) -> list[Match]:
        """Every unfinished game of the data folder, as its journal left it."""
        restored = []
        for path in sorted(self.config.data.glob(f"*{SUFFIX}")):
            try:
                match = await Match.restore(
                    path, **{k: v for k, v in self._match_options().items() if k != "data"}
                )
            except AntipolixError as exc:
                print(f"antipolix: warning: {path} was not restored: {exc}", file=sys.stderr)
                continue
            if match is not None:
                self.matches[match.id] = match
                restored.append(match)
        return restored

    def links(self, created: Created) -> dict[str, Any]:
        base = self.url
        game = created.match.id
        return {
            "game": game,
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "name": s.name,
                    "agent": s.agent,
                    "token": created.seat_tokens.get(i),
                    "link": f"{base}/play/{game}#{created.seat_tokens[i]}"
                    if i in created.seat_tokens
                    else None,
                }
                for i, s in enumerate(created.match.spec.seats)
            ],
            "watch": {
                "token": created.watch_token,
                "link": f"{base}/watch/{game}#{created.watch_token}",
            },
        }

    # -- clients -----------------------------------------------------------------------------

    async def serve_client(
        self,
        peer: ClientPeer,
        receive: Callable[[], Awaitable[str | bytes | None]],
        take: Callable[[Callable[[str | bytes], None]], bool] | None = None,
    ) -> None:
        """One client's connection: its hello, then its frames, until it goes. With ``take``
        (a WebSocket on the direct path, :mod:`antipolix.server.direct`), the frames after the
        hello are handed to the session as the connection parses them, and ``receive`` only
        says when the connection ends."""
        limits = self.limits
        session: Session | None = None
        try:
            try:
                raw = await asyncio.wait_for(receive(), limits.hello_seconds)
            except TimeoutError:
                peer.close(f"say hello (game and token) within {limits.hello_seconds:g} s")
                return
            if raw is None:
                return
            try:
                match, seat = self._hello(raw, peer)
            except ProtocolError as exc:
                peer.send(encode(error_frame(exc.code, exc.detail)))
                peer.close("the hello was refused")
                return
            session = Session(match, seat, peer, limits)
            if take is not None:
                if not take(session.take):
                    return
                gone: asyncio.Future[str | bytes | None] = asyncio.ensure_future(receive())
                try:
                    while not session.ended.done():
                        waits: list[asyncio.Future[Any]] = [gone, session.ended]
                        await asyncio.wait(waits, return_when="FIRST_COMPLETED")
                        if gone.done():
                            raw = gone.result()
                            if raw is None:
                                return
                            session.take(raw)  # (a message that took the ASGI path)
                            gone = asyncio.ensure_future(receive())
                finally:
                    gone.cancel()
                return
            while not session.ended.done():
                raw = await receive()
                if raw is None:
                    return
                session.take(raw)
        finally:
            if session is not None:
                session.match.leave(peer)
            peer.close("the connection ended")

    def _hello(self, raw: str | bytes, peer: ClientPeer) -> tuple[Match, int]:
        if isinstance(raw, bytes):
            raise ProtocolError("bad-json", "binary frames are refused: send JSON text")
        frame = parse_frame(raw, self.limits.frame_bytes)
        if frame.type != "hello":
            raise ProtocolError(
                "hello", f"the first frame is a hello (game and token), not {frame.type}"
            )
        assert frame.game is not None and frame.token is not None
        match = self.matches.get(frame.game)
        seat = None if match is None else match.who(frame.token)
        if match is None or seat is None or (seat >= 0 and not match.spec.seats[seat].remote):
            raise ProtocolError("token", "no game with that id takes this token")
        if seat < 0 and len(match.watchers) >= self.limits.max_watchers:
            raise ProtocolError(
                "full", f"this game has {self.limits.max_watchers} spectators already"
            )
        welcome = match.join(seat, peer)
        welcome["protocol"] = PROTOCOL
        if frame.ref is not None:
            welcome["ref"] = frame.ref
        peer.send(encode(welcome))
        match.catch_up(seat, peer)
        return match, seat

    # -- the web app -------------------------------------------------------------------------

    def app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.routing import Route, WebSocketRoute

        return Starlette(
            routes=[
                Route("/", self._index),
                Route("/play/{game}", self._page),
                Route("/watch/{game}", self._page),
                Route("/web/{name:path}", self._file),
                Route("/api/games", self._api_games, methods=["GET", "POST"]),
                Route("/api/games/{game}/replay", self._api_replay),
                WebSocketRoute("/ws", self._websocket),
            ]
        )

    async def _index(self, request: Any) -> Any:
        from starlette.responses import HTMLResponse

        playing = sum(1 for m in self.matches.values() if not m.result_frame)
        return HTMLResponse(
            "<!doctype html><meta charset=utf-8><title>AntipoliX server</title>"
            f"<p>AntipoliX match server (protocol {PROTOCOL}): {playing} game(s) in progress. "
            "Open the link you were given to play or to watch.</p>",
            headers=_HEADERS,
        )

    async def _page(self, request: Any) -> Any:
        from starlette.responses import PlainTextResponse, Response

        if "play.html" not in self.web:
            return PlainTextResponse(
                "This server has no browser client (the viz package is not installed); bots "
                "connect to /ws.",
                status_code=404,
                headers=_HEADERS,
            )
        if request.path_params["game"] not in self.matches:
            return PlainTextResponse(
                "No such game on this server.", status_code=404, headers=_HEADERS
            )
        kind, body = self.web["play.html"]
        return Response(body, media_type=kind, headers={**_HEADERS, "Cache-Control": "no-store"})

    async def _file(self, request: Any) -> Any:
        from starlette.responses import PlainTextResponse, Response

        name = request.path_params["name"]
        if name not in self.web:
            return PlainTextResponse("Not found.", status_code=404, headers=_HEADERS)
        kind, body = self.web[name]
        return Response(body, media_type=kind, headers=_HEADERS)

    def _host(self, request: Any) -> bool:
        given = request.headers.get("authorization", "")
        return given.startswith("Bearer ") and matches(given[7:].strip(), self._host_digest)

    async def _api_games(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        if not self._host(request):
            return JSONResponse(
                {"error": "the host's token is needed (Authorization: Bearer TOKEN)"},
                status_code=401,
            )
        if request.method == "GET":
            return JSONResponse({"games": [m.summary() for m in self.matches.values()]})
        body = await _body(request)
        if body is None:
            return JSONResponse(
                {"error": f"send a JSON object of at most {MAX_BODY} bytes"}, status_code=400
            )
        try:
            created = await self.create_game(**await asyncio.to_thread(_game_request, body))
        except AntipolixError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(self.links(created), status_code=201)

    async def _api_replay(self, request: Any) -> Any:
        from starlette.responses import JSONResponse, Response

        match = self.matches.get(request.path_params["game"])
        given = request.headers.get("authorization", "")
        token = given[7:].strip() if given.startswith("Bearer ") else ""
        if match is None or not token or match.who(token) is None:
            return JSONResponse({"error": "no game with that id takes this token"}, status_code=401)
        if not match.result_frame:
            return JSONResponse(
                {"error": "the game is not over: its replay is written at the end"}, status_code=409
            )
        data = await asyncio.to_thread(match.replay_path.read_bytes)
        return Response(
            data,
            media_type="application/gzip",
            headers={"Content-Disposition": f'attachment; filename="{match.replay_path.name}"'},
        )

    async def _websocket(self, websocket: Any) -> None:
        if self.connections >= self.limits.max_connections:
            await websocket.close(code=1013)
            return
        self.connections += 1
        try:
            await websocket.accept()

            async def receive() -> str | bytes | None:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return None
                text: str | None = message.get("text")
                data: bytes = message.get("bytes") or b""
                return text if text is not None else data

            async def close() -> None:
                await websocket.close()

            protocol = websocket.scope.get("extensions", {}).get(direct.EXTENSION)
            if protocol is not None:  # frames come and go without the ASGI round trip
                peer = ClientPeer(protocol.send_text, close, self.limits.queue, protocol.send_now)
                await self.serve_client(peer, receive, protocol.take)
            else:
                peer = ClientPeer(websocket.send_text, close, self.limits.queue)
                await self.serve_client(peer, receive)
            await peer.finished(5)
        except Exception:  # the client went away mid-frame
            pass
        finally:
            self.connections -= 1

    async def _tcp_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.connections >= self.limits.max_connections:
            writer.close()
            return
        self.connections += 1

        async def send(text: str) -> None:
            writer.write(text.encode("utf-8") + b"\n")
            await writer.drain()

        async def close() -> None:
            writer.close()

        peer = ClientPeer(send, close, self.limits.queue)
        self._tcp_writers.add(writer)

        async def receive() -> str | bytes | None:
            try:
                line = await reader.readline()
            except (asyncio.LimitOverrunError, ValueError):
                peer.send(
                    encode(
                        error_frame(
                            "too-big",
                            f"a frame is one line of at most {self.limits.frame_bytes} bytes",
                        )
                    )
                )
                return None
            except (ConnectionError, OSError):
                return None
            if not line:
                return None
            try:
                return line.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                return b"\xff"  # refused as not text

        try:
            await self.serve_client(peer, receive)
            await peer.finished(5)
        finally:
            self._tcp_writers.discard(writer)
            self.connections -= 1

    # -- running ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind the sockets, seat the agents' workers, restore the unfinished games."""
        import uvicorn

        self.loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        config = self.config
        try:
            config.data.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ServerError(
                f"cannot create the folder for the games {config.data}: {exc.strerror}"
            ) from None
        try:
            sock = socket.create_server((config.host, config.port), reuse_port=False)
        except OSError as exc:
            raise ServerError(
                f"cannot listen on {config.host}:{config.port}: {exc.strerror}"
            ) from None
        # small frames go out at once: accepted sockets inherit TCP_NODELAY (asyncio sets it
        # only on sockets whose protocol number says TCP, which this one's does not)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        host, port = sock.getsockname()[:2]
        shown = host if config.host not in ("0.0.0.0", "::", "") else socket.gethostname()
        self.url = f"http://{shown}:{port}"
        self._socket = sock
        if config.tcp_port is not None:
            try:
                self._tcp = await asyncio.start_server(
                    self._tcp_client,
                    config.host,
                    config.tcp_port,
                    limit=self.limits.frame_bytes + 2,
                )
            except OSError as exc:
                sock.close()
                raise ServerError(
                    f"cannot listen on {config.host}:{config.tcp_port} (TCP): {exc.strerror}"
                ) from None
            self.tcp_address = self._tcp.sockets[0].getsockname()[:2]
        self.agents = agent_host(config.agent_workers)
        self.restored = await self.restore()
        self._uvicorn = uvicorn.Server(
            uvicorn.Config(
                self.app(),
                log_level="warning",
                access_log=False,
                lifespan="off",
                ws=direct.protocol_class() or "auto",
                ws_max_size=self.limits.socket_bytes,
                # frames go out uncompressed: they are small (an observation is a few KB),
                # and compressing each one (and inflating it at the client) cost more than
                # anything else the transport does per frame
                ws_per_message_deflate=False,
                ws_ping_interval=20.0,
                ws_ping_timeout=20.0,
                limit_concurrency=self.limits.max_connections + 64,
                timeout_graceful_shutdown=2,
            )
        )

    async def serve(self) -> None:
        """Serve until :meth:`stop` (or Ctrl-C in the main thread); then close every game."""
        assert self._uvicorn is not None, "start() first"
        try:
            await self._uvicorn.serve(sockets=[self._socket])
        finally:
            await self.shutdown()

    def stop(self) -> None:
        """Ask the server to stop (from its event loop's thread)."""
        if self._uvicorn is not None:
            self._uvicorn.should_exit = True

    async def shutdown(self) -> None:
        for match in self.matches.values():
            match.close()
        if self._tcp is not None:
            self._tcp.close()
            for writer in list(self._tcp_writers):  # their readers end, their connections close
                writer.close()
            for _ in range(100):
                if not self._tcp_writers:
                    break
                await asyncio.sleep(0.01)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._tcp.wait_closed(), 2)
        if self.agents is not None:
            await self.agents.close()
        self._socket.close()


_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'",
}


async def _body(request: Any) -> dict[str, Any] | None:
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    try:
        data = parse_json(b"".join(chunks) or b"{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _game_request(body: Mapping[str, Any]) -> dict[str, Any]:
    """``create_game``'s arguments from an API request: ``seats`` (text or list), ``rules``
    (the rules' dict form, as a rules file holds it), ``rule`` (``KEY=VALUE`` texts), ``seed``,
    ``watch``, ``agent_min_think``."""
    known = {"seats", "rules", "rule", "seed", "watch", "agent_min_think"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise ServerError(f"unknown field {unknown[0]!r} (fields: {', '.join(sorted(known))})")
    seats = body.get("seats")
    if not isinstance(seats, (str, list)) or (
        isinstance(seats, list) and not all(isinstance(s, str) for s in seats)
    ):
        raise ServerError("'seats' is a text like 'human,greedy' or a list of such texts")
    table = body.get("rules", {})
    if not isinstance(table, dict):
        raise RulesError("'rules' is a table of rule options (as in a rules file)")
    overrides = body.get("rule", [])
    if not isinstance(overrides, list) or not all(isinstance(o, str) for o in overrides):
        raise RulesError("'rule' is a list of KEY=VALUE texts")
    # the table's options, then the overrides, then (unless they set it) the seats' count,
    # checked once together (R3), not first at the default's 4 players
    options = [*flat(table).items(), *(parse_override(o) for o in overrides)]
    count = len(seats) if isinstance(seats, list) else seats.count(",") + 1
    seated = MIN_PLAYERS <= count <= MAX_PLAYERS  # (else refused for themselves, check_game)
    if seated and all(key != "players" for key, _ in options):
        options.append(("players", count))
    rules = with_options(Rules(), options)
    if seated and rules.players != count:
        raise RulesError(f"the rules are for {rules.players} players but {count} seats are given")
    seed = body.get("seed")
    if seed is not None and (type(seed) is not int):
        raise ServerError("'seed' is an integer")
    min_think = body.get("agent_min_think", 0.0)
    if type(min_think) not in (int, float):
        raise ServerError("'agent_min_think' is a number of seconds")
    watch = body.get("watch", "public")
    return {
        "seats": seats if isinstance(seats, str) else ",".join(seats),
        "rules": rules,
        "seed": seed,
        "watch": watch,
        "agent_min_think": float(min_think),
    }


@dataclass
class Running:
    """A server running in a thread of this process (:func:`running`)."""

    server: Server
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def ws_url(self) -> str:
        return "ws" + self.server.url[4:] + "/ws"

    def call(self, coroutine: Any, timeout: float = 300) -> Any:
        """Run a coroutine on the server's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def run(self, fn: Callable[[], Any], timeout: float = 300) -> Any:
        """Run a plain function on the server's loop (to read a match safely)."""

        async def wrapped() -> Any:
            return fn()

        return self.call(wrapped(), timeout)

    def create(self, seats: str, rules: Rules, **options: Any) -> dict[str, Any]:
        created = self.call(self.server.create_game(seats, rules, **options))
        return self.server.links(created)


# the cyclic garbage collector of a serving process (:func:`steady_heap`): a young generation
# collected after this many new container objects (Python's default: 700), the older ones after
# this many collections of the one below (10, 10)
GC_THRESHOLDS = (20_000, 20, 50)


def run_serving(main: Coroutine[Any, Any, Any]) -> Any:
    """Run ``main`` to its end on the event loop the server serves on: uvloop's (libuv's) when
    it is installed (a dependency on Linux and macOS), else asyncio's own. The frames and the
    games are the same on either loop, and so is the CPU a turn; what differs is how long a
    turn waits: under load (``experiments/bench_serve.py``, 50 games of 4 bots answering at
    once, about 1,100 turns/s on a 2-core machine) the time from a turn's last order to the
    next observation was 16 ms at the median and 28 ms at the 99th percentile on uvloop,
    against 31 and 64 ms on asyncio's loop (the server's loop decides it: the bots' own loop
    swapped changed neither)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def steady_heap() -> None:
    """Set the garbage collector of a process that serves, once its server has started.

    What was imported and made before the first game (numpy, numba, the compiled rules: about
    80,000 objects the collector tracks) stays for the process's life: it is frozen out of it
    (``gc.freeze``), so that a full collection walks only what the games made; and the young
    generation is collected less often (:data:`GC_THRESHOLDS`), since a turn's garbage is
    freed by reference counting, not by the collector. Under load (``experiments/
    bench_serve.py``) the collector's full passes over the whole heap were the longest pauses
    of the event loop: 50 games waited for one. Process-wide: the command and the load
    benchmark's server process call it, never a test or a library user's process."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@contextlib.contextmanager
def running(
    config: ServerConfig, web: Mapping[str, tuple[str, bytes]] | None = None, timeout: float = 60
) -> Iterator[Running]:
    """A server serving in a background thread until the block ends (then stopped and joined).
    Tests and benchmarks use it with ``port=0`` on 127.0.0.1."""
    ready = threading.Event()
    box: dict[str, Any] = {}

    def main() -> None:
        async def go() -> None:
            server = Server(config, web)
            try:
                await server.start()
            except BaseException as exc:
                box["error"] = exc
                ready.set()
                return
            box["server"], box["loop"] = server, asyncio.get_running_loop()
            ready.set()
            await server.serve()

        run_serving(go())

    thread = threading.Thread(target=main, name="antipolix-server", daemon=True)
    thread.start()
    if not ready.wait(timeout):
        raise ServerError(f"the server did not start within {timeout} s")
    if "error" in box:
        raise box["error"]
    run = Running(box["server"], box["loop"], thread)
    try:
        yield run
    finally:
        run.loop.call_soon_threadsafe(run.server.stop)
        thread.join(timeout)
