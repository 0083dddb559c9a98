"""Printed ArUco markers on the frame: calibration for boards the automatic
finder cannot read (a frame the colour of the table or of the surface, heavy
shadows).

Print the sheet (`bgcompanion calibration-markers -o sheet.png`, at 100%), cut
out the four markers and lay each on the frame at one corner of the playing
surface, square to the board, with its inner corner (the one marked with a dot)
exactly on the surface's corner: marker 0 far-left, 1 far-right, 2 near-right,
3 near-left, as seen from white's seat. The markers then give the corners and
which is which; white's home side is still read from the starting position or
given with --white-home.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.schema import CORNER_NAMES, CalibrationError

FloatArray = NDArray[np.float64]
Image = NDArray[np.uint8]

DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_MM = 20.0  # printed side: fits a frame 22 mm wide or more
SHEET_DPI = 300


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, side_px: int) -> Image:
    return np.asarray(cv2.aruco.generateImageMarker(_dictionary(), marker_id, side_px), np.uint8)


def marker_sheet() -> Image:
    """An A4 page at 300 dpi with markers 0-3 (20 mm), each labelled, its inner corner dotted."""
    px_per_mm = SHEET_DPI / 25.4
    page = np.full((round(297 * px_per_mm), round(210 * px_per_mm), 3), 255, np.uint8)
    side = round(MARKER_MM * px_per_mm)
    for k, name in enumerate(CORNER_NAMES):
        x0 = round((30 + (k % 2) * 90) * px_per_mm)
        y0 = round((40 + (k // 2) * 90) * px_per_mm)
        page[y0 : y0 + side, x0 : x0 + side] = cv2.cvtColor(
            marker_image(k, side), cv2.COLOR_GRAY2BGR
        )
        # the inner corner: towards the board's centre when laid at its corner
        cx = x0 + (side if k in (0, 3) else 0)
        cy = y0 + (side if k in (0, 1) else 0)
        cv2.circle(page, (cx, cy), round(1.2 * px_per_mm), (0, 0, 255), -1)
        cv2.putText(
            page,
            f"{k}: {name}",
            (x0, y0 + side + round(8 * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            1.6,
            (0, 0, 0),
            3,
        )
    cv2.putText(
        page,
        "print at 100%: each square 20 mm; inner corner (dot) on the surface's corner",
        (round(15 * px_per_mm), round(20 * px_per_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        1.2,
        (0, 0, 0),
        2,
    )
    return page


def find_marker_corners(image: Image) -> FloatArray:
    """The surface's corners from markers 0-3 (far-left, far-right, near-right, near-left)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(_dictionary(), params)
    found, ids, _ = detector.detectMarkers(gray)
    seen: dict[int, FloatArray] = {}
    for quad, marker_id in zip(found, [] if ids is None else ids.ravel(), strict=False):
        if 0 <= int(marker_id) <= 3:
            seen[int(marker_id)] = np.asarray(quad, np.float64).reshape(4, 2)
    missing = [f"{k} ({CORNER_NAMES[k]})" for k in range(4) if k not in seen]
    if missing:
        raise CalibrationError(
            f"markers not found: {', '.join(missing)}; all four must be in view, flat and "
            "unobstructed"
        )
    centre = np.mean([seen[k].mean(axis=0) for k in range(4)], axis=0)
    corners = []
    for k in range(4):  # each marker's corner nearest the board's centre
        quad = seen[k]
        corners.append(quad[int(np.argmin(np.linalg.norm(quad - centre, axis=1)))])
    return np.asarray(corners, np.float64)
