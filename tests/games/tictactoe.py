"""Tic-tac-toe through the game protocol: a test-only game (registered by the tests as
``tictactoe``), small enough to play to the end in microseconds, with every part the protocol
names: options, agents, a codec, a 2D scene and a batch path.

Rules: two seats take turns putting their mark on an empty point of a ``size × size`` board,
seat 0 first; three in a row (or ``size`` on a 3-board of 3, lines of ``line``) wins; with
``misere`` the seat that makes the line loses; a full board is a draw.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.games.protocol import (
    GameAgent,
    GameError,
    GameType,
    IllegalActionError,
    Mark,
    Option,
    Outcome,
    Scene2D,
    SeedLike,
    places_of,
    play_one,
)

INFO = GameType(
    name="tictactoe",
    title="Tic-tac-toe (a test game)",
    version=1,
    min_players=2,
    max_players=2,
    simultaneous=False,
    chance=False,
    perfect_information=True,
    rules_doc="tests/games/tictactoe.py",
    sections="T1",
)


@dataclass(frozen=True)
class Config:
    players: int = 2
    size: int = 3
    misere: bool = False

    def __post_init__(self) -> None:
        if self.players != 2:
            raise GameError(f"tictactoe: players must be 2, got {self.players!r}")
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not 3 <= self.size <= 4:
            raise GameError(f"tictactoe: size must be 3 or 4, got {self.size!r}")
        if not isinstance(self.misere, bool):
            raise GameError(f"tictactoe: misere must be true or false, got {self.misere!r}")


def _lines(n: int) -> list[list[int]]:
    out = [[y * n + x for x in range(n)] for y in range(n)]
    out += [[y * n + x for y in range(n)] for x in range(n)]
    out += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    return out


class State:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.board = np.full(config.size**2, -1, dtype=np.int64)
        self.turn = 0
        self.moves: list[int] = []
        self._result: Outcome | None = None

    def to_act(self) -> tuple[int, ...]:
        return () if self._result is not None else (self.turn % 2,)

    def legal_actions(self, seat: int) -> list[int]:
        if seat not in self.to_act():
            return []
        return [int(i) for i in np.flatnonzero(self.board < 0)]

    def action_mask(self, seat: int) -> npt.NDArray[np.bool_]:
        mask = np.zeros(self.config.size**2, dtype=np.bool_)
        mask[self.legal_actions(seat)] = True
        return mask

    def apply(self, actions: Mapping[int, int]) -> None:
        acting = self.to_act()
        if list(actions) != list(acting):
            raise IllegalActionError(
                f"tictactoe: seats {list(acting)} act now, got {dict(actions)}"
            )
        ((seat, action),) = actions.items()
        if action not in self.legal_actions(seat):
            raise IllegalActionError(f"tictactoe: {action!r} is not legal now")
        self.board[action] = seat
        self.moves.append(int(action))
        self.turn += 1
        for line in _lines(self.config.size):
            if all(self.board[i] == seat for i in line):
                winner = 1 - seat if self.config.misere else seat
                self._result = Outcome(
                    winner,
                    "line",
                    self.turn,
                    places_of(2, winner, [1 - winner]),
                    (1 - winner,),
                    {"marks": [int((self.board == s).sum()) for s in (0, 1)]},
                )
                return
        if (self.board >= 0).all():
            self._result = Outcome(
                None,
                "full",
                self.turn,
                (0.5, 0.5),
                (),
                {"marks": [int((self.board == s).sum()) for s in (0, 1)]},
            )

    def observe(self, seat: int) -> dict[str, Any]:
        return {"board": self.board.tolist(), "turn": self.turn, "seat": seat}

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        planes = [(self.board == seat), (self.board == 1 - seat), (self.board < 0)]
        return np.concatenate(planes).astype(np.float32)

    @property
    def over(self) -> bool:
        return self._result is not None

    def result(self) -> Outcome | None:
        return self._result

    def digest(self) -> int:
        text = f"{dataclasses.astuple(self.config)}{self.moves}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:8], "little")

    def clone(self) -> State:
        other = State(self.config)
        other.board = self.board.copy()
        other.turn, other.moves, other._result = self.turn, list(self.moves), self._result
        return other


class RandomAgent(GameAgent):
    name = "random"

    def act(self, observation: Mapping[str, Any], legal: Sequence[int]) -> int:
        return int(legal[int(self.rng.integers(len(legal)))])


class FirstAgent(GameAgent):
    name = "first"

    def __init__(self, last: bool = False) -> None:
        self.last = last

    def params(self) -> dict[str, Any]:
        return {"last": self.last}

    def act(self, observation: Mapping[str, Any], legal: Sequence[int]) -> int:
        return int(legal[-1] if self.last else legal[0])


class TicTacToe:
    info = INFO
    options: tuple[Option, ...] = (
        Option("players", 2, "seats", "T1"),
        Option("size", 3, "points a side", "T1", (3, 4)),
        Option("misere", False, "the line loses", "T1", (False, True)),
    )
    agents: Mapping[str, type[GameAgent]] = {"random": RandomAgent, "first": FirstAgent}
    from antipolix.games.protocol import Column

    columns = (Column("marks", "list<int64>", "per seat, marks on the board at the end"),)
    del Column
    batches = 0  # calls of play_batch (the tests read it)

    def config(self, **options: Any) -> Config:
        unknown = sorted(set(options) - {"players", "size", "misere"})
        if unknown:
            raise GameError(
                f"tictactoe has no option {unknown[0]!r} (options: players, size, misere)"
            )
        return Config(**options)

    def config_from_text(self, overrides: Mapping[str, str], base: Any = None) -> Config:
        data = self.config_to_dict(base if base is not None else Config())
        for key, text in overrides.items():
            if key not in data:
                raise GameError(f"tictactoe has no option {key!r} (options: players, size, misere)")
            if key == "misere":
                if text.lower() not in ("true", "false"):
                    raise GameError(f"tictactoe: misere must be true or false, got {text!r}")
                data[key] = text.lower() == "true"
            else:
                try:
                    data[key] = int(text)
                except ValueError:
                    raise GameError(f"tictactoe: {key} must be an integer, got {text!r}") from None
        return Config(**data)

    def config_to_dict(self, config: Config) -> dict[str, Any]:
        return dataclasses.asdict(config)

    def config_from_dict(self, data: Mapping[str, Any]) -> Config:
        return self.config(**dict(data))

    def num_actions(self, config: Config) -> int:
        return config.size**2

    def observation_shape(self, config: Config) -> tuple[int, ...]:
        return (3 * config.size**2,)

    def new(self, config: Config, seed: SeedLike = None) -> State:
        return State(config)

    def action_to_text(self, state: Any, action: int) -> str:
        y, x = divmod(action, state.config.size)
        return f"mark ({x}, {y})"

    def action_to_json(self, config: Any, action: int) -> Any:
        return int(action)

    def action_from_json(self, config: Any, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise GameError(f"a tictactoe action is an integer, got {data!r}")
        return data

    def scene(self, state: Any, seat: int | None = None) -> Scene2D:
        n = state.config.size
        marks = [Mark("point", (float(x), float(y))) for y in range(n) for x in range(n)]
        for i, owner in enumerate(state.board.tolist()):
            if owner >= 0:
                marks.append(Mark("piece", (float(i % n), float(i // n)), seat=owner, label="1"))
        if state.moves:
            last = state.moves[-1]
            marks.append(Mark("ring", (float(last % n), float(last // n)), seat=state.board[last]))
        return Scene2D(n, n, tuple(marks), caption=f"turn {state.turn}")

    def play_batch(
        self, config: Config, agents: Sequence[GameAgent], seeds: Sequence[np.random.SeedSequence]
    ) -> list[Outcome] | None:
        type(self).batches += 1
        return [play_one(self, config, agents, seed)[1] for seed in seeds]


GAME = TicTacToe()
