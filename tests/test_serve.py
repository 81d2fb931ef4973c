"""The match server (``antipolix serve``, :mod:`antipolix.server`): its protocol, its games in
real time (R4, R7, R9), what each client may know (R6), reconnects, restarts from the journal,
the example bot, and a fuzz of bad frames while other games go on.

Every server here listens on 127.0.0.1 on a free port, in a thread of the test process, and
stops at the end of its test (``antipolix.server.running``); every wait is bounded.
"""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import json
import math
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from antipolix import Rules
from antipolix.codec import observation_to_dict
from antipolix.events import Eliminated
from antipolix.game import Game
from antipolix.pieces import PieceType, Trait
from antipolix.play import verify
from antipolix.replay import load_replay
from antipolix.scores import PlayersFile
from antipolix.server import Limits, ServerConfig, running
from antipolix.server.app import ClientPeer
from antipolix.server.clock import Clocks
from antipolix.server.protocol import JsonText, ProtocolError, encode, parse_frame
from antipolix.server.seats import SeatError, parse_seats
from antipolix.server.tokens import digest, find, new_token

ROOT = Path(__file__).resolve().parents[1]
SMALL = Rules(shape=(2, 6, 6), players=2, budget=8, max_turns=40)
# a bound on every wait for a frame: far above what a game needs, below what a hang would cost
# (the first game of a fresh install may compile the agents' kernels, which takes a minute)
WAIT = 120.0
WIDE = Limits(rate=1e6, burst=1_000_000, strikes=1_000_000)  # the fuzz counts its own frames


def _bot_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "bot_example", ROOT / "experiments" / "bot_example.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BOT = _bot_module()


class Frames:
    """Frames as they come, all kept: :meth:`next` reads them in order, :meth:`until` finds the
    next of a kind (its own cursor per kind, so that no frame is lost to another search)."""

    def __init__(self, read: Any) -> None:
        self.read = read
        self.frames: list[dict[str, Any]] = []
        self.seen = 0
        self.cursors: dict[str, int] = {}

    def _more(self, timeout: float) -> None:
        self.frames.append(json.loads(self.read(timeout)))

    def next(self, timeout: float = WAIT) -> dict[str, Any]:
        if self.seen >= len(self.frames):
            self._more(timeout)
        self.seen += 1
        return self.frames[self.seen - 1]

    def until(self, kind: str, timeout: float = WAIT, **fields: Any) -> dict[str, Any]:
        end = time.monotonic() + timeout
        i = self.cursors.get(kind, 0)
        while True:
            while i < len(self.frames):
                frame = self.frames[i]
                i += 1
                if frame["type"] == kind and all(frame.get(k) == v for k, v in fields.items()):
                    self.cursors[kind] = i
                    return frame
            self._more(max(0.01, end - time.monotonic()))


class Client(Frames):
    """A test client over the WebSocket."""

    def __init__(self, url: str, game: str, token: str, hello: bool = True) -> None:
        self._connection = connect(url, max_size=2**24, open_timeout=10)
        self.ws = self._connection.__enter__()
        super().__init__(lambda timeout: self.ws.recv(timeout=timeout))
        if hello:
            self.send({"type": "hello", "protocol": 1, "game": game, "token": token})

    def send(self, frame: dict[str, Any] | str | bytes) -> None:
        self.ws.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


def play_seat(client: Client, seed: int = 0, quiet_turns: set[int] = frozenset()) -> dict[str, Any]:
    """Play a bot seat with the example bot's decisions to the end; returns the result frame.
    ``quiet_turns``: turns it does not answer."""
    import random

    bot = None
    while True:
        frame = client.next()
        if frame["type"] == "welcome":
            bot = BOT.Bot(frame, random.Random(seed))
            if frame["phase"] == "armies" and frame["army"] is None:
                client.send({"type": "army", "items": BOT.choose_army(frame)})
        elif frame["type"] == "observation" and frame["turn"] is not None:
            assert bot is not None
            if frame["turn"] not in quiet_turns:
                order = bot.decide(frame["observation"])
                client.send({"type": "order", "turn": frame["turn"], "order": order})
        elif frame["type"] == "result":
            return frame


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    with running(ServerConfig(port=0, data=tmp_path, agent_workers=0), web={}) as srv:
        yield srv


# -- the protocol, seats, tokens, clocks --------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "code", "words"),
    [
        ("{", "bad-json", "one JSON object"),
        ("[1, 2]", "bad-json", "JSON object"),
        (
            '{"type": "order", "turn": 1, "order": {"kind": "Pass"}, "x": 1}',
            "bad-frame",
            "unknown field 'x'",
        ),
        ('{"type": "dance"}', "unknown-type", '"dance"'),
        (
            '{"type": "order", "turn": true, "order": {"kind": "Pass"}}',
            "bad-frame",
            "turn must be an integer",
        ),
        (
            '{"type": "order", "turn": 1, "order": {"kind": "Move", "piece": 3}}',
            "bad-frame",
            "needs 'cell'",
        ),
        (
            '{"type": "order", "turn": 1, "order": {"kind": "Attack", "pieces": [], '
            '"cell": [0, 0, 0]}}',
            "bad-frame",
            "1 to 256",
        ),
        (
            '{"type": "order", "turn": 1, "order": {"kind": "Move", "piece": 3, "cell": [0, 0]}}',
            "bad-frame",
            "a cell [z, y, x]",
        ),
        ('{"type": "message", "text": "' + "a" * 501 + '"}', "bad-frame", "at most 500"),
        ('{"type": "message", "text": "hi\\u0007"}', "bad-frame", "control characters"),
        ('{"type": "command", "command": "PEACE"}', "bad-frame", "NUL, WAR or QUIT"),
        ('{"type": "army", "items": ["army+chief", "tank"]}', "bad-frame", "unknown army item"),
        (
            '{"type": "army", "items": ["army+chief"], "cells": [[0, 0, 0], [0, 0, 1]]}',
            "bad-frame",
            "one cell per item",
        ),
        (
            '{"type": "hello", "protocol": 2, "game": "g", "token": "t"}',
            "protocol",
            "speaks protocol 1",
        ),
        ('{"type": "order", "turn": 1, "order": {"kind": "Pass"}, "ref": NaN}', "bad-json", "JSON"),
        ("x" * 20_000, "too-big", "at most 16384 bytes"),
        # integers beyond 64 bits (orjson reads them as floats) are refused as the integers
        # they are, in bytes as in text; a float is refused as a float
        (
            '{"type": "order", "turn": 123456789012345678901, "order": {"kind": "Pass"}}',
            "bad-frame",
            "got 123456789012345678901",
        ),
        (
            b'{"type": "order", "turn": -99999999999999999999, "order": {"kind": "Pass"}}',
            "bad-frame",
            "got -99999999999999999999",
        ),
        ('{"type": "order", "turn": 1e19, "order": {"kind": "Pass"}}', "bad-frame", "got 1e+19"),
    ],
)
def test_protocol_refuses_a_bad_frame_naming_the_problem(
    raw: str | bytes, code: str, words: str
) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_frame(raw)
    assert caught.value.code == code and words in caught.value.detail


