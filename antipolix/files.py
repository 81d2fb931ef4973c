"""Files the package writes: written whole or not at all, and study folders that only grow.

- :func:`write_atomically`: a file appears under its name only when complete (a temporary name
  beside it, flushed, then renamed), so a crash or Ctrl-C never leaves half a file (replays,
  study chunks and descriptions, players files, pictures).
- :func:`locked_folder`: a study folder is written by one run at a time (a lock file held
  while the run lasts), and the temporary files of a run that was killed are swept away.
- :func:`compare_studies`: a study folder is used again only for the same study, or for the same
  study with more games (it grows, never shrinks); anything else is refused with what differs.
- :func:`read_json` and :func:`read_json_lines`: a study's description and its log read back,
  a file that cannot be read refused with ``error(message)``; :func:`json_file` and
  :func:`text_file` (read as bounded streams) and :func:`parse_json` beneath them, for every
  file a user may hand the program: whatever it holds ends in ``ValueError`` or ``OSError``
  with a message, never in another exception or in memory spent without bound.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, Literal

Writer = Callable[[IO[bytes]], object]

MAX_TEXT_BYTES = 256 * 2**20  # the largest description, log or rules file read (bytes)


def check_creatable(path: Path, error: Callable[[str], Exception]) -> None:
    """Raise ``error(message)`` unless the folder ``path`` (which does not exist yet) can be
    created: its nearest existing ancestor is a writable folder."""
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise error(f"cannot create {path}: {parent} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise error(f"cannot create {path}: {parent} is not writable")


def refuse_other_files(folder: Path, error: Callable[[str], Exception], kind: str) -> None:
    """Raise ``error(message)`` if ``folder`` (which holds no ``kind``) holds anything but
    hidden files: a folder is taken over only when empty."""
    others = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    if others:
        raise error(
            f"{folder} is not empty and holds no {kind} (it holds {others[0]}"
            f"{' and more' if len(others) > 1 else ''}); use a new folder"
        )


def locked_folder(folder: Path, error: Callable[[str], Exception], what: str) -> IO[bytes]:
    """Create ``folder``, lock it against a second run (POSIX ``flock``; no lock elsewhere)
    and sweep the temporary files a killed run left (:func:`write_atomically`'s). Returns the
    lock file: the lock holds until it is closed. Raises ``error(message)`` when the folder
    cannot be written (``what`` says what was to be written there) or another run holds it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / ".lock", "ab")  # noqa: SIM115 (held until closed)
    except OSError as exc:
        raise error(f"cannot write {what} to {folder}: {exc}") from None
    try:
        import fcntl

        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # pragma: no cover (not POSIX: no lock)
        pass
    except OSError:
        lock.close()
        raise error(
            f"another run is writing to {folder}; wait for it or use another folder"
        ) from None
    for stale in folder.glob(".*.tmp"):  # a run killed while writing
        stale.unlink(missing_ok=True)
    return lock


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
    differs, in words (a folder to refuse). The count ``grows`` is not among those words: a
    study may grow, so a count told beside a changed seed would read as part of the refusal."""
    if old == new:
        return "same"
    keys = sorted(set(old) | set(new))
    changed = [k for k in keys if old.get(k) != new.get(k)]
    had, want = old.get(grows), new.get(grows)
    if isinstance(had, int) and isinstance(want, int):
        if changed == [grows]:
            return "grows" if had < want else "shrinks"
        changed = [k for k in changed if k != grows]
    return tuple(_difference(k, old.get(k), new.get(k)) for k in changed)


def text_file(path: str | Path, limit: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of ``path``, read as a bounded stream: ``OSError`` when it cannot be
    read, ``ValueError`` when it holds more than ``limit`` bytes or is not UTF-8."""
    with open(path, "rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"it is larger than {limit:,} bytes")
    return data.decode("utf-8")  # (UnicodeDecodeError is a ValueError)


def parse_json(text: str | bytes) -> Any:
    """``json.loads(text)``, refusing whatever is not JSON it can hold with a ``ValueError``
    that says why: the standard library also raises ``RecursionError`` for arrays nested
    thousands deep and a bare ``ValueError`` for an integer of more digits than Python converts
    (``sys.get_int_max_str_digits``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise ValueError("its JSON is nested too deeply") from None
    except ValueError:  # (UnicodeDecodeError of bytes, or an integer too long to convert)
        if isinstance(text, bytes):
            try:
                text.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError("it is not UTF-8 text") from None
        raise ValueError(
            f"it holds an integer of more than {sys.get_int_max_str_digits():,} digits"
        ) from None


def json_file(path: str | Path, limit: int = MAX_TEXT_BYTES) -> Any:
    """The JSON value in ``path`` (:func:`text_file`, :func:`parse_json`): ``OSError`` when it
    cannot be read, ``ValueError`` with a message when it is not JSON, not UTF-8 or too large."""
    return parse_json(text_file(path, limit))


def read_json(path: Path, error: Callable[[str], Exception]) -> Any:
    """The JSON value in ``path``; raise ``error(message)`` when the file cannot be read or is
    not JSON."""
    try:
        return json_file(path)
    except (OSError, ValueError) as exc:
        raise error(f"{path} cannot be read: {exc}") from None


def read_json_lines(path: Path, error: Callable[[str], Exception]) -> list[Any]:
    """The lines of a log of JSON lines, each as its JSON value (None for a line that is not
    JSON: the caller refuses it with its number); none when ``path`` does not exist. Raise
    ``error(message)`` when the file cannot be read."""
    if not path.exists():
        return []
    try:
        lines = text_file(path).splitlines()
    except (OSError, ValueError) as exc:
        raise error(f"{path} cannot be read: {exc}") from None
    out = []
    for text in lines:
        try:
            out.append(parse_json(text))
        except ValueError:
            out.append(None)
    return out


def _difference(key: str, was: Any, now: Any) -> str:
    if isinstance(was, (dict, list)) or isinstance(now, (dict, list)):
        return f"{key} differ"
    return f"{key}: {was!r} there, {now!r} now"
