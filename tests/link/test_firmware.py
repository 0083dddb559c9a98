"""The firmware itself: host unit tests, size, shared codes, and the real
binary in simavr spoken to byte by byte."""

from __future__ import annotations

import re
import subprocess
import time

import pytest
import serial

from companion.link.codes import BAUD, ERRORS, LINE_MAX, c_header
from companion.link.protocol import Banner, parse_line
from companion.link.simunit import FIRMWARE_DIR, SimUnit


def make(*target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), *target], capture_output=True, text=True
    )


def test_portable_modules_pass_their_host_unit_tests() -> None:
    result = make("host-test")
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"(\d+) checks, 0 failed", result.stdout)


def test_codes_header_is_generated_from_the_python_table() -> None:
    assert (FIRMWARE_DIR / "codes.h").read_text() == c_header()


def test_every_code_is_documented() -> None:
    doc = (FIRMWARE_DIR / "PROTOCOL.md").read_text()
    for code, (name, _) in ERRORS.items():
        assert re.search(rf"\|\s*{code}\s*\|\s*`{name}`", doc), name


def test_fits_16k_flash_and_1k_ram() -> None:
    result = make("size")
    assert result.returncode == 0, result.stderr
    flash = int(re.search(r"Program:\s+(\d+) bytes", result.stdout)[1])  # type: ignore[index]
    ram = int(re.search(r"Data:\s+(\d+) bytes", result.stdout)[1])  # type: ignore[index]
    assert flash < 16 * 1024 and ram < 1024


def read_lines(port: serial.Serial, seconds: float) -> list[str]:
    deadline = time.monotonic() + seconds
    lines = []
    buf = b""
    while time.monotonic() < deadline:
        buf += port.read(256)
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            lines.append(line.decode("ascii", errors="replace").rstrip("\r"))
    return lines


def test_uart_runs_at_115200_from_its_registers(firmware: SimUnit) -> None:
    time.sleep(0.05)
    regs = firmware.registers()
    baud = 16_000_000 / ((8 if regs["u2x"] else 16) * (regs["ubrr"] + 1))
    assert abs(baud - BAUD) / BAUD < 0.025


def test_banner_then_one_answer_per_line(firmware: SimUnit) -> None:
    with serial.Serial(firmware.port, BAUD, timeout=0.05) as port:
        port.write(b"?\n")  # the banner may have gone before we opened: ask
        lines = read_lines(port, 0.3)
        assert any(line.startswith("<state ") and "boot:" in line for line in lines)
        sent = [b"", b"?", b"SHOW 2 w - 1 0 5 -", b"FROB", b"X" * (LINE_MAX + 1), b"\x7f", b"ACK 9"]
        port.write(b"".join(s + b"\n" for s in sent))
        answers = [
            line for line in read_lines(port, 0.5) if line == "ok" or line.startswith("error:")
        ]
        assert answers == ["ok", "ok", "ok", "error:1", "error:4", "error:5", "error:11"]


def test_display_registers_after_boot_and_brightness(firmware: SimUnit) -> None:
    assert firmware.wait_display("--    --")
    chip = firmware.max7219
    assert (chip.decode, chip.scan_limit, chip.shutdown, chip.test) == (0, 7, False, False)
    with serial.Serial(firmware.port, BAUD, timeout=0.05) as port:
        port.write(b"BRIGHT 3\n")
        assert "ok" in read_lines(port, 0.2)
    assert firmware.wait_for(lambda: firmware.max7219.intensity == 3, 1.0)


def test_unacknowledged_presses_are_sent_again_until_acked(firmware: SimUnit) -> None:
    with serial.Serial(firmware.port, BAUD, timeout=0.05) as port:
        read_lines(port, 0.1)
        firmware.press("w", "pass")
        lines = [line for line in read_lines(port, 1.0) if line.startswith("[BTN")]
        assert len(lines) >= 2 and len(set(lines)) == 1  # the same event, repeated
        assert lines[0].endswith(" 1 w pass]")
        port.write(b"ACK 1\n")
        read_lines(port, 0.1)
        assert not [line for line in read_lines(port, 0.8) if line.startswith("[BTN")]


def test_a_hung_unit_is_reset_by_the_watchdog(firmware: SimUnit) -> None:
    with serial.Serial(firmware.port, BAUD, timeout=0.05) as port:
        port.write(b"SHOW 2 w - 1 0 5 -\n")
        assert firmware.wait_display(" 1   2 0")
        read_lines(port, 0.1)  # the power-on banner
        port.write(b"TEST WDT\n")
        banners = [m for m in map(parse_line, read_lines(port, 1.0)) if isinstance(m, Banner)]
        assert [b.reset for b in banners] == ["watchdog"]
    assert firmware.wait_display("--    --")  # it forgot the state: the host must resend


@pytest.mark.parametrize("command", ["SHOW 3 c - 0 0 7 -", "SHOW 2 w b 0 0 7 -", "LINK x"])
def test_refused_lines_change_nothing(firmware: SimUnit, command: str) -> None:
    with serial.Serial(firmware.port, BAUD, timeout=0.05) as port:
        port.write(b"SHOW 4 b - 2 3 7 -\n")
        assert firmware.wait_display(" 2   4 3")
        port.write(command.encode() + b"\n")
        assert any(line.startswith("error:") for line in read_lines(port, 0.3))
    assert firmware.display() == " 2   4 3"


# The SHOW lines the C host tests refuse, with the codes they expect there.
REFUSED_SHOW = [
    ("SHOW 3 c - 0 0 7 -", 7),
    ("SHOW 8192 c - 0 0 7 -", 2),
    ("SHOW 0 c - 0 0 7 -", 7),
    ("SHOW 4096 c w 0 0 0 -", 7),
    ("SHOW 2 x - 0 0 7 -", 8),
    ("SHOW 2 w b 0 0 7 -", 8),
    ("SHOW 2 w ww 0 0 7 -", 8),
    ("SHOW 1 c - 8 0 7 -", 9),
    ("SHOW 1 c - 100 0 0 -", 2),
    ("SHOW 1 c - 0 0 7 x", 10),
    ("SHOW 1 c - 0 0 0 c", 10),
    ("SHOW 2 w - 6 0 7 c", 10),
    ("SHOW 1 c - 0 0 7", 3),
    ("SHOW -1 c - 0 0 7 -", 2),
]


def test_the_emulator_refuses_show_lines_as_the_firmware_does() -> None:
    from companion.link.emulator import Emulator

    host_tests = (FIRMWARE_DIR / "test" / "test_host.c").read_text()
    with Emulator() as unit, serial.Serial(unit.port, BAUD, timeout=0.05) as port:
        read_lines(port, 0.1)
        for line, code in REFUSED_SHOW:
            assert f'send("{line}"), "error:{code}\\r\\n"' in host_tests  # the same cases
            port.write(line.encode() + b"\n")
            assert read_lines(port, 0.15) == [f"error:{code}"], line