def test_protocol_reads_every_client_frame() -> None:
    order = parse_frame(
        '{"type": "order", "turn": 4, "ref": "a1", "order": {"kind": "Attack", "pieces": [7, 9],'
        ' "cell": [1, 2, 3]}, "messages": [{"kind": "Message", "text": "hi", "to": 1},'
        ' {"kind": "Command", "command": "NUL"}]}'
    )
    assert (order.turn, order.ref, order.order.pieces, order.order.cell) == (
        4,
        "a1",
        (7, 9),
        (1, 2, 3),
    )
    assert [type(m).__name__ for m in order.messages] == ["Message", "Command"]
    army = parse_frame(
        '{"type": "army", "items": ["army+chief", "hovercraft+invisible"], "cells": null}'
    )
    assert [i[1].name for i in army.items] == ["CHIEF", "INVISIBLE"] and army.cells is None
    assert parse_frame('{"type": "ping"}').type == "ping"


def test_seats_are_read_with_names_and_refused_in_one_line() -> None:
    seats = parse_seats("human@ada,bot,search:rollouts=4@deep")
    assert [(s.kind, s.name, s.agent) for s in seats] == [
        ("human", "ada", None),
        ("bot", "bot-1", None),
        ("agent", "deep", "search:rollouts=4"),
    ]
    for bad, words in [
        ("human,wizard", "unknown agent 'wizard'"),
        ("human@ada,bot@ada", "sits in two seats"),
        ("human", "2 to 10 seats"),
        ("human@a b,bot", "letters, digits"),
    ]:
        with pytest.raises(SeatError, match=words):
            parse_seats(bad)


def test_tokens_are_kept_as_digests_and_found_by_comparing_every_one() -> None:
    tokens = [new_token() for _ in range(4)]
    kept = [digest(t) for t in tokens]
    assert len(set(tokens)) == 4 and all(len(t) >= 24 for t in tokens)
    assert [find(t, kept) for t in tokens] == [0, 1, 2, 3]
    assert find(tokens[0][:-1], kept) == -1 and all(tokens[0] not in k for k in kept)


def test_r7_clocks_predict_the_engines_expiry_instant() -> None:
    """Three players: P0 answers at 2 s, P1 at 3 s, P2 never: from 3 s P2 loses 2 s a second.
    The predicted instant is the engine's elimination instant (R7)."""
    rules = Rules(shape=(2, 6, 6), players=3, zones=False, time_credit=10, time_total=30, budget=3)
    game = Game(rules, seed=1)
    for p, cell in enumerate([(0, 0, 0), (0, 0, 5), (1, 5, 5)]):
        game.place_army(p, [(PieceType.ARMY, Trait.CHIEF)], [cell])
    game.start()
    clocks = Clocks(game.timers)
    assert clocks.next_expiry() is None  # frozen until the first order (R7)
    clocks.arrive(0, 2.0)
    clocks.arrive(1, 3.0)
    expiry = clocks.next_expiry()
    assert expiry == pytest.approx(3.0 + (10 - 1.0) / 2)
    report = game.play_turn({p: _pass() for p in range(3)}, think_times={0: 2.0, 1: 3.0, 2: 60.0})
    out = [e for e in report.events if isinstance(e, Eliminated)]
    assert [(e.player, e.reason.value) for e in out] == [(2, "timer")]
    assert out[0].at == pytest.approx(expiry, abs=1e-9)


def _pass() -> Any:
    from antipolix.orders import Pass

    return Pass()


# -- whole games over the protocol ----------------------------------------------------------------


def test_the_example_bot_uses_no_antipolix_and_plays_a_whole_game(server: Any) -> None:
    tree = ast.parse((ROOT / "experiments" / "bot_example.py").read_text(encoding="utf-8"))
    imported = {
        (n.module if isinstance(n, ast.ImportFrom) else a.name).split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in (n.names if isinstance(n, ast.Import) else n.names[:1])
    }
    assert imported <= {
        "__future__",
        "argparse",
        "json",
        "random",
        "sys",
        "typing",
        "urllib",
        "websockets",
    }
    links = server.create("bot,greedy", SMALL, seed=4)
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "experiments" / "bot_example.py"),
            links["seats"][0]["link"],
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game over: ")
    match = server.server.matches[links["game"]]
    replay = load_replay(match.replay_path)
    assert f"{replay.result.turns} turns" in done.stdout
    assert replay.agents == ("bot:bot-0", "greedy (live)")


def test_r6_frames_are_game_observe_over_whole_games(server: Any) -> None:
    """Two bots and a built-in agent: every observation frame a seat got is, field for field,
    ``Game.observe`` of that seat in the game the replay re-simulates (R6)."""
    rules = Rules(shape=(4, 8, 8), players=3, max_turns=80)
    links = server.create("bot,bot,greedy", rules, seed=9)
    clients = [Client(server.ws_url, links["game"], links["seats"][s]["token"]) for s in (0, 1)]
    results: list[Any] = [None, None]
    threads = [
        threading.Thread(target=lambda s=s: results.__setitem__(s, play_seat(clients[s], s)))
        for s in (0, 1)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert all(r is not None for r in results)
    replay = load_replay(server.server.matches[links["game"]].replay_path)
    checked = 0
    for seat, client in enumerate(clients):
        for frame in client.frames:
            if frame["type"] != "observation":
                continue
            obs = frame["observation"]
            want = observation_to_dict(replay.observation(seat, obs["turn"]))
            assert obs == json.loads(json.dumps(want)), (seat, obs["turn"])
            checked += 1
        client.close()
    assert checked >= replay.last_turn  # at least one seat saw every turn
    assert results[0]["result"]["turns"] == replay.result.turns


def test_r6_spectators_never_receive_hidden_information(server: Any) -> None:
    """Armies full of invisible pieces; the spectators' frames hold the visible pieces of the
    true board without traits, and of the events only those every player is told of."""
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=60)
    links = server.create("bot,greedy", rules, seed=12)
    watcher = Client(server.ws_url, links["game"], links["watch"]["token"])
    assert watcher.until("welcome")["role"] == "spectator"
    seat = Client(server.ws_url, links["game"], links["seats"][0]["token"], hello=False)
    seat.send(
        {"type": "hello", "protocol": 1, "game": links["game"], "token": links["seats"][0]["token"]}
    )
    welcome = seat.until("welcome")
    budget = welcome["budget"]
    army, cost = ["army+chief"], welcome["costs"]["army+chief"]
    while cost + welcome["costs"]["army+invisible"] <= budget:
        army.append("army+invisible")
        cost += welcome["costs"]["army+invisible"]
    seat.send({"type": "army", "items": army})
    import random

    bot = BOT.Bot(welcome, random.Random(1))
    while True:
        frame = seat.next(30)
        if frame["type"] == "observation" and frame["turn"] is not None:
            seat.send(
                {"type": "order", "turn": frame["turn"], "order": bot.decide(frame["observation"])}
            )
        if frame["type"] == "result":
            break
    watcher.until("result")
    replay = load_replay(server.server.matches[links["game"]].replay_path)
    views = [f for f in watcher.frames if f["type"] == "view"]
    assert len(views) == replay.last_turn  # one a turn, at its start
    assert not [f for f in watcher.frames if f["type"] in ("observation", "received")]
    hidden_seen = 0
    for frame in views:
        view = frame["view"]
        truth = replay.state_at(view["turn"])
        visible = sorted(
            (p.id, p.owner, p.type.name.lower(), list(p.cell))
            for p in truth.pieces()
            if p.trait is not Trait.INVISIBLE
        )
        assert (
            sorted((p["id"], p["owner"], p["type"], p["cell"]) for p in view["pieces"]) == visible
        )
        assert all(p["trait"] is None for p in view["pieces"])
        invisible = {p.id for p in truth.pieces() if p.trait is Trait.INVISIBLE}
        hidden_seen += len(invisible)
        for event in view["events"]:
            assert event["kind"] in ("Eliminated", "Sent", "Commanded", "GameOver"), event
            if event["kind"] == "Eliminated":
                assert not set(event["taken"] + event["removed"]) & {
                    p.id
                    for p in replay.state_at(view["turn"] - 1).pieces()
                    if p.trait is Trait.INVISIBLE
                }
    assert hidden_seen > 0  # there was something to hide
    result = next(f for f in watcher.frames if f["type"] == "result")
    assert sorted(p["id"] for p in result["truth"]) == sorted(
        p.id for p in replay.state_at(replay.last_turn).pieces()
    )
    watcher.close()
    seat.close()


