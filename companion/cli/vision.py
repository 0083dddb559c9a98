"""`bgcompanion read-dice`: the dice in one image, or in a batch of images (CONTRACTS.md §4)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, TextIO

from calibration.imageio import ImageFileError, load_image
from calibration.jsonin import BadJSON, loads
from calibration.schema import CalibrationError, load
from companion.cli.common import UsageError, add_settings_option, load_settings
from companion.rules import REASONS, Position, draw_board, roll_verdict

ROLLERS = ("white", "black", "opening")
CONFIG_HELP = (
    "the dice reader's settings: a TOML file of one section, [dice] (or [net]); every key "
    "and its default: [dice] in companion/settings.toml"
)


def add_parsers(sub: Any) -> None:
    rd = sub.add_parser(
        "read-dice",
        help="read the dice in a camera image and say whether the roll stands",
        description=(
            "Find every die in the image, read its top face and judge the roll: both dice flat, "
            "in the roller's right-hand section, not on a checker. With --calibration the "
            "image is read as referee reads a camera's frame: the checkers too (a die over "
            "one is on a checker; a checker's own print or highlight is no die). Without it "
            "only cocked dice, the number of dice and unreadable dice can be judged. With --batch, "
            'read JSON lines on stdin: {"image": PATH, "calibration": PATH or null, "roller": '
            '"white"|"black"|"opening"|null}, one result line each.'
        ),
    )
    rd.add_argument("image", nargs="?", help="a camera image or a photo of dice")
    rd.add_argument("--calibration", help="the board's calibration file (from calibrate)")
    rd.add_argument("--roller", choices=ROLLERS, help="who rolled ('opening': one die each)")
    rd.add_argument("--config", help=CONFIG_HELP)
    rd.add_argument("--batch", action="store_true", help="JSON lines on stdin, one result each")
    rd.add_argument("--json", action="store_true", help="one JSON document (as in CONTRACTS.md)")
    rd.set_defaults(func=cmd_read_dice)
    add_evaluate_parser(sub)
    add_evaluate_board_parser(sub)
    rb = sub.add_parser(
        "read-board",
        help="read the checkers in a camera image of a calibrated board",
        description=(
            "Count each colour's checkers on every point and on the bar (off = 15 less those "
            "on the board) and say how sure the reading is (0-1; below 0.5 means check it). "
            'With --batch, read JSON lines on stdin: {"image": PATH, "calibration": PATH}, '
            "one result line each."
        ),
    )
    rb.add_argument("image", nargs="?", help="a camera image of the board")
    rb.add_argument("--calibration", help="the board's calibration file (from calibrate)")
    rb.add_argument("--batch", action="store_true", help="JSON lines on stdin, one result each")
    rb.add_argument("--json", action="store_true", help="one JSON document (as in CONTRACTS.md)")
    add_settings_option(rb)
    rb.set_defaults(func=cmd_read_board)


class _Reader:
    """One process for a whole batch: the config and each calibration are loaded once."""

    def __init__(self, config_path: str | None) -> None:
        # local: vision (OpenCV, ONNX Runtime) kept out of the other commands' start-up
        from vision.dice_settings import load_dice_settings
        from vision.frame import FrameDice

        self.config = load_dice_settings(config_path)
        self.geometries: dict[str, Any] = {}
        # With a calibration an image is read as `referee` and `run` read a camera's frame:
        # the checkers too (a die over one on a checker, the checkers' own marks no dice).
        self.frames = FrameDice()

    def geometry(self, path: str | None) -> Any:
        if path is None:
            return None
        if path not in self.geometries:
            # local: OpenCV and NumPy stay out of the other commands' start-up
            from calibration.geometry import BoardGeometry

            self.geometries[path] = BoardGeometry(load(path))
        return self.geometries[path]

    def read(self, image_path: str, calibration: str | None, roller: str | None) -> dict[str, Any]:
        if roller is not None and roller not in ROLLERS:
            raise UsageError(f"roller: expected white, black, opening or null, got {roller!r}")
        image = _load_image(image_path)
        geo = self.geometry(calibration)
        if geo is not None:
            _same_size(image_path, image, geo)
        start = time.perf_counter()
        dice = self.frames(self.config, image, geo)
        elapsed = (time.perf_counter() - start) * 1000
        verdict = roll_verdict(dice, roller, calibrated=geo is not None)
        return {
            "dice": [d.to_json() for d in dice],
            "roll": list(verdict.roll) if verdict.roll else None,
            "valid": verdict.valid,
            "reasons": verdict.reasons,
            "elapsed_ms": round(elapsed, 2),
        }


def _same_size(image_path: str, image: Any, geo: Any) -> None:
    w, h = geo.cal.image_size
    if (image.shape[1], image.shape[0]) != (w, h):
        raise UsageError(
            f"{image_path}: image is {image.shape[1]}x{image.shape[0]} but the "
            f"calibration is for {w}x{h}"
        )


def _load_image(image_path: str) -> Any:
    """The image, checked before decoding (calibration.imageio); UsageError in one line."""
    try:
        return load_image(image_path)
    except ImageFileError as e:
        raise UsageError(str(e)) from None


class _BoardReaders:
    """One process for a whole batch: each calibration's warp maps are built once."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings  # companion.settings.Settings: its board and dice sections
        self.readers: dict[str, Any] = {}

    def read(self, image_path: str, calibration: str | None) -> dict[str, Any]:
        # local: vision (OpenCV, ONNX Runtime) kept out of the other commands' start-up
        from calibration.geometry import BoardGeometry
        from vision.frame import FrameReader

        if calibration is None:
            raise UsageError("read-board needs the board's --calibration file")
        if calibration not in self.readers:
            self.readers[calibration] = FrameReader(
                BoardGeometry(load(calibration)),
                dice=self.settings.dice,
                board=self.settings.board,
            )
        reader = self.readers[calibration]
        image = _load_image(image_path)
        _same_size(image_path, image, reader.geo)
        reading = reader.read_board(image)  # as a camera's frame: any dice painted out
        self.last = reading
        result: dict[str, Any] = reading.to_json()
        return result


