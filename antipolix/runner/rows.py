"""One row per game: the columns of a study's results table and their Arrow schema, declared once.

:class:`GameRow` is the row: each field is a column, its Arrow type in the field's metadata; the
armies are columns of counts, one per army item (``n_army``, ``n_army_invisible``,
``n_hovercraft_chief``, ...: per seat, how many such pieces it placed), so that a pandas user
filters on them without parsing text. :data:`COLUMNS` and :func:`schema` are derived from it.
Every column but ``seconds`` depends only on the study (R12).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from antipolix import games
from antipolix.codec import ARMY_COLUMNS, army_counts, count_column
from antipolix.end import GameResult
from antipolix.events import Elimination
from antipolix.games import host
from antipolix.pieces import ArmyItem
from antipolix.usage import USAGE

__all__ = [
    "ARMY_COLUMNS",
    "COLUMNS",
    "DETERMINISTIC_COLUMNS",
    "GameRow",
    "army_counts",
    "column_docs",
    "count_column",
    "schema",
    "table_columns",
]

if TYPE_CHECKING:
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]

    from antipolix.runner.variants import Variant


def _column(arrow: str, doc: str) -> dict[str, str]:
    """A column's metadata: its Arrow type and what it holds."""
    return {"arrow": arrow, "doc": doc}


@dataclass(frozen=True)
class GameRow:
    """One game of a study, as a row of its results table."""

    variant: str = field(
        metadata=_column("string", "the rules variant's name (`base` for a single variant)")
    )
    overrides: str = field(
        metadata=_column("string", "the variant's options that differ from the defaults")
    )
    game: int = field(
        metadata=_column("int64", "the game's index within its variant, 0 … games − 1")
    )
    seed: int = field(
        metadata=_column("int64", "the study's root seed (the game's: `game_seed(seed, game)`)")
    )
    players: int = field(metadata=_column("int64", "the number of seats"))
    seats: list[int] = field(
        metadata=_column("list<int64>", "per seat, the index of its agent in the study")
    )
    agents: list[str] = field(metadata=_column("list<string>", "per seat, the agent's label"))
    army_cost: list[int] = field(
        metadata=_column("list<int64>", "per seat, the cost of the army placed (R2)")
    )
    winner: int | None = field(metadata=_column("int64", "the winning seat, null for a draw (R10)"))
    winner_agent: str | None = field(
        metadata=_column("string", "the winner's label, null for a draw")
    )
    reason: str = field(
        metadata=_column("string", "`last_player`, `nul`, `all_eliminated` or `turn_limit` (R10)")
    )
    turns: int = field(metadata=_column("int64", "turns played"))
    elimination_order: list[int] = field(
        metadata=_column("list<int64>", "seats, first eliminated first")
    )
    pieces_left: list[int] = field(
        metadata=_column("list<int64>", "per seat, living pieces at the end")
    )
    cost_left: list[int] = field(
        metadata=_column("list<int64>", "per seat, the cost of those pieces")
    )
    seconds: float = field(
        metadata=_column("float64", "wall time of the game (the only varying column)")
    )
    armies: dict[str, list[int]] = field(
        default_factory=dict, metadata={"doc": "per army item, per seat, the pieces placed"}
    )
    usage: dict[str, list[int]] = field(
        default_factory=dict,
        metadata={
            "doc": "per seat, teleport moves (R5), fortress-backed defences (R8) and crushes "
            "(R6): columns `teleport_moves`, `fortress_defences`, `crushes` (antipolix.usage)"
        },
    )
    elimination_reason: list[str | None] = field(
        default_factory=list,
        metadata={
            "doc": "per seat, why it left the game: `chief` (taken, R8), `timer` (R7) or `quit` "
            "(R9); null for a seat still in it at the end"
        },
    )

    def values(self) -> dict[str, Any]:
        """The row as column → value, the army counts and the usage counts spread over their
        columns."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if _arrow(f)}
        out.update(self.armies)
        out.update(self.usage)
        out["elimination_reason"] = self.elimination_reason
        return out

    @classmethod
    def of_numbers(
        cls,
        result: GameResult,
        armies: Sequence[Sequence[ArmyItem]],
        pieces_left: Sequence[int],
        cost_left: Sequence[int],
        variant: Variant,
        game: int,
        seed: int,
        seats: Sequence[int],
        labels: Sequence[str],
        seconds: float,
        usage: Mapping[str, Sequence[int]],
        eliminations: Sequence[Elimination | None],
    ) -> GameRow:
        """The row of a finished game from its result, the armies placed (per seat, R3), the
        living pieces and their cost at the end, the usage counts and why each seat left the
        game (per seat, None: it did not)."""
        rules = variant.rules
        return cls(
            variant=variant.name,
            overrides=variant.overrides,
            game=game,
            seed=seed,
            players=rules.players,
            seats=list(seats),
            agents=[labels[j] for j in seats],
            army_cost=[rules.army_cost(army) for army in armies],
            winner=result.winner,
            winner_agent=None if result.winner is None else labels[seats[result.winner]],
            reason=result.reason.name.lower(),
            turns=result.turns,
            elimination_order=list(result.elimination_order),
            pieces_left=list(pieces_left),
            cost_left=list(cost_left),
            seconds=seconds,
            armies=army_counts(armies),
            usage={name: [int(v) for v in usage[name]] for name in USAGE},
            elimination_reason=[None if e is None else str(e) for e in eliminations],
        )


def _arrow(f: dataclasses.Field[Any]) -> str | None:
    arrow: str | None = f.metadata.get("arrow")
    return arrow


COLUMNS: tuple[tuple[str, str], ...] = (
    tuple((f.name, a) for f in dataclasses.fields(GameRow) if (a := _arrow(f)) is not None)
    + tuple((name, "list<int64>") for name in ARMY_COLUMNS)
    + tuple((name, "list<int64>") for name in USAGE)
    + (("elimination_reason", "list<string>"),)
)
DETERMINISTIC_COLUMNS = tuple(name for name, _ in COLUMNS if name != "seconds")


@functools.cache
def schema(game: str = "antipolix") -> pa.Schema:
    """The Arrow schema of a results table (one row per game) of ``game``: AntipoliX's
    (:data:`COLUMNS`), or another game's common and own columns
    (:func:`antipolix.games.host.columns`)."""
    import pyarrow as pa

    def arrow(kind: str) -> Any:  # "list<int64>" → pa.list_(pa.int64())
        if kind.startswith("list<"):
            return pa.list_(arrow(kind[5:-1]))
        return getattr(pa, kind)()

    return pa.schema([(name, arrow(kind)) for name, kind in table_columns(game)])


def table_columns(game: str = "antipolix") -> tuple[tuple[str, str], ...]:
    """Every column of ``game``'s results table with its Arrow type, in order."""
    return tuple((c.name, c.arrow) for c in host.columns(games.game(game)))


def column_docs() -> list[tuple[str, str]]:
    """Each column with what it holds (the army items as one entry), for documentation."""
    docs = [(f.name, str(f.metadata["doc"])) for f in dataclasses.fields(GameRow)]
    rename = {"armies": "n_ITEM", "usage": ", ".join(USAGE)}
    return [(rename.get(name, name), doc) for name, doc in docs]
