"""Clutter on and round a board (`sim.clutter`): drawn where it says, and read as no checker
and no die where it lies beside the board."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from sim import START, random_scene, render
from sim.clutter import KINDS, draw_clutter
from vision.frame import FrameReader

sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))
from occlusion import covered, place_rects


def _start(seed: int) -> tuple[np.ndarray, BoardGeometry]:
    r = render(replace(random_scene(random.Random(seed)), white=START, black=START))
    assert r.calibration is not None
    return r.image, BoardGeometry(r.calibration)


def _centroid(outline: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    xs, ys = zip(*outline, strict=True)
    return float(np.mean(xs)), float(np.mean(ys))


@pytest.mark.parametrize("over", [True, False])
def test_each_thing_is_drawn_where_its_outline_says(over: bool) -> None:
    image, geo = _start(3)
    out, things = draw_clutter(image, geo, np.random.default_rng(7), KINDS, over=over)
    assert [t.kind for t in things] == ["arm", "arm", "cup", "clock", "card"]
    for thing in things:
        x, y = _centroid(thing.outline_mm)
        assert thing.covers(x, y) and not thing.covers(x + 400.0, y + 400.0)
        (px,) = geo.mm_to_px([(x, y)])
        col, row = round(float(px[0])), round(float(px[1]))
        if 0 <= col < image.shape[1] and 0 <= row < image.shape[0]:
            # The thing's own colour there, not the board's (a card's middle may be print).
            patch = np.s_[row - 3 : row + 4, col - 3 : col + 4]
            diff = np.abs(out[patch].astype(int) - image[patch].astype(int)).mean()
            assert diff > 8, thing.kind
        if thing.kind != "arm":  # an arm always reaches over the surface
            on_surface = 0 <= x <= geo.width_mm and 0 <= y <= geo.height_mm
            assert on_surface == over, thing.kind


def test_an_unknown_thing_is_refused_by_name() -> None:
    image, geo = _start(3)
    with pytest.raises(ValueError, match="unknown clutter 'teapot'"):
        draw_clutter(image, geo, np.random.default_rng(0), ("teapot",))


def test_the_places_under_a_thing_are_those_its_outline_reaches() -> None:
    image, geo = _start(4)
    _, things = draw_clutter(image, geo, np.random.default_rng(11), ("cup",), over=True)
    (cup,) = things
    x, y = _centroid(cup.outline_mm)
    rects = place_rects(geo)
    under = {name for name, rect in rects.items() if covered(rect, things)}
    below = geo.point_at_mm(x, y)
    if below is not None:
        assert str(below) in under
    # a cup 70-90 mm across reaches three points at most, and no point a board away
    points = {n for n in under if not n.startswith("bar")}
    assert 1 <= len(points) <= 3 or geo.bar.contains(x, y)
    for name in points:
        rect = rects[name]
        assert abs((rect.x0 + rect.x1) / 2 - x) < 100.0


@pytest.mark.parametrize("seed", [5, 6])
def test_things_beside_the_board_are_no_checkers_and_no_dice(seed: int) -> None:
    # A cup, a clock and a score card on the table beside the board: the starting position
    # reads as it is, and nothing is a die (none was thrown).
    image, geo = _start(seed)
    out, _ = draw_clutter(image, geo, np.random.default_rng(seed), ("cup", "clock", "card"), False)
    reading = FrameReader(geo).read_still(out)
    assert reading.dice == ()
    assert reading.board is not None
    assert list(reading.board.white) == list(START) == list(reading.board.black)


@pytest.mark.parametrize("seed", [5, 8])
def test_a_thing_over_the_bar_makes_both_sides_bar_unsure(seed: int) -> None:
    # Two of white's checkers on the bar, then a green cup's side over white's half of it:
    # the bar reads right without the cup, and with it neither side's bar count is sure
    # (checkers on the bar are their colour's whichever half they lie in).
    white = list(START)
    white[24], white[25] = 0, 2
    scene = replace(random_scene(random.Random(seed)), white=tuple(white), black=START)
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    bare = FrameReader(geo).read_still(r.image).board
    assert bare is not None and list(bare.white) == white
    assert min(dict(bare.places)[p] for p in ("bar-white", "bar-black")) >= 0.5
    bar = geo.bar
    x0, x1 = bar.x0 - 5, bar.x1 + 5
    y0, y1 = geo.height_mm / 2, geo.height_mm * 0.85
    outline = geo.mm_to_px([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    image = r.image.copy()
    cv2.fillConvexPoly(image, np.round(outline).astype(np.int32), (40, 110, 30))
    covered_board = FrameReader(geo).read_still(image).board
    assert covered_board is not None
    assert max(dict(covered_board.places)[p] for p in ("bar-white", "bar-black")) < 0.5
