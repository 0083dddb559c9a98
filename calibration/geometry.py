"""The board frame (CONTRACTS.md §1) and the map between it and camera pixels.

Millimetres on the playing surface, origin at the far-left corner seen from
white's seat, x to the right, y towards white. Pixels are those of the raw
camera image: with a lens model, mm -> undistorted pixels goes through the
homography and then through the lens distortion; pixels -> mm the other way.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.schema import Calibration

Section = Literal["left", "right", "bar", "off"]
Color = Literal["white", "black"]
FloatArray = NDArray[np.float64]
_GRID_5X5 = np.stack(np.meshgrid(np.linspace(-1, 1, 5), np.linspace(-1, 1, 5)), -1).reshape(-1, 2)


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in board millimetres."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @property
    def center(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def corners(self) -> FloatArray:
        return np.array(
            [[self.x0, self.y0], [self.x1, self.y0], [self.x1, self.y1], [self.x0, self.y1]],
            dtype=np.float64,
        )


def dense_maps(
    coarse: NDArray[np.float32], width: int, height: int, step: int, band: int = 64
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """cv2.remap's maps (x, y) for a `width` x `height` image from `coarse` (rows x
    columns x 2): the map exactly at every `step`-th pixel, bilinear between (pixel (c, r)
    lies at coarse index (c / step, r / step)). Worked in bands of `band` rows, as each
    pixel's value depends on its own index only: two image-sized maps held, not six."""
    cx, cy = np.ascontiguousarray(coarse[..., 0]), np.ascontiguousarray(coarse[..., 1])
    mx = np.empty((height, width), np.float32)
    my = np.empty((height, width), np.float32)
    col = np.arange(width, dtype=np.float32)[None, :] / step
    for y in range(0, height, band):
        rows = np.arange(y, min(y + band, height), dtype=np.float32)[:, None] / step
        ix = np.ascontiguousarray(np.broadcast_to(col, (len(rows), width)))
        iy = np.ascontiguousarray(np.broadcast_to(rows, (len(rows), width)))
        mx[y : y + len(rows)] = cv2.remap(cx, ix, iy, cv2.INTER_LINEAR)
        my[y : y + len(rows)] = cv2.remap(cy, ix, iy, cv2.INTER_LINEAR)
    return mx, my


