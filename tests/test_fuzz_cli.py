"""Fuzzing every command's text input: success, or exit 2 with one line; never a traceback.

Each test feeds generated input (mostly near-misses of valid input, some plain noise)
to the command in this process (tests.inprocess) and asserts the CLI contract
(CONTRACTS.md §4): exit status 0, or 2 with exactly one line on stderr; an exception
escaping `main()` fails the test. Inputs refused must leave the match file as it was.
Example counts and deadlines are small: the whole file runs in well under a minute.
"""

from __future__ import annotations

import json
import sqlite3
import string
from datetime import timedelta
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import Position
from tests.conftest import DATA
from tests.inprocess import Result, bgcompanion

QUICK = settings(
    max_examples=60,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SLOW = settings(QUICK, max_examples=15, deadline=timedelta(seconds=20))


def keeps_the_contract(result: Result) -> None:
    assert result.code in (0, 2), (result.code, result.stderr)
    if result.code == 2:
        assert result.stderr.count("\n") == 1 and result.stderr.endswith("\n"), result.stderr
        assert result.stderr.startswith("bgcompanion: error: "), result.stderr
    else:  # nothing from the decoders either (libjpeg's warnings were a read's only sign)
        assert result.stderr == "", result.stderr


# --- text pieces ---------------------------------------------------------------------

# Digits of other scripts (full-width, Arabic-Indic), odd spaces, signs: what int(),
# float() and str.isdigit() let through.
FOREIGN = ["\uff15", "\uff13", "\u0663", "\u0665", "\u00b2", "\u3000", "\u00a0", "_", "+", "-"]
NOTATION = ["bar", "off", "/", "*", "(", ")", " ", ",", "2", "4", "25", "0", "13", "8", "5"]
noise = st.text(
    alphabet=st.sampled_from(
        list(string.printable) + [c for c in FOREIGN + NOTATION if len(c) == 1]
    ),
    max_size=40,
)
pieces = st.lists(st.sampled_from(NOTATION + FOREIGN), max_size=12).map("".join)
words = st.one_of(pieces, noise, st.text(max_size=20))


def json_values(leaves: st.SearchStrategy[Any] | None = None) -> st.SearchStrategy[Any]:
    leaves = leaves or st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
        ),
        max_leaves=10,
    )


# --- legal-moves --------------------------------------------------------------------

START = Position.start().to_json()
near_dice = st.one_of(
    st.lists(st.integers(-2, 8), min_size=0, max_size=3),
    st.lists(st.sampled_from([1, 6, 2.0, True, "3", None, 10**40]), max_size=3),
    json_values(),
)
near_side = st.one_of(
    st.just(START["white"]),
    st.lists(st.integers(-1, 16), min_size=24, max_size=27),
    json_values(),
)


@st.composite
def legal_moves_lines(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["request", "position id", "noise", "deep"]))
    if kind == "noise":
        return draw(st.text(max_size=60))
    if kind == "deep":
        depth = draw(st.integers(1, 5000))
        return draw(st.sampled_from(["[", "{", '{"a":'])) * depth
    position: Any = (
        draw(st.one_of(words, st.just("4HPwATDgc/ABMA")))
        if kind == "position id"
        else {"white": draw(near_side), "black": draw(near_side)}
    )
    request = {"position": position, "dice": draw(near_dice)}
    turn = draw(st.sampled_from(["white", "black", None, "WHITE", 1]))
    if turn is not None:
        request["turn"] = turn
    return json.dumps(request)


@QUICK
@given(st.lists(legal_moves_lines(), min_size=1, max_size=3))
def test_legal_moves_json_lines(lines: list[str]) -> None:
    result = bgcompanion("legal-moves", "--json", stdin="\n".join(lines) + "\n")
    keeps_the_contract(result)
    for line in result.stdout.splitlines():
        assert "plays" in json.loads(line)


@QUICK
@given(words, words, st.sampled_from([None, "white", "black"]))
def test_legal_moves_position_and_dice(position: str, dice: str, turn: str | None) -> None:
    args = ["legal-moves", "--position", position or "4HPwATDgc/ABMA", "--dice", dice]
    if turn:
        args += ["--turn", turn]
    keeps_the_contract(bgcompanion(*args))


# --- the match file -----------------------------------------------------------------


