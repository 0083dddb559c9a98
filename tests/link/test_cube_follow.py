"""The cube unit beside a match file: it shows the match, its buttons record actions."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.cube_session import follow, press_action
from companion.link.client import CubeLink, Deadlines, Status
from companion.link.emulator import Emulator
from companion.link.protocol import ButtonPress
from companion.rules.match import Match, MatchRules, Phase
from companion.store import Store
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
