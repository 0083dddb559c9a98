"""Dice on a calibrated board read by two small convolutional networks.

The board is first seen from straight above (`board_frame`, `warp`): the calibration
maps each board millimetre to its camera pixel, so a die there has its real size in
pixels whatever the camera's height, tilt, turn or lens. On that view, at
`detect_px_per_mm` (a name so quoted is a `vision.dice_settings.DiceSettings` field),
the detector marks where dice lie (a heat map of a cell per 8 view pixels, with each
die's centre within its cell). Round each mark the reader looks closer (a square
`read_px` wide at `read_px_per_mm`, warped from the camera image): whether a die's
centre lies there, its value, whether it lies flat, is cocked or stands on a checker,
and how far its centre is from the square's.

Both networks were trained on scenes of `sim`'s renderer (`scripts/dicenet_data.py`
renders them, `scripts/train_dicenet.py` trains the networks and writes
`vision/models/*.onnx`), on boards and dice of more colours and sizes and under more
lights than the renderer's own rolls use. ONNX Runtime runs them, on one thread.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry, dense_maps
from vision.dice_settings import DiceSettings
from vision.errors import ImageError
from vision.networks import run_network, softmax

Image = NDArray[np.uint8]
Floats = NDArray[np.float32]
DETECT_STRIDE = 8  # view pixels per cell of the detector's heat map
STATES = ("flat", "cocked", "on_checker")
# The state reader (`DiceSettings.state_facing`): a reader of the same shape whose squares
# face the camera (`facing`), taught on dice drawn as cubes (scripts/train_dicenet.py); only
# its state odds are used.
STATE_READER = "dice_state.onnx"


@dataclass(frozen=True)
class View:
    """A top-down view of the board and a margin round it: view pixel (col, row) shows
    board mm (x0 + (col + 0.5) / scale, y0 + (row + 0.5) / scale), that view turned by
    `turn` radians about its centre (its rows' direction, +x, then points along board
    (cos turn, sin turn); 0 for the whole board's view)."""

    scale: float  # view px per board mm
    x0: float
    y0: float
    width: int
    height: int
    turn: float = 0.0

    def _centre(self) -> tuple[float, float]:
        return self.x0 + self.width / 2 / self.scale, self.y0 + self.height / 2 / self.scale

    def turned(self, x: Any, y: Any) -> tuple[Any, Any]:
        """Board mm of points given as the view not turned would show them (floats or
        arrays): turned by `turn` about the view's centre."""
        if not self.turn:
            return x, y
        (cx, cy), c, s = self._centre(), math.cos(self.turn), math.sin(self.turn)
        return cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy)

    def to_mm(self, col: float, row: float) -> tuple[float, float]:
        x, y = self.turned(self.x0 + (col + 0.5) / self.scale, self.y0 + (row + 0.5) / self.scale)
        return float(x), float(y)

    def to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        if self.turn:
            (cx, cy), c, s = self._centre(), math.cos(self.turn), math.sin(self.turn)
            dx, dy = x_mm - cx, y_mm - cy
            x_mm, y_mm = cx + c * dx + s * dy, cy - s * dx + c * dy
        return (x_mm - self.x0) * self.scale - 0.5, (y_mm - self.y0) * self.scale - 0.5


def board_frame(geo: BoardGeometry, scale: float, margin_mm: float) -> View:
    """The view of the playing surface and `margin_mm` round it at `scale` px per mm."""
    return View(
        scale,
        -margin_mm,
        -margin_mm,
        round((geo.width_mm + 2 * margin_mm) * scale),
        round((geo.height_mm + 2 * margin_mm) * scale),
    )


_MAP_STEP = 8  # view px between the points mapped exactly; those between are interpolated


