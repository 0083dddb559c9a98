"""`bgcompanion legal-moves`: every legal play for a position and roll."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from calibration.jsonin import BadJSON
from calibration.jsonin import loads as bounded_json
from companion.cli.common import UsageError, parse_dice, position_arg
from companion.rules import Color, LegalPlays, Position, RulesError, draw_board, parse_position


def add_parsers(sub: Any) -> None:
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
    position, xg_dice = position_arg(args.position, args.turn)
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
