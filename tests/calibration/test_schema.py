"""The calibration file of CONTRACTS.md §2: reading, writing, and a one-line reason per problem."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from calibration.schema import Calibration, CalibrationError, from_json, load

GOOD: dict[str, Any] = {
    "format": "bgcompanion-calibration",
    "version": 1,
    "image_size": [1920, 1080],
    "board": {
        "corners_px": [[420.0, 150.5], [1510.0, 160.0], [1560.0, 990.0], [380.0, 980.0]],
        "width_mm": 530.0,
        "height_mm": 440.0,
        "bar_width_mm": 50.0,
        "white_home": "right",
    },
    "camera": {
        "matrix": [[1400.0, 0, 960.0], [0, 1400.0, 540.0], [0, 0, 1]],
        "dist": [-0.12, 0.05, 0.0, 0.0, 0.0],
    },
}


def _edit(doc: dict[str, Any], changes: dict[str, Any]) -> None:
    """Each change's value set at its path (keys joined by "__"); KeyError deletes it."""
    for path, value in changes.items():
        *parents, key = path.split("__")
        target = doc
        for p in parents:
            target = target[p]
        if value is KeyError:
            del target[key]
        else:
            target[key] = value


def edited(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(GOOD)
    _edit(doc, changes)
    return doc


def test_the_contract_example_reads_and_round_trips(tmp_path: Path) -> None:
    cal = from_json(GOOD)
    assert cal.image_size == (1920, 1080) and cal.white_home == "right"
    assert cal.corners_px[2] == (1560.0, 990.0)
    assert cal.camera is not None and cal.camera.dist[0] == -0.12
    path = tmp_path / "cal.json"
    cal.save(path)
    assert load(path) == cal
    assert json.loads(path.read_text())["format"] == "bgcompanion-calibration"


def test_unknown_keys_are_ignored_and_the_camera_is_optional() -> None:
    doc = edited(extra="hello", board__note="taped corner", camera=KeyError)
    cal = from_json(doc)
    assert cal.camera is None


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (edited(board__width_mm=KeyError), "board: missing key 'width_mm'"),
        (edited(board=KeyError), "calibration: missing key 'board'"),
        (edited(version=2), "unknown version 2"),
        (edited(format="something-else"), "format: expected 'bgcompanion-calibration'"),
        (edited(board__bar_width_mm=600.0), "at most a quarter of the width"),
        (edited(board__white_home="up"), "white_home: expected 'right' or 'left'"),
        (edited(board__width_mm="wide"), "board.width_mm: expected a number"),
        (edited(image_size=[1920.5, 1080]), "image_size: expected two positive whole numbers"),
        (edited(board__corners_px=[[0, 0], [1, 1]]), "expected 4 corners"),
        (
            edited(board__corners_px=[[420, 150], [1560, 990], [1510, 160], [380, 980]]),
            "not make a convex quadrilateral",
        ),
        (
            edited(board__corners_px=[[380, 980], [1560, 990], [1510, 160], [420, 150]]),
            "listed the wrong way round",
        ),
        (
            edited(board__corners_px=[[420, 150], [2510, 160], [1560, 990], [380, 980]]),
            "far-right corner (2510, 160) is outside the 1920x1080 image",
        ),
        (edited(camera__matrix=[[0, 0, 960], [0, 1400, 540], [0, 0, 1]]), "fx, fy > 0"),
        (edited(camera__dist=[0.1, 0.2, 0.3]), "expected 4, 5, 8, 12 or 14 coefficients"),
        ([1, 2, 3], "calibration: expected an object"),
        # Numbers no real board or camera has (issue 30): each named by its key.
        (edited(board__width_mm=1e7), "board.width_mm: 10000000.0 mm is not a backgammon"),
        (edited(board__width_mm=150), "board.width_mm: 150.0 mm is not a backgammon"),
        (edited(board__height_mm=1e-9), "board.height_mm: 1e-09 mm is not a height"),
        (edited(board__height_mm=900), "board.height_mm: 900.0 mm is not a height"),
        (edited(board__bar_width_mm=-1), "board.bar_width_mm: -1.0 mm must be at least 0"),
        (edited(image_size=[1, 1]), "image_size: 1x1 pixels is not a camera image's size"),
        (edited(image_size=[20000, 20000]), "image_size: 20000x20000 pixels is not"),
        (
            edited(camera__matrix=[[1e-300, 0, 960], [0, 1e-300, 540], [0, 0, 1]]),
            "camera.matrix: focal lengths 1e-300, 1e-300 px are not a lens's",
        ),
        (
            edited(camera__matrix=[[1400, 0, 960], [0, 500, 540], [0, 0, 1]]),
            "describe no real camera",
        ),
        (
            edited(camera__matrix=[[1400, 0, 5000], [0, 1400, 540], [0, 0, 1]]),
            "principal point (5000, 540) is outside",
        ),
        (edited(camera__dist=[1e300, 0, 0, 0, 0]), "camera.dist[0]: 1e+300 is outside"),
        (edited(camera__dist=[0, 0, 2.0, 0, 0]), "camera.dist[2]: 2.0 is outside"),
        (
            edited(board__corners_px=[[0, 0], [1, 0], [1, 1], [0, 1]]),
            "an edge of the board is 1 px long in the image",
        ),
    ],
)
def test_each_problem_gets_a_one_line_reason(doc: Any, message: str) -> None:
    with pytest.raises(CalibrationError) as e:
        from_json(doc)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_file_problems_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(CalibrationError, match=r"nope\.json: cannot read"):
        load(missing)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CalibrationError, match=r"bad\.json: not JSON"):
        load(bad)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(edited(version=9)))
    with pytest.raises(CalibrationError, match=r"wrong\.json: version: unknown version 9"):
        load(wrong)


