"""AntipoliX (1995) as a game of the platform: ``GAME``, a thin face over the engine.

The engine stays where it is (``antipolix.rules``, ``antipolix.game``, ``antipolix.agents``,
``antipolix.autoplay``, ...); this package only serves it through the game protocol
(:mod:`antipolix.games.protocol`): the configuration is :class:`~antipolix.Rules`, the actions
and masks are the PettingZoo env's (:mod:`antipolix.env`), the agents the built-in ones by
name, the batch path the compiled core. Its sections are R1–R12 (``docs/rules/antipolix.md``).

**Placement (R3) through the protocol**: ``GAME.new(rules, seed)`` places every seat's army
at once, drawn by a random army policy from the seat's own generator (R12), on random free
cells of its home zone, and play begins: the protocol's states are in play from the start,
and think times are drawn by the engine (R7), as in the env. Agents with army policies of
their own (the built-in agents, ``FixedArmy``, ...) play whole games through ``GAME.play``
and ``GAME.play_batch`` (the runner, replays, tournaments), which place their armies.
"""

from antipolix.games.antipolix.game import AntipolixGame

GAME = AntipolixGame()

__all__ = ["GAME"]
