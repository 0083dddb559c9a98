"""The client and a cube unit (the real firmware in simavr, and the emulator):
the display follows the host, every button press arrives once, faults heal."""

from __future__ import annotations

import time

import pytest
import serial

from companion.link.client import CubeLink, Deadlines, Status
from companion.link.emulator import Emulator
from companion.link.protocol import ButtonPress, DisplayState, display_text
from tests.link.conftest import Unit
from tests.link.quick import SILENCE

FAST = Deadlines(reply_s=0.5, sync_s=1.0, keepalive_s=0.5, backoff_first_s=0.02)


def presses(link: CubeLink, n: int, timeout: float = 3.0) -> list[ButtonPress]:
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < deadline:
        try:
            got.append(link.events.get(timeout=0.05))
        except Exception:
            continue
    return got


def no_more_presses(link: CubeLink, wait: float = 0.8) -> bool:
    time.sleep(wait)  # longer than the unit's retransmission period
    return link.events.empty()


def test_display_follows_the_host(unit: Unit) -> None:
    with CubeLink(unit.port, deadlines=FAST) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        states = [
            (DisplayState(1, "c", "-", 0, 0, 7, "-"), " 0  64 0", {"link", "centre"}),
            (DisplayState(2, "w", "-", 3, 1, 7, "-"), " 3   2 1", {"link", "owner_white"}),
            (DisplayState(1, "c", "-", 6, 4, 7, "c"), " 6Cr64 4", {"link", "centre"}),
            (DisplayState(1024, "b", "-", 0, 12, 0, "-"), " 0102412", {"link", "owner_black"}),
        ]
        for state, text, leds in states:
            link.show(state)
            assert unit.wait_display(text), (unit.display(), text)
            assert unit.leds() == leds
        # an offer: the doubled value blinks and the offer LED is lit
        offer = DisplayState(2, "w", "w", 3, 1, 7, "-")
        link.show(offer)
        assert unit.wait_display(" 3   4 1") and unit.wait_display(" 3     1")
        assert "offer" in unit.leds()


def test_every_press_arrives_exactly_once_in_order(unit: Unit) -> None:
    with CubeLink(unit.port, deadlines=FAST) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        burst = [("w", "double"), ("b", "take"), ("b", "pass"), ("w", "take"), ("b", "double")] * 2
        for player, button in burst:
            unit.press(player, button)
            time.sleep(0.02)  # the button is released long enough to count again
        got = presses(link, len(burst), timeout=5)
        assert [(p.player, p.button) for p in got] == burst
        assert [p.seq for p in got] == list(range(1, len(burst) + 1))
        assert no_more_presses(link)


def test_host_closes_and_reopens_the_port(unit: Unit) -> None:
    state = DisplayState(4, "b", "-", 2, 5, 9, "-")
    with CubeLink(unit.port, deadlines=FAST) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        link.show(state)
        assert link.wait_confirmed(state, 2)
        link.drop_connection()
        unit.press("w", "double")  # pressed while the host is away
        assert presses(link, 1)[0].button == "double"
        assert link.reconnects >= 1
        assert link.wait_confirmed(state, 2)  # the whole state was sent again
        assert unit.wait_display(display_text(state), timeout=1.0)
        assert no_more_presses(link)
    # a new host process on the same unit sees no old presses again
    with CubeLink(unit.port, deadlines=FAST) as again:
        assert again.wait_status(Status.CONNECTED, 3)
        assert no_more_presses(again)


def test_unit_reset_mid_session_gets_the_state_back(unit: Unit) -> None:
    state = DisplayState(8, "w", "-", 1, 0, 5, "-")
    with CubeLink(unit.port, deadlines=FAST) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        link.show(state)
        assert unit.wait_display(" 1   8 0")
        unit.press("b", "pass")
        assert presses(link, 1)[0].seq == 1
        boots = link.banner.boot if link.banner else 0
        unit.reset()
        deadline = time.monotonic() + 2
        while (link.banner.boot if link.banner else 0) == boots and time.monotonic() < deadline:
            time.sleep(0.005)
        assert link.banner is not None and link.banner.reset == "external"
        assert unit.wait_display(" 1   8 0", timeout=1.0)  # within a second of the reset
        unit.press("w", "take")  # numbering starts again after a reset: still delivered
        got = presses(link, 1)
        assert [(p.seq, p.button) for p in got] == [(1, "take")]
        assert no_more_presses(link)


