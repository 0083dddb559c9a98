"""Corner refinement from a nearby start, on rendered boards of every style."""

from __future__ import annotations

import random

import numpy as np

from calibration.refine import polish
from sim import random_scene, render


def test_corners_within_half_a_percent_from_a_start_a_percent_off() -> None:
    rng, noise = random.Random(1), np.random.default_rng(0)
    within, errors = 0, []
    for _ in range(12):
        r = render(random_scene(rng))
        assert r.raw_corners is not None
        truth = r.raw_corners
        width = float(np.linalg.norm(truth[1] - truth[0]))
        start = truth + noise.normal(0, 0.007 * width, truth.shape)
        found = polish(r.image, start)
        error = float(np.abs(found - truth).max()) / width
        errors.append(error)
        within += error <= 0.005
    assert within >= 10, errors  # measured: 18 of 20 on this kind of set
    assert float(np.median(errors)) < 0.004


def test_a_plain_straight_board_is_found_to_a_fraction_of_a_pixel() -> None:
    from sim import START, CameraPose, Scene

    r = render(Scene(white=START, black=START, pose=CameraPose(), image_size=(1280, 720)))
    assert r.raw_corners is not None
    found = polish(r.image, r.raw_corners + np.array([[3, 3], [-3, 3], [-3, -3], [3, -3]]))
    assert np.abs(found - r.raw_corners).max() < 0.6
