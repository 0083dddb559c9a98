"""The bgcompanion command as a user runs it: a real subprocess, stdout, stderr, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.rules import Position

START = Position.start().to_json()


def run(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_legal_moves_json_lines_follow_the_contract() -> None:
    lines = [
        {"position": START, "turn": "white", "dice": [3, 1]},
        {"position": START, "turn": "black", "dice": [6, 6]},
        {"position": "4HPwATDgc/ABMA", "turn": "white", "dice": [2, 1]},
    ]
    result = run("legal-moves", "--json", stdin="\n".join(json.dumps(x) for x in lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 3
    assert len(out[0]["plays"]) == 16
    made_5 = next(p for p in out[0]["plays"] if p["play"] == "8/5 6/5")["position"]
    assert made_5["white"][5] == 2 and made_5["white"][6] == 4 and made_5["black"] == START["black"]
    # Black moves in its own numbering: its array changes, white's does not.
    assert all(p["position"]["white"] == START["white"] for p in out[1]["plays"])
    assert all(sum(p["position"]["black"]) == 15 for p in out[1]["plays"])
    assert len(out[2]["plays"]) == 15
    # Every resulting position is listed once.
    for doc in out:
        positions = [json.dumps(p["position"]) for p in doc["plays"]]
        assert len(positions) == len(set(positions))


def test_an_unplayable_roll_lists_the_empty_play() -> None:
    closed = {"white": [1] + [0] * 5 + [14] + [0] * 18 + [0], "black": [3] + [2] * 6 + [0] * 19}
    closed["white"][25] = 1
    closed["white"][0] = 0
    result = run(
        "legal-moves",
        "--json",
        stdin=json.dumps({"position": closed, "turn": "white", "dice": [6, 5]}),
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"plays": [{"play": "", "position": closed}]}


def test_human_form_prints_board_pips_and_numbered_plays() -> None:
    result = run("legal-moves", "--position", "4HPwATDgc/ABMA", "--dice", "53")
    assert result.returncode == 0, result.stderr
    assert "pips 167" in result.stdout
    assert "white rolls 53: 9 legal plays" in result.stdout
    lines = result.stdout.splitlines()
    assert "1. 24/21 13/8" in lines and "8. 8/3 6/3" in lines and "9. 24/16" in lines


def test_human_form_takes_the_roll_from_an_xgid() -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:-1:64:0:0:0:0:10"
    result = run("legal-moves", "--position", xgid)
    assert result.returncode == 0, result.stderr
    assert "black rolls 64:" in result.stdout and "24/14" in result.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["legal-moves", "--json"], "{not json\n", "line 1: malformed JSON"),
        (
            ["legal-moves", "--json"],
            json.dumps(
                {
                    "position": {"white": [0] * 25 + [16], "black": START["black"]},
                    "turn": "white",
                    "dice": [3, 1],
                }
            ),
            "white has 16 checkers",
        ),
        (
            ["legal-moves", "--json"],
            json.dumps({"position": START, "turn": "white", "dice": [7, 1]}),
            "7 is not a number from 1 to 6",
        ),
        (
            ["legal-moves", "--json"],
            json.dumps({"position": START, "dice": [3, 1]}),
            "missing 'turn'",
        ),
        (["legal-moves", "--json"], json.dumps([1, 2]), "expected a JSON object"),
        (["legal-moves", "--position", "4HPwATDgc/ABMA", "--dice", "70"], "", "not a number"),
        (["legal-moves", "--position", "nonsense", "--dice", "31"], "", "Position ID"),
        (["legal-moves", "--position", "4HPwATDgc/ABMA"], "", "--dice is required"),
        (["legal-moves", "--frobnicate"], "", "unrecognized arguments"),
        (["legal-moves"], "", "give --position and --dice"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(args: list[str], stdin: str, message: str) -> None:
    result = run(*args, stdin=stdin)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_line_stops_the_stream_after_the_good_ones() -> None:
    good = json.dumps({"position": START, "turn": "white", "dice": [3, 1]})
    result = run("legal-moves", "--json", stdin=f"{good}\n{{oops\n{good}\n")
    assert result.returncode == 2
    assert len(result.stdout.splitlines()) == 1
    assert "line 2:" in result.stderr


def test_run_refuses_bad_options_in_one_line() -> None:
    for args, words in (
        (("run", "--camera", "0"), "--calibration"),
        (("run", "--video", "/nonexistent.avi"), "no such video"),
        (("run", "--pin", "12"), "--pin"),
        (("run", "--speed", "0"), "--speed"),
    ):
        result = run(*args)
        assert result.returncode == 2, args
        assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