def _maps(geo: BoardGeometry, view: View) -> tuple[NDArray[Any], NDArray[Any]]:
    """cv2.remap's maps (fixed point) from the view's pixels to the camera image's: mapped
    exactly every `_MAP_STEP` px and bilinearly between (a lens bends the map by far less
    than a pixel over a few millimetres)."""
    step = _MAP_STEP
    cols = np.arange(0, view.width + step, step, dtype=np.float64)
    rows = np.arange(0, view.height + step, step, dtype=np.float64)
    gx, gy = view.turned(
        *np.meshgrid(view.x0 + (cols + 0.5) / view.scale, view.y0 + (rows + 0.5) / view.scale)
    )
    px = geo.mm_to_px(np.stack([gx.ravel(), gy.ravel()], axis=1)).astype(np.float32)
    mx, my = dense_maps(px.reshape(len(rows), len(cols), 2), view.width, view.height, step)
    m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
    return m1, m2


@functools.lru_cache(maxsize=8)
def _board_maps(geo: BoardGeometry, view: View) -> tuple[NDArray[Any], NDArray[Any]]:
    return _maps(geo, view)


def _colour(image: Image) -> Image:
    """The image's three colour planes; ImageError (one line) for anything else."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] < 3:
        raise ImageError("the dice networks need a colour image")
    return image[:, :, :3]


def warp(image: Image, geo: BoardGeometry, view: View, cache: bool = True) -> Image:
    """The camera image seen as `view` (black beyond the image)."""
    m1, m2 = _board_maps(geo, view) if cache else _maps(geo, view)
    out = cv2.remap(
        _colour(image), m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
    )
    return np.asarray(out, np.uint8)


def square(image: Image, geo: BoardGeometry, view: View) -> Image:
    """The camera image seen as a small `view` (a reader's square) by one homography: its
    corners mapped exactly (`mm_to_px`), straight between. A lens's distortion barely
    bends over a square's few centimetres (`BoardGeometry.local_homography`: within 0.04
    px over 64 mm on the rendered boards), and no map is made per square. Measured
    2026-11-29: against the exact map (`warp`) the squares' pixels differ by 0.12 levels
    on average, the reader's value odds by at most 0.002, on 80 default and 80 wide
    rendered rolls."""
    w, h = view.width - 1, view.height - 1
    corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    px = geo.mm_to_px([view.to_mm(float(c), float(r)) for c, r in corners])
    to_px = cv2.getPerspectiveTransform(corners, px.astype(np.float32))
    out = cv2.warpPerspective(
        _colour(image),
        to_px,
        (view.width, view.height),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    return np.asarray(out, np.uint8)


def around(
    geo: BoardGeometry, x_mm: float, y_mm: float, scale: float, size: int, turn: float = 0.0
) -> View:
    """The view `size` px square at `scale` centred on board point (x_mm, y_mm), turned by
    `turn` radians (`facing`)."""
    half = size / 2 / scale
    return View(scale, x_mm - half, y_mm - half, size, size, turn)


# --- where the camera is ------------------------------------------------------------------
# A die seen aslant shows the side faces that face the camera, and in the board seen from
# above (the reader's squares) it is stretched away from the camera's foot (the board point
# straight below the camera). A flat die so seen shows a side towards the foot; a cocked
# die shows one wherever it leans. A reader's square round a die can therefore be turned so
# that the direction towards the foot is always down in it (+row): then a side face below
# the top face is what a flat die shows, and one anywhere else means a cocked die.
FOOT_DIE_MM = 16.0  # a die's size, to tell where its side faces show at all (`facing`)
# Whether the reader's squares are so turned: only for a reader trained on squares turned so
# (`scripts/dicenet_data.py --facing`); the shipped one was trained on squares in the
# board's axes (see scripts/train_dicenet.py, "Tried and not shipped").
READ_FACING = False


@functools.lru_cache(maxsize=8)
def camera_foot(geo: BoardGeometry) -> tuple[float, float, float]:
    """The board point straight below the camera (x, y in board mm) and the camera's height
    over the board (mm), from the calibration's homography: the camera's matrix where the
    calibration has one, else the principal point at the image's centre and the focal
    length that makes the board's two axes square to each other and equally long (one
    homography fixes it unless the camera looks straight down, where any focal length
    does: then the image's larger side is taken)."""
    h = geo.mm_to_px_h
    iw, ih = geo.cal.image_size
    if geo.k is not None:
        k = geo.k
    else:
        centred = np.array([[1, 0, -iw / 2], [0, 1, -ih / 2], [0, 0, 1]], np.float64) @ h
        (a, b, _), (c, d, _), (e, f, _) = centred
        # With K = diag(F, F, 1): r1 . r2 = 0 and |r1| = |r2| are linear in 1/F^2.
        rows = np.array([[a * b + c * d, e * f], [a * a + c * c - b * b - d * d, e * e - f * f]])
        w = float(-(rows[:, 0] @ rows[:, 1]) / max(float(rows[:, 0] @ rows[:, 0]), 1e-30))
        side = float(max(iw, ih))
        focal = 1 / math.sqrt(w) if w > 0 else side
        if not side / 10 < focal < side * 10:  # the camera about straight down
            focal = side
        k = np.array([[focal, 0, iw / 2], [0, focal, ih / 2], [0, 0, 1]], np.float64)
    m = np.linalg.inv(k) @ h
    norm = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2
    m = m / norm if m[2, 2] > 0 else -m / norm  # the board in front of the camera
    r = np.column_stack([m[:, 0], m[:, 1], np.cross(m[:, 0], m[:, 1])])
    u, _, vt = np.linalg.svd(r)
    r = u @ vt
    eye = -r.T @ m[:, 2]
    return float(eye[0]), float(eye[1]), abs(float(eye[2]))


