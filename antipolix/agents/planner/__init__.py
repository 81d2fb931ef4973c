"""A one-ply planner: every candidate order scored by its expected outcome (R4, R5, R6, R8).

:class:`PlannerAgent` looks one ply ahead. Each turn it lists its candidate orders: every attack
it can win (all own pieces that reach the target, R5), every move of every own mobile piece to a
free cell it reaches, and ``Pass``. It scores each by the change it makes to a position value,
taken in expectation over the R8 outcomes of a successful attack (destroy, teleport, convert):

- **material**: the expected swing of an attack, in piece costs (R2). A conversion counts twice
  (the enemy loses the piece and the planner gains it); a teleported piece counts as mostly lost
  to its owner. An enemy piece that may be the chief adds the value of eliminating its owner,
  weighted by the probability that it is the chief (R6 hides the trait: enemy pieces never seen
  to move are the suspects);
- **exposure**: for every own attackable piece, whether the visible enemy pieces of one owner
  that reach its cell outpower its defence (R8: its strength and its neighbours'), for sure, or
  after one more enemy move (R4) or an invisible attacker seen nearby (R6); the enemy's best
  attack counts in full, the others in part (one order a turn). Invisible own pieces cannot be
  attacked (R6) and count for defence. The chief's exposure costs the game;
- **chief guard**: enemy power that could reach the chief within a move, against the chief's
  defence, and the chief's distance from the enemy;
- **threats**: the attacks the planner could win next turn (forks count), and, late in a game,
  **pressure**: own power on enemy pieces near the front short of beating them;
- **hunt**: how well own pieces cover the cells the likeliest chief suspects may flee to (a
  lone chief is caught by covering its escapes, not by chasing it);
- **advance** and **cohesion**: distance of each piece from the nearest enemy, and the strength
  of own pieces around the moved piece (defence counts adjacent own pieces, R8).

The decision is one compiled kernel (:func:`planner_act`, numba): grids of defence, own reach
and each enemy owner's reach are built once per turn (cube sums, R1), and a move only changes
the pieces around its start and end cells. A player-turn (its decision and its resolution)
takes about 40 µs on the default rules, 30 times less than the numpy planner it replaced
(``experiments/bench_games.py --agents planner``).

It decides from its own observation only (R6): enemy traits are hidden and enemy invisible
pieces are absent. It remembers, per game, which enemy pieces it has seen move (chief
suspects), the defence its failed attacks revealed (invisible defenders, R6), and the cells near
which invisible enemy pieces attacked it. It offers a draw (R9 NUL) when nothing has been taken
for a long time or it can no longer win a fight. All randomness (ties, think time) comes from
``self.rng`` (R12).

The package follows the decision, one module a step: :mod:`.weights` (the position value's
weights and their indices), :mod:`.reading` (the turn's start and its reading of the sight),
the terms (:mod:`.exposure`, :mod:`.guard`, :mod:`.threats`, :mod:`.hunting`,
:mod:`.tactics`), :mod:`.decision` (the candidates, their scores and the decision) and
:mod:`.agent` (the agent class); :mod:`.sums` and :mod:`.board` hold the arithmetic they
share (sums in numpy's order, board grids). The kernels the search agent builds on are public
here: :func:`opening`, :func:`read_turn` (and :func:`reweighed`), :func:`best_attack`,
:func:`best_move` (both: :func:`chosen`), :func:`hopeless`, :func:`draw_offer`,
:func:`planner_act`.

>>> from antipolix import Rules, play
>>> from antipolix.agents import GreedyAgent
>>> result = play(Rules(shape=(4, 8, 8), players=2), [PlannerAgent(), GreedyAgent()], seed=3)
>>> result.turns > 0
True
"""

from __future__ import annotations

from antipolix.agents.planner.agent import PlannerAgent
from antipolix.agents.planner.board import cube_sums_at, distances
from antipolix.agents.planner.decision import (
    best_attack,
    best_move,
    chosen,
    draw_offer,
    hopeless,
    move_scores,
    planner_act,
)
from antipolix.agents.planner.reading import Turn, opening, read_turn, reweighed
from antipolix.agents.planner.sums import pairwise_sum
from antipolix.agents.planner.weights import (
    CHIEF_FAR,
    CHIEF_UNSEEN,
    DEFAULT_WEIGHTS,
    FRONT,
    GUARD_MARGIN,
    GUARD_MIN,
    GUARD_SHARE,
    HIDDEN_PROBE,
    HUNT_K,
    HUNT_MIN,
    I_ADVANCE,
    I_CHIEF_FAR,
    I_COHESION,
    I_CRUSH,
    I_FORTRESS,
    I_GUARD,
    I_GUARD_SHARE,
    I_HIDDEN_PROBE,
    I_HUNT,
    I_HUNT_MIN,
    I_MOVED_SUSPECT,
    I_NETWORK,
    I_P_NEAR,
    I_PRESS,
    I_PRESS_FROM,
    I_SPREAD,
    I_TELEPORTED,
    I_THREAT,
    I_WIN,
    MEMORY,
    MOVED_SUSPECT,
    NUL_AFTER,
    P_NEAR,
    PRESS_FROM,
    SPREAD,
    TELEPORTED,
    W_ADVANCE,
    W_CHIEF_FAR,
    W_COHESION,
    W_GUARD,
    W_HUNT,
    W_PRESS,
    W_THREAT,
    WEIGHT_NAMES,
    WEIGHTS,
    WIN,
    BoolArray,
    FloatArray,
    Weight,
    weight_vector,
)

__all__ = [
    "CHIEF_FAR", "CHIEF_UNSEEN", "DEFAULT_WEIGHTS", "FRONT", "GUARD_MARGIN", "GUARD_MIN",
    "GUARD_SHARE", "HIDDEN_PROBE", "HUNT_K", "HUNT_MIN", "I_ADVANCE", "I_CHIEF_FAR",
    "I_COHESION", "I_CRUSH", "I_FORTRESS", "I_GUARD", "I_GUARD_SHARE", "I_HIDDEN_PROBE",
    "I_HUNT", "I_HUNT_MIN", "I_MOVED_SUSPECT", "I_NETWORK", "I_PRESS", "I_PRESS_FROM",
    "I_P_NEAR", "I_SPREAD", "I_TELEPORTED", "I_THREAT", "I_WIN", "MEMORY", "MOVED_SUSPECT",
    "NUL_AFTER", "PRESS_FROM", "P_NEAR", "SPREAD", "TELEPORTED", "WEIGHTS", "WEIGHT_NAMES",
    "WIN", "W_ADVANCE", "W_CHIEF_FAR", "W_COHESION", "W_GUARD", "W_HUNT", "W_PRESS",
    "W_THREAT", "BoolArray", "FloatArray", "PlannerAgent", "Turn", "Weight", "best_attack",
    "best_move", "chosen", "cube_sums_at", "distances", "draw_offer", "hopeless", "move_scores",
    "opening", "pairwise_sum", "planner_act", "read_turn", "reweighed", "weight_vector",
]  # fmt: skip
