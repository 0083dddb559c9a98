"""The overlay a user checks by eye: the outline, the bar, all 24 points numbered from
white's side, and the two dice sections shaded (white rolls right, black rolls left)."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry, Rect

Image = NDArray[np.uint8]


def _polygon(geo: BoardGeometry, rect: Rect, steps: int = 12) -> NDArray[np.int32]:
    """A rectangle in mm as an image polygon (edges subdivided, so lens curvature shows)."""
    pts = []
    corners = rect.corners()
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        for t in np.linspace(0, 1, steps, endpoint=False):
            pts.append(a + (b - a) * t)
    return np.asarray(np.round(geo.mm_to_px(np.array(pts))), dtype=np.int32)


def _label(
    out: Image,
    text: str,
    at: tuple[float, float],
    scale: float,
    color: tuple[int, int, int],
    line: int,
    middle: bool,
) -> None:
    """Text centred on `at` (vertically too when `middle`), outlined in black for any board."""
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, line)
    org = (round(at[0] - tw / 2), round(at[1] + th / 2) if middle else round(at[1]))
    for colour, width in (((0, 0, 0), line + 2), (color, line)):
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, width, cv2.LINE_AA)


def draw_overlay(image: Image, geo: BoardGeometry) -> Image:
    out = image.copy()
    shade = out.copy()
    w, h = geo.width_mm, geo.height_mm
    cv2.fillPoly(shade, [_polygon(geo, geo.right)], (80, 200, 255))  # white rolls here
    cv2.fillPoly(shade, [_polygon(geo, geo.left)], (255, 160, 80))  # black rolls here
    cv2.fillPoly(shade, [_polygon(geo, geo.bar)], (60, 60, 60))
    out = np.asarray(cv2.addWeighted(shade, 0.25, out, 0.75, 0), dtype=np.uint8)
    line = max(2, round(max(image.shape[:2]) / 700))
    for n in range(1, 25):
        cv2.polylines(
            out, [_polygon(geo, geo.point_rect(n), 4)], True, (255, 255, 255), 1, cv2.LINE_AA
        )
        r = geo.point_rect(n)
        base_y = r.y0 + 0.06 * h if r.y0 == 0 else r.y1 - 0.06 * h
        ((x, y),) = geo.mm_to_px([((r.x0 + r.x1) / 2, base_y)])
        _label(
            out, str(n), (x, y), max(0.5, max(image.shape[:2]) / 2400), (255, 255, 255), line, True
        )
    cv2.polylines(out, [_polygon(geo, Rect(0, 0, w, h), 24)], True, (0, 255, 0), line, cv2.LINE_AA)
    labels = (
        ("white rolls here", geo.right, (80, 200, 255)),
        ("black rolls here", geo.left, (255, 160, 80)),
    )
    for text, rect, color in labels:
        ((x, y),) = geo.mm_to_px([rect.center])
        _label(out, text, (x, y), max(0.5, max(image.shape[:2]) / 2000), color, line, False)
    # Mark white's seat: the near edge.
    ((x, y),) = geo.mm_to_px([(w / 2, h + 0.04 * h)])
    cv2.putText(
        out,
        "white sits here",
        (round(x) - 80, round(y)),
        cv2.FONT_HERSHEY_SIMPLEX,
        max(0.5, max(image.shape[:2]) / 2400),
        (0, 255, 0),
        line,
        cv2.LINE_AA,
    )
    return np.asarray(out, dtype=np.uint8)
