"""The results of a batch of games (:func:`antipolix.simulate`): a study folder's table.

One row per game (:class:`~antipolix.runner.rows.GameRow` declares the columns); every column but
``seconds`` depends only on the study (R12), never on how the games were split over chunks,
workers or machines. The folder opens as a Parquet dataset (see :mod:`antipolix.runner.store`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from antipolix import games as registry
from antipolix.end import EndReason, GameResult
from antipolix.errors import AntipolixError, SimulationError
from antipolix.events import Elimination
from antipolix.games import host, replays
from antipolix.games.protocol import Outcome
from antipolix.runner.rows import schema
from antipolix.runner.seeds import game_seed, seat_order
from antipolix.runner.store import chunk_files, read_study, study_game
from antipolix.stats import wilson_interval

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped, unused-ignore]
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]

T = TypeVar("T")


def _chunk(path: Path, read: Callable[[Path], T]) -> T:
    """``read(path)`` of a chunk file; a file pyarrow cannot read as a chunk of this study
    (damaged, cut short, another table) is refused with what to do: its games, deleted, are
    played again, the same games (R12)."""
    import pyarrow as pa

    try:
        return read(path)
    except (OSError, pa.ArrowException) as exc:
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise SimulationError(
            f"{path} is damaged ({why}); delete it and run the study again: its games are "
            "played again, the same games"
        ) from None


@dataclass(frozen=True)
class RunInfo:
    """How one call of :func:`antipolix.simulate` went."""

    mode: Literal["serial", "ray"]
    workers: int  # games played at a time
    games_played: int  # in this call
    games_before: int  # already on disk when it started (resume)
    seconds: float  # wall time of this call, set-up included
    chunk_sizes: tuple[int, ...]  # the sizes of the chunks it played, in order of submission
    workers_asked: int | None = None  # ``workers`` as given (None: every CPU)

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else math.nan

    def __str__(self) -> str:
        capped = self.workers_asked is not None and self.workers_asked > self.workers
        text = (
            f"played {self.games_played} games in {self.seconds:.1f} s "
            f"({self.games_per_second:.2f} games/s, {self.mode}, {self.workers} at a time"
            + (f": {self.workers_asked} asked, {self.workers} CPUs" if capped else "")
            + ")"
        )
        return text + (f"; {self.games_before} were already done" if self.games_before else "")


def _percent(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f} %"


class Results:
    """The games of one study, as a table (pyarrow) read from its Parquet dataset.

    Returned by :func:`antipolix.simulate`; :meth:`open` reloads a study folder later (complete
    or not). The table is read on first use; the helpers read only the columns they need.

    >>> from antipolix import Rules, simulate
    >>> results = simulate(Rules(shape=(4, 8, 8), players=2, max_turns=60),
    ...                    ["greedy", "random"], games=8, seed=1, workers=0)
    >>> len(results), results.complete
    (8, True)
    >>> list(results.win_rates("agent").columns)
    ['variant', 'agent', 'games', 'wins', 'draws', 'win_rate', 'ci_low', 'ci_high']
    """

    def __init__(self, path: str | Path, *, run: RunInfo | None = None, keep: object = None):
        self.path = Path(path)
        self.study = read_study(self.path)
        self._schema = schema(study_game(self.study))
        self.run = run
        self._keep = keep  # a TemporaryDirectory that lives as long as these results
        self._table: pa.Table | None = None

    @classmethod
    def open(cls, path: str | Path) -> Results:
        """The results of the study stored in folder ``path`` (``--out`` of a run)."""
        return cls(path)

    # -- what the study is -------------------------------------------------------------------------

    @property
    def game(self) -> str:
        """The registry name of the study's game (:mod:`antipolix.games`)."""
        return study_game(self.study)

    @property
    def seed(self) -> int:
        return int(self.study["seed"])

    @property
    def games(self) -> int:
        """Games per variant."""
        return int(self.study["games"])

    @property
    def variants(self) -> list[str]:
        return [v["name"] for v in self.study["variants"]]

    @property
    def agents(self) -> list[str]:
        """The study's agents' labels, in the order they were given."""
        return list(self.study["labels"])

    def rules(self, variant: str | None = None) -> Any:
        """The rules of a variant (of the only one by default): a :class:`~antipolix.Rules`,
        or the configuration of the study's game."""
        return registry.game(self.game).config_from_dict(self._variant(variant)["rules"])

    def _variant(self, variant: str | None) -> dict[str, Any]:
        variants = self.study["variants"]
        if variant is None:
            if len(variants) != 1:
                raise SimulationError(f"name a variant: {', '.join(self.variants)}")
            return dict(variants[0])
        for v in variants:
            if v["name"] == variant:
                return dict(v)
        raise SimulationError(f"no variant {variant!r} (variants: {', '.join(self.variants)})")

    def files(self) -> list[Path]:
        """The chunk files, in (variant, game) order."""
        return [p for _, p in chunk_files(self.path)]

    def __len__(self) -> int:
        """Games finished (read from the files' footers)."""
        if self._table is not None:
            return int(self._table.num_rows)
        import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

        return sum(_chunk(p, lambda p: pq.ParquetFile(p).metadata.num_rows) for p in self.files())

    @property
    def complete(self) -> bool:
        return len(self) == self.games * len(self.variants)

    def __repr__(self) -> str:
        n = len(self.variants)
        return (
            f"Results({str(self.path)!r}: {len(self)} of {self.games * n} "
            f"games, {n} variant{'' if n == 1 else 's'}, seed {self.seed})"
        )

    # -- the table ---------------------------------------------------------------------------------

    def read(self, columns: Sequence[str] | None = None) -> pa.Table:
        """The rows (all columns, or ``columns``) in (variant, game) order."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        cols = None if columns is None else list(columns)
        if self._table is not None:
            return self._table if cols is None else self._table.select(cols)
        files = self.files()
        if not files:
            empty = self._schema.empty_table()
            return empty if cols is None else empty.select(cols)
        parts = [
            _chunk(p, lambda p: pq.read_table(p, columns=cols, schema=self._schema)) for p in files
        ]
        return pa.concat_tables(parts)

    @property
    def table(self) -> pa.Table:
        """Every row, as a pyarrow table (read once, then kept)."""
        if self._table is None:
            self._table = self.read()
        return self._table

    def to_pandas(self, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """The rows as a pandas DataFrame; ``winner`` is a nullable integer (``<NA>``: draw)."""
        df = self.read(columns).to_pandas()
        if "winner" in df:
            df["winner"] = df["winner"].astype("Int64")
        return df

    # -- statistics --------------------------------------------------------------------------------

    def _parts(self, columns: Sequence[str]) -> Iterator[pa.Table]:
        """The rows of ``columns``, a chunk file at a time: the statistics below read a study of
        any size in bounded memory (a million games' strings as Python objects took 600 MB)."""
        import pyarrow.parquet as pq

        if self._table is not None:
            yield self._table.select(list(columns))
            return
        for path in self.files():
            yield _chunk(
                path, lambda p: pq.read_table(p, columns=list(columns), schema=self._schema)
            )

    def win_rates(self, by: Literal["agent", "seat"] = "agent") -> pd.DataFrame:
        """Wins per agent (label) or per seat, per variant, with Wilson 95 % intervals.

        ``games`` counts the agent's seats over all games (an agent in two seats of a game
        counts twice, so with identical agents everywhere the fair share is 1 / players);
        ``draws`` counts the draws it took part in, apart from the losses. For an agent in
        several seats of a game the seats' outcomes are negatively correlated (one winner at
        most), so the interval is conservative.
        """
        import pandas as pd

        if by not in ("agent", "seat"):
            raise SimulationError(f"win_rates(by=...) takes 'agent' or 'seat', got {by!r}")
        parts = [_win_counts(t, by) for t in self._parts(["variant", "agents", "winner"])]
        counts = pd.concat(parts) if parts else _win_counts(self._schema.empty_table(), by)
        keys = counts[by]
        if by == "agent":
            keys = pd.Categorical(keys, categories=_ordered(self.agents, keys))
        counts = counts.assign(
            variant=pd.Categorical(counts["variant"], categories=self.variants), **{by: keys}
        )
        g = (
            counts.groupby(["variant", by], observed=True, sort=True)[["games", "wins", "draws"]]
            .sum()
            .reset_index()
        )
        g["variant"] = g["variant"].astype(str)
        if by == "agent":
            g["agent"] = g["agent"].astype(str)
        for column in ("games", "wins", "draws"):
            g[column] = g[column].astype(np.int64)
        g["win_rate"] = g["wins"] / g["games"]
        g["ci_low"], g["ci_high"] = wilson_interval(g["wins"], g["games"])
        return g

    def win_shares(self, by: Literal["agent", "seat"] = "agent") -> pd.DataFrame:
        """Games won per agent (label) or per seat, per variant, against its fair share.

        ``games`` are the variant's games; ``seats`` how many seats the agent holds in each
        (1 for a seat); ``wins`` the games one of its seats won; ``draws`` the games drawn;
        ``share`` = wins / games, with its Wilson 95 % interval (``ci_low``, ``ci_high``: one
        winner a game, so the games are the trials); ``fair_share`` what its seats would win if
        every seat were as strong: seats / players of the decided games. An agent ahead of its
        fair share wins more than its seats alone explain.

        >>> from antipolix import Rules, simulate
        >>> results = simulate(Rules(shape=(4, 8, 8), players=3, max_turns=60),
        ...                    ["greedy", "greedy", "random"], games=6, seed=1, workers=0)
        >>> shares = results.win_shares("agent")
        >>> shares[["agent", "seats", "games"]].values.tolist()
        [['greedy', 2.0, 6], ['random', 1.0, 6]]
        """
        w = self.win_rates(by)
        players = len(self.agents)
        out = w[["variant", by]].copy()
        per_game = w.groupby("variant", sort=False)["games"].transform("sum") / players
        games = per_game.round().astype(np.int64)
        out["seats"] = (w["games"] / games if by == "agent" else games * 0 + 1).astype(np.float64)
        out["games"] = games
        out["wins"] = w["wins"].astype(np.int64)
        out["draws"] = (w["draws"] / out["seats"]).round().astype(np.int64)
        out["share"] = out["wins"] / games
        out["ci_low"], out["ci_high"] = wilson_interval(out["wins"], games)
        out["fair_share"] = out["seats"] / players * (games - out["draws"]) / games
        return out

    def armies(self) -> pd.DataFrame:
        """The mean army per seat, per variant and agent, with a row ``winners`` per variant
        for the armies of the seats that won: ``armies`` (the seats averaged over), ``points``
        (what the army cost, R2: every army is bought within ``budget``, R3), then the mean
        pieces of each army item bought
        (``army``, ``hovercraft+invisible``, ...: the items no seat of the variant bought are
        left out). What a rule changes in the armies, and what wins."""
        import pandas as pd

        from antipolix.runner.rows import ARMY_COLUMNS

        names = list(self._schema.names)
        if "army_cost" not in names:  # another game's table: no armies (R3 is AntipoliX's)
            return pd.DataFrame()
        items = [c for c in ARMY_COLUMNS if c in names]
        sums: dict[tuple[str, str], Any] = {}
        for t in self._parts(["variant", "agents", "winner", "army_cost", *items]):
            for key, (total, count) in _army_sums(t, items).items():
                before, n = sums.get(key, (0.0, 0))
                sums[key] = (before + total, n + count)
        rows = []
        for variant in self.variants:
            budget = self.rules(variant).army_budget
            for label in [*_ordered(self.agents, []), WINNERS]:
                if (variant, label) not in sums:
                    continue
                total, count = sums[(variant, label)]
                mean = total / count
                rows.append(
                    {
                        "variant": variant,
                        "agent": label,
                        "armies": count,
                        "budget": budget,
                        "points": mean[0],
                        **{_item(c): v for c, v in zip(items, mean[1:], strict=True)},
                    }
                )
        frame = pd.DataFrame(rows)
        if frame.empty:
            return frame
        bought = [_item(c) for c in items if (frame[_item(c)] > 0).any()]
        return frame[["variant", "agent", "armies", "budget", "points", *bought]]

    def turns(self, percentiles: Iterable[float] = (5, 25, 50, 75, 95)) -> pd.DataFrame:
        """The distribution of game lengths (turns) per variant: count, mean, std, min,
        percentiles, max, and the share of games stopped by the turn limit (R10)."""
        import pandas as pd

        lengths: dict[str, list[npt.NDArray[np.float64]]] = {name: [] for name in self.variants}
        stopped = dict.fromkeys(self.variants, 0)
        for t in self._parts(["variant", "turns", "reason"]):
            part = t.to_pandas()
            for name, rows in part.groupby("variant", sort=False):
                lengths[str(name)].append(rows["turns"].to_numpy(dtype=np.float64))
                stopped[str(name)] += int((rows["reason"] == "turn_limit").sum())
        pcts = [float(p) for p in percentiles]
        out = []
        for name in self.variants:
            if not lengths[name]:
                continue
            turns = np.concatenate(lengths[name])
            row: dict[str, Any] = {
                "variant": name,
                "games": len(turns),
                "mean": turns.mean(),
                "std": turns.std(ddof=1) if len(turns) > 1 else math.nan,
                "min": int(turns.min()),
            }
            for p, v in zip(pcts, np.percentile(turns, pcts), strict=True):
                row[f"p{p:g}"] = float(v)
            row["max"] = int(turns.max())
            row["turn_limit"] = stopped[name] / len(turns)
            out.append(row)
        return pd.DataFrame(out)

    def reasons(self) -> pd.DataFrame:
        """How games ended (R10): games per variant and reason, the reasons in alphabetical
        order (the same columns in the same order for every study of a game)."""
        import pandas as pd

        parts = [
            t.to_pandas().groupby(["variant", "reason"], sort=False).size()
            for t in self._parts(["variant", "reason"])
        ]
        if not parts:
            return pd.DataFrame()
        sizes = pd.concat(parts)
        table = sizes.groupby(level=[0, 1], sort=False).sum().unstack(fill_value=0)
        table = table.reindex(columns=sorted(table.columns))
        return table.reindex([v for v in self.variants if v in table.index])

    def eliminations(self) -> pd.DataFrame:
        """How each agent's seats left their games, per variant and agent (label): ``seats``
        (one per seat it held in each game), out because their chief was taken (``chief``,
        R8), their clock ran out (``timer``, R7) or they quit (``quit``, R9), ``unrecorded``
        for seats out of games whose rows were written before the table said why (only when
        there are some), and ``in at the end`` (R10). Empty for a game whose table does not
        say."""
        import pandas as pd

        if "elimination_reason" not in self._schema.names:
            return pd.DataFrame()
        counts: dict[tuple[str, str], dict[str, int]] = {}
        names = ["variant", "agents", "elimination_order", "elimination_reason"]
        for t in self._parts(names):
            for variant, agents, order, why in zip(*t.to_pydict().values(), strict=True):
                gone = set(order)
                for seat, label in enumerate(agents):
                    row = counts.setdefault(
                        (variant, label), dict.fromkeys(["seats", *LEFT_BY, UNRECORDED, IN], 0)
                    )
                    row["seats"] += 1
                    if seat not in gone:
                        row[IN] += 1
                    elif why is None:  # (a chunk written before the column)
                        row[UNRECORDED] += 1
                    else:
                        row[why[seat]] += 1
        rows = [
            {"variant": v, "agent": a, **counts[(v, a)]}
            for v in self.variants
            for a in _ordered(self.agents, [a for w, a in counts if w == v])
            if (v, a) in counts
        ]
        frame = pd.DataFrame(rows)
        if not frame.empty and not frame[UNRECORDED].any():
            frame = frame.drop(columns=[UNRECORDED])
        return frame

    def summary(self) -> str:
        """A plain-text report, per variant: games won by agent and by seat against their fair
        share (:meth:`win_shares`), the armies (:meth:`armies`), game lengths, end reasons. It
        depends only on the rows (no timings, no paths): the same study prints the same
        summary."""
        import pandas as pd

        n = len(self)
        total = self.games * len(self.variants)
        head = (
            (f"{n} of {total} games" if n != total else f"{total} games")
            + f", seed {self.seed}, agents {', '.join(self.agents)}"
            + (", seats shuffled per game" if self.study.get("shuffle_seats") else "")
        )
        lines = [head]
        if len(self.variants) > 1:
            lines.append(f"variants ({self.games} games each): {', '.join(self.variants)}")
        elif self.study["variants"][0]["overrides"]:
            lines.append(f"rules: {self.study['variants'][0]['overrides']}")
        if n == 0:
            return "\n".join(lines)
        multi = len(self.variants) > 1

        def show(df: pd.DataFrame) -> str:
            if not multi:
                df = df.drop(columns=["variant"])
            text: str = df.to_string(index=False)
            return text

        by: Literal["agent", "seat"]
        players = len(self.agents)
        for by in ("agent", "seat"):
            w = self.win_shares(by)
            shown = pd.DataFrame(
                {
                    "variant": w["variant"],
                    by: w[by],
                    **({"seats": w["seats"].map(lambda s: f"{s:g} of {players}")}
                       if by == "agent" else {}),
                    "games": w["games"],
                    "wins": w["wins"],
                    "draws": w["draws"],
                    "won": [_percent(x) for x in w["share"]],
                    "95 % CI": [
                        f"{100 * lo:.1f} – {100 * hi:.1f} %"
                        for lo, hi in zip(w["ci_low"], w["ci_high"], strict=True)
                    ],
                    "fair share": [_percent(x) for x in w["fair_share"]],
                }
            )  # fmt: skip
            whose = "its seats" if by == "agent" else "the seat"
            lines += [
                "",
                f"games won by {by} (Wilson 95 % interval; fair share: what {whose} would win "
                f"if every seat were as strong, {'seats' if by == 'agent' else '1'} / {players} "
                "of the decided games):",
                show(shown),
            ]
        armies = self.armies()
        if not armies.empty:
            armies = armies.round(1)
            armies["armies"] = armies["armies"].astype(np.int64)
            lines += [
                "",
                "armies: mean per seat, points spent of the budget (R2, R3) and pieces bought "
                "of each kind (winners: the seats that won):",
                show(armies),
            ]
        turns = self.turns()
        limit = [_percent(x) for x in turns["turn_limit"]]  # a share: format before rounding
        turns = turns.round(1)
        turns["turn_limit"] = limit
        lines += ["", "turns per game:", show(turns)]
        reasons = self.reasons().reset_index()
        lines += ["", "how games ended:", show(reasons)]
        out = self.eliminations()
        if not out.empty and not out[list(LEFT_BY)].to_numpy().any() and UNRECORDED in out:
            lines += ["", "how players left the games: not in these rows (written before)"]
        elif not out.empty:
            lines += [
                "",
                "how players left the games, seats (R8 chief taken, R7 timer run out, R9 quit):",
                show(out),
            ]
        return "\n".join(lines)

    # -- single games ------------------------------------------------------------------------------

    def game_seed(self, game: int) -> np.random.SeedSequence:
        """The seed of game ``game`` (the same in every variant): R12."""
        return game_seed(self.seed, game)

    def replay(
        self,
        game: int,
        path: str | Path,
        *,
        variant: str | None = None,
        agents: Sequence[Any] | None = None,
    ) -> Any:
        """Play game ``game`` of a variant again and write its replay file to ``path``; its
        result (AntipoliX's :class:`~antipolix.GameResult`, another game's
        :class:`~antipolix.games.protocol.Outcome`).

        The agents are rebuilt from the study when they are built-in; otherwise pass the same
        ``agents`` as to :func:`antipolix.simulate`.
        """
        if not 0 <= game < self.games:
            raise SimulationError(f"game {game} is not in the study (0 … {self.games - 1})")
        played = registry.game(self.game)
        rules = self.rules(variant)
        if agents is None:
            agents = []
            for spec in self.study["agents"]:
                try:
                    agents.append(host.agent_from_record(played, spec))
                except AntipolixError:
                    raise SimulationError(
                        f"agent {spec['name']!r} is not a built-in agent; pass the study's agents"
                    ) from None
        seats = seat_order(self.seed, game, rules.players, bool(self.study["shuffle_seats"]))
        outcome = replays.play(
            played, rules, [agents[j] for j in seats], game_seed(self.seed, game), replay=path
        )
        return _result(outcome) if self.game == registry.DEFAULT else outcome


def _result(outcome: Outcome) -> Any:
    """AntipoliX's result of an outcome (R10), as :meth:`Results.replay` returned it."""
    return GameResult(
        outcome.winner,
        EndReason[outcome.reason.upper()],
        outcome.turns,
        tuple(outcome.elimination_order),
    )


def _win_counts(t: pa.Table, by: str) -> pd.DataFrame:
    """Games, wins and draws per (variant, agent label or seat) in the rows of ``t``."""
    import pandas as pd
    import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]

    lengths = pc.list_value_length(t["agents"]).to_numpy(zero_copy_only=False)
    lengths = np.asarray(lengths, dtype=np.int64)
    parents = np.repeat(np.arange(t.num_rows), lengths)
    starts = np.cumsum(lengths) - lengths
    seat = np.arange(int(lengths.sum())) - np.repeat(starts, lengths)
    winner = np.asarray(pc.fill_null(t["winner"], -1).to_numpy(zero_copy_only=False))
    key: Any = seat
    if by == "agent":
        key = np.asarray(pc.list_flatten(t["agents"]).to_numpy(zero_copy_only=False), dtype=object)
    df = pd.DataFrame(
        {
            "variant": np.asarray(t["variant"].to_numpy(zero_copy_only=False), dtype=object)[
                parents
            ],
            by: key,
            "games": 1,
            "wins": winner[parents] == seat,
            "draws": winner[parents] == -1,
        }
    )
    return df.groupby(["variant", by], sort=False).sum().reset_index()