def cmd_read_board(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: vision (OpenCV, ONNX Runtime) kept out of the other commands' start-up
    from vision.errors import VisionError

    readers = _BoardReaders(load_settings(args.settings))
    if args.batch:
        if args.image:
            raise UsageError("--batch reads its images from stdin; give no IMAGE")
        for line in stdin:
            if not line.strip():
                continue
            try:
                obj = loads(line)
                if not isinstance(obj, dict) or not isinstance(obj.get("image"), str):
                    raise UsageError('expected {"image": PATH, "calibration": PATH}')
                cal = obj.get("calibration")
                if cal is not None and not isinstance(cal, str):
                    raise UsageError("calibration: expected a path")
                out = readers.read(obj["image"], cal)
            except (BadJSON, UsageError, CalibrationError, VisionError) as e:
                out = {"error": str(e)}
            print(json.dumps(out), file=stdout, flush=True)
        return 0
    if not args.image:
        raise UsageError("give an IMAGE, or --batch")
    try:
        result = readers.read(args.image, args.calibration)
    except VisionError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps(result), file=stdout)
        return 0
    pos = result["position"]
    try:
        print(draw_board(Position.from_json(pos)), file=stdout)
    except ValueError:  # more than 15 of a colour seen: no position to draw
        print(f"white {pos['white']}\nblack {pos['black']}", file=stdout)
    conf = result["confidence"]
    verdict = (
        ""
        if conf >= 0.5
        else "  -- check it: least sure at "
        + ", ".join(f"{p.place} ({p.count})" for p in readers.last.least_sure(3))
    )
    print(f"confidence {conf:.2f}, {result['elapsed_ms']:.0f} ms{verdict}", file=stdout)
    return 0


def _batch_line(reader: _Reader, line: str) -> dict[str, Any]:
    # local: vision (OpenCV, ONNX Runtime) kept out of the other commands' start-up
    from vision.errors import VisionError

    try:
        obj = loads(line)
        if not isinstance(obj, dict) or not isinstance(obj.get("image"), str):
            raise UsageError('expected {"image": PATH, "calibration": PATH|null, "roller": ...}')
        cal = obj.get("calibration")
        if cal is not None and not isinstance(cal, str):
            raise UsageError("calibration: expected a path or null")
        return reader.read(obj["image"], cal, obj.get("roller"))
    except (BadJSON, UsageError, CalibrationError, VisionError) as e:
        return {"error": str(e)}


