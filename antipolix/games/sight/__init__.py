"""Sight (Kanare Kato): a two-player game of placement and stacking by line of sight on an
Alquerque board, the platform's second game. The rules contract is RULES-sight.md (S1–S11),
in the project's words in ``docs/rules/sight.md``.

One module per concept: ``config`` (the rule options), ``board`` (S1: the drawn lines and
symmetries), ``position`` (S2, S4: a position as one array; the digest), ``lines`` (S3: line of
sight), ``rules`` (S4–S8: legal actions, apply, end), ``actions`` (S11: the integers of the
actions, their words and JSON), ``state`` (the Python face of one game), ``agents``,
``search`` and ``solve`` (alpha-beta over a transposition table with the board's symmetries),
``draws`` (the agents' generators in compiled code), ``batch`` (whole games in one call),
``perft`` (S11), ``scene`` (the 2D board for the viewer) and ``game`` (``GAME``, the
:class:`~antipolix.games.protocol.GameDef`).
"""

from __future__ import annotations

from antipolix.games.sight.config import SightConfig
from antipolix.games.sight.game import GAME, SightGame
from antipolix.games.sight.state import SightState

__all__ = ["GAME", "SightConfig", "SightGame", "SightState"]
