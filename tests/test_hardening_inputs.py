"""Hostile input on the command line gets one line on stderr and exit status 2 (issue 30).

Each test here pins one failure a hostile tester found: a traceback, a hang, gigabytes
read, or a bad input accepted. Images are run as a real subprocess, since libpng and
libjpeg write to file descriptor 2 directly.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.schema import Calibration
from tests.calibration.test_imageio import photo, png_declaring
from tests.conftest import DATA
from tests.inprocess import bgcompanion, refused_in_one_line
from tests.test_cli import run as bg


def one_line_exit_2(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


# --- images ------------------------------------------------------------------------


def calibration_for(tmp_path: Path, size: tuple[int, int]) -> Path:
    w, h = size
    cal = Calibration(
        image_size=size,
        corners_px=((0.1 * w, 0.1 * h), (0.9 * w, 0.1 * h), (0.9 * w, 0.9 * h), (0.1 * w, 0.9 * h)),
    )
    path = tmp_path / "cal.json"
    cal.save(path)
    return path


def test_a_decompression_bomb_is_refused_at_once_by_every_reader(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_declaring(20000, 20000))
    cal = calibration_for(tmp_path, (640, 480))
    for args in (
        ["read-dice", str(bomb)],
        ["read-board", str(bomb), "--calibration", str(cal)],
        ["calibrate", str(bomb), "--corners", "1,1,9,1,9,9,1,9", "-o", str(tmp_path / "c.json")],
    ):
        start = time.perf_counter()
        one_line_exit_2(bg(*args), "20000x20000 pixels is too large")
        assert time.perf_counter() - start < 20
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        (lambda b: b[: len(b) * 2 // 3], "end-of-image marker (truncated)"),
        (lambda b: b[: len(b) * 2 // 3] + b"\xff\xd9", "Corrupt JPEG data"),
    ],
)
def test_a_truncated_jpeg_is_no_board_and_libjpeg_stays_quiet(
    tmp_path: Path, cut: object, message: str
) -> None:
    """It was read as 'all 15 borne off' at confidence 0.72, libjpeg's warning its only sign."""
    image = tmp_path / "cut.jpg"
    image.write_bytes(cut(photo(".jpg", (640, 480))))  # type: ignore[operator]
    cal = calibration_for(tmp_path, (640, 480))
    one_line_exit_2(bg("read-board", str(image), "--calibration", str(cal), "--json"), message)
    one_line_exit_2(bg("read-dice", str(image), "--json"), message)


def test_a_damaged_png_gets_our_line_only(tmp_path: Path) -> None:
    data = bytearray(photo(".png", (640, 480)))
    data[200] ^= 0xFF
    image = tmp_path / "crc.png"
    image.write_bytes(bytes(data))
    one_line_exit_2(bg("read-dice", str(image)), "fails its CRC check")


def test_a_batch_names_a_bad_image_on_its_line_and_goes_on(tmp_path: Path) -> None:
    bomb, good = tmp_path / "bomb.png", tmp_path / "good.png"
    bomb.write_bytes(png_declaring(20000, 20000))
    cv2.imwrite(str(good), np.full((480, 640, 3), 90, np.uint8))
    lines = "".join(
        f'{{"image": "{p}", "calibration": null, "roller": null}}\n' for p in (bomb, good)
    )
    result = bg("read-dice", "--batch", stdin=lines)
    assert result.returncode == 0 and result.stderr == ""
    first, second = result.stdout.splitlines()
    assert "too large" in first and '"roll"' in second


# --- JSON --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[" * 100_000, "line 1: JSON nested more than 32 levels deep"),
        (
            '{"position": "4HPwATDgc/ABMA", "turn": "white", "dice": [' + "5" * 5000 + ", 3]}",
            "line 1: JSON number of 5000 digits",
        ),
        ('{"position": "4HPwATDgc/ABMA", "turn": "white", "dice": [NaN, 3]}', "NaN"),
        ('{"position": "4HPwATDgc/ABMA", "turn": "white", "dice": [1e999, 3]}', "too large"),
    ],
)
def test_legal_moves_bounds_json_depth_and_numbers(line: str, message: str) -> None:
    """100,000 '[' was a RecursionError traceback; a 5,000-digit die a ValueError one."""
    one_line_exit_2(bg("legal-moves", "--json", stdin=line + "\n"), message)


def test_deep_json_in_a_batch_or_a_calibration_file_is_one_line(tmp_path: Path) -> None:
    result = bg("read-board", "--batch", stdin="[" * 100_000 + "\n")
    assert result.returncode == 0 and "nested more than" in result.stdout
    cal = tmp_path / "deep.json"
    cal.write_text('{"format": ' + "[" * 50_000 + "]" * 50_000 + "}")
    one_line_exit_2(
        bg("read-board", str(tmp_path / "x.png"), "--calibration", str(cal)), "not JSON"
    )


