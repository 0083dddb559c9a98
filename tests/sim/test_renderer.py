"""The scene renderer: seeded, and its labels say exactly what the pixels show."""

from __future__ import annotations

import random
from collections import Counter

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from sim import (
    CHECKER_SHARE,
    ROLL_KINDS,
    START,
    STYLES,
    CameraPose,
    Die,
    Look,
    Scene,
    random_roll_scene,
    random_scene,
    render,
    with_trays,
)
from sim.renderer import ON_EDGE

PLAIN = Look()  # no noise, no gradient: colours can be checked exactly


def colour_near(image: np.ndarray, xy: list[float], radius: int = 2) -> np.ndarray:
    x, y = round(xy[0]), round(xy[1])
    patch = image[y - radius : y + radius + 1, x - radius : x + radius + 1].reshape(-1, 3)
    return np.median(patch, axis=0)


def test_the_same_scene_renders_the_same_image() -> None:
    scene = random_scene(random.Random(4), image_size=(640, 360))
    assert np.array_equal(render(scene).image, render(scene).image)
    other = random_scene(random.Random(5), image_size=(640, 360))
    assert not np.array_equal(render(scene).image, render(other).image)


def test_checker_labels_match_the_position_and_the_pixels() -> None:
    style = STYLES[0]
    r = render(
        Scene(
            style=style,
            white=START,
            black=START,
            look=PLAIN,
            pose=CameraPose(yaw_deg=20, tilt_deg=10, tilt_axis_deg=40),
        )
    )
    checkers = r.labels["checkers"]
    assert len(checkers) == 30
    counts = Counter((c["color"], c["point"]) for c in checkers)
    for color in ("white", "black"):
        assert {p: n for (c, p), n in counts.items() if c == color} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    for c in checkers:
        x, y = c["center_mm"]
        assert geo.point_rect(c["point"], c["color"]).contains(x, y)
        expected = style.light if c["color"] == "white" else style.dark
        assert np.abs(colour_near(r.image, c["center_px"]) - expected).max() < 25


def test_surface_corners_are_where_the_image_changes_from_frame_to_surface() -> None:
    style = STYLES[6]  # grey: frame and surface differ only in brightness
    r = render(Scene(style=style, look=PLAIN, pose=CameraPose(yaw_deg=-35, tilt_deg=12, k1=-0.1)))
    assert r.calibration is not None and r.calibration.camera is not None
    geo = BoardGeometry(r.calibration)
    # Just inside each corner: the surface or a triangle base; just outside: the frame.
    inside = geo.mm_to_px([(8, 220), (522, 220), (265 - 40, 220), (300, 220)])
    outside = geo.mm_to_px([(-8, 220), (538, 220), (265, -8), (265, 448)])
    for xy in inside[:2]:
        assert np.abs(colour_near(r.image, list(xy)) - style.surface).max() < 20
    for xy in outside:
        assert np.abs(colour_near(r.image, list(xy)) - style.frame).max() < 20
    # The raw-image corners in the labels are the calibrated corners run through the lens.
    assert np.allclose(
        geo.mm_to_px([(0, 0), (530, 0), (530, 440), (0, 440)]), r.raw_corners, atol=0.5
    )


def test_an_open_case_shows_a_tray_at_each_end_with_the_checkers_borne_off_in_it() -> None:
    style = STYLES[6]  # grey: frame, surface and checkers tell apart by brightness
    white = (4, *START[1:6], 1, *START[7:])  # four of the 6-point's five borne off
    black = (0, *START[1:])
    base = Scene(style=style, look=PLAIN, white=white, black=black, white_home="right")
    scene = with_trays(base, random.Random(1))
    assert 40 <= scene.tray_mm <= 65 and 8 <= scene.tray_rail_mm <= 20
    assert scene.margin_mm == base.frame_mm + scene.tray_rail_mm + scene.tray_mm
    assert base.margin_mm == base.frame_mm  # no trays: the frame all round
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    h, rail, tray = scene.height_mm, scene.tray_rail_mm, scene.tray_mm
    # Beyond each end: the rail (the frame's colour), then the tray (the surface's).
    for end, out in ((0.0, -1.0), (scene.width_mm, 1.0)):
        ((rx, ry),) = geo.mm_to_px([(end + out * rail / 2, 0.3 * h)])
        assert np.abs(colour_near(r.image, [rx, ry]) - style.frame).max() < 20
        ((tx, ty),) = geo.mm_to_px([(end + out * (rail + tray / 2), 0.3 * h)])
        assert np.abs(colour_near(r.image, [tx, ty]) - style.surface).max() < 20
    # White's four borne off stand in the tray beside its home board (near right), from
    # its end; none lies in the other tray, nor any of black's, who bore none off.
    home = geo.point_rect(1, "white")
    assert home.x0 > scene.width_mm / 2 and home.y0 > 0
    x = scene.width_mm + rail + tray / 2
    thick = ON_EDGE * geo.point_width_mm * CHECKER_SHARE
    ((cx, cy),) = geo.mm_to_px([(x, h - 2 - 2 * thick)])
    assert np.abs(colour_near(r.image, [cx, cy]) - style.light).max() < 20
    ((ex, ey),) = geo.mm_to_px([(x, h - 2 - 6 * thick)])  # past the fourth: the tray
    assert np.abs(colour_near(r.image, [ex, ey]) - style.surface).max() < 20
    for far in ((x, 2 + 2 * thick), (-rail - tray / 2, h - 2 - 2 * thick)):
        ((fx, fy),) = geo.mm_to_px([far])
        assert np.abs(colour_near(r.image, [fx, fy]) - style.surface).max() < 20
    # Along the long sides the case ends at the frame: the table lies beyond it.
    ((ox, oy),) = geo.mm_to_px([(scene.width_mm / 2, h + scene.frame_mm + 10)])
    assert np.abs(colour_near(r.image, [ox, oy]) - style.frame).max() > 20


