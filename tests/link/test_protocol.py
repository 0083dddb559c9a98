"""Protocol values without a port: what the host sends, how unit lines parse,
and the display a state must give (the same layout as firmware/display.c)."""

from __future__ import annotations

import pytest

from companion.link.codes import ERRORS, LINE_MAX
from companion.link.protocol import (
    Banner,
    ButtonPress,
    DisplayState,
    Error,
    Info,
    Ok,
    ProtocolError,
    StateReport,
    SyncReply,
    check_host_line,
    display_leds,
    display_text,
    parse_line,
    segments_text,
    seq_newer,
)
from companion.rules.match import Match, MatchRules


def test_show_line_holds_the_whole_state() -> None:
    assert DisplayState(4, "b", "-", 3, 12, 15, "-").line() == "SHOW 4 b - 3 12 15 -"
    assert len(DisplayState(4096, "w", "-", 99, 99, 99, "p").line()) <= LINE_MAX


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ((3, "c", "-", 0, 0, 7, "-"), "power of two"),
        ((8192, "c", "-", 0, 0, 7, "-"), "power of two"),
        ((2, "w", "b", 0, 0, 7, "-"), "owns the cube"),
        ((4096, "w", "w", 0, 0, 0, "-"), "beyond 4096"),
        ((1, "c", "-", 8, 0, 7, "-"), "white score 8"),
        ((1, "c", "-", 0, 0, 0, "c"), "only in a match"),
        ((2, "w", "-", 6, 0, 7, "c"), "Crawford game"),
        ((1, "x", "-", 0, 0, 7, "-"), "owner"),
    ],
)
def test_states_the_unit_would_refuse_are_refused_here(
    fields: tuple[int, str, str, int, int, int, str], problem: str
) -> None:
    with pytest.raises(ProtocolError, match=problem):
        DisplayState(*fields)


def test_from_match_summary_follows_double_and_take() -> None:
    match = Match(MatchRules(length=7))
    assert DisplayState.from_summary(match.summary()) == DisplayState(1, "c", "-", 0, 0, 7, "-")
    match.apply({"type": "opening", "white": 3, "black": 1})
    match.apply({"type": "play", "play": "8/5 6/5"})
    match.apply({"type": "double"})  # black doubles
    offered = DisplayState.from_summary(match.summary())
    assert (offered.cube, offered.owner, offered.offer) == (1, "c", "b")
    assert display_text(offered) == " 0   2 0"
    match.apply({"type": "take"})
    taken = DisplayState.from_summary(match.summary())
    assert (taken.cube, taken.owner, taken.offer) == (2, "w", "-")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ok\r\n", Ok()),
        ("error:4", Error(4)),
        ("BGCube 1.0 proto:1 reset:watchdog boot:7", Banner("1.0", 1, "watchdog", 7)),
        ("[BTN 7 12 b take]", ButtonPress(7, 12, "b", "take")),
        ("[SYNC 4711]", SyncReply(4711)),
        ("[HELP SHOW ...]", Info("HELP SHOW ...")),
    ],
)
def test_unit_lines_parse(line: str, message: object) -> None:
    assert parse_line(line) == message


def test_state_report_fields() -> None:
    report = parse_line("<state cube:2 owner:w offer:- score:3-1/7 link:lost boot:3>")
    assert isinstance(report, StateReport)
    assert report.fields["score"] == "3-1/7" and report.fields["link"] == "lost"


@pytest.mark.parametrize("line", ["error:99", "error:x", "okay", "[BTN 1 w double]", "\x00\xff"])
def test_garbage_from_the_unit_is_a_protocol_error(line: str) -> None:
    with pytest.raises(ProtocolError):
        parse_line(line)


def test_error_texts_cover_every_code() -> None:
    assert all(Error(code).text == text for code, (_, text) in ERRORS.items())


def test_host_lines_are_checked_before_sending() -> None:
    assert check_host_line("ACK 3") == "ACK 3\n"
    with pytest.raises(ProtocolError, match="longer"):
        check_host_line("X" * (LINE_MAX + 1))
    with pytest.raises(ProtocolError, match="line breaks"):
        check_host_line("ok\nSHOW")
    with pytest.raises(ProtocolError, match="non-printable"):
        check_host_line("SHOW\x01")


def test_sequence_numbers_wrap() -> None:
    assert seq_newer(1, 0) and seq_newer(2, 1) and not seq_newer(1, 1)
    assert seq_newer(1, 65535) and not seq_newer(65535, 1)


def test_display_text_and_leds() -> None:
    assert display_text(None) == "--    --" and display_leds(None) == {"link"}
    assert display_text(DisplayState(), link_lost=True) == "  Lo5t  "
    assert display_leds(DisplayState(), link_lost=True) == set()
    offer = DisplayState(2, "w", "w", 1, 2, 5, "-")
    assert display_text(offer, blink_on=True) == " 1   4 2"
    assert display_text(offer, blink_on=False) == " 1     2"
    assert display_leds(offer) == {"link", "owner_white", "offer"}
    assert segments_text([0x7E, 0x30 | 0x80, 0x00, 0x4E, 0x05, 0x5B, 0x1D, 0x42]) == "01. Cr5o?"
