"""The meta, health and proposal in words, tables and pictures a designer reads without code."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from antipolix.files import write_atomically
from antipolix.meta.armies import KINDS, MetaError
from antipolix.meta.search import DOMINANT, LOG_FILE, STUDY_FILE, Meta

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped, unused-ignore]

COLOURS = {
    "army": "#0072B2",
    "hovercraft": "#E69F00",
    "fortress": "#009E73",
    "invisible": "#CC79A7",
    "teleporter": "#D55E00",
}


def pct(x: float) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x:.1%}"


def md_table(frame: pd.DataFrame) -> str:
    return str(frame.to_markdown(index=False))


def meta_verdict(meta: Meta, bound: float) -> str:
    """One sentence: how the best army found fares against the meta's mixture, against
    ``bound``, and whether the check games can tell."""
    best = meta.best_response()
    rate, low, high = best["rate"], best["low"], best["high"]
    tell = ""
    if low <= 0.5 and high >= bound:
        tell = (
            f" The check's interval holds both 50 % and the bound of {bound:.0%}: these "
            f"{best['games']} games cannot tell a balanced meta from one a bound apart; play "
            "more check games to decide."
        )
    side = "within" if rate <= bound else "above"
    found = (
        f"The best army found against the meta's mixture ({best['label']}, searched in the "
        f"last round) finished ahead in {pct(rate)} of its meetings with it (95 % over games "
        f"{pct(low)}–{pct(high)}, {best['games']} fresh games): {side} the bound of "
        f"{bound:.0%}."
    )
    if rate < 0.5:
        found += (
            " The search found no army that beats the mixture (the meta's own armies score "
            "50 % against it)."
        )
    return found + tell


def counted(n: int, noun: str) -> str:
    """A count with its noun, singular for one: ``counted(1, "round")`` is ``1 round``,
    ``counted(1200, "game")`` is ``1,200 games``."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def meta_markdown(
    meta: Meta, heading: str = "##", bound: float = 0.56, title: str | None = None
) -> str:
    """The meta of one cost table in Markdown: the equilibrium's support with each army's
    weight and composition, the diversity, the flags in words, the best army against the
    mixture and the rounds of the search."""
    eq = meta.equilibrium
    shares = meta.mixture_shares()
    lines = [
        f"{heading} {title or f'The meta: which armies `{meta.agent}` buys to win'}",
        "",
        f"{len(meta.members)} armies in the empirical game ({counted(len(meta.rounds), 'round')} "
        f"of army search, {counted(meta.games, 'game')}); its maximum-entropy Nash equilibrium "
        f"plays **{len(eq.support)}** of them (effective number of armies "
        f"{2**eq.entropy:.2f}). The meta spends its points "
        + ", ".join(f"{k} {shares[k]:.0%}" for k in KINDS)
        + f" (entropy of the kinds' shares {meta.kind_entropy:.2f} bits of at most "
        f"{math.log2(len(KINDS)):.2f}).",
        "",
        how_sure(meta),
        "",
        meta_verdict(meta, bound),
        "",
    ]
    flags = meta.flags()
    if flags:
        lines += ["Flags:", "", *(f"- {f}." for f in flags), ""]
    else:
        lines += [
            f"No kind dominates the meta (none takes {DOMINANT:.0%} of the points of every army "
            "of its support) and every kind is bought by some army of it.",
            "",
        ]
    table = meta.armies_table()
    support = table[table["in_support"]].sort_values("weight", ascending=False)
    rows = support[
        ["label", "weight", "against_mixture", *(f"share_{k}" for k in KINDS), "pieces"]
    ].copy()
    rows["weight"] = rows["weight"].map(pct)
    rows["against_mixture"] = rows["against_mixture"].map(pct)
    for k in KINDS:
        rows[f"share_{k}"] = rows[f"share_{k}"].map(lambda v: f"{v:.0%}")
    rows.columns = ["army", "weight", "vs mixture", *KINDS, "pieces"]
    lines += [
        "The support (each army's weight, its score against the mixture, its points' share by "
        "kind, its pieces):",
        "",
        md_table(rows),
        "",
        "Rounds of the search (each round's response, searched against the equilibrium of "
        "the armies before it, and its check on fresh games):",
        "",
    ]
    rounds = meta.rounds_table()
    shown = rounds.assign(
        rate=rounds["rate"].map(pct),
        interval=[f"{pct(a)}–{pct(b)}" for a, b in zip(rounds["low"], rounds["high"], strict=True)],
    )[["round", "label", "new", "rate", "interval", "games", "field"]]
    lines += [md_table(shown), ""]
    return "\n".join(lines)


def armies_text(meta: Meta) -> str:
    """The armies of the empirical game as plain text, one a line: label, weight in the meta
    (a percentage: the solver leaves weights of about 1e-7 on armies it does not play, shown
    as 0.0%), whether it is in the support, its pieces."""
    table = meta.armies_table()
    rows = [("army", "weight", "in support", "pieces")]
    for label, weight, support, pieces in zip(
        table["label"], table["weight"], table["in_support"], table["pieces"], strict=True
    ):
        rows.append((label, pct(weight), "yes" if support else "no", pieces))
    wide = [max(len(r[c]) for r in rows) for c in range(3)]
    return "\n".join(
        f"{r[0]:<{wide[0]}}  {r[1]:>{wide[1]}}  {r[2]:<{wide[2]}}  {r[3]}".rstrip() for r in rows
    )