def records(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT * FROM events ORDER BY match_id, seq").fetchall()


@pytest.fixture(scope="module")
def match_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 5-point match with white to play 64 after the opening 31: every command applies."""
    db = tmp_path_factory.mktemp("fuzz") / "m.db"
    for args in (("new", "--length", "5"), ("opening", "3", "1"), ("play", "8/5 6/5")):
        assert bgcompanion("match", "--db", str(db), *args).code == 0
    assert bgcompanion("match", "--db", str(db), "roll", "64").code == 0
    return db


def refused_changes_nothing(db: Path, *args: str) -> None:
    before = records(db)
    result = bgcompanion("match", "--db", str(db), *args)
    keeps_the_contract(result)
    if result.code == 2:
        assert records(db) == before
    else:  # accepted by chance (a legal play, a valid reason): put the match back
        assert bgcompanion("match", "--db", str(db), "undo").code == 0


@QUICK
@given(st.one_of(words, st.sampled_from(["24/18 13/9", "24/14", "8/2* 6/2", "bar/21"])))
def test_match_play_text(match_db: Path, text: str) -> None:
    refused_changes_nothing(match_db, "play", text)


@QUICK
@given(
    st.sampled_from(["roll", "reroll", "opening", "resign", "--match", "new", "double", "take"]),
    st.lists(words, max_size=3),
)
def test_match_actions_and_their_words(match_db: Path, command: str, rest: list[str]) -> None:
    if command == "--match":
        refused_changes_nothing(match_db, "--match", *(rest or ["x"]), "show")
    elif command == "new":
        args = [
            a for pair in zip(["--white", "--length", "--black"], rest, strict=False) for a in pair
        ]
        before = records(match_db)
        result = bgcompanion("match", "--db", str(match_db), "new", *args)
        keeps_the_contract(result)
        if result.code == 2:
            assert records(match_db) == before
    else:
        refused_changes_nothing(match_db, command, *rest)


@QUICK
@given(
    st.lists(st.one_of(words, st.sampled_from(["cocked", "early", "tie", "Cocked"])), max_size=3)
)
def test_match_reroll_reasons(match_db: Path, reasons: list[str]) -> None:
    refused_changes_nothing(match_db, "reroll", *reasons)


MAT = (DATA / "gnubg_selfplay_7.mat").read_text(encoding="utf-8")


@st.composite
def damaged_mat(draw: st.DrawFn) -> str:
    lines = MAT.splitlines(keepends=True)
    how = draw(st.sampled_from(["cut at a line", "cut anywhere", "line dropped", "line changed"]))
    if how == "cut at a line":
        return "".join(lines[: draw(st.integers(0, len(lines) - 1))])
    if how == "cut anywhere":
        return MAT[: draw(st.integers(0, len(MAT) - 1))]
    at = draw(st.integers(0, len(lines) - 1))
    if how == "line dropped":
        return "".join(lines[:at] + lines[at + 1 :])
    line = lines[at]
    cut = draw(st.integers(0, len(line)))
    new = line[:cut] + draw(st.one_of(words, st.sampled_from(["=> *", "9", "Wins 4", ":"])))
    return "".join([*lines[:at], new + line[cut:], *lines[at + 1 :]])


@SLOW
@given(damaged_mat())
def test_mat_import(match_db: Path, text: str) -> None:
    mat = match_db.parent / "fuzz.mat"
    mat.write_text(text, encoding="utf-8")
    before = records(match_db)
    result = bgcompanion("match", "--db", str(match_db), "import", str(mat))
    keeps_the_contract(result)
    if result.code == 2:
        assert records(match_db) == before


# --- calibration files and images -----------------------------------------------------

SIZE = (640, 480)
BOARD: dict[str, Any] = {
    "corners_px": [[64, 48], [576, 48], [576, 432], [64, 432]],
    "width_mm": 530.0,
    "height_mm": 440.0,
    "bar_width_mm": 50.0,
    "white_home": "right",
}
CAMERA: dict[str, Any] = {
    "matrix": [[700.0, 0, 320.0], [0, 700.0, 240.0], [0, 0, 1]],
    "dist": [0.0] * 5,
}
numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(-2000, 2000),
    st.integers(-(10**6), 10**6),
    st.sampled_from([0, 1e-300, 1e300, -1.0, 64, 100.0, 12800.0, 200, 1000, 1200]),
)


@st.composite
def calibration_docs(draw: st.DrawFn) -> Any:
    """The contract's document with one or two values replaced by something near or far."""
    doc: dict[str, Any] = {
        "format": "bgcompanion-calibration",
        "version": 1,
        "image_size": list(SIZE),
        "board": json.loads(json.dumps(BOARD)),
    }
    if draw(st.booleans()):
        doc["camera"] = json.loads(json.dumps(CAMERA))
    for _ in range(draw(st.integers(1, 2))):
        where = draw(
            st.sampled_from(
                ["width_mm", "height_mm", "bar_width_mm", "white_home", "corner", "image_size"]
                + (["matrix", "dist"] if "camera" in doc else [])
            )
        )
        value = draw(st.one_of(numbers, json_values()))
        if where == "corner":
            doc["board"]["corners_px"][draw(st.integers(0, 3))][draw(st.integers(0, 1))] = value
        elif where == "image_size":
            doc["image_size"][draw(st.integers(0, 1))] = value
        elif where == "matrix":
            doc["camera"]["matrix"][draw(st.integers(0, 2))][draw(st.integers(0, 2))] = value
        elif where == "dist":
            dist = doc["camera"]["dist"]
            dist[draw(st.integers(0, len(dist) - 1))] = value
        else:
            doc["board"][where] = value
    return doc


@pytest.fixture(scope="module")
def frame(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / "frame.png"
    noise = np.random.default_rng(7).integers(0, 255, (SIZE[1], SIZE[0], 3), dtype=np.uint8)
    cv2.imwrite(str(path), noise)
    return path


@SLOW
@given(st.one_of(calibration_docs(), json_values()), st.sampled_from(["read-dice", "read-board"]))
def test_calibration_files(frame: Path, doc: Any, command: str) -> None:
    cal = frame.parent / "fuzz.cal.json"
    cal.write_text(json.dumps(doc))
    keeps_the_contract(bgcompanion(command, str(frame), "--calibration", str(cal), "--json"))


@st.composite
def damaged_images(draw: st.DrawFn) -> bytes:
    fmt = draw(st.sampled_from([".png", ".jpg", ".bmp", ".webp"]))
    w, h = draw(st.integers(1, 80)), draw(st.integers(1, 80))
    pixels = np.random.default_rng(draw(st.integers(0, 9))).integers(0, 255, (h, w, 3), np.uint8)
    data = bytearray(cv2.imencode(fmt, pixels)[1].tobytes())
    how = draw(st.sampled_from(["whole", "cut", "flipped", "header", "noise"]))
    if how == "cut":
        return bytes(data[: draw(st.integers(0, len(data) - 1))])
    if how == "flipped":
        for _ in range(draw(st.integers(1, 4))):
            data[draw(st.integers(0, len(data) - 1))] ^= draw(st.integers(1, 255))
    if how == "header":  # a size field (PNG IHDR, JPEG SOF, BMP, WebP) made up
        at = draw(st.integers(0, min(40, len(data) - 4)))
        data[at : at + 4] = draw(st.binary(min_size=4, max_size=4))
    if how == "noise":
        return draw(st.binary(max_size=200))
    return bytes(data)


@settings(SLOW, max_examples=40)
@given(damaged_images())
def test_image_bytes(frame: Path, data: bytes) -> None:
    image = frame.parent / "fuzz.img"
    image.write_bytes(data)
    keeps_the_contract(bgcompanion("read-dice", str(image), "--json"))


@st.composite
def batch_lines(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.one_of(st.text(max_size=40), st.just("[" * 3000)))
    request: dict[str, Any] = {
        "image": draw(st.one_of(st.sampled_from(["FRAME", "", "/dev/zero", "."]), json_values()))
    }
    for key, values in (
        ("calibration", st.sampled_from(["CAL", None, "FRAME", 3])),
        ("roller", st.sampled_from(["white", "black", "opening", None, "x", 1])),
        ("background", st.sampled_from(["FRAME", None, "", [1]])),
    ):
        if draw(st.booleans()):
            request[key] = draw(values)
    return json.dumps(request)


@SLOW
@given(
    st.lists(batch_lines(), min_size=1, max_size=3), st.sampled_from(["read-dice", "read-board"])
)
def test_batch_lines(frame: Path, lines: list[str], command: str) -> None:
    """A batch answers every line, in order, with a result or {"error": ...}, and goes on."""
    cal = frame.parent / "batch.cal.json"
    doc = {"format": "bgcompanion-calibration", "version": 1, "image_size": list(SIZE)}
    cal.write_text(json.dumps({**doc, "board": BOARD}))
    text = "\n".join(lines).replace("FRAME", str(frame)).replace("CAL", str(cal)) + "\n"
    result = bgcompanion(command, "--batch", stdin=text)
    keeps_the_contract(result)
    answers = result.stdout.splitlines()
    assert result.code == 0 and len(answers) == sum(1 for x in text.split("\n") if x.strip())
    assert all(isinstance(json.loads(answer), dict) for answer in answers)
