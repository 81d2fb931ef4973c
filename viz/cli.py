"""``antipolix view REPLAY``: the 3D replay viewer, or offscreen pictures and films of a replay.

Registered through the ``antipolix.commands`` entry point (``pyproject.toml``), so ``antipolix``
never imports ``viz`` by name. This module imports no VTK: the ``antipolix`` command loads it at
every start, and PyVista is imported only when something is drawn.

    antipolix view game.apx.json.gz                                   # the window
    antipolix view game.apx.json.gz --turn 40 --png t40.png           # one picture
    antipolix view game.apx.json.gz --mode boards --boards 2,3,4 --fog 1 --png seen.png
    antipolix view game.apx.json.gz --turns 0:60 --frames-per-turn 3 --fps 6 --mp4 game.mp4
    antipolix view game.apx.json.gz --html game.html                  # a page for any browser
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from antipolix.cli.common import add_game_option
from antipolix.games import DEFAULT, replays
from antipolix.replay import Replay, load_replay
from viz._env import has_display
from viz.board2d import check_2d, check_seat, check_turn_2d, save_html_2d
from viz.errors import ViewError
from viz.html import HTML_SUFFIXES
from viz.outputs import (
    DEFAULT_SIZE,
    MAX_FRAMES_PER_TURN,
    check_output,
    parse_boards,
    parse_size,
    parse_turns,
)
from viz.scene import check_turn
from viz.view import ANGLES, AXES, KEYS, LAYOUTS, MODES, View


def _arg(parse: Any) -> Any:
    """An argparse type from a parser that raises ViewError (argparse then reports it)."""

    def wrapped(text: str) -> Any:
        try:
            return parse(text)
        except ViewError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    wrapped.__name__ = parse.__name__
    return wrapped


# The options of ``antipolix view``, declared once as data: (flag, argparse settings). How to
# look at the replay (the window, the pictures and the page share them) ...
VIEW_OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "--turn",
        {
            "type": int,
            "metavar": "T",
            "help": "the turn to show: 0 is the position after placement (default: 0 in the "
            "window, the last turn for --png)",
        },
    ),
    (
        "--mode",
        {
            "choices": MODES,
            "default": "universe",
            "help": "the whole universe, three boards, or one board (default universe)",
        },
    ),
    (
        "--axis",
        {
            "choices": AXES,
            "default": "z",
            "help": "the axis boards are taken along (default z: the P boards of the universe)",
        },
    ),
    (
        "--boards",
        {
            "type": _arg(parse_boards),
            "default": None,
            "metavar": "A,B,C",
            "help": (
                "which three boards --mode boards shows (default: the first three, or as many "
                "as the axis has)"
            ),
        },
    ),
    (
        "--slice",
        {"type": int, "default": None, "metavar": "S", "help": "the board --mode slice shows (0)"},
    ),
    (
        "--layout",
        {
            "choices": LAYOUTS,
            "default": "row",
            "help": "three boards side by side (row, default) or one above the other (stack)",
        },
    ),
    (
        "--angle",
        {"choices": ANGLES, "default": "oblique", "help": "viewing angle (default oblique)"},
    ),
    (
        "--fog",
        {
            "type": int,
            "default": None,
            "metavar": "PLAYER",
            "help": "show what PLAYER sees (R6: enemy invisible pieces hidden, traits unknown, "
            "only the events it is told of) instead of the truth",
        },
    ),
    ("--no-events", {"action": "store_true", "help": "do not draw the turn's events"}),
    (
        "--size",
        {
            "type": _arg(parse_size),
            "default": DEFAULT_SIZE,
            "metavar": "W,H",
            "help": f"window / picture size in pixels (default {DEFAULT_SIZE[0]},"
            f"{DEFAULT_SIZE[1]})",
        },
    ),
)
# ... and what to write instead of opening the window
OUTPUT_OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("--png", {"type": Path, "metavar": "FILE", "help": "write the turn as a PNG picture"}),
    ("--gif", {"type": Path, "metavar": "FILE", "help": "write an animated GIF of --turns"}),
    ("--mp4", {"type": Path, "metavar": "FILE", "help": "write an MP4 film of --turns"}),
    (
        "--html",
        {
            "type": Path,
            "metavar": "FILE",
            "help": "write the whole game as one self-contained web page (.html) that opens "
            "offline in any browser; it starts at --turn (default 0) as --mode, --axis, "
            "--boards, --slice, --layout, --angle, --no-events say; it holds the truth and "
            "every player's view, or with --fog only what PLAYER saw",
        },
    ),
    (
        "--turns",
        {
            "type": _arg(parse_turns),
            "default": None,
            "metavar": "A:B",
            "help": "turns of the GIF / MP4, inclusive: 0:60, 100: (default: the whole game)",
        },
    ),
    (
        "--frames-per-turn",
        {
            "type": int,
            "default": 2,
            "metavar": "K",
            "help": "frames per turn in the GIF / MP4; pieces glide between turns (default 2)",
        },
    ),
    (
        "--fps",
        {"type": float, "default": 4.0, "help": "frames per second of the GIF / MP4 (default 4)"},
    ),
)


def register(sub: Any) -> None:
    """Add the ``view`` command to the ``antipolix`` subcommands."""
    keys = "; ".join(f"{k}: {what}" for k, what in KEYS)
    view = sub.add_parser(
        "view",
        help="watch a replay in 3D, or render it to PNG, GIF, MP4 or a web page",
        description="Watch a replay again in 3D: the whole universe, three boards (slices) at a "
        "time along a chosen axis, or one board; the turn's attacks, outcomes and eliminations "
        "drawn on top; the truth or one player's view (R6). Without --png/--gif/--mp4/--html a "
        f"window opens, with a turn slider, play/pause and keys ({keys}). With them, pictures "
        "are rendered offscreen (no display needed) and no window opens. With --html, one "
        "self-contained web page shows the whole game in 3D in any browser, offline: rotate and "
        "zoom, a turn slider with play/pause, the modes, the truth or each player's view.",
    )
    view.add_argument("replay", type=Path, metavar="REPLAY", help="a replay file (.apx.json.gz)")
    add_game_option(view, None)
    for flag, settings in VIEW_OPTIONS:
        view.add_argument(flag, **settings)
    out = view.add_argument_group("offscreen output (no window, no display needed)")
    for flag, settings in OUTPUT_OPTIONS:
        out.add_argument(flag, **settings)
    view.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``antipolix view``: check every option and the replay, then open the window or write the
    files asked for (the page, the picture, the films)."""
    game, _ = replays.game_of(args.replay)
    if args.game is not None and game != args.game:
        raise ViewError(f"{args.replay} is a replay of {game}, not of {args.game}")
    if game != DEFAULT:
        return _run_2d(args)
    outputs = _outputs(args)
    if not 1 <= args.frames_per_turn <= MAX_FRAMES_PER_TURN:
        raise ViewError(
            f"--frames-per-turn must be from 1 to {MAX_FRAMES_PER_TURN}, "
            f"got {args.frames_per_turn:,}"
        )
    if not 0 < args.fps <= 120:
        raise ViewError(f"--fps must be above 0 and up to 120, got {args.fps:g}")
    replay = load_replay(args.replay)
    view = _view(args, replay)
    turn = None if args.turn is None else check_turn(replay, args.turn)
    turns = _turns(args, replay)
    if not outputs:
        from viz.viewer import open_viewer

        open_viewer(replay, 0 if turn is None else turn, view=view, window_size=args.size)
        return 0
    if args.html is not None:  # a page needs no VTK
        from viz.html import save_html

        page = save_html(replay, args.html, view=view, turn=turn)
        size = page.stat().st_size
        print(f"wrote {page} ({size / 1024:,.0f} KiB, turns 0 to {replay.last_turn})")
    if args.png is not None:
        from viz.render import save_png

        path = save_png(replay, turn, args.png, view=view, window_size=args.size)
        shown = replay.last_turn if turn is None else turn
        print(f"wrote {path} (turn {shown} of {replay.last_turn})")
    for path in (args.gif, args.mp4):
        if path is not None:
            _write_film(args, replay, path, view, turns)
    return 0


