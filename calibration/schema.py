"""The calibration file (CONTRACTS.md §2): load, validate, save.

Every problem gets a one-line reason naming the key (a missing key, corners
that are not a convex quadrilateral or are listed in the wrong order, a bar
wider than the board, an unknown version). Keys this version does not know are
ignored, as the contract requires.

Every value must also be one a real board and camera can have (the bounds
below): the readers size their work by these numbers, and a board 10 km wide
or a lens with a focal length of 1e-300 px made them ask for gigabytes, hang
or fail deep inside OpenCV (issue 30). `calibrate` writes only what `load`
reads back (`Calibration.save` checks the document it writes).

The optional `appearance` block is what `calibrate` learned of this board from a frame
of the starting position (`vision.board_learn`): each side's checker colour, which of
them is white's, the checkers' size and spacing, the two point colours and the
surface's; and the spots where the dice reader saw a die on that frame away from every
checker (`dice_marks`: a hinge, a print on the surface), each as the camera showed it,
so that a frame's die there that still looks so is known for the board's own. Files
without it (or without `dice_marks`) stay valid; a block with a bad value is refused like
any other key.

The optional `view` block is the frame `calibrate` calibrated on, warped to the board seen
from above (grey PNG, base64; `calibration.board_view`): the drift check matches a later
frame's view against it. Files without it are checked by the surface's edges instead.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration.imageio import MAX_PIXELS, MAX_SIDE
from calibration.jsonin import BadJSON, loads, read_text

FORMAT = "bgcompanion-calibration"
VERSION = 1
CORNER_NAMES = ("far-left", "far-right", "near-right", "near-left")


# What real boards and cameras are: a travel set is about 250 mm wide, a large club
# board under 800 mm; heights run 0.75-0.95 of the width, bars 5-12% of it.
WIDTH_MM = (200.0, 1000.0)
HEIGHT_OF_WIDTH = (0.5, 1.2)
BAR_OF_WIDTH = 0.25
MIN_IMAGE_SIDE = 64  # pixels; the largest image is calibration.imageio's limit
MIN_BOARD_SIDE = 64  # pixels along each edge of the board in the image (2.5 px a point)
# A lens's focal length in pixels, as a multiple of the image's longer side: a fisheye
# is about 0.3, a phone's main camera 0.8, a long telephoto 5.
FOCAL_OF_SIDE = (0.1, 20.0)
FOCAL_ASPECT = (0.5, 2.0)  # fy / fx: pixels are near square
RADIAL_MAX = 100.0  # |k1..k6|: fitted wide-angle rational models reach tens
OTHER_DIST_MAX = 1.0  # |p1|, |p2|, thin prism, tilt: small by nature
RADIAL = {0, 1, 4, 5, 6, 7}  # indices of k1, k2, k3, k4, k5, k6 in OpenCV's order


# The appearance block: colours in CIE L*a*b* as OpenCV computes it from 8-bit BGR,
# rescaled to L* 0-100 and a*, b* -128..127 (`vision.board_colours.checker_colours`);
# checker sizes as shares of a point's width (`vision.board.BoardReader`).
LAB_L = (0.0, 100.0)
LAB_AB = 128.0
CHECKER_OF_POINT = (0.5, 1.0)  # a checker's diameter, and its step in a row
COLOUR_GAP_MIN = 5.0  # Lab: two checker colours closer than this are one colour
MARK_SIDE = (8, 256)  # a learned dice mark's square, px
MARK_PX_PER_MM = (0.1, 20.0)  # ... and its scale
MARKS_MAX = 64  # learned dice marks at most
MARK_MARGIN_MM = 200.0  # a mark lies on the board or within this of its edge
WHITE_IS = ("light", "dark")
# The view block: its scale (px a mm) and the margin round the surface (of its width)
VIEW_PX_PER_MM = (0.1, 4.0)
VIEW_MARGIN_OF_WIDTH = 0.5
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class CalibrationError(ValueError):
    """A calibration file or value that cannot be used; the message is one line."""


Point = tuple[float, float]


@dataclass(frozen=True)
class Camera:
    """Pinhole camera matrix and OpenCV distortion coefficients (k1, k2, p1, p2, k3, ...)."""

    matrix: tuple[
        tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]
    ]
    dist: tuple[float, ...]


Lab = tuple[float, float, float]


@dataclass(frozen=True)
class CheckerLook:
    """One side's checkers: the median colour over their middles, and that of their most
    coloured quarter (a marbled or printed top's own colour)."""

    lab: Lab
    coloured_lab: Lab


@dataclass(frozen=True)
class DiceMark:
    """A spot where the dice reader saw a die on the starting position, away from every
    checker: where (board mm) and what the camera showed round it (grey, `side` px square
    at `px_per_mm`, rows top to bottom in the board's frame)."""

    x_mm: float
    y_mm: float
    px_per_mm: float
    side: int
    grey: bytes  # side * side values

    def to_json(self) -> dict[str, Any]:
        return {
            "at_mm": [round(self.x_mm, 2), round(self.y_mm, 2)],
            "px_per_mm": self.px_per_mm,
            "side": self.side,
            "grey": base64.b64encode(self.grey).decode("ascii"),
        }


@dataclass(frozen=True)
class BoardView:
    """The frame calibrated on, warped to the board seen from above: a grey PNG at
    `px_per_mm`, the surface with `margin_mm` round it (`calibration.board_view`)."""

    png: bytes
    px_per_mm: float
    margin_mm: float

    def size(self, width_mm: float, height_mm: float) -> tuple[int, int]:
        """The view's (width, height) in pixels for a surface of these sizes."""
        return (
            round((width_mm + 2 * self.margin_mm) * self.px_per_mm),
            round((height_mm + 2 * self.margin_mm) * self.px_per_mm),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "grey_png": base64.b64encode(self.png).decode("ascii"),
            "px_per_mm": self.px_per_mm,
            "margin_mm": self.margin_mm,
        }


@dataclass(frozen=True)
class Appearance:
    """What this board looks like, learned once from the starting position."""

    white: CheckerLook
    black: CheckerLook
    points_lab: tuple[Lab, Lab]  # the triangles of white's odd points, of its even ones
    surface_lab: Lab  # the playing surface between the triangles' tips
    white_is: str = "light"  # which of the two sets is white's: "light" or "dark"
    diameter_of_point: float = 0.94  # a checker's diameter, of a point's width
    pitch_of_point: float = 0.94  # neighbours' step in a row, of a point's width
    dice_marks: tuple[DiceMark, ...] = ()  # where a die was read on the starting position

    def to_json(self) -> dict[str, Any]:
        def lab(v: Lab) -> list[float]:
            return [round(c, 2) for c in v]

        marks = {"dice_marks": [m.to_json() for m in self.dice_marks]} if self.dice_marks else {}
        return marks | {
            "white_is": self.white_is,
            "checkers": {
                side: {"lab": lab(look.lab), "coloured_lab": lab(look.coloured_lab)}
                for side, look in (("white", self.white), ("black", self.black))
            }
            | {
                "diameter_of_point": round(self.diameter_of_point, 4),
                "pitch_of_point": round(self.pitch_of_point, 4),
            },
            "points_lab": {"odd": lab(self.points_lab[0]), "even": lab(self.points_lab[1])},
            "surface_lab": lab(self.surface_lab),
        }


@dataclass(frozen=True)
class Calibration:
    """Where the playing surface is in the camera image, and its size in millimetres."""

    image_size: tuple[int, int]
    corners_px: tuple[Point, Point, Point, Point]  # far-left, far-right, near-right, near-left
    width_mm: float = 530.0
    height_mm: float = 440.0
    bar_width_mm: float = 50.0
    white_home: str = "right"
    camera: Camera | None = None
    appearance: Appearance | None = None  # learned from the starting position, if it was
    view: BoardView | None = None  # the frame calibrated on, seen from above (drift check)

    def __post_init__(self) -> None:
        validate(self)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "image_size": list(self.image_size),
            "board": {
                "corners_px": [[round(x, 3), round(y, 3)] for x, y in self.corners_px],
                "width_mm": self.width_mm,
                "height_mm": self.height_mm,
                "bar_width_mm": self.bar_width_mm,
                "white_home": self.white_home,
            },
        }
        if self.camera is not None:
            doc["camera"] = {
                "matrix": [list(row) for row in self.camera.matrix],
                "dist": list(self.camera.dist),
            }
        if self.appearance is not None:
            doc["appearance"] = self.appearance.to_json()
        if self.view is not None:
            doc["view"] = self.view.to_json()
        return doc

    def save(self, path: str | Path) -> None:
        """Writes the file, after checking that `load` reads it back (corners are rounded
        to 1/1000 px in the file: that must not change a valid board into an invalid one)."""
        doc = self.to_json()
        from_json(json.loads(json.dumps(doc)))
        Path(path).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


