"""`bgcompanion cube-unit` (a stand-in unit: emulator or the firmware in simavr)
and `bgcompanion cube-check` (talk to a unit: show states, echo its buttons)."""

from __future__ import annotations

import argparse
import json
import threading
import time
from typing import Any, TextIO

from companion.cli.common import UsageError
from companion.cube_session import follow
from companion.link.client import CubeLink, Deadlines, Status
from companion.link.emulator import Emulator
from companion.link.protocol import DisplayState
from companion.link.simunit import SimError, SimUnit
from companion.store import Store

CHECK_STATES = [
    DisplayState(1, "c", "-", 0, 0, 7, "-"),
    DisplayState(1, "c", "b", 0, 0, 7, "-"),
    DisplayState(2, "w", "-", 3, 1, 7, "-"),
    DisplayState(1, "c", "-", 6, 4, 7, "c"),
]


def add_parsers(sub: Any) -> None:
    unit = sub.add_parser(
        "cube-unit",
        help="run a stand-in cube display unit on a pseudo-terminal",
        description=(
            "Start a cube display unit without hardware and print its serial port: "
            "--simulate runs the real firmware in simavr (needs avr-gcc and simavr, as "
            "`make test` installs), --emulate the Python emulator. Prints the display "
            "whenever it changes; stops after --seconds or on Ctrl-C."
        ),
    )
    kind = unit.add_mutually_exclusive_group()
    kind.add_argument("--simulate", action="store_true", help="the firmware in simavr (default)")
    kind.add_argument("--emulate", action="store_true", help="the Python emulator")
    unit.add_argument("--seconds", type=float, default=0, help="stop after this long (0: never)")
    unit.set_defaults(func=cmd_cube_unit)

    check = sub.add_parser(
        "cube-check",
        help="check a cube display unit: show test states, print its button presses",
        description=(
            "Connect to a unit (--port PATH, or auto to find an Arduino that answers), "
            "print its banner, show four test states a second apart (64 centred; black "
            "doubles, the 2 blinks; white owns 2 at 3-1 to 7; Crawford at 6-4), then print "
            "every button press until --seconds have passed."
        ),
    )
    check.add_argument("--port", default="auto", help="serial port, or auto (default)")
    check.add_argument("--seconds", type=float, default=10.0)
    check.add_argument("--json", action="store_true", help="one JSON object a line")
    check.set_defaults(func=cmd_cube_check)

    follow = sub.add_parser(
        "cube-follow",
        help="keep a cube display unit beside a match file: show it, record its buttons",
        description=(
            "The unit shows the cube and score of the match in --db (updated as actions are "
            "recorded there, e.g. by `bgcompanion match`), and its double / take / pass "
            "buttons record those actions in the file when the rules allow them. --cube is "
            "a serial port, auto, emulate (the Python emulator) or simulate (the firmware "
            "in simavr); stops after --seconds or on Ctrl-C. If the unit stops answering it "
            "says so once ('cube unit missing'), keeps trying every second, and says when it "
            "is back."
        ),
    )
    follow.add_argument("--db", required=True, help="the match file")
    follow.add_argument("--match", type=int, help="which match (default: the latest)")
    follow.add_argument("--cube", default="auto", help="PORT, auto, emulate or simulate")
    follow.add_argument("--seconds", type=float, default=0, help="stop after this long (0: never)")
    follow.set_defaults(func=cmd_cube_follow)


def _stand_in(emulate: bool) -> Emulator | SimUnit:
    """A started stand-in unit: the Python emulator, or the firmware in simavr."""
    try:
        unit: Emulator | SimUnit = Emulator() if emulate else SimUnit()
        unit.start()
    except (SimError, OSError) as e:
        raise UsageError(f"cannot start the unit: {e}") from None
    return unit


def _require_connection(link: CubeLink, name: str) -> None:
    """Wait for the link to connect (port discovery included), else a one-line error."""
    if not link.wait_status(Status.CONNECTED, link.deadlines.probe_s + 3):
        why = link.problems[-1] if link.problems else "no answer"
        raise UsageError(f"no cube unit on {name}: {why}")


def cmd_cube_unit(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    unit = _stand_in(args.emulate)
    try:
        stdout.write(f"cube unit on {unit.port}\n")
        stdout.flush()
        shown = None
        deadline = time.monotonic() + args.seconds if args.seconds else None
        while deadline is None or time.monotonic() < deadline:
            text = unit.display()
            if text != shown:
                shown = text
                stdout.write(f"display [{text}] leds {sorted(unit.leds())}\n")
                stdout.flush()
            time.sleep(0.05)
    finally:
        unit.stop()
    return 0


def cmd_cube_check(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    deadlines = Deadlines(attempts=2)
    link = CubeLink(args.port, deadlines=deadlines)
    link.start()
    try:
        _require_connection(link, args.port)

        def say(obj: dict[str, Any], text: str) -> None:
            stdout.write((json.dumps(obj) if args.json else text) + "\n")
            stdout.flush()

        banner = link.banner
        say(
            {
                "event": "connected",
                "port": args.port,
                "banner": banner.__dict__ if banner else None,
            },
            f"connected on {args.port}: "
            + (f"firmware {banner.version}, protocol {banner.protocol}" if banner else "running"),
        )
        deadline = time.monotonic() + args.seconds
        states = list(CHECK_STATES)
        next_state = 0.0
        while time.monotonic() < deadline:
            if states and time.monotonic() >= next_state:
                state = states.pop(0)
                link.show(state)
                say({"event": "show", "line": state.line()}, f"showing: {state.line()}")
                next_state = time.monotonic() + 1.0
            try:
                press = link.events.get(timeout=0.05)
            except Exception:
                continue
            say({"event": "button", **press.__dict__}, f"button: {press.player} {press.button}")
    finally:
        link.close()
    return 0


def cmd_cube_follow(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    unit: Emulator | SimUnit | None = None
    port = args.cube
    if args.cube in ("emulate", "simulate"):
        unit = _stand_in(args.cube == "emulate")
        port = unit.port
        stdout.write(f"stand-in cube unit on {port}\n")

    def say(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    stop = threading.Event()
    if args.seconds:
        threading.Timer(args.seconds, stop.set).start()
    try:
        Store(args.db).close()  # a bad file is a one-line error before anything starts
        with CubeLink(port) as link:
            _require_connection(link, args.cube)
            follow(args.db, link, stop, say, args.match)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        if unit is not None:
            unit.stop()
    return 0