def test_spectators_of_a_game_shown_at_the_end_get_nothing_before_it(server: Any) -> None:
    links = server.create("greedy,greedy", SMALL, seed=3, watch="end")
    watcher = Client(server.ws_url, links["game"], links["watch"]["token"])
    result = watcher.until("result")
    assert [f["type"] for f in watcher.frames] == ["welcome", "result"] and result["truth"]
    watcher.close()


def test_r7_a_silent_player_is_out_when_its_timer_reaches_0(server: Any) -> None:
    """P0 and P1 answer at once, P2 never: from the first order P2 loses 2 s a second, so with
    1 s on its clock it is out 0.5 s after the first order, and everyone is told then."""
    rules = Rules(shape=(4, 8, 8), players=3, time_credit=1.0, time_total=3.0, max_turns=5)
    links = server.create("bot,bot,bot", rules, seed=2)
    clients = [Client(server.ws_url, links["game"], s["token"]) for s in links["seats"]]
    for c in clients:
        welcome = c.until("welcome")
        c.send({"type": "army", "items": BOT.choose_army(welcome)})
    first = [c.until("observation") for c in clients]
    start = time.monotonic()
    for c, f in zip(clients[:2], first[:2], strict=True):
        c.send({"type": "order", "turn": f["turn"], "order": {"kind": "Pass"}})
    a0, a1 = sorted(c.until("received")["at"] for c in clients[:2])
    out = clients[0].until("out", 30)
    waited = time.monotonic() - start
    assert out["player"] == 2 and out["reason"] == "timer"
    left = 1.0 - (a1 - a0)  # P2 lost 1 s a second while one order was in, then 2 (R7)
    assert out["at"] == pytest.approx(a1 + left / 2, abs=1e-6)
    assert 0.4 < waited < 3.0  # told then (give or take a loaded machine), not never
    late = clients[2]
    late.send({"type": "order", "turn": first[2]["turn"], "order": {"kind": "Pass"}})
    assert late.until("error")["code"] == "out"
    nxt = clients[0].until("observation")
    assert nxt["observation"]["living"] == [0, 1]
    events = [e for e in nxt["observation"]["events"] if e["kind"] == "Eliminated"]
    assert events and events[0]["player"] == 2 and events[0]["at"] == pytest.approx(out["at"])
    for c in clients:
        c.close()


