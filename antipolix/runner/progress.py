"""The progress bar of a batch (tqdm: games done, games/s, ETA), made on the first report."""

from __future__ import annotations

import sys
from typing import Any


class Bar:
    """Called with (games done, games in all); ``note`` writes a line above the bar."""

    def __init__(self) -> None:
        self._bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]

            self._bar = tqdm(
                total=total, initial=done, unit="game", desc="games", smoothing=0.05, disable=None
            )
        else:
            self._bar.update(done - self._bar.n)

    def note(self, text: str) -> None:
        """A line above the bar (stderr)."""
        from tqdm.auto import tqdm

        tqdm.write(text, file=sys.stderr)

    def describe(self, text: str) -> None:
        if self._bar is not None:
            self._bar.set_description_str(text)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
