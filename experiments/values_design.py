"""How many games a values study needs: each design's interval widths on the same agent.

    .venv/bin/python experiments/values_design.py [--agent greedy] [--games 4000]
        [--twins 1000] [--seed 11] [--workers 2] [--out runs/values-design]

On the default rules (or ``--rule``s), one agent in every seat, it plays ``--games`` games of
random armies with each army design (:class:`antipolix.balance.Design`): the cost fit's
(``uniform`` menu, 30–100 % of the budget: today's design), the values study's menu
(``by-cost``: each item weighted 1 / its cost) at 30–100 %, and the values study's design
(``by-cost``, 10–100 %), the same game seeds for all, and fits each with each outcome
(``winner``: today's; ``order``: every elimination). Then two paired designs of ``--twins``
pairs of games each, both games of a pair on the same seed (common random numbers), the values
study's armies, fitted by ``order`` with a sandwich covariance that takes each pair as one
draw (the two games of a pair are not independent):

- ``one piece``: in the second game one seat's army has one piece less (a random one, the
  chief kept): armies that differ by one piece;
- ``rotated``: in the second game the same armies sit two seats further round (across the
  ring of home zones, R3): the same seeds with seats rotated.

It prints, per design and kind, the value per cost point with its 95 % interval and the
interval's width, and the games each design needs for today's widths: a width shrinks as one
over the square root of the games, so a design whose width is ``w`` where today's is ``w0`` on
as many games needs ``(w / w0)²`` of today's games. These ratios do not depend on the machine's
load; the times printed do. Values differ between menus (a piece is worth less in armies that
already hold many of its kind), so the values are printed beside the widths.
"""

from __future__ import annotations

import antipolix  # noqa: F401  (first, before numpy: OpenBLAS's kernels pinned, antipolix.blas)

# isort: split

import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

from antipolix import Rules
from antipolix.agents import GivenArmy, agent_named
from antipolix.autoplay import play_games
from antipolix.balance.design import CLASSIC, SPEND, Design
from antipolix.balance.fit import games_frame
from antipolix.balance.values import ValueEstimate, estimate_games, item_kinds
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, rules_from_args, seed_arg
from antipolix.game import generators
from antipolix.runner import Results, game_seed, simulate
from antipolix.stats import Z95

ROOT = Path(__file__).resolve().parents[1]


def played_table(rules: Rules, agent: str, design: Design, games: int, seed: int, out: Path,
                 workers: int | None) -> pd.DataFrame:  # fmt: skip
    """The games of one menu (resumable in ``out``)."""
    bot = design.agent(agent, rules)
    simulate(rules, [bot] * rules.players, games, seed, workers=workers, out=out)
    return games_frame(Results.open(out).to_pandas())


def twin_table(rules: Rules, agent: str, pairs: int, seed: int, kind: str) -> pd.DataFrame:
    """``pairs`` pairs of games on one seed each (game ``2j`` and ``2j + 1``): by-cost random
    armies drawn as the runner draws them (each seat's from its own generator, R12), and the
    second game changed by ``kind`` (``one piece``: seat ``j mod players`` loses one random
    non-chief piece; ``rotated``: every army two seats further round)."""
    policy = Design().army(rules)
    players = rules.players
    rows = []
    batch: list[tuple[list[GivenArmy], np.random.SeedSequence, int]] = []

    def flush() -> None:
        specs = []
        for armies, ss, _ in batch:
            seated = []
            for army in armies:
                bot = agent_named(agent)
                bot.army_policy = army
                seated.append(bot)
            specs.append((seated, ss))
        for (_, _, game), p in zip(batch, play_games(rules, specs), strict=True):
            assert p is not None
            rows.append(
                {
                    "game": game,
                    "winner": p.result.winner,
                    "reason": p.result.reason.name.lower(),
                    "turns": p.result.turns,
                    "elimination_order": [int(s) for s in p.result.elimination_order],
                    "seconds": p.seconds,
                    "kinds": [item_kinds(_counted(a)) for a in p.armies],
                }
            )
        batch.clear()

    for j in range(pairs):
        ss = game_seed(seed, j)
        _, _, agent_seeds, _ = generators(rules, ss)
        armies = [
            policy.choose(rules, np.random.Generator(np.random.PCG64(s))) for s in agent_seeds
        ]
        if kind == "one piece":
            seat = j % players
            rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(j, 7)))
            others = [i for i, item in enumerate(armies[seat]) if item[1].name != "CHIEF"]
            changed = [list(a) for a in armies]
            if others:
                changed[seat].pop(others[int(rng.integers(len(others)))])
        else:
            shift = players // 2 or 1
            changed = [armies[(s - shift) % players] for s in range(players)]
        batch.append(([GivenArmy(a) for a in armies], ss, 2 * j))
        batch.append(([GivenArmy(a) for a in changed], ss, 2 * j + 1))
        if len(batch) >= 64:
            flush()
    flush()
    return pd.DataFrame(rows)


def _counted(army: tuple) -> dict:  # type: ignore[type-arg]
    out: dict = {}  # type: ignore[type-arg]
    for item in army:
        out[item] = out.get(item, 0) + 1
    return out


