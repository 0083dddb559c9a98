"""Whether a roll stands: the dice as they lie, judged for the roller (CONTRACTS.md §4).

The rule is the game's, not the camera's: the reader says what each die shows (its
value, flat or cocked, its section, on a checker or not) and `roll_verdict` says
whether the roll stands and why not, in the vocabulary of `REASONS`. It is computed
once, where a decision needs it: by the referee for the game, by `read-dice` for its
JSON. Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

# Why a roll does not stand, in the order they are listed (CONTRACTS.md §4).
REASONS = ("cocked", "wrong_section", "on_checker", "off_board", "dice_count", "unreadable")


class DieShown(Protocol):
    """What a die shows the rules (`vision.die.DieReading` is one): its top face (None:
    unreadable), whether it lies flat, its section ("left", "right", "bar", "off" or None
    where unknown) and whether it rests on a checker."""

    @property
    def value(self) -> int | None: ...

    @property
    def flat(self) -> bool: ...

    @property
    def section(self) -> str | None: ...

    @property
    def on_checker(self) -> bool: ...


class Verdict(NamedTuple):
    """The roll (high die first; None unless exactly two dice were read), whether it
    stands, and the reasons it does not (`REASONS`, in that order)."""

    roll: tuple[int, int] | None
    valid: bool
    reasons: list[str]


def roll_verdict(
    dice: Sequence[DieShown],
    roller: str | None,
    calibrated: bool = True,
    on_checker_allowed: bool = False,
    *,
    refereeing: bool = False,
) -> Verdict:
    """Whether `dice` stand as a roll by `roller` ("white", "black", "opening": one die in
    each section, or None: no section judged).

    Without `calibrated` no section is known: only cocked, unreadable dice and their
    number are judged. `on_checker_allowed`: the event's rules let a die rest on a
    checker. `refereeing`: the verdict a game is played by (the referee's): beside two
    dice read, what cannot be read is taken for no die (a gap between two checkers can
    look like a face; a third die read still counts), and a roll void for a rule's sake
    is not also called unreadable (what the dice showed does not matter then).
    """
    if refereeing:
        read = [d for d in dice if d.value is not None]
        if len(read) == 2 and len(dice) > 2:
            dice = read
    reasons: set[str] = set()
    values = [d.value for d in dice]
    roll = None
    if len(dice) == 2 and None not in values:
        hi, lo = sorted((v for v in values if v is not None), reverse=True)
        roll = (hi, lo)
    if None in values:
        reasons.add("unreadable")
    if len(dice) != 2:
        reasons.add("dice_count")
    if any(not d.flat for d in dice):
        reasons.add("cocked")
    if calibrated:
        if not on_checker_allowed and any(d.on_checker for d in dice):
            reasons.add("on_checker")
        if any(d.section == "off" for d in dice):
            reasons.add("off_board")
        on_board = [d for d in dice if d.section != "off"]
        if roller in ("white", "black"):
            want = "right" if roller == "white" else "left"
            if any(d.section != want for d in on_board):
                reasons.add("wrong_section")
        elif (
            roller == "opening"
            and len(on_board) == 2
            and sorted(str(d.section) for d in on_board) != ["left", "right"]
        ):
            reasons.add("wrong_section")
    if refereeing and len(reasons) > 1:
        reasons.discard("unreadable")
    ordered = [r for r in REASONS if r in reasons]
    return Verdict(roll, not ordered, ordered)


__all__ = ["REASONS", "DieShown", "Verdict", "roll_verdict"]
