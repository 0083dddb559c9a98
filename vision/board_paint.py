"""Dice painted out of the board's view before its checkers are read (`paint_over`).

`vision.frame.FrameReader` reads a frame's dice first and gives the checker reader each
die as a disc to paint over from what lies round it, so that a die is never counted as a
checker nor read as part of one's colour; the view's smoothing is then redone round each
disc only (`_smoothed_again`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
SMOOTH_SIGMA = 1.0  # px: the board view's smoothing for the checkers' colours
PAINT_REACH = 3  # px: inpainting's reach round each painted pixel (`paint_over`)


def _box(
    shape: tuple[int, ...], x: float, y: float, r: float, pad: float
) -> tuple[int, int, int, int]:
    """The pixel box (x0, y0, x1, y1) round a disc, `pad` px wider, within `shape`."""
    h, w = shape[:2]
    return (
        max(0, math.floor(x - r - pad)),
        max(0, math.floor(y - r - pad)),
        min(w, math.ceil(x + r + pad) + 1),
        min(h, math.ceil(y + r + pad) + 1),
    )


def paint_over(view: Image, discs: Sequence[tuple[float, float, float]]) -> Image:
    """A copy of `view` with each disc (centre x, y and radius, px) painted over from what
    lies round it (`cv2.inpaint`, Telea): the board's point where a die lies on the board,
    the checker where it rests on one. A die so painted is never counted as a checker (a
    white die on an empty dark point was, on black boards) nor read as part of one's
    colour (a red die on a white checker made every checker black's)."""
    out = view.copy()
    for x, y, r in discs:
        x0, y0, x1, y1 = _box(view.shape, x, y, r, PAINT_REACH + 2)
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.circle(mask, (round(x - x0), round(y - y0)), max(1, round(r)), 255, -1)
        roi = np.ascontiguousarray(out[y0:y1, x0:x1])
        out[y0:y1, x0:x1] = cv2.inpaint(roi, mask, PAINT_REACH, cv2.INPAINT_TELEA)
    return out


def _smoothed_again(
    smooth: Image, painted: Image, discs: Sequence[tuple[float, float, float]]
) -> Image:
    """`smooth` (the view smoothed, `BoardReader.smooth_lab`) with the pixels that
    `paint_over` changed smoothed again from `painted`: only round each disc, not the
    whole view (a Gaussian's reach is 4 sigma)."""
    out = smooth.copy()
    reach = math.ceil(4 * SMOOTH_SIGMA)
    h, w = painted.shape[:2]
    for x, y, r in discs:
        x0, y0, x1, y1 = _box(painted.shape, x, y, r, PAINT_REACH + 2 + reach)
        if x1 <= x0 or y1 <= y0:
            continue
        blurred = cv2.GaussianBlur(painted[y0:y1, x0:x1], (0, 0), SMOOTH_SIGMA)
        # the box's own edges are blurred short of what lies beyond them: not taken, but
        # where the box meets the view's edge (blurred there as the whole view is)
        top, left = (reach if y0 else 0), (reach if x0 else 0)
        bottom, right = (y1 - y0) - (reach if y1 < h else 0), (x1 - x0) - (reach if x1 < w else 0)
        if bottom > top and right > left:
            out[y0 + top : y0 + bottom, x0 + left : x0 + right] = blurred[top:bottom, left:right]
    return out
