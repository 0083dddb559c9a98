"""`bgcompanion calibrate` and `bgcompanion calibrate-lens`."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from calibration.imageio import ImageFileError, load_image
from calibration.schema import (
    Calibration,
    CalibrationError,
    check_board_size,
    check_camera,
    load,
)

if TYPE_CHECKING:
    import numpy as np

# OpenCV, NumPy and the calibration modules built on them are imported inside the commands:
# the other commands start faster without them.


DEFAULT_SIZES = (530.0, 440.0, 50.0)  # the playing surface's width and height, the bar's (mm)
# `--check --tolerance`'s bounds (of the board's width): below 0.1% the check's own edges
# call every frame moved; beyond 10% the board has left its calibration's points altogether
TOLERANCE_RANGE = (0.001, 0.1)


def default_arguments() -> argparse.Namespace:
    """What `choose_corners` reads of the command's arguments, as a plain `calibrate` gives
    them: the default sizes, white's home read from the start, white's set the light one
    (for the benchmarks and tests, which call it without the command line)."""
    width_mm, height_mm, bar_mm = DEFAULT_SIZES
    return argparse.Namespace(
        width_mm=width_mm, height_mm=height_mm, bar_mm=bar_mm, white_home=None, white_is="light"
    )


def add_parsers(sub: Any) -> None:
    cal = sub.add_parser(
        "calibrate",
        help="write a calibration file (and an overlay to check by eye) for a camera image",
        description=(
            "Map the camera image to the board. The playing surface is found automatically "
            "(or give its corners with --corners); with the checkers in the starting position "
            "the orientation is read too (else give --white-home), and what this board's "
            "checkers, points and surface look like is learned for the checker reader (the "
            "file's appearance block). Writes the calibration file and an overlay PNG "
            "showing the outline, the bar, the 24 points numbered from white's side and the "
            "two dice sections."
        ),
    )
    source = cal.add_mutually_exclusive_group(required=True)
    source.add_argument("image", nargs="?", help="a camera image of the board")
    source.add_argument("--camera", type=int, metavar="N", help="grab a frame from camera N")
    cal.add_argument(
        "--corners",
        help="x,y,x,y,x,y,x,y: the surface's corners, instead of finding them automatically; "
        "in any order when the board shows the starting position, else far-left, far-right, "
        "near-right, near-left from white's seat",
    )
    cal.add_argument(
        "--markers",
        action="store_true",
        help="take the corners from the printed ArUco markers 0-3 laid on the frame "
        "(see calibration-markers), for boards the automatic finder cannot read",
    )
    cal.add_argument(
        "--white-home",
        choices=["right", "left"],
        help="white's home side; when given, the corners are taken in the order written "
        "(default: both read from the starting position)",
    )
    cal.add_argument(
        "--white-is",
        choices=["light", "dark"],
        default="light",
        help="which checker set is white's (default: the lighter); 'dark' for a board whose "
        "white player has the darker checkers",
    )
    cal.add_argument(
        "--width-mm",
        type=_decimal,
        default=DEFAULT_SIZES[0],
        help="playing surface width, bar included",
    )
    cal.add_argument("--height-mm", type=_decimal, default=DEFAULT_SIZES[1])
    cal.add_argument("--bar-mm", type=_decimal, default=DEFAULT_SIZES[2])
    cal.add_argument(
        "--lens", help="a lens file from calibrate-lens (corners are then undistorted)"
    )
    cal.add_argument(
        "-o",
        "--output",
        help="the calibration file to write (with --check: CAL followed to where the board "
        "now lies, by the view it recorded)",
    )
    cal.add_argument(
        "--check",
        metavar="CAL",
        help="instead: check that the camera and board have not moved since CAL was made",
    )
    cal.add_argument("--json", action="store_true", help="with --check: one JSON document")
    cal.add_argument(
        "--tolerance",
        type=_decimal,
        default=None,
        metavar="PCT",
        help="with --check: how far a corner may lie from the calibration's, in percent of "
        "the board's width, before the board counts as moved (default 1)",
    )
    cal.add_argument(
        "--overlay", help="the overlay PNG (default: next to the output, .overlay.png)"
    )
    cal.set_defaults(func=cmd_calibrate)

    lens = sub.add_parser(
        "calibrate-lens",
        help="measure the camera's lens from photos of a printed chessboard",
        description="Photograph a printed chessboard 10-20 times at varied angles, then run this.",
    )
    lens.add_argument("images", nargs="+")
    lens.add_argument(
        "--pattern", default="9x6", help="inner corners, columns x rows (default 9x6)"
    )
    lens.add_argument(
        "--square-mm", type=_decimal, default=25.0, help="the squares' side (default 25)"
    )
    lens.add_argument("-o", "--output", required=True, help="the lens file to write")
    lens.set_defaults(func=cmd_calibrate_lens)

    sheet = sub.add_parser(
        "calibration-markers",
        help="write a printable sheet of the four ArUco markers for calibrate --markers",
    )
    sheet.add_argument("-o", "--output", required=True, help="the PNG to write")
    sheet.set_defaults(func=cmd_markers)


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


def _decimal(text: str) -> float:
    """A number written in ASCII digits (float() also takes '１２', 'nan', 'inf', '1_0')."""
    if not _DECIMAL.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is too large")
    return value


def cmd_markers(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: OpenCV and NumPy stay out of the start-up of the other commands
    import cv2

    from calibration.markers import marker_sheet

    if not cv2.imwrite(args.output, marker_sheet()):
        raise CalibrationError(f"{args.output}: cannot write the sheet")
    print(
        f"wrote {args.output}: print it at 100% (A4, 300 dpi; each marker 20 mm), cut out the "
        "four markers and lay each on the frame with its dotted corner on the surface's "
        "corner: 0 far-left, 1 far-right, 2 near-right, 3 near-left from white's seat; then "
        "bgcompanion calibrate IMAGE --markers -o cal.json",
        file=stdout,
    )
    return 0


def _read_image(args: argparse.Namespace) -> np.ndarray:
    # local: OpenCV and NumPy stay out of the start-up of the other commands
    import cv2
    import numpy as np

    if args.camera is not None:
        capture = cv2.VideoCapture(args.camera)
        ok, frame = capture.read() if capture.isOpened() else (False, None)
        capture.release()
        if not ok or frame is None:
            raise CalibrationError(f"camera {args.camera}: no frame (is it connected and free?)")
        return np.asarray(frame, dtype=np.uint8)
    try:
        return load_image(args.image)
    except ImageFileError as e:
        raise CalibrationError(str(e)) from None


def _corners(
    text: str | None, image: np.ndarray, stdout: TextIO, markers: bool = False
) -> list[np.ndarray]:
    """The corners to calibrate on: given, from the markers, or found automatically. Found
    automatically, other places the points' layout fits nearly as well follow the best (the
    starting position decides, `choose_corners`)."""
    # local: OpenCV and NumPy stay out of the start-up of the other commands
    import numpy as np

    if markers:
        if text is not None:
            raise CalibrationError("give either --corners or --markers, not both")
        # local: OpenCV and NumPy stay out of the start-up of the other commands
        from calibration.markers import find_marker_corners

        return [find_marker_corners(image)]
    if text is None:
        # local: OpenCV and NumPy stay out of the start-up of the other commands
        from calibration.detect import AmbiguousBoard, BoardNotFound, find_board

        try:
            found = find_board(image)
        except AmbiguousBoard as e:
            if not e.candidates:
                raise CalibrationError(f"{e}{GIVE_CORNERS}") from None
            raise _Ambiguous(str(e), list(e.candidates)) from None
        except BoardNotFound as e:
            raise CalibrationError(f"{e}{GIVE_CORNERS}") from None
        print(
            "found the playing surface at " + _points(found.corners),
            file=stdout,
        )
        return [np.asarray(found.corners, dtype=np.float64), *found.alternatives]
    try:
        values = [_decimal(v) for v in text.replace(";", ",").split(",")]
    except argparse.ArgumentTypeError:
        raise CalibrationError(
            f"--corners {text!r}: expected 8 numbers separated by commas"
        ) from None
    if len(values) != 8:
        raise CalibrationError(f"--corners: expected 8 numbers (4 corners), got {len(values)}")
    return [np.array(values, np.float64).reshape(4, 2)]


GIVE_CORNERS = " (or give the corners yourself: --corners x,y,x,y,x,y,x,y)"


def _points(corners: Any) -> str:
    return ", ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


class _Ambiguous(Exception):
    """Found automatically, the points' layout fits several places about as well."""

    def __init__(self, message: str, candidates: list[np.ndarray]) -> None:
        super().__init__(message)
        self.candidates = candidates


