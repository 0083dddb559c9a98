"""Lens calibration from several photos of a printed chessboard (OpenCV's pinhole model).

    bgcompanion calibrate-lens photo1.jpg photo2.jpg ... --pattern 9x6 --square-mm 25 -o lens.json

The pattern is the count of inner corners (columns x rows). The result is the
camera matrix and distortion coefficients with the RMS reprojection error;
`bgcompanion calibrate --lens lens.json` puts them in the calibration file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.imageio import ImageFileError, load_image
from calibration.jsonin import BadJSON, loads, read_text
from calibration.schema import CalibrationError, Camera, check_camera, check_image_size

LENS_FORMAT = "bgcompanion-lens"


@dataclass(frozen=True)
class LensResult:
    camera: Camera
    image_size: tuple[int, int]
    rms_px: float
    used: list[str]
    skipped: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": LENS_FORMAT,
            "version": 1,
            "image_size": list(self.image_size),
            "camera": {
                "matrix": [list(r) for r in self.camera.matrix],
                "dist": list(self.camera.dist),
            },
            "rms_px": round(self.rms_px, 4),
            "images_used": self.used,
            "images_skipped": self.skipped,
        }


def find_corners(gray: NDArray[np.uint8], pattern: tuple[int, int]) -> NDArray[np.float32] | None:
    found, corners = cv2.findChessboardCorners(
        gray, pattern, flags=cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    )
    if not found:
        return None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 1e-3)
    return np.asarray(cv2.cornerSubPix(gray, corners, (7, 7), (-1, -1), criteria), dtype=np.float32)


def calibrate_lens(
    paths: Sequence[str | Path],
    pattern: tuple[int, int],
    square_mm: float,
    progress: Callable[[int, int, str, bool], None] | None = None,
) -> LensResult:
    """Calibrates from chessboard photos; CalibrationError if too few show the pattern."""
    if pattern[0] < 3 or pattern[1] < 3:
        raise CalibrationError("--pattern: count the inner corners, at least 3x3 (e.g. 9x6)")
    board = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    board[:, :2] = np.mgrid[0 : pattern[0], 0 : pattern[1]].T.reshape(-1, 2) * square_mm
    object_points, image_points, used, skipped = [], [], [], []
    size: tuple[int, int] | None = None
    for i, path in enumerate(paths, 1):
        try:
            image = load_image(path, grey=True)
        except ImageFileError as e:
            raise CalibrationError(str(e)) from None
        here = (image.shape[1], image.shape[0])
        if size is not None and here != size:
            raise CalibrationError(
                f"{path}: {here[0]}x{here[1]}, but the first photo is {size[0]}x{size[1]}"
            )
        size = here
        corners = find_corners(np.asarray(image, dtype=np.uint8), pattern)
        if corners is None:
            skipped.append(str(path))
        else:
            object_points.append(board)
            image_points.append(corners)
            used.append(str(path))
        if progress:
            progress(i, len(paths), str(path), corners is not None)
    if len(used) < 3 or size is None:
        raise CalibrationError(
            f"the {pattern[0]}x{pattern[1]} chessboard was found in {len(used)} of {len(paths)} "
            "photos; need at least 3 (--pattern counts inner corners; show the whole chessboard, "
            "at varied angles)"
        )
    rms, k, dist, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None)
    matrix = tuple(tuple(float(v) for v in row) for row in k)
    camera = Camera(matrix, tuple(float(v) for v in np.ravel(dist)))  # type: ignore[arg-type]
    return LensResult(camera, size, float(rms), used, skipped)


def load_lens(path: str | Path) -> tuple[Camera, tuple[int, int]]:
    try:
        doc = loads(read_text(path))
    except (OSError, UnicodeDecodeError, BadJSON) as e:
        raise CalibrationError(f"{path}: cannot read a lens file ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != LENS_FORMAT:
        raise CalibrationError(f"{path}: not a lens file (format {LENS_FORMAT!r})")
    try:
        cam = doc["camera"]
        matrix = tuple(tuple(float(v) for v in row) for row in cam["matrix"])
        camera = Camera(matrix, tuple(float(v) for v in cam["dist"]))  # type: ignore[arg-type]
        size = (int(doc["image_size"][0]), int(doc["image_size"][1]))
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise CalibrationError(f"{path}: lens file is missing or has a bad field ({e})") from None
    try:
        check_image_size(size)
        check_camera(camera, size)
    except CalibrationError as e:
        raise CalibrationError(f"{path}: {e}") from None
    return camera, size