def test_steady_heap_freezes_what_was_made_and_collects_the_young_less_often() -> None:
    """``antipolix serve``'s process: its start-up objects frozen out of the collector, the
    young generation collected after GC_THRESHOLDS[0] new objects (run in a process of its
    own: it is process-wide)."""
    code = (
        "import gc, json\n"
        "from antipolix.server.app import GC_THRESHOLDS, steady_heap\n"
        "before = gc.get_freeze_count()\n"
        "steady_heap()\n"
        "print(json.dumps([before, gc.get_freeze_count(), gc.get_threshold(), GC_THRESHOLDS]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    before, frozen, thresholds, wanted = json.loads(done.stdout)
    assert before == 0 and frozen > 10_000
    assert thresholds == wanted and wanted[0] > 700


def test_reconnect_with_the_token_and_the_timer_ran_while_away(server: Any) -> None:
    rules = Rules(shape=(4, 8, 8), players=2, time_credit=30, time_total=60, max_turns=6)
    links = server.create("bot,bot", rules, seed=6)
    a, b = (Client(server.ws_url, links["game"], s["token"]) for s in links["seats"])
    for c in (a, b):
        c.send({"type": "army", "items": BOT.choose_army(c.until("welcome"))})
    seen_a, seen_b = a.until("observation"), b.until("observation")
    b.close()  # P1 goes away before answering
    a.send({"type": "order", "turn": seen_a["turn"], "order": {"kind": "Pass"}})
    sent_at = a.until("received")["at"]
    time.sleep(0.6)
    b2 = Client(server.ws_url, links["game"], links["seats"][1]["token"])
    assert b2.until("welcome")["seat"] == 1
    again = b2.until("observation")
    assert again["observation"] == seen_b["observation"] and again["turn"] == seen_b["turn"]
    clock = b2.until("clock")["clocks"]
    assert clock["running"] and clock["submitted"] == [0]
    lost = 30 - clock["timers"]["1"]
    assert lost == pytest.approx(clock["at"] - sent_at, abs=1e-6) and lost > 0.5  # R7: 1 s a second
    b2.send({"type": "order", "turn": again["turn"], "order": {"kind": "Pass"}})
    b2.until("received")
    nxt = b2.until("observation")
    assert nxt["observation"]["timer"] < 30 - 0.5 and nxt["turn"] == again["turn"] + 1
    # a seat's token acts for that seat only; another's or a made-up one is refused
    intruder = Client(server.ws_url, links["game"], "not-a-token")
    assert intruder.until("error")["code"] == "token"
    a.close()
    b2.close()
    intruder.close()


def test_restart_resumes_a_game_from_its_journal(tmp_path: Path, capsys: Any) -> None:
    config = ServerConfig(port=0, data=tmp_path, agent_workers=0)
    with running(config, web={}) as srv:
        links = srv.create("bot,greedy", SMALL, seed=8)
        game = links["game"]
        token = links["seats"][0]["token"]
        client = Client(srv.ws_url, game, token)
        import random

        bot = BOT.Bot(client.until("welcome"), random.Random(0))
        client.send({"type": "army", "items": BOT.choose_army(client.frames[0])})
        for _ in range(3):
            frame = client.until("observation")
            client.send(
                {"type": "order", "turn": frame["turn"], "order": bot.decide(frame["observation"])}
            )
        before = client.until("observation")  # turn 4 begins; the server stops before P0 answers
        client.close()
        played = srv.run(lambda: srv.server.matches[game].game.turn)
    assert played == 3
    with running(config, web={}) as srv:
        match = srv.server.matches[game]
        assert srv.run(lambda: (match.phase, match.game.turn)) == ("paused", 3)
        client = Client(srv.ws_url, game, token)
        assert client.until("welcome")["phase"] == "paused"
        again = client.until("observation")
        assert again["turn"] == before["turn"] and again["observation"] == before["observation"]
        client.seen = 0  # the bot reads the welcome and the observation again
        result = play_seat(client)
        client.close()
    assert "decides otherwise" not in capsys.readouterr().err  # the agent remembered (R12)
    replay = load_replay(tmp_path / f"{game}.apx.json.gz")
    assert (
        replay.last_turn == result["result"]["turns"]
        and verify(replay).turns_checked == replay.last_turn
    )
    with running(config, web={}) as srv:  # a finished game is not restored
        assert game not in srv.server.matches


def test_players_file_keeps_the_scores_of_served_games(tmp_path: Path) -> None:
    book = tmp_path / "players.json"
    config = ServerConfig(port=0, data=tmp_path, agent_workers=0, players_file=book)
    with running(config, web={}) as srv:
        links = srv.create("greedy@gus,greedy@gil", SMALL, seed=3, agent_min_think=0.05)
        match = srv.server.matches[links["game"]]
        end = time.monotonic() + 60
        while srv.run(lambda: match.result_frame) == "" and time.monotonic() < end:
            time.sleep(0.1)
        result = srv.run(lambda: match.game.result)
    replay = load_replay(match.replay_path)
    assert min(t for rec in replay.records for t in rec.think.values()) >= 0.05  # measured (R7)
    scores = {r.name: r.score for r in PlayersFile.load(book)}
    winner = ["gus", "gil"][result.winner]
    assert scores[winner] == 2 and sum(scores.values()) == 2  # R11: the loser stays at 0


# -- bad frames, bad clients -------------------------------------------------------------------


def test_fuzz_hundreds_of_bad_frames_change_nothing_and_other_games_go_on(tmp_path: Path) -> None:
    config = ServerConfig(port=0, data=tmp_path, agent_workers=0, limits=WIDE)
    with running(config, web={}) as srv:
        busy = srv.create(
            "random,random",
            Rules(shape=(4, 8, 8), players=2, max_turns=1000),
            seed=1,
            agent_min_think=0.002,
        )
        other = srv.server.matches[busy["game"]]
        armies = srv.create("bot,greedy", SMALL, seed=2)  # stays in the army phase
        play = srv.create("bot,bot", SMALL, seed=3)  # in play
        g_army, g_play = armies["game"], play["game"]
        army_client = Client(srv.ws_url, g_army, armies["seats"][0]["token"])
        welcome = army_client.until("welcome")
        p0 = Client(srv.ws_url, g_play, play["seats"][0]["token"])
        p1 = Client(srv.ws_url, g_play, play["seats"][1]["token"])
        for c in (p0, p1):
            c.send({"type": "army", "items": BOT.choose_army(c.until("welcome"))})
        obs = p0.until("observation")
        turn = obs["turn"]
        mine = [p for p in obs["observation"]["pieces"] if p["owner"] == 0]
        theirs = [p for p in p1.until("observation")["observation"]["pieces"] if p["owner"] == 1]
        p0.send({"type": "order", "turn": turn, "order": {"kind": "Pass"}})
        p0.until("received")
        busy_turn = srv.run(lambda: other.game.turn)

        def state(m: Any) -> Any:
            pending = {s: (x.order, x.at) for s, x in m.pending.items()}
            return m.turn, pending, m.game.digest, {s: list(q) for s, q in m.queued.items()}

        before_play = srv.run(lambda: state(srv.server.matches[g_play]))
        before_army = srv.run(lambda: dict(srv.server.matches[g_army].armies))
        zone = welcome["zone"]
        # the most pieces the army can place (R3): the zone's cells
        sides = zip(zone["hi"], zone["lo"], strict=True)
        assert welcome["room"] == math.prod(hi - lo for hi, lo in sides)
        outside = [zone["hi"][0] % 2, zone["hi"][1] % 6, zone["hi"][2] % 6]
        bad_army = [
            {"type": "army", "items": ["army"]},  # no chief
            {"type": "army", "items": ["army+chief", "army+chief"]},
            {"type": "army", "items": ["army+chief"] + ["army"] * 5},  # over the budget
            {"type": "army", "items": ["army+chief", "army"], "cells": [zone["lo"], zone["lo"]]},
            {"type": "army", "items": ["army+chief"], "cells": [outside]},
            {"type": "army", "items": ["army+chief"], "cells": [[9, 9, 9]]},
            {"type": "army", "items": "army+chief"},
            {"type": "army", "items": []},
            {"type": "army", "items": [3]},
            {"type": "army", "items": ["army+chief"], "cells": "random"},
            {"type": "order", "turn": 1, "order": {"kind": "Pass"}},  # before play
            {"type": "message", "text": "hi"},
            {"type": "command", "command": "NUL"},
            {"type": "hello", "protocol": 1, "game": g_army, "token": "x"},
        ]
        other_piece = theirs[0]["id"]
        bad_play = [
            {"type": "order", "turn": turn, "order": {"kind": "Pass"}},  # replayed: answered
            {"type": "order", "turn": turn + 1, "order": {"kind": "Pass"}},
            {"type": "order", "turn": turn - 1 if turn > 1 else 99, "order": {"kind": "Pass"}},
            {"type": "army", "items": ["army+chief"]},
            {"type": "hello", "protocol": 1, "game": g_play, "token": play["seats"][0]["token"]},
        ]
        bad_p1 = [
            {
                "type": "order",
                "turn": turn,
                "order": {"kind": "Move", "piece": other_piece + 10_000, "cell": [0, 0, 0]},
            },
            {
                "type": "order",
                "turn": turn,
                "order": {"kind": "Move", "piece": mine[0]["id"], "cell": [0, 0, 0]},
            },  # not P1's
            {
                "type": "order",
                "turn": turn,
                "order": {"kind": "Move", "piece": other_piece, "cell": [5, 0, 0]},
            },  # off board
            {
                "type": "order",
                "turn": turn,
                "order": {
                    "kind": "Attack",
                    "pieces": [other_piece, other_piece],
                    "cell": [0, 0, 0],
                },
            },
            {"type": "order", "turn": turn, "order": {"kind": "Wait"}},
            {
                "type": "order",
                "turn": turn,
                "order": {"kind": "Pass"},
                "messages": [{"kind": "Message", "text": "x", "to": 1}],
            },  # to oneself
            {
                "type": "order",
                "turn": turn,
                "order": {"kind": "Pass"},
                "messages": [{"kind": "Message", "text": "x", "to": 7}],
            },
            {
                "type": "order",
                "turn": turn,
                "order": {"kind": "Pass"},
                "messages": [{"kind": "Message", "text": "x"}] * 9,
            },
            {"type": "message", "text": "x", "to": 1},
            {"type": "message", "text": 5},
            {"type": "message"},
            {"type": "command", "command": "nul"},
            {"type": "command"},
            {"type": "ping", "extra": 1},
            {"type": "order", "turn": "1", "order": {"kind": "Pass"}},
            {"type": "order", "turn": -1, "order": {"kind": "Pass"}},
            {"type": "order", "turn": turn, "order": [1, 2]},
        ]
        junk = [
            "",
            " ",
            "null",
            "1",
            '"text"',
            "[]",
            "{}",
            '{"type": null}',
            "{'type': 'ping'}",
            "\x00\x01",
            "{" * 5000,
            "x" * 17_000,
            b"\x00binary",
        ]
        sent = 0
        errors: list[dict[str, Any]] = []

        def fire(client: Client, frames: list[Any], repeat: int) -> None:
            nonlocal sent
            for _ in range(repeat):
                for f in frames:
                    frame = f if isinstance(f, str | bytes) else dict(f, ref=sent)
                    client.send(frame)
                    sent += 1
                    reply = client.until("error")
                    errors.append(reply)
                    assert reply["code"] and reply["message"]
                    if isinstance(frame, dict):
                        assert reply.get("ref") == frame["ref"], (frame, reply)

        fire(army_client, bad_army, 12)
        fire(p0, bad_play, 20)
        fire(p1, bad_p1, 12)
        fire(p1, junk, 10)
        assert sent >= 500
        codes = {e["code"] for e in errors}
        assert {
            "bad-json",
            "too-big",
            "bad-frame",
            "unknown-type",
            "army",
            "phase",
            "already",
            "out-of-turn",
            "order",
            "message",
        } <= codes, codes
        assert srv.run(lambda: state(srv.server.matches[g_play])) == before_play  # nothing changed
        assert srv.run(lambda: dict(srv.server.matches[g_army].armies)) == before_army
        assert srv.run(lambda: other.game.turn) > busy_turn  # the other game went on
        # the seats still play: a good army, a good order
        army_client.send({"type": "army", "items": ["army+chief"]})
        assert army_client.until("army_ok")["items"] == ["army+chief"]
        p1.send({"type": "order", "turn": turn, "order": {"kind": "Pass"}})
        assert p1.until("received")["turn"] == turn
        assert p0.until("observation")["turn"] == turn + 1
        # a frame past the WebSocket limit closes that connection only
        big = Client(srv.ws_url, g_play, play["seats"][1]["token"])
        big.until("welcome")
        with pytest.raises(Exception):  # noqa: B017 (closed: 1009, message too big)
            big.send("y" * (2 << 20))  # (the server may close it before the frame is all sent)
            for _ in range(20):
                big.next(5)
        p0.send({"type": "ping"})
        assert p0.until("pong")
        for c in (army_client, p0, p1):
            c.close()


def test_frames_go_out_at_once_in_order_and_a_client_that_lags_is_dropped() -> None:
    """A client's frames leave in the call that gives them while the transport takes them at
    once; when it makes one wait, the later ones wait behind it, in order, at most ``limit``
    of them: one more drops the client (it is told why, after the frames before)."""

    async def main() -> None:
        sent: list[str] = []
        ready = asyncio.Event()
        ready.set()
        closed: list[bool] = []

        async def send(text: str) -> None:
            await ready.wait()
            sent.append(text)

        async def close() -> None:
            closed.append(True)

        peer = ClientPeer(send, close, limit=3)
        peer.send("a")
        assert sent == ["a"]  # at once: no task switch
        ready.clear()
        peer.send("b")  # the transport makes it wait ...
        peer.send("c")  # ... and this one waits behind it
        assert sent == ["a"]
        ready.set()
        await asyncio.sleep(0.01)
        assert sent == ["a", "b", "c"]
        peer.send("d")
        assert sent[-1] == "d" and not peer.closed  # at once again
        ready.clear()
        for text in "efghi":  # e waits, f g h behind it (the limit), i is one too many
            peer.send(text)
        assert peer.closed and closed == []
        peer.send("j")  # (after the close: not sent)
        ready.set()
        await peer.finished(5)
        assert sent[:8] == ["a", "b", "c", "d", "e", "f", "g", "h"]
        assert [json.loads(t)["code"] for t in sent[8:]] == ["closed"]
        assert "more than 3 frames wait" in json.loads(sent[8])["message"]
        assert closed == [True]

        async def broken(text: str) -> None:
            raise ConnectionError("gone")

        dead = ClientPeer(broken, close, limit=3)
        dead.send("x")  # the client has gone: nothing more is tried, the close still closes
        dead.close("the connection ended")
        await dead.finished(5)
        assert closed == [True, True]

    asyncio.run(main())


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536, 70000])
def test_a_text_frame_written_at_once_has_the_bytes_websockets_writes(size: int) -> None:
    """The direct path writes a text message's frame itself (:func:`direct.text_frame`): the
    bytes websockets makes of it on a server's connection, for the three sizes of length."""
    from websockets.frames import Frame, Opcode

    from antipolix.server import direct

    data = b"x" * size
    assert direct.text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False)