def cmd_check(args: argparse.Namespace, stdout: TextIO) -> int:
    """Exit 0 while the calibration still fits the image, 1 when the camera or board moved."""
    # local: OpenCV and NumPy stay out of the start-up of the other commands
    from calibration.board_view import record
    from calibration.refine import MOVED_SHARE, measure_drift

    tolerance = MOVED_SHARE if args.tolerance is None else args.tolerance / 100
    if not TOLERANCE_RANGE[0] <= tolerance <= TOLERANCE_RANGE[1]:
        raise CalibrationError(
            f"--tolerance: expected {TOLERANCE_RANGE[0] * 100:g} to {TOLERANCE_RANGE[1] * 100:g}"
            f" (percent of the board's width), got {args.tolerance:g}"
        )
    cal = load(args.check)
    if args.output and cal.view is None:
        raise CalibrationError(
            f"{args.check} recorded no view of the board (made before 2026-12-06), so it "
            "cannot be followed to where the board now lies (-o): calibrate again"
        )
    image = _read_image(args)
    report, located = measure_drift(image, cal, tolerance)
    # followed: the view recorded anew on this frame (`record` reads only the corners)
    moved = replace(located, view=record(image, located)) if args.output and located else None
    if args.output and moved is None:
        raise CalibrationError(
            "the board's view recorded at calibration matches nowhere in this frame: "
            "nothing to follow (-o); calibrate again"
        )
    if args.json:
        print(json.dumps(report), file=stdout)
    else:
        share = float(str(report["drift_of_width"])) * 100
        verdict = (
            ("the camera or the board has moved" + ("" if moved else ": calibrate again"))
            if report["moved"]
            else "the calibration still fits"
        )
        if report.get("matched") is False:
            print(
                "the board's view recorded at calibration matches nowhere in this frame (the "
                "camera or the board moved far, or the board is covered or in the dark): "
                f"{verdict}",
                file=stdout,
            )
        else:
            how = (
                "matched against the board's view recorded at calibration"
                if report["method"] == "view"
                else "found by the surface's edges: calibrate again to record the board's view "
                "for a surer check"
            )
            print(
                f"corners moved by up to {report['max_drift_px']} px ({share:.2f}% of the "
                f"board's width; moved is more than {tolerance * 100:g}%; {how}): {verdict}",
                file=stdout,
            )
    if moved is not None:
        print(
            "followed the board: the corners where it now lies, its sizes, orientation and "
            "look as calibrated, the view recorded on this frame",
            file=sys.stderr if args.json else stdout,
        )
        _write(moved, image, args, sys.stderr if args.json else stdout)
    return 1 if report["moved"] else 0


