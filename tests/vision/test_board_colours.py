"""Checkers of any two colours: the two populations found on the board itself."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from sim import START, STYLES, Scene, Style, random_scene, render
from vision.board import BoardReader
from vision.board_colours import LabView, colour_where_none_found, split_colours

# Lab (L* 0-100, a*, b*) of checker tops seen on real boards.
PAIRS = {
    "white/gold": ((88.0, 0.0, 4.0), (68.0, 12.0, 55.0)),
    "red/black": ((42.0, 55.0, 35.0), (18.0, 1.0, 0.0)),
    "ivory/brown": ((85.0, 2.0, 18.0), (35.0, 18.0, 25.0)),
    "white/red": ((90.0, 0.0, 2.0), (45.0, 60.0, 30.0)),
}


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_two_checker_colours_split_with_the_lighter_as_white(pair: str) -> None:
    light, dark = PAIRS[pair]
    rng = np.random.default_rng(1)
    lab = np.array([light] * 12 + [dark] * 9) + rng.normal(0, 3, (21, 3))
    split = split_colours(lab, gap_min=20.0)
    assert split.white.tolist() == [True] * 12 + [False] * 9
    assert split.confidence >= 0.9 and split.sure.min() > 0.5


def test_one_colour_only_is_white_or_black_by_lightness_but_unsure() -> None:
    lab = np.array([[30.0, 40.0, 20.0]] * 5)  # five red-brown checkers, nothing else
    split = split_colours(lab, gap_min=20.0)
    assert not split.white.any() and split.confidence < 0.5


def test_a_checker_between_the_two_colours_is_unsure() -> None:
    lab = np.array([[90.0, 0.0, 0.0]] * 5 + [[20.0, 0.0, 0.0]] * 5 + [[55.0, 0.0, 0.0]])
    assert split_colours(lab, gap_min=20.0).sure[-1] < 0.3


@pytest.mark.parametrize(
    ("light", "dark", "odd", "n_odd"),
    [
        ((88.0, 1.0, 8.0), (8.0, 0.0, 0.0), (53.0, 35.0, -44.0), 1),  # cream, dark, purple
        ((90.0, 0.0, 14.0), (28.0, 17.0, 26.0), (54.0, -47.0, 44.0), 4),  # ivory, brown, green
    ],
)
def test_colours_unlike_both_sets_do_not_take_a_group_of_their_own(
    light: tuple[float, float, float],
    dark: tuple[float, float, float],
    odd: tuple[float, float, float],
    n_odd: int,
) -> None:
    # Rings found on a sleeve over the board, unlike both sets: 2-means gave them one
    # group and the two sets the other, read as one colour. The sets are the groups, and
    # the sleeve's rings unsure.
    rng = np.random.default_rng(2)
    lab = np.array([light] * 12 + [dark] * 7 + [odd] * n_odd)
    lab = lab + rng.normal(0, 1, lab.shape)
    lab = np.concatenate([lab, lab], axis=1)  # a whole median and a most coloured part
    split = split_colours(lab, gap_min=20.0)
    assert split.white[:12].all() and not split.white[12:19].any()
    assert split.sure[:19].min() > 0.9 and split.sure[19:].max() < 0.5
    assert split.confidence >= 0.9


def test_a_colour_where_no_ring_was_found_far_off_to_the_side_of_both_sets_is_unsure() -> None:
    # White and red checkers; where the network alone counts checkers, the colour where
    # the first lies is nearer red than white by a good margin but as far from red as red
    # is from white, off to the side (a mustard sleeve): not a red checker, surely. One as
    # near the red ones as a shaded red checker is; a ring-found checker of the mustard
    # colour keeps the split's own sureness (sets spread wide lie that far off too).
    lab = np.array([(90.0, 0.0, 0.0)] * 8 + [(42.0, 55.0, 35.0)] * 8)
    centres = split_colours(lab, gap_min=20.0).centres
    mustard, shaded = (54.0, 12.0, 75.0), (34.0, 50.0, 30.0)
    odd = colour_where_none_found(np.array([mustard]), 20.0, centres)
    assert not odd.white[0] and odd.sure[0] < 0.5
    near = colour_where_none_found(np.array([shaded]), 20.0, centres)
    assert not near.white[0] and near.sure[0] > 0.9
    assert split_colours(np.array([*lab, mustard]), gap_min=20.0).sure[-1] > 0.5
    # Without the board's two sets known: read as one colour alone is, unsure.
    assert colour_where_none_found(np.array([shaded]), 20.0, None).sure[0] < 0.5


def test_a_lone_checker_of_the_other_set_is_no_odd_colour() -> None:
    # Late in a bear-off: one light checker, fourteen dark ones, lit and shaded: three
    # groups, but the lone light one is a set, not a colour unlike both.
    rng = np.random.default_rng(3)
    lab = np.array([(88.0, 0.0, 5.0)] + [(20.0, 0.0, 0.0)] * 8 + [(10.0, 0.0, 0.0)] * 6)
    lab = lab + rng.normal(0, 1, lab.shape)
    split = split_colours(lab, gap_min=20.0)
    assert split.white.tolist() == [True] + [False] * 14 and split.sure.min() > 0.9


def _with_checkers(base: Scene, light: tuple[int, int, int], dark: tuple[int, int, int]) -> Scene:
    style = replace(base.style, name="custom", light=light, dark=dark)
    return replace(base, style=style)


@pytest.mark.parametrize(
    ("light", "dark"),
    [
        ((40, 190, 230), (25, 70, 150)),  # gold against brown (BGR)
        ((200, 235, 245), (30, 30, 170)),  # ivory against red
        ((60, 60, 200), (35, 35, 35)),  # red against black
    ],
)
def test_the_starting_position_is_read_with_checkers_of_any_two_colours(
    light: tuple[int, int, int], dark: tuple[int, int, int]
) -> None:
    base = replace(random_scene(random.Random(11)), style=STYLES[3], white=START, black=START)
    r = render(_with_checkers(base, light, dark))
    assert r.calibration is not None
    reading = BoardReader(BoardGeometry(r.calibration)).read(r.image)
    assert reading.white == list(START) and reading.black == list(START)


def test_checkers_on_the_bar_are_their_colours_whichever_half_they_lie_in() -> None:
    # The scene's white checkers drawn dark and its black ones light: physically, the
    # dark ones on the bar lie in the light player's half of it.
    white = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2]
    black = list(START)
    base = replace(random_scene(random.Random(4)), white=tuple(white), black=tuple(black))
    style: Style = base.style
    r = render(_with_checkers(base, light=style.dark, dark=style.light))
    assert r.calibration is not None
    reading = BoardReader(BoardGeometry(r.calibration)).read(r.image)
    # The reader's black are the scene's white, seen from the other side.
    assert reading.black[25] == 2 and reading.white[25] == 0
    assert reading.black[1:25] == white[24:0:-1]
    assert reading.white[1:25] == black[24:0:-1]
    bar = {p.place: p for p in reading.places if p.place.startswith("bar")}
    assert bar["bar-black"].count == 2 and bar["bar-black"].color == "black"


def test_one_colour_left_on_the_board_keeps_the_colour_the_board_showed() -> None:
    # Gold (black's) against ivory: a reader that saw both knows a lone gold checker.
    base = replace(random_scene(random.Random(12)), style=STYLES[3], white=START, black=START)
    base = _with_checkers(base, light=(200, 235, 245), dark=(40, 170, 220))
    black = [9, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    white = [15] + [0] * 25
    first = render(base)
    assert first.calibration is not None
    reader = BoardReader(BoardGeometry(first.calibration))
    seen = reader.read(first.image)
    assert seen.white == list(START) and seen.black == list(START)
    late = render(replace(base, white=tuple(white), black=tuple(black))).image
    reading = reader.read(late)
    assert reading.black == black and reading.white == white
    # A reader that never saw both colours cannot tell, and says so.
    assert BoardReader(BoardGeometry(first.calibration)).read(late).confidence < 0.5


def test_a_lab_view_converts_the_pixels_looked_at_as_the_whole_view_would() -> None:
    rng = np.random.default_rng(4)
    bgr = rng.integers(0, 256, (40, 50, 3), dtype=np.uint8)
    whole = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
    view = LabView(bgr)
    assert view.shape == bgr.shape
    iy, ix = rng.integers(0, 40, (6, 1, 9)), rng.integers(0, 50, (6, 4, 9))
    assert np.array_equal(view[iy, ix], whole[iy, ix])
    assert np.array_equal(view[iy.ravel(), ix[:, 0].ravel()], whole[iy.ravel(), ix[:, 0].ravel()])
    # Nothing looked at (a board with no checker found): an empty sample, not an error.
    empty = np.zeros((0, 49), np.intp)
    assert view[empty, empty].shape == (0, 49, 3)