def widths(est: ValueEstimate, pairs: bool = False) -> pd.DataFrame:
    """Per kind: value per cost point, its interval and width; with ``pairs``, from the
    sandwich covariance with games ``2j`` and ``2j + 1`` as one draw."""
    t = est.table.set_index("kind")
    out = pd.DataFrame(
        {"ratio": t["ratio"], "low": t["ratio_low"], "high": t["ratio_high"]}, index=t.index
    )
    if pairs:
        fit = est.fit
        assert fit is not None
        cluster = fit.games // 2
        summed = np.zeros((int(cluster.max()) + 1, fit.scores.shape[1]))
        np.add.at(summed, cluster, fit.scores)
        cov = fit.cov @ (summed.T @ summed) @ fit.cov
        se = np.sqrt(np.diag(fit.grad @ cov @ fit.grad.T))
        cost = t.loc[list(fit.kinds), "cost"].to_numpy(dtype=float)
        out.loc[list(fit.kinds), "low"] = out.loc[list(fit.kinds), "ratio"] - Z95 * se / cost
        out.loc[list(fit.kinds), "high"] = out.loc[list(fit.kinds), "ratio"] + Z95 * se / cost
    out["width"] = out["high"] - out["low"]
    return out


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--games", type=int_at_least(1), default=4000, help="games per menu")
    parser.add_argument(
        "--twins", type=int_at_least(0), default=1000, help="pairs per paired design"
    )
    parser.add_argument("--seed", type=seed_arg, default=11)
    parser.add_argument("--workers", type=int_at_least(0), default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "values-design")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--rules", type=Path, default=None)
    args = parser.parse_args()
    rules = rules_from_args(args)
    agent_named(args.agent)  # an unknown agent is refused before any game
    began = time.perf_counter()
    fits: dict[str, pd.DataFrame] = {}
    games: dict[str, int] = {}
    armies = {  # the cost fit's armies (today), then the values study's menu and spend
        "uniform 30-100 %": CLASSIC,
        "by-cost 30-100 %": Design(spend=SPEND),
        "by-cost 10-100 %": Design(),
    }
    for label, design in armies.items():
        out = (
            args.out
            / f"{args.agent.replace(':', '_')}-{label.replace(' ', '-').replace('%', 'pc')}"
        )
        table = played_table(rules, args.agent, design, args.games, args.seed, out, args.workers)
        for outcome in ("winner", "order"):
            name = f"{label}, {outcome}"
            fits[name] = widths(estimate_games(table, rules, outcome))
            games[name] = len(table)
    print(f"{args.agent}: {args.games} games per army design played or read in "
          f"{time.perf_counter() - began:.0f} s (under load: not a figure)")  # fmt: skip
    for kind in ("one piece", "rotated"):
        if args.twins <= 0:
            break
        start = time.perf_counter()
        table = twin_table(rules, args.agent, args.twins, args.seed, kind)
        est = estimate_games(table, rules, "order")
        fits[f"by-cost 10-100 %, order, {kind} pairs"] = widths(est, pairs=True)
        games[f"by-cost 10-100 %, order, {kind} pairs"] = len(table)
        same = _same_place(table, rules.players, kind)
        print(f"{kind} pairs: {args.twins} pairs ({len(table)} games) in "
              f"{time.perf_counter() - start:.0f} s; {same}")  # fmt: skip
    today = "uniform 30-100 %, winner"
    base = fits[today]
    print()
    print("value per cost point [95 %] and width, per design and kind; games of today's "
          "design for the same width = (width / today's width)² × games, per kind")  # fmt: skip
    rows = []
    for name, f in fits.items():
        scale = games[name] / games[today]
        ratio = (base["width"] / f["width"]) ** 2 / scale
        worst = (base["width"].max() / f["width"].max()) ** 2 / scale
        for kind, r in f.iterrows():
            rows.append({"design": name, "kind": kind, "games": games[name],
                         "value/cost": f"{r['ratio']:.2f} [{r['low']:.2f}, {r['high']:.2f}]",
                         "width": round(float(r["width"]), 3),
                         "today's games per game": round(float(ratio[kind]), 2)})  # fmt: skip
        rows.append({"design": name, "kind": "(widest)", "games": games[name],
                     "value/cost": "", "width": round(float(f["width"].max()), 3),
                     "today's games per game": round(float(worst), 2)})  # fmt: skip
    pd.set_option("display.width", 200)
    print(pd.DataFrame(rows).to_string(index=False))
    print()
    print(
        "today's games per game: how many games of today's design (the cost fit's: uniform "
        "menu, 30-100 % of the budget, winner) give the width one game of this design gives; "
        "2 means half the games"
    )


def _same_place(table: pd.DataFrame, players: int, kind: str) -> str:
    """How alike the two games of a pair ended: the correlation of the changed seat's (one
    piece) or of every army's (rotated) finishing place between them."""
    places = []
    for rows in (table.iloc[0::2], table.iloc[1::2]):
        out = []
        for w, order in zip(rows["winner"], rows["elimination_order"], strict=True):
            place = np.full(players, np.nan)
            for k, s in enumerate(order):
                place[s] = players - k  # first out: last place
            if w is not None and not (isinstance(w, float) and math.isnan(w)):
                place[int(w)] = 1
            out.append(place)
        places.append(np.array(out))
    first, second = places
    if kind == "rotated":
        shift = players // 2 or 1
        second = np.roll(second, -shift, axis=1)  # army s sat in seat s + shift
        a, b = first.reshape(-1), second.reshape(-1)
    else:
        seats = np.arange(len(first)) % players
        a, b = first[np.arange(len(first)), seats], second[np.arange(len(second)), seats]
    ok = ~(np.isnan(a) | np.isnan(b))
    r = float(np.corrcoef(a[ok], b[ok])[0, 1]) if ok.sum() > 2 else math.nan
    return f"correlation of the same army's finishing place between the two games: {r:.2f}"


if __name__ == "__main__":
    run_script(main)
