"""The meta, game health and a cost table a designer can adopt.

- :func:`meta_search` (:mod:`antipolix.meta.search`): which armies an agent buys when it
  chooses its army to win (CMA-ES over armies, PSRO rounds on Ray) and the maximum-entropy
  Nash equilibrium between the strongest of them (:func:`maxent_nash`).
- :func:`propose` (:mod:`antipolix.meta.propose`): a cost table balanced at the strongest
  agent that keeps the game healthy (:mod:`antipolix.meta.health`), the smallest change from
  the start, re-derived on independent seed sets; written as a rules file.
- :func:`compare` (:mod:`antipolix.meta.compare`): two cost tables side by side.
"""

from antipolix.meta.armies import ArmySpace, MetaError, SettingError
from antipolix.meta.compare import Comparison, compare
from antipolix.meta.health import Bounds
from antipolix.meta.nash import Equilibrium, maxent_nash
from antipolix.meta.propose import Proposal, ProposalSettings
from antipolix.meta.run import meta_search, propose
from antipolix.meta.search import Meta, MetaSettings

__all__ = [
    "ArmySpace",
    "Bounds",
    "Comparison",
    "Equilibrium",
    "Meta",
    "MetaError",
    "MetaSettings",
    "Proposal",
    "ProposalSettings",
    "SettingError",
    "compare",
    "maxent_nash",
    "meta_search",
    "propose",
]
