"""The surface found by its points' colours (calibration.layout_colour), where soft, bowed
points (teardrops) show no straight triangle edge for calibration.layout_fit."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration import detect, layout_colour, layout_fit
from calibration.geometry import clockwise
from companion.cli.calibrate import choose_corners, default_arguments
from sim import (
    START,
    STYLES,
    CameraPose,
    Look,
    Scene,
    cut_image,
    random_scene,
    render,
    with_soft_points,
    with_trays,
)
from tests.calibration.test_detect import corner_error


def start_board(**shape: object) -> tuple[np.ndarray, np.ndarray, Scene]:
    """The starting position on the classic board, its points shaped as asked."""
    scene = Scene(
        style=STYLES[0],
        white=START,
        black=START,
        pose=CameraPose(yaw_deg=8, tilt_deg=6, tilt_axis_deg=30),
        look=Look(noise=2, blur=0.5, jpeg=90),
        image_size=(1280, 720),
    )
    scene = replace(scene, **shape)  # type: ignore[arg-type]
    r = render(scene)
    assert r.raw_corners is not None
    return r.image, clockwise(r.raw_corners.astype(np.float64)), scene


def along_bases(quad: np.ndarray) -> np.ndarray:
    """The quad turned so that its first side runs along the longer pair (the bases)."""
    longer = np.linalg.norm(quad[1] - quad[0]) >= np.linalg.norm(quad[2] - quad[1])
    return quad if longer else np.roll(quad, 1, axis=0)


def test_triangle_edges_show_on_triangles_and_not_on_soft_teardrops() -> None:
    for shape, seen in (({}, True), ({"point_teardrop": True, "point_soft_mm": 3.0}, False)):
        image, truth, scene = start_board(**shape)
        grads = layout_fit.gradients(image)
        bar = scene.bar_width_mm / scene.width_mm
        layout = layout_fit.Layout(along_bases(truth), bar, 0.43, 0.0)
        edges = layout_fit.triangle_edges(grads, layout)
        assert (edges >= 2 * detect.POINTS_SEEN) if seen else (edges < detect.POINTS_SEEN)


def test_the_colours_of_soft_points_score_highest_on_the_surface() -> None:
    image, truth, scene = start_board(point_teardrop=True, point_soft_mm=3.0)
    lab = layout_colour.lab_image(image)
    quad = along_bases(truth)
    bar = scene.bar_width_mm / scene.width_mm
    at_truth = float(layout_colour.scores(lab, quad[None], bar, 0.43)[0])
    u = (quad[1] - quad[0]) / 12 * (1 - bar)  # a point's width along the bases
    v = (quad[3] - quad[0]) * 0.04
    wider = quad + np.array([-1.2, 1.2, 1.2, -1.2])[:, None] * u  # trays taken in
    elsewhere = np.stack(
        [quad + 0.5 * u, quad + u, quad - u, wider, quad + v, quad - v, quad + 0.5 * u + v]
    )
    off = layout_colour.scores(lab, elsewhere, bar, 0.43)
    assert at_truth >= layout_colour.MIN_SCORE
    assert at_truth > 1.1 * off.max(), (at_truth, off)


def open_case(board: int, cut: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Board `board` of `benchmarks/calibrate.py --trays --soft-points` (with `cut`, of
    `--cut --trays --soft-points`: cut at one side as that benchmark cuts it): the image
    and its surface's corners."""
    rng, trays, soft = random.Random(2026), random.Random(2027), random.Random(2028)
    scenes = [
        with_soft_points(with_trays(random_scene(rng), trays), soft) for _ in range(board + 1)
    ]
    r = render(scenes[board])
    assert r.raw_corners is not None
    if not cut:
        return r.image, r.raw_corners
    share = float(np.random.default_rng(2026 + board).uniform(0.025, 0.06))
    return cut_image(r.image, r.raw_corners, board % 4, share)