def test_the_lens_bends_the_image_as_its_model_says() -> None:
    straight = render(Scene(look=PLAIN, pose=CameraPose(k1=0.0)))
    bent = render(Scene(look=PLAIN, pose=CameraPose(k1=-0.12)))
    assert straight.calibration is not None and straight.calibration.camera is None
    assert bent.calibration is not None and bent.calibration.camera is not None
    # Barrel distortion pulls the far corners towards the centre.
    centre = np.array([640, 360])
    assert np.linalg.norm(bent.raw_corners[0] - centre) < np.linalg.norm(
        straight.raw_corners[0] - centre
    )


@pytest.mark.parametrize("state", ["flat", "cocked", "on_checker"])
def test_dice_labels(state: str) -> None:
    die = Die(4, 420, 300, angle_deg=25, state=state, style="red")
    r = render(Scene(dice=(die,), look=PLAIN))
    (label,) = r.labels["dice"]
    assert label["value"] == 4 and label["state"] == state
    assert label["flat"] == (state != "cocked") and label["on_checker"] == (state == "on_checker")
    # A 4 has no pip in the middle: the face colour shows at the die's centre.
    face = (40, 40, 190)
    assert np.abs(colour_near(r.image, label["center_px"], 1) - face).max() < 30


def pip_blobs(image: np.ndarray, centre: list[float], reach: int) -> int:
    """How many separate spots of a red die's white pips lie within `reach` px of `centre`."""
    x, y = round(centre[0]), round(centre[1])
    patch = image[y - reach : y + reach, x - reach : x + reach].astype(int)
    white = ((patch.min(axis=2) > 110) & (patch.max(axis=2) - patch.min(axis=2) < 60)).astype(
        np.uint8
    )
    count, _ = cv2.connectedComponents(white)
    return count - 1


def test_a_cocked_die_drawn_from_above_shows_the_side_its_lean_turns_up_with_its_pips() -> None:
    """With `dice_sides`, a die leaning over an edge seen from above shows its top face
    foreshortened and, beside it, the side face the lean turns up, with that face's pips,
    lit as it faces the light: a cocked 1 shows its one pip and the three of the 3 beside
    it (`sim.renderer._sides`), a flat one its one pip alone; the side, in the middle of
    the band as wide as the lean's sine, is the die's colour, darker turned away from the
    light (which comes from the top left). Without, a cocked 1 shows one pip: the
    stylised drawing's side is plain."""

    def drawn(state: str, lean: float, angle: float, sides: bool = True) -> tuple[int, np.ndarray]:
        # on an empty board, between the points' tips; the side turned up lies along the
        # die's +v: -y on the board at angle 180, +y at 0
        die = Die(1, 200, 220, angle, state=state, style="red", size_mm=20, lean_deg=lean)
        scene = Scene(look=PLAIN, image_size=(1920, 1080), dice=(die,), dice_sides=sides)
        r = render(scene)
        assert r.calibration is not None
        geo = BoardGeometry(r.calibration)
        (label,) = r.labels["dice"]
        blobs = pip_blobs(r.image, label["center_px"], round(25 * geo.px_per_mm_max))
        top_half, band = 10 * np.cos(np.radians(lean)), 20 * np.sin(np.radians(lean))
        sign = -1 if angle == 180 else 1
        edge = 220 + sign * (top_half + band * 0.5)  # the middle of the side, between pips
        return blobs, colour_near(r.image, list(geo.mm_to_px([(202.7, edge)])[0]), 1)

    flat, _ = drawn("flat", 0.0, 180)
    assert flat == 1
    for lean in (25.0, 50.0):
        blobs, lit = drawn("cocked", lean, 180)
        assert blobs == 4
        b, g, red = lit
        assert red > 120 and red > 2.5 * max(b, g)  # the die's red, facing the light
        _, away = drawn("cocked", lean, 0)
        assert away[2] < 0.7 * red  # the same side turned away from it
    stylised, _ = drawn("cocked", 25.0, 180, sides=False)
    assert stylised == 1


def test_random_scenes_stay_in_view_and_in_range() -> None:
    rng = random.Random(11)
    for _ in range(8):
        scene = random_scene(rng, image_size=(640, 360))
        assert 0 <= scene.pose.tilt_deg <= 15
        r = render(scene)
        assert r.image.shape == (360, 640, 3)
        assert r.raw_corners is not None
        assert (r.raw_corners >= 0).all() and (r.raw_corners[:, 0] < 640).all()
        assert (r.raw_corners[:, 1] < 360).all()


@pytest.mark.parametrize("kind", ROLL_KINDS)
def test_roll_scenes_of_every_kind_render_at_any_image_size(kind: str) -> None:
    scene, roller, reasons = random_roll_scene(random.Random(3), kind, (640, 360))
    r = render(scene)
    assert r.image.shape == (360, 640, 3)
    assert reasons == ([] if kind in ("valid", "opening") else [kind])
    assert (roller == "opening") == (kind == "opening")
    assert len(r.labels["dice"]) == len(scene.dice) >= 1


def test_roll_scenes_are_drawn_from_the_wide_family_when_asked() -> None:
    from sim import WIDE_STYLES

    wide = {s.name for s in WIDE_STYLES}
    rng = random.Random(8)
    names = [
        random_roll_scene(rng, "valid", (640, 360), family="wide")[0].style.name for _ in range(6)
    ]
    assert set(names) <= wide and len(set(names)) > 1
    rng = random.Random(8)
    names = [random_roll_scene(rng, "valid", (640, 360))[0].style.name for _ in range(6)]
    assert not set(names) & wide
