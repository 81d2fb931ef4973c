"""R2 Pieces: types, traits, their table of numbers, and the record of one piece.

The numbers (cost, strength, move field, trait cost) are rule options and live in
:class:`TypeTable` and :class:`TraitCosts`, both fields of :class:`antipolix.Rules`.

>>> TypeTable().cost(PieceType.ARMY) + TraitCosts().cost(Trait.TELEPORTER)
13
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields

from antipolix.world import Cell


class PieceType(enum.IntEnum):
    """R2 piece types. Values index the piece table's ``type`` column."""

    ARMY = 0
    HOVERCRAFT = 1
    FORTRESS = 2  # never moves, never attacks; strength counts for defence only


class Trait(enum.IntEnum):
    """R2 traits: every piece has exactly one."""

    NONE = 0
    INVISIBLE = 1  # R6
    TELEPORTER = 2  # R5
    CHIEF = 3  # exactly one per player; losing it eliminates the player (R8)


ArmyItem = tuple[PieceType, Trait]  # one piece of an army: its type and its trait (R2, R3)

# Plain-int codes for hot loops and the compiled core.
ARMY = int(PieceType.ARMY)
HOVERCRAFT = int(PieceType.HOVERCRAFT)
FORTRESS = int(PieceType.FORTRESS)
NO_TRAIT = int(Trait.NONE)
INVISIBLE = int(Trait.INVISIBLE)
TELEPORTER = int(Trait.TELEPORTER)
CHIEF = int(Trait.CHIEF)


# The largest numbers of the piece tables (R2): far beyond any design, small enough that the
# compiled core's sums stay exact (an attack's strength over 50,000 pieces fits 32 bits)
MAX_COST = 10**6  # a type's cost, or a trait's extra cost
MAX_STRENGTH = 10**4
MAX_MOVE = 10**4  # cells: more than any board's side


@dataclass(frozen=True, slots=True)
class TypeSpec:
    """The numbers of one piece type (R2)."""

    cost: int
    strength: int
    move: int


@dataclass(frozen=True, slots=True)
class TypeTable:
    """R2 per-type table: cost, strength, move field. Defaults are the 1995 values."""

    army: TypeSpec = TypeSpec(cost=3, strength=2, move=1)
    hovercraft: TypeSpec = TypeSpec(cost=2, strength=1, move=2)
    fortress: TypeSpec = TypeSpec(cost=12, strength=5, move=0)

    def __getitem__(self, kind: PieceType) -> TypeSpec:
        spec: TypeSpec = getattr(self, kind.name.lower())
        return spec

    def cost(self, kind: PieceType) -> int:
        return self[kind].cost

    def problems(self) -> list[str]:
        out = []
        for f in fields(self):
            spec = getattr(self, f.name)
            if not isinstance(spec, TypeSpec):
                out.append(f"piece_types.{f.name} must be a TypeSpec, got {spec!r}")
                continue
            for attr, most in (("cost", MAX_COST), ("strength", MAX_STRENGTH), ("move", MAX_MOVE)):
                value = getattr(spec, attr)
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    out.append(
                        f"piece_types.{f.name}.{attr} must be an integer >= 0, got {value!r}"
                    )
                elif value > most:
                    out.append(
                        f"piece_types.{f.name}.{attr} must be at most {most:,}, got {value:,}"
                    )
        if isinstance(self.fortress, TypeSpec) and self.fortress.move != 0:
            out.append(
                f"piece_types.fortress.move must be 0 (fortresses never move), "
                f"got {self.fortress.move!r}"
            )
        return out


@dataclass(frozen=True, slots=True)
class TraitCosts:
    """R2 per-trait extra cost. Defaults are the 1995 values."""

    none: int = 0
    invisible: int = 5
    teleporter: int = 10
    chief: int = 0

    def cost(self, trait: Trait) -> int:
        value: int = getattr(self, trait.name.lower())
        return value

    def problems(self) -> list[str]:
        out = []
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                out.append(f"trait_costs.{f.name} must be an integer >= 0, got {value!r}")
            elif value > MAX_COST:
                out.append(f"trait_costs.{f.name} must be at most {MAX_COST:,}, got {value:,}")
        return out


@dataclass(frozen=True, slots=True)
class Piece:
    """What the engine knows of one piece (the full truth, R12). ``game.piece(id)`` returns it."""

    id: int
    owner: int
    type: PieceType
    trait: Trait
    cell: Cell
    alive: bool
