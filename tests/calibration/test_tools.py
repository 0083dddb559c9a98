"""`bgcompanion calibrate` (corners by hand, overlay) and `bgcompanion calibrate-lens`."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.schema import load
from companion.rules.sample import random_positions
from sim import START, CameraPose, Scene, render
from sim.renderer import _distortion_maps

K = np.array([[1000.0, 0, 640], [0, 1000.0, 360], [0, 0, 1]])
DIST = np.array([-0.22, 0.08, 0.0, 0.0, 0.0])


def bg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray]:
    r = render(
        Scene(
            white=START, black=START, pose=CameraPose(yaw_deg=8, tilt_deg=9), image_size=(1280, 720)
        )
    )
    path = tmp_path_factory.mktemp("board") / "board.png"
    cv2.imwrite(str(path), r.image)
    assert r.raw_corners is not None
    return path, r.raw_corners


def test_calibrate_with_corners_writes_the_file_and_an_overlay(
    board: tuple[Path, np.ndarray], tmp_path: Path
) -> None:
    image, corners = board
    out = tmp_path / "cal.json"
    text = ",".join(f"{v:.2f}" for v in corners.ravel())
    result = bg("calibrate", str(image), "--corners", text, "--white-home", "left", "-o", str(out))
    assert result.returncode == 0, result.stderr
    cal = load(out)
    assert np.allclose(np.array(cal.corners_px), corners, atol=0.01)
    assert cal.white_home == "left" and cal.image_size == (1280, 720)
    overlay = cv2.imread(str(tmp_path / "cal.overlay.png"))
    original = cv2.imread(str(image))
    assert overlay.shape == original.shape
    # The green outline is drawn on the surface's edge: midpoints of the sides turn green.
    for i in range(4):
        x, y = ((corners[i] + corners[(i + 1) % 4]) / 2).round().astype(int)
        b, g, r = overlay[y, x].astype(int)
        assert g > 200 and b < 80 and r < 80
    assert "wrote" in result.stdout and "check the overlay" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--corners", "1,2,3"], "expected 8 numbers"),
        (["--corners", "a,b,c,d,e,f,g,h"], "expected 8 numbers separated by commas"),
        (
            ["--corners", "300,600,900,600,900,100,300,100", "--white-home", "right"],
            "listed the wrong way round",
        ),
        (["--corners", "300,100,1900,100,900,600,300,600"], "outside the 1280x720 image"),
        (
            ["--corners", "300,100,900,100,900,600,300,600", "--bar-mm", "900"],
            "--bar-mm: 900.0 mm must be at least 0 and at most a quarter of the width",
        ),
        (["--width-mm", "1e7"], "--width-mm: 10000000.0 mm is not a backgammon board's width"),
        (["--height-mm", "1e-9"], "--height-mm: 1e-09 mm is not a height"),
        (
            ["--width-mm", "\uff15\uff13\uff10"],
            "argument --width-mm: '\uff15\uff13\uff10' is not a number",
        ),
        (["--corners", "1,2,3,4,5,6,7,nan"], "expected 8 numbers separated by commas"),
    ],
)
def test_calibrate_refuses_bad_input_in_one_line(
    board: tuple[Path, np.ndarray], tmp_path: Path, args: list[str], message: str
) -> None:
    image, _ = board
    result = bg("calibrate", str(image), *args, "-o", str(tmp_path / "c.json"))
    assert result.returncode == 2 and message in result.stderr
    assert result.stderr.count("\n") == 1 and not (tmp_path / "c.json").exists()


def test_calibrate_finds_the_board_and_its_orientation_by_itself(
    board: tuple[Path, np.ndarray], tmp_path: Path
) -> None:
    image, corners = board
    out = tmp_path / "auto.json"
    result = bg("calibrate", str(image), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "found the playing surface" in result.stdout
    assert "orientation read from the starting position" in result.stdout
    cal = load(out)
    width = float(np.linalg.norm(corners[1] - corners[0]))
    assert np.abs(np.array(cal.corners_px) - corners).max() <= 0.005 * width
    assert cal.white_home == "right"


def test_calibrate_says_why_when_there_is_no_board(tmp_path: Path) -> None:
    table = tmp_path / "table.png"
    noise = np.random.default_rng(1).normal(90, 12, (720, 1280, 3)).clip(0, 255)
    cv2.imwrite(str(table), noise.astype(np.uint8))
    result = bg("calibrate", str(table), "-o", str(tmp_path / "c.json"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "--corners" in result.stderr and not (tmp_path / "c.json").exists()


def test_calibrate_refuses_a_file_that_is_not_an_image(tmp_path: Path) -> None:
    junk = tmp_path / "junk.png"
    junk.write_text("not a picture")
    result = bg(
        "calibrate", str(junk), "--corners", "1,1,9,1,9,9,1,9", "-o", str(tmp_path / "c.json")
    )
    assert result.returncode == 2 and "not an image" in result.stderr


def chessboard_views(folder: Path, count: int = 10) -> list[Path]:
    """Photos of a 10x7-square chessboard (9x6 inner corners, 25 mm squares), known lens."""
    px_per_mm, square = 4, 25
    cols, rows = 10, 7
    margin = 20
    w_mm, h_mm = cols * square + 2 * margin, rows * square + 2 * margin
    texture = np.full((h_mm * px_per_mm, w_mm * px_per_mm), 255, np.uint8)
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2 == 0:
                y0, x0 = (margin + r * square) * px_per_mm, (margin + c * square) * px_per_mm
                texture[y0 : y0 + square * px_per_mm, x0 : x0 + square * px_per_mm] = 0
    texture = cv2.cvtColor(texture, cv2.COLOR_GRAY2BGR)
    mx, my = _distortion_maps(K, DIST, (1280, 720))
    rng = np.random.default_rng(3)
    paths = []
    for i in range(count):
        rvec = np.array(
            [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-math.pi, math.pi)]
        )
        rot, _ = cv2.Rodrigues(rvec)
        # Place the board's centre in front of the camera, shifted about the view.
        centre = np.array([rng.uniform(-120, 120), rng.uniform(-60, 60), rng.uniform(520, 700)])
        t = (
            centre
            - rot @ np.array([w_mm / 2 - margin, h_mm / 2 - margin, 0])
            - rot @ np.array([margin, margin, 0])
        )
        plane = K @ np.column_stack([rot[:, 0], rot[:, 1], t])
        # Texture pixels -> chessboard millimetres (origin at the printed squares' corner).
        tex = np.array([[1 / px_per_mm, 0, -margin], [0, 1 / px_per_mm, -margin], [0, 0, 1]])
        view = cv2.warpPerspective(texture, plane @ tex, (1280, 720), borderValue=(120, 120, 120))
        photo = cv2.remap(view, mx, my, cv2.INTER_LINEAR)
        path = folder / f"chess{i}.png"
        cv2.imwrite(str(path), photo)
        paths.append(path)
    return paths


def test_calibrate_lens_recovers_a_known_lens(tmp_path: Path) -> None:
    photos = chessboard_views(tmp_path)
    out = tmp_path / "lens.json"
    result = bg(
        "calibrate-lens", *map(str, photos), "--pattern", "9x6", "--square-mm", "25", "-o", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert "10/10" in result.stderr and "[" in result.stderr  # the progress bar
    lens = json.loads(out.read_text())
    assert lens["rms_px"] < 0.5 and len(lens["images_used"]) >= 8
    k = np.array(lens["camera"]["matrix"])
    assert abs(k[0, 0] / 1000 - 1) < 0.03 and abs(k[1, 1] / 1000 - 1) < 0.03
    assert abs(k[0, 2] - 640) < 15 and abs(k[1, 2] - 360) < 15
    assert abs(lens["camera"]["dist"][0] - DIST[0]) < 0.05
    assert f"wrote {out}" in result.stdout and "RMS reprojection error" in result.stdout


def test_a_lens_file_makes_calibrate_store_undistorted_corners(
    board: tuple[Path, np.ndarray], tmp_path: Path
) -> None:
    image, corners = board
    lens = tmp_path / "lens.json"
    lens.write_text(
        json.dumps(
            {
                "format": "bgcompanion-lens",
                "version": 1,
                "image_size": [1280, 720],
                "camera": {"matrix": K.tolist(), "dist": DIST.tolist()},
            }
        )
    )
    text = ",".join(f"{v:.2f}" for v in corners.ravel())
    out = tmp_path / "cal.json"
    result = bg("calibrate", str(image), "--corners", text, "--lens", str(lens), "-o", str(out))
    assert result.returncode == 0, result.stderr
    cal = load(out)
    assert cal.camera is not None
    expected = cv2.undistortPoints(corners.reshape(-1, 1, 2), K, DIST, P=K).reshape(4, 2)
    assert np.allclose(np.array(cal.corners_px), expected, atol=0.01)
    # Barrel distortion undone: the corners move away from the image centre.
    centre = np.array([640, 360])
    assert np.linalg.norm(expected[0] - centre) > np.linalg.norm(corners[0] - centre)


def test_calibrate_lens_says_when_the_chessboard_is_not_seen(
    board: tuple[Path, np.ndarray], tmp_path: Path
) -> None:
    image, _ = board
    result = bg(
        "calibrate-lens", str(image), str(image), str(image), "-o", str(tmp_path / "l.json")
    )
    assert result.returncode == 2 and "found in 0 of 3 photos" in result.stderr


def test_calibrate_reads_the_orientation_from_the_starting_position(tmp_path: Path) -> None:
    r = render(
        Scene(
            white=START,
            black=START,
            white_home="left",
            pose=CameraPose(yaw_deg=150, tilt_deg=7),
            image_size=(1280, 720),
        )
    )
    image = tmp_path / "start.png"
    cv2.imwrite(str(image), r.image)
    assert r.raw_corners is not None
    shuffled = r.raw_corners[[2, 0, 3, 1]]  # in no particular order
    out = tmp_path / "cal.json"
    result = bg(
        "calibrate",
        str(image),
        "--corners",
        ",".join(f"{v:.3f}" for v in shuffled.ravel()),
        "-o",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    assert "white's home on the left" in result.stdout
    cal = load(out)
    assert (
        np.allclose(np.array(cal.corners_px), r.raw_corners, atol=0.01) and cal.white_home == "left"
    )


def test_without_the_starting_position_the_corners_are_taken_as_given(tmp_path: Path) -> None:
    r = render(Scene(pose=CameraPose(yaw_deg=30), image_size=(1280, 720)))  # an empty board
    image = tmp_path / "empty.png"
    cv2.imwrite(str(image), r.image)
    assert r.raw_corners is not None
    out = tmp_path / "cal.json"
    result = bg(
        "calibrate",
        str(image),
        "--corners",
        ",".join(f"{v:.3f}" for v in r.raw_corners.ravel()),
        "-o",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    assert "could not read the orientation" in result.stdout
    assert np.allclose(np.array(load(out).corners_px), r.raw_corners, atol=0.01)


def test_check_reports_no_drift_on_the_same_view_and_drift_when_moved(tmp_path: Path) -> None:
    scene = Scene(
        white=START,
        black=START,
        pose=CameraPose(yaw_deg=12, tilt_deg=6, k1=-0.06),
        image_size=(1280, 720),
    )
    r = render(scene)
    assert r.calibration is not None
    cal = tmp_path / "cal.json"
    r.calibration.save(cal)
    same = tmp_path / "same.png"
    cv2.imwrite(str(same), r.image)
    result = bg("calibrate", "--check", str(cal), str(same), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["moved"] is False and report["drift_of_width"] < 0.005
    assert report["method"] == "edges"  # a calibration without the board's view
    # The camera turned by 1.5 degrees: the board sits elsewhere in the image.
    moved = render(
        Scene(
            white=START,
            black=START,
            pose=CameraPose(yaw_deg=13.5, tilt_deg=6, k1=-0.06),
            image_size=(1280, 720),
        )
    )
    path = tmp_path / "moved.png"
    cv2.imwrite(str(path), moved.image)
    result = bg("calibrate", "--check", str(cal), str(path))
    assert result.returncode == 1 and "calibrate again" in result.stdout


def test_calibrate_records_the_boards_view_and_check_matches_it(tmp_path: Path) -> None:
    """`calibrate` writes the frame seen from above; `--check` matches a later frame of a
    game against it (the checkers elsewhere: no move) and finds a camera turned by 1.5
    degrees moved."""
    pose = CameraPose(yaw_deg=12, tilt_deg=6)
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), render(Scene(white=START, black=START, pose=pose)).image)
    cal = tmp_path / "cal.json"
    result = bg("calibrate", str(start), "-o", str(cal))
    assert result.returncode == 0, result.stderr
    assert load(cal).view is not None
    position = random_positions(11, 1)[0]
    later = tmp_path / "later.png"
    game = Scene(white=tuple(position.white), black=tuple(position.black), pose=pose)
    cv2.imwrite(str(later), render(game).image)
    result = bg("calibrate", "--check", str(cal), str(later))
    assert result.returncode == 0, result.stdout
    assert "matched against the board's view recorded at calibration" in result.stdout
    turned = tmp_path / "turned.png"
    cv2.imwrite(str(turned), render(replace(game, pose=replace(pose, yaw_deg=13.5))).image)
    result = bg("calibrate", "--check", str(cal), str(turned), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["method"] == "view" and report["matched"] is True and report["moved"] is True
    assert 0.01 < report["drift_of_width"] < 0.05


def test_check_follows_a_moved_board_to_a_new_calibration(tmp_path: Path) -> None:
    """`--check CAL FRAME -o NEW`: the camera turned 1.5 degrees; NEW has the corners where
    the board now lies (within 0.5% of the width of the scene's truth), the view of this
    frame, and checks still on it. Nothing is followed where the view matches nowhere, or
    from a file that recorded none."""
    pose = CameraPose(yaw_deg=12, tilt_deg=6)
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), render(Scene(white=START, black=START, pose=pose)).image)
    cal = tmp_path / "cal.json"
    assert bg("calibrate", str(start), "-o", str(cal)).returncode == 0
    scene = Scene(white=START, black=START, pose=replace(pose, yaw_deg=13.5))
    turned = render(scene)
    assert turned.calibration is not None
    frame = tmp_path / "turned.png"
    cv2.imwrite(str(frame), turned.image)
    new = tmp_path / "new.json"
    result = bg("calibrate", "--check", str(cal), str(frame), "-o", str(new))
    assert result.returncode == 1, result.stderr
    assert "followed the board" in result.stdout and new.exists()
    assert (tmp_path / "new.overlay.png").exists()
    truth = np.array(turned.calibration.corners_px)
    width = float(np.linalg.norm(truth[1] - truth[0]))
    got = load(new)
    assert np.abs(np.array(got.corners_px) - truth).max() < 0.005 * width
    assert got.view is not None and got.view != load(cal).view
    assert bg("calibrate", "--check", str(new), str(frame)).returncode == 0
    # a frame the view matches nowhere in: refused, nothing written
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), np.zeros_like(turned.image))
    other = tmp_path / "other.json"
    result = bg("calibrate", "--check", str(cal), str(dark), "-o", str(other))
    assert result.returncode == 2 and "nothing to follow" in result.stderr
    assert not other.exists()
    # a calibration without the view
    bare = tmp_path / "bare.json"
    replace(load(cal), view=None).save(bare)
    result = bg("calibrate", "--check", str(bare), str(frame), "-o", str(other))
    assert result.returncode == 2 and "recorded no view of the board" in result.stderr
    assert not other.exists()


def test_check_calls_a_board_moved_beyond_its_tolerance_only(tmp_path: Path) -> None:
    """A calibration 0.6% of the width off the board's surface (less than the reader
    notices: it reads every rendered board exactly up to 1.5%) still fits by default, and
    is called moved with a tolerance of 0.4%."""
    r = render(Scene(white=START, black=START, pose=CameraPose(yaw_deg=12, tilt_deg=6)))
    assert r.calibration is not None
    corners = np.array(r.calibration.corners_px)
    corners[:, 0] += 0.006 * float(np.linalg.norm(corners[1] - corners[0]))
    (a, b), (c, d), (e, f), (g, h) = corners.tolist()
    cal = tmp_path / "cal.json"
    replace(r.calibration, corners_px=((a, b), (c, d), (e, f), (g, h))).save(cal)
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), r.image)
    result = bg("calibrate", "--check", str(cal), str(frame), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert 0.004 < report["drift_of_width"] < 0.01, report
    assert report["moved"] is False and report["tolerance_of_width"] == 0.01
    result = bg("calibrate", "--check", str(cal), str(frame), "--tolerance", "0.4")
    assert result.returncode == 1 and "more than 0.4%" in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--tolerance", "0"], "--tolerance: expected 0.1 to 10"),
        (["--tolerance", "25"], "--tolerance: expected 0.1 to 10"),
        (["--tolerance", "one"], "'one' is not a number"),
    ],
)
def test_check_refuses_a_tolerance_out_of_bounds(
    tmp_path: Path, extra: list[str], message: str
) -> None:
    r = render(Scene(image_size=(640, 360)))
    assert r.calibration is not None
    cal = tmp_path / "cal.json"
    r.calibration.save(cal)
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), r.image)
    result = bg("calibrate", "--check", str(cal), str(frame), *extra)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert result.stdout == ""


def test_tolerance_without_check_is_refused(tmp_path: Path) -> None:
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), render(Scene(image_size=(640, 360))).image)
    result = bg("calibrate", str(frame), "-o", str(tmp_path / "c.json"), "--tolerance", "1")
    assert result.returncode == 2 and "--tolerance goes with --check" in result.stderr
    assert not (tmp_path / "c.json").exists()


def test_check_refuses_an_image_of_another_size(
    tmp_path: Path, board: tuple[Path, np.ndarray]
) -> None:
    image, _ = board
    r = render(Scene(image_size=(640, 360)))
    assert r.calibration is not None
    cal = tmp_path / "small.json"
    r.calibration.save(cal)
    result = bg("calibrate", "--check", str(cal), str(image))
    assert result.returncode == 2 and "calibration was made for 640x360" in result.stderr
