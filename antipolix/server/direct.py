"""The direct path of the match server's WebSockets: a client's frames reach its session as they
are parsed, without the ASGI round trip of every message.

uvicorn hands each WebSocket message to the ASGI application through a queue: the connection's
task is resumed through the whole application (uvicorn's and Starlette's middleware, the router,
the route: about ten coroutine frames), and reading is paused until the message is taken and
resumed after (two ``epoll_ctl`` calls a message). A game of bots answering at once plays
hundreds of turns a second, each of them a few messages a seat, and this round trip was about a
tenth of the server's time. The protocol of :func:`protocol_class` is uvicorn's own WebSocket
protocol (websockets' sans-I/O ``ServerProtocol``) with one change: once the application has
taken the connection (after the client's hello), each complete message is given to the
application's handler in the call that parsed it. Everything else (the HTTP upgrade and its
ASGI route, the size limit of a message, pings, the closing handshake, flow control, the
server's shutdown) is uvicorn's, unchanged. Frames go out as the protocol's ASGI ``send`` writes
them: while the connection is open and its transport takes them at once (``send_now``), without
its coroutine and websockets' frame objects (the same bytes: :func:`text_frame`); through that
``send`` otherwise.

It relies on how uvicorn's ``websockets-sansio`` protocol hands a message over (its method
``send_receive_event_to_app`` and the fields it reads), so it is used only with the uvicorn
versions it was checked with (:data:`CHECKED`): with any other, the server keeps uvicorn's own
protocol and every message takes the ASGI path, as before (the same frames, only slower).
``tests/test_serve.py`` checks that the installed uvicorn takes the direct path.
"""

from __future__ import annotations

import asyncio
import functools
import struct
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

# the uvicorn versions the direct path was checked with (its tests pass, and the parts of
# uvicorn's websockets-sansio protocol it relies on were read): 0.54
CHECKED = ((0, 54, 0), (0, 54, 99))
EXTENSION = "antipolix.direct"  # the key of the protocol in the ASGI scope's extensions

Handler = Callable[[str | bytes], None]
_HEAD16, _HEAD64 = struct.Struct("!BBH"), struct.Struct("!BBQ")  # a frame's head (RFC 6455 5.2)


def text_frame(data: bytes) -> bytes:
    """The WebSocket frame of a whole text message from a server, as websockets makes it
    without extensions (RFC 6455 5.2: FIN and the text opcode, no mask, the length in 7, 16 or
    64 bits, the UTF-8 text), without making its objects."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return _HEAD16.pack(0x81, 126, n) + data
    return _HEAD64.pack(0x81, 127, n) + data


def _version(text: str) -> tuple[int, ...]:
    parts = []
    for part in text.split(".")[:3]:
        digits = "".join(c for c in part if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


@functools.cache
def protocol_class() -> type[asyncio.Protocol] | None:
    """The direct protocol, for ``uvicorn.Config(ws=...)``; None if the installed uvicorn is
    not one it was checked with (then uvicorn's own protocol serves, and every message takes
    the ASGI path)."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
        from websockets.exceptions import InvalidState
        from websockets.protocol import State
    except ImportError:
        return None
    low, high = CHECKED
    if not low <= _version(version("uvicorn")) <= high:
        return None
    needed = ("send_receive_event_to_app", "handle_connect", "send", "receive")
    if not all(callable(getattr(WebSocketsSansIOProtocol, n, None)) for n in needed):
        return None

    class DirectProtocol(WebSocketsSansIOProtocol):
        """uvicorn's WebSocket protocol, whose messages go straight to a handler once the
        application has taken the connection (see the module docstring)."""

        handler: Handler | None = None

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None and not self.close_sent:  # (an upgrade going on)
                scope["extensions"][EXTENSION] = self

        def take(self, handler: Handler) -> bool:
            """From now on, give each message of this connection to ``handler`` as it is
            parsed. The messages already waiting for the application go to it first, in
            order. Returns False if the connection ended meanwhile (a disconnect waits)."""
            queue: asyncio.Queue[Any] = self.queue
            while not queue.empty():
                message = queue.get_nowait()
                if message["type"] != "websocket.receive":
                    queue.put_nowait(message)  # (the disconnect, for the application's receive)
                    return False
                text = message.get("text")
                handler(text if text is not None else message.get("bytes") or b"")
            self.handler = handler
            if self.read_paused:  # (paused for the messages just taken)
                self.read_paused = False
                self.transport.resume_reading()
            return True

        def send_receive_event_to_app(self) -> None:
            handler = self.handler
            if handler is None or self.close_sent or not self.queue.empty():
                super().send_receive_event_to_app()  # (the ASGI path: before, or after a close)
                return
            data = b"".join(self.frames)
            if self.curr_msg_data_type == "text":
                try:
                    text = str(data, "utf-8")
                except UnicodeDecodeError:  # (uvicorn closes the connection: 1007)
                    super().send_receive_event_to_app()
                    return
                self.frames = []
                handler(text)
            else:
                self.frames = []
                handler(data)

        def send_text(self, text: str) -> Any:
            """The ASGI ``send`` of one text message (a coroutine: it ends at once unless the
            transport makes it wait for room)."""
            return self.send({"type": "websocket.send", "text": text})

        def send_now(self, text: str) -> bool:
            """Write one text message to the transport now, as the ASGI ``send`` of an open
            connection whose transport takes it without waiting does (the usual case), without
            making a coroutine and an ASGI message; False, with nothing done, in every other
            case (the transport makes the sender wait, the connection closes or has closed):
            then :meth:`send_text` sends it, or says why not."""
            if (
                not self.writable.is_set()
                or self.disconnected
                or not self.handshake_complete
                or self.close_sent
                or self.initial_response is not None
            ):
                return False
            conn = self.conn
            data = text.encode()
            if (
                conn.state is State.OPEN
                and not conn.extensions
                and not conn.writes
                and getattr(conn, "expect_continuation_frame", True) is False
            ):
                self.transport.write(text_frame(data))  # (what websockets would write)
                return True
            try:
                conn.send_text(data)
            except InvalidState:
                return False
            self.transport.write(b"".join(conn.data_to_send()))
            return True

    return DirectProtocol
