"""A still frame read whole (`vision.frame.FrameReader`): the dice judged with the
checkers found, a die over a checker's centre on a checker whatever the dice reader's
own verdict, and a mark that the checkers of a set all show at one spot no die."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import vision.dicenet
import vision.frame
from calibration.geometry import BoardGeometry
from calibration.schema import DiceMark
from companion.rules import roll_verdict
from sim import START, Die, Rendered, Scene, nth_roll, render
from vision.board import BoardReader, BoardReading, PlaceReading, paint_over
from vision.board_learn import learn_appearance
from vision.dice import read_dice
from vision.dice_settings import DiceSettings
from vision.die import DieReading
from vision.frame import (
    FrameDice,
    FrameReader,
    checker_marks,
    learned_marks,
    mirror_marks,
    over_checkers,
)


def _geo() -> BoardGeometry:
    r = render(Scene(image_size=(1280, 720)))
    assert r.calibration is not None
    return BoardGeometry(r.calibration)


def _die_at(geo: BoardGeometry, x_mm: float, y_mm: float, on_checker: bool = False) -> DieReading:
    ((u, v),) = geo.mm_to_px([(x_mm, y_mm)]).tolist()
    return DieReading(4, 0.99, (u, v), on_checker=on_checker)


def _die_on_first_checker() -> tuple[Rendered, BoardGeometry, tuple[float, float]]:
    """The starting position with a 5 resting on white's first checker: the frame, its
    geometry and that checker's centre (board mm)."""
    first = render(Scene(white=START, black=START, image_size=(1920, 1080)))
    x, y = first.labels["checkers"][0]["center_mm"]
    on = Die(5, x, y, angle_deg=10, state="on_checker", style="red")
    r = render(Scene(white=START, black=START, dice=(on,), image_size=(1920, 1080)))
    assert r.calibration is not None
    return r, BoardGeometry(r.calibration), (x, y)


def test_a_die_over_a_checkers_centre_is_on_a_checker() -> None:
    geo = _geo()
    centres = [(100.0, 40.0), (300.0, 200.0)]
    over = _die_at(geo, 104.0, 43.0)  # 5 mm from a centre: resting on that checker
    beside = _die_at(geo, 100.0, 70.0)  # 30 mm away: lying on the board beside it
    said = _die_at(geo, 250.0, 300.0, on_checker=True)  # the reader's own verdict stays
    out = over_checkers([over, beside, said], centres, geo, 19.0)
    assert [d.on_checker for d in out] == [True, False, True]
    assert out[1] is beside and out[0].value == 4 and out[0].flat
    assert over_checkers([over], [], geo, 19.0) == [over]  # no checker found: as read


def test_a_frame_marks_a_die_resting_on_a_checker_though_the_reader_calls_it_flat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    r, geo, _ = _die_on_first_checker()
    real = vision.dicenet.run_network

    def flat(name: str, x: np.ndarray) -> np.ndarray:  # the readers' state: always flat
        out = real(name, x)
        if name in ("dice_reader.onnx", vision.dicenet.STATE_READER):
            out = out.copy()
            out[:, 7:10] = [10.0, 0.0, 0.0]
        return out

    monkeypatch.setattr(vision.dicenet, "run_network", flat)
    cfg = DiceSettings()
    (alone,) = read_dice(cfg, r.image, geo).dice
    assert alone.value == 5 and not alone.on_checker
    (seen,) = FrameReader(geo, dice=cfg).read_still(r.image).dice
    assert seen.value == 5 and seen.on_checker


def test_a_mark_at_one_spot_of_a_set_of_alike_checkers_is_no_die() -> None:
    r, geo, (x, y) = _die_on_first_checker()
    board = BoardReader(geo)
    found = board.read(r.image)
    checkers = [(c[0], c[1], p.color) for p in found.places for c in p.circles]
    radius = board.d_mm / 2
    whites = [c for c in checkers if c[2] == "white" and np.hypot(c[0] - x, c[1] - y) > radius]
    assert len(whites) >= 10
    # A mark 5 mm off a bare white checker's centre: every white checker shows that spot.
    spot = _die_at(geo, whites[3][0] + 4.0, whites[3][1] + 3.0)
    real = _die_at(geo, x, y)  # the die resting on a checker: no bare checker shows it
    beside = _die_at(geo, 270.0, 220.0)  # on the board between the checkers
    cfg = DiceSettings()
    out = checker_marks(cfg, r.image, geo, [spot, real, beside], checkers, radius)
    assert out == [real, beside]
    # Without another checker of its colour to compare with, a mark stands.
    alone = [c for c in checkers if c[2] == "black"] + [whites[3]]
    assert checker_marks(cfg, r.image, geo, [spot], alone, radius) == [spot]
    # 1.0 turns the comparison off.
    never = replace(cfg, bare_alike=1.0)
    assert checker_marks(never, r.image, geo, [spot, real], checkers, radius) == [spot, real]