def cmd_read_dice(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: vision (OpenCV, ONNX Runtime) kept out of the other commands' start-up
    from vision.errors import VisionError

    try:
        reader = _Reader(args.config)
    except VisionError as e:
        raise UsageError(str(e)) from None
    if args.batch:
        if args.image:
            raise UsageError("--batch reads its images from stdin; give no IMAGE")
        for line in stdin:
            if line.strip():
                print(json.dumps(_batch_line(reader, line)), file=stdout, flush=True)
        return 0
    if not args.image:
        raise UsageError("give an IMAGE, or --batch")
    result = reader.read(args.image, args.calibration, args.roller)
    if args.json:
        print(json.dumps(result), file=stdout)
        return 0
    for k, die in enumerate(result["dice"], 1):
        value = die["value"] if die["value"] is not None else "unreadable"
        where = f", {die['section']}" if die["section"] else ""
        lie = "flat" if die["flat"] else "cocked"
        extra = ", on a checker" if die["on_checker"] else ""
        x, y = die["center_px"]
        print(f"die {k}: {value} at ({x:.0f}, {y:.0f}), {lie}{where}{extra}", file=stdout)
    roll = result["roll"]
    status = "stands" if result["valid"] else "reroll: " + ", ".join(result["reasons"])
    print(f"roll: {'-'.join(map(str, roll)) if roll else 'none'}; {status}", file=stdout)
    return 0


def add_evaluate_parser(sub: Any) -> None:
    ev = sub.add_parser(
        "evaluate-dice",
        help="measure the dice reader over a labelled set of images",
        description=(
            "Read every image of a labelled set (a folder with labels.jsonl, see "
            "vision/evaluate.py; calibrated images read as read-dice reads them) "
            "and write metrics.json (accuracy, reroll-call precision and recall per reason, "
            "accepted invalid rolls, false rerolls), confusion.csv, confusion.png and the "
            "config.toml that produced them."
        ),
    )
    ev.add_argument("folder", help="the labelled set")
    ev.add_argument("--config", help=CONFIG_HELP)
    ev.add_argument("-o", "--output", default="dice-evaluation", help="where to write the report")
    ev.set_defaults(func=cmd_evaluate_dice)


def cmd_evaluate_dice(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: vision (OpenCV, ONNX Runtime) kept out of the other commands' start-up
    from vision.dice_settings import load_dice_settings
    from vision.errors import VisionError
    from vision.evaluate import evaluate, write_report
    from vision.frame import FrameDice

    try:
        cfg = load_dice_settings(args.config)
        metrics = evaluate(cfg, args.folder, roll_verdict, REASONS, FrameDice())
    except (VisionError, CalibrationError) as e:
        raise UsageError(str(e)) from None
    write_report(cfg, metrics, args.output)
    summary = metrics.to_json()
    print(json.dumps({k: v for k, v in summary.items() if k != "reroll_calls"}), file=stdout)
    print(f"report written to {args.output}/", file=stdout)
    return 0


def add_evaluate_board_parser(sub: Any) -> None:
    eb = sub.add_parser(
        "evaluate-board",
        help="measure the checker reader over a folder of labelled board photos",
        description=(
            "Read every photo of a labelled folder (labels.jsonl, one object per photo: "
            "'image', 'board' (the calibration's board block) and 'position', as in "
            "shared/data/board_real_dev) and compare each point and the bar with the label: "
            "boards exact, places (24 points and the bar) right, and per photo the places "
            "read wrong (read / truth)."
        ),
    )
    eb.add_argument("folder", help="the labelled folder")
    eb.add_argument("--json", action="store_true", help="one JSON document: summary and photos")
    eb.add_argument(
        "--overlays", metavar="OUTDIR", help="write each photo read wrong there, mistakes marked"
    )
    eb.set_defaults(func=cmd_evaluate_board)


def cmd_evaluate_board(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: vision (OpenCV, ONNX Runtime) kept out of the other commands' start-up
    from vision.errors import VisionError
    from vision.evaluate import evaluate_board

    try:
        metrics = evaluate_board(args.folder, args.overlays)
    except (VisionError, CalibrationError) as e:
        raise UsageError(str(e)) from None
    summary = metrics.to_json()
    if args.json:
        print(json.dumps(summary), file=stdout)
        return 0
    for photo in metrics.photos:
        status = "exact" if photo.exact else f"{len(photo.wrong)} wrong"
        mistakes = ", ".join(f"{p} read {r} (truth {t})" for p, r, t in photo.wrong)
        print(
            f"{photo.image}: {status}, {photo.places_right}/{photo.places} places, "
            f"confidence {photo.confidence:.2f}" + (f": {mistakes}" if mistakes else ""),
            file=stdout,
        )
    n, places = len(metrics.photos), metrics.places
    print(f"boards exact: {metrics.exact}/{n}", file=stdout)
    if places:
        share = 100 * metrics.places_right / places
        print(f"places right: {metrics.places_right}/{places} = {share:.1f}%", file=stdout)
    print(
        f"wrong places flagged (confidence < 0.5): {summary['places_wrong_flagged']}/"
        f"{summary['places_wrong']}",
        file=stdout,
    )
    if args.overlays:
        print(f"overlays of the photos read wrong written to {args.overlays}/", file=stdout)
    return 0