def cmd_calibrate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: OpenCV and NumPy stay out of the start-up of the other commands
    from calibration.board_view import record
    from calibration.lens import load_lens

    if args.check:
        return cmd_check(args, stdout)
    if args.tolerance is not None:
        raise CalibrationError("--tolerance goes with --check CAL (the check for a moved board)")
    if not args.output:
        raise CalibrationError("-o/--output is required: the calibration file to write")
    # Checked before the image is read: the orientation search works at the board's size.
    check_board_size(
        args.width_mm, args.height_mm, args.bar_mm, ("--width-mm", "--height-mm", "--bar-mm")
    )
    image = _read_image(args)
    ambiguous: str | None = None
    try:
        candidates = _corners(args.corners, image, stdout, args.markers)
    except _Ambiguous as e:
        candidates, ambiguous = e.candidates, str(e)
    size = (image.shape[1], image.shape[0])
    camera = None
    if args.lens:
        camera, lens_size = load_lens(args.lens)
        if lens_size != size:
            raise CalibrationError(
                f"{args.lens}: made for {lens_size[0]}x{lens_size[1]} images, "
                f"this one is {size[0]}x{size[1]}"
            )
        candidates = [_undistorted(c, camera) for c in candidates]
    # Corners found automatically come in no particular order: even with --white-home given,
    # which of them is white's far left is read from the starting position.
    automatic = args.corners is None and not args.markers
    if automatic:
        seat = choose_corners(image, candidates, args, camera, ambiguous, stdout)
    else:
        seat = _seat(image, candidates[0], args, camera, orient_it=args.white_home is None)
    if automatic or args.white_home is None:
        if seat.confident:
            print(
                "orientation read from the starting position: white's home on the "
                f"{seat.cal.white_home}",
                file=stdout,
            )
        else:
            print(
                "could not read the orientation (set up the starting position, or give "
                "--white-home and the corners in order): used the corners as given, "
                f"white's home on the {seat.cal.white_home}",
                file=stdout,
            )
    # the frame seen from above, for `calibrate --check` and `run`'s check of a moved board
    cal = _said(seat, args.white_is, stdout)
    cal = replace(cal, view=record(image, cal))
    uneven = _uneven_edges(seat)
    unchecked = _unchecked(seat) if automatic else None
    elsewhere = _checkers_elsewhere(image, seat, camera) if automatic else None
    for line in [w for w in (unchecked, uneven, elsewhere) if w] + _ends_off(seat):
        print(line, file=stdout)
    _write(cal, image, args, stdout)
    return 0


