"""The host's side of the cube link: a pyserial client that keeps the unit
showing the host's state and delivers every button press exactly once.

Threads: a reader per connection (lines -> responses queue or events), and one
supervisor that owns all writes: it connects, synchronises, sends the state,
acknowledges button events, keeps the link alive, and reconnects with back-off.
It never gives up by default: a unit silent or unplugged for minutes is "missing"
(`Status.MISSING`) and tried again at least once a second, so it shows the match
again within about a second of answering. The host is authoritative: after every
(re)connect and every unit reset it sends the whole state again.
"""

from __future__ import annotations

import contextlib
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import serial
from serial.tools import list_ports

from companion.link.codes import BAUD
from companion.link.protocol import (
    Banner,
    ButtonPress,
    DisplayState,
    Error,
    Message,
    Ok,
    ProtocolError,
    StateReport,
    SyncReply,
    check_host_line,
    parse_line,
    seq_newer,
)

# USB serial chips found on Arduino Uno / Nano boards and their clones.
KNOWN_USB_IDS = {
    (0x2341, 0x0043),  # Arduino Uno (ATmega16U2)
    (0x2341, 0x0001),  # Arduino Uno (8U2)
    (0x2A03, 0x0043),  # Arduino.org Uno
    (0x1A86, 0x7523),  # CH340 (most Nano clones)
    (0x0403, 0x6001),  # FTDI FT232R (older Nano)
    (0x10C4, 0xEA60),  # CP2102
}


@dataclass(frozen=True)
class Deadlines:
    """Every wait of the link, named (seconds, on time.monotonic())."""

    reply_s: float = 0.5  # one line's ok / error:N
    sync_s: float = 1.0  # SYNC's echo after opening the port
    keepalive_s: float = 1.0  # send an empty line after this much silence
    sync_resend_s: float = 0.2  # SYNC sent again this often while the unit is silent
    backoff_first_s: float = 0.05  # first wait before reconnecting, doubled each time
    backoff_max_s: float = 1.0  # at most this long between tries: back within ~1 s
    attempts: int | None = None  # failed connects in a row before giving up (None: never)
    missing_s: float = 2.0  # unreachable this long: the unit is missing (said once)
    probe_s: float = 3.0  # port discovery: wait this long for a banner or state


# error:N that mean the line was damaged in transit, not refused: send it again
TRANSPORT_ERRORS = {4, 5, 6}


class LinkTimeout(Exception):
    """The unit did not answer within a deadline."""


class Status(StrEnum):
    CLOSED = "closed"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    MISSING = "missing"  # unreachable for Deadlines.missing_s; still being tried
    FAILED = "failed"  # gave up after Deadlines.attempts (when set); call start() again


Opener = Callable[[str], Any]


def open_port(port: str) -> serial.Serial:
    return serial.serial_for_url(port, baudrate=BAUD, timeout=0.05, write_timeout=1.0)


