"""The motion gate (`vision.motion`): moving frames are not read, a still frame is read
once, and a die thrown into a still scene makes it worth reading again."""

from __future__ import annotations

import cv2
import numpy as np

from sim import Die, Scene, render
from vision.motion import MotionGate


def _frames() -> tuple[np.ndarray, np.ndarray]:
    empty = render(Scene(image_size=(1280, 720))).image
    die = Die(4, 200.0, 150.0, angle_deg=15, style="white", size_mm=16)
    return empty, render(Scene(dice=(die,), image_size=(1280, 720))).image


def test_a_still_frame_is_read_once_and_a_die_thrown_into_it_again() -> None:
    empty, rolled = _frames()
    gate = MotionGate()
    assert gate.check(empty) == (True, False)  # nothing to compare with: moving
    assert gate.check(empty) == (False, True)  # still, never read
    assert gate.check(empty) == (False, False)  # still, read already
    assert gate.check(rolled) == (False, True)  # a die: too few pixels to be motion
    hand = rolled.copy()
    hand[200:600, 300:900] = (60, 90, 140)  # something large over the board
    assert gate.check(hand)[0]


def test_a_colour_frame_is_made_small_as_its_grey_would_be() -> None:
    _, rolled = _frames()
    gate = MotionGate()
    small = gate._small(rolled)
    w = gate.s.width
    size = (w, round(rolled.shape[0] * w / rolled.shape[1]))
    shrunk = cv2.resize(rolled, size, interpolation=cv2.INTER_AREA)
    want = cv2.GaussianBlur(cv2.cvtColor(shrunk, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    assert small.shape == want.shape
    assert int(np.abs(small.astype(int) - want).max()) <= 1  # rounding only
    grey = cv2.cvtColor(rolled, cv2.COLOR_BGR2GRAY)
    assert np.array_equal(gate._small(grey), small)
