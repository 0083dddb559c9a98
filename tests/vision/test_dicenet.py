"""The dice networks (`vision/dicenet.py`), the one dice reader: on a calibrated board the
board seen from above, the dice marked and read, and the rules' verdict on rolls they
never saw; which search reads a frame (with a calibration or without); a grey frame."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision.dicenet
import vision.networks
from calibration.geometry import BoardGeometry
from companion.rules import roll_verdict
from sim import (
    DICE_STYLES,
    ROLL_KINDS,
    START,
    CameraPose,
    Die,
    Look,
    Scene,
    random_roll_scene,
    render,
)
from tests.vision.rolls import benchmark_roll
from vision.dice import read_dice
from vision.dice_settings import DiceSettings
from vision.dicenet import around, board_frame, camera_foot, facing, warp
from vision.errors import VisionError

CFG = DiceSettings()


def test_the_board_seen_from_above_shows_each_millimetre_where_the_calibration_puts_it() -> None:
    # A turned, tilted camera with a barrelled lens: a red die's face at a known board
    # point lies at that point of the view, at its size in millimetres.
    pose = CameraPose(yaw_deg=35, tilt_deg=12, tilt_axis_deg=60, k1=-0.1)
    dice = (Die(1, 120.0, 300.0, angle_deg=0, style="red", size_mm=16),)
    r = render(
        Scene(white=START, black=START, dice=dice, pose=pose, look=Look(), image_size=(1920, 1080))
    )
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    view = board_frame(geo, 2.0, 60.0)
    seen = warp(r.image, geo, view)
    assert seen.shape == (round((geo.height_mm + 120) * 2), round((geo.width_mm + 120) * 2), 3)
    red = (seen[..., 2].astype(int) - seen[..., 1]) > 80
    for dx, dy in ((-5.5, -5.5), (5.5, 5.5), (-5.5, 5.5), (5.5, -5.5)):  # inside the face
        col, row = view.to_px(120.0 + dx, 300.0 + dy)
        assert red[round(row), round(col)]
    for dx, dy in ((-10.0, 0.0), (10.0, 0.0), (0.0, -10.0)):  # beyond its 8 mm half-side
        col, row = view.to_px(120.0 + dx, 300.0 + dy)
        assert not red[round(row), round(col)]
    # A square round a point is the same view, cut out.
    square = warp(r.image, geo, around(geo, 120.0, 300.0, 2.0, 40), cache=False)
    col, row = (round(v + 0.5) for v in view.to_px(120.0 - 10, 300.0 - 10))  # its first pixel
    cut = seen[row : row + 40, col : col + 40]
    assert np.abs(square.astype(int) - cut).mean() < 2
    # The reader's squares are warped by one homography through their corners
    # (`vision.dicenet.square`): under this lens, the same pixels as the exact map's.
    for turn in (0.0, 0.7):
        view = around(geo, 120.0, 300.0, 2.0, 72, turn)
        exact = warp(r.image, geo, view, cache=False).astype(int)
        fast = vision.dicenet.square(r.image, geo, view).astype(int)
        assert np.abs(fast - exact).mean() < 0.5
        assert np.abs(fast - exact).max() < 12  # 1 mm off: 10 on average, 130 at most


@pytest.mark.parametrize(
    "pose",
    [
        CameraPose(tilt_deg=25, tilt_axis_deg=30, distance_mm=900),
        CameraPose(yaw_deg=-70, tilt_deg=15, tilt_axis_deg=200, distance_mm=1400),
    ],
)
def test_the_square_of_a_die_is_turned_so_that_the_camera_lies_down_in_it(
    pose: CameraPose,
) -> None:
    # The camera's foot (the board point below it) from the calibration alone lies near
    # where the renderer put the camera; a square turned by `facing` has its foot straight
    # down, and shows each board millimetre where its view says.
    from sim.renderer import _eye

    scene = Scene(pose=pose, image_size=(1920, 1080))
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    f = scene.frame_mm
    ex, ey, height = _eye(scene, scene.width_mm + 2 * f, scene.height_mm + 2 * f)
    fx, fy, h = camera_foot(geo)
    assert abs(h - height) < 0.1 * height
    assert np.hypot(fx - (ex - f), fy - (ey - f)) < 0.1 * height
    x, y = 120.0, 300.0
    turn = facing(geo, x, y, 2.0)
    view = around(geo, x, y, 2.0, 40, turn)
    col, row = view.to_px(fx, fy)
    assert abs(col - 19.5) < 1 and row > 19.5  # straight below the square's centre
    assert np.allclose(view.to_mm(*view.to_px(100.0, 280.0)), (100.0, 280.0))
    seen = warp(r.image, geo, board_frame(geo, 2.0, 60.0))
    square = warp(r.image, geo, view, cache=False)
    back = board_frame(geo, 2.0, 60.0)
    for c, rr in ((5, 5), (30, 8), (12, 33)):
        bc, br = back.to_px(*view.to_mm(c, rr))
        assert np.abs(square[rr, c].astype(int) - seen[round(br), round(bc)]).max() < 40


def roll(kind: str, style: str, seed: int):  # type: ignore[no-untyped-def]
    """A roll of `kind` as the benchmark throws them, on a board it never used (seeds
    apart from the benchmark's and the networks' training scenes)."""
    rng = random.Random(f"dicenet-{kind}-{style}-{seed}")
    scene, roller, reasons = random_roll_scene(rng, kind, (1920, 1080))
    scene = replace(scene, dice=tuple(replace(d, style=style) for d in scene.dice))
    r = render(scene)
    assert r.calibration is not None
    return r, scene, roller, reasons


@pytest.mark.parametrize("style", sorted(DICE_STYLES))
@pytest.mark.parametrize("kind", ROLL_KINDS)
def test_every_kind_of_roll_in_every_style_gets_the_rules_verdict(kind: str, style: str) -> None:
    # Each kind breaks one rule (or none: valid, opening) on a random board, pose and
    # light: the reasons are the rules', and every die is found and read right.
    r, scene, roller, reasons = roll(kind, style, 1)
    geo = BoardGeometry(r.calibration)
    result = read_dice(CFG, r.image, geo)
    got = [d.to_json() for d in result.dice]
    assert roll_verdict(result.dice, roller).reasons == reasons, got
    assert sorted(d.value or 0 for d in result.dice) == sorted(d.value for d in scene.dice), got
    for truth in r.labels["dice"]:
        near = min(
            result.dice, key=lambda d: np.hypot(*np.subtract(d.center_px, truth["center_px"]))
        )
        assert np.hypot(*np.subtract(near.center_px, truth["center_px"])) < 4.0
        assert near.flat == truth["flat"] and near.on_checker == truth["on_checker"]


def test_a_die_that_changes_nothing_where_it_lies_is_read_from_the_frame_alone() -> None:
    # The dice benchmark's roll 127: a black 5 on a dark point changes less than 1% of its
    # disc since the board was seen without dice (the retired pip reader's video path
    # looked only where the board changed, and missed it). The networks read the whole
    # board from the frame alone.
    scene, roller, reasons = benchmark_roll(127)
    assert reasons == ["cocked"] and sorted(d.value for d in scene.dice) == [3, 5]
    r = render(scene)
    assert r.calibration is not None
    result = read_dice(CFG, r.image, BoardGeometry(r.calibration))
    assert sorted(d.value or 0 for d in result.dice) == [3, 5]
    assert roll_verdict(result.dice, roller).reasons == ["cocked"]


class Spy:
    """Which of the networks' searches read a frame, and the frame each was given."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, tuple[int, ...]]] = []
        for name in ("find_dice", "find_dice_plain"):
            real = getattr(vision.dicenet, name)
            monkeypatch.setattr(vision.dicenet, name, self._spy(name, real))

    def _spy(self, name: str, real: object) -> object:
        def spy(cfg: object, image: np.ndarray, *rest: object) -> object:
            self.calls.append((name, image.shape))
            return real(cfg, image, *rest)  # type: ignore[operator]

        return spy