def _write(cal: Calibration, image: np.ndarray, args: argparse.Namespace, stdout: TextIO) -> None:
    """`cal` to `-o`, and its overlay on `image` beside it (or to `--overlay`)."""
    # local: OpenCV stays out of the other commands' start-up
    import cv2

    from calibration.geometry import BoardGeometry
    from calibration.overlay import draw_overlay

    output = Path(args.output)
    overlay = Path(args.overlay) if args.overlay else output.with_suffix(".overlay.png")
    try:
        cal.save(output)
    except OSError as e:
        raise CalibrationError(f"{output}: cannot write ({e})") from None
    if not cv2.imwrite(str(overlay), draw_overlay(image, BoardGeometry(cal))):
        raise CalibrationError(f"{overlay}: cannot write the overlay")
    print(f"wrote {output} and {overlay}", file=stdout)
    print(
        "check the overlay: the green outline on the playing surface's edge, point 1 at "
        "white's right-hand corner, white's dice section shaded orange",
        file=stdout,
    )


START_REFUSAL = (
    "found a board, but the starting position does not read on it: its corners may be off. "
    "Set up the starting position and calibrate again, give the corners yourself (--corners "
    "x,y,x,y,x,y,x,y) or lay the markers (--markers)"
)


SIZES_HINT = (
    "; and if the board is not 530 x 440 mm with a 50 mm bar, give its sizes (--width-mm, "
    "--height-mm, --bar-mm)"
)


@dataclass(frozen=True)
class Seat:
    """A calibration on some corners: the orientation read (or as given) and this board's
    look learned from the starting position (None: it does not read there, `why`)."""

    cal: Calibration
    confident: bool  # the orientation was read from the starting position
    why: str  # why no look was learned ("" if one was)
    # how evenly the checkers' rows meet the two long edges, and its standard error (mm;
    # `vision.board_learn.edge_skew`): None where no look was learned or too few rows
    skew: tuple[float, float] | None = None
    # how far the checkers at the left end and at the right end lie outwards of their
    # points' middles, each with its standard error (mm; `vision.board_learn.end_shifts`)
    ends: tuple[tuple[float, float] | None, tuple[float, float] | None] = (None, None)
    placed: bool = False  # the corners are where the start's checkers put the surface