def test_frames_written_at_once_by_send_now_keep_their_order_with_the_waiting_ones() -> None:
    """Where the connection writes a frame at once (``send_now``, the direct path), it does so
    while the transport takes frames without waiting; once a frame waits, the next ones wait
    behind it (send_now is not asked), in order; then frames go out at once again."""

    async def main() -> None:
        sent: list[str] = []
        ready = asyncio.Event()
        ready.set()

        async def send(text: str) -> None:
            await ready.wait()
            sent.append("send:" + text)

        def send_now(text: str) -> bool:
            if not ready.is_set():
                return False
            sent.append("now:" + text)
            return True

        async def close() -> None:
            pass

        peer = ClientPeer(send, close, limit=3, send_now=send_now)
        peer.send("a")
        ready.clear()
        peer.send("b")  # send_now cannot: the coroutine waits
        ready.set()
        peer.send("c")  # behind b, although the transport would take it now
        assert sent == ["now:a"]
        await asyncio.sleep(0.01)
        assert sent == ["now:a", "send:b", "send:c"]
        peer.send("d")
        assert sent[-1] == "now:d"

    asyncio.run(main())


@pytest.mark.parametrize("direct_path", [True, False])
def test_websocket_frames_take_the_direct_path_or_the_asgi_path_alike(
    tmp_path: Path, monkeypatch: Any, direct_path: bool
) -> None:
    """With the installed uvicorn, a client's frames after its hello go straight to its
    session (:mod:`antipolix.server.direct`); with uvicorn's own protocol (another uvicorn)
    they take the ASGI path. Either way the same game is played, and the frames a client sends
    before the switch (its army right after its hello) are taken in order."""
    from antipolix.server import direct

    assert direct.protocol_class() is not None, (
        "this uvicorn is not one the direct path was checked with (antipolix.server.direct."
        "CHECKED): read what it relies on in uvicorn's websockets-sansio protocol, then extend"
    )
    if not direct_path:
        monkeypatch.setattr(direct, "protocol_class", lambda: None)
    results: list[bool] = []
    with running(ServerConfig(port=0, data=tmp_path, agent_workers=0), web={}) as srv:
        for seed in (5, 6):
            links = srv.create("bot,greedy", SMALL, seed=seed)
            client = Client(srv.ws_url, links["game"], links["seats"][0]["token"], hello=False)
            hello = {"type": "hello", "protocol": 1, "game": links["game"]}
            client.send({**hello, "token": links["seats"][0]["token"]})
            client.send({"type": "army", "items": ["army+chief"], "ref": 7})  # (before welcome)
            assert client.until("army_ok")["ref"] == 7

            def takers() -> list[bool]:
                connections = srv.server._uvicorn.server_state.connections
                return [getattr(c, "handler", None) is not None for c in connections]

            assert srv.run(takers) == ([True] if direct_path else [False])
            result = play_seat(client, seed=seed)
            client.close()
            replay = load_replay(srv.server.matches[links["game"]].replay_path)
            assert replay.result.turns == result["result"]["turns"] > 0
            results.append(verify(replay).turns_checked == replay.last_turn)
    assert results == [True, True]


