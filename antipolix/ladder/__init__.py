"""A rating ladder: tournaments between agents, and Bradley–Terry ratings on the Elo scale.

``tournament(agents, games, players=2, ...)`` plays ``games`` games for every lineup (every
combination of ``players`` distinct agents), seats rotated, think times drawn by the engine
(R7), through :func:`antipolix.simulate` (resumable, in this process or on Ray), and returns a
:class:`Ladder`: ``.ratings`` (rating, 95 % bootstrap interval, games, wins, draws per agent),
``.scores`` (the win-rate matrix), ``.usage`` (pieces bought, events), ``.games``.
``fit_ratings(results_frame)`` rates the agents of any results table.

>>> from antipolix import Rules
>>> ladder = tournament(["random", "greedy", "planner"], games=4,
...                     rules=Rules(shape=(2, 6, 6), max_turns=100), workers=0, bootstrap=50)
>>> ladder.ratings.columns.tolist()[:5], len(ladder.games)
(['rank', 'agent', 'rating', 'low', 'high'], 12)
>>> float(ladder.ratings.set_index("agent").at["random", "rating"])
0.0

The parts: ``schedule`` (lineups, rotations, the sittings' seeds and folders), ``folder`` (the
tournament folder and its manifest), ``ratings`` (finishing places, the fit, the bootstrap),
``report`` (tables, ``ratings.md``, the picture) and ``run`` (:func:`tournament`,
:class:`Ladder`).
"""

from antipolix.ladder.ratings import (
    BOOTSTRAP,
    ELO,
    PRIOR_SD,
    LadderError,
    RatingFit,
    finishing_places,
    fit,
    fit_ratings,
)
from antipolix.ladder.run import Ladder, tournament
from antipolix.ladder.schedule import Sitting, lineups, schedule

__all__ = [
    "BOOTSTRAP",
    "ELO",
    "PRIOR_SD",
    "Ladder",
    "LadderError",
    "RatingFit",
    "Sitting",
    "finishing_places",
    "fit",
    "fit_ratings",
    "lineups",
    "schedule",
    "tournament",
]
