"""The `bgcompanion` command.

Every subcommand prints its result on stdout and exits 0; on bad input it
prints one line on stderr naming the problem and exits 2, never a traceback
(CONTRACTS.md §4).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from calibration.imageio import ImageFileError
from calibration.jsonin import BadJSON
from calibration.jsonin import loads as bounded_json
from calibration.schema import CalibrationError
from companion.rules import (
    Color,
    LegalPlays,
    Position,
    RulesError,
    check_dice,
    draw_board,
    parse_position,
    parse_xgid,
)

EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad input on the command line or stdin: one line, exit 2."""


class _Parser(argparse.ArgumentParser):
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


def _position_arg(text: str, turn: str | None) -> tuple[Position, tuple[int, int] | None]:
    """A position from an XGID / GNUbg ID / Position ID, and the dice the XGID holds."""
    color = Color(turn) if turn else None
    if text.strip().upper().startswith("XGID="):
        position, info = parse_xgid(text)
        return (position if color is None else position.with_turn(color)), info.dice
    return parse_position(text, color), None


def _plays_json(plays: LegalPlays) -> dict[str, Any]:
    return {"plays": [{"play": str(p), "position": p.result.to_json()} for p in plays]}


def _request(line: str) -> LegalPlays:
    """One legal-moves request line: {"position": ..., "turn": ..., "dice": [d1, d2]}."""
    try:
        obj = bounded_json(line)
    except BadJSON as e:
        raise UsageError(str(e)) from None
    if not isinstance(obj, dict):
        raise UsageError("expected a JSON object with 'position', 'turn' and 'dice'")
    for key in ("position", "dice"):
        if key not in obj:
            raise UsageError(f"missing '{key}'")
    raw, turn = obj["position"], obj.get("turn")
    if turn is not None and turn not in ("white", "black"):
        raise UsageError(f"turn: expected 'white' or 'black', got {turn!r}")
    if isinstance(raw, str):
        position = parse_position(raw, Color(turn) if turn else None)
    else:
        if turn is None:
            raise UsageError("missing 'turn' ('white' or 'black')")
        position = Position.from_json(raw, turn)
    dice = obj["dice"]
    if not isinstance(dice, list):
        raise UsageError(f"dice: expected [d1, d2], got {dice!r}")
    return position.legal_plays(dice)


def _legal_moves_stream(stdin: TextIO, stdout: TextIO) -> None:
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            plays = _request(line)
            out = json.dumps(_plays_json(plays), separators=(",", ":"))
        except (UsageError, RulesError) as e:
            raise UsageError(f"line {number}: {e}") from None
        stdout.write(out + "\n")
        stdout.flush()


def _print_plays(plays: LegalPlays, stdout: TextIO) -> None:
    position = plays.position
    d1, d2 = plays.dice
    print(draw_board(position), file=stdout)
    print(file=stdout)
    if plays.dice_used == 0:
        print(f"{position.turn.value} rolls {d1}{d2}: no legal play, the turn passes", file=stdout)
        return
    n = len(plays)
    print(f"{position.turn.value} rolls {d1}{d2}: {n} legal play{'s' * (n != 1)}", file=stdout)
    width = len(str(n))
    for i, play in enumerate(plays, 1):
        print(f"{i:>{width}}. {play}", file=stdout)


def cmd_legal_moves(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    if args.position is None:
        if not args.json:
            raise UsageError("give --position and --dice, or --json with requests on stdin")
        _legal_moves_stream(stdin, stdout)
        return 0
    position, xg_dice = _position_arg(args.position, args.turn)
    if args.dice is not None:
        dice = parse_dice(args.dice)
    elif xg_dice is not None:
        dice = xg_dice
    else:
        raise UsageError("--dice is required (the position does not hold a roll)")
    plays = position.legal_plays(dice)
    if args.json:
        stdout.write(json.dumps(_plays_json(plays)) + "\n")
    else:
        _print_plays(plays, stdout)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bgcompanion", description="A companion for backgammon over a real board."
    )
    parser.add_argument("--version", action="version", version="bgcompanion 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    lm = sub.add_parser(
        "legal-moves",
        help="list every legal play for a position and roll",
        description=(
            "List every distinct legal play. Either --position ID --dice 53 (human form, or "
            "--json for one document), or --json alone reading JSON lines on stdin: "
            '{"position": {"white": [...26], "black": [...26]}, "turn": "white", "dice": [5, 3]}.'
        ),
    )
    lm.add_argument("--position", help="XGID, GNUbg ID (PositionID:MatchID) or Position ID")
    lm.add_argument("--dice", help="the roll, e.g. 53 (taken from the XGID when it holds one)")
    lm.add_argument(
        "--turn",
        choices=["white", "black"],
        help="side on roll (a bare Position ID is read as white on roll)",
    )
    lm.add_argument("--json", action="store_true", help="machine-readable output")
    lm.set_defaults(func=cmd_legal_moves)

    from companion import cli_calibrate, cli_cube, cli_match, cli_referee, cli_run, cli_vision

    cli_match.add_parser(sub)
    cli_calibrate.add_parsers(sub)
    cli_vision.add_parsers(sub)
    cli_cube.add_parsers(sub)
    cli_referee.add_parsers(sub)
    sub.choices["match"].set_defaults(func=cli_match.cmd_match)

    cli_run.add_parsers(sub)
    from companion import cli_hall

    cli_hall.add_parsers(sub)
    return parser


def one_line(message: str) -> str:
    """`message` with control characters written as escapes: a message that quotes the
    user's input (a newline in an argument) stays one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return EXIT_BAD_INPUT
        code: int = args.func(args, sys.stdin, sys.stdout)
        return code
    except (UsageError, RulesError, CalibrationError, ImageFileError, BadJSON) as e:
        print(f"bgcompanion: error: {one_line(str(e))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    # Run the imported module, not this __main__ copy of it: subcommand modules raise
    # companion.cli.UsageError, and main() must catch that very class.
    from companion.cli import main as package_main

    sys.exit(package_main())
