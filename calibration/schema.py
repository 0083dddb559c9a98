"""The calibration file (CONTRACTS.md §2): load, validate, save.

Every problem gets a one-line reason naming the key (a missing key, corners
that are not a convex quadrilateral or are listed in the wrong order, a bar
wider than the board, an unknown version). Keys this version does not know are
ignored, as the contract requires.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration.jsonin import BadJSON, loads

FORMAT = "bgcompanion-calibration"
VERSION = 1
CORNER_NAMES = ("far-left", "far-right", "near-right", "near-left")


class CalibrationError(ValueError):
    """A calibration file or value that cannot be used; the message is one line."""


Point = tuple[float, float]


@dataclass(frozen=True)
class Camera:
    """Pinhole camera matrix and OpenCV distortion coefficients (k1, k2, p1, p2, k3, ...)."""

    matrix: tuple[
        tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]
    ]
    dist: tuple[float, ...]


@dataclass(frozen=True)
class Calibration:
    """Where the playing surface is in the camera image, and its size in millimetres."""

    image_size: tuple[int, int]
    corners_px: tuple[Point, Point, Point, Point]  # far-left, far-right, near-right, near-left
    width_mm: float = 530.0
    height_mm: float = 440.0
    bar_width_mm: float = 50.0
    white_home: str = "right"
    camera: Camera | None = None

    def __post_init__(self) -> None:
        validate(self)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "image_size": list(self.image_size),
            "board": {
                "corners_px": [[round(x, 3), round(y, 3)] for x, y in self.corners_px],
                "width_mm": self.width_mm,
                "height_mm": self.height_mm,
                "bar_width_mm": self.bar_width_mm,
                "white_home": self.white_home,
            },
        }
        if self.camera is not None:
            doc["camera"] = {
                "matrix": [list(row) for row in self.camera.matrix],
                "dist": list(self.camera.dist),
            }
        return doc

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")


# --- reading -----------------------------------------------------------------


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CalibrationError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _get(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict):
        raise CalibrationError(f"{where}: expected an object")
    if key not in obj:
        raise CalibrationError(f"{where}: missing key '{key}'")
    return obj[key]


def _pair(value: Any, where: str) -> Point:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise CalibrationError(f"{where}: expected [x, y], got {value!r}")
    return _number(value[0], where), _number(value[1], where)


def from_json(doc: Any) -> Calibration:
    """A Calibration from the contract's JSON document; CalibrationError says what is wrong."""
    fmt = _get(doc, "format", "calibration")
    if fmt != FORMAT:
        raise CalibrationError(f"format: expected {FORMAT!r}, got {fmt!r}")
    version = _get(doc, "version", "calibration")
    if version != VERSION:
        raise CalibrationError(
            f"version: unknown version {version!r} (this program reads {VERSION})"
        )
    size = _pair(_get(doc, "image_size", "calibration"), "image_size")
    if not all(v == int(v) and v > 0 for v in size):
        raise CalibrationError(f"image_size: expected two positive whole numbers, got {list(size)}")
    board = _get(doc, "board", "calibration")
    raw_corners = _get(board, "corners_px", "board")
    if not isinstance(raw_corners, list) or len(raw_corners) != 4:
        raise CalibrationError("board.corners_px: expected 4 corners [[x, y], ...]")
    corners = tuple(
        _pair(c, f"board.corners_px[{i}] ({CORNER_NAMES[i]})") for i, c in enumerate(raw_corners)
    )
    camera = None
    if "camera" in doc and doc["camera"] is not None:
        cam = doc["camera"]
        matrix = _get(cam, "matrix", "camera")
        if not isinstance(matrix, list) or len(matrix) != 3:
            raise CalibrationError("camera.matrix: expected 3 rows of 3 numbers")
        rows: list[tuple[float, float, float]] = []
        for r, row in enumerate(matrix):
            if not isinstance(row, list) or len(row) != 3:
                raise CalibrationError(f"camera.matrix[{r}]: expected 3 numbers")
            a, b, c = (_number(v, f"camera.matrix[{r}]") for v in row)
            rows.append((a, b, c))
        dist = _get(cam, "dist", "camera")
        if not isinstance(dist, list):
            raise CalibrationError("camera.dist: expected a list of numbers")
        camera = Camera((rows[0], rows[1], rows[2]), tuple(_number(v, "camera.dist") for v in dist))
    return Calibration(
        image_size=(int(size[0]), int(size[1])),
        corners_px=(corners[0], corners[1], corners[2], corners[3]),
        width_mm=_number(_get(board, "width_mm", "board"), "board.width_mm"),
        height_mm=_number(_get(board, "height_mm", "board"), "board.height_mm"),
        bar_width_mm=_number(_get(board, "bar_width_mm", "board"), "board.bar_width_mm"),
        white_home=_get(board, "white_home", "board"),
        camera=camera,
    )


def load(path: str | Path) -> Calibration:
    """Reads and checks a calibration file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CalibrationError(f"{path}: cannot read ({e.__class__.__name__}: {e})") from None
    try:
        doc = loads(text)
    except BadJSON as e:
        raise CalibrationError(f"{path}: not JSON ({e})") from None
    try:
        return from_json(doc)
    except CalibrationError as e:
        raise CalibrationError(f"{path}: {e}") from None


# --- checking ----------------------------------------------------------------


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def validate(cal: Calibration) -> None:
    """Raises CalibrationError with the first problem found."""
    w, h, bar = cal.width_mm, cal.height_mm, cal.bar_width_mm
    if w <= 0 or h <= 0:
        raise CalibrationError(f"board: width_mm and height_mm must be positive, got {w} x {h}")
    if not 0 <= bar < w:
        raise CalibrationError(
            f"board.bar_width_mm: {bar} mm must be at least 0 and less than the width ({w} mm)"
        )
    if cal.white_home not in ("right", "left"):
        raise CalibrationError(
            f"board.white_home: expected 'right' or 'left', got {cal.white_home!r}"
        )
    c = cal.corners_px
    turns = [_cross(c[i], c[(i + 1) % 4], c[(i + 2) % 4]) for i in range(4)]
    if any(abs(t) < 1e-6 for t in turns) or len({t > 0 for t in turns}) != 1:
        raise CalibrationError("board.corners_px: the corners do not make a convex quadrilateral")
    if turns[0] < 0:
        raise CalibrationError(
            "board.corners_px: corners listed the wrong way round; expected far-left, far-right, "
            "near-right, near-left as seen from white's seat"
        )
    iw, ih = cal.image_size
    margin = 0.02 * max(iw, ih)
    for name, (x, y) in zip(CORNER_NAMES, c, strict=True):
        if not (-margin <= x <= iw + margin and -margin <= y <= ih + margin):
            raise CalibrationError(
                f"board.corners_px: the {name} corner ({x:.0f}, {y:.0f}) "
                f"is outside the {iw}x{ih} image"
            )
    if cal.camera is not None:
        (fx, _, _), (zero, fy, _), last = cal.camera.matrix
        if fx <= 0 or fy <= 0 or zero != 0 or last != (0.0, 0.0, 1.0):
            raise CalibrationError(
                "camera.matrix: expected [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] with fx, fy > 0"
            )
        if len(cal.camera.dist) not in (4, 5, 8, 12, 14):
            raise CalibrationError(
                f"camera.dist: expected 4, 5, 8, 12 or 14 coefficients, got {len(cal.camera.dist)}"
            )