# --- calibration files -------------------------------------------------------------


BOARD = {
    "corners_px": [[64, 48], [576, 48], [576, 432], [64, 432]],
    "width_mm": 530.0,
    "height_mm": 440.0,
    "bar_width_mm": 50.0,
    "white_home": "right",
}
CAMERA = {"matrix": [[700.0, 0, 320.0], [0, 700.0, 240.0], [0, 0, 1]], "dist": [0.0] * 5}


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"board": {**BOARD, "height_mm": 1e-9}}, "board.height_mm"),
        ({"board": {**BOARD, "width_mm": 1e7}}, "board.width_mm"),
        (
            {"camera": {**CAMERA, "matrix": [[1e-300, 0, 320], [0, 1e-300, 240], [0, 0, 1]]}},
            "camera.matrix: focal lengths",
        ),
        ({"camera": {**CAMERA, "dist": [1e300, 0, 0, 0, 0]}}, "camera.dist[0]"),
        ({"image_size": [640, 100_000]}, "image_size: 640x100000"),
    ],
)
def test_a_meaningless_calibration_is_refused_naming_the_key(
    tmp_path: Path, change: dict[str, object], key: str
) -> None:
    """Files a hostile tester wrote: each was accepted, and read-dice / read-board then
    hung, asked for tens of gigabytes or ended in a traceback."""
    cal = tmp_path / "cal.json"
    doc = {"format": "bgcompanion-calibration", "version": 1, "image_size": [640, 480]}
    cal.write_text(json.dumps({**doc, "board": BOARD, "camera": CAMERA, **change}))
    image = tmp_path / "board.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 90, np.uint8))
    for command in ("read-dice", "read-board"):
        start = time.perf_counter()
        one_line_exit_2(bg(command, str(image), "--calibration", str(cal)), key)
        assert time.perf_counter() - start < 20


def test_calibrate_writes_no_board_the_readers_would_refuse(tmp_path: Path) -> None:
    """`calibrate --width-mm 1e7` wrote a file that read-dice then took 22 s and 10.8 GB on."""
    image = tmp_path / "board.png"
    cv2.imwrite(str(image), np.full((480, 640, 3), 90, np.uint8))
    out = tmp_path / "c.json"
    corners = "64,48,576,48,576,432,64,432"
    for flag, value in (("--width-mm", "1e7"), ("--height-mm", "1e-9"), ("--bar-mm", "300")):
        result = bg("calibrate", str(image), "--corners", corners, flag, value, "-o", str(out))
        one_line_exit_2(result, flag)
        assert not out.exists()


# --- the match file ----------------------------------------------------------------


def a_match(db: Path) -> None:
    for args in (("new", "--length", "3"), ("opening", "3", "1"), ("play", "8/5 6/5")):
        assert bgcompanion("match", "--db", str(db), *args).code == 0


def test_a_hand_damaged_event_is_named_not_a_traceback(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    a_match(db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE events SET payload = '{not json' WHERE seq = 1")
        con.execute("UPDATE events SET payload = '[1, 2]' WHERE seq = 2")
    before = db.read_bytes()
    for args in (["show"], ["--json", "show"], ["roll", "53"], ["undo"], ["export", "--mat", "x"]):
        refused_in_one_line(
            bgcompanion("match", "--db", str(db), *args), "match 1, event 1", "damaged"
        )
    assert db.read_bytes() == before
    with sqlite3.connect(db) as con:
        con.execute("""UPDATE events SET payload = '{"type": "opening"}' WHERE seq = 1""")
    refused_in_one_line(bgcompanion("match", "--db", str(db), "show"), "event 2", "damaged")
    with sqlite3.connect(db) as con:
        con.execute("""UPDATE events SET payload = '{"type": "play", "play": 7}' WHERE seq = 2""")
    refused_in_one_line(bgcompanion("match", "--db", str(db), "show"), "event 1 (opening)")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["reroll", "the dog ate it"], ["reroll: 'the dog ate it' is not a reason", "cocked"]),
        (["reroll", "cocked", "tie"], ["'tie' is not a reason"]),
        (["play", "\uff18/\uff15 \uff16/\uff15"], ["'\uff18' is not a point"]),
        (["play", "\u0668/\u0665 \u0666/\u0665"], ["is not a point"]),
        (["play", "8/5(\uff12)"], ["cannot read"]),
        (["roll", "\uff15\uff13"], ["expected two numbers 1-6"]),
        (["--match", "\uff11", "show"], ["is not a whole number"]),
        (["resign", "\u0661"], ["is not a whole number"]),
    ],
)
def test_match_commands_take_the_contracts_words_and_ascii_digits(
    tmp_path: Path, args: list[str], words: list[str]
) -> None:
    db = tmp_path / "m.db"
    a_match(db)
    assert bgcompanion("match", "--db", str(db), "roll", "64").code == 0
    before = bgcompanion("match", "--db", str(db), "--json", "show").stdout
    refused_in_one_line(bgcompanion("match", "--db", str(db), *args), *words)
    assert bgcompanion("match", "--db", str(db), "--json", "show").stdout == before