def test_with_a_calibration_the_board_is_searched_without_one_the_photo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One reader: the networks, on the board seen from above with a calibration, over
    # the whole photo at a ladder of scales without one. Sections, checkers and the
    # board's edge are judged with a calibration only.
    r, _, roller, _ = roll("valid", "white", 3)
    geo = BoardGeometry(r.calibration)
    spy = Spy(monkeypatch)
    board = read_dice(CFG, r.image, geo)
    assert spy.calls == [("find_dice", r.image.shape)]
    assert board.dice and all(d.section in ("left", "right", "bar", "off") for d in board.dice)
    plain = read_dice(CFG, r.image, None)
    assert spy.calls[1:] == [("find_dice_plain", r.image.shape)]
    assert all(d.section is None for d in plain.dice)
    judged = roll_verdict(plain.dice, roller, calibrated=False).reasons
    assert set(judged) <= {"cocked", "dice_count", "unreadable"}


def test_a_grey_frame_is_read_as_its_grey_in_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    # A grey frame (2-D or one channel) is read by the networks, as the colour frame
    # whose three channels are its grey: the same dice as that frame, with or without
    # a calibration.
    r, _, _, _ = roll("valid", "white", 3)
    geo = BoardGeometry(r.calibration)
    grey = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
    as_colour = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    spy = Spy(monkeypatch)
    for calibration in (geo, None):
        want = [d.to_json() for d in read_dice(CFG, as_colour, calibration).dice]
        for frame in (grey, grey[:, :, None]):
            got = read_dice(CFG, frame, calibration)
            assert [d.to_json() for d in got.dice] == want
    assert {shape for _, shape in spy.calls} == {as_colour.shape}
    assert [name for name, _ in spy.calls] == ["find_dice"] * 3 + ["find_dice_plain"] * 3


