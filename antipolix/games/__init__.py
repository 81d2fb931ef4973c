"""The games the platform hosts, by name, each behind :mod:`antipolix.games.protocol`.

Each game lives in its own package, ``antipolix.games.<name>``, which exports its
:class:`~antipolix.games.protocol.GameDef` as ``GAME``. Games are imported when first asked
for, so that ``import antipolix`` compiles no other game's kernels.

>>> sorted(names())
['antipolix', 'sight']
"""

from __future__ import annotations

import importlib
from typing import Any

from antipolix.games.protocol import GameError

DEFAULT = "antipolix"

# name → module holding GAME (imported lazily)
REGISTRY: dict[str, str] = {
    "antipolix": "antipolix.games.antipolix",
    "sight": "antipolix.games.sight",
}


def names() -> tuple[str, ...]:
    """The registered games' names."""
    return tuple(REGISTRY)


def game(name: str = DEFAULT) -> Any:
    """The :class:`~antipolix.games.protocol.GameDef` registered as ``name``; an unknown name
    raises :class:`GameError` listing the games."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in REGISTRY:
        raise GameError(f"unknown game {name!r} (games: {', '.join(sorted(REGISTRY))})")
    return importlib.import_module(REGISTRY[key]).GAME


__all__ = ["DEFAULT", "REGISTRY", "GameError", "game", "names"]
