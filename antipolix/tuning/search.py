""":func:`tune`: a tuning study from its arguments to its outputs (the study and its folder in
:mod:`antipolix.tuning.study`, the outputs in :mod:`antipolix.tuning.report`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from antipolix.rules import Rules
from antipolix.tuning.evaluate import Pool, check_workers
from antipolix.tuning.report import write_outputs
from antipolix.tuning.study import Progress, Study, TuningResult


def tune(
    out: str | Path,
    *,
    generations: int = 40,
    population: int | None = None,
    games: int = 48,
    seed: int = 0,
    weights: Sequence[str] | str | None = None,
    sigma0: float = 0.2,
    hall_of_fame: int = 3,
    draw: float = 0.5,
    mirror: bool = False,
    rules: Rules | None = None,
    workers: int | None = None,
    address: str | None = None,
    progress: bool | Progress = False,
    report: bool = True,
) -> TuningResult:
    """Tune the planner's weights by CMA-ES and self-play; the study folder is ``out``.

    - ``generations``: CMA-ES generations in all (a study run again with more grows).
    - ``population``: candidates per generation (default: cma's, ``4 + 3 ln n`` for ``n``
      weights: 12 for all 19).
    - ``games``: games per candidate per generation, an even number (both seats of every seed).
    - ``weights``: the names of the weights to tune (default: all of them); the others keep the
      committed tuned values (:func:`~antipolix.agents.tuned.tuned_weights`), where the search
      also starts.
    - ``sigma0``: CMA-ES's initial step size, in [0, 1] units of each weight's range.
    - ``hall_of_fame``: how many of the last generations' means are opponents, besides the
      hand-set planner (see :mod:`antipolix.tuning.evaluate`).
    - ``draw``: what a level meeting (a draw) scores, from 0 to 1/2 (a win scores 1); below 1/2
      a game without a winner costs the entry.
    - ``mirror``: every third group of games is a table of the entry alone (its copies in every
      seat), so that, with ``draw`` below 1/2, weights whose tables end in draws score less.
    - ``rules``: the fitness games' rules, two players (default: the default board,
      ``think_times="drawn"``).
    - ``workers``/``address``: Ray, as for :func:`~antipolix.runner.simulate`; ``workers`` 0 or
      1 plays in this process. The log is the same whatever the workers.
    - ``progress``: True for a progress bar, or a function called with (games done, total).
    - ``report``: write ``weights.json``, ``progress.csv``, ``progress.png`` and ``report.md``.

    Bad arguments, and a folder holding anything else, raise :class:`TuningError` before any
    game is played or any file is written.
    """
    began = time.perf_counter()
    study = Study.make(
        Path(out),
        generations,
        population,
        games,
        seed,
        weights,
        sigma0,
        hall_of_fame,
        rules,
        draw,
        mirror,
    )
    check_workers(workers, address)
    study.check_folder()
    cma_es = study.replay()  # a log that does not replay is refused before anything is written
    bar = None
    if progress is True:
        from antipolix.runner.progress import Bar

        bar = Bar()
    report_to: Progress | None = (
        bar if bar is not None else progress if callable(progress) else None
    )
    note = None if bar is None else bar.note
    try:
        with Pool(workers, address, note) as pool:
            if len(study.log) < study.settings["generations"]:
                pool.start(study.rules)  # Ray up (or refused) before anything is written
            with study.opened():
                if study.reread():  # another run added generations before this one locked
                    cma_es = study.replay()
                played = study.run(cma_es, pool, report_to, bar)
                result = study.result(cma_es, played, time.perf_counter() - began)
                if report:
                    write_outputs(result)
    finally:
        if bar is not None:
            bar.close()
    return result


__all__ = ["tune"]
