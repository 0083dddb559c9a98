"""A software cube unit on a pseudo-terminal, for development without hardware.

It speaks the firmware's protocol (same answers, codes, retransmission and
link-lost behaviour) and shows its display as text. The tests run the same
client checks against it and against the real firmware in simavr, so the two
cannot drift apart unnoticed. POSIX only (a pty).
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
import tty
from dataclasses import dataclass, field

from companion.link.codes import (
    BANNER_PREFIX,
    BUTTON_QUEUE,
    BUTTONS,
    CODES,
    FIRMWARE_VERSION,
    LINE_MAX,
    LINK_TIMEOUT_MS,
    PLAYERS,
    PROTOCOL_VERSION,
    RETRANSMIT_MS,
)
from companion.link.protocol import DisplayState, ProtocolError, display_leds, display_text


def _number(text: str, top: int) -> int | None:
    if not text.isdigit() or len(text) > 5 or int(text) > top:
        return None
    return int(text)


@dataclass
class _Unit:
    """The unit's memory; lost on reset, like the chip's RAM."""

    boot: int
    state: DisplayState | None = None
    link_lost: bool = False
    link_timeout_ms: int = LINK_TIMEOUT_MS
    brightness: int = 8
    last_rx: float = field(default_factory=time.monotonic)
    queue: list[tuple[int, str, str]] = field(default_factory=list)
    last_seq: int = 0
    dropped: int = 0
    last_send: float = 0.0


class Emulator:
    """Start it, point the client at `.port`, press its buttons, read `display()`."""

    def __init__(self) -> None:
        self._master, slave = os.openpty()
        tty.setraw(slave)
        self._slave = slave  # kept open: no EIO while the host has the port closed
        self.port = os.ttyname(slave)
        # A hung or powered-down unit whose port stays open: what the host sends is lost
        # and nothing comes back, until it is cleared (tests of a unit that goes quiet).
        self.silent = False
        self._boots = 0
        self._lock = threading.RLock()
        self._unit = self._boot("power")
        self._line = bytearray()
        self._too_long = self._bad_char = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="cube-emulator")

    def __enter__(self) -> Emulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> str:
        self._thread.start()
        return self.port

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        os.close(self._master)
        os.close(self._slave)

    # --- the outside of the unit -------------------------------------------------
    def display(self) -> str:
        with self._lock:
            u = self._unit
            blink = u.state is not None and u.state.offer != "-"
            on = not blink or int(time.monotonic() * 1000 / 250) % 2 == 0
            return display_text(u.state, u.link_lost, blink_on=on)

    def wait_display(self, text: str, timeout: float = 2.0) -> bool:
        deadline = time.monotonic() + timeout
        while self.display() != text:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def leds(self) -> set[str]:
        with self._lock:
            return display_leds(self._unit.state, self._unit.link_lost)

    def press(self, player: str, button: str) -> None:
        if player not in PLAYERS or button not in BUTTONS:
            raise ValueError(f"no button {player} {button}")
        with self._lock:
            u = self._unit
            if len(u.queue) == BUTTON_QUEUE:
                u.dropped += 1
                return
            u.last_seq = u.last_seq % 65535 + 1
            u.queue.append((u.last_seq, player, button))
            self._send_button(u.queue[-1])
            u.last_send = time.monotonic()

    def reset(self) -> None:
        with self._lock:
            self._unit = self._boot("external")
            self._line.clear()
            self._too_long = self._bad_char = False

    # --- inside ------------------------------------------------------------------
    def _boot(self, cause: str) -> _Unit:
        self._boots += 1
        unit = _Unit(boot=self._boots)
        self._out(
            f"{BANNER_PREFIX} {FIRMWARE_VERSION} proto:{PROTOCOL_VERSION} reset:{cause} "
            f"boot:{unit.boot}"
        )
        return unit

    def _out(self, line: str) -> None:
        if self.silent:
            return
        # nobody reading and the pty full: the line is lost, as on a wire
        with contextlib.suppress(OSError):
            os.write(self._master, (line + "\r\n").encode("ascii"))

    def _send_button(self, event: tuple[int, str, str]) -> None:
        seq, player, button = event
        self._out(f"[BTN {self._unit.boot} {seq} {player} {button}]")

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.01)
            if ready:
                try:
                    data = os.read(self._master, 1024)
                except OSError:
                    data = b""
                with self._lock:
                    for byte in b"" if self.silent else data:
                        self._byte(byte)
            self._tick()

    def _tick(self) -> None:
        with self._lock:
            u, now = self._unit, time.monotonic()
            if u.queue and now - u.last_send >= RETRANSMIT_MS / 1000:
                for event in u.queue:
                    self._send_button(event)
                u.last_send = now
            timeout = u.link_timeout_ms / 1000
            if timeout and not u.link_lost and now - u.last_rx > timeout:
                u.link_lost = True
                self._out(self._report())

    def _byte(self, byte: int) -> None:
        if byte == 0x0D:
            return
        if byte != 0x0A:
            if not 0x20 <= byte <= 0x7E:
                self._bad_char = True
            elif len(self._line) < LINE_MAX:
                self._line.append(byte)
            else:
                self._too_long = True
            return
        if self._too_long:
            err = CODES["LINE_TOO_LONG"]
        elif self._bad_char:
            err = CODES["BAD_CHARACTER"]
        else:
            err = self._execute(self._line.decode("ascii").split())
        self._unit.last_rx = time.monotonic()
        self._unit.link_lost = False
        if err == 0:
            self._out("ok")
        elif err > 0:
            self._out(f"error:{err}")
        self._line.clear()
        self._too_long = self._bad_char = False

    def _report(self) -> str:
        u = self._unit
        s = u.state or DisplayState()
        return (
            f"<state cube:{s.cube} owner:{s.owner} offer:{s.offer} "
            f"score:{s.score_white}-{s.score_black}/{s.length} flag:{s.flag} "
            f"shown:{int(u.state is not None)} link:{'lost' if u.link_lost else 'ok'} "
            f"pending:{len(u.queue)} dropped:{u.dropped} boot:{u.boot}>"
        )

    def _execute(self, words: list[str]) -> int:
        if not words:
            return 0
        keyword, args = words[0].upper(), words[1:]
        arity = {"?": 0, "SHOW": 7, "ACK": 1, "SYNC": 1, "LINK": 1, "BRIGHT": 1, "HELP": 0}
        if keyword == "TEST":
            return CODES["ARG_COUNT"] if len(args) != 1 else CODES["UNKNOWN_COMMAND"]
        if keyword not in arity:
            return CODES["UNKNOWN_COMMAND"]
        if len(args) != arity[keyword] or len(words) > 8:
            return CODES["ARG_COUNT"]
        u = self._unit
        if keyword == "?":
            self._out(self._report())
        elif keyword == "HELP":
            self._out("[HELP SHOW cube owner offer white black length flag|ACK n|SYNC n|...]")
        elif keyword == "SHOW":
            return self._show(args)
        elif keyword == "ACK":
            n = _number(args[0], 65535)
            if n is None:
                return CODES["BAD_NUMBER"]
            if n == 0 or u.last_seq == 0 or (u.last_seq - n) % 65536 >= 32768:
                return CODES["NOTHING_TO_ACK"]
            u.queue = [e for e in u.queue if (n - e[0]) % 65536 >= 32768]
        elif keyword == "SYNC":
            if _number(args[0], 65535) is None:
                return CODES["BAD_NUMBER"]
            self._out(f"[SYNC {args[0]}]")
        elif keyword == "LINK":
            n = _number(args[0], 60000)
            if n is None:
                return CODES["BAD_NUMBER"]
            u.link_timeout_ms = n
        elif keyword == "BRIGHT":
            n = _number(args[0], 15)
            if n is None:
                return CODES["BAD_NUMBER"]
            u.brightness = n
        return 0

    def _show(self, a: list[str]) -> int:
        nums = [_number(a[0], 4096), _number(a[3], 99), _number(a[4], 99), _number(a[5], 99)]
        if None in nums:
            return CODES["BAD_NUMBER"]
        cube, white, black, length = (int(n) for n in nums if n is not None)
        try:
            state = DisplayState(cube, a[1], a[2], white, black, length, a[6])
        except ProtocolError as e:
            return e.code  # the firmware's checks, in its order (DisplayState.problem)
        self._unit.state = state
        return 0
