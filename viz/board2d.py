"""2D games in the viewer: the replay page (SVG, no server) and the data it draws, from the game's
own :class:`~antipolix.games.protocol.Scene2D` of each turn. No VTK here.

Every 2D game is drawn alike: a game's ``scene(state, seat)`` gives the marks of a position
(segments and points of the board, pieces with labels, rings and arrows for the last action),
and this module draws them; the game's scene module imports no renderer. The page has the 3D
page's look and controls where they apply (``viz/web/page.css``): a turn slider with first,
previous, play/pause, next and last, the speed, the legend of players, each turn's actions in
words, "seen by" for games of hidden information, and the same keys (space, ← →, Home, End).

>>> from antipolix.games import replays                                  # doctest: +SKIP
>>> save_html_2d(replays.load("sight.apx.json.gz"), "sight.html")          # doctest: +SKIP
PosixPath('sight.html')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from antipolix.games import host, replays
from antipolix.games.protocol import Scene2D
from antipolix.games.replays import GameReplay
from antipolix.version import __version__
from viz.errors import ViewError
from viz.html import (
    DATA_MARK,
    HTML_SUFFIXES,
    SCRIPT_MARK,
    STYLE_MARK,
    TITLE_MARK,
    escape_html,
    escape_script,
    filled_page,
    web_file,
)
from viz.outputs import check_output, written_atomically
from viz.palette import player_colour

PAGE_FORMAT = "antipolix-page-2d"
PAGE_VERSION = 1


def check_2d(replay: Any) -> GameReplay:
    """``replay`` if it is a replay of a 2D game, else a :class:`ViewError` saying why."""
    if not isinstance(replay, GameReplay) or not replay.game.info.flat:
        raise ViewError(f"{getattr(replay, 'path', replay)} is not a replay of a 2D game")
    if getattr(replay.game, "scene", None) is None:
        raise ViewError(f"{replay.game.info.name} has no 2D scene to draw")
    return replay


def check_seat(replay: GameReplay, fog: int | None) -> int | None:
    players = int(replay.config.players)
    bad = isinstance(fog, bool) or not isinstance(fog, int) or not 0 <= fog < players
    if fog is not None and bad:
        raise ViewError(f"there is no player {fog!r} (players are 0..{players - 1})")
    return fog


def check_turn_2d(replay: GameReplay, turn: object) -> int:
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= replay.last_turn:
        raise ViewError(
            f"turn {turn!r} is outside this replay (turns 0 to {replay.last_turn}; 0 is the start)"
        )
    return turn


def scene_at(replay: GameReplay, turn: int, fog: int | None = None) -> Scene2D:
    """The game's own 2D scene of the position after ``turn`` turns, the truth or what seat
    ``fog`` may know."""
    scene: Scene2D = replay.game.scene(replay.state_at(turn), fog)  # type: ignore[attr-defined]
    return scene


def seat_colour(scene: Scene2D, seat: int) -> str:
    """Seat ``seat``'s colour in ``scene``: its side's, when the game names the sides' colours
    (Sight's White and Black), else the platform's palette."""
    return scene.colours[seat] if scene.colours else player_colour(seat)


def marks_data(scene: Scene2D) -> list[list[Any]]:
    """A scene's marks, compact: ``[kind, x, y, x2, y2, seat, label, size]`` (no second point:
    nulls; the board's ink: seat null)."""
    out = []
    for m in scene.marks:
        to = m.to if m.to is not None else (None, None)
        out.append([m.kind, m.at[0], m.at[1], to[0], to[1], m.seat, m.label, m.size])
    return out


def page_data(replay: GameReplay, fogs: Sequence[int | None], turn: int = 0) -> dict[str, Any]:
    """Everything the page draws: per view (the truth, or what a seat may know), per turn, the
    marks and the caption; per turn, the actions in words."""
    game = replay.game
    players = int(replay.config.players)
    first = scene_at(replay, 0)
    views = []
    for fog in fogs:
        turns = []
        for t in range(replay.last_turn + 1):
            scene = scene_at(replay, t, fog)
            step: dict[str, Any] = {"marks": marks_data(scene), "caption": scene.caption}
            if scene.colours:  # the sides' colours the game names (see Scene2D)
                step["colours"] = list(scene.colours)
            turns.append(step)
        views.append({"seat": fog, "turns": turns})
    actions: list[list[list[Any]]] = [[]] + [
        [[seat, text] for seat, text in replay.texts(t)] for t in range(1, replay.last_turn + 1)
    ]
    outcome = replay.result
    return {
        "format": PAGE_FORMAT,
        "version": PAGE_VERSION,
        "engine": __version__,
        "game": game.info.name,
        "title": game.info.title,
        "rules": " ".join(host.overrides(game, replay.config)) or "the defaults",
        "width": first.width,
        "height": first.height,
        "last_turn": replay.last_turn,
        "players": [
            {"seat": s, "agent": replay.agents[s], "colour": seat_colour(first, s)}
            for s in range(players)
        ],
        "places": list(outcome.places),
        "result": outcome.reason,
        "winner": outcome.winner,
        "actions": actions,
        "views": views,
        "start": {"turn": turn, "view": 0},
    }


def page_html(replay: GameReplay, *, turn: int | None = None, fog: int | None = None) -> str:
    """The replay page of a 2D game as text (see :func:`save_html_2d`)."""
    check_2d(replay)
    check_seat(replay, fog)
    first = check_turn_2d(replay, 0 if turn is None else turn)
    players = int(replay.config.players)
    hidden = not replay.game.info.perfect_information
    fogs: list[int | None] = [fog] if fog is not None else [None]
    if fog is None and hidden:
        fogs += list(range(players))
    data = json.dumps(page_data(replay, fogs, first), ensure_ascii=False, separators=(",", ":"))
    agents = ", ".join(replay.agents)
    title = f"{replay.game.info.title} replay · {agents} · {replay.last_turn} turns"
    return filled_page(
        "board.html",
        (
            (TITLE_MARK, escape_html(title)),
            (STYLE_MARK, web_file("page.css")),
            (DATA_MARK, escape_script(data)),
            (SCRIPT_MARK, escape_script(web_file("board.js"))),
        ),
    )


def save_html_2d(
    replay: GameReplay | str | Path,
    path: str | Path,
    *,
    turn: int | None = None,
    fog: int | None = None,
) -> Path:
    """Write the replay page of a 2D game to ``path`` (a ``.html`` file): an SVG board, the
    turn slider and play/pause, the legend, each turn's actions in words; with ``fog`` only
    what that seat may know (a game of hidden information), else the truth and, for such a
    game, every seat's view. Written whole or not at all; returns the path."""
    out = check_output(path, HTML_SUFFIXES, "HTML")
    rp = _loaded(replay)
    text = page_html(rp, turn=turn, fog=fog)
    with written_atomically(out) as tmp:
        tmp.write_bytes(text.encode("utf-8"))
    return out


def read_page_data(path: str | Path) -> dict[str, Any]:
    """The data inside a page written by :func:`save_html_2d` (for tests and tools)."""
    text = Path(path).read_text(encoding="utf-8")
    start = text.find('id="apx-data"')
    if start < 0:
        raise ViewError(f"{path} is not an antipolix replay page")
    body = text[text.index(">", start) + 1 : text.index("</script>", start)]
    data: dict[str, Any] = json.loads(body.replace("<\\/", "</"))
    if data.get("format") != PAGE_FORMAT:
        raise ViewError(f"{path} is not a 2D replay page")
    return data


def _loaded(replay: GameReplay | str | Path) -> GameReplay:
    rp = replays.load(replay) if isinstance(replay, (str, Path)) else replay
    return check_2d(rp)


__all__ = [
    "PAGE_FORMAT",
    "page_data",
    "page_html",
    "read_page_data",
    "save_html_2d",
    "scene_at",
    "seat_colour",
]