def _seat(
    image: np.ndarray, corners: np.ndarray, args: argparse.Namespace, camera: Any, orient_it: bool
) -> Seat:
    """The calibration on `corners`, its orientation read from the starting position if
    `orient_it` (else as given), and this board's look learned where that position reads."""
    # local: OpenCV, NumPy and the vision package stay out of the other commands' start-up
    from vision.board_learn import NotStartingPosition, learn_start

    quad = tuple((float(x), float(y)) for x, y in corners)
    home = args.white_home or "right"
    likeliest = None  # an orientation read but not for sure
    if orient_it:
        # local: OpenCV and NumPy stay out of the start-up of the other commands
        from calibration.orient import orient

        found = orient(
            image,
            corners,
            args.width_mm,
            args.height_mm,
            args.bar_mm,
            camera,
            white_home=args.white_home,
            white_is=args.white_is,
        )
        if found.confident:
            quad, home = found.corners, found.white_home
        else:
            likeliest = (found.corners, found.white_home)
    cal = Calibration(
        image_size=(image.shape[1], image.shape[0]),
        corners_px=quad,  # type: ignore[arg-type]
        width_mm=args.width_mm,
        height_mm=args.height_mm,
        bar_width_mm=args.bar_mm,
        white_home=home,
        camera=camera,
    )
    if likeliest is not None:
        # the thirty checkers reading as the start on the likeliest orientation confirm it
        seated = replace(cal, corners_px=likeliest[0], white_home=likeliest[1])  # type: ignore[arg-type]
        try:
            learned = learn_start(image, seated, args.white_is)
        except NotStartingPosition:
            pass
        else:
            return Seat(
                replace(seated, appearance=learned.appearance),
                True,
                "",
                learned.skew,
                learned.ends,
            )
    try:
        learned = learn_start(image, cal, args.white_is)
    except NotStartingPosition as e:
        return Seat(cal, likeliest is None and orient_it, str(e))
    return Seat(
        replace(cal, appearance=learned.appearance),
        likeliest is None and orient_it,
        "",
        learned.skew,
        learned.ends,
    )


def choose_corners(
    image: np.ndarray,
    candidates: list[np.ndarray],
    args: argparse.Namespace,
    camera: Any,
    ambiguous: str | None,
    stdout: TextIO,
) -> Seat:
    """Of the places the points' layout fits (the best first), the one to calibrate on:
    corners found automatically are checked by the starting position. On a board whose
    points or surface are the frame's colour the search can settle a few percent off, or a
    point along where the points at an end lie under checkers; then neither the orientation
    nor the checkers read as the start there. (On 100 rendered boards of the wide styles,
    2026-11-29: 13 of the 17 found more than 1% off were so, and 1 of the 80 found within
    1%.) The best is taken where the thirty checkers read as the start on it, unless they
    say an edge of it lies off (`_edge_off`) and on one other place alone they read and say
    none does: that one is taken (an open case's tray rail taken for a base line), else the
    place where the checkers themselves put the surface (`_placed_by_checkers`), if the
    start reads there with no edge off. Else, or where the layout fits several places about
    as well (`ambiguous`), the one place of them where they read as the start, if only one,
    or of several the one where their rows meet both long edges evenly and the others'
    clearly do not (`_evenest`), else where the checkers put the surface; where they read
    on none, where the checkers put it; else the best if the orientation reads on it for
    sure (and the fit was not ambiguous); else the one place where the orientation reads
    for sure, if only one. A frame not in the starting position cannot name its corners
    either: they come in no particular order."""
    first = _seat(image, candidates[0], args, camera, orient_it=True)
    best_reads = ambiguous is None and first.cal.appearance is not None
    if best_reads and not _edge_off(first):
        return first
    seats = [first, *(_seat(image, c, args, camera, orient_it=True) for c in candidates[1:])]
    # the thirty checkers reading as the start say more than the orientation read for sure
    start = [k for k, seat in enumerate(seats) if seat.cal.appearance is not None]
    if best_reads:
        # The start reads on the best, but its checkers say an edge of it lies off: the
        # one other place the start reads on where they say none does, if one alone.
        sound = [k for k in start if not _edge_off(seats[k])]
        if len(sound) == 1 and sound[0] > 0:
            print(
                f"the points fit {len(seats)} places; the starting position reads on the best, "
                "but its checkers say an edge lies off there, and on one other alone they say "
                "none does: the playing surface at " + _points(seats[sound[0]].cal.corners_px),
                file=stdout,
            )
            return seats[sound[0]]
        # else where the checkers themselves place the surface, if it is sound there
        return _placed_by_checkers(image, [first], args, camera, stdout) or first
    if not start:
        # The start reads on no place the points fit: where its checkers place the surface,
        # if it reads there and is sound.
        placed = _placed_by_checkers(image, seats, args, camera, stdout)
        if placed is not None:
            return placed
    reads = _evenest(start, seats)
    if ambiguous is None and first.confident and len(reads) != 1:
        return first  # the orientation reads on the best, the checkers on no one other place
    if not reads:
        reads = [k for k, seat in enumerate(seats) if seat.confident]
    if len(reads) == 1:
        if reads[0] > 0:
            if len(start) > 1:
                how = (
                    f"the starting position reads on {len(start)} of them, and its rows meet "
                    "both long edges evenly on one alone"
                )
            elif start:
                how = "the starting position reads on one of them alone"
            else:
                how = "the orientation reads for sure on one of them alone"
            print(
                f"the points fit {len(seats)} places about as well; {how}: the playing "
                "surface at " + _points(seats[reads[0]].cal.corners_px),
                file=stdout,
            )
        if _edge_off(seats[reads[0]]):
            # its checkers say an edge of it lies off: where they put the surface, if sound
            return (
                _placed_by_checkers(image, [seats[reads[0]]], args, camera, stdout)
                or seats[reads[0]]
            )
        return seats[reads[0]]
    if start and len(reads) > 1:
        # The start reads on several places alike: where its checkers place the surface.
        placed = _placed_by_checkers(image, [seats[k] for k in reads], args, camera, stdout)
        if placed is not None:
            return placed
    if ambiguous is not None:
        raise CalibrationError(f"{ambiguous}{GIVE_CORNERS}")
    if (args.width_mm, args.height_mm, args.bar_mm) == DEFAULT_SIZES:
        # a board of other proportions read at these may not read as the start (1 of 100
        # wide rendered boards, 2026-11-29: 492 x 392 mm, a 55 mm bar)
        raise CalibrationError(START_REFUSAL + SIZES_HINT)
    raise CalibrationError(START_REFUSAL)