def test_garbage_and_partial_lines_on_the_wire(unit: Unit) -> None:
    state = DisplayState(2, "b", "-", 0, 0, 3, "-")
    with CubeLink(unit.port, deadlines=FAST) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        with serial.Serial(unit.port, 115200, timeout=0.1) as noise:
            noise.write(b"\x00\xff\xfeGARB")  # no newline: it prefixes the host's next line
            link.show(state)
            assert unit.wait_display(display_text(state))
            noise.write(b"SHOW 64 c - 0 0 3 -\n" + b"X" * 100 + b"\n")
            time.sleep(0.3)
        later = DisplayState(2, "b", "-", 1, 0, 3, "-")
        link.show(later)
        assert unit.wait_display(display_text(later))
        assert link.status == Status.CONNECTED


def test_silent_host_shows_link_lost_then_recovers(unit: Unit) -> None:
    state = DisplayState(2, "w", "-", 0, 1, 3, "-")
    with CubeLink(unit.port, deadlines=FAST) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        link.show(state)
        assert unit.wait_display(" 0   2 1")
        link.keepalive = False
        assert unit.wait_display("  Lo5t  ", timeout=5.0)  # 3 s of silence
        assert unit.leds() == set()
        link.keepalive = True
        assert unit.wait_display(" 0   2 1", timeout=2.0)
        assert "link" in unit.leds()


def test_bounded_reconnects_give_up_on_a_missing_port() -> None:
    deadlines = Deadlines(attempts=3, backoff_first_s=0.01, backoff_max_s=0.02)
    link = CubeLink("/dev/nonexistent-cube", deadlines=deadlines)
    link.start()
    assert link.wait_status(Status.FAILED, 5)
    assert link.reconnects == 3
    assert any("nonexistent" in p for p in link.problems)
    link.close()


def test_a_unit_silent_past_the_old_retry_limit_is_missing_then_found_again() -> None:
    # Quick deadlines stand for the real ones (sync 1 s, back-off capped at 1 s, missing
    # after 2 s): the link used to give up for good after 20 failed connects in a row.
    quick = SILENCE
    state = DisplayState(4, "b", "-", 2, 1, 5, "-")
    with Emulator() as unit, CubeLink(unit.port, deadlines=quick) as link:
        assert link.wait_status(Status.CONNECTED, 3)
        link.show(state)
        assert unit.wait_display(display_text(state))
        unit.silent = True
        assert link.wait_status(Status.MISSING, 3)
        deadline = time.monotonic() + 10
        while link.reconnects <= 25 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert link.reconnects > 25  # past the old limit of 20, and still trying
        assert link.status is Status.MISSING and link.down_since is not None
        unit.silent = False
        assert link.wait_status(Status.CONNECTED, 2)
        assert link.down_since is None
        assert link.wait_confirmed(state, 2)  # the host's state is sent again
        assert unit.wait_display(display_text(state))


def test_a_unit_answering_again_during_a_sync_is_found_by_a_later_sync() -> None:
    # One SYNC lost to a silent unit no longer costs the whole sync wait: it is sent again.
    slow = Deadlines(sync_s=5.0, sync_resend_s=0.05, backoff_first_s=0.01, missing_s=10)
    with Emulator() as unit:
        unit.silent = True
        link = CubeLink(unit.port, deadlines=slow)
        link.start()
        try:
            time.sleep(0.3)  # the first connect is inside its 5 s sync wait
            assert link.status is Status.CONNECTING
            unit.silent = False
            assert link.wait_status(Status.CONNECTED, 1.0)
            assert link.reconnects == 0  # the same connect, not a new one
        finally:
            link.close()


def test_port_discovery_by_usb_ids_and_answer(unit: Unit, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from companion.link import client

    ports = [
        SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None),  # a plain serial port
        SimpleNamespace(device="/dev/no-such-nano", vid=0x1A86, pid=0x7523),  # CH340, absent
        SimpleNamespace(device=unit.port, vid=0x2341, pid=0x0043),  # an Uno: our unit
    ]
    monkeypatch.setattr(client.list_ports, "comports", lambda: ports)
    assert client.candidate_ports() == ["/dev/no-such-nano", unit.port]
    assert client.resolve_port("auto", FAST) == unit.port
    with CubeLink("auto", deadlines=FAST) as link:
        assert link.wait_status(Status.CONNECTED, 5)
        state = DisplayState(2, "b", "-", 0, 0, 0, "-")
        link.show(state)
        assert unit.wait_display(display_text(state))
