"""The board frame and the mm <-> pixel map (CONTRACTS.md §1), with and without a lens model."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from calibration.schema import Calibration, Camera

CORNERS = ((420.0, 150.0), (1510.0, 160.0), (1560.0, 990.0), (380.0, 980.0))


def geometry(white_home: str = "right", camera: Camera | None = None) -> BoardGeometry:
    return BoardGeometry(
        Calibration(
            image_size=(1920, 1080), corners_px=CORNERS, white_home=white_home, camera=camera
        )
    )


LENS = Camera(
    ((1400.0, 0.0, 960.0), (0.0, 1400.0, 540.0), (0.0, 0.0, 1.0)), (-0.15, 0.06, 0.001, -0.001, 0.0)
)


def test_the_surface_corners_map_to_the_calibrated_pixels() -> None:
    g = geometry()
    mm = [(0, 0), (530, 0), (530, 440), (0, 440)]
    assert np.allclose(g.mm_to_px(mm), CORNERS, atol=1e-6)
    assert np.allclose(g.px_to_mm(list(CORNERS)), mm, atol=1e-6)


@pytest.mark.parametrize("camera", [None, LENS])
def test_mm_to_px_and_back_round_trip(camera: Camera | None) -> None:
    g = geometry(camera=camera)
    rng = np.random.default_rng(1)
    mm = rng.uniform([-30, -30], [560, 470], size=(200, 2))
    back = g.px_to_mm(g.mm_to_px(mm))
    assert np.abs(back - mm).max() < 0.01


@pytest.mark.parametrize(
    "dist",
    [
        (-0.15, 0.06, 0.001, -0.001, 0.02),  # radial and tangential, k3
        (-0.15, 0.06, 0.001, -0.001),  # four coefficients
        (-0.15, 0.06, 0.001, -0.001, 0.0, 0.01, 0.0, 0.0),  # rational: OpenCV's own call
    ],
)
def test_the_lens_model_is_opencvs(dist: tuple[float, ...]) -> None:
    # mm_to_px applies the lens model itself (fast); cv2.projectPoints is the reference.
    camera = Camera(LENS.matrix, dist)
    g = geometry(camera=camera)
    mm = np.random.default_rng(2).uniform([-60, -60], [590, 500], size=(500, 2))
    flat = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), g.mm_to_px_h).reshape(-1, 2)
    rays = np.hstack([flat, np.ones((len(flat), 1))]) @ np.linalg.inv(np.array(LENS.matrix)).T
    want, _ = cv2.projectPoints(
        rays, np.zeros(3), np.zeros(3), np.array(LENS.matrix), np.array(dist)
    )
    assert np.abs(g.mm_to_px(mm) - want.reshape(-1, 2)).max() < 1e-6


def test_the_lens_model_moves_pixels_as_distortion_does() -> None:
    plain, lens = geometry(), geometry(camera=LENS)
    # Barrel distortion (k1 < 0) pulls points away from the centre inwards:
    corner_plain = plain.mm_to_px([(0, 0)])[0]
    corner_lens = lens.mm_to_px([(0, 0)])[0]
    centre = np.array([960.0, 540.0])
    assert np.linalg.norm(corner_lens - centre) < np.linalg.norm(corner_plain - centre) - 5


@pytest.mark.parametrize(("camera", "most"), [(None, 1e-3), (LENS, 0.15)])
def test_a_local_homography_follows_the_map_round_a_point(
    camera: Camera | None, most: float
) -> None:
    g = geometry(camera=camera)
    rng = np.random.default_rng(3)
    for x, y in [(265.0, 220.0), (20.0, 20.0), (500.0, 420.0)]:  # middle and corners
        h = g.local_homography(x, y, 32.0)
        mm = rng.uniform([x - 32, y - 32], [x + 32, y + 32], size=(300, 2))
        near = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), h).reshape(-1, 2)
        assert np.abs(near - g.mm_to_px(mm)).max() < most
    # Far from where it was fitted it is no longer the map (the lens bends it).
    if camera is not None:
        far = np.array([[500.0, 420.0]])
        h = g.local_homography(265.0, 220.0, 32.0)
        away = cv2.perspectiveTransform(far.reshape(-1, 1, 2), h).reshape(-1, 2)
        assert np.abs(away - g.mm_to_px(far)).max() > 1.0


def test_the_largest_scale_is_at_the_corner_nearest_the_camera() -> None:
    g = geometry()

    def scale(x: float, y: float) -> float:
        p = g.mm_to_px([(x, y), (x + 1, y), (x, y + 1)])
        return max(float(np.linalg.norm(p[1] - p[0])), float(np.linalg.norm(p[2] - p[0])))

    # CORNERS: the near edge (y = 440 mm) is imaged wider than the far one.
    assert g.px_per_mm_max == pytest.approx(scale(0, 440), rel=0.01)
    assert g.px_per_mm_max > scale(265, 220) > scale(265, 0)


@pytest.mark.parametrize(
    ("x", "y", "section"),
    [
        (100, 200, "left"),
        (265, 200, "bar"),
        (400, 50, "right"),
        (-5, 200, "off"),
        (300, 441, "off"),
    ],
)
def test_sections(x: float, y: float, section: str) -> None:
    assert geometry().section_mm(x, y) == section


def test_section_from_pixels_and_roller_sections() -> None:
    g = geometry()
    (px,) = g.mm_to_px([(450, 300)])
    assert g.section_px(float(px[0]), float(px[1])) == "right"
    assert g.section_px(5.0, 5.0) == "off"
    assert g.roller_section("white") == "right" and g.roller_section("black") == "left"


def test_point_strips_follow_the_contract_layout() -> None:
    g = geometry()
    p = g.point_width_mm
    assert p == pytest.approx(40.0)
    one = g.point_rect(1)
    assert (one.x1, one.y1) == (530, 440) and one.x0 == pytest.approx(490) and one.y0 == 220
    assert g.point_rect(6).x0 == pytest.approx(290)  # next to the bar on the right
    assert g.point_rect(7).x1 == pytest.approx(240)  # next to the bar on the left
    assert g.point_rect(12).x0 == 0 and g.point_rect(12).y0 == 220
    assert g.point_rect(13).x0 == 0 and g.point_rect(13).y0 == 0
    assert g.point_rect(24).x1 == pytest.approx(530) and g.point_rect(24).y0 == 0
    # Black's n is white's 25 - n.
    assert g.point_rect(1, "black") == g.point_rect(24, "white")
    assert g.point_at_mm(510, 400) == 1 and g.point_at_mm(510, 400, "black") == 24
    assert g.point_at_mm(265, 100) is None  # the bar


def test_white_home_left_mirrors_the_board() -> None:
    right, left = geometry("right"), geometry("left")
    for n in range(1, 25):
        a, b = right.point_rect(n), left.point_rect(n)
        assert a.x0 == pytest.approx(530 - b.x1) and a.y0 == b.y0


def test_the_24_strips_tile_the_surface_outside_the_bar() -> None:
    g = geometry()
    rects = [g.point_rect(n) for n in range(1, 25)]
    area = sum((r.x1 - r.x0) * (r.y1 - r.y0) for r in rects)
    assert area == pytest.approx((530 - 50) * 440)
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            overlap_x = min(a.x1, b.x1) - max(a.x0, b.x0)
            overlap_y = min(a.y1, b.y1) - max(a.y0, b.y0)
            assert overlap_x <= 1e-9 or overlap_y <= 1e-9
    with pytest.raises(ValueError, match="expected 1-24"):
        g.point_rect(25)


def test_rectify_undoes_the_camera_view() -> None:
    g = geometry()
    # A top-down surface at 1 mm per pixel with a bright square on white's 1 point.
    top = np.zeros((440, 530, 3), np.uint8)
    top[380:420, 495:525] = (255, 255, 255)
    top[20:60, 10:30] = (0, 0, 255)
    to_camera = g.mm_to_px_h
    camera = cv2.warpPerspective(top, to_camera, (1920, 1080))
    back = g.rectify(camera, mm_per_px=1.0)
    assert back.shape == (440, 530, 3)
    assert back[400, 510].min() > 200 and back[40, 20, 2] > 200 and back[200, 200].max() < 30
    half = g.rectify(camera, mm_per_px=2.0, margin_mm=10)
    assert half.shape == (230, 275, 3)
