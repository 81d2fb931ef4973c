"""A proposal's outputs: ``proposed.toml``, ``report.md``, the CSVs and the plots."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from antipolix.codec import overrides_markdown, rules_to_toml
from antipolix.files import write_atomically
from antipolix.meta.armies import MetaError
from antipolix.meta.health import BOUNDS, Health, Verdict, binding, judge
from antipolix.meta.propose import Proposal
from antipolix.meta.report import counted, md_table, meta_markdown, method_text, plot_meta
from antipolix.meta.values import COLUMNS, Values, slug


def write_proposal(p: Proposal, folder: Path) -> None:
    """Every output of a proposal into its folder."""
    try:
        (folder / "plots").mkdir(exist_ok=True)
        if p.proposal is not None:
            rules = p.proposed_rules
            assert rules is not None
            head = (
                f"Proposed by antipolix balance propose at {p.settings.agent} (seed {p.seed}).\n"
                f"{p.verdict()}.\nRead it with --rules (antipolix play, simulate, balance ...)."
            )
            write_atomically(folder / "proposed.toml", rules_to_toml(rules, head).encode())
        else:
            (folder / "proposed.toml").unlink(missing_ok=True)
        write_atomically(folder / "values.csv", values_frame(p).to_csv(index=False).encode())
        write_atomically(
            folder / "candidates.csv", candidates_frame(p).to_csv(index=False).encode()
        )
        write_atomically(folder / "health.csv", health_frame(p).to_csv(index=False).encode())
        write_atomically(folder / "stability.csv", p.stability().to_csv(index=False).encode())
        plot_values(p, folder / "plots" / "values.png")
        metas = [(f"start: {slug(p.start)}", p.start_health.meta)]
        chosen = p.chosen
        if chosen is not None and chosen.costs != p.start:
            metas.append((f"proposal: {slug(chosen.costs)}", chosen.health.meta))
        shown = [(title, m) for title, m in metas if m is not None]
        if shown:
            plot_meta(shown, folder / "plots" / "meta.png")
        write_atomically(folder / "report.md", report_text(p).encode())
    except OSError as exc:
        raise MetaError(f"cannot write the outputs to {folder}: {exc}") from None


# -- tables ---------------------------------------------------------------------------------------


def values_frame(p: Proposal) -> pd.DataFrame:
    """The values (issue 33's columns) at the start and at the proposal, with ``table``."""
    parts = []
    for name, values in (("start", p.values_start), ("proposal", p.values_proposal)):
        if values is not None:
            parts.append(values.table.assign(table=name))
    if not parts:
        return pd.DataFrame(columns=[*COLUMNS, "table"])
    return pd.concat(parts, ignore_index=True)


def _verdict_map(verdicts: Sequence[Verdict]) -> dict[str, Verdict]:
    return {v.bound: v for v in verdicts}


def candidates_frame(p: Proposal) -> pd.DataFrame:
    """One row per table tried: its costs, what it leaves unbalanced, how far it is from the
    start, each bound's value and verdict, and whether it was chosen."""
    rows = []
    for c in p.tried:
        kinds, points = c.changed
        v = _verdict_map(c.verdicts)
        row: dict[str, Any] = {**c.costs}
        row |= {
            "unbalanced": ",".join(c.unbalanced),
            "kinds_changed": kinds,
            "points_changed": points,
        }
        for b in BOUNDS:
            got = v.get(b)
            row[b] = got.value if got is not None else "not measured"
            row[f"{b}_kept"] = None if got is None else got.kept
        row["chosen"] = c.costs == p.proposal
        rows.append(row)
    return pd.DataFrame(rows)


def _health_row(name: str, costs: dict[str, int], h: Health) -> dict[str, Any]:
    row: dict[str, Any] = {"table": name, **costs}
    m = h.measures
    if m is not None:
        lo, hi = m.turn_limit_interval
        seats = m.seat_table()
        top = max(seats, key=lambda r: r["share"] if math.isfinite(r["share"]) else -1)
        row |= {
            "games": m.games,
            "turn_limit": m.turn_limit_share,
            "turn_limit_low": lo,
            "turn_limit_high": hi,
            "draws": m.draws / m.games if m.games else math.nan,
            "median_turns": m.median_turns,
            "best_seat": top["seat"],
            "best_seat_share": top["share"],
            "best_seat_low": top["low"],
            "best_seat_high": top["high"],
            "seat_favoured": bool(m.favoured),
        }
    if h.ladder is not None:
        row["ladder"] = " > ".join(h.ladder.ranked)
    if h.meta is not None:
        best = h.meta.best_response()
        row |= {
            "meta_best": best["rate"],
            "meta_best_low": best["low"],
            "meta_best_high": best["high"],
            "meta_support": len(h.meta.equilibrium.support),
            "meta_kind_entropy": h.meta.kind_entropy,
        }
    return row


def health_frame(p: Proposal) -> pd.DataFrame:
    rows = [_health_row("start", p.start, p.start_health)]
    for i, c in enumerate(p.tried):
        if c.health.measures is not None:
            name = "proposal" if c.costs == p.proposal else f"candidate {i}"
            rows.append(_health_row(name, c.costs, c.health))
    return pd.DataFrame(rows)


# -- the report ------------------------------------------------------------------------------------


def _ratio(row: Any) -> str:
    if row is None:
        return "–"
    if not math.isfinite(float(row["ratio"])):
        return "not estimated"
    return f"{row['ratio']:.2f} [{row['ratio_low']:.2f}, {row['ratio_high']:.2f}]"


def _value(row: Any) -> str:
    if row is None:
        return "–"
    if not math.isfinite(float(row["value"])):
        return "not estimated"
    return f"{row['value']:.1f} [{row['value_low']:.1f}, {row['value_high']:.1f}]"


def _row(values: Values | None, agent: str, kind: str) -> Any:
    if values is None:
        return None
    t = values.of(agent)
    return t.loc[kind] if kind in t.index else None


def costs_table(p: Proposal) -> str:
    a = p.settings.agent
    proposal = p.proposal or {}
    rows = []
    for k, c in p.start.items():
        start_row, prop_row = _row(p.values_start, a, k), _row(p.values_proposal, a, k)
        row = {
            "kind": k,
            "start cost": c,
            "proposed": proposal.get(k, "–"),
            f"value at start ({a})": _value(start_row),
            "value/cost at start": _ratio(start_row),
            "value/cost at proposal": _ratio(prop_row),
            "verdict at proposal": "–" if prop_row is None else prop_row["verdict"],
        }
        if k in p.settings.fix:
            row["kind"] = f"{k} (fixed)"
        rows.append(row)
    return md_table(pd.DataFrame(rows))


def beside_table(p: Proposal) -> str:
    rows = []
    for agent in (p.settings.agent, *p.settings.beside):
        for k in p.start:
            rows.append(
                {
                    "agent": agent,
                    "kind": k,
                    "value/cost at start": _ratio(_row(p.values_start, agent, k)),
                    "verdict at start": _verdict(p.values_start, agent, k),
                    "value/cost at proposal": _ratio(_row(p.values_proposal, agent, k)),
                    "verdict at proposal": _verdict(p.values_proposal, agent, k),
                }
            )
    return md_table(pd.DataFrame(rows))


def _verdict(values: Values | None, agent: str, kind: str) -> str:
    row = _row(values, agent, kind)
    return "–" if row is None else str(row["verdict"])


def health_table(p: Proposal) -> str:
    start = {v.bound: v for v in judge(p.start_health, p.start_health, p.settings.bounds)}
    chosen = p.chosen
    now = _verdict_map(chosen.verdicts) if chosen is not None else {}
    rows = []
    for b in BOUNDS:
        v = now.get(b)
        rows.append(
            {
                "bound": b,
                "limit": (v or start[b]).limit,
                "start": start[b].value,
                "proposal": "–" if v is None else v.value,
                "kept": "–" if v is None else {True: "yes", False: "**no**", None: "–"}[v.kept],
            }
        )
    return md_table(pd.DataFrame(rows))


def tradeoff_table(p: Proposal) -> str:
    rows = []
    for c in p.tried:
        v = _verdict_map(c.verdicts)
        rows.append(
            {
                "table": c.describe(),
                "balance": "balanced" if not c.unbalanced else f"leaves {', '.join(c.unbalanced)}",
                **{
                    b: (
                        "–"
                        if b not in v
                        else f"{v[b].value}" + {True: "", False: " **broken**", None: ""}[v[b].kept]
                    )
                    for b in BOUNDS
                },
                "chosen": "yes" if c.costs == p.proposal else "",
            }
        )
    return md_table(pd.DataFrame(rows))


def report_text(p: Proposal) -> str:
    s = p.settings
    rules = p.rules
    lines = [
        f"# A cost table at `{s.agent}`: the proposal",
        "",
        f"Rules: board {'×'.join(map(str, rules.shape))}, {rules.players} players, budget "
        f"{rules.army_budget}, turn limit {rules.max_turns}; changed from the 1995 rules: "
        f"{overrides_markdown(rules, none='nothing')}. Study seed "
        f"{p.seed}; fixed kinds: {', '.join(s.fix) or 'none'}.",
        "",
        f"**Verdict: {p.verdict()}.** {stability_sentence(p)}",
        "",
    ]
    binding_bounds = p.binding_bounds()
    chosen = p.chosen
    if binding_bounds and chosen is not None:
        trade = (
            "the proposal is the nearest balanced table that keeps every bound"
            if not chosen.unbalanced
            else "no balanced table tried keeps them, so the proposal trades balance for "
            f"health: it leaves {', '.join(chosen.unbalanced)} unbalanced"
        )
        lines += [
            f"Balance and health pull apart: the {', '.join(binding_bounds)} bound"
            f"{'s' if len(binding_bounds) > 1 else ''} broke at balanced tables nearer the "
            f"start; {trade} (the trade-off table below).",
            "",
        ]
    elif p.proposal is None:
        broken = sorted({b for c in p.tried for b in binding(c.verdicts)})
        lines += [
            "No table tried keeps every bound, so nothing is proposed and no `proposed.toml` "
            f"is written: {', '.join(broken) or 'the bounds'} bind (the trade-off table "
            "below says which table broke which). Loosen the bound that binds, fix fewer "
            "kinds, or allow more candidates.",
            "",
        ]
    lines += [
        "## Proposed costs",
        "",
        f"Values are in budget points at `{s.agent}` (95 % intervals); a kind is balanced when "
        "its cost lies within its value's interval, or within half a point of its value (whole "
        "points get no closer).",
        "",
        costs_table(p),
        "",
    ]
    if p.proposal is not None:
        lines += [
            "The proposal is written as `proposed.toml`; every command takes it: "
            "`antipolix play --rules proposed.toml ...`, `antipolix simulate --rules "
            "proposed.toml ...`, and `antipolix balance compare start.toml proposed.toml --out "
            "DIR` plays both tables side by side.",
            "",
        ]
    lines += [
        "![value per cost point at the start and at the proposal](plots/values.png)",
        "",
        "## Game health",
        "",
        health_text(p),
        "",
        health_table(p),
        "",
        "## The tables tried (the trade-off)",
        "",
        "In order: the balanced tables nearest the start first (fewest kinds changed, then the "
        "smallest total change), then tables that leave a kind unbalanced. Each is measured "
        "cheapest bound first and dropped at the first broken bound; the first that keeps "
        "every bound is the proposal.",
        "",
        tradeoff_table(p),
        "",
    ]
    if p.start_health.meta is not None:
        lines += [
            meta_markdown(
                p.start_health.meta,
                "##",
                s.bounds.meta,
                f"The meta at the start costs: which armies `{s.agent}` buys to win",
            )
        ]
    if chosen is not None and chosen.costs != p.start and chosen.health.meta is not None:
        lines += [
            meta_markdown(
                chosen.health.meta,
                "##",
                s.bounds.meta,
                f"The meta at the proposal: which armies `{s.agent}` buys to win",
            )
        ]
    lines += [
        "![the meta at the start and at the proposal](plots/meta.png)",
        "",
        "## Reproducibility",
        "",
        f"The balance step re-derived on {len(p.paths)} independent seed sets (each its own "
        f"{s.value_games:,} games per values study): each kind's cost on each set, and the "
        "spread. A proposal is stable when every kind's spread is at most one point and "
        "every set's steps ended at a measured, balanced table.",
        "",
        md_table(p.stability()),
        "",
        *(f"- Seed set {b.seed_set} (seed {b.seed}): {_path_text(b)}" for b in p.paths),
        "",
        "## Values beside the strongest agent",
        "",
        beside_table(p),
        "",
        "## How this was made",
        "",
        method(p),
        "",
        time_text(p),
        "",
    ]
    return "\n".join(lines)


def _path_text(b: Any) -> str:
    steps = " → ".join(slug(st.costs) for st in b.steps)
    tail = "balanced" if b.verified else b.why
    return (
        f"{counted(len(b.steps), 'step')}, {counted(b.games, 'game')}: {steps}; ends at "
        f"{slug(b.end)} ({tail})"
    )


def stability_sentence(p: Proposal) -> str:
    table = p.stability()
    wide = table[~table["stable"]]
    if p.stable:
        return (
            f"Stable: the {len(p.paths)} seed sets agree within one point on every kind "
            f"(largest spread {int(table['spread'].max())})."
        )
    if len(wide):
        parts = ", ".join(f"{r.kind} (spread {r.spread})" for r in wide.itertuples())
        return f"Not stable: the {len(p.paths)} seed sets disagree by more than a point on {parts}."
    return (
        "Not stable: the seed sets agree within a point, but not every set's steps ended at a "
        "measured, balanced table (see Reproducibility)."
    )


def health_text(p: Proposal) -> str:
    b = p.settings.bounds
    return (
        f"Bounds: turn-limit draws among {p.rules.players} `{p.settings.agent}` agents no more "
        f"than at the start or {b.draws:.0%}, whichever is larger; the median game length "
        f"within {b.length:.0%} of the start's; no seat measurably favoured (each seat's share "
        f"of decided games, intervals at {1 - b.seat_level:.0%} shared among the seats); the "
        "ladder's order kept (no neighbours of the start's order measurably reversed in a short "
        f"re-run of {', '.join(p.settings.ladder_agents or ())}); the best army found against "
        f"the meta's mixture at most {b.meta:.0%}. Health games: {p.settings.health_games} per "
        "table, every seat the strongest agent with its own armies, think times drawn by the "
        "engine (R7)."
    )


def method(p: Proposal) -> str:
    s = p.settings
    from antipolix.balance import Design

    text = (
        f"Values: {s.value_games:,} games per agent and table, a values-by-skill study of each "
        f"agent (`antipolix.balance.values_by_skill`): {Design().describe()} Every agent on the "
        "same seeds; ratings from "
        + (f"`{s.ladder}`" if s.ladder else "the committed ladder at the table size")
        + ". Balance steps "
        "move each unbalanced kind that is not fixed to the nearest whole cost inside its "
        f"value's interval and measure again, at most {counted(s.iterations, 'step')} per seed "
        f"set. Candidates: at most {counted(s.candidates, 'table')} measured. "
    )
    meta = p.start_health.meta
    return text + (method_text(meta) if meta is not None else "")


def time_text(p: Proposal) -> str:
    parts = ", ".join(
        f"{k} {p.games.get(k, 0):,} games in {p.seconds.get(k, 0.0) / 60:.1f} min"
        for k in ("balance", "values", "health", "ladder", "meta")
        if k in p.seconds
    )
    total = sum(p.games.values())
    return (
        f"This run: {p.seconds.get('all', math.nan) / 60:.1f} min in all; {parts} ({total:,} "
        "games read or played: a study folder already holding games reads them)."
    )


def plot_values(p: Proposal, path: Path) -> None:
    """Value per cost point at the start and at the proposal for each kind, with intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    a = p.settings.agent
    kinds = list(p.start)
    for offset, (name, values, colour) in zip(
        (-0.15, 0.15),
        (("start", p.values_start, "#0072B2"), ("proposal", p.values_proposal, "#D55E00")),
        strict=True,
    ):
        if values is None:
            continue
        t = values.of(a)
        xs, ys, lo, hi = [], [], [], []
        for i, k in enumerate(kinds):
            if k in t.index and math.isfinite(float(t.loc[k, "ratio"])):
                xs.append(i + offset)
                ys.append(float(t.loc[k, "ratio"]))
                lo.append(ys[-1] - float(t.loc[k, "ratio_low"]))
                hi.append(float(t.loc[k, "ratio_high"]) - ys[-1])
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=4, color=colour, label=name)
    ax.axhline(1.0, color="0.5", lw=1, ls="--")
    ax.set_xticks(range(len(kinds)))
    ax.set_xticklabels(kinds)
    ax.set_ylabel(f"value per cost point at {a} (95 %)")
    ax.set_title("1 = fairly priced; above: underpriced, below: overpriced", fontsize=9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    else:
        ax.text(0.5, 0.5, "no values measured", ha="center", transform=ax.transAxes)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


__all__ = ["candidates_frame", "health_frame", "report_text", "values_frame", "write_proposal"]
