"""Errors for bad input. All are ``ValueError`` subclasses, raised before any state changes.

An order that was valid when given but is invalid when its turn comes is *not* an error: it is a
rejected event in the turn report (R4).
"""

from __future__ import annotations


class AntipolixError(ValueError):
    """Base class of every error the engine raises for bad input."""


def shown(text: str, most: int = 60) -> str:
    """``repr(text)`` for an error message, cut to its first ``most`` characters and its length
    when longer: a refusal quotes what it refuses without echoing a page of it."""
    if len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}... ({len(text):,} characters)"


class RulesError(AntipolixError):
    """An invalid rules configuration (R1–R12 options)."""


class PhaseError(AntipolixError):
    """A call that does not fit the game's phase (placement, play, over)."""


class OffBoardError(AntipolixError):
    """A cell outside the ``P × N × N`` universe (R1), or not a cell at all."""


class UnknownPieceError(AntipolixError):
    """A piece id that names no piece of the game (or a piece already destroyed)."""


class PlacementError(AntipolixError):
    """A placement the rules refuse (R3)."""


class OccupiedCellError(PlacementError):
    """Placement on a cell that already holds a piece (R1: one piece per cell)."""


class OutsideZoneError(PlacementError):
    """Placement outside the player's home zone while zones are on (R3)."""


class ZoneFullError(PlacementError):
    """No free cell is left where a random placement was asked (R3)."""


class ArmyError(PlacementError):
    """An army the rules refuse (R3); the message names the player and the reason."""


class OverBudgetError(ArmyError):
    """An army whose total cost exceeds the budget (R3)."""


class ChiefError(ArmyError):
    """An army with no chief or with a second chief (R2, R3)."""


class OrderError(AntipolixError):
    """A malformed order, or one naming a piece that is not the player's (R4)."""


class NotYourPieceError(OrderError):
    """An order naming another player's piece (R4)."""


class TurnError(AntipolixError):
    """A turn whose orders do not match the living players (R4, R7)."""


class MessageError(AntipolixError):
    """A malformed message or command (R9)."""


class PlayersFileError(AntipolixError):
    """A players file that cannot be read as one (R11)."""


class DeadPlayerError(TurnError):
    """A turn that names a player already eliminated (or no player at all)."""


class MissingOrderError(TurnError):
    """A turn that misses a living player's order (send ``Pass()`` to do nothing)."""


class EmptyCellError(AntipolixError):
    """A query about the piece on a cell that holds none."""


class SeedError(AntipolixError):
    """A seed that is not None, a non-negative integer or a ``numpy.random.SeedSequence``."""


class AgentError(AntipolixError):
    """An agent that raised, or returned something that is not a decision, or an order the
    engine refuses; the message names the agent, its seat and the turn."""


class ReplayError(AntipolixError):
    """A replay file that is missing, corrupt, truncated, edited or of a newer format."""


class SimulationError(AntipolixError):
    """A batch of games that cannot start or go on: bad arguments, an ``out`` folder that is
    unwritable or holds another study, an unreachable Ray cluster, or a game that failed (the
    message names its variant and game index)."""
