"""What the `bgcompanion` command modules share: the one-line error, the parser class,
the argument types, the position and dice readers and the --settings file.

The bottom of companion.cli: it imports no other module of the package.
"""

from __future__ import annotations

import argparse
import re
from typing import Any, NoReturn

from companion.rules import Color, Position, check_dice, parse_position, parse_xgid

EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad input on the command line or stdin: one line, exit 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are a UsageError (one line, exit 2)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def whole_number(text: str) -> int:
    """An argparse type: 0 or more in ASCII digits, at most 6 of them (int() also takes
    '７', '٣', ' 7 ', '+7' and '1_000')."""
    if not re.fullmatch(r"[0-9]{1,6}", text):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number (digits 0-9)")
    return int(text)


def parse_dice(text: str, what: str = "--dice") -> tuple[int, int]:
    """A roll written as 53, 5-3, 5,3 or 5 3."""
    digits = re.fullmatch(r"\s*([0-9])\s*[-, ]?\s*([0-9])\s*", text)
    if not digits:
        raise UsageError(f"{what} {text!r}: expected two numbers 1-6, e.g. 53")
    return check_dice((int(digits[1]), int(digits[2])))


def position_arg(text: str, turn: str | None) -> tuple[Position, tuple[int, int] | None]:
    """A position from an XGID / GNUbg ID / Position ID, and the dice the XGID holds."""
    color = Color(turn) if turn else None
    if text.strip().upper().startswith("XGID="):
        position, info = parse_xgid(text)
        return (position if color is None else position.with_turn(color)), info.dice
    return parse_position(text, color), None


def one_line(message: str) -> str:
    """`message` with control characters written as escapes: a message that quotes the
    user's input (a newline in an argument) stays one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def add_settings_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--settings",
        metavar="FILE",
        help="a TOML file overriding the stages' thresholds (sections [board], [dice], "
        "[motion], [referee], [watch]; every key and its default: companion/settings.toml)",
    )


def load_settings(path: str | None) -> Any:
    """The `companion.settings.Settings` of --settings FILE (the defaults without one);
    a file that cannot be read or names what does not exist is a UsageError."""
    # local: the settings name the readers' types (vision.motion loads OpenCV)
    from companion.settings import load
    from vision.settings import SettingsError

    try:
        return load(path)
    except SettingsError as e:
        raise UsageError(str(e)) from None