def _read_turn(geo: BoardGeometry, x_mm: float, y_mm: float, scale: float) -> float:
    """How the reader's square round a board point is turned (`READ_FACING`)."""
    return facing(geo, x_mm, y_mm, scale) if READ_FACING else 0.0


def facing(geo: BoardGeometry, x_mm: float, y_mm: float, scale: float) -> float:
    """How far (radians) to turn the reader's square round board point (x_mm, y_mm) so
    that the camera's foot lies straight down in it (`camera_foot`). Where the camera is
    so nearly straight above the point that a die's side would show less than one pixel
    of the square (at `scale` px per mm), not at all: the board's own axes (y down)."""
    fx, fy, height = camera_foot(geo)
    dx, dy = fx - x_mm, fy - y_mm
    if math.hypot(dx, dy) / max(height, 1e-9) * FOOT_DIE_MM * scale < 1:
        return 0.0
    return math.atan2(-dx, dy)


def blob(images: list[Image]) -> Floats:
    """Views (BGR, uint8) as the networks take them: N x 3 x H x W, from -0.5 to 0.5."""
    h, w = images[0].shape[:2] if images else (0, 0)
    out = np.empty((len(images), 3, h, w), np.float32)
    for plane, image in zip(out, images, strict=True):
        for channel, values in zip(plane, cv2.split(image)[:3], strict=True):
            channel[...] = values  # plane by plane: twice as fast as cv2.dnn.blobFromImages
    out -= np.float32(127.5)
    out *= np.float32(1 / 255.0)
    return out


@dataclass
class NetDie:
    """A die as the networks see it: where (board mm), how sure that a die is there, and
    the odds of each value (1-6) and of each state (`STATES`)."""

    x_mm: float
    y_mm: float
    present: float
    values: Floats
    states: Floats


def _sigmoid(x: Floats) -> Floats:
    return np.asarray(1.0 / (1.0 + np.exp(-x)), np.float32)


