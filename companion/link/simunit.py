"""The real cube firmware running in simavr, for tests, benchmarks and the demo.

`SimUnit` builds `firmware/` (avr-gcc) and its simavr harness (host gcc), runs
the `.elf`, and exposes the unit's serial port as a pseudo-terminal. It decodes
the chip's SPI writes as a MAX7219 would latch them (on the rising LOAD edge) and
watches the LED pins, so a test can assert what the display shows, and presses
buttons by driving the button pins.
"""

from __future__ import annotations

import fcntl
import json
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.link.protocol import segments_text

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
LED_PINS = {"D4": "owner_white", "D5": "centre", "D6": "owner_black", "D7": "offer", "B0": "link"}
BUTTON_PINS = {
    ("w", "double"): 0,
    ("w", "take"): 1,
    ("w", "pass"): 2,
    ("b", "double"): 3,
    ("b", "take"): 4,
    ("b", "pass"): 5,
}


class SimError(RuntimeError):
    """The firmware or its harness could not be built or started."""


def build(firmware_dir: Path = FIRMWARE_DIR) -> tuple[Path, Path]:
    """Build the firmware and the harness; returns (harness, elf).

    Units started at once (tests run side by side, two `cube-unit`s) build in turn: a
    lock file beside the build folder, so no make reads a file another is writing."""
    (firmware_dir / "build").mkdir(exist_ok=True)
    with open(firmware_dir / "build" / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = subprocess.run(
            ["make", "-s", "-C", str(firmware_dir), "sim"], capture_output=True, text=True
        )
    if result.returncode:
        last = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["?"]
        raise SimError(f"building the firmware failed: {last[0]}")
    return firmware_dir / "build" / "harness", firmware_dir / "build" / "cube.elf"


@dataclass
class Max7219:
    """The registers of a MAX7219, fed one SPI byte and one LOAD edge at a time."""

    digits: list[int] = field(default_factory=lambda: [0] * 8)  # register 1..8
    shutdown: bool = True
    decode: int = 0
    scan_limit: int = 0
    intensity: int = 0
    test: bool = False
    frames: int = 0
    _shift: list[int] = field(default_factory=list)

    def spi(self, byte: int) -> None:
        self._shift = [*self._shift[-1:], byte]

    def latch(self) -> None:
        if len(self._shift) < 2:
            return
        reg, value = self._shift[0] & 0x0F, self._shift[1]
        self._shift = []
        self.frames += 1
        if 1 <= reg <= 8:
            self.digits[reg - 1] = value
        elif reg == 0x09:
            self.decode = value
        elif reg == 0x0A:
            self.intensity = value & 0x0F
        elif reg == 0x0B:
            self.scan_limit = value & 0x07
        elif reg == 0x0C:
            self.shutdown = not value & 1
        elif reg == 0x0F:
            self.test = bool(value & 1)

    def text(self) -> str:
        """The eight digits as text, leftmost (register 8) first; blank while shut down."""
        if self.test:
            return "8.8.8.8.8.8.8.8."
        if self.shutdown:
            return " " * 8
        return segments_text(self.digits[::-1])


class SimUnit:
    """One simulated cube unit. Use as a context manager."""

    def __init__(self, *, fast: bool = False, firmware_dir: Path = FIRMWARE_DIR) -> None:
        self.fast = fast
        self.firmware_dir = firmware_dir
        self.port = ""
        self.max7219 = Max7219()
        self.pins: dict[str, int] = {}
        self.events: list[dict[str, Any]] = []
        self.latch_times_us: list[int] = []  # simulated time of each LOAD rising edge
        self.time_us = 0
        self._lock = threading.Condition()
        self._proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> SimUnit:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> str:
        harness, elf = build(self.firmware_dir)
        self._proc = subprocess.Popen(
            [str(harness), str(elf)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        assert self._proc.stdout is not None
        first = self._proc.stdout.readline()
        if not first:
            raise SimError("the simavr harness exited at start")
        self.port = json.loads(first)["path"]
        self._reader = threading.Thread(target=self._read, daemon=True, name="simunit")
        self._reader.start()
        if self.fast:
            self._send("fast 1")
        return self.port

    def stop(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._send("quit")
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
        self._reader.join(timeout=5)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()
        self._proc = None

    def _send(self, command: str) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        self._proc.stdin.write(command + "\n")
        self._proc.stdin.flush()

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            try:
                ev = json.loads(line)
            except json.JSONDecodeError:
                continue
            with self._lock:
                self.time_us = ev.get("t", self.time_us)
                kind = ev["ev"]
                if kind == "spi":
                    self.max7219.spi(ev["v"])
                elif kind == "pin":
                    if ev["pin"] == "B2" and ev["v"] and not self.pins.get("B2"):
                        self.max7219.latch()
                        self.latch_times_us.append(ev["t"])
                    self.pins[ev["pin"]] = ev["v"]
                else:
                    self.events.append(ev)
                self._lock.notify_all()

    # --- what the unit shows -------------------------------------------------
    def display(self) -> str:
        with self._lock:
            return self.max7219.text()

    def leds(self) -> set[str]:
        with self._lock:
            return {name for pin, name in LED_PINS.items() if self.pins.get(pin)}

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until predicate() holds (display updates pass through intermediate frames)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(min(left, 0.05))
        return True

    def wait_display(self, text: str, timeout: float = 2.0) -> bool:
        return self.wait_for(lambda: self.max7219.text() == text, timeout)

    # --- acting on the unit --------------------------------------------------
    def press(self, player: str, button: str, hold_s: float = 0.03) -> None:
        pin = BUTTON_PINS[(player, button)]
        self._send(f"pin C {pin} 0")
        time.sleep(hold_s)
        self._send(f"pin C {pin} 1")

    def reset(self) -> None:
        """As if the RESET pin were pulled."""
        self._send("reset")

    def registers(self, timeout: float = 2.0) -> dict[str, Any]:
        with self._lock:
            seen = len(self.events)
        self._send("regs")
        found: list[dict[str, Any]] = []

        def got() -> bool:
            found[:] = [e for e in self.events[seen:] if e["ev"] == "regs"]
            return bool(found)

        if not self.wait_for(got, timeout):
            raise SimError("the harness did not report the registers")
        return found[0]

    def cpu_stopped(self) -> bool:
        with self._lock:
            return any(e["ev"] == "cpu" for e in self.events)
