"""`bgcompanion referee VIDEO|--camera N --calibration FILE`: follow a game from the camera.

Prints one line per event (JSON lines with --json, CONTRACTS.md §4), stores each event
in a match file with --db as it happens, and writes the match as .mat with --mat.
`bgcompanion film-game` renders a test video of a whole game with its true events.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path
from typing import Any, TextIO

from calibration.schema import load
from companion.cli.common import UsageError, add_settings_option, load_settings, whole_number
from companion.referee import Event, Referee
from companion.rules.mat import export_mat
from companion.rules.match import Match, MatchRules
from companion.store import Store


def add_parsers(sub: Any) -> None:
    r = sub.add_parser(
        "referee",
        help="follow a game from a video or a camera: rolls, rerolls, plays, illegal plays",
        description=(
            "Read the dice and checkers of every still frame of a calibrated board, decide the "
            "game's events (opening_roll, roll, reroll, dice_picked_up, play, illegal_play, "
            "needs_fix, game_over, match_over) and print them as they happen."
        ),
    )
    r.add_argument("video", nargs="?", help="a video file of the board")
    r.add_argument("--camera", type=whole_number, help="read camera N live instead of a file")
    r.add_argument("--calibration", required=True, help="the board's calibration file")
    r.add_argument("--match-length", type=whole_number, default=0, help="points (default 0: money)")
    r.add_argument("--db", help="store every event in this match file as it happens")
    r.add_argument("--mat", help="write the match in .mat format here at the end")
    r.add_argument("--json", action="store_true", help="JSON lines, one per event")
    add_settings_option(r)
    r.set_defaults(func=cmd_referee)

    f = sub.add_parser(
        "film-game",
        help="render a test video of a whole random game, with its calibration and true events",
    )
    f.add_argument("folder", help="where to write game.avi, game.cal.json, truth.jsonl")
    f.add_argument("--seed", type=whole_number, default=1)
    f.add_argument("--size", default="1920x1080", help="image size (default 1920x1080)")
    f.add_argument("--illegal-at", type=whole_number, help="make this turn's play illegal")
    f.add_argument(
        "--max-turns", type=whole_number, default=400, help="stop the game after N turns"
    )
    f.add_argument(
        "--spare-die",
        action="store_true",
        help="a spare die lies on the frame beside the board all game (no die of any throw)",
    )
    f.add_argument(
        "--hide-die",
        type=whole_number,
        action="append",
        default=[],
        metavar="TURN",
        help="in this turn (1: the opening) one die of the throw is not in the picture, as a "
        "die the camera misses where it lies (repeat for more turns)",
    )
    f.set_defaults(func=cmd_film_game)


def cmd_referee(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: the readers (OpenCV, ONNX Runtime) stay out of the other commands' start-up
    from calibration.geometry import BoardGeometry
    from companion.follow import Follower, follow, video_frames
    from vision.frame import FrameReader

    if (args.video is None) == (args.camera is None):
        raise UsageError("give a VIDEO file or --camera N (one of them)")
    if args.video is not None and not Path(args.video).is_file():
        raise UsageError(f"{args.video}: no such video file")
    settings = load_settings(args.settings)
    geo = BoardGeometry(load(args.calibration))
    rules = MatchRules(length=args.match_length)
    store = Store(args.db) if args.db else None
    options = settings.referee_options()
    if store is not None:
        match_id = store.create_match(rules)
        referee = Referee(
            lambda: store.load(match_id), lambda a: store.apply(match_id, a), **options
        )
    else:
        match = Match(rules)
        referee = Referee.for_match(match, **options)
    follower = Follower(
        FrameReader(geo, dice=settings.dice, board=settings.board, motion=settings.motion)
    )

    def show(event: Event) -> None:
        if args.json:
            print(json.dumps(event), file=stdout, flush=True)
            return
        rest = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("frame", "t", "type"))
        print(f"{event['t']:8.2f}s  {event['type']:<15} {rest}", file=stdout, flush=True)

    source: str | int = args.camera if args.camera is not None else args.video
    start = time.perf_counter()
    try:
        frames = video_frames(source)
        stats = follow(frames, follower, referee, show)
    except OSError as e:
        raise UsageError(str(e)) from None
    finally:
        final = referee.match()
        if store is not None:
            store.close()
    if args.mat:
        Path(args.mat).write_text(export_mat(final))
    if not args.json:
        wall = time.perf_counter() - start
        print(
            f"{stats.frames} frames in {wall:.1f} s ({stats.frames / max(wall, 1e-9):.0f} fps), "
            f"{stats.read} read in full, {stats.moving} in motion",
            file=stdout,
        )
    return 0


def cmd_film_game(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: the renderer (OpenCV, NumPy) stays out of the other commands' start-up
    from sim import film_game, render, save_truth, write_video

    size = re.fullmatch(r"([0-9]{1,5})x([0-9]{1,5})", args.size.lower())
    if not size:
        raise UsageError(f"--size {args.size[:40]!r}: expected WIDTHxHEIGHT, e.g. 1920x1080")
    w, h = int(size[1]), int(size[2])
    if not (320 <= w <= 3840 and 240 <= h <= 2160):
        raise UsageError(f"--size {w}x{h}: from 320x240 to 3840x2160 (4K)")
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    film = film_game(
        args.seed,
        (w, h),
        illegal_at=args.illegal_at,
        max_turns=args.max_turns,
        spare=args.spare_die,
        hidden=args.hide_die,
    )
    frames = write_video(film, folder / "game.avi")
    assert film.base is not None
    cal = render(film.base).calibration
    assert cal is not None
    cal.save(folder / "game.cal.json")
    save_truth(film, folder / "truth.jsonl")
    print(
        f"{folder / 'game.avi'}: {frames} frames, {len(film.truth)} events in truth.jsonl",
        file=stdout,
    )
    return 0