def _placed_by_checkers(
    image: np.ndarray, seats: list[Seat], args: argparse.Namespace, camera: Any, stdout: TextIO
) -> Seat | None:
    """The first seat, of those round `seats`' corners, where the starting position's
    checkers place the surface (`vision.board_seat.start_surface`, snapped onto the colour
    steps nearby), the start reads and its checkers say no edge lies off; else None.

    On an open case whose trays are lined as the surface is, with points whose edges do
    not show, the places the points fit can all lie a tray or a point along (on 60
    rendered such boards, 2026-12-06, 8 were written 1.2-9.3% off on the orientation
    alone, the start reading on none of them): the thirty checkers stand at known places
    whatever the board looks like."""
    # local: OpenCV and NumPy stay out of the other commands' start-up
    from calibration.detect import snap_to_edges
    from vision.board_seat import start_surface

    for seat in seats:
        placed = start_surface(image, seat.cal)
        if placed is None:
            continue
        corners = snap_to_edges(image, placed)
        if camera is not None:
            corners = _undistorted(corners, camera)
        try:
            there = _seat(image, corners, args, camera, orient_it=True)
        except CalibrationError:  # snapped past the picture's edge
            continue
        if there.cal.appearance is None or _edge_off(there):
            continue
        print(
            "the starting position's checkers place the playing surface at "
            + _points(there.cal.corners_px)
            + ", and it reads there",
            file=stdout,
        )
        return replace(there, placed=True)
    return None


def _checkers_elsewhere(image: np.ndarray, seat: Seat, camera: Any) -> str | None:
    """A line where the starting position's checkers put the surface (as
    `_placed_by_checkers` does) more than `UNEVEN_SHARE` of the width from the seat's
    corners, found by their edges; else None (and for a seat they placed, or where the
    start does not read).

    The start reading on a place, its rows even and its ends' checkers on their points'
    middles, does not make it right: on 300 rendered open cases with soft points
    (2026-12-06) 6 were written 1.1-3.0% off so, none warned. There the checkers put the
    surface 1.3-3.0% away on four; on the boards written within 1%, 0.23% at most, and on
    test2 of `board_real_dev` (written 0.29% off) 0.82%."""
    if seat.placed or seat.cal.appearance is None:
        return None
    # local: OpenCV and NumPy stay out of the other commands' start-up
    import numpy as np

    from calibration.detect import snap_to_edges
    from calibration.geometry import BoardGeometry
    from vision.board_seat import start_surface

    placed = start_surface(image, seat.cal)
    if placed is None:
        return None
    at = snap_to_edges(image, placed)
    geo = BoardGeometry(seat.cal)
    w, h = seat.cal.width_mm, seat.cal.height_mm
    corners = geo.mm_to_px([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])  # raw pixels, as `at`
    width = float(np.linalg.norm(corners[1] - corners[0]))
    off = min(float(np.abs(np.roll(at, -k, axis=0) - corners).max()) for k in range(4)) / width
    if off <= UNEVEN_SHARE:
        return None
    cal = seat.cal
    sizes = (
        " (or the board is not 530 x 440 mm with a 50 mm bar: the checkers are placed at "
        "those sizes; give its own, --width-mm, --height-mm, --bar-mm)"
        if (cal.width_mm, cal.height_mm, cal.bar_width_mm) == DEFAULT_SIZES
        else ""
    )
    return (
        f"warning: the starting position's checkers put the playing surface {off:.1%} of its "
        "width from these corners (at " + _points(at) + "): an edge of the outline may lie "
        f"off{sizes}. Check the overlay; if it does, give --corners"
    )