# the options of the 3D views and films, which a 2D game's board has no use for
THREE_D_ONLY = (
    "--mode",
    "--axis",
    "--boards",
    "--slice",
    "--layout",
    "--angle",
    "--no-events",
    "--turns",
    "--frames-per-turn",
    "--fps",
)


def _given(args: argparse.Namespace, option: str) -> bool:
    """Was the view option ``option`` given a value other than its default (False for a
    flag)?"""
    for flag, settings in (*VIEW_OPTIONS, *OUTPUT_OPTIONS):
        if flag == option:
            default = settings.get("default", False if settings.get("action") else None)
            return bool(getattr(args, flag[2:].replace("-", "_")) != default)
    raise KeyError(option)


def _run_2d(args: argparse.Namespace) -> int:
    """A 2D game's replay (:mod:`viz.board2d`): the page (``--html``) and a picture
    (``--png``); ``--turn`` and ``--fog`` (a seat) apply, the 3D view's options do not."""
    if args.gif is not None or args.mp4 is not None:
        raise ViewError("a 2D game's replay is drawn as a page (--html) or a picture (--png)")
    given = [flag for flag in THREE_D_ONLY if _given(args, flag)]
    if given:  # (they were ignored: a user asking for --mode boards got the flat board)
        raise ViewError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for AntipoliX's 3D views; "
            "a 2D game's board is drawn flat (its options: --turn, --fog, --size, --html, --png)"
        )
    if args.html is None and args.png is None:
        raise ViewError(
            "a 2D game's replay opens as a web page: write one with --html FILE (or a picture "
            "with --png FILE)"
        )
    pages = [check_output(args.html, HTML_SUFFIXES, "HTML")] if args.html is not None else []
    if args.png is not None:
        check_output(args.png, (".png",), "PNG")
    replay = check_2d(replays.load(args.replay))
    turn = None if args.turn is None else check_turn_2d(replay, args.turn)
    check_seat(replay, args.fog)
    for page in pages:
        written = save_html_2d(replay, page, turn=turn, fog=args.fog)
        size = written.stat().st_size
        print(f"wrote {written} ({size / 1024:,.0f} KiB, turns 0 to {replay.last_turn})")
    if args.png is not None:
        from viz.render2d import save_png_2d

        path = save_png_2d(replay, turn, args.png, fog=args.fog, window_size=args.size)
        shown = replay.last_turn if turn is None else turn
        print(f"wrote {path} (turn {shown} of {replay.last_turn})")
    return 0