def test_a_frame_drops_the_highlights_of_shiny_checkers_the_dice_reader_takes_for_dice() -> None:
    # The dice benchmark's wide roll 119: red and black shiny checkers, a valid roll of two
    # dice; the dice reader alone reads two highlights as cocked 1s.
    scene, roller, reasons = nth_roll(119, 2026, "wide")
    assert scene.style.name == "red-black" and reasons == []
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    truth = sorted(d.value for d in scene.dice)
    alone = read_dice(DiceSettings(), r.image, geo).dice
    assert len(alone) > len(truth)
    assert not roll_verdict(alone, roller, True).valid  # a false reroll call
    seen = list(FrameReader(geo).read_still(r.image).dice)
    assert sorted(d.value for d in seen) == truth
    assert roll_verdict(seen, roller, True).valid


def test_a_hinge_on_the_bar_is_no_die_where_its_mirror_shows_it_too() -> None:
    # The dice benchmark's wide roll 118: a hinged bar, a valid roll of two dice, a board
    # not learnt; the dice reader reads a hinge as a 1.
    scene, roller, reasons = nth_roll(118, 2026, "wide")
    assert scene.style.hinges and reasons == []
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    truth = sorted(d.value for d in scene.dice)
    never = replace(DiceSettings(), mirror_alike=1.0)
    unmirrored = list(FrameReader(geo, dice=never).read_still(r.image).dice)
    assert len(unmirrored) == len(truth) + 1
    assert not roll_verdict(unmirrored, roller, True).valid  # a false reroll call
    seen = list(FrameReader(geo).read_still(r.image).dice)
    assert sorted(d.value for d in seen) == truth
    assert roll_verdict(seen, roller, True).valid
    # The hinge's reading, given alone: its mirror on the bar shows the other hinge.
    (hinge,) = [d for d in unmirrored if d not in seen]
    ((x, y),) = geo.px_to_mm([hinge.center_px]).tolist()
    assert abs(x - geo.width_mm / 2) < geo.bar_width_mm / 2
    cfg = DiceSettings()
    assert mirror_marks(cfg, r.image, geo, [hinge]) == []
    # Its mirror is not compared where a die was read there (dice thrown mirrored) ...
    twin = _die_at(geo, x, geo.height_mm - y)
    assert mirror_marks(cfg, r.image, geo, [hinge, twin]) == [hinge, twin]
    # ... and the dice of the roll, whose mirrors show the board, stand, as does a die
    # thrown onto the hinge (it hides the hinge; on the bar, so a reroll is called).
    assert mirror_marks(cfg, r.image, geo, seen) == seen
    onto = Die(2, x, y, angle_deg=15, style=scene.dice[0].style)
    thrown = render(replace(scene, dice=(*scene.dice, onto)))
    seen = list(FrameReader(geo).read_still(thrown.image).dice)
    assert sorted(d.value for d in seen) == sorted([*truth, 2])
    assert roll_verdict(seen, roller, True).reasons