def _undistorted(corners: np.ndarray, camera: Any) -> np.ndarray:
    """Raw image pixels (4 x 2) to the lens-corrected pixels a calibration's corners are."""
    # local: OpenCV and NumPy stay out of the other commands' start-up
    import cv2
    import numpy as np

    k, dist = np.array(camera.matrix), np.array(camera.dist)
    return np.asarray(cv2.undistortPoints(corners.reshape(-1, 1, 2), k, dist, P=k).reshape(4, 2))


def _evenest(reads: list[int], seats: list[Seat]) -> list[int]:
    """Of several places the starting position reads on, the one whose checkers' rows meet
    both long edges most evenly (`Seat.skew`), if every other's rows meet them less evenly
    by more than twice the standard error of the difference; else all of them. A place
    whose one long edge lies off (an open case's tray, a frame's lip: `board_real_dev`'s
    test2, where the start read on all three places the points fit) shifts that side's
    rows by as much."""
    skew = {k: (abs(s[0]), s[1]) for k in reads if (s := seats[k].skew) is not None}
    if len(reads) < 2 or len(skew) < len(reads):
        return reads
    best = min(reads, key=lambda k: skew[k][0])
    b, b_error = skew[best]
    clear = all(skew[k][0] - b > 2 * math.hypot(b_error, skew[k][1]) for k in reads if k != best)
    return [best] if clear else reads


# How unevenly the starting rows may meet the two long edges (`Seat.skew`), as a share of
# the board's width, before `calibrate` says an edge may lie off: the share its corners are
# to be found within. Players lay the rows against the frame on both sides alike, a few
# millimetres apart at most; an edge taken a centimetre off moves its side's rows so much.
UNEVEN_SHARE = 0.01


def _uneven_edges(seat: Seat) -> str | None:
    """A line saying which long edge may lie off, where the rows meet the two long edges
    more unevenly than `UNEVEN_SHARE` of the width, and by more than twice the error of
    their own scatter (an unevenness the rows' scatter does not explain); else None. The
    calibration is written anyway: the rows can lie so."""
    if seat.skew is None:
        return None
    skew, error = seat.skew
    if abs(skew) <= max(UNEVEN_SHARE * seat.cal.width_mm, 2 * error):
        return None
    side = "far (black's)" if skew > 0 else "near (white's)"
    return (
        f"warning: the starting rows begin {abs(skew):.1f} mm (+-{error:.1f}) farther from the "
        f"{side} long edge than from the other: that edge of the outline may lie off (a "
        "frame's lip or a tray taken for it). Check the overlay; if it does, give --corners"
    )


def _ends_off(seat: Seat) -> list[str]:
    """A line for each end of the outline that may lie off: where the checkers on its points
    lie off their points' middles by more than `UNEVEN_SHARE` of the width, and by more than
    twice the error of their own scatter (`Seat.ends`). Written anyway, as `_uneven_edges`."""
    lines = []
    for name, shift in zip(("left", "right"), seat.ends, strict=True):
        if shift is None or abs(shift[0]) <= max(UNEVEN_SHARE * seat.cal.width_mm, 2 * shift[1]):
            continue
        way, where = (
            ("outwards", "inside the playing surface (a rail or a frame's lip taken for its edge)")
            if shift[0] > 0
            else ("inwards", "beyond the playing surface (part of a tray or rail taken for it)")
        )
        lines.append(
            f"warning: the checkers on the points at the {name} end (as white sits) lie "
            f"{abs(shift[0]):.1f} mm (+-{shift[1]:.1f}) {way} of their points' middles: that "
            f"end of the outline may lie {where}. Check the overlay; if it does, give --corners"
        )
    return lines


