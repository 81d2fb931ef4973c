"""The meta package's studies from their arguments to their outputs: :func:`meta_search` (the
army search and its report, :mod:`antipolix.meta.search`, :mod:`antipolix.meta.report`) and
:func:`propose` (the proposal and its report, :mod:`antipolix.meta.propose`,
:mod:`antipolix.meta.proposal_report`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from antipolix.agents import Agent
from antipolix.meta.proposal_report import write_proposal
from antipolix.meta.propose import Proposal, ProposalSettings, make_proposal
from antipolix.meta.report import write_meta
from antipolix.meta.search import Meta, MetaSettings, Progress, run_search
from antipolix.rules import Rules


def meta_search(
    rules: Rules,
    agent: Agent | str = "tuned",
    *,
    settings: MetaSettings | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    workers: int | None = None,
    address: str | None = None,
    progress: bool | Progress = False,
    report: bool = True,
    bound: float = 0.56,
) -> Meta:
    """The meta of ``agent`` at ``rules`` (:func:`antipolix.meta.search.run_search`); with
    ``out`` and ``report``, ``armies.csv``, ``scores.csv``, ``rounds.csv``,
    ``generations.csv``, ``meta.png`` and ``report.md`` (which compares the best army against
    the mixture with ``bound``) are written there."""
    meta = run_search(
        rules,
        agent,
        settings=settings,
        seed=seed,
        out=out,
        workers=workers,
        address=address,
        progress=progress,
    )
    if report and meta.out is not None:
        write_meta(meta, meta.out, bound)
    return meta


def propose(
    rules: Rules,
    settings: ProposalSettings | None = None,
    *,
    seed: int = 0,
    out: str | Path,
    workers: int | None = None,
    say: Callable[[str], None] | None = None,
    progress: bool = False,
    report: bool = True,
) -> Proposal:
    """Propose a cost table (:mod:`antipolix.meta.propose`) into the folder ``out``; with
    ``report``, ``proposed.toml`` (when there is a proposal), ``report.md``, the CSVs and the
    plots are written there."""
    folder = Path(out)
    return make_proposal(
        rules,
        settings,
        seed=seed,
        out=folder,
        workers=workers,
        say=say,
        progress=progress,
        finish=(lambda p: write_proposal(p, folder)) if report else None,
    )


__all__ = ["meta_search", "propose"]
