"""Two cost tables side by side: game health and the meta of each, on common seeds.

:func:`compare` plays, at each table, the health games of the strongest agent (draws, length,
seats), the short ladder of its neighbours and the army search (the meta), every part on the
same seeds at both tables (common random numbers: a difference comes from the costs, not from
luck), and judges the second table against the first with the proposal's bounds
(:mod:`antipolix.meta.health`). The folder holds ``compare.json`` (the settings; running the
same call again resumes), one folder per table with its games, and the outputs: ``report.md``,
``health.csv``, ``verdicts.csv``, ``armies.csv`` and ``meta.png``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd

from antipolix.agents import agent_named
from antipolix.codec import overrides_markdown, rules_to_dict
from antipolix.errors import AntipolixError
from antipolix.files import write_atomically
from antipolix.limits import check_seed
from antipolix.meta.armies import MetaError
from antipolix.meta.folder import as_json, check_folder, opened, ray_once
from antipolix.meta.health import BOUNDS, Health, Verdict, judge, play_health, play_ladder
from antipolix.meta.propose import ProposalSettings
from antipolix.meta.run import meta_search
from antipolix.meta.values import costs_of, slug
from antipolix.rules import Rules

STUDY_FILE = "compare.json"
STUDY_FORMAT = "antipolix-compare"
STUDY_VERSION = 1
Say = Callable[[str], None]


@dataclass
class Comparison:
    """Two tables' names, rules and health (measures, ladder, meta), and the second judged
    against the first."""

    names: tuple[str, str]
    rules: tuple[Rules, Rules]
    health: tuple[Health, Health]
    verdicts: list[Verdict]
    settings: ProposalSettings
    seed: int
    seconds: float = 0.0
    games: dict[str, int] = field(default_factory=dict)

    def health_frame(self) -> pd.DataFrame:
        from antipolix.meta.proposal_report import _health_row

        return pd.DataFrame(
            [
                _health_row(name, costs_of(rules), h)
                for name, rules, h in zip(self.names, self.rules, self.health, strict=True)
            ]
        )

    def verdicts_frame(self) -> pd.DataFrame:
        first = {v.bound: v for v in judge(self.health[0], self.health[0], self.settings.bounds)}
        rows = []
        for v in self.verdicts:
            rows.append(
                {
                    "bound": v.bound,
                    "limit": v.limit,
                    self.names[0]: first[v.bound].value,
                    self.names[1]: v.value,
                    "kept": v.kept,
                }
            )
        return pd.DataFrame(rows)

    def armies_frame(self) -> pd.DataFrame:
        parts = []
        for name, h in zip(self.names, self.health, strict=True):
            if h.meta is not None:
                parts.append(h.meta.armies_table().assign(table=name))
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def load_table(path: str | Path) -> Rules:
    """A cost table's rules file, read as every command reads ``--rules``; errors name it."""
    from antipolix.codec import load_rules_file

    try:
        return load_rules_file(path)
    except AntipolixError as exc:
        raise MetaError(str(exc)) from None