def test_the_server_serves_on_uvloop_where_it_is_installed(monkeypatch: Any) -> None:
    """``run_serving`` runs the server's loop on uvloop (a dependency but on Windows), and on
    asyncio's own loop where uvloop cannot be imported; either way it returns what ran."""
    from antipolix.server.app import run_serving

    async def loop_module() -> str:
        await asyncio.sleep(0)
        return type(asyncio.get_running_loop()).__module__.split(".")[0]

    if sys.platform != "win32":
        assert run_serving(loop_module()) == "uvloop"
    monkeypatch.setitem(sys.modules, "uvloop", None)  # (import uvloop now fails)
    assert run_serving(loop_module()) == "asyncio"


def test_rate_and_refusals_are_bounded(server: Any) -> None:
    links = server.create("bot,greedy", SMALL, seed=2)
    client = Client(server.ws_url, links["game"], links["seats"][0]["token"])
    client.send({"type": "army", "items": BOT.choose_army(client.until("welcome"))})
    turn = client.until("observation")["turn"]
    for _ in range(150):
        client.send({"type": "ping"})
    client.send({"type": "order", "turn": turn, "order": {"kind": "Pass"}})
    client.send({"type": "ping"})
    replies = [f for f in (client.next() for _ in range(152)) if f["type"] in ("pong", "error")]
    limited = [r for r in replies if r["type"] == "error"]
    assert limited and all(r["code"] == "rate" for r in limited)
    assert 50 <= sum(r["type"] == "pong" for r in replies) <= 70  # the burst of 60, and a few
    assert client.until("received")["turn"] == turn  # a turn's order is never dropped
    client.close()
    silent = Client(server.ws_url, links["game"], "x", hello=False)
    silent.send("{")  # a bad hello closes the connection
    assert silent.next()["code"] == "bad-json"
    with pytest.raises(Exception):  # noqa: B017
        for _ in range(5):
            silent.next(5)


def test_api_creates_and_lists_games_for_the_host_only(server: Any) -> None:
    url = server.url + "/api/games"

    def call(method: str, token: str | None, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            url, method=method, data=None if body is None else json.dumps(body).encode()
        )
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    host = server.server.host_token
    assert call("GET", None)[0] == 401 and call("GET", "wrong")[0] == 401
    status, body = call(
        "POST", host, {"seats": "bot,greedy", "rule": ["shape=2,6,6", "budget=8"], "seed": 4}
    )
    assert status == 201 and body["seats"][0]["link"].startswith(server.url + "/play/")
    assert body["seats"][1]["link"] is None and body["watch"]["link"].startswith(
        server.url + "/watch/"
    )
    status, listed = call("GET", host)
    assert status == 200 and [g["game"] for g in listed["games"]] == [body["game"]]
    # the rules are checked at the seats' count: on 2×5×5 the default credits buy a chief for
    # 2 players (3 points), not for the default's 4 (1 point), which refused this game
    small = {"seats": "bot,bot", "rules": {"shape": [2, 5, 5]}}
    assert call("POST", host, small)[0] == 201
    for bad, words in [
        ({"seats": "bot,wizard"}, "unknown agent"),
        ({"seats": "bot,bot", "rule": ["think_times=drawn"]}, "measures think times"),
        ({"seats": "bot,bot", "rules": {"players": 11}}, "players must be"),
        ({"seats": "bot,bot", "color": "red"}, "unknown field"),
        # (a 500 with the server's traceback, and, for the board, the event loop stuck in the
        # search for home zones: every game the server held stopped)
        ({"seats": "bot,bot", "rules": {"max_turns": 10**20}}, "max_turns must be at most"),
        ({"seats": "bot,bot", "rules": {"shape": [4, 10**20, 10**20]}}, "N at most 2,048"),
        ({"seats": "bot,search:rollouts=100000000000000000000"}, "rollouts must be at most"),
        # (seated as a 2-player game without a word)
        ({"seats": "bot,bot", "rules": {"players": 3}}, "for 3 players but 2 seats are given"),
    ]:
        status, answer = call("POST", host, bad)
        assert status == 400 and words in answer["error"], answer
    assert call("GET", host)[0] == 200  # (still serving)
    replay_url = f"{server.url}/api/games/{body['game']}/replay"
    request = urllib.request.Request(
        replay_url, headers={"Authorization": f"Bearer {body['seats'][0]['token']}"}
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 409  # not over yet


def test_a_game_whose_rules_take_long_to_check_does_not_stop_the_server(server: Any) -> None:
    # R3's home zones of 10 seats on a 1,499 × 1,499 board take a second or two to find: the
    # host's request for that game waits for them, the server's other requests do not (they
    # waited in the event loop behind it)
    url = server.url + "/api/games"
    host = server.server.host_token
    done: dict[str, float] = {}

    def call(name: str, method: str, body: dict[str, Any] | None = None) -> None:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, method=method, data=data)
        request.add_header("Authorization", f"Bearer {host}")
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status in (200, 201)
        done[name] = time.perf_counter()

    big = {"seats": ",".join(["bot"] * 10), "rules": {"shape": [1, 1499, 1499], "budget": 20}}
    slow = threading.Thread(target=call, args=("create", "POST", big))
    slow.start()
    time.sleep(0.3)  # (the creation under way)
    call("list", "GET")
    slow.join(60)
    assert done["list"] < done["create"], done


