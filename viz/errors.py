"""Errors of the viewer: bad view options, unwritable outputs, no display.

All are :class:`antipolix.errors.AntipolixError` subclasses (so ``ValueError``), so
``antipolix view`` reports them as ``antipolix: error: ...`` with exit code 2, like the engine's
own errors. A missing or corrupt replay, or a turn outside it, is the engine's
:class:`antipolix.errors.ReplayError`.
"""

from __future__ import annotations

from antipolix.errors import AntipolixError


class ViewError(AntipolixError):
    """A view option, output file or environment the viewer cannot work with."""
