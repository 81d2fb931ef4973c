"""Sight's rule options (RULES-sight.md): one frozen, validated configuration.

Every place where Kato's sheet is silent or ambiguous is an option here, with the contract's
default: ``size`` (S1), ``hand`` (S2), ``pie`` (S4), ``stack_priority`` (S6); ``players`` is
always 2. A configuration is built from options by name (:meth:`SightConfig.with_options`),
from ``--rule KEY=VALUE`` text (:func:`config_from_text`) and from its JSON dict
(:func:`config_from_dict`); a bad value raises :class:`~antipolix.games.protocol.GameError`
naming the option and what it allows.

>>> SightConfig()
SightConfig(size=5, hand='unlimited', pie=False, stack_priority='movable', players=2)
>>> config_from_text({"size": "7", "pie": "on"}).size
7
>>> try:
...     SightConfig(size=10)
... except GameError as exc:
...     print(exc)
invalid sight rules: size must be an integer from 3 to 9 (S1), got 10
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from antipolix.checks import is_plain_int
from antipolix.games.protocol import GameError, Option

UNLIMITED: Literal["unlimited"] = "unlimited"
MIN_SIZE, MAX_SIZE = 3, 9
MAX_HAND = 10**6  # pieces in a hand, at most (the compiled position holds it as an integer)
PRIORITIES = ("movable", "strict")
_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")

OPTIONS: tuple[Option, ...] = (
    Option("size", 5, "points per side of the board, 3 to 9 (house rule beyond 5)", "S1"),
    Option(
        "hand",
        UNLIMITED,
        "pieces each player starts with: 'unlimited' or an integer k >= 1 (house rule)",
        "S2",
    ),
    Option("pie", False, "Black may answer White's first piece with Swap (house rule)", "S4"),
    Option(
        "stack_priority",
        "movable",
        "which stacks may move: the highest of those that can ('movable'), or the highest "
        "only ('strict')",
        "S6",
        PRIORITIES,
    ),
    Option("players", 2, "always 2", "S2", (2,)),
)


@dataclass(frozen=True)
class SightConfig:
    """Sight's rule options with the contract's defaults (RULES-sight.md).

    ``size``: N, the board's points per side (S1). ``hand``: ``"unlimited"`` or the pieces each
    player starts with (S2). ``pie``: Swap at turn 2 (S4). ``stack_priority``: ``"movable"`` or
    ``"strict"`` (S6). ``players``: 2 (S2).
    """

    size: int = 5
    hand: int | Literal["unlimited"] = UNLIMITED
    pie: bool = False
    stack_priority: Literal["movable", "strict"] = "movable"
    players: int = 2

    def __post_init__(self) -> None:
        problems = self._problems()
        if problems:
            raise GameError("invalid sight rules: " + "; ".join(problems))

    def _problems(self) -> list[str]:
        out = []
        if not is_plain_int(self.size) or not MIN_SIZE <= self.size <= MAX_SIZE:
            out.append(
                f"size must be an integer from {MIN_SIZE} to {MAX_SIZE} (S1), got {self.size!r}"
            )
        if self.hand != UNLIMITED and not (is_plain_int(self.hand) and self.hand >= 1):
            out.append(f"hand must be 'unlimited' or an integer >= 1 (S2), got {self.hand!r}")
        elif self.hand != UNLIMITED and self.hand > MAX_HAND:
            out.append(f"hand must be 'unlimited' or at most {MAX_HAND:,} (S2), got {self.hand:,}")
        if not isinstance(self.pie, bool):
            out.append(f"pie must be true or false (S4), got {self.pie!r}")
        if self.stack_priority not in PRIORITIES:
            out.append(
                f"stack_priority must be 'movable' or 'strict' (S6), got {self.stack_priority!r}"
            )
        if not is_plain_int(self.players) or self.players != 2:
            out.append(f"players must be 2 (Sight is a two-player game, S2), got {self.players!r}")
        return out

    @property
    def points(self) -> int:
        """N², the points of the board (S1); no game lasts more turns (S7)."""
        return self.size * self.size

    @property
    def limited(self) -> bool:
        """Is the hand limited (S2)?"""
        return self.hand != UNLIMITED

    def with_options(self, **options: Any) -> SightConfig:
        """This configuration with ``options`` by name, validated; an unknown name raises."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise GameError(
                f"invalid sight rules: unknown option {unknown[0]!r} (options: "
                f"{', '.join(sorted(known))})"
            )
        return SightConfig(**{**asdict(self), **options})


def _bool_text(name: str, text: str) -> bool:
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise GameError(f"invalid sight rules: {name} must be on or off (true/false), got {text!r}")


def _int_text(name: str, text: str, allowed: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise GameError(f"invalid sight rules: {name} must be {allowed}, got {text!r}") from None


def value_from_text(name: str, text: str) -> Any:
    """One option's value from its ``--rule`` text (``size=7``, ``hand=unlimited``, ``pie=on``)."""
    if name == "size":
        return _int_text(name, text, f"an integer from {MIN_SIZE} to {MAX_SIZE} (S1)")
    if name == "players":
        return _int_text(name, text, "2 (S2)")
    if name == "hand":
        word = text.strip().lower()
        if word == UNLIMITED:
            return UNLIMITED
        return _int_text(name, text, "'unlimited' or an integer >= 1 (S2)")
    if name == "pie":
        return _bool_text(name, text)
    if name == "stack_priority":
        return text.strip().lower()
    names = ", ".join(o.name for o in OPTIONS)
    raise GameError(f"invalid sight rules: unknown option {name!r} (options: {names})")


def config_from_text(overrides: Mapping[str, str], base: SightConfig | None = None) -> SightConfig:
    """``base`` (the defaults when None) with options given as text, by name."""
    start = base if base is not None else SightConfig()
    values = {name: value_from_text(name, str(text)) for name, text in overrides.items()}
    return start.with_options(**values)


def config_to_dict(config: SightConfig) -> dict[str, Any]:
    """JSON-ready: every option by name."""
    return asdict(config)


def config_from_dict(data: Mapping[str, Any]) -> SightConfig:
    """Read :func:`config_to_dict` back (missing options keep their defaults)."""
    if not isinstance(data, Mapping):
        raise GameError(f"invalid sight rules: expected a JSON object of options, got {data!r}")
    return SightConfig().with_options(**dict(data))