def test_a_reroll_with_the_contracts_reasons_is_recorded(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    a_match(db)
    bgcompanion("match", "--db", str(db), "roll", "64")
    out = bgcompanion("match", "--db", str(db), "reroll", "wrong_section", "on_checker")
    assert out.code == 0 and "must roll again (wrong_section, on_checker)" in out.stdout


def test_a_new_match_refuses_control_characters_in_names(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    result = bgcompanion("match", "--db", str(db), "new", "--white", "Ann\rBob")
    refused_in_one_line(result, "no control characters")


def test_a_mat_file_cut_short_or_with_a_bad_double_is_refused(tmp_path: Path) -> None:
    db, mat = tmp_path / "m.db", tmp_path / "cut.mat"
    text = (DATA / "gnubg_selfplay_7.mat").read_text(encoding="utf-8")
    a_match(db)
    before = db.read_bytes()
    mat.write_text(text[: text.index(" Game 3")])
    refused_in_one_line(
        bgcompanion("match", "--db", str(db), "import", str(mat)),
        "the 7-point match is not over",
        "--unfinished",
    )
    mat.write_text(text.replace("Doubles => 2", "Doubles => *", 1))
    refused_in_one_line(
        bgcompanion("match", "--db", str(db), "import", str(mat)), "expected 'Doubles => N'"
    )
    assert db.read_bytes() == before
    mat.write_text(text[: text.index(" Game 3")])
    result = bgcompanion("match", "--db", str(db), "import", str(mat), "--unfinished")
    assert result.code == 0 and "as match 2" in result.stdout


# --- other files and numbers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a = " + "[" * 100_000, ["not valid TOML (nested too deeply)"]),
        ("[net]\nvalue_min = " + "9" * 5000, ["not valid TOML"]),
        ("[net]\nvalue_min = inf", ["[net]: value_min must be a number"]),
    ],
)
def test_a_thresholds_file_out_of_bounds_is_one_line(
    tmp_path: Path, text: str, words: list[str]
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(text)
    image = tmp_path / "dice.png"
    cv2.imwrite(str(image), np.full((120, 160, 3), 90, np.uint8))
    refused_in_one_line(bgcompanion("read-dice", str(image), "--config", str(config)), *words)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["film-game", "out", "--size", "100000x100000"], ["expected WIDTHxHEIGHT"]),
        (["film-game", "out", "--size", "8000x8000"], ["from 320x240 to 3840x2160"]),
        (["referee", "v.avi", "--calibration", "c", "--match-length", "\uff13"], ["whole number"]),
        (["legal-moves", "--position", "XGID=" + "-" * 26 + ":0:0:1:31:" + "9" * 5000], ["XGID"]),
    ],
)
def test_numbers_on_the_command_line_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    refused_in_one_line(bgcompanion(*args), *words)
    assert not Path("out").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["read-dice", "/dev/zero"],
        ["read-dice", "IMAGE", "--calibration", "/dev/zero"],
        ["read-dice", "IMAGE", "--config", "/dev/zero"],
        ["match", "--db", "DB", "import", "/dev/zero"],
    ],
)
def test_a_device_given_as_a_file_is_not_read_for_ever(tmp_path: Path, args: list[str]) -> None:
    image = tmp_path / "dice.png"
    cv2.imwrite(str(image), np.full((120, 160, 3), 90, np.uint8))
    named = [
        str(image) if a == "IMAGE" else str(tmp_path / "m.db") if a == "DB" else a for a in args
    ]
    refused_in_one_line(bgcompanion(*named), "/dev/zero", "not a regular file")


def test_a_newline_in_an_argument_stays_inside_the_one_line(tmp_path: Path) -> None:
    """argparse quotes the unknown argument: a newline in it made the message two lines."""
    result = bgcompanion("match", "--db", str(tmp_path / "m.db"), "roll", "", "\n")
    refused_in_one_line(result, "unrecognized arguments: \\n")
    result = bgcompanion("legal-moves", "--position", "a\r\nb", "--dice", "31")
    refused_in_one_line(result, "'a\\r\\nb'")
