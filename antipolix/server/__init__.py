"""The match server (``antipolix serve``): live games between people in browsers, programs in
any language and built-in agents, on the engine everything else uses.

- :mod:`~antipolix.server.protocol`: the frames and their checks (``docs/protocol.md``);
- :mod:`~antipolix.server.seats`: who sits where (``human``, ``bot``, a built-in agent);
- :mod:`~antipolix.server.tokens`: the secrets of seats, spectators and the host;
- :mod:`~antipolix.server.clock`: R7's clocks in real time;
- :mod:`~antipolix.server.agents`: built-in agents deciding off the event loop;
- :mod:`~antipolix.server.journal`: each game's journal (a restart loses nothing);
- :mod:`~antipolix.server.match`: one game in real time;
- :mod:`~antipolix.server.app`: the server (Starlette on uvicorn) and :func:`running`.

``antipolix`` never imports ``viz``: the browser client's pages come through the
``antipolix.web`` entry point.
"""

from antipolix.server.app import (
    Created,
    Limits,
    Running,
    Server,
    ServerConfig,
    ServerError,
    running,
)
from antipolix.server.match import Match, MatchSpec
from antipolix.server.protocol import PROTOCOL, ProtocolError
from antipolix.server.seats import SeatSpec, parse_seats

__all__ = [
    "PROTOCOL",
    "Created",
    "Limits",
    "Match",
    "MatchSpec",
    "ProtocolError",
    "Running",
    "SeatSpec",
    "Server",
    "ServerConfig",
    "ServerError",
    "parse_seats",
    "running",
]
