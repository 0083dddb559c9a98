"""What was read, drawn over the camera frame: the companion page's camera view.

Each die gets a ring (green: flat and readable; red: cocked or unread; amber: on a
checker or outside the sections) with its value; each point with checkers gets its
count at its outer edge, W for white, B for black; the bar's checkers at the bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from vision.die import DieReading

Image = NDArray[np.uint8]

GREEN, RED, AMBER = (60, 200, 60), (50, 50, 230), (0, 170, 255)


def _text(out: Image, text: str, at: tuple[int, int], scale: float, color: Any) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    thick = max(1, round(scale * 2))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (at[0] - w // 2, at[1] + h // 2)
    cv2.putText(out, text, org, font, scale, (0, 0, 0), thick + 3, cv2.LINE_AA)
    cv2.putText(out, text, org, font, scale, color, thick, cv2.LINE_AA)


def draw_reading(
    image: Image,
    dice: Sequence[DieReading],
    board: dict[str, Any] | None,
    geo: BoardGeometry | None,
    zoom: float = 1.0,
) -> Image:
    """A copy of `image` with the dice and checker counts read drawn over it. `zoom` is
    the image's size against the camera frame the readings' pixels refer to (a view
    scaled down first costs less to draw and send)."""
    out = image.copy()
    scale = out.shape[1] / 1280

    def px(points: Any) -> Any:
        assert geo is not None
        return geo.mm_to_px(points) * zoom

    if geo is not None:
        w, h = geo.cal.width_mm, geo.cal.height_mm
        outline = px([(0, 0), (w, 0), (w, h), (0, h)])
        cv2.polylines(out, [np.round(outline).astype(np.int32)], True, (200, 200, 200), 1)
    for d in dice:
        x, y = (round(v * zoom) for v in d.center_px)
        color = GREEN
        if not d.flat or d.value is None:
            color = RED
        elif d.on_checker or d.section not in (None, "left", "right"):
            color = AMBER
        radius = int(30 * scale)
        cv2.circle(out, (x, y), radius, color, max(2, int(3 * scale)), cv2.LINE_AA)
        label = str(d.value) if d.value else "?"
        _text(out, label, (x, y - radius - int(16 * scale)), 0.9 * scale, color)
    if board is not None and geo is not None:
        sides: tuple[tuple[Literal["white", "black"], str, Any], ...] = (
            ("white", "W", (255, 255, 255)),
            ("black", "B", (120, 220, 255)),
        )
        for side, mark, label_color in sides:
            counts = board.get(side) or []
            for point in range(1, 25):
                n = counts[point] if point < len(counts) else 0
                if not n:
                    continue
                rect = geo.point_rect(point, side)
                cx = (rect.x0 + rect.x1) / 2
                edge = (
                    rect.y1 - 0.3 * (rect.x1 - rect.x0)
                    if rect.y1 >= h
                    else rect.y0 + 0.3 * (rect.x1 - rect.x0)
                )
                at = px([(cx, edge)])[0]
                _text(out, f"{mark}{n}", (int(at[0]), int(at[1])), 0.6 * scale, label_color)
            bar = counts[25] if len(counts) > 25 else 0
            if bar:
                bx = geo.bar.center[0]
                by = h * (0.4 if side == "white" else 0.6)
                at = px([(bx, by)])[0]
                _text(out, f"{mark}{bar}", (int(at[0]), int(at[1])), 0.7 * scale, label_color)
    return out