def clockwise(points: FloatArray) -> FloatArray:
    """Four image points in clockwise order round their centre (y grows downwards)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    return np.asarray(points[np.argsort(angles)], dtype=np.float64)


class BoardGeometry:
    """Everything about where things are, in one place."""

    def __init__(self, cal: Calibration) -> None:
        self.cal = cal
        w, h = cal.width_mm, cal.height_mm
        self.width_mm, self.height_mm, self.bar_width_mm = w, h, cal.bar_width_mm
        self.point_width_mm = (w - cal.bar_width_mm) / 12
        mm = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        px = np.array(cal.corners_px, dtype=np.float32)
        self.mm_to_px_h: FloatArray = cv2.getPerspectiveTransform(mm, px).astype(np.float64)
        self.px_to_mm_h: FloatArray = np.asarray(np.linalg.inv(self.mm_to_px_h), dtype=np.float64)
        if cal.camera is not None:
            self.k: FloatArray | None = np.array(cal.camera.matrix, dtype=np.float64)
            self.dist: FloatArray | None = np.array(cal.camera.dist, dtype=np.float64)
        else:
            self.k = self.dist = None

    # --- mm <-> px ----------------------------------------------------------------
    def mm_to_px(self, points_mm: FloatArray | list[tuple[float, float]]) -> FloatArray:
        """Board millimetres (N x 2) to raw image pixels (N x 2)."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        undistorted = np.asarray(
            cv2.perspectiveTransform(pts, self.mm_to_px_h).reshape(-1, 2), dtype=np.float64
        )
        if self.k is None or self.dist is None:
            return undistorted
        # Undistorted pixel -> normalised camera ray -> distorted pixel: OpenCV's lens
        # model (k1, k2, p1, p2, k3), as cv2.projectPoints applies it, written out (that
        # call also works out each point's Jacobian, most of its time).
        k = self.k
        if len(self.dist) > 5 and np.any(self.dist[5:]):
            return self._project(undistorted)  # a rational, thin-prism or tilted model
        y = (undistorted[:, 1] - k[1, 2]) / k[1, 1]
        x = (undistorted[:, 0] - k[0, 2] - k[0, 1] * y) / k[0, 0]
        k1, k2, p1, p2, k3 = (float(v) for v in [*self.dist[:5], 0.0][:5])
        r2 = x * x + y * y
        radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        out = np.empty((len(undistorted), 2), np.float64)
        out[:, 0] = k[0, 0] * xd + k[0, 2]  # projectPoints ignores a skew
        out[:, 1] = k[1, 1] * yd + k[1, 2]
        return out

    def _project(self, undistorted: FloatArray) -> FloatArray:
        """Undistorted pixels (N x 2) to distorted ones by cv2.projectPoints, in chunks
        (it also computes each point's Jacobian: 100s of MB for a whole warp map)."""
        assert self.k is not None and self.dist is not None
        ones = np.ones((len(undistorted), 1))
        rays = (np.linalg.inv(self.k) @ np.hstack([undistorted, ones]).T).T
        out = np.empty((len(rays), 2), np.float64)
        chunk = 16384
        for i in range(0, len(rays), chunk):
            projected, _ = cv2.projectPoints(
                rays[i : i + chunk], np.zeros(3), np.zeros(3), self.k, self.dist
            )
            out[i : i + chunk] = projected.reshape(-1, 2)
        return out

    @functools.cached_property
    def px_per_mm_max(self) -> float:
        """The largest image scale (px per board mm, along either axis) at the surface's
        corners: under perspective the corner nearest the camera."""
        scale = 0.0
        w, h = self.width_mm, self.height_mm
        for x, y in [(0, 0), (w, 0), (w, h), (0, h)]:
            pts = self.mm_to_px([(x, y), (x + 10, y), (x, y + 10)])
            along = max(
                float(np.linalg.norm(pts[1] - pts[0])), float(np.linalg.norm(pts[2] - pts[0]))
            )
            scale = max(scale, along / 10)
        return scale

    def local_homography(self, x_mm: float, y_mm: float, half_mm: float) -> FloatArray:
        """The map from board mm to raw image pixels within `half_mm` of (x_mm, y_mm), as
        one homography (3 x 3), fitted to a 5 x 5 grid of points mapped exactly. A lens's
        distortion barely bends within a few centimetres: over a 64 mm square it stays
        within 0.04 px of `mm_to_px` on the rendered boards (0.12 px by the corner of a
        strongly barrelled lens, k1 = -0.15), and applying it to thousands of points takes
        a fraction of the time."""
        # The grid round the point, and the same scaled to [-1, 1] x [-1, 1].
        px = self.mm_to_px(_GRID_5X5 * half_mm + np.array([x_mm, y_mm]))
        u, v = px[:, 0:1], px[:, 1:2]
        x, y = _GRID_5X5[:, 0:1], _GRID_5X5[:, 1:2]
        one, zero = np.ones_like(x), np.zeros_like(x)
        # u (h6 x + h7 y + 1) = h0 x + h1 y + h2, and so for v: linear in h0..h7; on the
        # grid scaled to [-1, 1] for a well-conditioned least squares.
        a = np.vstack(
            [
                np.hstack([x, y, one, zero, zero, zero, -x * u, -y * u]),
                np.hstack([zero, zero, zero, x, y, one, -x * v, -y * v]),
            ]
        )
        h = np.append(np.linalg.lstsq(a, np.vstack([u, v])[:, 0], rcond=None)[0], 1.0)
        # From board mm: first to the grid's scaled frame.
        to_grid = np.array([[1, 0, -x_mm], [0, 1, -y_mm], [0, 0, half_mm]], np.float64) / half_mm
        to_grid[2, 2] = 1.0
        return np.asarray(h.reshape(3, 3) @ to_grid, np.float64)

    def px_to_mm(self, points_px: FloatArray | list[tuple[float, float]]) -> FloatArray:
        """Raw image pixels (N x 2) to board millimetres (N x 2)."""
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        if self.k is not None and self.dist is not None:
            pts = np.asarray(
                cv2.undistortPoints(pts, self.k, self.dist, P=self.k), dtype=np.float64
            )
        mm = cv2.perspectiveTransform(pts, self.px_to_mm_h).reshape(-1, 2)
        return np.asarray(mm, dtype=np.float64)

    # --- regions ------------------------------------------------------------------
    @property
    def bar(self) -> Rect:
        half = self.bar_width_mm / 2
        mid = self.width_mm / 2
        return Rect(mid - half, 0, mid + half, self.height_mm)

    @property
    def left(self) -> Rect:
        return Rect(0, 0, (self.width_mm - self.bar_width_mm) / 2, self.height_mm)

    @property
    def right(self) -> Rect:
        return Rect((self.width_mm + self.bar_width_mm) / 2, 0, self.width_mm, self.height_mm)

    def section_mm(self, x: float, y: float) -> Section:
        """Which part of the board a point in mm lies on: left, right, bar, or off the surface."""
        if not (0 <= x <= self.width_mm and 0 <= y <= self.height_mm):
            return "off"
        if self.bar.x0 <= x <= self.bar.x1:
            return "bar"
        return "left" if x < self.bar.x0 else "right"

    def section_px(self, x: float, y: float) -> Section:
        ((mx, my),) = self.px_to_mm([(x, y)])
        return self.section_mm(float(mx), float(my))

    def roller_section(self, roller: Color) -> Section:
        """The roller's right-hand section: white (bottom seat) rolls right, black left (§1)."""
        return "right" if roller == "white" else "left"

    def point_rect(self, point: int, color: Color = "white") -> Rect:
        """The strip a point's checkers stand on, from the edge to the centre line.

        `point` is 1-24 in `color`'s own numbering (black's n is white's 25 - n).
        """
        if not 1 <= point <= 24:
            raise ValueError(f"point {point}: expected 1-24")
        n = point if color == "white" else 25 - point
        p, h = self.point_width_mm, self.height_mm
        # Column 0..11 counted from the left edge, in the white_home = "right" layout.
        if n <= 12:  # bottom row: 1 at the right edge ... 12 at the left edge
            column, y0, y1 = 12 - n, h / 2, h
        else:  # top row: 13 at the left edge ... 24 at the right edge
            column, y0, y1 = n - 13, 0.0, h / 2
        if self.cal.white_home == "left":
            column = 11 - column
        x0 = column * p + (self.bar_width_mm if column >= 6 else 0.0)
        return Rect(x0, y0, x0 + p, y1)

    def point_at_mm(self, x: float, y: float, color: Color = "white") -> int | None:
        """The point (in `color`'s numbering) whose strip holds (x, y), if any."""
        for n in range(1, 25):
            if self.point_rect(n, color).contains(x, y):
                return n
        return None

    # --- images -------------------------------------------------------------------
    def rectify(
        self, image: NDArray[np.uint8], mm_per_px: float = 1.0, margin_mm: float = 0.0
    ) -> NDArray[np.uint8]:
        """A top-down view of the playing surface (plus `margin_mm` around it)."""
        if mm_per_px <= 0:
            raise ValueError("mm_per_px must be positive")
        if self.k is not None and self.dist is not None:
            image = np.asarray(cv2.undistort(image, self.k, self.dist), dtype=np.uint8)
        scale = 1.0 / mm_per_px
        shift = np.array([[scale, 0, margin_mm * scale], [0, scale, margin_mm * scale], [0, 0, 1]])
        out_from_px = shift @ self.px_to_mm_h
        size = (
            round((self.width_mm + 2 * margin_mm) * scale),
            round((self.height_mm + 2 * margin_mm) * scale),
        )
        view = cv2.warpPerspective(image, out_from_px, size, flags=cv2.INTER_LINEAR)
        return np.asarray(view, dtype=np.uint8)
