"""AntipoliX: the rules engine of the 1995 3D multiplayer strategy game, built for mass simulation.

>>> from antipolix import Rules, Game, PieceType, Trait, Move, Attack, Pass
>>> game = Game(Rules(shape=(4, 8, 8), players=2), seed=7)

The rules, sections R1–R12, are in ``docs/rules/antipolix.md`` (in the project's words; the
contract they follow is RULES.md of the shared folder; ``antipolix rules`` prints any rules'
tables); modules follow its concepts: ``world`` (R1),
``pieces`` (R2), ``armies`` (R3), ``orders`` (R4), ``reach`` (R5), ``observation`` (R6, R12),
``timers`` (R7), ``combat`` (R8), ``messages`` (R9), ``end`` (R10), ``scores`` (R11), and ``game``,
the turn loop that ties them together.
"""

from antipolix import blas as blas  # first, before numpy: OpenBLAS's kernels pinned (its doc)
from antipolix.armies import Zone, home_zones
from antipolix.combat import Outcome, outcome_distribution
from antipolix.end import EndReason, GameResult
from antipolix.errors import AntipolixError
from antipolix.game import Game, Phase, TurnReport
from antipolix.messages import Command, Delivered, Message
from antipolix.observation import Observation, PieceView
from antipolix.orders import Attack, Move, Order, Pass
from antipolix.pieces import Piece, PieceType, Trait, TraitCosts, TypeSpec, TypeTable
from antipolix.play import play
from antipolix.replay import Replay, load_replay
from antipolix.rules import Rules
from antipolix.runner import Results, simulate
from antipolix.version import __version__

__all__ = [
    "AntipolixError",
    "Attack",
    "Command",
    "Delivered",
    "EndReason",
    "Game",
    "GameResult",
    "Message",
    "Move",
    "Observation",
    "Order",
    "Outcome",
    "Pass",
    "Phase",
    "Piece",
    "PieceType",
    "PieceView",
    "Replay",
    "Results",
    "Rules",
    "Trait",
    "TraitCosts",
    "TurnReport",
    "TypeSpec",
    "TypeTable",
    "Zone",
    "__version__",
    "home_zones",
    "load_replay",
    "outcome_distribution",
    "play",
    "simulate",
]