def detect(
    cfg: DiceSettings, view_image: Image, view: View, floor: float | None = None
) -> list[tuple[float, float, float]]:
    """Where the detector marks dice on a board view: (x_mm, y_mm, odds), strongest first;
    marks from odds of `detect_min` (or `floor`) up."""
    out = run_network("dice_detector.onnx", blob([view_image]))[0]
    heat = _sigmoid(out[0])
    least = cfg.detect_min if floor is None else floor
    peaks = (heat >= least) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    marks = []
    for row, col in zip(*np.nonzero(peaks), strict=True):
        dx, dy = _sigmoid(out[1:3, row, col])
        x = (col + float(dx)) * DETECT_STRIDE - 0.5
        y = (row + float(dy)) * DETECT_STRIDE - 0.5
        marks.append((*view.to_mm(x, y), float(heat[row, col])))
    return sorted(marks, key=lambda m: -m[2])


def read_at(
    cfg: DiceSettings, image: Image, geo: BoardGeometry, places: list[tuple[float, float]]
) -> tuple[list[NetDie], list[Image]]:
    """What the reader sees in a square round each board point (mm), and those squares."""
    if not places:
        return [], []
    scale = cfg.read_px_per_mm
    turns = [_read_turn(geo, x, y, scale) for x, y in places]
    crops = _squares(cfg, image, geo, places, turns)
    out = run_network("dice_reader.onnx", blob(crops)).reshape(len(places), -1)
    dice = []
    for (x, y), t, o in zip(places, turns, out, strict=True):
        du, dv = o[10:12] * cfg.read_shift_px / scale  # the die's centre from the square's, mm
        c, s = math.cos(t), math.sin(t)  # the square's axes on the board
        dice.append(
            NetDie(
                x + float(c * du - s * dv),
                y + float(s * du + c * dv),
                float(_sigmoid(o[0:1])[0]),
                softmax(o[1:7]),
                softmax(o[7:10]),
            )
        )
    return dice, crops


def _squares(
    cfg: DiceSettings,
    image: Image,
    geo: BoardGeometry,
    places: list[tuple[float, float]],
    turns: list[float],
) -> list[Image]:
    """The reader's square round each board point (mm), each turned by its turn (radians)."""
    scale, size = cfg.read_px_per_mm, cfg.read_px
    return [
        square(image, geo, around(geo, x, y, scale, size, t))
        for (x, y), t in zip(places, turns, strict=True)
    ]


def _turned_values(
    cfg: DiceSettings, crops: list[Image], first: list[Floats] | None = None
) -> list[Floats]:
    """The odds of each value of the die in each square, read in the square as it is and
    turned by each of `read_turns` quarter turns (a die's value does not change as it turns;
    the reader's mistakes do): the geometric mean of the readings, normalised. `first`:
    the odds already read in each square as it is (then it is not read again). Only the
    value: whether the die lies flat is read in its square as it is, never turned (a
    square turned to face the camera, `READ_FACING`, shows a flat die's side faces below
    its top face; turned a quarter, they would show where only a cocked die's do)."""
    turns = min(4, cfg.read_turns)
    logs = np.zeros((len(crops), 6), np.float64)
    if first is not None:
        logs += np.log(np.maximum(np.stack(first).astype(np.float64), 1e-9))
    # every turn still to read, in one batch
    ks = range(0 if first is None else 1, turns)
    if crops and ks:
        out = run_network(
            "dice_reader.onnx", blob([np.rot90(c, k).copy() for k in ks for c in crops])
        )
        out = out.reshape(len(ks), len(crops), -1)
        logs += np.log(np.maximum(softmax(out[:, :, 1:7]), 1e-9)).sum(axis=0)
    means = np.exp(logs / turns - (logs / turns).max(axis=1, keepdims=True))
    return [np.asarray(m / m.sum(), np.float32) for m in means]


