"""An example bot for the AntipoliX match server, written without antipolix: the Python standard
library and the ``websockets`` client only, as a bot in any language would be (the protocol is
``docs/protocol.md``).

    python experiments/bot_example.py 'http://127.0.0.1:8037/play/3f9c01ab#SECRET'

It joins the seat of the link (a ``bot`` seat), buys an army within the budget (a chief, then
armies and hovercraft), and each turn attacks a visible enemy piece it can beat with the pieces
that reach it, else moves a piece a step toward the nearest enemy, else passes. It prints one
line a turn (with ``--quiet``, only the result) and exits with 0 when the game is over.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any
from urllib.parse import urlsplit

from websockets.sync.client import connect

PROTOCOL = 1


def chebyshev(a: list[int], b: list[int]) -> int:
    """The distance of two cells (R1): the largest difference of their coordinates."""
    dz, dy, dx = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return max(dz if dz >= 0 else -dz, dy if dy >= 0 else -dy, dx if dx >= 0 else -dx)


def choose_army(welcome: dict[str, Any]) -> list[str]:
    """A chief army, then armies and hovercraft in turn while the budget allows (R3)."""
    costs, budget = welcome["costs"], welcome["budget"]
    army, spent = ["army+chief"], costs["army+chief"]
    for item in ["army", "hovercraft"] * 1000:
        if spent + costs[item] > budget:
            if spent + min(costs["army"], costs["hovercraft"]) > budget:
                break
            continue
        army.append(item)
        spent += costs[item]
    return army


class Bot:
    """What the bot knows of the game: the rules (strengths, moves), its seat, the board."""

    def __init__(self, welcome: dict[str, Any], rng: random.Random) -> None:
        rules = welcome["rules"]
        self.seat = welcome["seat"]
        self.shape = rules["shape"]
        self.move = {t: rules[t]["move"] for t in ("army", "hovercraft", "fortress")}
        self.strength = {t: rules[t]["strength"] for t in ("army", "hovercraft", "fortress")}
        self.rng = rng

    def decide(self, obs: dict[str, Any]) -> dict[str, Any]:
        """An order for the observation (R4): the best attack it can win, else a step toward
        the nearest enemy, else Pass. It ignores teleporters (R5) and invisible defenders."""
        move, strength = self.move, self.strength
        mine = [p for p in obs["pieces"] if p["owner"] == self.seat]
        enemies = [p for p in obs["pieces"] if p["owner"] != self.seat]
        mobile = [p for p in mine if move[p["type"]] > 0]
        taken = {tuple(p["cell"]) for p in obs["pieces"]}
        best = None
        for target in enemies:
            cell = target["cell"]
            attackers = [p for p in mobile if chebyshev(p["cell"], cell) <= move[p["type"]]]
            if not attackers:
                continue
            power = sum(strength[p["type"]] for p in attackers)
            defence = strength[target["type"]] + sum(
                strength[p["type"]]
                for p in enemies
                if p["owner"] == target["owner"] and chebyshev(p["cell"], cell) == 1
            )
            if power > defence and (best is None or power - defence > best[0]):
                best = (power - defence, attackers, target)
        if best is not None:
            _, attackers, target = best
            pieces = [p["id"] for p in attackers]
            return {"kind": "Attack", "pieces": pieces, "cell": target["cell"]}
        if enemies and mobile:
            movers = [p for p in mobile if p["trait"] != "chief"] or mobile
            piece = self.rng.choice(movers)
            z, y, x = piece["cell"]
            goal = min(enemies, key=lambda e: chebyshev(e["cell"], piece["cell"]))["cell"]
            r = move[piece["type"]]
            steps = []  # (distance to the goal, cell) of each free cell within reach
            for cz in range(max(z - r, 0), min(z + r, self.shape[0] - 1) + 1):
                for cy in range(max(y - r, 0), min(y + r, self.shape[1] - 1) + 1):
                    for cx in range(max(x - r, 0), min(x + r, self.shape[2] - 1) + 1):
                        if (cz, cy, cx) not in taken:
                            cell = [cz, cy, cx]
                            steps.append((chebyshev(cell, goal), cell))
            if steps:
                closest = min(d for d, _ in steps)
                if closest < chebyshev(piece["cell"], goal):
                    cell = self.rng.choice([c for d, c in steps if d == closest])
                    return {"kind": "Move", "piece": piece["id"], "cell": cell}
        return {"kind": "Pass"}


def ws_url(link: str) -> tuple[str, str, str]:
    """The WebSocket address, game and token of a join link ``http://HOST:PORT/play/GAME#TOKEN``."""
    parts = urlsplit(link)
    game = parts.path.rstrip("/").rsplit("/", 1)[-1]
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws", game, parts.fragment


def play(url: str, game: str, token: str, seed: int = 0, quiet: bool = False) -> dict[str, Any]:
    """Play the seat to the end of the game; return the result frame."""
    rng = random.Random(seed)
    with connect(url, max_size=2**24) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "game": game, "token": token}))
        bot = None
        while True:
            frame = json.loads(ws.recv())
            kind = frame["type"]
            if kind == "welcome":
                bot = Bot(frame, rng)
                if frame["phase"] == "armies" and frame["army"] is None:
                    ws.send(json.dumps({"type": "army", "items": choose_army(frame)}))
            elif kind == "observation" and frame["turn"] is not None:
                assert bot is not None
                order = bot.decide(frame["observation"])
                ws.send(json.dumps({"type": "order", "turn": frame["turn"], "order": order}))
                if not quiet:
                    told = "; ".join(frame["told"][:3])
                    print(f"turn {frame['turn']}: {order['kind']}" + (f" ({told})" if told else ""))
            elif kind == "result":
                result = frame["result"]
                winner, turns = result["winner"], result["turns"]
                print(f"game over: {result['why']}, winner {winner}, {turns} turns")
                return frame
            elif kind == "error":
                print(f"server says: {frame['code']}: {frame['message']}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("link", help="the seat's join link, http://HOST:PORT/play/GAME#TOKEN")
    parser.add_argument("--seed", type=int, default=0, help="the bot's random choices")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args()
    url, game, token = ws_url(args.link)
    play(url, game, token, args.seed, args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
