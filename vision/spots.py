"""Spots of a frame compared with spots of the same board: is this die-like mark a die,
or something the board shows at that spot anyway (a checker's highlight, logo or number,
a hinge, a print on the surface)? A mark is compared at several sizes, from a die's
smallest face to past its largest with its shadow, each allowed a small shift: the worst
size's correlation at the best shift (`alike`). A die hides what lies under it at every
size; a mark of the board itself looks the same at every size.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from vision.dicenet import around, square

Image = NDArray[np.uint8]

# The spots compared: squares this many mm wide, each matched within `BARE_SHIFT_MM`
# either way (checkers lie a little off their places, a checker counted but not ringed is
# known by its place only, a camera is knocked), a mark over a checker against the
# `BARE_PEERS` nearest bare checkers of its colour (`vision.frame.checker_marks`).
BARE_SIZES_MM = (12.0, 16.0, 20.0, 26.0)
BARE_SHIFT_MM = 4.0
BARE_PEERS = 8
BARE_PX_PER_MM = 2.0


def _grey(image: Image, geo: BoardGeometry, x_mm: float, y_mm: float, mm: float) -> Image:
    """The grey square `mm` wide round a board point, at `BARE_PX_PER_MM`."""
    side = round(mm * BARE_PX_PER_MM)
    view = square(image, geo, around(geo, x_mm, y_mm, BARE_PX_PER_MM, side))
    return np.asarray(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), np.uint8)


def spot(image: Image, geo: BoardGeometry, x_mm: float, y_mm: float) -> Image:
    """The spot round a board point that `alike` compares: `BARE_SIZES_MM[-1]` wide."""
    return _grey(image, geo, x_mm, y_mm, BARE_SIZES_MM[-1])


def window(image: Image, geo: BoardGeometry, x_mm: float, y_mm: float) -> Image:
    """The window round a board point that a spot is looked for in: `BARE_SHIFT_MM`
    wider than a spot each way."""
    return _grey(image, geo, x_mm, y_mm, BARE_SIZES_MM[-1] + 2 * BARE_SHIFT_MM)


def alike(spot: Image, window: Image) -> float:
    """How alike a spot (a die's square, `BARE_SIZES_MM[-1]` wide) and a window round the
    same spot elsewhere (`BARE_SHIFT_MM` wider each way) are: the best, over the shifts
    within `BARE_SHIFT_MM`, of the worst correlation over the sizes (each centred)."""
    side, shift = spot.shape[0], (window.shape[0] - spot.shape[0]) // 2
    worst = np.full((2 * shift + 1, 2 * shift + 1), np.inf, np.float32)
    for mm in BARE_SIZES_MM:
        n = round(mm * BARE_PX_PER_MM)
        lo = (side - n) // 2
        around_it = window[lo : lo + n + 2 * shift, lo : lo + n + 2 * shift]
        match = cv2.matchTemplate(around_it, spot[lo : lo + n, lo : lo + n], cv2.TM_CCOEFF_NORMED)
        worst = np.minimum(worst, match)
    return float(worst.max())