# --- reading -----------------------------------------------------------------


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CalibrationError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _get(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict):
        raise CalibrationError(f"{where}: expected an object")
    if key not in obj:
        raise CalibrationError(f"{where}: missing key '{key}'")
    return obj[key]


def _pair(value: Any, where: str) -> Point:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise CalibrationError(f"{where}: expected [x, y], got {value!r}")
    return _number(value[0], where), _number(value[1], where)


def _base64(text: Any, where: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (AttributeError, UnicodeEncodeError, binascii.Error):
        raise CalibrationError(f"{where}: expected base64 text") from None


def _lab(value: Any, where: str) -> Lab:
    if not isinstance(value, list) or len(value) != 3:
        raise CalibrationError(f"{where}: expected [L*, a*, b*], got {value!r}")
    a, b, c = (_number(v, where) for v in value)
    return a, b, c


def _appearance(block: Any) -> Appearance:
    """The appearance block's values, typed (their bounds: `check_appearance`)."""
    where = "appearance"
    checkers = _get(block, "checkers", where)
    looks = []
    for side in ("white", "black"):
        look = _get(checkers, side, f"{where}.checkers")
        at = f"{where}.checkers.{side}"
        looks.append(
            CheckerLook(
                _lab(_get(look, "lab", at), f"{at}.lab"),
                _lab(_get(look, "coloured_lab", at), f"{at}.coloured_lab"),
            )
        )
    points = _get(block, "points_lab", where)
    return Appearance(
        white=looks[0],
        black=looks[1],
        white_is=_get(block, "white_is", where),
        diameter_of_point=_number(
            _get(checkers, "diameter_of_point", f"{where}.checkers"),
            f"{where}.checkers.diameter_of_point",
        ),
        pitch_of_point=_number(
            _get(checkers, "pitch_of_point", f"{where}.checkers"),
            f"{where}.checkers.pitch_of_point",
        ),
        points_lab=(
            _lab(_get(points, "odd", f"{where}.points_lab"), f"{where}.points_lab.odd"),
            _lab(_get(points, "even", f"{where}.points_lab"), f"{where}.points_lab.even"),
        ),
        surface_lab=_lab(_get(block, "surface_lab", where), f"{where}.surface_lab"),
        dice_marks=_dice_marks(block.get("dice_marks"), f"{where}.dice_marks"),
    )


def _dice_marks(value: Any, where: str) -> tuple[DiceMark, ...]:
    """The learned dice marks, typed (their bounds: `check_appearance`); none if absent."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise CalibrationError(f"{where}: expected a list of marks")
    out = []
    for k, mark in enumerate(value):
        at = f"{where}[{k}]"
        x, y = _pair(_get(mark, "at_mm", at), f"{at}.at_mm")
        side = _get(mark, "side", at)
        if isinstance(side, bool) or not isinstance(side, int):
            raise CalibrationError(f"{at}.side: expected a whole number, got {side!r}")
        grey = _base64(_get(mark, "grey", at), f"{at}.grey")
        px = _number(_get(mark, "px_per_mm", at), f"{at}.px_per_mm")
        out.append(DiceMark(x, y, px, side, grey))
    return tuple(out)


def _view(block: Any) -> BoardView:
    """The view block's values, typed (their bounds: `check_view`)."""
    return BoardView(
        png=_base64(_get(block, "grey_png", "view"), "view.grey_png"),
        px_per_mm=_number(_get(block, "px_per_mm", "view"), "view.px_per_mm"),
        margin_mm=_number(_get(block, "margin_mm", "view"), "view.margin_mm"),
    )


def from_json(doc: Any) -> Calibration:
    """A Calibration from the contract's JSON document; CalibrationError says what is wrong."""
    fmt = _get(doc, "format", "calibration")
    if fmt != FORMAT:
        raise CalibrationError(f"format: expected {FORMAT!r}, got {fmt!r}")
    version = _get(doc, "version", "calibration")
    if version != VERSION:
        raise CalibrationError(
            f"version: unknown version {version!r} (this program reads {VERSION})"
        )
    size = _pair(_get(doc, "image_size", "calibration"), "image_size")
    if not all(v == int(v) and v > 0 for v in size):
        raise CalibrationError(f"image_size: expected two positive whole numbers, got {list(size)}")
    board = _get(doc, "board", "calibration")
    raw_corners = _get(board, "corners_px", "board")
    if not isinstance(raw_corners, list) or len(raw_corners) != 4:
        raise CalibrationError("board.corners_px: expected 4 corners [[x, y], ...]")
    corners = tuple(
        _pair(c, f"board.corners_px[{i}] ({CORNER_NAMES[i]})") for i, c in enumerate(raw_corners)
    )
    camera = None
    if "camera" in doc and doc["camera"] is not None:
        cam = doc["camera"]
        matrix = _get(cam, "matrix", "camera")
        if not isinstance(matrix, list) or len(matrix) != 3:
            raise CalibrationError("camera.matrix: expected 3 rows of 3 numbers")
        rows: list[tuple[float, float, float]] = []
        for r, row in enumerate(matrix):
            if not isinstance(row, list) or len(row) != 3:
                raise CalibrationError(f"camera.matrix[{r}]: expected 3 numbers")
            a, b, c = (_number(v, f"camera.matrix[{r}]") for v in row)
            rows.append((a, b, c))
        dist = _get(cam, "dist", "camera")
        if not isinstance(dist, list):
            raise CalibrationError("camera.dist: expected a list of numbers")
        camera = Camera((rows[0], rows[1], rows[2]), tuple(_number(v, "camera.dist") for v in dist))
    appearance = None
    if "appearance" in doc and doc["appearance"] is not None:
        appearance = _appearance(doc["appearance"])
    view = _view(doc["view"]) if doc.get("view") is not None else None
    return Calibration(
        image_size=(int(size[0]), int(size[1])),
        corners_px=(corners[0], corners[1], corners[2], corners[3]),
        width_mm=_number(_get(board, "width_mm", "board"), "board.width_mm"),
        height_mm=_number(_get(board, "height_mm", "board"), "board.height_mm"),
        bar_width_mm=_number(_get(board, "bar_width_mm", "board"), "board.bar_width_mm"),
        white_home=_get(board, "white_home", "board"),
        camera=camera,
        appearance=appearance,
        view=view,
    )


def load(path: str | Path) -> Calibration:
    """Reads and checks a calibration file."""
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as e:
        raise CalibrationError(f"{path}: cannot read ({e.__class__.__name__}: {e})") from None
    try:
        doc = loads(text)
    except BadJSON as e:
        raise CalibrationError(f"{path}: not JSON ({e})") from None
    try:
        return from_json(doc)
    except CalibrationError as e:
        raise CalibrationError(f"{path}: {e}") from None


# --- checking ----------------------------------------------------------------


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def check_board_size(
    width_mm: float,
    height_mm: float,
    bar_width_mm: float,
    names: tuple[str, str, str] = ("board.width_mm", "board.height_mm", "board.bar_width_mm"),
) -> None:
    """CalibrationError naming the value (by `names`) unless the sizes are a real board's."""
    w, h, bar = width_mm, height_mm, bar_width_mm
    lo, hi = WIDTH_MM
    if not (_finite(w) and lo <= w <= hi):
        raise CalibrationError(
            f"{names[0]}: {w} mm is not a backgammon board's width ({lo:.0f}-{hi:.0f} mm)"
        )
    lo, hi = HEIGHT_OF_WIDTH[0] * w, HEIGHT_OF_WIDTH[1] * w
    if not (_finite(h) and lo <= h <= hi):
        raise CalibrationError(
            f"{names[1]}: {h} mm is not a height for a board {w:g} mm wide ({lo:g}-{hi:g} mm, "
            f"{HEIGHT_OF_WIDTH[0]}-{HEIGHT_OF_WIDTH[1]} times the width)"
        )
    if not (_finite(bar) and 0 <= bar <= BAR_OF_WIDTH * w):
        raise CalibrationError(
            f"{names[2]}: {bar} mm must be at least 0 and at most a quarter of the width "
            f"({BAR_OF_WIDTH * w:g} mm)"
        )


def check_image_size(size: tuple[int, int], name: str = "image_size") -> None:
    """CalibrationError unless each side is MIN_IMAGE_SIDE..MAX_SIDE px, at most MAX_PIXELS."""
    iw, ih = size
    if not (
        MIN_IMAGE_SIDE <= iw <= MAX_SIDE
        and MIN_IMAGE_SIDE <= ih <= MAX_SIDE
        and iw * ih <= MAX_PIXELS
    ):
        raise CalibrationError(
            f"{name}: {iw}x{ih} pixels is not a camera image's size (each side "
            f"{MIN_IMAGE_SIDE}-{MAX_SIDE}, at most {MAX_PIXELS // 1_000_000} megapixels)"
        )


def check_camera(camera: Camera, image_size: tuple[int, int], name: str = "camera") -> None:
    """CalibrationError unless the lens is one a camera of `image_size` can have: finite
    numbers, focal lengths of FOCAL_OF_SIDE times the longer side, the principal point
    in the image, distortion coefficients within RADIAL_MAX / OTHER_DIST_MAX."""
    rows = camera.matrix
    if len(rows) != 3 or any(len(r) != 3 or not all(_finite(v) for v in r) for r in rows):
        raise CalibrationError(f"{name}.matrix: expected 3 rows of 3 finite numbers")
    (fx, skew, cx), (zero, fy, cy), last = rows
    if fx <= 0 or fy <= 0 or zero != 0 or tuple(last) != (0.0, 0.0, 1.0):
        raise CalibrationError(
            f"{name}.matrix: expected [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] with fx, fy > 0"
        )
    iw, ih = image_size
    lo, hi = FOCAL_OF_SIDE[0] * max(iw, ih), FOCAL_OF_SIDE[1] * max(iw, ih)
    if not (lo <= fx <= hi and lo <= fy <= hi):
        raise CalibrationError(
            f"{name}.matrix: focal lengths {fx:g}, {fy:g} px are not a lens's for a "
            f"{iw}x{ih} image ({lo:g}-{hi:g} px)"
        )
    if not FOCAL_ASPECT[0] <= fy / fx <= FOCAL_ASPECT[1] or abs(skew) > 0.1 * fx:
        raise CalibrationError(
            f"{name}.matrix: fx {fx:g} and fy {fy:g} (skew {skew:g}) describe no real camera"
        )
    if not (0 <= cx <= iw and 0 <= cy <= ih):
        raise CalibrationError(
            f"{name}.matrix: the principal point ({cx:g}, {cy:g}) is outside the {iw}x{ih} image"
        )
    dist = camera.dist
    if len(dist) not in (4, 5, 8, 12, 14):
        raise CalibrationError(
            f"{name}.dist: expected 4, 5, 8, 12 or 14 coefficients, got {len(dist)}"
        )
    for i, k in enumerate(dist):
        bound = RADIAL_MAX if i in RADIAL else OTHER_DIST_MAX
        if not (_finite(k) and abs(k) <= bound):
            raise CalibrationError(
                f"{name}.dist[{i}]: {k} is outside what a lens can have (|value| <= {bound:g})"
            )


def _check_lab(value: Lab, name: str) -> None:
    if len(value) != 3 or not all(_finite(v) for v in value):
        raise CalibrationError(f"{name}: expected [L*, a*, b*], three finite numbers")
    lo, hi = LAB_L
    if not (lo <= value[0] <= hi and all(abs(v) <= LAB_AB for v in value[1:])):
        raise CalibrationError(
            f"{name}: {list(value)} is not a colour (L* {lo:g}-{hi:g}, a* and b* within "
            f"+-{LAB_AB:g})"
        )


def check_view(view: BoardView, width_mm: float, height_mm: float) -> None:
    """CalibrationError naming the key unless the view block is a PNG of the size its scale
    and margin give the board (read from the PNG's header: the pixels are decoded where
    the drift check uses them, `calibration.board_view.recorded`)."""
    lo, hi = VIEW_PX_PER_MM
    if not (_finite(view.px_per_mm) and lo <= view.px_per_mm <= hi):
        raise CalibrationError(
            f"view.px_per_mm: {view.px_per_mm} is not a view's scale ({lo:g}-{hi:g} px a mm)"
        )
    if not (_finite(view.margin_mm) and 0 <= view.margin_mm <= VIEW_MARGIN_OF_WIDTH * width_mm):
        raise CalibrationError(
            f"view.margin_mm: {view.margin_mm} is not a margin round a board {width_mm:g} mm "
            f"wide (0-{VIEW_MARGIN_OF_WIDTH * width_mm:g})"
        )
    png = view.png
    if len(png) < 24 or png[:8] != PNG_SIGNATURE or png[12:16] != b"IHDR":
        raise CalibrationError("view.grey_png: not a PNG image")
    got = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"))
    want = view.size(width_mm, height_mm)
    if got != want:
        raise CalibrationError(
            f"view.grey_png: the image is {got[0]}x{got[1]}, the board's size, margin and "
            f"scale make it {want[0]}x{want[1]}"
        )


def check_appearance(look: Appearance, name: str = "appearance") -> None:
    """CalibrationError naming the key unless the block describes a board: Lab colours,
    checkers of a real share of a point that do not overlap in a row, two checker
    colours that differ, and `white_is` agreeing with their lightness."""
    if look.white_is not in WHITE_IS:
        raise CalibrationError(
            f"{name}.white_is: expected 'light' or 'dark', got {look.white_is!r}"
        )
    for side, checker in (("white", look.white), ("black", look.black)):
        _check_lab(checker.lab, f"{name}.checkers.{side}.lab")
        _check_lab(checker.coloured_lab, f"{name}.checkers.{side}.coloured_lab")
    _check_lab(look.points_lab[0], f"{name}.points_lab.odd")
    _check_lab(look.points_lab[1], f"{name}.points_lab.even")
    _check_lab(look.surface_lab, f"{name}.surface_lab")
    lo, hi = CHECKER_OF_POINT
    for key in ("diameter_of_point", "pitch_of_point"):
        v = getattr(look, key)
        if not (_finite(v) and lo <= v <= hi):
            raise CalibrationError(
                f"{name}.checkers.{key}: {v} is not a checker's share of a point's width "
                f"({lo:g}-{hi:g})"
            )
    if look.pitch_of_point < look.diameter_of_point - 1e-6:
        raise CalibrationError(
            f"{name}.checkers.pitch_of_point: {look.pitch_of_point} is less than the diameter "
            f"{look.diameter_of_point} (checkers in a row do not overlap)"
        )
    if math.dist(look.white.lab, look.black.lab) < COLOUR_GAP_MIN:
        raise CalibrationError(
            f"{name}.checkers: white's and black's colours are the same "
            f"(less than {COLOUR_GAP_MIN:g} apart in Lab)"
        )
    if len(look.dice_marks) > MARKS_MAX:
        raise CalibrationError(
            f"{name}.dice_marks: {len(look.dice_marks)} marks, more than {MARKS_MAX}"
        )
    for k, mark in enumerate(look.dice_marks):
        at = f"{name}.dice_marks[{k}]"
        if not MARK_SIDE[0] <= mark.side <= MARK_SIDE[1]:
            raise CalibrationError(
                f"{at}.side: {mark.side} px is not a spot's side ({MARK_SIDE[0]}-{MARK_SIDE[1]})"
            )
        if len(mark.grey) != mark.side * mark.side:
            raise CalibrationError(
                f"{at}.grey: {len(mark.grey)} values, not {mark.side} x {mark.side}"
            )
        if not (
            _finite(mark.px_per_mm) and MARK_PX_PER_MM[0] <= mark.px_per_mm <= MARK_PX_PER_MM[1]
        ):
            raise CalibrationError(
                f"{at}.px_per_mm: {mark.px_per_mm} is not a scale ({MARK_PX_PER_MM[0]:g}-"
                f"{MARK_PX_PER_MM[1]:g} px a mm)"
            )
    white_l, black_l = look.white.lab[0], look.black.lab[0]
    if (white_l < black_l) if look.white_is == "light" else (white_l > black_l):
        raise CalibrationError(
            f"{name}.white_is: {look.white_is!r}, but white's checkers (L* {white_l:g}) are "
            f"{'darker' if look.white_is == 'light' else 'lighter'} than black's "
            f"(L* {black_l:g})"
        )


def validate(cal: Calibration) -> None:
    """Raises CalibrationError with the first problem found."""
    check_board_size(cal.width_mm, cal.height_mm, cal.bar_width_mm)
    check_image_size(cal.image_size)
    if not all(_finite(v) for corner in cal.corners_px for v in corner):
        raise CalibrationError("board.corners_px: expected finite numbers")
    if cal.white_home not in ("right", "left"):
        raise CalibrationError(
            f"board.white_home: expected 'right' or 'left', got {cal.white_home!r}"
        )
    c = cal.corners_px
    turns = [_cross(c[i], c[(i + 1) % 4], c[(i + 2) % 4]) for i in range(4)]
    if any(abs(t) < 1e-6 for t in turns) or len({t > 0 for t in turns}) != 1:
        raise CalibrationError("board.corners_px: the corners do not make a convex quadrilateral")
    if turns[0] < 0:
        raise CalibrationError(
            "board.corners_px: corners listed the wrong way round; expected far-left, far-right, "
            "near-right, near-left as seen from white's seat"
        )
    short = min(math.dist(c[i], c[(i + 1) % 4]) for i in range(4))
    if short < MIN_BOARD_SIDE:
        raise CalibrationError(
            f"board.corners_px: an edge of the board is {short:.0f} px long in the image "
            f"(at least {MIN_BOARD_SIDE})"
        )
    iw, ih = cal.image_size
    margin = 0.02 * max(iw, ih)
    for name, (x, y) in zip(CORNER_NAMES, c, strict=True):
        if not (-margin <= x <= iw + margin and -margin <= y <= ih + margin):
            raise CalibrationError(
                f"board.corners_px: the {name} corner ({x:.0f}, {y:.0f}) "
                f"is outside the {iw}x{ih} image"
            )
    if cal.camera is not None:
        check_camera(cal.camera, cal.image_size)
    if cal.view is not None:
        check_view(cal.view, cal.width_mm, cal.height_mm)
    if cal.appearance is not None:
        check_appearance(cal.appearance)
        for k, mark in enumerate(cal.appearance.dice_marks):
            inside = all(
                -MARK_MARGIN_MM <= v <= size + MARK_MARGIN_MM
                for v, size in ((mark.x_mm, cal.width_mm), (mark.y_mm, cal.height_mm))
            )
            if not inside:
                raise CalibrationError(
                    f"appearance.dice_marks[{k}].at_mm: ({mark.x_mm:g}, {mark.y_mm:g}) lies "
                    f"off the board (more than {MARK_MARGIN_MM:g} mm beyond its edge)"
                )
