"""Batched Monte Carlo: many seeded games, in this process or on Ray, streamed to a study folder.

>>> from antipolix import Rules, simulate
>>> rules = Rules(shape=(4, 8, 8), players=2, max_turns=60)
>>> results = simulate(rules, ["greedy", "random"], games=6, seed=1, workers=0)
>>> results.to_pandas()[["game", "winner", "reason", "turns"]].shape
(6, 4)

The parts, each a module: ``seeds`` (R12: the seed of every game, who sits where), ``variants``
(rules variants and grids), ``study`` (what a study is: its description and payload), ``rows``
(one row per game: the columns and their Arrow schema), ``store`` (the study folder: chunk
files, resume, growth), ``sizing`` (games per chunk), ``games`` (playing a chunk), ``on_ray``
(the Ray backend), ``progress`` (the bar), ``run`` (:func:`simulate` itself, and
:func:`simulate_studies`: several studies in one pool) and ``results``
(reading a study back: :class:`Results`).
"""

from antipolix.runner.results import Results, RunInfo
from antipolix.runner.run import StudyJob, check_out, simulate, simulate_studies
from antipolix.runner.seeds import game_seed, seat_order
from antipolix.runner.variants import rules_grid

__all__ = [
    "Results",
    "RunInfo",
    "StudyJob",
    "check_out",
    "game_seed",
    "rules_grid",
    "seat_order",
    "simulate",
    "simulate_studies",
]
