"""The progress of a batch, made on the first report: on a terminal or in a notebook a tqdm bar
(games done, games/s, ETA); elsewhere (a log file, a pipe) a plain line at most every ``every``
seconds and at the end, so that a long run started in the background shows how far it has got.
The time left is the games left over the games per second of the run, or, given a
:class:`TimeLeft`, the cost of each study's games left as its games played so far have cost."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from time import monotonic as _now
from typing import Any

EVERY = 60.0  # seconds between the plain lines
# tqdm's bar without its own time left (the rate's), which a TimeLeft replaces in the postfix
BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}, {rate_fmt}{postfix}]"


class TimeLeft:
    """The time left of a run of studies whose games differ in cost (a tournament's lineups: a
    game with a search agent costs a thousand of two greedy agents'): each study's games left at
    the mean seconds of play of its games played in this run (of all those played, for a study
    with none played yet), over the seconds of play the run gets through a second (counted
    from :meth:`start` to the last chunk played), less the time since that chunk. ``None``
    until a chunk has been played."""

    def __init__(self, left: Sequence[int]) -> None:
        self.left = list(left)  # games left, by study
        self.games = [0] * len(self.left)  # games played in this run, by study ...
        self.seconds = [0.0] * len(self.left)  # ... and their seconds of play
        self.began = _now()
        self.at: float | None = None  # when the last chunk was counted

    def start(self) -> None:
        """The games begin now (after the set-up: compiling, starting Ray)."""
        self.began = _now()

    def played(self, study: int, games: int, seconds: float) -> None:
        """A chunk of ``games`` games of study ``study`` took ``seconds`` of play in all."""
        self.left[study] -= games
        self.games[study] += games
        self.seconds[study] += seconds
        self.at = _now()

    def __call__(self) -> float | None:
        games, seconds = sum(self.games), sum(self.seconds)
        if self.at is None or games == 0 or seconds <= 0 or self.at <= self.began:
            return None
        mean = seconds / games
        work = sum(
            n * (s / g if g else mean)
            for n, g, s in zip(self.left, self.games, self.seconds, strict=True)
        )
        pace = seconds / (self.at - self.began)  # seconds of play a second: about the workers
        return max(work / pace - (_now() - self.at), 0.0)


class Bar:
    """Called with (games done, games in all); ``note`` writes a line above the bar. The time
    left comes from ``left`` when given (see :class:`TimeLeft`), else from the rate. ``unit``:
    what is counted (``"frame"`` for a film's frames)."""

    def __init__(
        self,
        every: float = EVERY,
        left: Callable[[], float | None] | None = None,
        unit: str = "game",
    ) -> None:
        self._bar: Any = None
        self._lines: _Lines | None = None
        self._every = every
        self._left = left
        self.unit = unit
        self.label = unit + "s"  # what the bar says it is doing (describe)

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None and self._lines is None:
            if _interactive():
                from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]

                self._bar = tqdm(
                    total=total,
                    initial=done,
                    unit=self.unit,
                    desc=self.label,
                    smoothing=0.05,
                    bar_format=None if self._left is None else BAR_FORMAT,
                )
            else:
                self._lines = _Lines(done, total, self._every, self._left, self.unit)
        elif self._bar is not None:
            self._bar.update(done - self._bar.n)
        if self._bar is not None and self._left is not None:
            left = self._left() if done < total else None
            self._bar.set_postfix_str("" if left is None else f"about {_duration(left)} left")
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
        """What the run is doing now: ``games``, or a set-up step (``compiling the core``)."""
        self.label = text
        if self._bar is not None:
            self._bar.set_description_str(text)
        elif self._lines is not None:
            self._lines.label = text

    def begin(self) -> None:
        """The games begin now: the rate counts from here, not from the set-up (compiling the
        core, starting Ray), which once left a log at 0.0107 games/s for a run of 0.5."""
        if self._bar is not None:
            self._bar.unpause()  # tqdm: its clock restarts from the last print
        elif self._lines is not None:
            self._lines.start, self._lines.first = _now(), self._lines.done

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

    def __init__(
        self,
        done: int,
        total: int,
        every: float,
        left: Callable[[], float | None] | None = None,
        unit: str = "game",
    ) -> None:
        self.unit = unit
        self.label = unit + "s"
        self.left = left
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
        played, seconds = self.done - self.first, now - self.start
        if self.done >= self.total:
            left = None
        elif self.left is not None:
            left = self.left()
        else:
            left = (self.total - self.done) * seconds / played if played and seconds else None
        print(_line(self.label, self.done, self.total, played, seconds, left, self.unit),
              file=sys.stderr, flush=True)  # fmt: skip


def _line(
    label: str,
    done: int,
    total: int,
    played: int,
    seconds: float,
    left: float | None,
    unit: str = "game",
) -> str:
    """``label: done/total (share), rate, time left``: the rate once any game (``unit``) is
    played, the time left when known."""
    share = 100 * done // total if total else 100
    text = f"{label}: {done}/{total} ({share} %)"
    if played > 0 and seconds > 0:
        text += f", {played / seconds:.3g} {unit}s/s"
    if left is not None:
        text += f", about {_duration(left)} left"
    return text


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
