"""Self-play tuning of the planner's weights by CMA-ES, on Ray, resumable.

>>> from antipolix.tuning import Space
>>> Space.of(["win"]).scale({"win": 400.0}).tolist()
[1.0]

``tune(out, generations=..., population=..., games=..., seed=...)`` → :class:`TuningResult`
(``.weights``: the planner's weights by name, ``.table()``: the progress per generation), with a
study folder ``out`` (settings, a JSON-lines log of every generation, ``weights.json``,
``progress.csv``, ``progress.png``, ``report.md``) that a second call resumes or grows.
``check_weights(weights, games, seed)`` → :class:`Check`: the tuned agent with those weights
against the hand-set planner, win rate of decided games with a 95 % interval.

- :mod:`antipolix.tuning.space`: the weights tuned, scaled to [0, 1] by their search ranges.
- :mod:`antipolix.tuning.evaluate`: the fitness games (who plays whom, seeds, seats, scores),
  played in this process or on Ray.
- :mod:`antipolix.tuning.study`: CMA-ES, the study folder and its log, resuming by replay.
- :mod:`antipolix.tuning.report`: the outputs.
- :mod:`antipolix.tuning.search`: :func:`tune`, from the arguments to the outputs.
"""

from antipolix.tuning.evaluate import Check, Pool, check_weights, default_rules
from antipolix.tuning.report import weights_document, write_outputs
from antipolix.tuning.search import tune
from antipolix.tuning.space import Space, TuningError
from antipolix.tuning.study import TuningResult

__all__ = [
    "Check",
    "Pool",
    "Space",
    "TuningError",
    "TuningResult",
    "check_weights",
    "default_rules",
    "tune",
    "weights_document",
    "write_outputs",
]