def how_sure(meta: Meta) -> str:
    """In words, how sure the equilibrium is (:meth:`Meta.resampled`): each army's share of
    the resampled equilibria that play it, and the effective number of armies' spread."""
    games = counted(meta.settings.pair_games, "game")
    sure = meta.resampled()
    if sure is None:
        return (
            f"How sure: each pair of armies met in {games}; this study's log keeps each pair's "
            "total only (a log written before the records per seed were kept), so how much of "
            "the equilibrium those games decide cannot be said here."
        )
    low, mid, high = sure.effective
    played = ", ".join(
        f"{m.label} {share:.0%}" for m, share in zip(meta.members, sure.played, strict=True)
    )
    return (
        f"How sure: each pair of armies met in {games}. Over {sure.resamples} resampled "
        "empirical games (each pair's seeds drawn again), the equilibrium plays "
        f"{played}; effective number of armies {mid:.2f} (95 %: {low:.2f}–{high:.2f}). An army "
        "played in few of them is in the support by the noise of its pair games: more "
        "`--pair-games` tell such armies apart."
    )


def method_text(meta: Meta) -> str:
    s = meta.settings
    players = meta.rules.players
    return (
        f"Army search (PSRO with CMA-ES as its oracle): {counted(s.rounds, 'round')} of "
        f"{counted(s.generations, 'generation')}; each candidate plays "
        f"{counted(s.games, 'game')} (the candidate in one seat, rotated; an army of the field "
        f"in the {players - 1} others), each round's response {s.check_games} fresh games "
        f"against the field, each pair of armies {counted(s.pair_games, 'game')} with half the "
        "seats each, in every seating. Scores are finishing places "
        "broken into meetings (a seat meets every other seat of its game: ahead, level or "
        "behind; level counts one half). The meta is the empirical game's maximum-entropy "
        "Nash equilibrium (Balduzzi et al. 2018). Every seat is the same agent; think times "
        "are drawn by the engine (R7)."
    )


def plot_meta(metas: Sequence[tuple[str, Meta]], path: Path) -> None:
    """Per cost table, the support armies as stacked bars of their points' shares by kind,
    each labelled with its weight in the meta."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(
        1, len(metas), figsize=(4.5 * len(metas), 4), dpi=120, squeeze=False, sharey=True
    )
    for ax, (title, meta) in zip(axes[0], metas, strict=True):
        support = list(meta.equilibrium.support)
        bottom = [0.0] * len(support)
        xs = list(range(len(support)))
        for k in KINDS:
            heights = [meta.compositions[i]["shares"][k] for i in support]
            ax.bar(xs, heights, bottom=bottom, color=COLOURS[k], label=k)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
        ax.set_xticks(xs)
        ax.set_xticklabels(
            [f"{meta.members[i].label}\n{meta.equilibrium.mixture[i]:.0%}" for i in support],
            fontsize=7,
        )
        ax.set_title(title, fontsize=9)
        ax.set_ylim(0, 1)
    axes[0][0].set_ylabel("share of the army's points")
    axes[0][-1].legend(fontsize=7, loc="upper right")
    fig.suptitle("The meta: armies of the equilibrium (weight under each)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write_meta(meta: Meta, out: Path, bound: float = 0.56) -> None:
    """The search's outputs in its folder: ``armies.csv``, ``scores.csv``, ``rounds.csv``,
    ``generations.csv``, ``meta.png`` and ``report.md``."""
    try:
        write_atomically(out / "armies.csv", meta.armies_table().to_csv(index=False).encode())
        write_atomically(out / "scores.csv", meta.scores_table().to_csv().encode())
        write_atomically(out / "rounds.csv", meta.rounds_table().to_csv(index=False).encode())
        write_atomically(
            out / "generations.csv", meta.generations_table().to_csv(index=False).encode()
        )
        plot_meta([(f"{meta.agent}", meta)], out / "meta.png")
        text = "\n".join(
            [
                f"# The meta of `{meta.agent}`",
                "",
                description(meta),
                "",
                meta_markdown(meta, "##", bound),
                "![the meta's armies](meta.png)",
                "",
                "## Method",
                "",
                method_text(meta),
                "",
                f"The folder holds `{STUDY_FILE}` (the settings) and `{LOG_FILE}` (every "
                "candidate, score, response and pair); running the same command again resumes "
                "it, and more rounds grow it.",
                "",
            ]
        )
        write_atomically(out / "report.md", text.encode())
    except OSError as exc:
        raise MetaError(f"cannot write the outputs to {out}: {exc}") from None


def description(meta: Meta) -> str:
    r = meta.rules
    from antipolix.codec import overrides_markdown

    return (
        f"Rules: board {'×'.join(map(str, r.shape))}, {r.players} players, budget "
        f"{r.army_budget}, turn limit {r.max_turns}; options changed from the 1995 rules: "
        f"{overrides_markdown(r)}. Agent `{meta.agent}` "
        f"in every seat, seed {meta.seed}; {meta.games:,} games ({meta.played:,} played by "
        "this run)."
    )


__all__ = ["description", "md_table", "meta_markdown", "method_text", "plot_meta", "write_meta"]