def test_tcp_lines_carry_the_same_protocol(tmp_path: Path) -> None:
    with running(ServerConfig(port=0, tcp_port=0, data=tmp_path, agent_workers=0), web={}) as srv:
        links = srv.create("bot,greedy", SMALL, seed=5)
        host, port = srv.server.tcp_address
        with socket.create_connection((host, port), timeout=10) as sock:
            lines = sock.makefile("rwb")

            def send(frame: dict[str, Any] | bytes) -> None:
                lines.write(
                    frame if isinstance(frame, bytes) else json.dumps(frame).encode() + b"\n"
                )
                lines.flush()

            frames = Frames(lambda timeout: lines.readline())
            token = links["seats"][0]["token"]
            send({"type": "hello", "protocol": 1, "game": links["game"], "token": token})
            send({"type": "army", "items": BOT.choose_army(frames.until("welcome"))})
            turn = frames.until("observation")["turn"]
            send({"type": "order", "turn": turn, "order": {"kind": "Pass"}})
            assert frames.until("received")["turn"] == turn
            send(b"{not json\n")
            assert frames.until("error")["code"] == "bad-json"
            assert frames.until("observation")["turn"] == turn + 1
            send(b"x" * 20_000 + b"\n")  # longer than a frame may be: refused, then closed
            assert frames.until("error")["code"] == "too-big"


def test_r9_a_message_no_utf8_can_carry_reaches_its_readers_and_breaks_no_connection(
    server: Any,
) -> None:
    """A text holding a lone surrogate (JSON lets a client write ``\\ud800``) goes out
    escaped, as it came: the sender's answer and every reader's observation carry it, and
    everyone plays on (R9)."""
    links = server.create("bot,bot", SMALL, seed=6)
    clients = [Client(server.ws_url, links["game"], s["token"]) for s in links["seats"]]
    for c in clients:
        c.send({"type": "army", "items": BOT.choose_army(c.until("welcome"))})
    turn = clients[0].until("observation")["turn"]
    text = "odd " + chr(0xD800)
    clients[0].send(
        {
            "type": "order",
            "turn": turn,
            "order": {"kind": "Pass"},
            "messages": [{"kind": "Message", "text": text, "to": None}],
        }
    )
    assert clients[0].until("received")["messages"][0]["text"] == text
    clients[1].send({"type": "order", "turn": turn, "order": {"kind": "Pass"}})
    sent = clients[0].until("observation", turn=turn + 1)["observation"]
    assert [e["text"] for e in sent["events"] if e["kind"] == "Sent"] == [text]
    got = clients[1].until("observation", turn=turn + 1)["observation"]
    assert [m["text"] for m in got["messages"]] == [text]
    assert got["pieces"] and all(p["owner"] in (0, 1) for p in got["pieces"])  # (their text)
    for c in clients:  # both still play
        c.send({"type": "order", "turn": turn + 1, "order": {"kind": "Pass"}})
        assert c.until("received", turn=turn + 1)["order"] == {"kind": "Pass"}
        c.close()


def test_a_frame_holds_json_text_as_it_is_whichever_encoder_writes_it() -> None:
    # the pieces of an observation come as JSON text (JsonText); orjson writes them as they
    # are, and so does the standard library's encoder when orjson refuses the frame
    pieces = JsonText(b'[{"id":7,"cell":[0,1,2]}]')
    assert encode({"turn": 3, "pieces": pieces}) == '{"turn":3,"pieces":[{"id":7,"cell":[0,1,2]}]}'
    odd = "x" + chr(0xD800)
    assert encode({"text": odd, "pieces": pieces}) == (
        '{"text":"x\\ud800","pieces":[{"id":7,"cell":[0,1,2]}]}'
    )
    with pytest.raises(TypeError):
        encode({"what": object()})


def test_agents_decide_in_a_worker_process(tmp_path: Path) -> None:
    with running(ServerConfig(port=0, data=tmp_path, agent_workers=1), web={}) as srv:
        links = srv.create("greedy,greedy", SMALL, seed=3)
        match = srv.server.matches[links["game"]]
        end = time.monotonic() + 120
        while srv.run(lambda: match.result_frame) == "" and time.monotonic() < end:
            time.sleep(0.1)
        assert srv.run(lambda: match.game.result) is not None
        processes = srv.server.agents._processes
        assert len(processes) == 1 and processes[0].process.is_alive()
    assert load_replay(match.replay_path).last_turn > 0


# -- the command ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--seats", "human,wizard"], "unknown agent 'wizard'"),
        (["--seats", "human,bot", "--rule", "think_times=drawn"], "measures think times"),
        (["--seats", "human,bot", "--port", "70000"], "a port is 0 to 65535"),
        (["--seats", "human,bot", "--agent-min-think", "-1"], "give 0 to 3600 seconds"),
        (
            ["--seats", "human,bot", "--rule", "players=3"],
            "the rules are for 3 players but 2 seats are given: --seats names each seat",
        ),
        # what it would write to or listen on, checked before anything is bound or written
        (["--agent-workers", "999"], "--agent-workers: 999 must be at most 64"),
        (["--tcp-port", "8123", "--port", "8123"], "--tcp-port 8123 is the HTTP port (--port)"),
        (["--data", __file__], "is a file: give a folder for the games"),
        (["--data", f"{__file__}/served"], f"--data: cannot create {__file__}/served: "),
        (["--players-file", str(Path(__file__).parent)], "is a folder: give a file"),
        (["--players-file", __file__], "cannot read a players file"),
    ],
)
def test_serve_refuses_bad_input_in_one_line(
    tmp_path: Path, capsys: Any, args: list[str], words: str
) -> None:
    from antipolix.cli import main

    data = tmp_path / "served"
    try:
        code = main(["serve", "--data", str(data), "--port", "0", *args])
    except SystemExit as exc:  # argparse's refusals
        code = exc.code
    assert code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("antipolix: error: ") and words in lines[0], (
        lines
    )
    assert not data.exists()  # nothing written