def find_dice(cfg: DiceSettings, image: Image, geo: BoardGeometry) -> list[NetDie]:
    """Every die on the board and its margin: marked by the detector, read where marked
    (again where its centre proved further off than `again_mm`), one per place, and only
    where the reader reads its face (`value_min`: a mark with no face read is no die).
    A weak mark (odds from `detect_weak` to `detect_min`) is a die only where the reader
    is sure of it (`weak_sure`): a white die on a light point, faintly marked."""
    view = board_frame(geo, cfg.detect_px_per_mm, cfg.margin_mm)
    marks = detect(cfg, warp(image, geo, view), view, min(cfg.detect_min, cfg.detect_weak))
    marks = marks[: cfg.marks_max]
    dice, squares = read_at(cfg, image, geo, [(x, y) for x, y, _ in marks])
    again = [
        k for k, d in enumerate(dice) if math.dist((d.x_mm, d.y_mm), marks[k][:2]) > cfg.again_mm
    ]
    dice_again, squares_again = read_at(
        cfg, image, geo, [(dice[k].x_mm, dice[k].y_mm) for k in again]
    )
    for k, d, square in zip(again, dice_again, squares_again, strict=True):
        dice[k], squares[k] = d, square
    weak = {k for k, m in enumerate(marks) if m[2] < cfg.detect_min}
    kept: list[int] = []  # of dice, the surest first
    for k in sorted(range(len(dice)), key=lambda k: -dice[k].present):
        d = dice[k]
        if k in weak and d.present < cfg.weak_sure:
            continue
        if d.present >= cfg.present_min and all(
            math.dist((d.x_mm, d.y_mm), (dice[j].x_mm, dice[j].y_mm)) > cfg.apart_mm for j in kept
        ):
            kept.append(k)
    # Each die's value read turned in the square it was read in: one whose centre lies
    # within `again_mm` of the die's (as the reader was trained: round a die's mark).
    _read_turned(cfg, [dice[k] for k in kept], [squares[k] for k in kept], read=True)
    found = [
        dice[k]
        for k in kept
        if _face_read(cfg, dice[k].values)
        and (k not in weak or float(dice[k].values.max()) >= cfg.weak_sure)
    ]
    if cfg.state_facing:
        _facing_states(cfg, image, geo, found)
    return found


def _facing_states(cfg: DiceSettings, image: Image, geo: BoardGeometry, dice: list[NetDie]) -> None:
    """Each die's state odds: the geometric mean of the reader's and the state reader's
    (`dice_state.onnx`), which reads a square round the die turned so that the camera's
    foot lies straight down in it (`facing`), as it was taught on dice drawn as cubes
    seen from the camera. Where a die's side shows tells a flat die seen aslant (towards
    the foot) from a cocked one (where it leans) only there."""
    if not dice:
        return
    places = [(d.x_mm, d.y_mm) for d in dice]
    turns = [facing(geo, x, y, cfg.read_px_per_mm) for x, y in places]
    crops = _squares(cfg, image, geo, places, turns)
    out = run_network(STATE_READER, blob(crops)).reshape(len(dice), -1)
    for d, o in zip(dice, out, strict=True):
        d.states = combined_states(d.states, softmax(o[7:10]))


def combined_states(a: Floats, b: Floats) -> Floats:
    """Two readers' odds of each state as one: their geometric mean, normalised."""
    mean = np.sqrt(np.maximum(a, 1e-9) * np.maximum(b, 1e-9))
    return np.asarray(mean / mean.sum(), np.float32)


def _face_read(cfg: DiceSettings, values: Floats) -> bool:
    """Whether the reader read a die's face in a mark (its value's odds at least
    `value_min`): a mark without one is no die, on a board or a plain photo."""
    return float(values.max()) >= cfg.value_min


