"""The cube unit beside a match file: it shows the match, its buttons record actions."""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.cube_session import follow, press_action, record_press
from companion.link.client import CubeLink, Deadlines, Status
from companion.link.emulator import Emulator
from companion.link.protocol import ButtonPress, DisplayState
from companion.rules.match import Match, MatchRules, Phase
from companion.store import Store
from tests.link.quick import SILENCE
from tests.test_cli import run

FAST = Deadlines(keepalive_s=0.5, backoff_first_s=0.02)


def eventually(condition: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def black_on_roll(store: Store) -> int:
    match_id = store.create_match(MatchRules(length=5))
    store.apply(match_id, {"type": "opening", "white": 3, "black": 1})
    store.apply(match_id, {"type": "play", "play": "8/5 6/5"})
    return match_id


def test_press_rules() -> None:
    match = Match(MatchRules(length=5))
    match.apply({"type": "opening", "white": 3, "black": 1})
    match.apply({"type": "play", "play": "8/5 6/5"})
    assert press_action(match, ButtonPress(1, 1, "b", "double")) == {"type": "double"}
    assert "white pressed double, but it is black's turn" in str(
        press_action(match, ButtonPress(1, 1, "w", "double"))
    )
    assert "not allowed now" in str(press_action(match, ButtonPress(1, 1, "b", "take")))
    match.apply({"type": "double"})
    assert press_action(match, ButtonPress(1, 2, "w", "pass")) == {"type": "drop"}


def test_buttons_record_double_and_take_and_the_unit_follows_the_file(tmp_path: Path) -> None:
    lines: list[str] = []
    with Store(tmp_path / "m.db") as store, Emulator() as unit:
        match_id = black_on_roll(store)
        stop = threading.Event()
        with CubeLink(unit.port, deadlines=FAST) as link:
            assert link.wait_status(Status.CONNECTED, 3)
            worker = threading.Thread(
                target=follow, args=(tmp_path / "m.db", link, stop, lines.append)
            )
            worker.start()
            try:
                assert unit.wait_display(" 0  64 0")
                unit.press("w", "double")  # not white's turn: ignored
                unit.press("b", "double")
                assert unit.wait_display(" 0   2 0", 3)  # the offered 2 blinks
                unit.press("w", "take")
                assert eventually(lambda: unit.leds() == {"link", "owner_white"})
                assert unit.display() == " 0   2 0"
                # an action recorded elsewhere (another process) shows too
                with Store(tmp_path / "m.db") as other:
                    other.apply(match_id, {"type": "roll", "dice": [6, 4]})
                    other.apply(match_id, {"type": "play", "play": "24/14"})
                    other.apply(match_id, {"type": "double"})
                assert unit.wait_display(" 0   4 0", 3)
                unit.press("b", "pass")
                assert unit.wait_display(" 2  64 0", 3)  # white wins 2 points, next game
            finally:
                stop.set()
                worker.join(5)
        match = Store(tmp_path / "m.db").load(match_id)
    assert match.score["white"] == 2 and match.phase == Phase.OPENING
    assert any(line.startswith("ignored: white pressed double") for line in lines)
    assert sum(line.startswith("recorded:") for line in lines) == 3


def test_cube_follow_command_with_an_emulated_unit(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Store(db) as store:
        black_on_roll(store)
    result = run("cube-follow", "--db", str(db), "--cube", "emulate", "--seconds", "1.5")
    assert result.returncode == 0, result.stderr
    assert "stand-in cube unit on /dev/pts/" in result.stdout
    assert "showing: SHOW 1 c - 0 0 5 -" in result.stdout


class HeldLink:
    """A link whose presses the test hands in itself, the moment it chooses."""

    def __init__(self) -> None:
        self.events: queue.Queue[ButtonPress] = queue.Queue()
        self.status = Status.CONNECTED
        self.down_since: float | None = None
        self.problems: list[str] = []
        self.shown: list[str] = []

    def show(self, state: DisplayState) -> None:
        self.shown.append(state.line())


def test_a_press_right_after_another_writer_is_judged_against_the_new_state(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.db"
    with Store(db) as store:
        match_id = black_on_roll(store)
    link = HeldLink()
    lines: list[str] = []
    stop = threading.Event()
    # a long poll: the follower holds its reading of the file while it waits for a press
    worker = threading.Thread(
        target=follow, args=(db, link, stop, lines.append), kwargs={"poll_s": 30.0}
    )
    worker.start()
    try:
        assert eventually(lambda: bool(link.shown))  # read the file; now waiting for a press
        with Store(db) as other:  # another process: black rolls and plays; white may double
            other.apply(match_id, {"type": "roll", "dice": [6, 4]})
            other.apply(match_id, {"type": "play", "play": "24/14"})
        link.events.put(ButtonPress(1, 1, "w", "double"))  # at once
        assert eventually(lambda: any(line.startswith(("recorded", "ignored")) for line in lines))
    finally:
        stop.set()
        link.events.put(ButtonPress(1, 2, "w", "take"))  # ignored; wakes the follower to stop
        worker.join(5)
    assert "recorded: double (w pressed double)" in lines, lines
    with Store(db) as store:
        assert store.load(match_id).summary()["cube"]["offered"] is True


def test_a_press_that_loses_a_race_to_another_writer_is_judged_again(tmp_path: Path) -> None:
    # Another writer records between this press's reading and its writing: the insert
    # collides (as SQLite's would), and the press is judged against the file anew.
    db = tmp_path / "m.db"
    with Store(db) as store, Store(db) as other:
        match_id = black_on_roll(store)
        real_apply = store.apply
        raced: list[bool] = []

        def apply_after_a_race(mid: int, action: Any) -> Any:
            if not raced:
                raced.append(True)
                other.apply(mid, {"type": "double"})  # black doubled elsewhere first
                raise sqlite3.IntegrityError("UNIQUE constraint failed: events.match_id")
            return real_apply(mid, action)

        store.apply = apply_after_a_race  # type: ignore[method-assign]
        line = record_press(store, None, ButtonPress(1, 1, "b", "double"))
        assert raced == [True]
        assert line == "ignored: black pressed double, but it is white's turn to act", line
        assert store.load(match_id).summary()["cube"]["value"] == 1  # one double, not two


def test_cube_follow_says_once_when_the_unit_goes_missing_and_once_when_back(
    tmp_path: Path,
) -> None:
    quick = SILENCE
    db = tmp_path / "m.db"
    with Store(db) as store:
        black_on_roll(store)
    lines: list[str] = []
    stop = threading.Event()
    with Emulator() as unit, CubeLink(unit.port, deadlines=quick) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        worker = threading.Thread(
            target=follow, args=(db, link, stop, lines.append), kwargs={"poll_s": 0.05}
        )
        worker.start()
        try:
            assert unit.wait_display(" 0  64 0")
            unit.silent = True
            assert eventually(lambda: any("missing" in line for line in lines), 5)
            assert eventually(lambda: link.reconnects > 25, 10)  # many tries, no more lines
            unit.silent = False
            assert eventually(lambda: any("back" in line for line in lines), 3)
            assert unit.wait_display(" 0  64 0", 3)  # the display is the match again
            unit.press("b", "double")
            assert unit.wait_display(" 0   2 0", 3)  # and the buttons work
        finally:
            stop.set()
            worker.join(5)
    news = [line for line in lines if line.startswith("cube unit")]
    assert len(news) == 2, lines
    assert news[0].startswith("cube unit missing") and "stale" in news[0]
    assert news[1].startswith("cube unit back after")
