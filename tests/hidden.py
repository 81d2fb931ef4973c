"""Checks of hidden information (R6) shared by the property tests and the scan of played games.

:func:`check_observation` states, for one observation and the turn report it follows, what R6
says a player may not be told; :func:`observation_fields` makes observations comparable field for
field.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from antipolix import Game
from antipolix.combat import Outcome
from antipolix.events import Combat, Crushed, Eliminated, Event, Fate, Moved
from antipolix.game import TurnReport
from antipolix.observation import UNKNOWN_TRAIT, Observation
from antipolix.pieces import Trait


def observation_fields(obs: Observation) -> dict[str, Any]:
    """Every field of an observation as plain data, in its order (arrays as lists)."""
    return {
        "player": obs.player,
        "turn": obs.turn,
        "timer": obs.timer,
        "living": obs.living,
        "nul": obs.nul,
        "messages": obs.messages,
        "events": [e.to_dict() for e in obs.events],
        "ids": obs.ids.tolist(),
        "owners": obs.owners.tolist(),
        "types": obs.types.tolist(),
        "traits": obs.traits.tolist(),
        "cells": obs.cells.tolist(),
    }


def hidden_from(game: Game, player: int) -> set[int]:
    """Identifiers of every piece, living or not, that is another player's invisible piece."""
    board = game.board
    n = board.count
    mask = (board.trait[:n] == Trait.INVISIBLE) & (board.owner[:n] != player)
    return set(board.ids[:n][mask].tolist())


def event_ids(event: Event) -> list[int]:
    """Every piece identifier an event names (None left out)."""
    match event:
        case Moved(piece=piece):
            return [piece]
        case Crushed(piece=piece, victim=victim):
            return [i for i in (piece, victim) if i is not None]
        case Combat(pieces=pieces, dropped=dropped, target=target):
            return [*pieces, *(i for i, _ in dropped), target]
        case Fate(target=target, landed_on=landed_on):
            return [target] + ([] if landed_on is None else [landed_on])
        case Eliminated(taken=taken, removed=removed):
            return [*taken, *removed]
    return []


def told(report: TurnReport, player: int) -> list[Event]:
    """The truth events of a turn whose audience includes ``player``, in order."""
    out = []
    for e in report.events:
        who = e.audience()
        if who is None or player in who:
            out.append(e)
    return out


def check_observation(game: Game, obs: Observation, report: TurnReport | None) -> None:
    """Assert that ``obs`` (what ``obs.player`` sees after ``report``'s turn) shows nothing R6
    hides: no other player's invisible piece or its identifier, no trait of another player's
    piece, identifiers in increasing order everywhere, no landing cell of a teleport onto a
    piece the player cannot see, no invisible mover named to the owner of the piece it crushed."""
    p = obs.player
    hidden = hidden_from(game, p)
    ids = obs.ids.tolist()
    assert ids == sorted(ids) and len(set(ids)) == len(ids), "pieces not in identifier order"
    assert not hidden & set(ids), "another player's invisible piece is in the observation"
    theirs = obs.owners != p
    assert (obs.traits[theirs] == UNKNOWN_TRAIT).all(), "another player's trait is shown"
    if report is None:
        assert obs.events == ()
        return
    truth = told(report, p)
    assert len(truth) == len(obs.events)
    for true, seen in zip(truth, obs.events, strict=True):
        assert type(true) is type(seen)
        named = event_ids(seen)
        assert not hidden & set(named), f"an invisible piece's identifier is told: {seen}"
        match seen:
            case Combat(pieces=pieces, dropped=dropped):
                assert list(pieces) == sorted(pieces)
                assert [i for i, _ in dropped] == sorted(i for i, _ in dropped)
                assert (seen.attack, seen.defence, seen.cell) == (
                    true.attack,
                    true.defence,
                    true.cell,
                )
            case Eliminated(taken=taken, removed=removed):
                assert list(taken) == sorted(taken) and list(removed) == sorted(removed)
                assert set(taken) == set(true.taken) - hidden  # type: ignore[attr-defined]
            case Fate():
                assert isinstance(true, Fate)
                if true.landed_on is not None and true.landed_on in hidden:
                    assert seen.landing is None and seen.destroyed, "a hidden landing is told"
                else:
                    assert seen.landing == true.landing
                if seen.outcome is Outcome.TELEPORT and seen.landing is None:
                    assert seen.destroyed
            case Crushed():
                assert isinstance(true, Crushed)
                assert (seen.piece is None) == (true.piece in hidden)
                assert (seen.victim is None) == (true.victim in hidden)
            case _:
                assert seen == true


def rank_of_chief(obs: Observation, game: Game, owner: int) -> tuple[int, int] | None:
    """Where ``owner``'s chief stands among that owner's pieces ``obs`` shows, by identifier:
    ``(rank from 0, how many)``; None if the chief is not shown."""
    mine = np.flatnonzero(obs.owners == owner)
    ids = sorted(int(i) for i in obs.ids[mine])
    chief = [i for i in ids if game.piece(i).trait is Trait.CHIEF]
    if not chief:
        return None
    return ids.index(chief[0]), len(ids)
