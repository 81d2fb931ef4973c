"""Files the package writes: written whole or not at all, and study folders that only grow.

- :func:`write_atomically`: a file appears under its name only when complete (a temporary name
  beside it, flushed, then renamed), so a crash or Ctrl-C never leaves half a file (replays,
  study chunks and descriptions, players files, pictures).
- :func:`compare_studies`: a study folder is used again only for the same study, or for the same
  study with more games (it grows, never shrinks); anything else is refused with what differs.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, Literal

Writer = Callable[[IO[bytes]], object]


def write_atomically(path: str | Path, data: bytes | Writer, *, mode: int | None = None) -> None:
    """Write ``data`` (bytes, or a function that writes to a binary file) to ``path`` whole:
    through a temporary file in the same folder, flushed to disk and renamed. ``mode`` sets the
    file's permissions (default: as a new file, by the umask). Raises :class:`OSError`; nothing
    is left under either name on failure or interruption."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            if isinstance(data, bytes):
                out.write(data)
            else:
                data(out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, (0o666 & ~_umask()) if mode is None else mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def compare_studies(
    old: Mapping[str, Any], new: Mapping[str, Any], grows: str
) -> Literal["same", "grows", "shrinks"] | tuple[str, ...]:
    """How a study description ``new`` stands to the ``old`` one of a folder: ``"same"``;
    ``"grows"`` or ``"shrinks"`` (equal but for more, or fewer, ``grows``: games); or what
    differs, in words (a folder to refuse)."""
    if old == new:
        return "same"
    keys = sorted(set(old) | set(new))
    changed = [k for k in keys if old.get(k) != new.get(k)]
    had, want = old.get(grows), new.get(grows)
    if changed == [grows] and isinstance(had, int) and isinstance(want, int):
        return "grows" if had < want else "shrinks"
    return tuple(_difference(k, old.get(k), new.get(k)) for k in changed)


def _difference(key: str, was: Any, now: Any) -> str:
    if isinstance(was, (dict, list)) or isinstance(now, (dict, list)):
        return f"{key} differ"
    return f"{key}: {was!r} there, {now!r} now"
