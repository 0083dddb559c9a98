"""Every stage's settings from one file: the shipped defaults, sections, and the settings
reaching the stages (the motion gate, the checker reader, the referee) and the command line."""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from calibration.schema import load as load_calibration
from companion.referee import Referee, WatchSettings
from companion.rules.match import Match, MatchRules
from companion.session import Session
from companion.settings import DEFAULT_PATH, SECTIONS, Settings, load
from tests.inprocess import bgcompanion, refused_in_one_line
from tests.vision.scenes import write_board
from vision.frame import FrameReader
from vision.motion import MotionGate
from vision.settings import SettingsError


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the shipped file ------------------------------------------------------------------------


def test_the_shipped_file_lists_every_key_with_its_default() -> None:
    doc = tomllib.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    assert list(doc) == list(SECTIONS) == [f.name for f in dataclasses.fields(Settings)]
    for section, cls in SECTIONS.items():
        names = [f.name for f in dataclasses.fields(cls)]
        assert list(doc[section]) == names, section  # every key, in the code's order
    assert load(DEFAULT_PATH) == Settings() == load(None)


def test_the_shipped_file_says_what_each_key_is_in_a_line() -> None:
    lines = DEFAULT_PATH.read_text(encoding="utf-8").splitlines()
    keys = [line for line in lines if re.match(r"[a-z_]+ = ", line)]
    assert len(keys) == sum(len(dataclasses.fields(c)) for c in SECTIONS.values())
    assert all(re.search(r" {2}# \S", line) for line in keys), [k for k in keys if "  # " not in k]


def test_the_referee_defaults_are_the_watch_settings() -> None:
    ref = Referee.for_match(Match(MatchRules()))
    w = WatchSettings()
    assert (ref.settle, ref.board_min, ref.fix_after, ref.rest_px) == (
        w.settle,
        w.board_min,
        w.fix_after,
        w.rest_px,
    )


# --- a file ------------------------------------------------------------------------------


