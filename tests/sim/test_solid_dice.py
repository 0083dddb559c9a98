"""Dice drawn as solid cubes seen from the camera (`Scene.dice_solid`, issue 28): lifted by
parallax, their sides showing on the side that faces the camera, a cocked die leaning."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from sim import Die, Look, Scene, random_roll_scene, render
from sim.renderer import _draw_solid_die, _sides
from sim.scene import CameraPose

PX = 2.0  # the renderer's top-down px per mm


@pytest.mark.parametrize("value", range(1, 7))
def test_a_die_has_every_value_once_and_opposite_faces_add_up_to_seven(value: int) -> None:
    a, b, c, d = _sides(value)
    assert sorted([value, 7 - value, a, b, c, d]) == [1, 2, 3, 4, 5, 6]
    assert a + c == 7 and b + d == 7


def drawn(die: Die, eye: tuple[float, float, float]) -> np.ndarray:
    """The top-down pixels (mask) a white solid die covers, drawn on green: its faces are
    grey, its shadow (20, 20, 20) over the green is not."""
    canvas = np.zeros((400, 400, 3), np.uint8)
    canvas[:] = (0, 200, 0)
    _draw_solid_die(canvas, replace(die, style="white"), 0.0, eye, Look(shadow_deg=90.0))
    c = canvas.astype(int)
    return np.asarray((np.abs(c[..., 1] - c[..., 0]) < 12) & (c[..., 0] > 45))


def extent(mask: np.ndarray) -> tuple[float, float, float, float]:
    ys, xs = np.nonzero(mask)
    return xs.min() / PX, xs.max() / PX, ys.min() / PX, ys.max() / PX


def test_seen_from_straight_above_a_flat_die_is_its_top_face_only() -> None:
    die = Die(5, 100, 100, angle_deg=0.0, size_mm=16.0)
    x0, x1, y0, y1 = extent(drawn(die, (100.0, 100.0, 1000.0)))
    # The top face, 16 mm high: a square 16 * 1000 / 984 mm wide round the die's centre.
    side = 16 * 1000 / 984
    for lo, hi in ((x0, x1), (y0, y1)):
        assert abs((hi - lo) - side) < 1.2
        assert abs((hi + lo) / 2 - 100) < 0.8


def test_seen_from_aslant_a_flat_die_shows_the_side_facing_the_camera() -> None:
    die = Die(5, 100, 100, angle_deg=0.0, size_mm=16.0)
    eye = (-400.0, 100.0, 1000.0)  # 500 mm to the left, 1 m up
    mask = drawn(die, eye)
    x0, x1, y0, y1 = extent(mask)
    # Its top face is pushed away from the camera by 500 * 16 / 984 mm; the base stays put.
    shift = 500 * 16 / 984
    assert abs(x0 - 92) < 1.0
    assert abs(x1 - (108 + shift + 8 * 16 / 984)) < 1.5
    assert y1 - y0 < 16 * 1000 / 984 + 1.5
    # The side facing the camera fills the gap between the base's edge and the lifted top's.
    assert mask[round(100 * PX), round(93 * PX) : round(100 * PX)].all()


def test_a_cocked_die_shows_a_side_even_from_straight_above_and_a_flat_one_does_not() -> None:
    eye = (100.0, 100.0, 1000.0)
    flat = drawn(Die(3, 100, 100, size_mm=16.0), eye)
    cocked = drawn(Die(3, 100, 100, state="cocked", lean_deg=30.0, size_mm=16.0), eye)
    fx0, fx1, fy0, fy1 = extent(flat)
    cx0, cx1, cy0, cy1 = extent(cocked)
    # Leaning 30 degrees about an edge along x: its top face is foreshortened across (y), and
    # the side it leans away from shows, so it covers more ground along y than along x.
    assert abs((cx1 - cx0) - (fx1 - fx0)) < 1.5
    assert (cy1 - cy0) > (fy1 - fy0) + 4


def test_solid_dice_are_off_by_default_and_their_labels_are_the_same() -> None:
    die = Die(4, 420, 300, angle_deg=25, state="flat", style="red")
    pose = CameraPose(tilt_deg=25.0, tilt_axis_deg=30.0, distance_mm=800.0)
    plain = render(Scene(dice=(die,), pose=pose))
    solid = render(Scene(dice=(die,), pose=pose, dice_solid=True))
    assert plain.labels["dice"] == solid.labels["dice"]
    assert plain.labels["checkers"] == solid.labels["checkers"]
    assert not np.array_equal(plain.image, solid.image)
    assert Scene().dice_solid is False


def test_solid_roll_scenes_draw_solid_dice_aslant_and_leave_the_default_rolls_alone() -> None:
    plain, _, _ = random_roll_scene(random.Random(3), "cocked")
    again, _, _ = random_roll_scene(random.Random(3), "cocked")
    assert plain == again and not plain.dice_solid
    solid, _, reasons = random_roll_scene(random.Random(3), "cocked", solid=True)
    assert solid.dice_solid and reasons == ["cocked"]
    assert 0 <= solid.pose.tilt_deg <= 30 and 600 <= solid.pose.distance_mm <= 1600
    r = render(solid)
    geo = BoardGeometry(r.calibration)
    for label in r.labels["dice"]:
        (px,) = geo.mm_to_px([tuple(label["center_mm"])])
        assert np.allclose(px, label["center_px"], atol=1.0)


def test_roll_scenes_with_sides_are_the_same_rolls_with_cocked_dice_drawn_as_they_look() -> None:
    """`sides` (`benchmarks/dice.py --sides`) changes how a cocked die is drawn, nothing
    else: the same board, dice and verdict, and a flat die's pixels the same."""
    plain, _, _ = random_roll_scene(random.Random(3), "cocked")
    sides, _, reasons = random_roll_scene(random.Random(3), "cocked", sides=True)
    assert sides.dice_sides and not plain.dice_sides and reasons == ["cocked"]
    assert replace(sides, dice_sides=False) == plain
    assert not np.array_equal(render(plain).image, render(sides).image)
    flat = replace(plain, dice=tuple(replace(d, state="flat") for d in plain.dice))
    assert np.array_equal(render(flat).image, render(replace(flat, dice_sides=True)).image)
