"""What every command accepts: seeds, and the size of a game (board and pieces).

One place for the checks that ``play``, ``demo``, ``simulate`` and ``balance`` (and
:func:`antipolix.simulate` and :mod:`antipolix.balance`) share, so a seed or a board one command
takes is never refused by another.

Seeds (R12) are integers from 0 to ``2**63 - 1``: a study stores them as 64-bit integers
(Parquet ``int64``), so every command takes the same range.

>>> check_seed(7)
7
>>> check_seed(2**63)
Traceback (most recent call last):
...
antipolix.errors.SeedError: seed must be an integer from 0 to 2**63 - 1, got 9223372036854775808

The size of a game: a board of ``P × N × N`` cells holds up to ``players × (1 + what the budget
buys of the cheapest type)`` pieces (no more than fit in the home zones). Time per turn grows
faster than the number of pieces (agents compare pieces with pieces), so a board a few times
larger than the default can make games thousands of times slower. :func:`game_size` estimates
memory and time from figures measured on this project's machine (Greedy agents: about 1 ms a
turn on the default board, growing as ``pieces ** 1.6``); :func:`check_size` refuses a game
beyond :data:`MAX_CELLS` cells or :data:`MAX_PIECES` pieces, and :func:`size_warning` words the
estimate for games big enough to deserve one.

>>> from antipolix import Rules
>>> game_size(Rules()).pieces  # 4 players × (a chief + 29 hovercraft), the most 61 points buy
120
>>> size_warning(Rules()) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from antipolix.checks import is_int
from antipolix.errors import RulesError, SeedError
from antipolix.pieces import PieceType, Trait
from antipolix.rules import Rules

MAX_SEED = 2**63 - 1  # seeds are stored as int64 (Parquet) by simulate and balance

MAX_CELLS = 2**22  # 4,194,304 cells: 2,048 times the default board (e.g. 16 × 512 × 512)
MAX_PIECES = 50_000  # pieces of all players together
WARN_GAME_SECONDS = 60.0  # estimated seconds a game (at the turn limit) above which a command warns
WARN_BYTES = 512 * 2**20  # estimated memory a game above which a command warns

# Measured (November 2026, this project's 2-core machine, Greedy agents, 4 players, first turns):
# default board (up to 120 pieces, 76 placed) 1 ms a turn; 8×32×32 (up to 488) 5 ms; 16×32×32
# (up to 980) 17 ms; 16×64×64 (up to 3,932) 200 ms. seconds = BASE × (pieces / BASE_PIECES) **
# EXPONENT, with ``pieces`` the most the rules allow, is within a factor of two of each.
BASE_TURN_SECONDS = 1e-3
BASE_PIECES = 120
EXPONENT = 1.6
BYTES_PER_CELL_PLAYER = 2  # the board (int32 per cell) and each agent's per-turn grids
BYTES_PER_PIECE = 2000  # piece tables, observations and orders, as Python objects


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` if it is an integer from 0 to :data:`MAX_SEED`, else a :class:`SeedError`."""
    if not is_int(seed) or not 0 <= int(seed) <= MAX_SEED:
        raise SeedError(f"{what} must be an integer from 0 to 2**63 - 1, got {seed!r}")
    return int(seed)


@dataclass(frozen=True)
class GameSize:
    """How big one game of some rules can get, and what it may cost."""

    cells: int
    pieces: int  # at most, all players together
    bytes: int  # estimated memory of one game
    turn_seconds: float  # estimated seconds a turn (Greedy agents, this project's machine)
    max_turns: int

    @property
    def game_seconds(self) -> float:
        """Estimated seconds of a game that reaches the turn limit (R10)."""
        return self.turn_seconds * self.max_turns


def game_size(rules: Rules) -> GameSize:
    """The largest armies the rules allow (R3: budget, home zones) and their estimated cost."""
    p, n, _ = rules.shape
    cells = p * n * n
    budget = rules.army_budget
    chief = min(rules.piece_cost(kind, Trait.CHIEF) for kind in PieceType)
    cheapest = min(rules.piece_cost(kind, Trait.NONE) for kind in PieceType)
    room = cells // rules.players
    if rules.home_zones is not None:
        room = min(zone.volume for zone in rules.home_zones)
    per_player = room if cheapest == 0 else min(room, 1 + max(0, budget - chief) // cheapest)
    pieces = rules.players * per_player
    turn = BASE_TURN_SECONDS * (max(pieces, 1) / BASE_PIECES) ** EXPONENT
    memory = cells * BYTES_PER_CELL_PLAYER * (1 + rules.players) + pieces * BYTES_PER_PIECE
    return GameSize(cells, pieces, memory, turn, rules.max_turns)


def _bytes(n: float) -> str:
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{n:,.0f} bytes"


def _seconds(s: float) -> str:
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("min", 60)):
        if s >= size:
            return f"{s / size:,.1f} {unit}"
    return f"{s:,.2g} s" if s < 10 else f"{s:,.0f} s"


def _describe(rules: Rules, size: GameSize) -> str:
    board = "×".join(str(d) for d in rules.shape)
    return (
        f"a {board} board ({size.cells:,} cells) with {rules.players} players and a budget of "
        f"{rules.army_budget:,} points each allows up to {size.pieces:,} pieces in all; estimated "
        f"{_bytes(size.bytes)} of memory and {_seconds(size.turn_seconds)} a turn with Greedy "
        f"agents (up to {_seconds(size.game_seconds)} a game at the turn limit of "
        f"{size.max_turns:,}; the default rules: about 1 ms a turn)"
    )


def check_size(rules: Rules) -> GameSize:
    """The game's size; a :class:`RulesError` when it passes :data:`MAX_CELLS` cells or
    :data:`MAX_PIECES` pieces (the message gives the estimate and the limits)."""
    size = game_size(rules)
    if size.cells > MAX_CELLS or size.pieces > MAX_PIECES:
        raise RulesError(
            f"game too large: {_describe(rules, size)}. The limit is {MAX_CELLS:,} cells and "
            f"{MAX_PIECES:,} pieces a game: use a smaller shape, a lower credits_per_100 or a "
            "budget"
        )
    return size


def size_warning(rules: Rules) -> str | None:
    """A sentence for games large enough to be slow or memory-hungry, else None."""
    size = game_size(rules)
    if size.game_seconds < WARN_GAME_SECONDS and size.bytes < WARN_BYTES:
        return None
    return f"large game: {_describe(rules, size)}"


__all__ = [
    "MAX_CELLS",
    "MAX_PIECES",
    "MAX_SEED",
    "GameSize",
    "check_seed",
    "check_size",
    "game_size",
    "size_warning",
]
