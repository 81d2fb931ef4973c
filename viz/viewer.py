"""The interactive viewer: a window with a turn slider, play / pause, keys in the spirit of the
1995 game, and an on-screen list of them (``h``).

Everything the keys do is :meth:`viz.view.ViewerState.key` (pure Python, tested without a
window); this module only wires VTK events to it and redraws.

>>> open_viewer("out/demo.apx.json.gz", turn=0)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from antipolix.replay import Replay
from viz._env import has_display
from viz.errors import ViewError
from viz.outputs import DEFAULT_SIZE, written_atomically
from viz.render import SceneDrawer, as_replay, make_plotter
from viz.scene import build_scene, check_turn, view_of
from viz.view import KEYS, View, ViewerState

# VTK key symbols bound by the viewer (their default VTK / PyVista meanings are switched off)
BOUND_KEYS = (
    "v", "u", "j", "b", "o", "p", "a", "l", "f", "e", "space",
    "Right", "Left", "n", "N", "Home", "End", "s", "h",
)  # fmt: skip
PLAY_INTERVAL_MS = 500  # two turns per second while playing
WIDGET_STRIP = 56.0  # pixels (at 800 px high) kept for the slider and the play button


def help_text() -> str:
    width = max(len(k) for k, _ in KEYS)
    lines = [f"{k:<{width}}  {what}" for k, what in KEYS]
    return "\n".join(["keys", "", *lines, "", "mouse: turn, zoom (wheel), pan (shift)"])


class Viewer:
    """A replay in a window. ``Viewer(replay).show()`` blocks until the window is closed."""

    def __init__(
        self,
        replay: Replay,
        state: ViewerState | None = None,
        window_size: Sequence[int] = DEFAULT_SIZE,
        off_screen: bool = False,
    ) -> None:
        self.replay = replay
        rules = replay.rules
        self.state = state or ViewerState(rules.shape, rules.players, replay.last_turn)
        self.plotter = make_plotter(window_size, off_screen=off_screen)
        self.drawer = SceneDrawer.of(self.plotter)
        self.drawer.reserve_bottom = WIDGET_STRIP
        self._slider: Any = None
        self._button: Any = None
        self._syncing = False
        self.saved: list[Path] = []

    # -- drawing ---------------------------------------------------------------------------------

    def redraw(self) -> None:
        state = self.state
        self.drawer.help = help_text() if state.help else None
        self.drawer.status = f"{state.status()} · h: keys"
        self.drawer.draw(build_scene(self.replay, state.turn, state.view))
        self._syncing = True
        try:
            if self._slider is not None:
                self._slider.GetRepresentation().SetValue(state.turn)
            if self._button is not None:
                self._button.GetRepresentation().SetState(int(state.playing))
        finally:
            self._syncing = False
        self.plotter.render()

    # -- events ----------------------------------------------------------------------------------

    def on_key(self, key: str) -> None:
        saves = self.state.saves
        if not self.state.key(key):
            return
        if self.state.saves != saves:
            self.save()
        self.redraw()

    def on_slider(self, value: float) -> None:
        if self._syncing:
            return
        turn = round(value)
        if turn != self.state.turn:
            self.state.set_turn(turn)
            self.redraw()

    def on_play(self, flag: bool) -> None:
        if self._syncing:
            return
        self.state.playing = bool(flag) and self.state.turn < self.state.last_turn
        self.redraw()

    def on_timer(self, *_: object) -> None:
        if self.state.playing:
            self.state.step()
            self.redraw()

    def save(self) -> Path | None:
        """Write the current view as ``<replay>-turn<T>.png`` in the working folder (a folder
        that cannot be written is reported on the console; the window goes on)."""
        import imageio.v2 as imageio
        import numpy as np

        stem = self.replay.path.name.split(".")[0] or "replay"
        path = Path(f"{stem}-turn{self.state.turn:04d}.png")
        help_shown = self.state.help
        self.drawer.help = None
        self.drawer.draw(build_scene(self.replay, self.state.turn, self.state.view))
        self.plotter.render()
        image = self.plotter.screenshot(return_img=True)
        self.drawer.help = help_text() if help_shown else None
        try:
            with written_atomically(path) as tmp:
                imageio.imwrite(tmp, np.asarray(image), format="PNG")
        except ViewError as exc:
            print(f"antipolix: cannot save the picture: {exc}")
            return None
        self.saved.append(path)
        print(f"saved {path}")
        return path

    # -- the window ------------------------------------------------------------------------------

    def install(self) -> None:
        """Add the slider, the play button, the keys and the play timer to the plotter."""
        plotter = cast(Any, self.plotter)  # PyVista's wrapped methods confuse mypy
        last = max(self.state.last_turn, 1)
        self._slider = plotter.add_slider_widget(
            self.on_slider,
            rng=[0, last],
            value=self.state.turn,
            title="",
            pointa=(0.07, 0.038),
            pointb=(0.72, 0.038),
            style="modern",
            tube_width=0.006,
            slider_width=0.018,
            interaction_event="always",
        )
        self._slider.GetRepresentation().ShowSliderLabelOff()  # the status line says the turn
        self._button = plotter.add_checkbox_button_widget(
            self.on_play,
            value=self.state.playing,
            position=(14, 10),
            size=36,
            color_on="#009E73",
            color_off="#9A968E",
        )
        iren = plotter.iren
        if iren is not None:
            for key in (*BOUND_KEYS, "v", "b"):
                plotter.clear_events_for_key(key, raise_on_missing=False)
            for key in BOUND_KEYS:
                plotter.add_key_event(key, lambda k=key: self.on_key(k))
            # VTK's own key bindings (w: wireframe, s: surface, j / t: joystick / trackball, p:
            # pick...) run in the interactor style unless it has an observer for key presses.
            style = iren.style
            if style is not None:
                style.AddObserver("CharEvent", lambda *_: None)
            iren.add_observer("TimerEvent", self.on_timer)
            iren.create_timer(PLAY_INTERVAL_MS, repeating=True)

    def show(self) -> None:
        self.install()
        self.redraw()
        self.plotter.show(title=f"AntipoliX replay: {self.replay.path.name}")


def open_viewer(
    replay: Replay | str | Path,
    turn: int = 0,
    *,
    view: View | None = None,
    window_size: Sequence[int] = DEFAULT_SIZE,
    **options: object,
) -> None:
    """Open the interactive viewer on ``replay`` at ``turn`` (needs a display)."""
    if not has_display():
        raise ViewError(
            "no display to open the viewer on (DISPLAY is not set); render offscreen with "
            "viz.save_png / viz.save_animation, or antipolix view --png / --gif / --mp4"
        )
    rp = as_replay(replay)
    chosen = check_turn(rp, turn)
    state = ViewerState(
        rp.rules.shape, rp.rules.players, rp.last_turn, turn=chosen, view=view_of(view, **options)
    )
    Viewer(rp, state, window_size).show()


__all__ = ["BOUND_KEYS", "Viewer", "help_text", "open_viewer"]
