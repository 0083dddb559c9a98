"""`bgcompanion match --db FILE <command>`: a match run by hand, one process per command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import gnubg_cli


def bg(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "match", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def ok(db: Path, *args: str) -> str:
    result = bg(db, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def state(db: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(ok(db, "--json", "show"))
    return doc["state"]


def test_a_game_by_hand(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    assert "match 1 created" in ok(db, "new", "--length", "5", "--white", "Ann", "--black", "Bob")
    assert "white starts" in ok(db, "opening", "3", "1")
    assert "white plays 8/5 6/5" in ok(db, "play", "8/5 6/5")
    assert "black doubles to 2" in ok(db, "double")
    out = ok(db, "take")
    assert "white takes" in out and "next: black - roll, resign" in out
    ok(db, "roll", "64")
    ok(db, "play", "24/14")
    s = state(db)
    assert s["cube"] == {"value": 2, "owner": "white", "offered": False}
    assert s["turn"] == "white" and s["phase"] == "roll" and "double" in s["allowed"]
    assert s["position"]["black"][14] == 1 and s["pips"]["black"] == 157
    assert s["xgid"].startswith("XGID=") and ":" in s["gnubg_id"]
    shown = ok(db, "show")
    assert "5-point match, game 1" in shown and "cube: 2 (white)" in shown
    assert "allowed: roll, double, resign" in shown and "Black (X): pips 157" in shown


@pytest.mark.parametrize(
    ("setup", "command", "message"),
    [
        ([], ["take"], "cannot take now: waiting for the opening roll"),
        ([["opening", "3", "1"]], ["play", "8/4 6/5"], "before it already use the whole roll"),
        ([["opening", "3", "1"]], ["play", "8/5 6/3"], "6/3 is 3 pips, but the die left is 1"),
        ([["opening", "3", "1"]], ["play", "13/9 24/23"], "already use the whole roll"),
        ([["opening", "3", "1"], ["play", "8/5 6/5"]], ["roll", "73"], "7 is not a number"),
        ([["opening", "3", "1"], ["play", "8/5 6/5"]], ["beaver"], "cannot beaver now"),
        (
            [["opening", "3", "1"], ["play", "8/5 6/5"], ["roll", "21"]],
            ["double"],
            "cannot double: a double is offered only before rolling",
        ),
        ([], ["undo"], "nothing to undo"),
    ],
)
def test_illegal_commands_get_one_line_and_change_nothing(
    tmp_path: Path, setup: list[list[str]], command: list[str], message: str
) -> None:
    db = tmp_path / "m.db"
    ok(db, "new", "--length", "5")
    for step in setup:
        ok(db, *step)
    before = state(db)
    result = bg(db, *command)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert state(db) == before


def test_doubling_in_the_crawford_game_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    ok(db, "new", "--length", "2")
    for _ in range(1):
        ok(db, "opening", "3", "1")
        ok(db, "play", "8/5 6/5")
        ok(db, "double")
        ok(db, "drop")  # black leads 1-0 in a 2-point match: the Crawford game
    ok(db, "opening", "3", "1")
    ok(db, "play", "8/5 6/5")
    result = bg(db, "double")
    assert result.returncode == 2 and "no doubling in the Crawford game" in result.stderr
    assert state(db)["crawford"] is True


def test_money_options_and_resign(tmp_path: Path) -> None:
    db = tmp_path / "money.db"
    ok(db, "new", "--money", "--jacoby", "--beavers", "--auto-doubles", "1")
    assert "equal, roll again" in ok(db, "opening", "2", "2")
    assert state(db)["cube"]["value"] == 2
    ok(db, "opening", "5", "2")
    ok(db, "play", "13/8 13/11")
    ok(db, "resign", "2")
    out = ok(db, "accept")
    # Jacoby: the cube is centred, so a gammon resignation pays 1 x 2.
    assert "white wins 2 points (resign)" in out
    bad = bg(db, "new", "--length", "5", "--jacoby")
    assert bad.returncode == 2 and "money play" in bad.stderr


def test_undo_then_export_and_import(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    ok(db, "new", "--length", "3", "--white", "Ann", "--black", "Bob")
    ok(db, "opening", "3", "1")
    ok(db, "play", "8/4")
    assert "undo" in ok(db, "undo")
    assert state(db)["phase"] == "move"
    ok(db, "play", "8/5 6/5")
    ok(db, "double")
    ok(db, "drop")
    mat = tmp_path / "m.mat"
    assert f"wrote {mat}" in ok(db, "export", "--mat", str(mat))
    text = mat.read_text()
    assert "31: 8/5 6/5" in text and "8/4" not in text
    out = ok(db, "import", str(mat), "--unfinished")  # 0-1 in a 3-point match
    assert "as match 2" in out
    s = json.loads(ok(db, "--json", "--match", "2", "show"))["state"]
    assert s["score"] == {"white": 0, "black": 1} and s["rules"]["white"] == "Ann"
    if gnubg_cli.available():
        report = gnubg_cli.import_report(mat)
        assert report.scores == {"Ann": 0, "Bob": 1} and report.warnings == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show"], "no match yet"),
        (["import", "/nonexistent/file.mat"], "cannot read"),
        (["--match", "9", "show"], "no match 9"),
    ],
)
def test_bad_files_and_ids(tmp_path: Path, args: list[str], message: str) -> None:
    result = bg(tmp_path / "empty.db", *args)
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_file_that_is_not_a_match_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00garbage" * 1000)
    result = bg(junk, "show")
    assert result.returncode == 2 and "not a bgcompanion match file" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_void_opening_roll(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    ok(db, "new", "--length", "3")
    ok(db, "opening", "5", "2")
    assert "the opening roll is void (cocked): both roll one die again" in ok(
        db, "reroll", "cocked"
    )
    assert state(db)["phase"] == "opening"


def test_a_correction_by_hand_sets_the_board_and_the_dice_of_a_roll_misread(
    tmp_path: Path,
) -> None:
    db = tmp_path / "club.db"
    ok(db, "new", "--length", "3")
    ok(db, "opening", "3", "1")
    ok(db, "play", "8/5 6/5")
    ok(db, "roll", "55")  # the camera read a 5 for the 2 that fell
    assert "dice 52" in ok(db, "correction", "--dice", "52", "--note", "a 2 read as a 5")
    assert state(db)["dice"] == [5, 2]
    ok(db, "play", "13/8 13/11")
    # The board as it is, from the side on roll's seat (white, after black's play): the
    # starting position again, say a checker knocked over and the players agree.
    ok(db, "roll", "31")
    assert "board corrected" in ok(db, "correction", "--position", "4HPwATDgc/ABMA")
    assert state(db)["position"]["white"][6] == 5  # the start: five on white's 6 point
    refused = bg(db, "correction")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