def _read_turned(cfg: DiceSettings, dice: list[Any], squares: list[Image], read: bool) -> None:
    """Each die's value read in its square turned (`read_turns`, `_turned_values`); `read`:
    the die's odds were read in that very square as it is. Only the value: a die's
    presence read so too (the mean of the turns' logits) was tried on 2026-11-28 and not
    kept: fewer phantom dice on plain photos (webcam 10, 17 so), but dices6's two black 6s
    dropped (the board photos 10 of 14 right, 12 so)."""
    if cfg.read_turns > 1 and dice:
        # On a board a die already read sure keeps that reading (`turns_below`).
        unsure = [k for k, d in enumerate(dice) if not read or d.values.max() < cfg.turns_below]
        if not unsure:
            return
        turned = _turned_values(
            cfg, [squares[k] for k in unsure], [dice[k].values for k in unsure] if read else None
        )
        for k, values in zip(unsure, turned, strict=True):
            dice[k].values = values


# --- plain photos -----------------------------------------------------------------------
# Without a calibration a die's size in the picture is not known: the photo is searched at
# a ladder of scales, each making dice of one size as large as the detector was trained on
# a board seen at `detect_px_per_mm` (`plain_die_px`). The reader reads each
# mark at twice that scale, as on a board. Marks of one die at neighbouring scales are one.
# The squares are not turned (`facing` needs a calibration): the photo's own down, where a
# camera looking forward and down has its foot, as the reader's squares on a board have it.


PLAIN_SIDE_MIN = 24  # px: a photo scaled smaller than this on a side is not searched


@dataclass
class PlainDie:
    """A die found on a plain photo: centre (photo px), side (photo px, as the scale it was
    found at says), the reader's odds as on a board (`NetDie`)."""

    x_px: float
    y_px: float
    side_px: float
    present: float
    values: Floats
    states: Floats


def plain_scales(cfg: DiceSettings, width: int, height: int) -> list[float]:
    """The photo's scales to search, largest first: the smallest die searched is
    `plain_side_min_px` across, unless the photo at that scale would have more than
    `plain_pixels_max` pixels; the largest fills `1 / plain_fill_max` of the
    photo's shorter side. Each scale is `plain_step` times the next."""
    die = cfg.plain_die_px
    top = min(die / cfg.plain_side_min_px, math.sqrt(cfg.plain_pixels_max / (width * height)))
    low = die * cfg.plain_fill_max / min(width, height)
    scales: list[float] = []
    s = top
    while s >= low * 0.999 or not scales:
        scales.append(s)
        s /= cfg.plain_step
    return scales


class _Pyramid:
    """A photo at the scales asked for, each resized from the smallest one already made
    that is at least as large (resizing a 12-megapixel photo again for each would cost
    most of the time)."""

    def __init__(self, image: Image) -> None:
        self.levels: list[tuple[float, Image]] = [(1.0, np.asarray(image[:, :, :3], np.uint8))]

    def _source(self, scale: float) -> tuple[float, Image]:
        """The smallest level made that is at least `scale` (else the photo)."""
        larger = [lv for lv in self.levels if lv[0] >= scale]
        return min(larger, key=lambda lv: lv[0]) if larger else self.levels[0]

    def at(self, scale: float) -> tuple[Image, float, float]:
        """The photo resized by about `scale` (kept for the smaller scales to come), and
        the exact scales it got (x, y)."""
        h, w = self.levels[0][1].shape[:2]
        sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
        source = self._source(scale)[1]
        how = cv2.INTER_AREA if sw < source.shape[1] else cv2.INTER_LINEAR
        out = np.asarray(cv2.resize(source, (sw, sh), interpolation=how), np.uint8)
        if scale < 1:
            self.levels.append((scale, out))
        return out, sw / w, sh / h

    def square(self, x: float, y: float, scale: float, size: int) -> Image:
        """A `size` px square of the photo at `scale`, centred on photo pixel (x, y): cut
        from the nearest larger level round that point only, and resized there."""
        level, source = self._source(scale)
        k = scale / level  # from the level's pixels to the square's (above 1: enlarged)
        reach = size / k / 2 + 2  # the level's pixels round the centre that the square shows
        cx, cy = (x + 0.5) * level - 0.5, (y + 0.5) * level - 0.5
        x0, y0 = max(0, math.floor(cx - reach)), max(0, math.floor(cy - reach))
        x1 = min(source.shape[1], math.ceil(cx + reach) + 1)
        y1 = min(source.shape[0], math.ceil(cy + reach) + 1)
        if x1 <= x0 or y1 <= y0:
            return np.zeros((size, size, 3), np.uint8)
        part = source[y0:y1, x0:x1]
        pw, ph = max(1, round(part.shape[1] * k)), max(1, round(part.shape[0] * k))
        how = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
        part = np.asarray(cv2.resize(part, (pw, ph), interpolation=how), np.uint8)
        kx, ky = pw / (x1 - x0), ph / (y1 - y0)
        centre = ((cx - x0 + 0.5) * kx - 0.5, (cy - y0 + 0.5) * ky - 0.5)
        return np.asarray(cv2.getRectSubPix(part, (size, size), centre), np.uint8)


