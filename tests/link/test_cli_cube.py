"""`bgcompanion cube-check` and `cube-unit` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import serial

from companion.cli.cube import CHECK_STATES
from companion.link.emulator import Emulator
from companion.link.protocol import display_text
from tests.test_cli import run


def test_cube_check_shows_test_states_and_echoes_buttons() -> None:
    with Emulator() as unit:
        presser = threading.Timer(1.2, unit.press, args=("b", "take"))
        presser.start()
        result = run("cube-check", "--port", unit.port, "--seconds", "3.5", "--json")
        presser.join()
        assert result.returncode == 0, result.stderr
        events = [json.loads(line) for line in result.stdout.splitlines()]
        assert events[0]["event"] == "connected"
        shown = [e["line"] for e in events if e["event"] == "show"]
        assert shown == [s.line() for s in CHECK_STATES]
        buttons = [(e["player"], e["button"]) for e in events if e["event"] == "button"]
        assert buttons == [("b", "take")]
        # the last test state is on the unit's display (the link keeps it there)
        assert (
            unit.wait_display(display_text(CHECK_STATES[-1]), 1.0) or unit.display() == "  Lo5t  "
        )


def test_cube_check_on_a_missing_port_is_one_line_exit_2() -> None:
    result = run("cube-check", "--port", "/dev/no-such-cube", "--seconds", "1")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "no cube unit on /dev/no-such-cube" in result.stderr


def test_cube_unit_runs_the_firmware_and_prints_its_port() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "cube-unit", "--seconds", "3"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert first.startswith("cube unit on /dev/pts/")
    port = first.split()[-1]
    with serial.Serial(port, 115200, timeout=0.1) as link:
        link.write(b"SHOW 2 b - 0 1 3 -\n")
        time.sleep(0.5)
    out, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0
    assert "display [ 0   2 1] leds ['link', 'owner_black']" in out
