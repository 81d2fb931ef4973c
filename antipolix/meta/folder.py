"""A study folder of the meta package (a proposal, a comparison): its description file, and
the refusal of a folder that holds anything else, before anything is written."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from antipolix.errors import AntipolixError
from antipolix.files import (
    check_creatable,
    json_file,
    locked_folder,
    refuse_other_files,
    write_atomically,
)
from antipolix.meta.armies import MetaError


def check_folder(folder: Path, spec: dict[str, Any], name: str, what: str) -> None:
    """Refuse, writing nothing, a ``folder`` that holds anything but this ``what`` (described
    by ``spec`` in its file ``name``): another study, other settings, other files."""
    if folder.exists() and not folder.is_dir():
        raise MetaError(f"cannot use {folder} for a {what}: it is not a folder")
    if not folder.exists():
        check_creatable(folder, MetaError)
        return
    path = folder / name
    if path.exists():
        try:
            old = json_file(path)
        except (OSError, ValueError) as exc:
            raise MetaError(f"{path} cannot be read: {exc}") from None
        if not isinstance(old, dict) or old.get("format") != spec["format"]:
            raise MetaError(f"{path} is not a {what}'s description")
        if old != spec:
            keys = sorted(k for k in set(old) | set(spec) if old.get(k) != spec.get(k))
            raise MetaError(
                f"{folder} holds a {what} with other settings ({', '.join(keys)} differ); use "
                "another folder, or delete it to start again"
            )
    else:
        refuse_other_files(folder, MetaError, what)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise MetaError(f"cannot write to {folder}: permission denied")


@contextlib.contextmanager
def opened(folder: Path, spec: dict[str, Any], name: str, what: str) -> Iterator[None]:
    """The folder, created and locked against a second run, with its description written."""
    lock = locked_folder(folder, MetaError, f"a {what}")
    try:
        write_atomically(folder / name, (json.dumps(spec, indent=1) + "\n").encode())
        yield
    finally:
        lock.close()


@contextlib.contextmanager
def ray_once(workers: int | None) -> Iterator[None]:
    """Ray started (or joined) once for a study of many parts, each of which would otherwise
    start and stop its own; shut down at the end if started here. Nothing with ``workers`` 0
    (every part plays in this process)."""
    started = False
    if workers != 0:
        try:
            import ray
        except ImportError:  # the parts play in this process and say so
            yield
            return
        from antipolix.runner.on_ray import connect

        try:
            started = connect(None, workers)
        except AntipolixError as exc:
            raise MetaError(str(exc)) from None
    try:
        yield
    finally:
        if started:
            import ray

            ray.shutdown()


def as_json(data: Any) -> Any:
    """``data`` as JSON reads it back (what a folder's description is compared with)."""
    return json.loads(json.dumps(data, default=str))


__all__ = ["as_json", "check_folder", "opened", "ray_once"]