def compare(
    first: Rules,
    second: Rules,
    settings: ProposalSettings | None = None,
    *,
    names: Sequence[str] = ("A", "B"),
    seed: int = 0,
    out: str | Path,
    workers: int | None = None,
    say: Say | None = None,
    progress: bool = False,
) -> Comparison:
    """Play both tables (module doc) into the folder ``out``. ``settings``: the agent, bounds,
    health, ladder and meta sizes (the proposal's; its value and candidate settings are not
    used). Bad input, and a folder holding anything else, raise :class:`MetaError` before any
    game is played or any file is written."""
    began = time.perf_counter()
    for r in (first, second):
        if not isinstance(r, Rules):
            raise MetaError(f"rules must be a Rules, got {type(r).__name__}")
    try:
        seed = check_seed(seed)
    except AntipolixError as exc:
        raise MetaError(str(exc)) from None
    a, b = (str(n) for n in names)
    if a == b or not a or not b:
        a, b = "A", "B"
    s = (settings or ProposalSettings()).checked(first)
    s.meta.checked(second.players)
    if first.players != second.players:
        raise MetaError(
            f"the tables are for {first.players} and {second.players} players: compare cost "
            "tables of the same game"
        )
    folder = Path(out)
    spec = as_json(
        {
            "format": STUDY_FORMAT,
            "version": STUDY_VERSION,
            "names": [a, b],
            "rules": [rules_to_dict(first), rules_to_dict(second)],
            "seed": seed,
            "agent": s.agent,
            "bounds": asdict(s.bounds),
            "health_games": s.health_games,
            "ladder_agents": list(s.ladder_agents or ()),
            "ladder_games": s.ladder_games,
            "meta": asdict(s.meta),
        }
    )
    check_folder(folder, spec, STUDY_FILE, "comparison")
    tell = say or (lambda _: None)
    games: dict[str, int] = {}
    health: list[Health] = []
    with opened(folder, spec, STUDY_FILE, "comparison"), ray_once(workers):
        for name, rules in ((a, first), (b, second)):
            where = folder / name
            tell(f"{name}: health games of {s.agent} at {slug(costs_of(rules))}")
            h = Health()
            h.measures = play_health(
                rules,
                agent_named(s.agent),
                s.health_games,
                seed,
                out=where / "health",
                workers=workers,
                progress=progress,
                level=s.bounds.seat_level,
            )
            games["health"] = games.get("health", 0) + h.measures.games
            if s.bounds.ladder and s.ladder_agents:
                tell(f"{name}: ladder of {', '.join(s.ladder_agents)}")
                h.ladder = play_ladder(
                    rules,
                    s.ladder_agents,
                    s.ladder_games,
                    seed,
                    out=where / "ladder",
                    workers=workers,
                    progress=progress,
                )
                games["ladder"] = games.get("ladder", 0) + h.ladder.games
            tell(f"{name}: army search of {s.agent}")
            h.meta = meta_search(
                rules,
                s.agent,
                settings=s.meta,
                seed=seed,
                out=where / "meta",
                workers=workers,
                progress=progress,
            )
            games["meta"] = games.get("meta", 0) + h.meta.games
            health.append(h)
        result = Comparison(
            (a, b),
            (first, second),
            (health[0], health[1]),
            judge(health[1], health[0], s.bounds),
            s,
            seed,
            games=games,
        )
        result.seconds = time.perf_counter() - began
        write_comparison(result, folder)
    return result


def write_comparison(c: Comparison, folder: Path) -> None:
    from antipolix.meta.report import md_table, meta_markdown, plot_meta

    a, b = c.names
    try:
        write_atomically(folder / "health.csv", c.health_frame().to_csv(index=False).encode())
        verdicts = c.verdicts_frame()
        write_atomically(folder / "verdicts.csv", verdicts.to_csv(index=False).encode())
        write_atomically(folder / "armies.csv", c.armies_frame().to_csv(index=False).encode())
        metas = [
            (f"{n}: {slug(costs_of(r))}", h.meta)
            for n, r, h in zip(c.names, c.rules, c.health, strict=True)
            if h.meta is not None
        ]
        plot_meta(metas, folder / "meta.png")
        shown = verdicts.assign(
            kept=verdicts["kept"].map({True: "yes", False: "**no**", None: "–"})
        )
        lines = [
            f"# {a} against {b}: health and the meta",
            "",
            f"Both tables played on the same seeds (seed {c.seed}) by `{c.settings.agent}`. "
            f"{b} differs from {a} in: {overrides_markdown(c.rules[1], c.rules[0], 'nothing')}.",
            "",
            f"**{b} judged against {a}'s health**: " + _summary(c.verdicts) + ".",
            "",
            md_table(shown),
            "",
        ]
        for name, h in zip(c.names, c.health, strict=True):
            if h.meta is not None:
                lines.append(
                    meta_markdown(h.meta, "##", c.settings.bounds.meta, f"The meta at {name}")
                )
        lines += [
            "![the meta of each table](meta.png)",
            "",
            f"Games: {sum(c.games.values()):,} ("
            + ", ".join(f"{k} {v:,}" for k, v in c.games.items())
            + f"), {c.seconds / 60:.1f} min for this run (a folder already holding games reads "
            "them).",
            "",
        ]
        write_atomically(folder / "report.md", "\n".join(lines).encode())
    except OSError as exc:
        raise MetaError(f"cannot write the outputs to {folder}: {exc}") from None


def _summary(verdicts: Sequence[Verdict]) -> str:
    broken = [v.bound for v in verdicts if v.kept is False]
    if broken:
        return f"it breaks {', '.join(broken)}"
    unmeasured = [v.bound for v in verdicts if v.kept is None]
    if unmeasured:
        return f"it keeps every bound measured ({', '.join(unmeasured)} not measured)"
    return "it keeps every bound (" + ", ".join(BOUNDS) + ")"


__all__ = ["Comparison", "compare", "load_table", "write_comparison"]
