"""The meta, game health and a cost table a designer can adopt.

- :func:`meta_search` (:mod:`antipolix.meta.search`): which armies an agent buys when it
  chooses its army to win (CMA-ES over armies, PSRO rounds on Ray) and the maximum-entropy
  Nash equilibrium between the strongest of them (:func:`maxent_nash`).
"""

from antipolix.meta.armies import ArmySpace, MetaError
from antipolix.meta.nash import Equilibrium, maxent_nash
from antipolix.meta.search import Meta, MetaSettings, meta_search

__all__ = [
    "ArmySpace",
    "Equilibrium",
    "Meta",
    "MetaError",
    "MetaSettings",
    "maxent_nash",
    "meta_search",
]
