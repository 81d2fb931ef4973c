"""Who sits in each seat of a served game: a person in a browser, a program, or a built-in agent.

A seat is written ``KIND[@NAME]``: ``human`` (the browser client), ``bot`` (any program that
speaks the protocol, in any language), or a built-in agent by name with its parameters
(``greedy``, ``tuned``, ``search:rollouts=4``), which the server plays itself. ``NAME`` is the
player's name in the players file (R11); by default ``human-0``, ``bot-1``, ``greedy-2`` (the
kind and the seat).

>>> [s.label for s in parse_seats("human@ada,greedy,search:rollouts=4")]
['ada (human)', 'greedy-1 (greedy)', 'search-2 (search:rollouts=4)']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from antipolix.agents import Agent, agent_label, agent_named
from antipolix.errors import AntipolixError
from antipolix.rules import MAX_PLAYERS, MIN_PLAYERS

SeatKind = Literal["human", "bot", "agent"]
REMOTE: tuple[SeatKind, ...] = ("human", "bot")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,31}")


class SeatError(AntipolixError):
    """A seat that cannot be read: an unknown kind or agent, a bad or repeated name."""


@dataclass(frozen=True)
class SeatSpec:
    """One seat: its kind, the built-in agent (for ``agent`` seats, as :func:`agent_named`
    reads it back) and the player's name."""

    kind: SeatKind
    name: str
    agent: str | None = None

    @property
    def remote(self) -> bool:
        """Played by a client (a person or a program), not by the server."""
        return self.kind in REMOTE

    @property
    def label(self) -> str:
        return f"{self.name} ({self.agent if self.kind == 'agent' else self.kind})"

    def make_agent(self) -> Agent:
        assert self.agent is not None
        return agent_named(self.agent)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "agent": self.agent}

    @classmethod
    def from_dict(cls, data: Any) -> SeatSpec:
        try:
            kind, name, agent = data["kind"], data["name"], data["agent"]
        except (KeyError, TypeError):
            raise SeatError(f"a seat is {{kind, name, agent}}, got {data!r}") from None
        if kind not in ("human", "bot", "agent") or not isinstance(name, str):
            raise SeatError(f"a seat is {{kind, name, agent}}, got {data!r}")
        if kind == "agent":
            return parse_seat(f"{agent}@{name}", 0)
        return cls(kind, name, None)


def parse_seat(text: str, seat: int) -> SeatSpec:
    """One seat from its text (see the module docstring)."""
    if not isinstance(text, str) or not text.strip():
        raise SeatError(f"seat {seat}: empty (give human, bot or a built-in agent like greedy)")
    what, at, name = text.strip().rpartition("@") if "@" in text else (text.strip(), "", "")
    what = what.strip()
    if at and not NAME.fullmatch(name):
        raise SeatError(
            f"seat {seat}: the name {name!r} must be 1 to 32 letters, digits, '.', '_' or '-'"
        )
    key = what.lower()
    if key in REMOTE:
        return SeatSpec(key, name or f"{key}-{seat}")
    try:
        agent = agent_named(what)
    except AntipolixError as exc:
        raise SeatError(f"seat {seat}: {exc}; or human, or bot (a program)") from None
    return SeatSpec("agent", name or f"{agent.name}-{seat}", agent_label(agent))


def parse_seats(text: str | Sequence[str]) -> tuple[SeatSpec, ...]:
    """Seats from ``"human,greedy,bot@rusty"`` (or a list of such texts), names distinct."""
    parts = text.split(",") if isinstance(text, str) else list(text)
    seats = tuple(parse_seat(part, i) for i, part in enumerate(parts))
    names = [s.name for s in seats]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SeatError(f"the player name {twice[0]!r} sits in two seats (names are per player)")
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise SeatError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} seats (R3), got {len(seats)}")
    return seats
