"""Checks of what the viewer is asked to write or open, before any rendering starts: output
files, window sizes, turn ranges. No VTK here (the command line imports this at start-up)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from viz.errors import ViewError

DEFAULT_SIZE = (1280, 800)  # pixels; a multiple of 16 both ways (H.264 friendly)
MAX_FRAMES_PER_TURN = 60  # a film's frames per turn, at most (a second a turn at 60 fps)


def check_output(path: str | Path, suffixes: tuple[str, ...], what: str) -> Path:
    """``path`` if a ``what`` file can be written there (suffix, folder), else a ViewError."""
    out = Path(path)
    if out.suffix.lower() not in suffixes:
        raise ViewError(f"{what} file {out} must end in {' or '.join(suffixes)}")
    if out.is_dir():
        raise ViewError(f"{what} path {out} is a folder, not a file")
    if not out.parent.is_dir():
        raise ViewError(f"cannot write {out}: folder {out.parent} does not exist")
    if not os.access(out.parent, os.W_OK | os.X_OK):
        raise ViewError(f"cannot write {out}: folder {out.parent} is not writable")
    return out


@contextlib.contextmanager
def written_atomically(path: Path) -> Iterator[Path]:
    """A temporary file beside ``path`` (same suffix, so encoders pick the same format) for the
    block to write; renamed to ``path`` when the block ends, removed if it fails or is
    interrupted (Ctrl-C), so ``path`` is either the whole picture or film or absent. A file
    that cannot be written is a :class:`ViewError` naming it."""
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix}")
    try:
        open(tmp, "wb").close()  # a folder that cannot take the file fails here, before work
    except OSError as exc:
        raise ViewError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        raise ViewError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def check_size(size: object) -> tuple[int, int]:
    """A window size ``(width, height)`` in pixels, each 64 to 8192."""
    try:
        w, h = (int(v) for v in size)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise ViewError(f"a window size is two integers (width, height), got {size!r}") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise ViewError(f"window size {w}×{h} must be between 64 and 8192 pixels each way")
    return w, h


def parse_size(text: str) -> tuple[int, int]:
    """``"1280,800"`` or ``"1280x800"`` → ``(1280, 800)``."""
    parts = text.lower().replace("x", ",").replace("×", ",").split(",")
    try:
        return check_size([int(p) for p in parts]) if len(parts) == 2 else check_size(parts)
    except ValueError:
        raise ViewError(f"a window size is W,H in pixels like 1280,800, got {text!r}") from None


def parse_turns(text: str) -> tuple[int, int]:
    """``"10:40"`` → ``(10, 40)`` (inclusive); ``"10:"`` and ``":40"`` leave an end open (-1)."""
    first, sep, last = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return (int(first) if first else 0, int(last) if last else -1)
    except ValueError:
        raise ViewError(f"turns are FIRST:LAST like 0:60 (inclusive), got {text!r}") from None


def parse_boards(text: str) -> tuple[int, ...]:
    """``"0,3,7"`` → ``(0, 3, 7)``."""
    try:
        return tuple(int(t) for t in text.split(","))
    except ValueError:
        raise ViewError(f"boards are comma-separated integers like 0,3,7, got {text!r}") from None
