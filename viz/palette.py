"""Player colours: ten colours that stay apart for colour-blind readers, and the viewer's tones.

The ten colours come from published colour-blind-safe sets (Paul Tol's muted, bright, vibrant
and light schemes, Okabe–Ito, IBM's design library, ColorBrewer's PRGn) plus navy, chosen and
ordered by search so that every prefix (the seats of a smaller game) is as far apart as those
sets allow, under normal vision *and* simulated protanopia, deuteranopia and tritanopia
(Machado et al. 2009, severity 1), while each stays apart from the boards, the background, the
ink and the red of destroyed pieces. The smallest colour difference (ΔE*ab, worst of the four
visions) is 46 for the default 4 seats, 23.6 for 8 seats (the earlier palette: 17.2, where
blue and indigo, orange and vermillion ran together) and 15.5 over all 10.
:func:`min_difference` computes these figures and the tests hold them.

Black is not a player colour: the viewer draws trait marks, outlines and text in near-black.

>>> player_colour(0), len(PALETTE)
('#000080', 10)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

PALETTE: tuple[str, ...] = (
    "#000080",  # P0 navy
    "#88CCEE",  # P1 cyan (Tol muted)
    "#882255",  # P2 wine (Tol muted)
    "#CCBB44",  # P3 yellow (Tol bright)
    "#EE6677",  # P4 rose (Tol bright)
    "#785EF0",  # P5 violet (IBM)
    "#762A83",  # P6 purple (ColorBrewer PRGn)
    "#CC79A7",  # P7 reddish purple (Okabe–Ito)
    "#0077BB",  # P8 blue (Tol vibrant)
    "#EE8866",  # P9 orange (Tol light)
)
PALETTE_NAMES: tuple[str, ...] = (
    "navy",
    "cyan",
    "wine",
    "yellow",
    "rose",
    "violet",
    "purple",
    "pink",
    "blue",
    "orange",
)

INK = "#1A1A1A"  # text, outlines, trait marks
DANGER = "#D7191C"  # destroyed pieces, crushed invisibles
BOARD_LIGHT = "#F3F1EC"
BOARD_DARK = "#DAD6CD"
LATTICE = "#B9B4AA"
BACKGROUND = "#FFFFFF"
BACKGROUND_TOP = "#E4EAF1"
# the tones by name, as the replay page reads them (viz.html)
TONES: dict[str, str] = {
    "ink": INK,
    "danger": DANGER,
    "board_light": BOARD_LIGHT,
    "board_dark": BOARD_DARK,
    "lattice": LATTICE,
    "background": BACKGROUND,
    "background_top": BACKGROUND_TOP,
}

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
CVD_MATRICES: dict[str, npt.NDArray[np.float64]] = {
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
VISIONS = ("normal", *CVD_MATRICES)


def player_colour(player: int) -> str:
    """The colour of seat ``player`` (0 to 9) as ``#RRGGBB``."""
    return PALETTE[player % len(PALETTE)]


def rgb(colour: str) -> npt.NDArray[np.uint8]:
    """``"#RRGGBB"`` → ``array([r, g, b], dtype=uint8)``."""
    text = colour.lstrip("#")
    return np.array([int(text[i : i + 2], 16) for i in (0, 2, 4)], dtype=np.uint8)


def player_rgb(players: int) -> npt.NDArray[np.uint8]:
    """``(players, 3)`` uint8 colours of seats 0 to ``players - 1``."""
    return np.stack([rgb(player_colour(p)) for p in range(players)])


def _linear(srgb: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out: npt.NDArray[np.float64] = np.where(
        srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4
    )
    return out


def _lab(linear: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    to_xyz = np.array(
        [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    )
    xyz = linear @ to_xyz.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    out: npt.NDArray[np.float64] = np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])],
        axis=-1,
    )
    return out


def lab(colours: Sequence[str], vision: str = "normal") -> npt.NDArray[np.float64]:
    """CIELAB of ``colours`` as seen with ``vision`` (``normal`` or a key of CVD_MATRICES)."""
    linear = _linear(np.array([rgb(c) for c in colours], dtype=np.float64) / 255.0)
    if vision != "normal":
        linear = np.clip(linear @ CVD_MATRICES[vision].T, 0.0, 1.0)
    return _lab(linear)


def lightness(colour: str) -> float:
    """CIE L* (0 black to 100 white)."""
    return float(lab([colour])[0, 0])


def min_difference(colours: Sequence[str]) -> dict[str, float]:
    """Smallest pairwise ΔE*ab (CIE76) among ``colours``, per vision (normal and three CVDs)."""
    out = {}
    for vision in VISIONS:
        values = lab(colours, vision)
        d = np.linalg.norm(values[:, None, :] - values[None, :, :], axis=-1)
        d[np.diag_indices(len(colours))] = np.inf
        out[vision] = float(d.min())
    return out
