"""`bgcompanion match --db FILE <command>`: run a match by hand, one command per call.

The state lives in the SQLite match file; each call folds its events, checks
the command against the rules and records it. An illegal command changes
nothing and gets one line saying why (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any, TextIO

from calibration.jsonin import read_text
from companion.cli.common import UsageError, parse_dice, position_arg, whole_number
from companion.rules import REASONS, draw_board, gnubg_id, xgid
from companion.rules.mat import MatError, UnfinishedMatch, export_mat, import_mat
from companion.rules.match import Action, Match, MatchRules, match_info
from companion.store import Store, StoreError

# The reasons a roll is void (CONTRACTS.md §4, read-dice's vocabulary) and an early roll
# (companion.rules.match: thrown before the opponent picked up his dice).
REROLL_REASONS = (*REASONS, "early")

COMMANDS = (
    "new, opening W B, roll 53, play TEXT, reroll [REASON...], double, take, drop, beaver, "
    "resign 1|2|3, accept, reject, correction [--position ID] [--dice 52], undo, show, "
    "export --mat FILE, import FILE"
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "match",
        help="run a match by hand, the state kept in a SQLite file",
        description=f"Commands: {COMMANDS}.",
    )
    p.add_argument("--db", required=True, help="the match file (created if missing)")
    p.add_argument(
        "--match", type=whole_number, help="which match in the file (default: the latest)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")
    cmds = p.add_subparsers(dest="match_command", metavar="COMMAND", required=True)

    new = cmds.add_parser("new", help="start a match (or a money session)")
    new.add_argument(
        "--length", type=whole_number, default=7, help="match length in points (default 7)"
    )
    new.add_argument("--money", action="store_true", help="a money session instead of a match")
    new.add_argument(
        "--jacoby",
        action="store_true",
        help="money: gammons count single unless the cube was turned",
    )
    new.add_argument("--beavers", action="store_true", help="money: beavers allowed")
    new.add_argument(
        "--auto-doubles",
        type=whole_number,
        default=0,
        metavar="N",
        help="money: automatic doubles per game",
    )
    new.add_argument(
        "--no-crawford", action="store_true", help="match: play without the Crawford rule"
    )
    new.add_argument("--dice-on-checker", choices=["reroll", "allowed"], default="reroll")
    new.add_argument("--white", default="White", help="white's name")
    new.add_argument("--black", default="Black", help="black's name")

    opening = cmds.add_parser("opening", help="the opening roll: white's die, black's die")
    opening.add_argument("white", type=whole_number)
    opening.add_argument("black", type=whole_number)
    roll = cmds.add_parser("roll", help="the player on roll's dice, e.g. 53")
    roll.add_argument("dice")
    play = cmds.add_parser("play", help="the play in standard notation, e.g. '13/8 13/10'")
    play.add_argument("text", nargs="?", default="")
    reroll = cmds.add_parser(
        "reroll", help=f"void the roll; reasons: {', '.join(REROLL_REASONS)} (default cocked)"
    )
    reroll.add_argument("reasons", nargs="*", default=["cocked"])
    for name, text in (
        ("double", "offer the cube"),
        ("take", "take the double"),
        ("drop", "pass the double"),
        ("beaver", "take and redouble at once (money, beavers on)"),
        ("accept", "accept the resignation or the illegal play"),
        ("reject", "reject the resignation, or require a legal play"),
        ("undo", "cancel the latest action"),
        ("show", "the board, cube, score and what is allowed now"),
    ):
        cmds.add_parser(name, help=text)
    correct = cmds.add_parser(
        "correction",
        help="set the board as it is (a board misread, a checker moved by mistake) and, "
        "while a roll is to be played, the dice as they fell",
    )
    correct.add_argument(
        "--position",
        help="the board: an XGID, a GNUbg ID or a Position ID (from the side on roll's seat)",
    )
    correct.add_argument("--dice", help="the dice as they fell, e.g. 52")
    correct.add_argument("--note", default="by hand", help="why (kept in the record)")
    resign = cmds.add_parser("resign", help="offer to resign: 1 single, 2 gammon, 3 backgammon")
    resign.add_argument("level", type=whole_number, choices=[1, 2, 3])
    resign.add_argument(
        "--player", choices=["white", "black"], help="who resigns (default: on roll)"
    )
    export = cmds.add_parser("export", help="write the match as a .mat file")
    export.add_argument("--mat", required=True, help="the .mat file to write")
    imp = cmds.add_parser("import", help="read a .mat file into a new match in the file")
    imp.add_argument("file")
    imp.add_argument(
        "--unfinished",
        action="store_true",
        help="accept a match still in play (else a match not over or a game without a "
        "result is refused: the file may have been cut short)",
    )


def _action(args: argparse.Namespace) -> Action:
    c = args.match_command
    if c == "opening":
        return {"type": "opening", "white": args.white, "black": args.black}
    if c == "roll":
        return {"type": "roll", "dice": list(parse_dice(args.dice, "dice"))}
    if c == "play":
        return {"type": "play", "play": args.text}
    if c == "reroll":
        unknown = [r for r in args.reasons if r not in REROLL_REASONS]
        if unknown:
            raise StoreError(
                f"reroll: {unknown[0][:40]!r} is not a reason (one or more of "
                f"{', '.join(REROLL_REASONS)})"
            )
        return {"type": "reroll", "reasons": list(dict.fromkeys(args.reasons))}
    if c == "resign":
        return {"type": "resign", "level": args.level, "player": args.player}
    return {"type": c}


def _describe(event: Action) -> str:
    t, who = event["type"], event.get("player", "")
    if t == "opening":
        if event.get("again"):
            return f"opening roll {event['white']}-{event['black']}: equal, roll again"
        return (
            f"opening roll white {event['white']}, black {event['black']}: {event['first']} starts"
        )
    if t == "roll":
        return f"{who} rolls {event['dice'][0]}{event['dice'][1]}"
    if t == "play":
        return f"{who} plays {event['play'] or '(no legal play)'}"
    if t == "game_over":
        s = event["score"]
        return (
            f"game over: {event['winner']} wins {event['points']} point"
            f"{'s' * (event['points'] != 1)} ({event['result']}); "
            f"score white {s['white']}, black {s['black']}"
        )
    if t == "match_over":
        return f"match over: {event['winner']} wins"
    if t in ("double", "beaver"):
        return f"{who} {t}s to {event['cube']}"
    if t in ("take", "drop"):
        return f"{who} {t}s"
    if t == "resign":
        return f"{who} offers to resign ({['', 'single', 'gammon', 'backgammon'][event['level']]})"
    if t == "reroll":
        if event.get("opening"):
            return (
                f"the opening roll is void ({', '.join(event['reasons'])}): both roll one die again"
            )
        return f"{who} must roll again ({', '.join(event['reasons'])})"
    if t == "correction":
        dice = f", dice {event['dice'][0]}{event['dice'][1]}" if "dice" in event else ""
        return f"board corrected{dice} ({event.get('note') or 'by hand'})"
    what = str(event.get("what", "")).replace("_", " ")
    return str(t).replace("_", " ") + (f": {what}" if what else "")


def show_text(match: Match, match_id: int) -> str:
    info = match_info(match)
    rules, s = match.rules, match.summary()
    kind = f"{rules.length}-point match" if rules.length else "money session"
    lines = [draw_board(match.position), ""]
    lines.append(
        f"match {match_id}: {kind}, game {s['game']}"
        + (
            " (Crawford game)"
            if s["crawford"]
            else " (post-Crawford)"
            if s["post_crawford"] and rules.length
            else ""
        )
    )
    score = s["score"]
    lines.append(
        f"score: {rules.white} (white) {score['white']}, {rules.black} (black) {score['black']}"
    )
    owner = s["cube"]["owner"] or "centred"
    lines.append(
        f"cube: {match.cube} ({owner})" + (" - a double is offered" if s["cube"]["offered"] else "")
    )
    dice = f", dice {s['dice'][0]}{s['dice'][1]}" if s["dice"] else ""
    allowed = ", ".join(s["allowed"]) or "nothing"
    lines.append(f"phase: {s['phase']}{dice}; to act: {s['acting'] or '-'}; allowed: {allowed}")
    if s["winner"]:
        lines.append(f"{s['winner']} has won the match")
    lines.append(f"{xgid(match.position, info)}")
    lines.append(f"GNUbg ID: {gnubg_id(match.position, info)}")
    return "\n".join(lines)


def cmd_match(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    try:
        return _run(args, stdout)
    except sqlite3.Error as e:  # a file whose tables were changed by hand, a locked file
        raise StoreError(f"{args.db}: the match file cannot be used ({e})") from None


def _run(args: argparse.Namespace, stdout: TextIO) -> int:
    with Store(args.db) as store:
        c = args.match_command
        if c == "new":
            for name in (args.white, args.black):
                if not name.isprintable():
                    raise StoreError(f"player name {name!r}: no control characters")
            rules = MatchRules(
                length=0 if args.money else args.length,
                jacoby=args.jacoby,
                beavers=args.beavers,
                auto_doubles=args.auto_doubles,
                crawford=not args.no_crawford,
                dice_on_checker=args.dice_on_checker,
                white=args.white,
                black=args.black,
            )
            if not args.money and rules.length < 1:
                raise StoreError("--length must be at least 1 (or use --money)")
            match_id = store.create_match(rules)
            return _report(
                args, stdout, store, match_id, [{"type": "match_created", "match": match_id}]
            )
        if c == "import":
            try:
                text = read_text(args.file)
            except (OSError, UnicodeDecodeError) as e:
                raise StoreError(f"{args.file}: cannot read ({e})") from None
            try:
                rules, actions = import_mat(text, unfinished=args.unfinished)
            except UnfinishedMatch as e:
                raise StoreError(
                    f"{args.file}: {e} (import a match still in play with --unfinished)"
                ) from None
            except MatError as e:
                raise StoreError(f"{args.file}: {e}") from None
            match_id = store.create_match(rules)
            for action in actions:
                store.apply(match_id, action)
            return _report(
                args,
                stdout,
                store,
                match_id,
                [{"type": "imported", "match": match_id, "actions": len(actions)}],
            )
        selected: int | None = args.match or store.latest_match()
        if selected is None:
            raise StoreError(f"{args.db}: no match yet (start one with: match --db {args.db} new)")
        match_id = selected
        if c == "show":
            return _report(args, stdout, store, match_id, [])
        if c == "export":
            text = export_mat(store.load(match_id))
            try:
                Path(args.mat).write_text(text, encoding="utf-8")
            except OSError as e:
                raise StoreError(f"{args.mat}: cannot write ({e})") from None
            return _report(args, stdout, store, match_id, [{"type": "exported", "file": args.mat}])
        action = _correction(args, store.load(match_id)) if c == "correction" else _action(args)
        events = store.apply(match_id, action)
        return _report(args, stdout, store, match_id, events)


def _correction(args: argparse.Namespace, match: Match) -> Action:
    """`correction`: the board (read from the seat of the side on roll) and/or the dice."""
    if args.position is None and args.dice is None:
        raise UsageError("correction: give --position, --dice or both")
    action: Action = {"type": "correction", "note": args.note[:200]}
    if args.position is not None:
        position, _ = position_arg(args.position, str(match.on_roll))
        action["position"] = position.to_json()
    if args.dice is not None:
        action["dice"] = list(parse_dice(args.dice, "--dice"))
    return action


def _report(
    args: argparse.Namespace, stdout: TextIO, store: Store, match_id: int, events: list[Action]
) -> int:
    match = store.load(match_id)
    if args.json:
        info = match_info(match)
        state = {
            **match.summary(),
            "match_id": match_id,
            "xgid": xgid(match.position, info),
            "gnubg_id": gnubg_id(match.position, info),
        }
        json.dump({"events": events, "state": state}, stdout)
        stdout.write("\n")
        return 0
    if args.match_command == "show":
        print(show_text(match, match_id), file=stdout)
        return 0
    for event in events:
        if event["type"] == "match_created":
            print(f"match {event['match']} created in {args.db}", file=stdout)
        elif event["type"] == "imported":
            print(
                f"imported {args.file} as match {event['match']} ({event['actions']} actions)",
                file=stdout,
            )
        elif event["type"] == "exported":
            print(f"wrote {event['file']}", file=stdout)
        else:
            print(_describe(event), file=stdout)
    allowed = ", ".join(match.allowed()) or "nothing (the match is over)"
    print(f"next: {match.acting or 'opening roll'} - {allowed}", file=stdout)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use: bgcompanion match ...")
