"""The progress of a batch, made on the first report: on a terminal or in a notebook a tqdm bar
(games done, games/s, ETA); elsewhere (a log file, a pipe) a plain line at most every ``every``
seconds and at the end, so that a long run started in the background shows how far it has got."""

from __future__ import annotations

import sys
from time import monotonic as _now
from typing import Any

EVERY = 60.0  # seconds between the plain lines


class Bar:
    """Called with (games done, games in all); ``note`` writes a line above the bar."""

    def __init__(self, every: float = EVERY) -> None:
        self._bar: Any = None
        self._lines: _Lines | None = None
        self._every = every

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None and self._lines is None:
            if _interactive():
                from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]

                self._bar = tqdm(
                    total=total, initial=done, unit="game", desc="games", smoothing=0.05
                )
            else:
                self._lines = _Lines(done, total, self._every)
        elif self._bar is not None:
            self._bar.update(done - self._bar.n)
        if self._lines is not None:
            self._lines.update(done, total)

    def note(self, text: str) -> None:
        """A line above the bar (stderr)."""
        if self._bar is None:
            print(text, file=sys.stderr, flush=True)
            return
        from tqdm.auto import tqdm

        tqdm.write(text, file=sys.stderr)

    def describe(self, text: str) -> None:
        if self._bar is not None:
            self._bar.set_description_str(text)
        elif self._lines is not None:
            self._lines.label = text

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self._lines is not None:
            self._lines.write(force=True)


def _interactive() -> bool:
    """Is there a terminal or a notebook to draw a bar in?"""
    import tqdm.auto  # type: ignore[import-untyped, unused-ignore]

    return sys.stderr.isatty() or tqdm.auto.notebook_tqdm is not tqdm.auto.std_tqdm


class _Lines:
    """Progress as plain lines on stderr: ``games: 120/960 (12 %), 0.18 games/s, about 78 min
    left``; the rate counts the games of this run only (a resumed folder's are done already)."""

    def __init__(self, done: int, total: int, every: float) -> None:
        self.label = "games"
        self.start, self.first = _now(), done
        self.done, self.total = done, total
        self.every = every
        self.last = -float("inf")
        self.written = -1

    def update(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self.write(force=done >= total)

    def write(self, force: bool = False) -> None:
        now = _now()
        if self.done == self.written or not (force or now - self.last >= self.every):
            return
        self.last, self.written = now, self.done
        print(_line(self.label, self.done, self.total, self.done - self.first, now - self.start),
              file=sys.stderr, flush=True)  # fmt: skip


def _line(label: str, done: int, total: int, played: int, seconds: float) -> str:
    """``label: done/total (share), rate, time left`` (the rate and time once any is played)."""
    share = 100 * done // total if total else 100
    text = f"{label}: {done}/{total} ({share} %)"
    if played > 0 and seconds > 0:
        rate = played / seconds
        text += f", {rate:.3g} games/s"
        if done < total:
            text += f", about {_duration((total - done) / rate)} left"
    return text


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
