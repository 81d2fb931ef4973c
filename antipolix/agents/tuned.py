"""The ``tuned`` agent: the planner with the weights a self-play tuning study found, and an army
of several doctrines.

Its weights (:data:`~antipolix.agents.planner.WEIGHTS`) are read from ``tuned.json`` beside
this module, which a tuning study (:mod:`antipolix.tuning`, ``experiments/tune_planner.py``)
writes, naming the study; its ``hand_set`` entry holds the weights set by hand after the study,
with why (they override the study's). It plays through the planner's compiled kernel, at the
planner's speed. Its army (R3) is one of four doctrines per game, drawn from its generator,
so that it plays every kind of piece: a line of armies and hovercraft; the same with
fortresses for its chief to stand beside (R8); with a teleporter network (R5); with invisible
raiders (R6).
"""

from __future__ import annotations

import functools
import hashlib
import json
from importlib import resources
from typing import Any

from antipolix.agents.army import ArmyPolicy, FixedArmy, ItemLike, MixedArmy
from antipolix.agents.planner import DEFAULT_WEIGHTS, FloatArray, PlannerAgent, weight_vector
from antipolix.pieces import PieceType

LINE: dict[ItemLike, float] = {"army": 4.0, "hovercraft": 1.0}
DOCTRINES: tuple[tuple[float, dict[ItemLike, float]], ...] = (
    (0.4, LINE),
    (0.2, {**LINE, "fortress": 0.5}),
    (0.2, {**LINE, "army+teleporter": 0.5}),
    (0.2, {**LINE, "army+invisible": 1.0}),
)


@functools.cache
def _document() -> dict[str, Any]:
    text = resources.files("antipolix.agents").joinpath("tuned.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def tuned_weights(players: int = 2) -> FloatArray:
    """The planner's weights with the ones ``tuned.json`` names set for a table of ``players``:
    its ``weights`` (a study in 2-player games), or from ``more_players["from"]`` players on,
    the weights of ``more_players`` (a study at such tables); then ``hand_set`` over them."""
    more: dict[str, Any] = _document().get("more_players") or {}
    return _tuned(bool(more) and players >= int(more["from"]))


@functools.cache
def _tuned(more: bool) -> FloatArray:
    data = _document()
    found = data["more_players"]["weights"] if more else data["weights"]
    out = weight_vector(DEFAULT_WEIGHTS, found)
    out = weight_vector(out, data.get("hand_set", {}).get("weights"))
    out.setflags(write=False)
    return out


def weights_fingerprint() -> str:
    """A short digest of the weights ``tuned.json`` gives, at every table size: what tells one
    ``tuned`` agent from another made with another ``tuned.json`` (in :meth:`TunedAgent.spec`,
    so that a replay, a tournament or a study made before a new study was installed is not
    read as this agent's)."""
    more: dict[str, Any] = _document().get("more_players") or {}
    data = {
        "two": [float(v) for v in _tuned(False)],
        "more": [int(more["from"]), [float(v) for v in _tuned(True)]] if more else None,
    }
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


def doctrine_army() -> ArmyPolicy:
    """One of :data:`DOCTRINES` per game."""
    return MixedArmy(tuple((w, FixedArmy(mix, chief=PieceType.ARMY)) for w, mix in DOCTRINES))


class TunedAgent(PlannerAgent):
    """The planner with tuned weights (``tuned.json``: one set for 2-player games, and one for
    larger tables when a study at such tables was installed) and the doctrine army; its
    parameters are the planner's, and ``weights`` given override the tuned ones (a tuning
    study's candidates)."""

    name = "tuned"

    def base_weights(self, players: int = 2) -> FloatArray:
        return tuned_weights(players)

    def default_army(self) -> ArmyPolicy:
        return doctrine_army()

    def spec(self) -> dict[str, Any]:
        """The planner's, with the fingerprint of ``tuned.json``'s weights
        (:func:`weights_fingerprint`), which :func:`~antipolix.agents.agent_from_spec`
        checks."""
        return {**super().spec(), "tuned_weights": weights_fingerprint()}


__all__ = ["DOCTRINES", "TunedAgent", "doctrine_army", "tuned_weights", "weights_fingerprint"]
