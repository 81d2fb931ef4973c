"""The engine's version: replays, studies and ``antipolix --version`` record it (kept in step
with ``pyproject.toml``)."""

__version__ = "0.2.0"