@pytest.mark.parametrize(
    ("content", "error"),
    [(None, "no such network"), (b"not a network", "not a network ONNX Runtime can run")],
)
def test_a_missing_or_corrupt_network_is_a_one_line_error(
    content: bytes | None, error: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r, _, _, _ = roll("valid", "red", 4)
    if content is not None:
        (tmp_path / "dice_detector.onnx").write_bytes(content)
    monkeypatch.setattr(vision.networks, "MODELS", tmp_path)
    vision.networks.load_network.cache_clear()
    try:
        with pytest.raises(VisionError, match=rf"dice_detector\.onnx: {error}"):
            read_dice(CFG, r.image, BoardGeometry(r.calibration))
    finally:
        vision.networks.load_network.cache_clear()


def _die_alone(die: Die) -> tuple[np.ndarray, BoardGeometry]:
    """A board with `die` alone on it, photographed at 1280x720, and its geometry."""
    r = render(Scene(dice=(die,), image_size=(1280, 720)))
    assert r.calibration is not None
    return r.image, BoardGeometry(r.calibration)


def _square(die: Die, x_mm: float, y_mm: float) -> np.ndarray:
    """The reader's square round board point (x_mm, y_mm) of a board with `die` alone."""
    image, geo = _die_alone(die)
    return warp(image, geo, around(geo, x_mm, y_mm, CFG.read_px_per_mm, CFG.read_px), False)


def test_a_die_read_turned_has_the_same_odds_whichever_way_its_square_was_turned() -> None:
    # read_turns 4: the square read as it is and turned by 1, 2 and 3 quarter turns; a
    # square turned a quarter is the same four readings, so the same odds.
    square = _square(Die(2, 200.0, 150.0, angle_deg=20, style="white", size_mm=16), 200.0, 150.0)
    four = replace(CFG, read_turns=4)
    once = replace(CFG, read_turns=1)
    a = vision.dicenet._turned_values(four, [square])[0]
    b = vision.dicenet._turned_values(four, [np.rot90(square).copy()])[0]
    assert np.allclose(a, b, atol=1e-5) and abs(float(a.sum()) - 1) < 1e-5
    assert int(np.argmax(a)) == 1
    # Once: the reader's own odds of the square as it is.
    (single,) = vision.dicenet._turned_values(once, [square])
    out = vision.networks.run_network("dice_reader.onnx", vision.dicenet.blob([square]))[0]
    assert np.allclose(single, vision.networks.softmax(out[1:7]), atol=1e-5)
    assert np.abs(single - a).max() > 1e-5  # the turned readings count


def test_odds_already_read_in_a_square_stand_for_its_first_turn() -> None:
    square = _square(Die(5, 200.0, 150.0, angle_deg=35, style="red", size_mm=16), 201.0, 149.0)
    out = vision.networks.run_network("dice_reader.onnx", vision.dicenet.blob([square]))[0]
    first = vision.networks.softmax(out[1:7])
    four = replace(CFG, read_turns=4)
    (a,) = vision.dicenet._turned_values(four, [square])
    (b,) = vision.dicenet._turned_values(four, [square], [first])
    assert np.allclose(a, b, atol=1e-5)
    (c,) = vision.dicenet._turned_values(four, [square], [np.full(6, 1 / 6, np.float32)])
    assert np.abs(c - a).max() > 1e-3  # the odds given are used, not read again


def test_a_die_on_a_board_is_read_in_the_square_round_its_mark_four_times_in_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image, geo = _die_alone(Die(3, 200.0, 150.0, angle_deg=10, style="white", size_mm=16))
    squares: list[int] = []
    real = vision.dicenet.run_network

    def counting(name: str, x: np.ndarray) -> np.ndarray:
        if name == "dice_reader.onnx":
            squares.append(len(x))
        return real(name, x)

    monkeypatch.setattr(vision.dicenet, "run_network", counting)
    every = replace(CFG, turns_below=1.0)  # every die read turned, however sure
    (got,) = vision.dicenet.find_dice(every, image, geo)
    assert int(np.argmax(got.values)) + 1 == 3
    assert CFG.read_turns == 4 and squares == [1, 3]  # as it is, then three turns at once
    # Read sure in its first square (`turns_below`), the die keeps that reading.
    squares.clear()
    (sure,) = vision.dicenet.find_dice(CFG, image, geo)
    assert float(sure.values.max()) >= CFG.turns_below and squares == [1]
    assert int(np.argmax(sure.values)) + 1 == 3
    # Less sure than that, it is read turned.
    squares.clear()
    strict = replace(CFG, turns_below=float(sure.values.max()) + 1e-6)
    vision.dicenet.find_dice(strict, image, geo)
    assert squares == [1, 3]


def test_the_networks_input_is_the_views_planes_from_minus_half_to_half() -> None:
    rng = np.random.default_rng(5)
    views = [rng.integers(0, 256, (9, 13, 3), dtype=np.uint8) for _ in range(2)]
    got = vision.dicenet.blob(views)
    assert got.shape == (2, 3, 9, 13) and got.dtype == np.float32
    want = cv2.dnn.blobFromImages(views, 1 / 255.0, (0, 0), (127.5,) * 3, False, False)
    assert np.array_equal(got, want)  # the networks were trained on OpenCV's own blobs
    assert abs(float(got[1, 2, 4, 7]) - (int(views[1][4, 7, 2]) - 127.5) / 255.0) < 1e-7


def _faceless(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader made to see a die's presence but no face: its value logits all equal."""
    real = vision.dicenet.run_network

    def flat_values(name: str, x: np.ndarray) -> np.ndarray:
        out = real(name, x)
        if name == "dice_reader.onnx":
            out = out.copy()
            out[:, 1:7] = 0.0
        return out

    monkeypatch.setattr(vision.dicenet, "run_network", flat_values)


def test_a_mark_whose_face_cannot_be_read_is_no_die(monkeypatch: pytest.MonkeyPatch) -> None:
    # A checker's print or highlight, the cube's number: the reader may see something
    # there, but no die's face (its value odds below `value_min`). Such a mark is not
    # reported: no phantom die, no reroll called for a die that is not there.
    image, geo = _die_alone(Die(4, 200.0, 150.0, angle_deg=15, style="white", size_mm=16))
    (seen,) = read_dice(CFG, image, geo).dice
    assert seen.value == 4
    assert 4 in [d.value for d in read_dice(CFG, image).dice]  # a plain photo too
    _faceless(monkeypatch)
    assert read_dice(CFG, image, geo).dice == []
    assert read_dice(CFG, image).dice == []
    # With `value_min` below even odds (1/6 each) the same mark is a die: the setting rules.
    assert len(read_dice(replace(CFG, value_min=0.1), image, geo).dice) == 1


def _plain_die(x: float, side: float, present: float, odds: float) -> vision.dicenet.PlainDie:
    """A die read on a plain photo at (x, 0), `side` px, a 3 read with `odds`."""
    values = np.full(6, (1 - odds) / 5, np.float32)
    values[2] = odds
    states = np.array([1, 0, 0], np.float32)
    return vision.dicenet.PlainDie(x, 0.0, side, present, values, states)


def test_a_plain_photos_dice_are_sized_by_the_surest_die_with_a_face_read() -> None:
    # Without a calibration the dice kept are of about the surest die's size
    # (`plain_sizes_apart`). A mark with no face read is no die, so it sets no size: the
    # surest mark here is faceless and ten times the dice's size (a checker's letter or
    # the cube read at a coarse scale), and the dice are kept.
    die = _plain_die
    faceless, a, b = die(0, 200, 0.99, 0.3), die(400, 20, 0.9, 0.95), die(500, 24, 0.8, 0.9)
    tiny = die(600, 5, 0.7, 0.99)  # a die's pip read as a die: of no die's size
    kept = vision.dicenet._kept(CFG, [faceless, a, b, tiny])
    assert [id(d) for d in kept] == [id(a), id(b)]
    # A face read, the large mark is the surest die and sets the size: the others go.
    faced = die(0, 200, 0.99, 0.9)
    assert [id(d) for d in vision.dicenet._kept(CFG, [faced, a, b])] == [id(faced)]


def test_of_one_dies_readings_at_several_scales_the_surest_with_a_face_read_stands() -> None:
    # A die is read at two or three neighbouring scales. The reading the reader is surest
    # is there is not always one it reads a face in: the face rule judges each reading,
    # and of those left the surest a place is the die.
    reading = _plain_die
    blurred = reading(0.0, 40.0, 0.99, 0.4)  # the surest reading: no face read
    sharp = reading(2.0, 60.0, 0.9, 0.95)  # the same die at the next scale: a 3
    weaker = reading(-2.0, 27.0, 0.7, 0.8)  # and at the one below, less sure
    apart = reading(500.0, 50.0, 0.8, 0.9)  # another die
    kept = vision.dicenet._kept(CFG, [blurred, sharp, weaker, apart])
    assert [id(d) for d in kept] == [id(sharp), id(apart)]
    # No reading of it with a face: no die there.
    assert [id(d) for d in vision.dicenet._kept(CFG, [blurred, apart])] == [id(apart)]


def test_a_plain_photos_readings_are_turned_only_where_a_die_may_still_be_kept() -> None:
    # Each reading's value is read turned before its face is judged; a reading near a
    # surer die already kept is no die whatever its face, so it is never turned. The dice
    # kept are those judging every reading keeps.
    reading = _plain_die
    blurred = reading(0.0, 40.0, 0.99, 0.4)  # no face read: the next scale's is judged
    sharp = reading(2.0, 60.0, 0.9, 0.95)
    weaker = reading(-2.0, 27.0, 0.7, 0.8)  # near sharp, kept: never turned
    apart = reading(500.0, 50.0, 0.8, 0.9)
    near_apart = reading(505.0, 50.0, 0.6, 0.9)  # near apart, kept: never turned
    dice = [weaker, near_apart, blurred, sharp, apart]
    turned: list[list[int]] = []

    def turn(wave: list[vision.dicenet.PlainDie]) -> None:
        turned.append([id(d) for d in wave])

    every = vision.dicenet._kept(CFG, list(dice))
    kept = vision.dicenet._kept(CFG, list(dice), turn)
    assert [id(d) for d in kept] == [id(d) for d in every] == [id(sharp), id(apart)]
    # First the surest of each place, in one batch; then the next reading of the place
    # whose surest had no face.
    assert turned == [[id(blurred), id(apart)], [id(sharp)]]
    # What `turn` reads is what the faces are judged on: the blurred reading turned to a
    # sure 3 is the die, and the sharp one is then never turned.
    turned.clear()

    def sharpen(wave: list[vision.dicenet.PlainDie]) -> None:
        turn(wave)
        for d in wave:
            d.values = np.asarray(np.eye(6, dtype=np.float32)[2])

    blurred = reading(0.0, 40.0, 0.99, 0.4)
    kept = vision.dicenet._kept(CFG, [blurred, sharp, apart], sharpen)
    assert [id(d) for d in kept] == [id(blurred), id(apart)]
    assert turned == [[id(blurred), id(apart)]]


def test_a_die_marked_weaker_than_many_checkers_is_still_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On boards whose checkers carry letters, numbers or highlights the detector marks many
    # of them (up to 33 a frame on the wide styles); the reader rejects them. A die marked
    # weaker than a dozen of them must still be read: `marks_max` bounds a frame's time,
    # it is no filter.
    image, geo = _die_alone(Die(5, 200.0, 150.0, angle_deg=10, style="white", size_mm=16))
    (mark,) = [m for m in vision.dicenet.detect(CFG, *_view(image, geo)) if m[2] > 0.5]

    def crowded(
        cfg: DiceSettings, image: np.ndarray, view: Any, floor: float | None = None
    ) -> list[Any]:
        # 20 strong marks on the empty surface, far from the die, then the die's, weaker
        decoys = [(40.0 + 20 * (k % 10), 330.0 + 40 * (k // 10), 0.9) for k in range(20)]
        return [*decoys, (mark[0], mark[1], 0.3)]

    monkeypatch.setattr(vision.dicenet, "detect", crowded)
    assert [d.value for d in read_dice(CFG, image, geo).dice] == [5]
    # Read only the 12 strongest (the old bound) and the die is lost among the decoys.
    assert read_dice(replace(CFG, marks_max=12), image, geo).dice == []


def _view(image: np.ndarray, geo: BoardGeometry) -> tuple[np.ndarray, Any]:
    view = vision.dicenet.board_frame(geo, CFG.detect_px_per_mm, CFG.margin_mm)
    return vision.dicenet.warp(image, geo, view), view


def test_two_readers_odds_of_a_state_are_their_geometric_mean() -> None:
    a = np.array([0.9, 0.1, 0.0], np.float32)
    b = np.array([0.1, 0.9, 0.0], np.float32)
    both = vision.dicenet.combined_states(a, b)
    assert abs(float(both.sum()) - 1) < 1e-6 and abs(float(both[0] - both[1])) < 1e-6
    sure = vision.dicenet.combined_states(np.array([0.2, 0.8, 0.0]), np.array([0.2, 0.8, 0.0]))
    assert np.allclose(sure, [0.2, 0.8, 0.0], atol=1e-4)  # agreeing readers: their odds
    # one reader sure a die is not cocked outweighs the other's lean towards it
    veto = vision.dicenet.combined_states(np.array([0.3, 0.7, 0.0]), np.array([0.98, 0.02, 0.0]))
    assert int(np.argmax(veto)) == 0


def test_on_a_board_a_dies_state_is_read_again_in_a_square_facing_the_camera(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A camera tilted 20 degrees: the state reader gets the die's square turned so that
    # the camera's foot lies down in it; its odds and the reader's make the die's state.
    pose = CameraPose(yaw_deg=0, tilt_deg=20, tilt_axis_deg=90)
    die = Die(4, 150.0, 120.0, angle_deg=15, style="white", size_mm=16)
    r = render(Scene(dice=(die,), pose=pose, image_size=(1280, 720)))
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    seen: dict[str, list[np.ndarray]] = {}
    real = vision.dicenet.run_network

    def recording(name: str, x: np.ndarray) -> np.ndarray:
        out = real(name, x)
        seen.setdefault(name, []).append(x)
        return out

    monkeypatch.setattr(vision.dicenet, "run_network", recording)
    alone = replace(CFG, state_facing=False)
    (own,) = vision.dicenet.find_dice(alone, r.image, geo)
    assert vision.dicenet.STATE_READER not in seen
    seen.clear()
    (got,) = vision.dicenet.find_dice(CFG, r.image, geo)
    assert CFG.state_facing and int(np.argmax(got.values)) + 1 == 4
    (given,) = seen[vision.dicenet.STATE_READER]
    turn = facing(geo, got.x_mm, got.y_mm, CFG.read_px_per_mm)
    assert abs(turn) > 0.1  # the camera aslant: the square is turned
    facing_square = vision.dicenet.square(
        r.image, geo, around(geo, got.x_mm, got.y_mm, CFG.read_px_per_mm, CFG.read_px, turn)
    )
    assert np.allclose(given, vision.dicenet.blob([facing_square]), atol=1e-6)
    state = vision.networks.softmax(real(vision.dicenet.STATE_READER, given)[0][7:10])
    assert np.allclose(got.states, vision.dicenet.combined_states(own.states, state), atol=1e-5)
    assert int(np.argmax(got.states)) == 0  # a flat die seen aslant: flat