def test_a_file_overrides_only_what_it_names(tmp_path: Path) -> None:
    path = write(tmp_path, "[motion]\nlevel = 30\n\n[watch]\nsettle = 2\n")
    s = load(path)
    assert s.motion.level == 30.0 and s.watch.settle == 2
    assert s == replace(
        Settings(),
        motion=replace(Settings().motion, level=30.0),
        watch=WatchSettings(settle=2),
    )
    assert load(write(tmp_path, "", "empty.toml")) == Settings()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[bord]\nedge_min = 1\n", "s.toml: unknown section [bord] (did you mean 'board'?)"),
        ("[camera]\n", "s.toml: unknown section [camera] (sections: [board], [dice], [motion]"),
        ("board = 3\n", "s.toml: board must be a section [board], not a value"),
        ("[motion]\nlevl = 3\n", "s.toml [motion]: unknown key 'levl' (did you mean 'level'?)"),
        ("[motion]\nwidth = 480.5\n", "s.toml [motion]: width must be a whole number, got 480.5"),
        ('[referee]\nsure = "high"\n', "s.toml [referee]: sure must be a number, got 'high'"),
        ("[board]\nradius_scales = 1.0\n", "s.toml [board]: radius_scales must be a list"),
        ("[watch\n", "s.toml: not valid TOML"),
    ],
)
def test_a_bad_file_is_one_line_naming_the_problem(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(SettingsError) as e:
        load(write(tmp_path, text))
    assert message in str(e.value) and "\n" not in str(e.value)


# --- the settings reach the stages --------------------------------------------------------


def test_the_motion_settings_change_what_the_gate_lets_through(tmp_path: Path) -> None:
    """A square of 30 x 30 pixels changed in a 480 x 270 frame (0.7 %): motion by default
    (0.2 % is), a still frame worth reading where the file asks for 1 % before motion."""
    before = np.zeros((270, 480), np.uint8)
    after = before.copy()
    after[100:130, 200:230] = 255

    def decisions(settings: Settings) -> tuple[bool, bool]:
        gate = MotionGate(settings.motion)
        gate.check(before)
        gate.check(before)
        return gate.check(after)

    assert decisions(load(None)) == (True, False)
    assert decisions(load(write(tmp_path, "[motion]\nshare = 0.01\n"))) == (False, True)


@pytest.fixture(scope="module")
def board_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    image, cal, _ = write_board(tmp_path_factory.mktemp("board"))
    return image, cal


def test_the_board_settings_reach_the_reader_of_read_board(
    board_files: tuple[Path, Path], tmp_path: Path
) -> None:
    """An edge threshold no edge reaches, without the network: no checker is seen (all 15
    off, confidence 0) where the defaults read the position; with it, the network counts
    some; a stricter circle: the same counts, less sure unless the network agrees."""
    image, cal = board_files

    def read(*settings: str) -> dict[str, Any]:
        out = bgcompanion("read-board", str(image), "--calibration", str(cal), "--json", *settings)
        assert out.code == 0, out.stderr
        doc: dict[str, Any] = json.loads(out.stdout)
        return doc

    plain = read()
    assert plain["position"]["white"][0] < 15 and plain["confidence"] > 0.5
    # Rings that see no edge, and no network to count instead: every checker off, unsure.
    blind = "[board]\nedge_min = 100000.0\nnet_check = false\n"
    off = read("--settings", str(write(tmp_path, blind)))
    assert off["position"]["white"] == off["position"]["black"] == [15] + [0] * 25
    assert off["confidence"] == 0.0
    # With the network, the points the blind rings leave unsure are counted by it.
    netted = read("--settings", str(write(tmp_path, "[board]\nedge_min = 100000.0\n", "n.toml")))
    assert netted["position"]["white"][0] < 15 and netted["confidence"] < 0.5
    # A stricter circle, rings alone: the same counts, less sure; with the network agreeing
    # with each count, sure again.
    strict = "[board]\ncircle_min = 0.99\n"
    alone = read("--settings", str(write(tmp_path, strict + "net_check = false\n", "c.toml")))
    assert alone["position"] == plain["position"] and alone["confidence"] < 0.5
    agreed = read("--settings", str(write(tmp_path, strict, "d.toml")))
    assert agreed["position"] == plain["position"] and agreed["confidence"] >= 0.5


def test_the_frame_reader_and_the_session_take_their_stages_settings(
    board_files: tuple[Path, Path], tmp_path: Path
) -> None:
    _, cal_path = board_files
    path = write(
        tmp_path,
        "[board]\ncircle_min = 0.7\n[dice]\nvalue_min = 0.8\n[motion]\nwidth = 320\n"
        "[referee]\nmargin_min = 1.5\n[watch]\nsettle = 6\nfix_after = 10\n",
    )
    s = load(path)
    cal = load_calibration(cal_path)
    reader = FrameReader(BoardGeometry(cal), dice=s.dice, board=s.board, motion=s.motion)
    assert reader.board.s.circle_min == 0.7 and reader.gate.s.width == 320
    assert reader.dice.value_min == 0.8
    session = Session(tmp_path / "m.db", calibration=cal, settings=s)
    try:
        assert (session.referee.settle, session.referee.fix_after) == (6, 10)
        assert session.referee.explain.margin_min == 1.5
        assert session.follower is not None and session.follower.reader.board.s == s.board
        assert session.follower.reader.gate.s == s.motion
        assert session.follower.reader.dice == s.dice
        session.new_match(MatchRules())  # a new match's referee too
        assert session.referee.settle == 6 and session.referee.explain == s.referee
    finally:
        session.store.close()
    plain = Session(tmp_path / "d.db")
    assert plain.referee.settle == WatchSettings().settle and plain.settings == Settings()
    plain.store.close()


# --- the command line --------------------------------------------------------------------

BAD_FILES = [
    ("[motion]\nlevl = 3\n", ["[motion]", "'levl'", "did you mean 'level'"]),
    ("[camera]\nx = 1\n", ["unknown section [camera]"]),
    ('[motion]\nlevel = "high"\n', ["level must be a number", "'high'"]),
    ("[motion\n", ["not valid TOML"]),
    ("[motion]\nwidth = 0\n", ["[motion]", "width must be from 16 to 4096, got 0"]),
    (None, ["no such settings file"]),
]


@pytest.mark.parametrize(("text", "words"), BAD_FILES)
def test_read_board_refuses_a_bad_settings_file_in_one_line(
    board_files: tuple[Path, Path], tmp_path: Path, text: str | None, words: list[str]
) -> None:
    image, cal = board_files
    path = tmp_path / "s.toml" if text is None else write(tmp_path, text)
    result = bgcompanion(
        "read-board", str(image), "--calibration", str(cal), "--settings", str(path)
    )
    refused_in_one_line(result, str(path), *words)


@pytest.mark.parametrize(("text", "words"), BAD_FILES)
def test_referee_and_run_refuse_a_bad_settings_file_in_one_line(
    board_files: tuple[Path, Path], tmp_path: Path, text: str | None, words: list[str]
) -> None:
    _, cal = board_files
    path = tmp_path / "s.toml" if text is None else write(tmp_path, text)
    video = write(tmp_path, "not a video", "game.avi")
    result = bgcompanion("referee", str(video), "--calibration", str(cal), "--settings", str(path))
    refused_in_one_line(result, str(path), *words)
    result = bgcompanion(
        "run", "--video", str(video), "--calibration", str(cal), "--settings", str(path)
    )
    refused_in_one_line(result, str(path), *words)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[referee]\nsure = -0.5\n", "s.toml [referee]: sure must be 0 or more, got -0.5"),
        ("[watch]\nsettle = 0\n", "s.toml [watch]: settle must be 1 or more, got 0"),
        ("[watch]\nboard_min = 1.5\n", "s.toml [watch]: board_min must be from 0 to 1, got 1.5"),
        ("[watch]\nrest_px = -1\n", "s.toml [watch]: rest_px must be 0 or more, got -1.0"),
    ],
)
def test_a_referee_setting_that_makes_no_sense_is_refused(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(SettingsError) as e:
        load(write(tmp_path, text))
    assert str(e.value) == message.replace("s.toml", str(tmp_path / "s.toml"))
