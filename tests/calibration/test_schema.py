"""The calibration file of CONTRACTS.md §2: reading, writing, and a one-line reason per problem."""

from __future__ import annotations

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


def edited(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(GOOD)
    for path, value in changes.items():
        *parents, key = path.split("__")
        target = doc
        for p in parents:
            target = target[p]
        if value is KeyError:
            del target[key]
        else:
            target[key] = value
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