Mark = tuple[float, float, float, float]  # photo x, y (px), the scale marked at, odds


def _places_marks(cfg: DiceSettings, marks: list[Mark]) -> list[Mark]:
    """The marks of the `plain_places_max` places marked most strongly, each place's marks
    at every scale (strongest first): a mark is of the place of the strongest mark within
    `plain_apart` of the larger die's side (as each mark's scale makes it). A die is
    marked at two or three neighbouring scales, and the scale marked most strongly is not
    always the one the reader reads it best at, so each is read; capping marks instead
    of places left dice unread on photos of 20 dice or more. (Measured 2026-11-28: the
    phone photos 86.3% right with 40 marks, 95.6% so; only each place's strongest mark
    read, 85.4%; its two or three strongest, the webcam photos 86.6% and 87.0%, 87.6% so.)
    """
    die = cfg.plain_die_px
    places: list[list[Mark]] = []
    for m in sorted(marks, key=lambda m: -m[3]):
        for place in places:
            first = place[0]
            if math.dist(m[:2], first[:2]) <= cfg.plain_apart * die / min(m[2], first[2]):
                place.append(m)
                break
        else:
            places.append([m])
    return [m for place in places[: cfg.plain_places_max] for m in place]


def find_dice_plain(cfg: DiceSettings, image: Image) -> list[PlainDie]:
    """Every die on a plain colour photo (no calibration): marked by the detector at each of
    `plain_scales`, read where marked (the reader's square cut from the photo at twice that
    scale, as a board square at `read_px_per_mm` is to the detector's view), each reading
    kept only where the reader reads its face (`value_min`), as on a board, then one per
    place (the surest where two lie closer than `plain_apart` of the larger's side), and
    of about the surest such die's size (within `plain_sizes_apart` times)."""
    image = _colour(image)
    h, w = image.shape[:2]
    ratio = cfg.read_px_per_mm / cfg.detect_px_per_mm
    size = cfg.read_px
    pyramid = _Pyramid(image)
    marks: list[Mark] = []
    for s in plain_scales(cfg, w, h):
        if min(w, h) * s < PLAIN_SIDE_MIN:
            continue
        small, kx, ky = pyramid.at(s)
        view = View(1.0, 0.0, 0.0, small.shape[1], small.shape[0])
        for u, v, odds in detect(cfg, small, view):  # u, v: the scaled photo's pixel edges
            marks.append((u / kx - 0.5, v / ky - 0.5, s, odds))
    marks = _places_marks(cfg, marks)
    if not marks:
        return []
    crops = [pyramid.square(x, y, s * ratio, size) for x, y, s, _ in marks]
    out = run_network("dice_reader.onnx", blob(crops)).reshape(len(crops), -1)
    dice = []
    for (x, y, s, _), o in zip(marks, out, strict=True):
        k = s * ratio
        shift = o[10:12] * cfg.read_shift_px / k  # the die's centre from the square's, px
        dice.append(
            PlainDie(
                x + float(shift[0]),
                y + float(shift[1]),
                cfg.plain_die_px * ratio / k,
                float(_sigmoid(o[0:1])[0]),
                softmax(o[1:7]),
                softmax(o[7:10]),
            )
        )
    present = [d for d in dice if d.present >= cfg.present_min]

    def turn(wave: list[PlainDie]) -> None:
        # Each reading's value read turned in a square round the die's centre as read: its
        # mark's may lie further off (no die is read again nearer, as on a board).
        squares = [
            pyramid.square(d.x_px, d.y_px, cfg.plain_die_px * ratio / d.side_px, size) for d in wave
        ]
        _read_turned(cfg, wave, squares, read=False)

    return _kept(cfg, present, turn if cfg.read_turns > 1 else None)


