"""Calibration from printed ArUco markers laid on the frame at the surface's corners."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from calibration.markers import MARKER_MM, find_marker_corners, marker_image, marker_sheet
from calibration.schema import CalibrationError, load
from sim import START, STYLES, CameraPose, Look, Scene, render
from tests.calibration.test_tools import bg

MARGIN_MM = 4.0  # white paper left round each cut-out marker


def with_markers(scene: Scene, leave_out: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The rendered board with markers 0-3 pasted on the frame, and the true corners."""
    r = render(scene)
    assert r.calibration is not None and r.raw_corners is not None
    geo = BoardGeometry(r.calibration)
    image = r.image.copy()
    w, h, m = scene.width_mm, scene.height_mm, MARKER_MM
    outward = [(-1, -1), (1, -1), (1, 1), (-1, 1)]  # from each corner, onto the frame
    for k, (cx, cy) in enumerate([(0, 0), (w, 0), (w, h), (0, h)]):
        if k == leave_out:
            continue
        sx, sy = outward[k]

        def square(
            size: float, inset: float, cx: float = cx, sx: int = sx, cy: float = cy, sy: int = sy
        ) -> np.ndarray:
            xs = sorted([cx - sx * inset, cx + sx * (size - inset)])
            ys = sorted([cy - sy * inset, cy + sy * (size - inset)])
            pts = [(xs[0], ys[0]), (xs[1], ys[0]), (xs[1], ys[1]), (xs[0], ys[1])]
            return np.asarray(geo.mm_to_px(pts), np.float32)

        paper = square(m + 2 * MARGIN_MM, MARGIN_MM)
        cv2.fillConvexPoly(image, paper.round().astype(np.int32), (250, 250, 250))
        side = 240
        src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
        warp = cv2.getPerspectiveTransform(src, square(m, 0.0))
        ink = cv2.warpPerspective(marker_image(k, side), warp, image.shape[1::-1], borderValue=255)
        mask = cv2.warpPerspective(np.full((side, side), 255, np.uint8), warp, image.shape[1::-1])
        image[mask > 127] = cv2.cvtColor(ink, cv2.COLOR_GRAY2BGR)[mask > 127]
    return image, r.raw_corners


@pytest.mark.parametrize("style", [STYLES[0], STYLES[4], STYLES[7]], ids=lambda s: s.name)
def test_markers_give_the_corners_in_order(style: object) -> None:
    scene = Scene(
        style=style,  # type: ignore[arg-type]
        white=START,
        black=START,
        frame_mm=35,
        pose=CameraPose(yaw_deg=-20, tilt_deg=10, tilt_axis_deg=70),
        look=Look(noise=3, blur=0.5, jpeg=85),
        image_size=(1920, 1080),
    )
    image, truth = with_markers(scene)
    found = find_marker_corners(image)
    width = float(np.linalg.norm(truth[1] - truth[0]))
    assert np.abs(found - truth).max() <= 0.005 * width  # in order: far-left first


def test_a_missing_marker_is_named() -> None:
    scene = Scene(white=START, black=START, pose=CameraPose(yaw_deg=10), image_size=(1920, 1080))
    image, _ = with_markers(scene, leave_out=2)
    with pytest.raises(CalibrationError, match=r"markers not found: 2 \(near-right\)"):
        find_marker_corners(image)


def test_the_sheet_holds_four_readable_markers() -> None:
    sheet = marker_sheet()
    assert sheet.shape[:2] == (3508, 2480)  # A4 at 300 dpi
    small = cv2.resize(sheet, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]


def test_calibrate_with_markers_and_the_sheet_command(tmp_path: Path) -> None:
    scene = Scene(
        white=START, black=START, pose=CameraPose(yaw_deg=15, tilt_deg=6), image_size=(1920, 1080)
    )
    image, truth = with_markers(scene)
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), image)
    out = tmp_path / "cal.json"
    result = bg("calibrate", str(frame), "--markers", "--white-home", "right", "-o", str(out))
    assert result.returncode == 0, result.stderr
    cal = load(out)
    width = float(np.linalg.norm(truth[1] - truth[0]))
    assert np.abs(np.array(cal.corners_px) - truth).max() <= 0.005 * width
    sheet = tmp_path / "sheet.png"
    result = bg("calibration-markers", "-o", str(sheet))
    assert result.returncode == 0 and "print it at 100%" in result.stdout
    assert cv2.imread(str(sheet)).shape[:2] == (3508, 2480)
