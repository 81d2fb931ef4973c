"""The browser client of the match server (``antipolix serve``): a page that plays a seat.

The page is the replay page's renderer (``viz/web/replay.js``: the same three.js scene, colours,
modes and fog view) fed live: ``viz/web/play.js`` speaks the server's protocol over a WebSocket
(``docs/protocol.md``), turns each observation (exactly ``Game.observe`` of its seat, R6) into
the replay page's turn data and appends it, and adds what a player needs: an army within the
budget placed in the home zone (R3), own pieces to select and the legal targets of a move or an
attack highlighted (R4, R5), messages and QUIT / NUL / WAR (R9), every player's timer running
(R7), the turn's events in words, the end and the result (then the truth).

``antipolix`` never imports ``viz``: the server finds these files through the ``antipolix.web``
entry point (``pyproject.toml``), :func:`web_files`. No build step: plain scripts, three.js
vendored (``viz/web/vendor``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from viz.html import LINE_KINDS, MARK_KINDS
from viz.palette import PALETTE, TONES

SCRIPT = "application/javascript; charset=utf-8"
FILES = {  # name served under /web/ -> (file of viz/web, media type)
    "three.min.js": ("vendor/three.min.js", SCRIPT),
    "replay.js": ("replay.js", SCRIPT),
    "play.js": ("play.js", SCRIPT),
    "page.css": ("page.css", "text/css; charset=utf-8"),
    "play.css": ("play.css", "text/css; charset=utf-8"),
}
CONFIG_MARK = "/*APX:CONFIG*/"


def _read(name: str) -> bytes:
    return (resources.files("viz") / "web" / name).read_bytes()


def page_config() -> dict[str, object]:
    """What the page draws with, as the replay page does (:func:`viz.html.page_data`)."""
    return {
        "palette": list(PALETTE),
        "tones": dict(TONES),
        "line_kinds": list(LINE_KINDS),
        "mark_kinds": list(MARK_KINDS),
    }


@cache
def web_files() -> dict[str, tuple[str, bytes]]:
    """The page (``play.html``) and its files, by the name the server serves them under:
    ``{name: (media type, bytes)}``."""
    page = _read("play.html").decode("utf-8")
    if page.count(CONFIG_MARK) != 1:
        raise RuntimeError(f"viz/web/play.html must hold {CONFIG_MARK} exactly once")
    config = json.dumps(page_config(), separators=(",", ":")).replace("</", "<\\/")
    page = page.replace(CONFIG_MARK, config)
    out = {"play.html": ("text/html; charset=utf-8", page.encode("utf-8"))}
    for name, (path, kind) in FILES.items():
        out[name] = (kind, _read(path))
    return out


__all__ = ["web_files"]
