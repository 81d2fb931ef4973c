"""Agents: players that decide from their own observation (R6, R12)."""

from antipolix.agents.base import Agent, Decision, View
from antipolix.agents.scripted import AGENTS, GreedyAgent, RandomAgent

__all__ = ["AGENTS", "Agent", "Decision", "GreedyAgent", "RandomAgent", "View"]
