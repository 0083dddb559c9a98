"""Cube unit link: display round trip in simulated time, recovery after faults, size.

    .venv/bin/python benchmarks/link.py [--updates 50] [--faults 10] [--silences 5,60]

Runs the real firmware in simavr (built here with avr-gcc). Round trip: from
the first byte of a SHOW line entering the chip's UART to (a) the chip's `ok`
newline and (b) the last MAX7219 LOAD edge of that update, in simulated
microseconds at 115200 baud. Recovery: wall time from a fault (the host closing
the port, a unit reset) to the display showing the host's state. After silence: the
emulated unit stops answering for each of --silences seconds (the link's real deadlines),
then answers again; wall time from then to the display showing the host's state. Targets:
round trip < 5 ms; display right within 1 s of any reconnect or of the unit answering
again; flash < 16 KB, RAM < 1 KB.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import serial

from companion.link.client import CubeLink, Deadlines, Status
from companion.link.emulator import Emulator
from companion.link.protocol import DisplayState, display_text
from companion.link.simunit import FIRMWARE_DIR, SimUnit


def round_trips(unit: SimUnit, n: int) -> tuple[list[float], list[float]]:
    ok_ms, shown_ms = [], []
    with serial.Serial(unit.port, 115200, timeout=0.5) as port:
        port.write(b"\n")
        time.sleep(0.2)
        port.reset_input_buffer()
        for i in range(n):
            state = DisplayState(2 ** (i % 7 + 1), "w", "-", i % 7, (i * 3) % 7, 7, "-")
            with unit._lock:
                seen = len(unit.events)
            port.write(state.line().encode() + b"\n")
            while port.readline().strip() != b"ok":
                pass
            if not unit.wait_display(display_text(state), 1.0):
                raise SystemExit(f"display wrong after {state.line()}: {unit.display()!r}")
            time.sleep(0.02)
            with unit._lock:
                new = unit.events[seen:]
                latches = list(unit.latch_times_us)
            start = next(e["t"] for e in new if e["ev"] == "in_line")
            ok = next(e["t"] for e in new if e["ev"] == "out_nl" and e["t"] > start)
            last_latch = max(t for t in latches if t > start)
            ok_ms.append((ok - start) / 1000)
            shown_ms.append((last_latch - start) / 1000)
    return ok_ms, shown_ms


def recoveries(unit: SimUnit, n: int) -> tuple[list[float], list[float]]:
    reopen, reset = [], []
    deadlines = Deadlines(backoff_first_s=0.02)
    with CubeLink(unit.port, deadlines=deadlines) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        for i in range(n):
            state = DisplayState(4, "b", "-", i % 9, 1, 9, "-")
            link.show(state)
            assert unit.wait_display(display_text(state), 2)
            # the host loses the port, and the state changes meanwhile
            changed = DisplayState(8, "w", "-", i % 9, 2, 9, "-")
            t0 = time.monotonic()
            link.drop_connection()
            link.show(changed)
            assert unit.wait_display(display_text(changed), 5)
            reopen.append(time.monotonic() - t0)
            # the unit resets: it forgets everything
            t0 = time.monotonic()
            unit.reset()
            assert unit.wait_display("--    --", 2)
            assert unit.wait_display(display_text(changed), 5)
            reset.append(time.monotonic() - t0)
    return reopen, reset


def after_silences(seconds: list[float]) -> list[float]:
    """Seconds from a silent unit answering again to its display being right."""
    back = []
    with Emulator() as unit, CubeLink(unit.port) as link:
        assert link.wait_status(Status.CONNECTED, 5)
        for i, quiet in enumerate(seconds):
            state = DisplayState(2 ** (i % 6 + 1), "w", "-", i % 7, 0, 7, "-")
            link.show(state)
            assert unit.wait_display(display_text(state), 2)
            unit.silent = True
            time.sleep(quiet)
            if quiet >= 5:  # lost within 1.5 s (keep-alive), missing 2 s later
                assert link.status is Status.MISSING, link.status
            t0 = time.monotonic()
            unit.silent = False
            assert unit.wait_display(display_text(state), 10)
            back.append(time.monotonic() - t0)
    return back


def size() -> tuple[int, int]:
    out = subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), "size"], capture_output=True, text=True, check=True
    ).stdout
    flash = re.search(r"Program:\s+(\d+) bytes", out)
    ram = re.search(r"Data:\s+(\d+) bytes", out)
    assert flash and ram
    return int(flash[1]), int(ram[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=50)
    parser.add_argument("--faults", type=int, default=10)
    parser.add_argument("--silences", default="5,60", help="seconds the unit is silent, each")
    args = parser.parse_args()
    silences = [float(x) for x in args.silences.split(",") if x]
    with SimUnit() as unit:
        ok_ms, shown_ms = round_trips(unit, args.updates)
        reopen, reset = recoveries(unit, args.faults)
    back = after_silences(silences)
    flash, ram = size()
    print(f"display update round trip, simulated ms over {args.updates} SHOW lines:")
    print(f"  to ok:        median {statistics.median(ok_ms):.2f}  max {max(ok_ms):.2f}")
    print(f"  to displayed: median {statistics.median(shown_ms):.2f}  max {max(shown_ms):.2f}")
    print(f"display right after the host reopens the port, s: max {max(reopen):.3f}")
    print(f"display right after a unit reset, s:             max {max(reset):.3f}")
    for quiet, took in zip(silences, back, strict=True):
        print(f"display right after a unit silent {quiet:.0f} s answers again, s: {took:.3f}")
    print(f"firmware: {flash} bytes flash (limit 16384), {ram} bytes static RAM (limit 1024)")
    met = max(ok_ms) < 5 and max(shown_ms) < 5 and max(reopen + reset + back) < 1
    met = met and flash < 16384 and ram < 1024
    print("targets met" if met else "TARGETS NOT MET")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