def _unchecked(seat: Seat) -> str | None:
    """A line saying that corners found automatically were not checked, where the starting
    position does not read on them (taken on the orientation read for sure alone: on 60
    rendered open cases with soft points, 2026-12-06, 8 of the 8 so taken lay 1.2-9.3% off
    before the start's checkers placed the surface, `_placed_by_checkers`); else None."""
    if seat.cal.appearance is not None:
        return None
    return (
        "warning: the starting position reads on none of the places found, so these corners "
        "were not checked by it and may lie off (a tray or a point along). Check the overlay; "
        "if they do, set up the starting position or give --corners"
    )


def _edge_off(seat: Seat) -> bool:
    """Whether the start's checkers say an edge of the seat's outline may lie off
    (`_uneven_edges`, `_ends_off`)."""
    return _uneven_edges(seat) is not None or bool(_ends_off(seat))


def _said(seat: Seat, white_is: str, stdout: TextIO) -> Calibration:
    """The seat's calibration, with one line on the look learned (the appearance block) or
    why none was."""
    # local: OpenCV and NumPy stay out of the other commands' start-up
    from calibration.geometry import BoardGeometry

    cal, look = seat.cal, seat.cal.appearance
    if look is None:
        print(
            f"{seat.why}: no appearance block written (the checker reader finds this board's "
            "colours by itself; calibrate on the starting position for it to learn them)",
            file=stdout,
        )
        return cal
    print(
        f"learned this board from the starting position: white's checkers (the {white_is} "
        f"set) L*a*b* {list(look.white.lab)}, black's {list(look.black.lab)}, "
        f"{look.diameter_of_point:.2f} of a point wide",
        file=stdout,
    )
    if look.dice_marks:
        geo = BoardGeometry(cal)
        where = {"bar": "on the bar", "off": "off the surface"}
        at = ", ".join(
            f"({m.x_mm:.0f}, {m.y_mm:.0f}) mm "
            + where.get(s := geo.section_mm(m.x_mm, m.y_mm), f"in the {s} section")
            for m in look.dice_marks
        )
        print(
            f"the dice reader reads {len(look.dice_marks)} die-like mark(s) of the board itself "
            f"at {at} (a hinge, a print): a die read there that still looks so is not "
            "taken for one. If one is a die, take it off the board and calibrate again.",
            file=stdout,
        )
    return cal


def _progress(done: int, total: int, name: str, found: bool) -> None:
    width = 30
    filled = round(width * done / total)
    status = "found" if found else "no chessboard"
    print(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {Path(name).name}: {status}",
        end="\n" if done == total else "",
        file=sys.stderr,
        flush=True,
    )


def cmd_calibrate_lens(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: OpenCV and NumPy stay out of the start-up of the other commands
    from calibration.lens import calibrate_lens

    try:
        if not re.fullmatch(r"[0-9]{1,3}x[0-9]{1,3}", args.pattern.lower()):
            raise ValueError(args.pattern)
        cols, rows = (int(v) for v in args.pattern.lower().split("x"))
    except ValueError:
        raise CalibrationError(
            f"--pattern {args.pattern!r}: expected inner corners like 9x6"
        ) from None
    if not 1 <= args.square_mm <= 1000 or not (3 <= cols <= 100 and 3 <= rows <= 100):
        raise CalibrationError(
            "--square-mm 1-1000 and --pattern of 3-100 inner corners each way (e.g. 9x6)"
        )
    result = calibrate_lens(args.images, (cols, rows), args.square_mm, _progress)
    try:
        check_camera(result.camera, result.image_size)
    except CalibrationError as e:
        raise CalibrationError(
            f"the lens measured from these photos is not a real one ({e}): take more photos, "
            "the chessboard flat and wholly in view"
        ) from None
    try:
        Path(args.output).write_text(
            json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8"
        )
    except OSError as e:
        raise CalibrationError(f"{args.output}: cannot write ({e})") from None
    print(
        f"RMS reprojection error {result.rms_px:.3f} px from {len(result.used)} of "
        f"{len(args.images)} photos; wrote {args.output}",
        file=stdout,
    )
    return 0