class CubeLink:
    """Keeps one cube display unit in step with the host. `events` gets every
    button press once; `show()` never blocks."""

    def __init__(
        self,
        port: str,
        *,
        deadlines: Deadlines | None = None,
        opener: Opener = open_port,
    ) -> None:
        self.port = port
        self.deadlines = deadlines or Deadlines()
        self.events: queue.Queue[ButtonPress] = queue.Queue()
        self.status = Status.CLOSED
        self.banner: Banner | None = None
        self.last_report: dict[str, str] = {}
        self.problems: deque[str] = deque(maxlen=50)  # refusals, garbage, faults
        self.reconnects = 0
        self.down_since: float | None = None  # monotonic time the link was lost (or started)
        self.keepalive = True  # tests switch it off to play a silent host
        self._opener = opener
        self._desired: DisplayState | None = None
        self._confirmed: DisplayState | None = None
        self._responses: queue.Queue[Message] = queue.Queue()
        self._last_seq: dict[int, int] = {}
        self._unit_boot: int | None = None
        self._ack: tuple[int, int] | None = None
        self._unit_reset = threading.Event()
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._changed = threading.Condition()
        self._port: Any = None
        self._reader_failed: BaseException | None = None
        self._thread: threading.Thread | None = None

    # --- public ----------------------------------------------------------------
    def start(self) -> None:
        if self._thread and self._thread.is_alive():
            return
        self._closing.clear()
        self.status = Status.CONNECTING
        self._thread = threading.Thread(target=self._supervise, daemon=True, name="cube-link")
        self._thread.start()

    def close(self) -> None:
        self._closing.set()
        self._wake.set()
        if self._thread:
            self._thread.join(timeout=5)
        self.status = Status.CLOSED

    def __enter__(self) -> CubeLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def show(self, state: DisplayState) -> None:
        """Make the unit show this state, as soon as the link allows."""
        self._desired = state
        self._wake.set()

    @property
    def confirmed(self) -> DisplayState | None:
        """The state the unit has acknowledged on the current connection."""
        return self._confirmed

    def wait_confirmed(self, state: DisplayState, timeout: float) -> bool:
        return self._wait_until(lambda: self._confirmed == state, timeout)

    def wait_status(self, status: Status, timeout: float) -> bool:
        return self._wait_until(lambda: self.status == status, timeout)

    def _wait_until(self, condition: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def drop_connection(self) -> None:
        """Close the port under the link (as when a cable is pulled); it reconnects."""
        port = self._port
        if port is not None:
            port.close()

    # --- supervisor -------------------------------------------------------------
    def _set_status(self, status: Status) -> None:
        with self._changed:
            self.status = status
            self._changed.notify_all()

    def _supervise(self) -> None:
        failures = 0
        self.down_since = time.monotonic()
        while not self._closing.is_set():
            tried = time.monotonic()
            try:
                self._connect()
                failures = 0
                self.down_since = None
                self._set_status(Status.CONNECTED)
                self._serve()
            except (serial.SerialException, OSError, LinkTimeout, ValueError) as e:
                self.problems.append(f"link: {type(e).__name__}: {e}")
            finally:
                self._disconnect()
            if self._closing.is_set():
                break
            now = time.monotonic()
            if self.down_since is None:  # it was connected until now
                self.down_since, tried = now, now
            failures += 1
            limit = self.deadlines.attempts
            if limit is not None and failures > limit:
                self._set_status(Status.FAILED)
                return
            missing = now - self.down_since >= self.deadlines.missing_s
            if missing or self.status is Status.MISSING:
                self._set_status(Status.MISSING)
            else:
                self._set_status(Status.CONNECTING)
            self.reconnects += 1
            self._closing.wait(self._backoff(failures, now - tried))

    def _backoff(self, failures: int, spent: float) -> float:
        """The wait before the next try: doubled each failure up to backoff_max_s, less the
        time the failed try itself took (a silent unit's SYNC wait counts as waiting)."""
        d = self.deadlines
        wait = min(d.backoff_first_s * 2.0 ** min(failures - 1, 30), d.backoff_max_s)
        return max(0.0, wait - spent)

    def _connect(self) -> None:
        port = resolve_port(self.port, self.deadlines) if self.port == "auto" else self.port
        self._port = self._opener(port)
        self._port.reset_input_buffer()
        self._responses = queue.Queue()
        self._reader_failed = None
        threading.Thread(
            target=self._read, args=(self._port,), daemon=True, name="cube-reader"
        ).start()
        self._sync()
        self._command("?")  # the unit's boot number and state, for a banner missed
        self._unit_boot = int(self.last_report.get("boot", "0")) or self._unit_boot
        with self._changed:
            self._confirmed = None  # the whole state goes out again
        self._unit_reset.clear()

    def _disconnect(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
        with self._changed:
            self._confirmed = None

    def _sync(self) -> None:
        """Skip whatever an earlier connection left in the pipe: SYNC n, then its echo and ok.

        Sent again with a new n every sync_resend_s while nothing answers, so that a unit
        that comes back during the wait is found at once. Only the echo of the latest
        SYNC counts: the unit answers in order, so its ok is the last answer owed."""
        self._write("")  # ends any partial line the unit holds
        deadline = time.monotonic() + self.deadlines.sync_s
        sent: set[int] = set()
        while True:
            token = random.randint(1, 65535)
            while token in sent:  # an old SYNC's echo must not pass for this one's
                token = random.randint(1, 65535)
            sent.add(token)
            self._write(f"SYNC {token}")
            resend = min(deadline, time.monotonic() + self.deadlines.sync_resend_s)
            try:
                while True:
                    reply = self._next_response(resend)
                    if isinstance(reply, SyncReply) and reply.token == token:
                        break
                final = max(deadline, time.monotonic() + self.deadlines.reply_s)
                while not isinstance(self._next_response(final), Ok):
                    pass
                return
            except LinkTimeout:
                if time.monotonic() >= deadline:
                    raise

    def _serve(self) -> None:
        last_write = time.monotonic()
        while not self._closing.is_set():
            self._wake.wait(0.05)
            self._wake.clear()
            if self._reader_failed is not None:
                raise serial.SerialException(f"reading: {self._reader_failed}")
            if self._unit_reset.is_set():
                self._unit_reset.clear()
                with self._changed:
                    self._confirmed = None
            ack, self._ack = self._ack, None
            if ack is not None and ack[0] == self._unit_boot:
                self._command(f"ACK {ack[1]}")  # error 11 after a reset is harmless
                last_write = time.monotonic()
            desired = self._desired
            if desired is not None and desired != self._confirmed:
                reply = self._command(desired.line())
                last_write = time.monotonic()
                if isinstance(reply, Error):
                    self.problems.append(f"unit refused {desired.line()!r}: {reply.text}")
                    if reply.code in TRANSPORT_ERRORS:
                        continue  # the line was damaged on the way: send it again
                with self._changed:
                    self._confirmed = desired
                    self._changed.notify_all()
            if self.keepalive and time.monotonic() - last_write >= self.deadlines.keepalive_s:
                self._command("")
                last_write = time.monotonic()

    def _write(self, line: str) -> None:
        self._port.write(check_host_line(line).encode("ascii"))

    def _command(self, line: str) -> Ok | Error:
        """Send one line and wait for its one answer."""
        self._write(line)
        deadline = time.monotonic() + self.deadlines.reply_s
        while True:
            reply = self._next_response(deadline)
            if isinstance(reply, Ok | Error):
                return reply

    def _next_response(self, deadline: float) -> Message:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LinkTimeout("no answer from the cube unit")
            if self._reader_failed is not None:
                raise serial.SerialException(f"reading: {self._reader_failed}")
            try:
                return self._responses.get(timeout=min(left, 0.05))
            except queue.Empty:
                continue

    # --- reader -------------------------------------------------------------------
    def _read(self, port: Any) -> None:
        try:
            while self._port is port:
                raw = port.readline()
                if not raw:
                    continue
                if not raw.endswith(b"\n"):
                    raw += port.readline()  # a line split by the read timeout
                self._dispatch(raw.decode("ascii", errors="replace"))
        # pyserial raises TypeError / AttributeError, not SerialException, when the port
        # is closed under a blocked read (drop_connection, or _disconnect after a fault)
        except (serial.SerialException, OSError, TypeError, AttributeError) as e:
            if self._port is port:
                self._reader_failed = e
                self._wake.set()

    def _dispatch(self, text: str) -> None:
        try:
            message = parse_line(text)
        except ProtocolError as e:
            self.problems.append(str(e))
            return
        if isinstance(message, Ok | Error | SyncReply):
            self._responses.put(message)
        elif isinstance(message, Banner):
            self.banner = message
            self._unit_boot = message.boot
            self._unit_reset.set()
            self._wake.set()
        elif isinstance(message, ButtonPress):
            self._unit_boot = message.boot
            last = self._last_seq.get(message.boot, 0)
            if seq_newer(message.seq, last):
                self._last_seq[message.boot] = message.seq
                self.events.put(message)
            self._ack = (message.boot, message.seq)
            self._wake.set()
        elif isinstance(message, StateReport):
            self.last_report = message.fields


def candidate_ports() -> list[str]:
    """Serial ports whose USB IDs are those of Arduino Uno / Nano boards."""
    return [p.device for p in list_ports.comports() if (p.vid, p.pid) in KNOWN_USB_IDS]


def probe(port: str, deadlines: Deadlines, opener: Opener = open_port) -> Banner | dict[str, str]:
    """Open a port and wait for a cube unit's banner or state report; LinkTimeout if none."""
    link = opener(port)
    try:
        deadline = time.monotonic() + deadlines.probe_s
        next_ask = 0.0
        while time.monotonic() < deadline:
            if time.monotonic() >= next_ask:  # an Uno resets on open: ask until it is up
                link.write(b"?\n")
                next_ask = time.monotonic() + 0.3
            raw = link.readline()
            try:
                message = parse_line(raw.decode("ascii", errors="replace")) if raw else None
            except ProtocolError:
                continue
            if isinstance(message, Banner):
                return message
            if isinstance(message, StateReport) and "boot" in message.fields:
                return message.fields
        raise LinkTimeout(f"{port}: no cube unit answered")
    finally:
        link.close()


def resolve_port(port: str, deadlines: Deadlines) -> str:
    """'auto': the first Arduino-like port on which a cube unit answers."""
    if port != "auto":
        return port
    for candidate in candidate_ports():
        try:
            probe(candidate, deadlines)
            return candidate
        except (serial.SerialException, OSError, LinkTimeout):
            continue
    raise serial.SerialException("no cube unit found on any USB serial port")
