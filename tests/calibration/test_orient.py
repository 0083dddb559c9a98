"""Orientation from the starting position: which edge is white's seat, where white's home is."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from calibration.orient import orient
from companion.rules.sample import random_positions
from sim import random_scene, render


def test_right_for_every_rendered_starting_position_whatever_the_corner_order() -> None:
    rng = random.Random(78)
    confident = 0
    for i in range(24):
        scene = random_scene(rng, image_size=(1280, 720))
        r = render(scene)
        assert r.raw_corners is not None
        shuffled = r.raw_corners[np.random.default_rng(i).permutation(4)]
        found = orient(r.image, shuffled)
        assert np.allclose(np.array(found.corners), r.raw_corners), (i, scene.style.name)
        assert found.white_home == scene.white_home
        confident += found.confident
    assert confident >= 21  # a few light checkers on light triangles are too close to call


def test_other_positions_are_not_mistaken_for_the_start() -> None:
    rng = random.Random(21)
    positions = random_positions(3, 40)[10:30]
    confident = 0
    for p in positions:
        scene = dataclasses.replace(
            random_scene(rng, image_size=(1280, 720)), white=p.white, black=p.black
        )
        r = render(scene)
        confident += orient(r.image, r.raw_corners).confident
    empty = render(random_scene(rng, start_position=False, image_size=(1280, 720)))
    assert not orient(empty.image, empty.raw_corners).confident
    assert confident <= 2