WINNERS = "winners"  # the row of Results.armies for the seats that won
UNRECORDED = "unrecorded"  # seats out of games whose rows do not say why (Results.eliminations)
IN = "in at the end"  # seats still in their game at its end (Results.eliminations)
LEFT_BY = tuple(str(e) for e in Elimination)  # chief, timer, quit: columns of Results.eliminations


def _army_sums(t: pa.Table, items: Sequence[str]) -> dict[tuple[str, str], tuple[Any, int]]:
    """Per (variant, agent label), and per (variant, :data:`WINNERS`), the sums over seats of
    the army cost and of each item's count in the rows of ``t``, and the seats summed."""
    import pandas as pd
    import pyarrow.compute as pc

    lengths = np.asarray(pc.list_value_length(t["agents"]).to_numpy(zero_copy_only=False))
    parents = np.repeat(np.arange(t.num_rows), lengths.astype(np.int64))
    seat = np.arange(len(parents)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    winner = np.asarray(pc.fill_null(t["winner"], -1).to_numpy(zero_copy_only=False))

    def flat(column: str) -> Any:
        return np.asarray(pc.list_flatten(t[column]).to_numpy(zero_copy_only=False))

    frame = pd.DataFrame(
        {
            "variant": np.asarray(t["variant"].to_numpy(zero_copy_only=False), dtype=object)[
                parents
            ],
            "agent": flat("agents").astype(object),
            "points": flat("army_cost").astype(np.float64),
            **{c: flat(c).astype(np.float64) for c in items},
        }
    )
    won = frame[winner[parents] == seat].assign(agent=WINNERS)
    out: dict[tuple[str, str], tuple[Any, int]] = {}
    for part in (frame, won):
        grouped = part.groupby(["variant", "agent"], sort=False)
        totals, counts = grouped.sum(), grouped.size()
        for key in totals.index:
            out[(str(key[0]), str(key[1]))] = (totals.loc[key].to_numpy(), int(counts.loc[key]))
    return out


def _item(column: str) -> str:
    """``n_hovercraft_invisible`` → ``hovercraft+invisible``."""
    return column.removeprefix("n_").replace("_", "+", 1)


def _ordered(known: Sequence[str], seen: Any) -> list[str]:
    extra = sorted(set(map(str, seen)) - set(known))
    return list(dict.fromkeys(known)) + extra