def test_building_a_bad_calibration_in_code_is_refused_too() -> None:
    with pytest.raises(CalibrationError, match="convex"):
        Calibration(image_size=(100, 100), corners_px=((0, 0), (10, 0), (20, 0), (0, 10)))


def test_corners_must_be_finite_when_built_in_code() -> None:
    nan = float("nan")
    with pytest.raises(CalibrationError, match="corners_px: expected finite numbers"):
        Calibration(image_size=(100, 100), corners_px=((nan, 0), (90, 0), (90, 90), (0, 90)))


def test_the_real_boards_labelled_in_shared_data_are_within_the_bounds() -> None:
    """The bounds admit every board measured so far (the labelled real photos)."""
    from tests.conftest import SHARED

    labels = SHARED / "data" / "board_real_dev" / "labels.jsonl"
    if not labels.is_file():
        pytest.skip("shared/ is not beside the checkout")
    boards = [json.loads(line) for line in labels.read_text().splitlines() if line.strip()]
    for entry in boards:
        doc = {"format": GOOD["format"], "version": 1, "image_size": [1280, 720]}
        from_json({**doc, "board": entry["board"]})
    assert boards


# --- the appearance block (issue 27): optional, and checked like the rest -------------

LOOK: dict[str, Any] = {
    "white_is": "light",
    "checkers": {
        "white": {"lab": [88.0, 0.0, 4.0], "coloured_lab": [87.0, 1.0, 6.0]},
        "black": {"lab": [68.0, 12.0, 55.0], "coloured_lab": [66.0, 14.0, 60.0]},
        "diameter_of_point": 0.9,
        "pitch_of_point": 0.92,
    },
    "points_lab": {"odd": [35.0, 50.0, 30.0], "even": [85.0, 0.0, 5.0]},
    "surface_lab": [45.0, -30.0, 20.0],
}


def with_look(**changes: Any) -> dict[str, Any]:
    """GOOD with the LOOK block, changed as `edited` changes GOOD (keys under it)."""
    doc = copy.deepcopy(GOOD)
    doc["appearance"] = copy.deepcopy(LOOK)
    _edit(doc["appearance"], changes)
    return doc


def test_the_appearance_block_reads_and_round_trips(tmp_path: Path) -> None:
    cal = from_json(with_look())
    assert cal.appearance is not None
    assert cal.appearance.white.lab == (88.0, 0.0, 4.0) and cal.appearance.white_is == "light"
    assert cal.appearance.points_lab[1] == (85.0, 0.0, 5.0)
    path = tmp_path / "cal.json"
    cal.save(path)
    assert load(path) == cal
    assert json.loads(path.read_text())["appearance"] == LOOK


GREY = base64.b64encode(bytes(range(64))).decode("ascii")  # an 8 x 8 spot
MARK: dict[str, Any] = {"at_mm": [262.5, 351.0], "px_per_mm": 2.0, "side": 8, "grey": GREY}


def with_mark(**changes: Any) -> dict[str, Any]:
    """GOOD with the LOOK block and one dice mark, changed (keys of the mark)."""
    mark = copy.deepcopy(MARK)
    _edit(mark, changes)
    return with_look(dice_marks=[mark])