def test_a_die_near_the_boards_middle_is_not_compared_with_its_own_mirror(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A 4 square to the board, on the line between the sides: upside down, it is itself.
    scene = Scene(white=START, black=START, image_size=(1920, 1080))
    y = scene.height_mm / 2 + 1.5
    r = render(replace(scene, dice=(Die(4, 150.0, y, style="white"),)))
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    die = [_die_at(geo, 150.0, y)]
    assert mirror_marks(DiceSettings(), r.image, geo, die) == die
    monkeypatch.setattr(vision.frame, "MIRROR_APART_MM", 0.0)  # compared with itself
    assert mirror_marks(DiceSettings(), r.image, geo, die) == []


def test_the_checkers_of_a_reading_are_its_rings_and_the_places_of_those_only_counted() -> None:
    board = BoardReader(_geo())
    first = next(p for p in board.places if p.name == "1")
    pitch = board.pitch_mm
    ring = (first.x_mm + 1.0, first.origin_mm + first.sign * 0.5 * pitch, 0.9)
    point = PlaceReading("1", "black", 3, 0.9, [ring])
    empty = PlaceReading("2", None, 0, 1.0)
    seen = BoardReading([0] * 26, [0] * 26, 0.9, [point, empty])
    out = board.checkers(seen)
    # the ring where it was found, then the layout's second and third places
    assert out[0] == (ring[0], ring[1], "black")
    assert [(round(x, 6), round(y, 6), c) for x, y, c in out[1:]] == [
        (round(first.x_mm, 6), round(first.origin_mm + first.sign * k * pitch, 6), "black")
        for k in (1.5, 2.5)
    ]
    ringed = PlaceReading("1", "black", 1, 0.9, [ring])
    assert board.checkers(BoardReading([0] * 26, [0] * 26, 0.9, [ringed])) == out[:1]


def test_only_the_rings_a_reading_counts_are_checkers() -> None:
    # A ring found at an arched point's end (0.79, just over the rings' bar) on a point the
    # reading counts bare: a die lying there beside it was called on a checker (the
    # referee's wide game 0 at its 211th reading, a false reroll call).
    arch = (57.0, 414.0, 0.79)
    assert PlaceReading("11", None, 0, 0.4, [arch]).rings() == []
    pile = [(10.0, 20.0, 0.95), (10.0, 52.0, 0.8), (10.0, 84.0, 1.0)]
    assert PlaceReading("1", "white", 2, 0.4, pile).rings() == [pile[2], pile[0]]
    assert PlaceReading("1", "white", 3, 0.9, pile).rings() == pile
    assert PlaceReading("1", "white", 5, 0.9, pile).rings() == pile  # stacked: more counted
    geo = _geo()
    die = _die_at(geo, 58.0, 398.0)
    board = BoardReader(geo)
    bare = BoardReading([0] * 26, [0] * 26, 0.4, [PlaceReading("11", None, 0, 0.4, [arch])])
    assert board.checkers(bare) == []
    rings = [(c[0], c[1]) for p in bare.places for c in p.rings()]
    assert not over_checkers([die], rings, geo, board.d_mm / 2)[0].on_checker


def test_a_die_read_where_the_starting_position_showed_one_is_the_boards_own_mark() -> None:
    # The dice benchmark's wide roll 118: a hinged bar, a valid roll of two dice; the dice
    # reader reads a hinge as a third die. The learnt marks alone: the mirror's rule off
    # (`mirror_marks` drops that hinge too, the next test).
    scene, roller, reasons = nth_roll(118, 2026, "wide")
    assert scene.style.name == "ivory-brown" and reasons == []
    truth = sorted(d.value for d in scene.dice)
    r = render(scene)
    start = render(replace(scene, dice=()))  # the board set up, before the dice: calibrate
    assert r.calibration is not None
    cfg = replace(DiceSettings(), mirror_alike=1.0)
    plain = list(FrameReader(BoardGeometry(r.calibration), dice=cfg).read_still(r.image).dice)
    assert len(plain) == 3 and not roll_verdict(plain, roller, True).valid
    look = learn_appearance(start.image, r.calibration)
    (mark,) = look.dice_marks
    assert abs(mark.x_mm - scene.width_mm / 2) < scene.bar_width_mm / 2  # on the bar
    learnt = BoardGeometry(replace(r.calibration, appearance=look))
    seen = list(FrameReader(learnt, dice=cfg).read_still(r.image).dice)
    assert sorted(d.value for d in seen) == truth and roll_verdict(seen, roller, True).valid
    # A die thrown onto that spot hides it: it stands (on the bar, so a reroll is called).
    onto = Die(2, mark.x_mm, mark.y_mm, angle_deg=15, style=scene.dice[0].style)
    thrown = render(replace(scene, dice=(*scene.dice, onto)))
    seen = list(FrameReader(learnt, dice=cfg).read_still(thrown.image).dice)
    assert sorted(d.value for d in seen) == sorted([*truth, 2])
    assert roll_verdict(seen, roller, True).reasons


def test_a_die_painted_over_takes_the_colour_round_it_and_the_view_is_left_as_it_was() -> None:
    scene = Scene(white=START, black=START, image_size=(1280, 720))
    x, y = 150.0, 180.0  # on the board between the points' tips, no checker near
    thrown = render(replace(scene, dice=(Die(5, x, y, angle_deg=20, style="red"),)))
    assert thrown.calibration is not None
    board = BoardReader(BoardGeometry(thrown.calibration))
    empty, view = board.rectify(render(scene).image), board.rectify(thrown.image)
    before = view.copy()
    u, v = board.to_view(x, y)
    painted = paint_over(view, [(u, v, 14.0 * board.s.px_per_mm)])
    assert np.array_equal(view, before)  # the view itself untouched
    r = 4  # px: well inside the die

    def patch(im: np.ndarray) -> np.ndarray:
        return im[round(v) - r : round(v) + r, round(u) - r : round(u) + r].astype(np.float64)

    assert np.abs(patch(view) - patch(empty)).mean() > 40  # a red die with white pips
    assert np.abs(patch(painted) - patch(empty)).mean() < 12
    far = (slice(0, 40), slice(0, 40))
    assert np.array_equal(painted[far], view[far])  # only round the die
    assert np.array_equal(paint_over(view, []), view)


def test_only_round_the_painted_dice_is_the_view_smoothed_again_and_as_the_whole_would_be() -> None:
    import cv2

    from vision.board_paint import SMOOTH_SIGMA, _smoothed_again

    view = np.random.default_rng(4).integers(0, 256, (100, 120, 3), dtype=np.uint8)
    smooth = cv2.GaussianBlur(view, (0, 0), SMOOTH_SIGMA)
    # inside, across the view's edges and corners, and wholly outside it
    discs = [(60.0, 50.0, 10.0), (-5.0, -5.0, 10.0), (119.6, 99.6, 30.0), (10.0, 90.0, 8.0)]
    discs.append((-50.0, -50.0, 10.0))
    painted = paint_over(view, discs)
    assert (painted != view).any(axis=2).sum() > 1000
    again = _smoothed_again(smooth, painted, discs)
    assert np.array_equal(again, cv2.GaussianBlur(painted, (0, 0), SMOOTH_SIGMA))


@pytest.mark.parametrize(
    ("roll", "style", "unpainted_right"),
    [
        # A red die on a white checker: every checker read black, unpainted, until colours
        # unlike both sets were left out of the colour split; now right either way.
        (177, "marble", True),
        (133, "black-board", False),  # a white die on an empty dark point: a dark checker
    ],
)
def test_a_frames_checkers_are_read_with_its_dice_painted_out(
    roll: int, style: str, unpainted_right: bool
) -> None:
    # Two of the dice benchmark's wide rolls: boards the checkers' network never saw.
    scene, _, _ = nth_roll(roll, 2026, "wide")
    assert scene.style.name == style
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    unpainted = FrameReader(geo, dice=DiceSettings(paint_mm=0.0)).read_still(r.image).board
    assert ((unpainted.white, unpainted.black) == (scene.white, scene.black)) == unpainted_right
    seen = FrameReader(geo).read_still(r.image)
    assert (seen.board.white, seen.board.black) == (scene.white, scene.black)
    assert seen.board.confidence >= 0.5
    assert sorted(d.value for d in seen.dice) == sorted(d.value for d in scene.dice)


def test_learned_marks_are_scaled_to_the_spots_compared() -> None:
    spot = np.arange(26 * 26, dtype=np.uint8).reshape(26, 26)
    half = DiceMark(1.0, 2.0, 1.0, 26, spot.tobytes())  # 26 mm at 1 px a mm
    same = DiceMark(3.0, 4.0, 2.0, 52, np.kron(spot, np.ones((2, 2), np.uint8)).tobytes())
    (a, b) = learned_marks([half, same])
    assert a[:2] == (1.0, 2.0) and b[:2] == (3.0, 4.0)
    assert a[2].shape == b[2].shape == (52, 52)
    assert np.abs(a[2].astype(int) - b[2].astype(int)).mean() < 3


def test_read_dice_keeps_the_frame_readers_of_its_last_few_boards() -> None:
    r = render(Scene(white=START, black=START, dice=(Die(3, 420.0, 150.0),)))
    assert r.calibration is not None
    frames, cfg = FrameDice(), DiceSettings()
    geos = [BoardGeometry(r.calibration) for _ in range(FrameDice.KEPT + 1)]
    assert [d.value for d in frames(cfg, r.image, geos[0])] == [3]
    first = frames.readers[0][2]
    assert [d.value for d in frames(cfg, r.image, geos[0])] == [3]
    assert len(frames.readers) == 1 and frames.readers[0][2] is first  # the board's again
    for geo in geos[1:]:
        frames(cfg, r.image, geo)
    assert len(frames.readers) == FrameDice.KEPT
    assert all(k[2] is not first for k in frames.readers)  # the oldest let go
    assert [d.value for d in frames(cfg, r.image, None)] == [3]  # a plain photo: dice alone