@pytest.mark.parametrize("board", [2, 31])
def test_an_open_case_with_soft_points_is_found_by_their_colours(board: int) -> None:
    """`benchmarks/calibrate.py --trays --soft-points`'s boards 2 and 31: no triangle edge
    shows, and the case's straight edges took the trays for the surface (found 8.3% and
    9.8% off, both refused by `calibrate`, before the colours placed the points). Now the
    places the colours fit include the surface, and the starting position picks it."""
    image, truth = open_case(board)
    try:
        found = detect.find_board(image)
        candidates, message = [found.corners, *found.alternatives], None
    except detect.AmbiguousBoard as refused:
        assert str(refused) == detect.BY_COLOUR
        candidates, message = list(refused.candidates), str(refused)
    assert min(corner_error(c, truth) for c in candidates) <= 0.005
    seat = choose_corners(image, candidates, default_arguments(), None, message, io.StringIO())
    assert corner_error(np.array(seat.cal.corners_px), truth) <= 0.005


def test_a_cut_open_case_with_soft_points_offers_the_places_their_colours_fit() -> None:
    """`benchmarks/calibrate.py --cut --trays --soft-points`'s board 21: an open case with
    soft points, its frame cut at the bottom. The frame's edge and the edges' layout
    disagree there, so the board is refused as cut (`CUT_UNSURE`), naming the places for
    the starting position to decide between. Before, those were the edges' layout's alone,
    12-30% off, too far for the start's checkers to place the surface from, and `calibrate`
    refused too. Now the colours' places come first (8.7% and 10.8% off: the trays are lined
    as the surface is), near enough: the checkers put the surface right."""
    image, truth = open_case(21, cut=True)
    with pytest.raises(detect.AmbiguousBoard) as refused:
        detect.find_board(image)
    assert str(refused.value) == detect.CUT_UNSURE
    candidates = list(refused.value.candidates)
    errors = [corner_error(c, truth) for c in candidates]
    assert errors[0] < 0.1 and min(errors) > 0.05, errors
    seat = choose_corners(
        image, candidates, default_arguments(), None, detect.CUT_UNSURE, io.StringIO()
    )
    assert corner_error(np.array(seat.cal.corners_px), truth) <= 0.005


def test_a_cut_open_case_taken_whole_names_the_places_its_colours_fit() -> None:
    """`benchmarks/calibrate.py --cut --trays --soft-points`'s board 14: the frame's edge
    and the edges' layout agree on the whole case, trays and all, which reaches the
    picture's edge (`NOT_IN_VIEW`). That refusal named no place before; now it names the
    places the points' colours fit, and the starting position takes the surface from them."""
    image, truth = open_case(14, cut=True)
    with pytest.raises(detect.AmbiguousBoard) as refused:
        detect.find_board(image)
    assert str(refused.value) == detect.NOT_IN_VIEW
    candidates = list(refused.value.candidates)
    assert candidates
    seat = choose_corners(
        image, candidates, default_arguments(), None, detect.NOT_IN_VIEW, io.StringIO()
    )
    assert corner_error(np.array(seat.cal.corners_px), truth) <= 0.005


def test_points_whose_edges_show_are_not_placed_by_their_colours() -> None:
    # A board with sharp triangles is found as before: the colours are not consulted.
    image, truth, _ = start_board()
    found = layout_fit.fit(image, [detect._outline(detect._board_region(image))], [])
    assert detect._points_seen(found)
    assert corner_error(detect.find_board(image).corners, truth) <= 0.005


def test_soft_points_in_a_closed_frame_keep_the_place_the_edges_found() -> None:
    """`benchmarks/calibrate.py --soft-points`'s board 4: no triangle edge shows, but the
    frame's inner edge and the layout found the surface. The colours fit a place 5.6% off
    a little better and the surface nearly as well: the edges' place stands."""
    rng, soft = random.Random(2026), random.Random(2028)
    scenes = [with_soft_points(random_scene(rng), soft) for _ in range(5)]
    r = render(scenes[4])
    assert r.raw_corners is not None
    image = r.image
    h, w = image.shape[:2]
    scale = detect.WORK_SIZE / max(h, w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    outline = detect._outline(detect._board_region(small))
    inner, _, _ = detect._frame_surface(detect._lab(small), outline)
    edges = layout_fit.fit(small, [outline], [inner])
    assert edges is not None and not detect._points_seen(edges)
    colour = layout_colour.fit(small, inner, (edges.best,))
    assert colour is not None
    assert corner_error(colour.best.quad / scale, r.raw_corners) > 0.03
    assert corner_error(detect.find_board(image).corners, r.raw_corners) <= 0.005
