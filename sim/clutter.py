"""Things that lie on and round a board in play, drawn over a rendered frame.

A real table shows more than the board: a player's arm and hand reaching over it, the
dice cups, a clock, a score card. None of them is a checker or a die, and where one lies
over the board the points under it cannot be read. `draw_clutter` draws such things over
a frame (`sim.render`'s image, or any frame of a calibrated board) and says which board
areas each covers, so that a benchmark can ask what the readers make of them
(`benchmarks/occlusion.py`): the points under them unsure, never read wrong with
confidence, and no die read where none lies.

Each thing is drawn in the board's plane (board millimetres mapped to the camera's pixels
by the calibration), lit from one side with a soft shadow, so that it has the board's
perspective and a camera's look; its height above the board is not drawn (seen from
above, a cup's rim or a clock's top lies about where its foot does). None of these things
is drawn by `sim.render` itself, nor by the scenes the readers were trained on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry

Image = NDArray[np.uint8]
KINDS = ("arm", "cup", "clock", "card")
_SAMPLES = 48  # points round a curve


@dataclass(frozen=True)
class Clutter:
    """One thing drawn: its kind and the outline it covers (board mm, a polygon)."""

    kind: str
    outline_mm: tuple[tuple[float, float], ...]

    def covers(self, x_mm: float, y_mm: float) -> bool:
        """Whether the board point (mm) lies under it."""
        poly = np.array(self.outline_mm, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(poly, (float(x_mm), float(y_mm)), False) >= 0


def _turned(cx: float, cy: float, dx: Any, dy: Any, turn: float) -> NDArray[np.float64]:
    """Points given as offsets (mm, floats or arrays) from (cx, cy), turned by `turn`
    radians about it: N x 2."""
    c, s = math.cos(turn), math.sin(turn)
    return np.stack(np.broadcast_arrays(cx + c * dx - s * dy, cy + s * dx + c * dy), axis=-1)


def _ellipse(cx: float, cy: float, a: float, b: float, turn: float) -> NDArray[np.float64]:
    t = np.linspace(0, 2 * math.pi, _SAMPLES, endpoint=False)
    return _turned(cx, cy, a * np.cos(t), b * np.sin(t), turn)


def _disc(cx: float, cy: float, r: float) -> NDArray[np.float64]:
    return _ellipse(cx, cy, r, r, 0.0)


def _box(cx: float, cy: float, w: float, h: float, turn: float) -> NDArray[np.float64]:
    corners = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
    return _turned(cx, cy, corners[:, 0], corners[:, 1], turn)


def _arm(
    geo: BoardGeometry, rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """An arm reaching in from beyond one of the board's long sides to a hand over the
    surface: the sleeve's outline and the hand's (board mm)."""
    w, h = geo.width_mm, geo.height_mm
    hx, hy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.25, 0.75) * h
    side = -1.0 if rng.random() < 0.5 else 1.0  # from the far side or the near one
    sx = hx + rng.uniform(-0.35, 0.35) * w
    sy = h / 2 + side * (h / 2 + 250.0)
    width = rng.uniform(80.0, 110.0)
    ax, ay = hx - sx, hy - sy
    n = math.hypot(ax, ay)
    ux, uy = ax / n, ay / n
    px, py = -uy * width / 2, ux * width / 2
    wrist = (hx - ux * 40.0, hy - uy * 40.0)
    sleeve = np.array(
        [
            (sx + px, sy + py),
            (wrist[0] + px * 0.8, wrist[1] + py * 0.8),
            (wrist[0] - px * 0.8, wrist[1] - py * 0.8),
            (sx - px, sy - py),
        ]
    )
    a, b = rng.uniform(55.0, 75.0), rng.uniform(42.0, 52.0)  # the hand, along and across
    return sleeve, _ellipse(hx, hy, a, b, math.atan2(uy, ux))


def _random_colour(rng: np.random.Generator, lo: int, hi: int) -> tuple[int, int, int]:
    b, g, r = (int(v) for v in rng.integers(lo, hi, 3))
    return b, g, r


def _shade(colour: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    return (
        int(min(255, colour[0] * k)),
        int(min(255, colour[1] * k)),
        int(min(255, colour[2] * k)),
    )


class _Painter:
    """Polygons in board mm drawn on a camera frame, with a soft shadow cast one way."""

    def __init__(self, image: Image, geo: BoardGeometry, rng: np.random.Generator) -> None:
        self.image, self.geo = image, geo
        angle = rng.uniform(0, 2 * math.pi)
        self.shadow = (math.cos(angle) * 12.0, math.sin(angle) * 12.0)  # mm
        self.px_per_mm = geo.px_per_mm_max

    def _px(self, outline_mm: NDArray[np.float64]) -> NDArray[np.int32]:
        px = self.geo.mm_to_px(outline_mm.astype(np.float64))
        return np.asarray(np.round(px * 4), np.int32).reshape(-1, 1, 2)  # 2 fractional bits

    def fill(self, outline_mm: NDArray[np.float64], colour: tuple[int, int, int]) -> None:
        cv2.fillPoly(self.image, [self._px(outline_mm)], colour, cv2.LINE_AA, shift=2)

    def line(
        self, outline_mm: NDArray[np.float64], colour: tuple[int, int, int], mm: float
    ) -> None:
        thick = max(1, round(mm * self.px_per_mm))
        cv2.polylines(self.image, [self._px(outline_mm)], True, colour, thick, cv2.LINE_AA, shift=2)

    def cast(self, outline_mm: NDArray[np.float64]) -> None:
        """A soft shadow of the outline on what lies below it."""
        mask = np.zeros(self.image.shape[:2], np.uint8)
        moved = outline_mm + np.array(self.shadow)
        cv2.fillPoly(mask, [self._px(moved)], 255, cv2.LINE_AA, shift=2)
        sigma = max(1.0, 6.0 * self.px_per_mm)
        soft = cv2.GaussianBlur(mask, (0, 0), sigma).astype(np.float32) / 255.0
        dark = 1.0 - 0.45 * soft[..., None]
        self.image[...] = np.clip(self.image.astype(np.float32) * dark, 0, 255).astype(np.uint8)

    def shading(self, outline_mm: NDArray[np.float64], strength: float) -> None:
        """Light falling off across the thing, away from the light (the shadow's far side)."""
        mask = np.zeros(self.image.shape[:2], np.uint8)
        cv2.fillPoly(mask, [self._px(outline_mm)], 255, cv2.LINE_AA, shift=2)
        ys, xs = np.nonzero(mask)
        if not len(xs):
            return
        dx, dy = self.shadow
        ramp = xs * dx + ys * dy
        lo, hi = float(ramp.min()), float(ramp.max())
        k = 1.0 + strength * (0.5 - (ramp - lo) / max(hi - lo, 1e-9))
        pix = self.image[ys, xs].astype(np.float32) * k[:, None]
        self.image[ys, xs] = np.clip(pix, 0, 255).astype(np.uint8)


def _where(
    geo: BoardGeometry, rng: np.random.Generator, over: bool, size: float
) -> tuple[float, float]:
    """A place for a thing `size` mm across: over the playing surface, or beside it on the
    frame or the table (within a thing's size of the surface's edge)."""
    w, h = geo.width_mm, geo.height_mm
    if over:
        return rng.uniform(0.05, 0.95) * w, rng.uniform(0.1, 0.9) * h
    edge = int(rng.integers(4))
    off = size / 2 + rng.uniform(5.0, 40.0)
    if edge == 0:
        return rng.uniform(0, w), -off
    if edge == 1:
        return rng.uniform(0, w), h + off
    if edge == 2:
        return -off, rng.uniform(0, h)
    return w + off, rng.uniform(0, h)


def draw_clutter(
    image: Image,
    geo: BoardGeometry,
    rng: np.random.Generator,
    kinds: tuple[str, ...] = KINDS,
    over: bool = True,
) -> tuple[Image, list[Clutter]]:
    """A copy of `image` with one thing of each of `kinds` drawn (`KINDS`: an arm and its
    hand, a dice cup, a clock, a score card), each over the playing surface (`over`) or
    beside it (an arm always reaches over it), and the things drawn with their outlines."""
    out = image.copy()
    paint = _Painter(out, geo, rng)
    drawn: list[Clutter] = []
    for kind in kinds:
        if kind == "arm":
            sleeve, hand = _arm(geo, rng)
            cloth = _random_colour(rng, 20, 200)
            skin = (
                int(rng.uniform(90, 140)),
                int(rng.uniform(135, 175)),
                int(rng.uniform(185, 230)),
            )
            paint.cast(sleeve)
            paint.cast(hand)
            paint.fill(hand, skin)
            paint.shading(hand, 0.3)
            paint.fill(sleeve, cloth)
            paint.shading(sleeve, 0.5)
            drawn.append(Clutter("arm", _outline(sleeve)))
            drawn.append(Clutter("arm", _outline(hand)))
        elif kind == "cup":
            r = rng.uniform(35.0, 45.0)
            cx, cy = _where(geo, rng, over, 2 * r)
            body = _random_colour(rng, 10, 90)
            outer = _disc(cx, cy, r)
            paint.cast(outer)
            paint.fill(outer, body)
            paint.fill(_disc(cx, cy, r * 0.82), _shade(body, 0.5))
            paint.line(_disc(cx, cy, r * 0.91), _shade(body, 1.8), r * 0.05)
            paint.shading(outer, 0.4)
            drawn.append(Clutter("cup", _outline(outer)))
        elif kind == "clock":
            w, h, turn = rng.uniform(140.0, 180.0), rng.uniform(70.0, 95.0), rng.uniform(0, math.pi)
            cx, cy = _where(geo, rng, over, w)
            body = _random_colour(rng, 15, 70)
            outline = _box(cx, cy, w, h, turn)
            paint.cast(outline)
            paint.fill(outline, body)
            paint.shading(outline, 0.3)
            for side in (-1, 1):  # two displays and a button above each
                mx, my = _turned(cx, cy, side * w / 4, h * 0.1, turn)
                paint.fill(_box(mx, my, w * 0.38, h * 0.42, turn), (150, 185, 170))
                bx, by = _turned(cx, cy, side * w / 4, -h * 0.3, turn)
                paint.fill(_disc(bx, by, h * 0.1), (30, 30, 30))
            drawn.append(Clutter("clock", _outline(outline)))
        elif kind == "card":
            w, h, turn = (
                rng.uniform(80.0, 100.0),
                rng.uniform(110.0, 140.0),
                rng.uniform(0, math.pi),
            )
            cx, cy = _where(geo, rng, over, h)
            outline = _box(cx, cy, w, h, turn)
            paint.cast(outline)
            paint.fill(outline, (232, 236, 238))
            paint.shading(outline, 0.15)
            _digits(out, geo, rng, (cx, cy), (w, h), turn)
            drawn.append(Clutter("card", _outline(outline)))
        else:
            raise ValueError(f"unknown clutter {kind!r}: expected one of {', '.join(KINDS)}")
    return out, drawn


def _digits(
    image: Image,
    geo: BoardGeometry,
    rng: np.random.Generator,
    centre: tuple[float, float],
    size: tuple[float, float],
    turn: float,
) -> None:
    """A score card's print: two columns of scores, drawn flat and warped into the frame."""
    px = 4.0  # px per mm of the card's own image
    w, h = round(size[0] * px), round(size[1] * px)
    card = np.full((h, w, 3), 255, np.uint8)
    for row in range(4):
        for col in range(2):
            text = str(int(rng.integers(0, 16)))
            org = (int(w * (0.12 + 0.45 * col)), int(h * (0.22 + 0.22 * row)))
            cv2.putText(card, text, org, cv2.FONT_HERSHEY_SIMPLEX, px * 0.35, (40, 40, 40), 3)
    cv2.line(card, (w // 2, int(h * 0.05)), (w // 2, int(h * 0.95)), (60, 60, 60), 2)
    src = np.array([(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)], np.float32)
    dst = geo.mm_to_px(_box(centre[0], centre[1], size[0], size[1], turn)).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    ih, iw = image.shape[:2]
    ink = cv2.warpPerspective(255 - card, m, (iw, ih)).astype(np.float32) / 255.0
    image[...] = np.clip(image.astype(np.float32) * (1.0 - ink), 0, 255).astype(np.uint8)


def _outline(points: NDArray[Any]) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in points)
