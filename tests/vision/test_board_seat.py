"""Where the starting position's checkers place the surface (vision.board_seat), from corners
a tray or a point off."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.detect import snap_to_edges
from calibration.schema import Calibration
from sim import START, STYLES, CameraPose, Look, Scene, render
from tests.calibration.test_detect import corner_error
from vision.board_seat import start_surface


def board(
    white_home: str = "right", position: tuple[int, ...] | None = START
) -> tuple[np.ndarray, Calibration]:
    scene = Scene(
        style=STYLES[1],
        white=position,
        black=position,
        white_home=white_home,
        pose=CameraPose(yaw_deg=-12, tilt_deg=8, tilt_axis_deg=60),
        look=Look(noise=2, blur=0.5, jpeg=90),
        image_size=(1280, 720),
    )
    r = render(scene)
    assert r.calibration is not None
    return r.image, r.calibration


def moved(cal: Calibration, left: float, right: float, near: float) -> Calibration:
    """`cal` with its left end moved out by `left` of its width, its right end in by
    `right`, and its near side out by `near`."""
    c = np.array(cal.corners_px, np.float64)
    along, across = (c[1] - c[0]) + (c[2] - c[3]), (c[3] - c[0]) + (c[2] - c[1])
    along, across = along / 2, across / 2
    c[[0, 3]] -= left * along
    c[[1, 2]] -= right * along
    c[[2, 3]] += near * across / np.linalg.norm(across) * np.linalg.norm(along)
    return replace(cal, corners_px=tuple(map(tuple, c)))  # type: ignore[arg-type]


@pytest.mark.parametrize("white_home", ["right", "left"])
def test_the_start_places_the_surface_from_corners_a_tray_off(white_home: str) -> None:
    # One end taken a tray beyond the surface (9% of its width), the other a point inside
    # it, the near side a little out: the checkers place every corner within 1%, and
    # snapped onto the edges within 0.5%.
    image, truth = board(white_home)
    off = moved(truth, 0.09, 0.06, 0.02)
    true = np.array(truth.corners_px)
    assert corner_error(np.array(off.corners_px), true) > 0.05
    placed = start_surface(image, off)
    assert placed is not None
    assert corner_error(placed, true) <= 0.01
    assert corner_error(snap_to_edges(image, placed), true) <= 0.005


def test_no_checkers_place_nothing() -> None:
    image, truth = board(position=None)
    assert start_surface(image, moved(truth, 0.05, 0.0, 0.0)) is None
