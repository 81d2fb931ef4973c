"""R11 Scores and the persistent players file.

With ``n`` players at the start of a game that is not a draw, the winner gains ``n`` and the k-th
eliminated player loses ``n − k``; a score never drops below 0. The players file is JSON (never a
pickle), written atomically so that a crash mid-write leaves the previous file intact.

>>> from antipolix.end import EndReason, GameResult
>>> score_changes(GameResult(2, EndReason.LAST_PLAYER, 40, (0, 3, 1)), 4)
{2: 4, 0: -3, 3: -2, 1: -1}
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from antipolix.checks import is_plain_int
from antipolix.end import GameResult
from antipolix.errors import PlayersFileError
from antipolix.files import json_file

FORMAT = "antipolix-players"
VERSION = 1


def score_changes(result: GameResult, players: int) -> dict[int, int]:
    """R11: the score change of each seat (empty for a draw), before the floor at 0."""
    if result.winner is None:
        return {}
    changes = {result.winner: players}
    for k, seat in enumerate(result.elimination_order, start=1):
        changes[seat] = -(players - k)
    return changes


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    name: str
    email: str
    score: int = 0


class PlayersFile:
    """The players file: one record per player name (name, email, score).

    >>> book = PlayersFile()
    >>> book.register("ada", "ada@example.org").score
    0
    """

    def __init__(self, records: Sequence[PlayerRecord] = ()) -> None:
        self._records: dict[str, PlayerRecord] = {}
        for record in records:
            if record.name in self._records:
                raise PlayersFileError(f"player name {record.name!r} appears twice")
            self._records[record.name] = record

    def __contains__(self, name: object) -> bool:
        return name in self._records

    def __getitem__(self, name: str) -> PlayerRecord:
        try:
            return self._records[name]
        except KeyError:
            raise PlayersFileError(f"no player named {name!r} in the players file") from None

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._records.values())

    def __len__(self) -> int:
        return len(self._records)

    def register(self, name: str, email: str = "") -> PlayerRecord:
        """Add a new player with score 0 (R11); an existing name keeps its record."""
        if not isinstance(name, str) or not name.strip():
            raise PlayersFileError(f"a player name must be a non-empty string, got {name!r}")
        if not isinstance(email, str):
            raise PlayersFileError(f"an email must be a string, got {email!r}")
        if name not in self._records:
            self._records[name] = PlayerRecord(name, email, 0)
        return self._records[name]

    def apply(self, result: GameResult, seats: Sequence[str]) -> dict[str, int]:
        """Apply a game's result (R11); ``seats[i]`` is the name of the player in seat ``i``.

        Returns the change actually applied to each name (after the floor at 0).
        """
        unknown = [name for name in seats if name not in self._records]
        if unknown:
            raise PlayersFileError(f"players not in the players file: {unknown}")
        if len(set(seats)) != len(seats):
            raise PlayersFileError(f"a name sits in two seats: {list(seats)}")
        applied: dict[str, int] = {}
        for seat, change in score_changes(result, len(seats)).items():
            if not 0 <= seat < len(seats):
                raise PlayersFileError(f"the result names seat {seat}, but there are {len(seats)}")
            record = self._records[seats[seat]]
            new = max(0, record.score + change)
            applied[record.name] = new - record.score
            self._records[record.name] = PlayerRecord(record.name, record.email, new)
        return applied

    # -- files -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "players": [asdict(r) for r in sorted(self._records.values(), key=lambda r: r.name)],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "players file") -> PlayersFile:
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise PlayersFileError(
                f"{source}: not an AntipoliX players file (no format {FORMAT!r})"
            )
        if data.get("version") != VERSION:
            raise PlayersFileError(f"{source}: unsupported version {data.get('version')!r}")
        rows = data.get("players")
        if not isinstance(rows, list):
            raise PlayersFileError(f"{source}: 'players' must be a list")
        records = []
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping) or set(row) != {"name", "email", "score"}:
                raise PlayersFileError(
                    f"{source}: player #{i} must have exactly name, email and score: {row!r}"
                )
            name, email, score = row["name"], row["email"], row["score"]
            if not isinstance(name, str) or not name.strip() or not isinstance(email, str):
                raise PlayersFileError(f"{source}: player #{i} has a bad name or email: {row!r}")
            if not is_plain_int(score) or score < 0:
                raise PlayersFileError(
                    f"{source}: player {name!r} has score {score!r}; scores are integers >= 0"
                )
            records.append(PlayerRecord(name, email, score))
        try:
            return cls(records)
        except PlayersFileError as exc:
            raise PlayersFileError(f"{source}: {exc}") from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PlayersFile:
        """Read a players file; a missing file is an empty players file."""
        path = Path(path)
        if not path.exists():
            return cls()
        try:
            data = json_file(path)
        except (OSError, ValueError) as exc:
            raise PlayersFileError(f"{path}: cannot read a players file: {exc}") from None
        return cls.from_json(data, str(path))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a temporary file in the same folder, then a rename."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent or ".")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.to_json(), out, indent=2, ensure_ascii=False)
                out.write("\n")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
