"""A second opinion on every point's count: a small network that counts the checkers on
one strip of the board view (issue 27).

The ring reader (`vision.board`) finds checkers by their rims; a dark checker on a dark
point, or on a dark board, shows too little rim to be found, and the point reads as
surely empty. The network looks at the whole strip instead: a point's rectangle and a
quarter of a point's width to either side, from just before its edge to just past the
board's middle (`BEFORE`, `AFTER` of the half-height), resampled to `STRIP_W` x
`STRIP_H` pixels and turned so that its first row lies at the edge; each half of the
bar from the middle towards its owner. It gives the odds of each count 0-15; whose
checkers they are is the ring reader's colour split's to say.

It was trained (`scripts/checkernet_data.py`, `scripts/train_checkernet.py`) on strips
of `sim`'s renderer, both style families, with five styles held out to judge it
(`scripts/eval_checkernet.py`), and with a real board's frame edge painted over the
strip's first rows (a lip, its line and its shadow: the renderer's frame ends flat, and
a network that never saw one read real lips as a checker at the edge).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from vision.networks import run_network, softmax

STRIP_W, STRIP_H = 32, 160
ACROSS = 1.5  # point widths across a strip (a quarter of one to either side)
BEFORE, AFTER = 0.05, 1.05  # of the half-height: from just before the edge to past the middle
PLACES = 26  # points 1-24 (white's numbering), white's half of the bar, black's
NETWORK = "checker_count.onnx"
# The renderer's styles the network's training never drew (`scripts/checkernet_data.py`):
# on these it reads boards it never saw (`benchmarks/board.py`'s "styles left out"). The
# dice networks' wide training scenes leave out `HELD_OUT_WIDE` too
# (`scripts/dicenet_data.py --wide`, `benchmarks/dice.py --styles wide`).
HELD_OUT_WIDE = ("cream-black", "dark-gold", "red-white")
HELD_OUT_DEFAULT = ("cork", "leather")
HELD_OUT = HELD_OUT_WIDE + HELD_OUT_DEFAULT
# A Gaussian's sigma (px) under which a blur is not worth applying: at 0.3 each neighbour
# gets 0.4% of the weight, a grey level at most at the sharpest edge.
REST_MIN = 0.3


def strip_maps(geo: BoardGeometry, px_per_mm: float, margin_mm: float) -> NDArray[np.float32]:
    """Per place, where each strip pixel lies in the board view: (PLACES, H, W, 2) x, y."""
    p, half = geo.point_width_mm, geo.height_mm / 2
    u = ((np.arange(STRIP_W) + 0.5) / STRIP_W - 0.5) * ACROSS * p  # across, mm
    v = -BEFORE * half + (np.arange(STRIP_H) + 0.5) / STRIP_H * (BEFORE + AFTER) * half
    uu, vv = np.meshgrid(u, v)
    out = np.empty((PLACES, STRIP_H, STRIP_W, 2), np.float32)
    places: list[tuple[float, float, int]] = []  # axis x, origin y, sign (+1 runs down)
    for n in range(1, 25):
        r = geo.point_rect(n)
        top = r.y0 == 0
        places.append(((r.x0 + r.x1) / 2, 0.0 if top else geo.height_mm, 1 if top else -1))
    places += [(geo.width_mm / 2, half, 1), (geo.width_mm / 2, half, -1)]
    for k, (cx, origin, sign) in enumerate(places):
        x_mm = cx + sign * uu  # turned half a turn where the strip runs up
        y_mm = origin + sign * vv
        out[k, ..., 0] = (x_mm + margin_mm) * px_per_mm - 0.5
        out[k, ..., 1] = (y_mm + margin_mm) * px_per_mm - 0.5
    return out


class StripCounter:
    """Counts the checkers on the 26 strips of one calibrated camera's board views (the
    maps are built once), with `network` (`vision.networks.load_network`'s name)."""

    def __init__(
        self, geo: BoardGeometry, px_per_mm: float, margin_mm: float, network: str = NETWORK
    ) -> None:
        self.network = network
        maps = strip_maps(geo, px_per_mm, margin_mm)
        self.map_x = np.ascontiguousarray(maps[..., 0].reshape(PLACES * STRIP_H, STRIP_W))
        self.map_y = np.ascontiguousarray(maps[..., 1].reshape(PLACES * STRIP_H, STRIP_W))
        # About 2.3 view pixels per strip pixel: smooth first, so that nothing aliases.
        self.sigma = 0.4 * ACROSS * geo.point_width_mm * px_per_mm / STRIP_W

    def strips(
        self, view: NDArray[np.uint8], smoothed: tuple[NDArray[np.uint8], float] | None = None
    ) -> NDArray[np.uint8]:
        """The 26 strips of a board view (`vision.board.BoardReader.rectify`): (PLACES, H,
        W, 3) BGR.

        `smoothed`: the same view already smoothed by a Gaussian of that sigma (the
        reader's, for the checkers' colours), smoothed on only as far as the strips need
        (Gaussians add their variances): one blur of the whole view the fewer. Not used
        where it is smoother than the strips' own by more than a blur of `REST_MIN`."""
        smooth: NDArray[np.uint8] | None = None
        if smoothed is not None:
            image, done = smoothed
            rest = math.sqrt(abs(self.sigma**2 - done**2))  # the blur between the two
            if rest < REST_MIN:
                smooth = image
            elif done < self.sigma:
                smooth = np.asarray(cv2.GaussianBlur(image, (0, 0), rest), np.uint8)
        if smooth is None:  # the view itself, smoothed as the strips need
            smooth = np.asarray(cv2.GaussianBlur(view, (0, 0), self.sigma), np.uint8)
        out = cv2.remap(
            smooth, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return np.asarray(out, np.uint8).reshape(PLACES, STRIP_H, STRIP_W, 3)

    def odds(
        self, view: NDArray[np.uint8], smoothed: tuple[NDArray[np.uint8], float] | None = None
    ) -> NDArray[np.float64]:
        """Per place, the odds of each count 0-15: (PLACES, 16). `smoothed` as `strips`'."""
        x = np.ascontiguousarray(self.strips(view, smoothed).transpose(0, 3, 1, 2), np.float32)
        return np.asarray(softmax(run_network(self.network, x).astype(np.float64)), np.float64)
