"""The board's view recorded at calibration, and the drift check that matches it."""

from __future__ import annotations

import base64
import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from calibration.board_view import board_view, locate, record, recorded, register
from calibration.geometry import BoardGeometry
from calibration.refine import check_drift
from calibration.schema import BoardView, Calibration, CalibrationError, from_json, load
from companion.rules.sample import random_positions
from sim import START, CameraPose, Scene, corners_moved, random_scene, render
from sim.clutter import KINDS, draw_clutter


def _moved(
    cal: Calibration, dx: float = 0.0, dy: float = 0.0, turn: float = 0.0, scale: float = 1.0
) -> Calibration:
    """`cal` with its corners moved as the board would seem to move in the image had the
    camera moved the other way: shifted by (dx, dy) of the width, turned by `turn` radians
    and scaled about their middle."""
    c = np.array(cal.corners_px, np.float64)
    width = float(np.linalg.norm(c[1] - c[0]))
    mid = c.mean(axis=0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]) * scale
    c = (c - mid) @ rot.T + mid + np.array([dx, dy]) * width
    (a, b), (e, f), (g, h), (i, j) = c.tolist()
    return replace(cal, corners_px=((a, b), (e, f), (g, h), (i, j)))


@pytest.fixture(scope="module")
def game() -> tuple[Calibration, np.ndarray, np.ndarray]:
    """A board calibrated (0.2% off) on its starting position, the view recorded there,
    and a frame of a game on it later (other checkers, the same camera)."""
    rng = random.Random(3)
    scene = random_scene(rng)
    position = random_positions(3, 1)[0]
    start = render(replace(scene, white=START, black=START))
    later = render(replace(scene, white=tuple(position.white), black=tuple(position.black)))
    assert start.calibration is not None
    cal = corners_moved(start.calibration, 0.002, np.random.default_rng(3))
    return replace(cal, view=record(start.image, cal)), start.image, later.image


def test_the_view_is_the_board_seen_from_above_at_its_scale(
    game: tuple[Calibration, np.ndarray, np.ndarray],
) -> None:
    cal, start, _ = game
    assert cal.view is not None
    grey = recorded(cal)
    assert (grey.shape[1], grey.shape[0]) == cal.view.size(cal.width_mm, cal.height_mm)
    assert np.array_equal(grey, board_view(start, cal, cal.view.px_per_mm, cal.view.margin_mm))
    assert abs(cal.view.margin_mm - 0.1 * cal.width_mm) < 0.01 and cal.view.px_per_mm == 0.5


def test_a_later_frame_of_an_unmoved_board_is_matched_in_place(
    game: tuple[Calibration, np.ndarray, np.ndarray],
) -> None:
    cal, _, later = game
    report = check_drift(later, cal)
    assert report["method"] == "view" and report["matched"] is True
    assert report["moved"] is False and float(str(report["drift_of_width"])) < 0.004
    # without the view the same frame is checked by the surface's edges
    assert check_drift(later, replace(cal, view=None))["method"] == "edges"


@pytest.mark.parametrize(
    ("name", "move", "size"),
    [
        ("shifted 1.5%", {"dx": 0.015 * 0.6, "dy": 0.015 * 0.8}, 0.015),
        ("shifted 8%", {"dx": -0.08}, 0.08),
        ("turned", {"turn": 0.03}, None),
        ("the camera raised", {"scale": 0.98}, None),
    ],
)
def test_a_moved_board_is_found_moved_by_as_much(
    game: tuple[Calibration, np.ndarray, np.ndarray],
    name: str,
    move: dict[str, float],
    size: float | None,
) -> None:
    cal, _, later = game
    moved = _moved(cal, **move)
    truth = np.array(moved.corners_px) - np.array(cal.corners_px)
    width = float(np.linalg.norm(np.subtract(cal.corners_px[1], cal.corners_px[0])))
    true_share = float(np.linalg.norm(truth, axis=1).max()) / width
    report = check_drift(later, moved)
    assert report["moved"] is True and report["matched"] is True, name
    got = float(str(report["drift_of_width"]))
    # (the corners moved in the image are not quite a rigid move of the board: the camera
    # looks aslant through a lens)
    assert abs(got - true_share) < 0.002 + 0.15 * true_share, (name, got, true_share)
    if size is not None:
        assert abs(true_share - size) < 1e-9
    # where the surface was found: the calibrated corners, where the board stayed
    found = np.array(report["corners_px"])  # type: ignore[arg-type]
    assert np.abs(found - np.array(cal.corners_px)).max() < 0.005 * width


