"""A tuning study's outputs: ``weights.json``, ``progress.csv``, ``progress.png`` and a one-page
``report.md``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.agents.planner import DEFAULT_WEIGHTS, WEIGHT_NAMES, WEIGHTS
from antipolix.codec import overrides_markdown, rules_from_dict
from antipolix.files import write_atomically
from antipolix.stats import wilson_interval
from antipolix.tuning.evaluate import Check
from antipolix.tuning.space import TuningError
from antipolix.tuning.study import LOG_FILE, STUDY_FILE, TuningResult


def weights_document(result: TuningResult, study: str | None = None) -> dict[str, Any]:
    """``weights.json``: the result's full weight vector by name, what it is, and its study
    (``study``: how to name it, by default the study folder's name); the shape of
    ``antipolix/agents/tuned.json``."""
    n = len(result.log)
    return {
        "about": (
            "Planner weights found by a self-play tuning study (antipolix.tuning, CMA-ES): the "
            f"tuned ones ({', '.join(result.space.names)}) at CMA-ES's distribution mean after "
            f"generation {n - 1}, the others at the start values."
        ),
        "study": result.out.name if study is None else study,
        "generations": n,
        "tuned": list(result.space.names),
        "weights": result.weights,
    }


def write_outputs(
    result: TuningResult, check: Check | None = None, start: Check | None = None
) -> None:
    """Write the four outputs into the study folder (``check``: a head-to-head check of the
    result against the planner, and ``start``: of the start weights on the same seeds,
    reported when given)."""
    out = result.out
    text = json.dumps(weights_document(result), indent=1) + "\n"
    try:
        write_atomically(out / "weights.json", text.encode())
        table = result.table()
        write_atomically(out / "progress.csv", table.to_csv(index=False).encode())
        plot_progress(result, out / "progress.png")
        write_atomically(out / "report.md", report_text(result, check, start).encode())
    except OSError as exc:
        raise TuningError(f"cannot write the outputs to {out}: {exc}") from None


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_progress(result: TuningResult, path: Path) -> None:
    """Score per generation (the mean against the planner, with a 95 % band; the candidates'
    best and median against all opponents) above the step size."""
    plt = _plt()
    from matplotlib.ticker import MaxNLocator

    table = result.table()
    fig, (ax, bx) = plt.subplots(
        2, 1, figsize=(7, 6), dpi=120, sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    g = table["generation"]
    if len(table):
        points = table["mean_vs_planner"] * table["mean_planner_games"]
        lo, hi = wilson_interval(points, table["mean_planner_games"])
        ax.fill_between(g, lo, hi, color="#0072B2", alpha=0.15, lw=0, label="95 % interval")
    ax.plot(g, table["mean_vs_planner"], "-o", ms=3, color="#0072B2", label="mean vs planner")
    ax.plot(g, table["best_score"], "-", color="#E69F00", lw=1, label="best candidate (all)")
    ax.plot(g, table["median_score"], "--", color="#009E73", lw=1, label="median candidate (all)")
    ax.axhline(0.5, color="0.6", lw=1, ls=":")
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel(f"score (wins + draws × {result.draw:g})")
    ax.set_title("Planner weights by CMA-ES: score per generation")
    ax.legend(fontsize=8, loc="lower right")
    bx.plot(g, table["sigma"], "-", color="#CC79A7")
    bx.set_ylabel("step size σ")
    bx.set_xlabel("generation")
    bx.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _players(settings: dict[str, Any]) -> int:
    return int(settings["rules"].get("players", 2))


def _mirror(settings: dict[str, Any]) -> str:
    return " (every third group of games the entry alone)" if settings["mirror"] else ""


def report_text(
    result: TuningResult, check: Check | None = None, start: Check | None = None
) -> str:
    """The report: settings, the weights found, the progress, the check, how to read it."""
    s = result.settings
    space = result.space
    table = result.table()
    n = len(result.log)
    per_gen = (s["population"] + 1) * s["games"]
    planner_games = int(table["mean_planner_games"].iloc[-1]) if n else s["games"]
    shape = "×".join(str(v) for v in s["rules"].get("shape", []))
    lines = [
        "# Tuning the planner's weights (CMA-ES, self-play)",
        "",
        f"{n} generations of {s['population']} candidates (and the generation's mean), "
        f"{s['games']} {_players(s)}-player games each per generation ({per_gen} games a "
        "generation, "
        f"{per_gen * n} in all), seed {s['seed']}, σ0 = {s['sigma0']}, hall of fame of "
        f"{s['hall_of_fame']} means{_mirror(s)}, "
        f"a draw scoring {result.draw:g}; rules: board {shape}, "
        "think times "
        f"{s['rules'].get('think_times')}, options changed from the 1995 rules: "
        f"{overrides_markdown(rules_from_dict(s['rules']))}; engine {s['engine']}, cma {s['cma']}. "
        f"Tuned: {', '.join(space.names)}.",
        "",
        "## The weights found",
        "",
        "CMA-ES's distribution mean after the last generation (its estimate of the best "
        "weights; a single candidate's high score in a generation is mostly luck, so the "
        "best-scoring candidate is not chosen). Written to `weights.json`.",
        "",
        "| weight | hand-set planner | start | tuned | search range |",
        "|---|---|---|---|---|",
    ]
    hand = dict(zip(WEIGHT_NAMES, DEFAULT_WEIGHTS, strict=True))
    ranges = {w.name: (w.low, w.high) for w in WEIGHTS}
    for name in space.names:
        lo, hi = ranges[name]
        lines.append(
            f"| {name} | {hand[name]:.4g} | {s['start'][name]:.4g} | "
            f"**{result.tuned[name]:.4g}** | {lo:g}–{hi:g} |"
        )
    lines += ["", "## Progress", "", "![score per generation](progress.png)", ""]
    if len(table):
        last = table.iloc[-1]
        lines += [
            f"The mean of generation {int(last['generation'])} scored "
            f"{last['mean_vs_planner']:.1%} against the hand-set planner "
            f"({int(last['mean_planner_games'])} games) and {last['mean_score']:.1%} against "
            f"all its opponents; σ went from {s['sigma0']} to {result.sigma:.3g}.",
            "",
        ]
        lines += _progress_rows(table)
    if check is not None:
        lo, hi = check.interval
        verdict = "meets" if lo >= 0.65 else "does not show"
        lines += [
            "",
            "## Check against the hand-set planner",
            "",
            f"The tuned weights (as the tuned agent) played {check.line()}, on seeds no "
            f"tuning game used (root seed {check.seed}). Target: ≥ 65 % of decided games; the "
            f"interval {verdict} it"
            + (" (its lower end is at least 65 %)." if lo >= 0.65 else f" (lower end {lo:.1%})."),
        ]
        if start is not None:
            lines += ["", f"The start weights, on the same seeds: {start.line()}."]
    lines += [
        "",
        "## How to read this",
        "",
        "- Every candidate of a generation plays the same games: the same seeds, opponents and "
        "seats (common random numbers), so scores within a generation compare play, not luck. "
        "Half the games are against the hand-set planner, half against the hall of fame (the "
        "means of the last generations), each seed from every seat; the opponent of a game takes "
        "every seat but the entry's. At more than two players an entry meets every other seat: "
        "a meeting is won when it finished ahead (R10, R11), and the score counts meetings.",
        "- Scores against all opponents are not comparable across generations (the hall of fame "
        "grows stronger); the mean's score against the planner is. With "
        f"{planner_games} games against the planner per generation, its standard error is "
        f"up to {0.5 / np.sqrt(planner_games):.0%}: single generations are noisy.",
        f"- The study folder holds `{STUDY_FILE}` (the settings) and `{LOG_FILE}` (every "
        "candidate and score); running the same command again resumes or grows it.",
        "",
    ]
    return "\n".join(lines)


def _progress_rows(table: Any, rows: int = 25) -> list[str]:
    """The progress table, at most ``rows`` generations (evenly spaced, the last included)."""
    n = len(table)
    pick = sorted(set(np.linspace(0, n - 1, min(rows, n)).round().astype(int).tolist()))
    out = [
        "| generation | σ | mean vs planner | mean vs all | best candidate | median candidate |",
        "|---|---|---|---|---|---|",
    ]
    for i in pick:
        r = table.iloc[i]
        out.append(
            f"| {int(r['generation'])} | {r['sigma']:.3f} | {r['mean_vs_planner']:.1%} | "
            f"{r['mean_score']:.1%} | {r['best_score']:.1%} | {r['median_score']:.1%} |"
        )
    return out


__all__ = ["plot_progress", "report_text", "weights_document", "write_outputs"]
