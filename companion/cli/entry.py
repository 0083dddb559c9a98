"""The `bgcompanion` command's entry point: `main()` and the parser, built from the command
modules.

Every subcommand prints its result on stdout and exits 0; on bad input it
prints one line on stderr naming the problem and exits 2, never a traceback
(CONTRACTS.md §4).

The imports go one way: this module -> the command modules (companion.cli.moves,
.match, .calibrate, ...) -> companion.cli.common; no command module imports another.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from calibration.imageio import ImageFileError
from calibration.jsonin import BadJSON
from calibration.schema import CalibrationError
from companion.cli import calibrate, cube, hall, match, moves, referee, run, vision
from companion.cli.common import EXIT_BAD_INPUT, Parser, UsageError, one_line
from companion.rules import RulesError


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="bgcompanion", description="A companion for backgammon over a real board.")
    parser.add_argument("--version", action="version", version="bgcompanion 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    moves.add_parsers(sub)
    match.add_parser(sub)
    calibrate.add_parsers(sub)
    vision.add_parsers(sub)
    cube.add_parsers(sub)
    referee.add_parsers(sub)
    sub.choices["match"].set_defaults(func=match.cmd_match)
    run.add_parsers(sub)
    hall.add_parsers(sub)
    return parser


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