def test_a_server_whose_data_folder_cannot_be_made_says_so_and_binds_nothing(
    tmp_path: Path,
) -> None:
    from antipolix.server.app import Server, ServerError

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    server = Server(ServerConfig(port=0, data=blocker / "served", agent_workers=0), web={})
    with pytest.raises(
        ServerError, match=r"cannot create the folder for the games .*a-file/served"
    ):
        asyncio.run(server.start())
    assert server._uvicorn is None  # (nothing bound: the folder comes first)


def test_serve_says_what_an_open_address_exposes(capsys: Any) -> None:
    from antipolix.cli.serve import _exposure

    class Fake:
        url, tcp_address = "http://box:8037", None

    _exposure(Fake(), ServerConfig(host="0.0.0.0"))  # type: ignore[arg-type]
    opened = capsys.readouterr().out
    assert "WARNING" in opened and "secret link" in opened and "not encrypted" in opened
    _exposure(Fake(), ServerConfig())  # type: ignore[arg-type]
    assert "this machine only" in capsys.readouterr().out


def test_the_browser_client_is_served_with_its_files_and_headers(tmp_path: Path) -> None:
    with running(ServerConfig(port=0, data=tmp_path, agent_workers=0)) as srv:  # viz's pages
        links = srv.create("human,greedy", SMALL, seed=1)

        def get(path: str) -> tuple[int, dict[str, str], bytes]:
            try:
                with urllib.request.urlopen(srv.url + path, timeout=10) as response:
                    return response.status, _lower(response.headers), response.read()
            except urllib.error.HTTPError as exc:
                return exc.code, _lower(exc.headers), exc.read()

        status, headers, body = get(f"/play/{links['game']}")
        assert status == 200 and b'<script src="/web/play.js">' in body
        assert "default-src 'self'" in headers["content-security-policy"]
        assert headers["cache-control"] == "no-store" and b"/*APX:CONFIG*/" not in body
        for name in ("three.min.js", "replay.js", "play.js", "page.css", "play.css"):
            status, headers, body = get(f"/web/{name}")
            assert status == 200 and body and headers["x-content-type-options"] == "nosniff"
        assert get("/play/nosuchgame")[0] == 404 and get("/web/secret.txt")[0] == 404
        assert b"game(s) in progress" in get("/")[2]


def _lower(headers: Any) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


def test_play_js_uses_only_the_bundled_three_classes() -> None:
    import re

    from viz.html import web_file

    used = set(re.findall(r"THREE\.([A-Za-z0-9_]+)", web_file("play.js")))
    listed = set(re.findall(r"^\s+([A-Za-z0-9_]+),$", web_file("vendor/three-entry.js"), re.M))
    assert used and used <= listed, f"add {sorted(used - listed)} to three-entry.js, rebuild"


def test_a_bot_in_javascript_plays_a_whole_game(server: Any) -> None:
    """experiments/bot_example.js: the protocol from another language (Node's WebSocket)."""
    import shutil

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    flags = [] if "function" in _node_websocket(node, []) else ["--experimental-websocket"]
    if "function" not in _node_websocket(node, flags):
        pytest.skip("this Node.js has no WebSocket")
    links = server.create("bot,greedy", SMALL, seed=6)
    done = subprocess.run(
        [node, *flags, str(ROOT / "experiments" / "bot_example.js"), links["seats"][0]["link"]],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    replay = load_replay(server.server.matches[links["game"]].replay_path)
    assert done.stdout.strip().endswith(f"{replay.result.turns} turns")
    moves = sum(
        rec.orders[0].__class__.__name__ == "Move" for rec in replay.records if 0 in rec.orders
    )
    assert moves > 0  # it played, not only passed


def _node_websocket(node: str, flags: list[str]) -> str:
    done = subprocess.run(
        [node, *flags, "-e", "console.log(typeof WebSocket)"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.stdout


def test_r6_r12_a_live_agent_decides_from_its_own_observation_and_seed(server: Any) -> None:
    """The built-in agent of a served game is the named agent with its seat's generator (R12)
    deciding on its own observations (R6): played again over the replay's observations, it
    gives every order the replay records for it."""
    import copy

    import numpy as np

    from antipolix.agents import agent_named
    from antipolix.codec import parse_item

    links = server.create("bot,greedy", Rules(shape=(4, 8, 8), players=2, max_turns=60), seed=21)
    client = Client(server.ws_url, links["game"], links["seats"][0]["token"])
    play_seat(client, 3)
    client.close()
    replay = load_replay(server.server.matches[links["game"]].replay_path)
    agent = copy.deepcopy(agent_named("greedy"))
    agent.setup(
        replay.rules,
        1,
        np.random.Generator(np.random.PCG64(Game(replay.rules, replay.seed).agent_seed(1))),
    )
    assert [parse_item(i) for i in replay.armies[1]] == agent.army()  # the army it chose (R3)
    checked = 0
    for record in replay.records:
        if 1 not in record.orders:
            break
        decision = agent.act(replay.observation(1, record.turn - 1))
        assert decision.order == record.orders[1], record.turn
        checked += 1
    assert checked == sum(1 in r.orders for r in replay.records) > 5


def test_serve_tells_a_person_when_the_clocks_end_a_game_early() -> None:
    """R7 zero-sum clocks: while a person thinks, every agent that has answered takes a second a
    second from them; with the 1995 credit a person thinking 10 s a turn against greedy is out
    of time in 6 turns, and the command says so with a credit that lasts 200 turns (which the
    rules accept, and which then needs no hint)."""
    from antipolix.cli.serve import clock_hint

    seats = parse_seats("human,greedy")
    hint = clock_hint(Rules(players=2), seats, 1.0)
    assert hint is not None
    assert "60 s each" in hint and "loses about 9 s a turn" in hint
    assert "after about 6 turns" in hint
    assert "--rule time_credit=1800 --rule time_total=3600" in hint
    longer = Rules(players=2, time_credit=1800.0, time_total=3600.0)
    assert clock_hint(longer, seats, 1.0) is None  # 200 turns of 9 s
    four = parse_seats("human,tuned,tuned,tuned")
    hint = clock_hint(Rules(time_credit=600.0, time_total=2400.0), four, 1.0)
    assert hint is not None and "3 agents answer in 1 s loses about 27 s a turn" in hint
    assert "after about 22 turns" in hint and "time_credit=5400 --rule time_total=21600" in hint
    # no hint without clocks, without a person, or without an agent
    assert clock_hint(Rules(players=2, timers=False), seats, 1.0) is None
    assert clock_hint(Rules(players=2), parse_seats("bot,greedy"), 1.0) is None
    assert clock_hint(Rules(players=2), parse_seats("human,bot"), 1.0) is None
    assert clock_hint(Rules(players=2), seats, 10.0) is None  # the agent waits as long