def test_learned_dice_marks_read_and_round_trip(tmp_path: Path) -> None:
    cal = from_json(with_mark())
    assert cal.appearance is not None
    (mark,) = cal.appearance.dice_marks
    assert (mark.x_mm, mark.y_mm, mark.px_per_mm, mark.side) == (262.5, 351.0, 2.0, 8)
    assert mark.grey == bytes(range(64))
    path = tmp_path / "cal.json"
    cal.save(path)
    assert load(path) == cal
    assert json.loads(path.read_text())["appearance"] == {**LOOK, "dice_marks": [MARK]}
    # a block without marks writes none
    assert "dice_marks" not in from_json(with_look()).to_json()["appearance"]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (with_look(dice_marks={"a": 1}), "appearance.dice_marks: expected a list of marks"),
        (with_mark(at_mm=[1.0]), "appearance.dice_marks[0].at_mm: expected [x, y]"),
        (with_mark(side=KeyError), "appearance.dice_marks[0]: missing key 'side'"),
        (with_mark(side=8.5), "appearance.dice_marks[0].side: expected a whole number"),
        (with_mark(side=4), "appearance.dice_marks[0].side: 4 px is not a spot's side"),
        (with_mark(side=9), "appearance.dice_marks[0].grey: 64 values, not 9 x 9"),
        (with_mark(grey="not base64!"), "appearance.dice_marks[0].grey: expected base64 text"),
        (with_mark(grey=17), "appearance.dice_marks[0].grey: expected base64 text"),
        (with_mark(px_per_mm=0.0), "appearance.dice_marks[0].px_per_mm: 0.0 is not a scale"),
        (
            with_mark(at_mm=[262.5, 9000.0]),
            "appearance.dice_marks[0].at_mm: (262.5, 9000) lies off the board",
        ),
        (with_look(dice_marks=[MARK] * 65), "appearance.dice_marks: 65 marks, more than 64"),
    ],
)
def test_a_bad_dice_mark_gets_a_one_line_reason_naming_the_key(doc: Any, message: str) -> None:
    with pytest.raises(CalibrationError) as e:
        from_json(doc)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_file_without_the_block_or_with_it_null_stays_valid_and_writes_none() -> None:
    for doc in (GOOD, {**GOOD, "appearance": None}):
        cal = from_json(doc)
        assert cal.appearance is None and "appearance" not in cal.to_json()


def test_unknown_keys_inside_the_block_are_ignored() -> None:
    assert from_json(with_look(note="learned at the club", checkers__rim=True)).appearance


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({**GOOD, "appearance": [1, 2]}, "appearance: expected an object"),
        (with_look(white_is=KeyError), "appearance: missing key 'white_is'"),
        (with_look(white_is="pale"), "appearance.white_is: expected 'light' or 'dark'"),
        (with_look(checkers__black=KeyError), "appearance.checkers: missing key 'black'"),
        (
            with_look(checkers__white__lab=[88.0, 0.0]),
            "appearance.checkers.white.lab: expected [L*, a*, b*]",
        ),
        (
            with_look(checkers__white__coloured_lab=[88.0, "x", 0.0]),
            "appearance.checkers.white.coloured_lab: expected a number",
        ),
        (
            with_look(checkers__black__lab=[168.0, 12.0, 55.0]),
            "appearance.checkers.black.lab: [168.0, 12.0, 55.0] is not a colour",
        ),
        (
            with_look(points_lab__odd=[35.0, 500.0, 30.0]),
            "appearance.points_lab.odd: [35.0, 500.0, 30.0] is not a colour",
        ),
        (with_look(points_lab__even=KeyError), "appearance.points_lab: missing key 'even'"),
        (with_look(surface_lab=[float("nan"), 0, 0]), "appearance.surface_lab: expected a number"),
        (
            with_look(checkers__diameter_of_point=3.0),
            "appearance.checkers.diameter_of_point: 3.0 is not a checker's share",
        ),
        (
            with_look(checkers__pitch_of_point=True),
            "appearance.checkers.pitch_of_point: expected a number",
        ),
        (
            with_look(checkers__pitch_of_point=0.8),
            "appearance.checkers.pitch_of_point: 0.8 is less than the diameter",
        ),
        (
            with_look(checkers__black__lab=[88.0, 1.0, 5.0]),
            "appearance.checkers: white's and black's colours are the same",
        ),
        (
            with_look(white_is="dark"),
            "appearance.white_is: 'dark', but white's checkers (L* 88) are lighter",
        ),
    ],
)
def test_a_bad_appearance_value_gets_a_one_line_reason_naming_the_key(
    doc: Any, message: str
) -> None:
    with pytest.raises(CalibrationError) as e:
        from_json(doc)
    assert message in str(e.value) and "\n" not in str(e.value)