def _kept(
    cfg: DiceSettings,
    dice: list[PlainDie],
    turn: Callable[[list[PlainDie]], None] | None = None,
) -> list[PlainDie]:
    """The dice of a plain photo's readings: those with a face read (`value_min`), one a
    place (`_one_a_place`), of about one size (`_sized`). `turn`: reads the values of the
    readings it is given turned (`_read_turned`) before their faces are judged."""
    return _sized(cfg, _one_a_place(cfg, dice, turn))


def _one_a_place(
    cfg: DiceSettings,
    dice: list[PlainDie],
    turn: Callable[[list[PlainDie]], None] | None = None,
) -> list[PlainDie]:
    """One die a place, the surest first: a reading with a face read (`value_min`, after
    `turn`) is kept unless a surer one kept lies closer than `plain_apart` of the larger's
    side. A die is read at two or three neighbouring scales and the one it is surest of is
    not always one whose face the reader reads, so the face rule judges each reading before
    the places are (2026-11-29: webcam photos 91.2% right, 88.0% with the places judged
    first; 67 dice missed, not 116; 39 read wrong, not 28; phone photos 96.2% and 95.6%;
    tiled 91.6% and 90.1%).

    The readings are judged in waves, each turned in one batch: a wave is the readings no
    surer undecided one lies near, and a reading near a die kept is dropped unturned. The
    dice kept are those judging every reading would keep, with about a third of the turned
    reads (a phone photo of 20 dice is read some 80-100 times over its scales; 2026-12-02:
    the phone photos 1,010 -> 680 ms median, every figure of benchmarks/real.py the same)."""
    order = sorted(dice, key=lambda d: -d.present)
    rank = {id(d): k for k, d in enumerate(order)}

    def near(d: PlainDie, e: PlainDie) -> bool:
        reach = cfg.plain_apart * max(d.side_px, e.side_px)
        return math.dist((d.x_px, d.y_px), (e.x_px, e.y_px)) <= reach

    kept: list[PlainDie] = []
    undecided = order
    while undecided:
        undecided = [d for d in undecided if not any(near(d, e) for e in kept)]
        wave = [d for k, d in enumerate(undecided) if not any(near(d, e) for e in undecided[:k])]
        if turn is not None and wave:
            turn(wave)
        kept += [d for d in wave if _face_read(cfg, d.values)]
        judged = {id(d) for d in wave}
        undecided = [d for d in undecided if id(d) not in judged]
    return sorted(kept, key=lambda d: rank[id(d)])


def _sized(cfg: DiceSettings, dice: list[PlainDie]) -> list[PlainDie]:
    """Of a plain photo's dice with a face read (the surest first), those of about the
    surest's size (within `plain_sizes_apart` times). Only dice with a face read are
    given: a faceless mark could otherwise set the size (2026-11-28: webcam photos 88.0%
    right against 87.6%, 5 phantom dice against 3, the other sets the same)."""
    if not dice:
        return []
    side = dice[0].side_px  # the surest die's
    apart = cfg.plain_sizes_apart
    return [d for d in dice if side / apart <= d.side_px <= side * apart]
