"""Whether a roll stands (`companion.rules.roll.roll_verdict`): each reason of the
vocabulary, without a calibration, and the referee's verdict (dice on checkers allowed,
unreadable extras beside two dice read, unreadable said only alone)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from companion.rules import REASONS, DieShown, roll_verdict


@dataclass(frozen=True)
class Die:
    """A die as a reader reports it (what `DieShown` asks for)."""

    value: int | None
    section: str | None = "right"
    flat: bool = True
    on_checker: bool = False


def die(value: int | None = 3, section: str | None = "right", **kw: bool) -> Die:
    return Die(value, section, **kw)


@pytest.mark.parametrize(
    ("dice", "roller", "reasons"),
    [
        ([die(5), die(3)], "white", []),
        ([die(5, "left"), die(3, "left")], "black", []),
        ([die(5, "left"), die(3, "right")], "opening", []),
        ([die(5, "right"), die(3, "right")], "opening", ["wrong_section"]),
        ([die(5), die(3, "left")], "white", ["wrong_section"]),
        ([die(5), die(3, flat=False)], "white", ["cocked"]),
        ([die(5), die(3, on_checker=True)], "white", ["on_checker"]),
        ([die(5), die(3, "off")], "white", ["off_board"]),
        ([die(5)], "white", ["dice_count"]),
        ([die(5), die(3), die(2)], "white", ["dice_count"]),
        ([die(5), die(None)], "white", ["unreadable"]),
        ([die(5, "bar"), die(3)], "white", ["wrong_section"]),
        ([die(5), die(3)], None, []),  # no roller: no section judged
        (
            [die(5, "left", flat=False), die(None, on_checker=True)],
            "white",
            ["cocked", "wrong_section", "on_checker", "unreadable"],
        ),
    ],
)
def test_the_verdict_follows_the_rules(dice: list[Die], roller: str, reasons: list[str]) -> None:
    roll, valid, got = roll_verdict(dice, roller, calibrated=True)
    assert got == reasons and valid == (not reasons)
    assert set(got) <= set(REASONS)
    if len(dice) == 2 and None not in (d.value for d in dice):
        assert roll == (5, 3)
    else:
        assert roll is None


def test_the_roll_is_high_die_first() -> None:
    assert roll_verdict([die(2), die(6)], "white").roll == (6, 2)
    assert roll_verdict([die(4), die(4)], "white").roll == (4, 4)


def test_every_reason_in_the_vocabulary_s_order() -> None:
    dice = [die(None, "off", flat=False, on_checker=True), die(3, "left")]
    verdict = roll_verdict([*dice, die(2)], "white")
    assert verdict.reasons == list(REASONS) and not verdict.valid


def test_without_a_calibration_sections_and_checkers_are_not_judged() -> None:
    _, valid, reasons = roll_verdict([die(5, None, on_checker=True), die(3, None)], "white", False)
    assert valid and reasons == []
    _, valid, reasons = roll_verdict([die(5, "off", flat=False), die(None)], "white", False)
    assert reasons == ["cocked", "unreadable"]


def test_a_die_on_a_checker_stands_where_the_event_allows_it() -> None:
    dice = [die(5), die(3, on_checker=True)]
    assert roll_verdict(dice, "white").reasons == ["on_checker"]
    assert roll_verdict(dice, "white", on_checker_allowed=True) == ((5, 3), True, [])
    # ... and nothing else goes with it.
    tilted = [die(5), die(3, flat=False, on_checker=True)]
    assert roll_verdict(tilted, "white", on_checker_allowed=True).reasons == ["cocked"]


def test_the_referee_takes_what_cannot_be_read_beside_two_dice_read_for_no_die() -> None:
    # A gap between two checkers can look like a face: beside two dice read it is no die.
    dice = [die(5), die(None, "left"), die(3)]
    assert roll_verdict(dice, "white").reasons == ["wrong_section", "dice_count", "unreadable"]
    assert roll_verdict(dice, "white", refereeing=True) == ((5, 3), True, [])
    # A third die read still counts; one die read beside the unreadable is not a roll.
    four = [die(5), die(None), die(3), die(2)]
    assert roll_verdict(four, "white", refereeing=True).reasons == ["dice_count"]
    assert roll_verdict([die(5), die(None)], "white", refereeing=True).reasons == ["unreadable"]


def test_the_referee_says_unreadable_only_when_it_is_the_only_reason() -> None:
    # Rolled again for a rule's sake: what the dice showed does not matter.
    dice = [die(5, flat=False), die(None)]
    assert roll_verdict(dice, "white").reasons == ["cocked", "unreadable"]
    assert roll_verdict(dice, "white", refereeing=True) == (None, False, ["cocked"])
    opening = [die(None, "left"), die(None, "right")]
    assert roll_verdict(opening, "opening", refereeing=True).reasons == ["unreadable"]


def test_a_frozen_die_is_what_the_rules_read() -> None:
    shown: DieShown = Die(4, "left")  # read-only fields satisfy the protocol
    assert roll_verdict([shown, Die(1, "left")], "black").valid