def _outputs(args: argparse.Namespace) -> list[Path]:
    """The files to write, checked before anything is loaded; none opens the window, which
    needs a display."""
    outputs = [
        check_output(path, suffixes, what)
        for path, suffixes, what in (
            (args.png, (".png",), "PNG"),
            (args.gif, (".gif",), "GIF"),
            (args.mp4, (".mp4",), "MP4"),
            (args.html, HTML_SUFFIXES, "HTML"),
        )
        if path is not None
    ]
    if not outputs and not has_display():
        raise ViewError(
            "no display to open the viewer on (DISPLAY is not set); render offscreen instead "
            "with --png FILE, --gif FILE or --mp4 FILE, or write a web page with --html FILE"
        )
    return outputs


def _view(args: argparse.Namespace, replay: Replay) -> View:
    """The view the options ask for, checked against the replay's universe and players."""
    options: dict[str, Any] = {
        "mode": args.mode,
        "axis": args.axis,
        "layout": args.layout,
        "angle": args.angle,
        "fog": args.fog,
        "events": not args.no_events,
    }
    if args.boards is not None:
        options["boards"] = args.boards
    if args.slice is not None:
        options["slice"] = args.slice
    return View(**options).check(replay.rules.shape, replay.rules.players)


def _turns(args: argparse.Namespace, replay: Replay) -> tuple[int, int] | None:
    """The films' first and last turn (``--turns``; an open end is the last turn), checked."""
    if args.turns is None:
        return None
    first, last = args.turns
    turns = (first, replay.last_turn if last < 0 else last)
    check_turn(replay, turns[0])
    check_turn(replay, turns[1])
    if turns[1] < turns[0]:
        raise ViewError(f"--turns {first}:{last} is empty (the last turn comes first)")
    return turns


def _write_film(
    args: argparse.Namespace,
    replay: Replay,
    path: Path,
    view: View,
    turns: tuple[int, int] | None,
) -> None:
    """A GIF or MP4 of ``turns``, with its progress on stderr as a batch's: a bar on a
    terminal, elsewhere (a log, a pipe) a line a minute (a whole game's film takes minutes)."""
    from antipolix.runner.progress import Bar
    from viz.render import save_animation

    bar = Bar(unit="frame")
    try:
        count = save_animation(
            replay,
            path,
            turns=turns,
            frames_per_turn=args.frames_per_turn,
            fps=args.fps,
            view=view,
            window_size=args.size,
            progress=bar,
        )
    finally:
        bar.close()
    print(f"wrote {path} ({count} frames, {args.fps:g} per second)")
