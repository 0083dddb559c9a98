"""See-through dice (`sim.DICE_CLEAR`, issue 28): precision dice as tournaments use, what
lies under them showing through, tinted, with their bottom face's pips faintly; and the
training scenes' share of them (`scripts/dicenet_data.py --clear`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim import DICE_CLEAR, DICE_STYLES, Die
from sim.renderer import _draw_die
from tests.sim.conftest import dicenet_data

pytestmark = pytest.mark.usefixtures("dice_tables_as_shipped")

PX = 2  # the renderer's top-down px per mm


def ground() -> np.ndarray:
    """Half black, half white (left and right of x = 50 mm): what lies under a die."""
    canvas = np.zeros((200, 200, 3), np.uint8)
    canvas[:, 100:] = 250
    return canvas


def test_a_see_through_die_shows_what_lies_under_it_tinted_and_an_opaque_one_does_not() -> None:
    DICE_STYLES["glass"] = ((40, 30, 200), (245, 245, 245))  # red (BGR), white pips
    DICE_STYLES["solid"] = DICE_STYLES["glass"]
    DICE_CLEAR["glass"] = 0.6
    # A 1 (one pip in the middle), its body over both halves of the ground.
    looks = {}
    for style in ("glass", "solid"):
        canvas = ground()
        _draw_die(canvas, Die(1, 50, 50, angle_deg=0.0, style=style, size_mm=20.0))
        # Two spots of the body clear of any pip (the 6 below shows through at the sides'
        # middles and corners): left over black, right over white.
        looks[style] = (
            canvas[50 * PX - 12, 50 * PX - 12].astype(int),
            canvas[50 * PX - 12, 50 * PX + 12].astype(int),
        )
    left, right = looks["glass"]
    assert right[2] > left[2] + 60  # the white ground shows through, the black does not
    assert right[2] > 2 * right[0]  # and it is tinted the die's colour
    solid_left, solid_right = looks["solid"]
    assert np.array_equal(solid_left, solid_right)  # an opaque die shows nothing under it
    assert tuple(solid_left) == (40, 30, 200)


def test_a_see_through_die_shows_its_bottom_face_faintly_and_its_top_face_as_it_is() -> None:
    DICE_STYLES["glass"] = ((120, 20, 110), (245, 245, 245))  # purple
    DICE_CLEAR["glass"] = 0.5
    canvas = np.zeros((200, 200, 3), np.uint8)  # a black point
    _draw_die(canvas, Die(1, 50, 50, angle_deg=0.0, style="glass", size_mm=20.0))
    top = canvas[50 * PX, 50 * PX].astype(int)
    assert top.min() >= 240  # the 1's pip, white
    # The 6 below: its pips at (+-0.27 u, -0.27/0/+0.27 v) of the die's side, mirrored.
    six = canvas[50 * PX, round((50 + 0.27 * 20) * PX)].astype(int)
    body = canvas[round((50 - 0.15 * 20) * PX), round((50 + 0.15 * 20) * PX)].astype(int)
    assert six.sum() > body.sum() + 60  # lighter than the body round it
    assert six.max() < 200  # but faint, not a pip of the top face


def test_training_dice_styles_are_see_through_in_the_share_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    assert not any(dicenet_data.random_dice_style(rng) in DICE_CLEAR for _ in range(200))
    monkeypatch.setattr(dicenet_data, "CLEAR_SHARE", 0.4)
    names = [dicenet_data.random_dice_style(rng) for _ in range(400)]
    clear = [n for n in names if n in DICE_CLEAR]
    assert 120 <= len(clear) <= 200
    assert all(0.3 <= DICE_CLEAR[n] <= 0.75 and n in DICE_STYLES for n in clear)


def test_a_training_scenes_squares_say_which_hold_a_see_through_die(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The reader is not taught a see-through die's state (scripts/train_dicenet.py reads
    # `clear`): each square round a die says whether that die is see-through.
    for share in (1.0, 0.0):
        monkeypatch.setattr(dicenet_data, "CLEAR_SHARE", share)
        data = next(d for k in range(100, 120) if any((d := dicenet_data.scene_data(k))["value"]))
        marked = [c for c, v in zip(data["clear"], data["value"], strict=True) if v]
        assert marked and set(marked) == {int(share)}
        assert not any(c for c, v in zip(data["clear"], data["value"], strict=True) if not v)


def test_a_see_through_die_shows_its_sides_pips_along_its_edges_from_within() -> None:
    DICE_STYLES["glass"] = ((120, 20, 110), (245, 245, 245))
    DICE_CLEAR["glass"] = 0.5
    canvas = np.zeros((200, 200, 3), np.uint8)
    _draw_die(canvas, Die(1, 50, 50, angle_deg=0.0, style="glass", size_mm=20.0))
    # The band inside the +u edge (0.36-0.45 of the side out from the middle, clear of the
    # 6 below, whose pips reach 0.35): the 2 on that side shows there, lighter than the body.
    lum = canvas.astype(int).sum(axis=2)
    band = lum[42 * PX : 58 * PX, round(57.5 * PX) : round(59.5 * PX)]
    body = lum[42 * PX : 58 * PX, 42 * PX : 58 * PX]
    assert band.max() > np.median(body) + 60