def test_a_moved_calibration_is_followed_back_to_the_board(
    game: tuple[Calibration, np.ndarray, np.ndarray],
) -> None:
    """The board stayed, the calibration moved 5% (as a camera moved the other way would
    show it): located, its corners are the board's again, within 0.5% of the width; the
    recorded view stays the reference and its sizes, orientation and look are kept
    (`calibrate --check -o` records the frame's view on it: tests/calibration/test_tools)."""
    cal, _, later = game
    off = _moved(cal, dx=-0.03, dy=0.04, turn=0.01)
    found = locate(off, later)
    assert found is not None
    back = found[0]
    assert back.view == cal.view
    width = float(np.linalg.norm(np.subtract(cal.corners_px[1], cal.corners_px[0])))
    assert np.abs(np.array(back.corners_px) - np.array(cal.corners_px)).max() < 0.005 * width
    assert (back.width_mm, back.white_home, back.appearance) == (
        off.width_mm,
        off.white_home,
        off.appearance,
    )
    assert check_drift(later, back)["moved"] is False


def test_a_hand_a_cup_and_a_clock_over_the_board_are_no_move(
    game: tuple[Calibration, np.ndarray, np.ndarray],
) -> None:
    cal, _, later = game
    scene_geo = BoardGeometry(cal)
    covered, things = draw_clutter(later, scene_geo, np.random.default_rng(5), KINDS, over=True)
    assert {t.kind for t in things} >= set(KINDS)
    report = check_drift(covered, cal)
    assert report["moved"] is False, report
    assert check_drift(covered, _moved(cal, dx=0.03))["moved"] is True


def test_a_frame_of_another_board_is_not_matched(
    game: tuple[Calibration, np.ndarray, np.ndarray],
) -> None:
    cal, _, _ = game
    other = render(
        Scene(
            white=START,
            black=START,
            pose=CameraPose(yaw_deg=90, distance_mm=2600),
            image_size=cal.image_size,
        )
    )
    report = check_drift(other.image, cal)
    assert report["moved"] is True


def test_register_finds_no_motion_between_a_view_and_itself(
    game: tuple[Calibration, np.ndarray, np.ndarray],
) -> None:
    cal, _, _ = game
    grey = recorded(cal)
    motion = register(grey, grey)
    assert motion is not None
    assert np.allclose(motion.warp, np.eye(3), atol=1e-4)
    assert motion.kept == 1.0 and motion.alike > 0.999


def test_a_plain_grey_view_matches_nothing() -> None:
    flat = np.full((120, 160), 128, np.uint8)
    assert register(flat, flat) is None


# --- the file's view block -------------------------------------------------------------


def _doc(cal: Calibration) -> dict[str, object]:
    return json.loads(json.dumps(cal.to_json()))


def test_the_view_block_is_written_and_read_back(
    tmp_path: Path, game: tuple[Calibration, np.ndarray, np.ndarray]
) -> None:
    cal, _, _ = game
    path = tmp_path / "cal.json"
    cal.save(path)
    back = load(path)
    assert back.view == cal.view
    doc = json.loads(path.read_text())
    assert set(doc["view"]) == {"grey_png", "px_per_mm", "margin_mm"}
    # a file without it is valid, and has none
    del doc["view"]
    assert from_json(doc).view is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: v | {"grey_png": "not base64!"}, "view.grey_png: expected base64 text"),
        (
            lambda v: v | {"grey_png": base64.b64encode(b"GIF89a" + bytes(40)).decode()},
            "view.grey_png: not a PNG image",
        ),
        (lambda v: v | {"px_per_mm": 0.6}, "the board's size, margin and scale make it"),
        (lambda v: v | {"px_per_mm": 50}, "view.px_per_mm: 50.0 is not a view's scale"),
        (lambda v: v | {"margin_mm": -1}, "view.margin_mm: -1.0 is not a margin"),
        (lambda v: v | {"margin_mm": "wide"}, "view.margin_mm: expected a number"),
        (lambda v: {k: x for k, x in v.items() if k != "grey_png"}, "view: missing key 'grey_png'"),
    ],
)
def test_a_bad_view_block_is_refused_naming_its_key(
    game: tuple[Calibration, np.ndarray, np.ndarray], change: object, message: str
) -> None:
    cal, _, _ = game
    doc = _doc(cal)
    doc["view"] = change(doc["view"])  # type: ignore[operator]
    with pytest.raises(CalibrationError) as e:
        from_json(doc)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_view_whose_pixels_do_not_decode_is_refused_where_it_is_used(
    game: tuple[Calibration, np.ndarray, np.ndarray],
) -> None:
    cal, _, later = game
    assert cal.view is not None
    broken = cal.view.png[:40] + bytes(len(cal.view.png) - 40)  # the header kept
    bad = replace(cal, view=BoardView(broken, cal.view.px_per_mm, cal.view.margin_mm))
    with pytest.raises(CalibrationError, match=r"view\.grey_png: not a grey 8-bit PNG image"):
        check_drift(later, bad)
