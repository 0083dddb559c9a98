"""Reading camera frames: motion gate -> dice and checkers -> one `vision.reading.Reading`.

`FrameReader.read(image)` is the one entry point for a frame taken in turn. A frame in
motion is not read; a still frame that looks like the last one read gives that reading
again (`vision.motion.MotionGate`), so only frames where something changed pay for a
full reading. Where the motion check runs apart from the reading (a camera's own
thread, `companion.session`), `check` and `reading` are its two halves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from calibration.schema import DiceMark
from vision.board import BoardReader, BoardReading
from vision.board_settings import BoardSettings
from vision.dice import read_dice, to_bgr
from vision.dice_settings import DiceSettings
from vision.die import DieReading
from vision.motion import MotionGate, MotionSettings
from vision.reading import MOVING, BoardSeen, Reading
from vision.spots import (
    BARE_PEERS,
    BARE_PX_PER_MM,
    BARE_SHIFT_MM,
    BARE_SIZES_MM,
    alike,
    spot,
    window,
)

Image = NDArray[np.uint8]


class FrameReader:
    """The readers of one calibrated board, and the last reading made."""

    def __init__(
        self,
        geo: BoardGeometry,
        *,
        dice: DiceSettings | None = None,
        board: BoardSettings | None = None,
        motion: MotionSettings | None = None,
    ) -> None:
        self.geo = geo
        self.dice = dice or DiceSettings()
        self.board = BoardReader(geo, board)
        self.gate = MotionGate(motion)
        self.last: Reading | None = None  # the last still frame read in full
        look = geo.cal.appearance
        self.marks = learned_marks(look.dice_marks) if look is not None else []

    def read(self, image: Image) -> Reading:
        """One frame, in turn: checked for motion, then read if it changed."""
        moving, new = self.check(image)
        return self.reading(image, moving, new)[0]

    def check(self, image: Image) -> tuple[bool, bool]:
        """(moving, new): is the frame in motion, and if still, does it need reading? Cheap."""
        return self.gate.check(image)

    def reading(self, image: Image | None, moving: bool, new: bool) -> tuple[Reading, bool]:
        """The reading of a frame `check` has seen (or of the newest frame of a still
        stretch, `new` if any frame of it was): read in full if it is still and new (or
        nothing was read yet), else the last reading. Also says whether it was read."""
        if moving:
            return MOVING, False
        if new or self.last is None:
            assert image is not None, "a still frame to read has its image"
            self.last = self.read_still(image)
            return self.last, True
        return self.last, False

    def read_still(self, image: Image) -> Reading:
        """The dice and the checkers of a still frame, read in full."""
        image = to_bgr(image)  # a grey frame: its grey in every channel, as the dice read it
        dice = self.dice_of(image)
        found = self.board_of(image, dice)
        checkers = self.board.checkers(found)
        radius = self.board.d_mm / 2
        dice = checker_marks(self.dice, image, self.geo, dice, checkers, radius)
        # On a checker: over a ring found that the reading counts only. A checker known
        # by its place alone may be the die itself (one the dice reader missed, so not
        # painted over), counted by the board's network at a row's end.
        rings = [(c[0], c[1]) for p in found.places for c in p.rings()]
        dice = over_checkers(dice, rings, self.geo, radius)
        places = tuple((p.place, float(p.confidence)) for p in found.places)
        board = BoardSeen(tuple(found.white), tuple(found.black), found.confidence, places)
        return Reading(tuple(dice), board)

    def read_board(self, image: Image) -> BoardReading:
        """The checkers of a still frame alone, read as `read_still` reads them (its dice
        read and painted out): `read-board`, `evaluate-board`."""
        image = to_bgr(image)
        return self.board_of(image, self.dice_of(image))

    def dice_of(self, image: Image) -> list[DieReading]:
        """The dice read on a (colour) frame, less the board's own marks: those learned,
        and those its mirror shows too."""
        dice = read_dice(self.dice, image, self.geo).dice
        dice = board_marks(self.dice, image, self.geo, dice, self.marks)
        return mirror_marks(self.dice, image, self.geo, dice)

    def board_of(self, image: Image, dice: Sequence[DieReading]) -> BoardReading:
        """The checkers of a (colour) frame whose dice were read: read with each die
        painted over `paint_mm` round its centre (`vision.board.paint_over`), a die being
        no checker nor part of one."""
        r = self.dice.paint_mm
        if not dice or r <= 0:
            return self.board.read(image)
        at = self.geo.px_to_mm([d.center_px for d in dice]).tolist()
        return self.board.read(image, [(x, y, r) for x, y in at])


class FrameDice:
    """How `read-dice` and `evaluate-dice` read an image's dice: with a calibration as a
    camera's frame is read (`FrameReader.read_still`: the checkers read too), the readers
    of the last `KEPT` boards kept for a batch (each holds its warp maps); without one by
    the dice reader alone (a plain photo)."""

    KEPT = 4

    def __init__(self) -> None:
        self.readers: list[tuple[BoardGeometry, DiceSettings, FrameReader]] = []

    def __call__(
        self, cfg: DiceSettings, image: Image, geo: BoardGeometry | None
    ) -> list[DieReading]:
        if geo is None:
            return read_dice(cfg, image).dice
        kept = next((k for k in self.readers if k[0] is geo and k[1] == cfg), None)
        if kept is None:
            kept = (geo, cfg, FrameReader(geo, dice=cfg))
            self.readers = [kept, *self.readers][: self.KEPT]
        return list(kept[2].read_still(image).dice)


def over_checkers(
    dice: list[DieReading], centres: list[tuple[float, float]], geo: BoardGeometry, radius: float
) -> list[DieReading]:
    """The dice, each one whose centre lies over a checker found (within `radius` mm of a
    checker's centre, board mm) marked on a checker, whatever the dice reader said: a die
    lying on the board beside a checker has its centre at least a checker's radius and
    half its own side away, one resting on a checker has it over the checker. The reader's
    own verdict (its state head) stays where no checker was found under the die (one the
    die hides). Measured 2026-11-29 with the checkers' centres the board reader found:
    every die labelled on a checker within 0.15 radius of one on the default rendered rolls
    (20 of 20), 36 of 39 on the wide rolls (the reader's verdict alone 32); no flat or
    cocked die nearer than 1.65 radii there, nor than 1.57 on the board photos."""
    if not dice or not centres:
        return dice
    at = geo.px_to_mm([d.center_px for d in dice])
    return [
        replace(d, on_checker=True)
        if not d.on_checker and any(math.dist((x, y), c) < radius for c in centres)
        else d
        for d, (x, y) in zip(dice, at.tolist(), strict=True)
    ]


def learned_marks(marks: Sequence[DiceMark]) -> list[tuple[float, float, Image]]:
    """The dice marks learned at calibration (`Appearance.dice_marks`) as spots to compare
    (`vision.spots`): each scaled to `BARE_PX_PER_MM` and cut or padded to its side."""
    side = round(BARE_SIZES_MM[-1] * BARE_PX_PER_MM)
    out = []
    for m in marks:
        grey = np.frombuffer(m.grey, np.uint8).reshape(m.side, m.side)
        if m.px_per_mm != BARE_PX_PER_MM:
            n = max(1, round(m.side * BARE_PX_PER_MM / m.px_per_mm))
            grey = np.asarray(cv2.resize(grey, (n, n), interpolation=cv2.INTER_AREA), np.uint8)
        if grey.shape[0] < side:  # a smaller spot: the rest edge-padded
            lo = (side - grey.shape[0]) // 2
            grey = np.pad(grey, (lo, side - grey.shape[0] - lo), mode="edge")
        lo = (grey.shape[0] - side) // 2
        out.append((m.x_mm, m.y_mm, np.ascontiguousarray(grey[lo : lo + side, lo : lo + side])))
    return out


def board_marks(
    cfg: DiceSettings,
    image: Image,
    geo: BoardGeometry,
    dice: list[DieReading],
    marks: list[tuple[float, float, Image]],
) -> list[DieReading]:
    """The dice, less each one read within `cfg.apart_mm` of a spot where the dice reader
    read a die on the starting position (`learned_marks`: a hinge, a print on the board)
    that still looks as it did then (`alike` at least `cfg.bare_alike`). A die thrown onto
    that spot hides it, and stands."""
    if not dice or not marks or cfg.bare_alike >= 1.0:
        return dice
    at = geo.px_to_mm([d.center_px for d in dice]).tolist()
    out = []
    for d, (x, y) in zip(dice, at, strict=True):
        near = [m for m in marks if math.dist((x, y), m[:2]) < cfg.apart_mm]
        if not any(
            alike(learnt, window(image, geo, mx, my)) >= cfg.bare_alike for mx, my, learnt in near
        ):
            out.append(d)
    return out


# A spot's mirror this near the spot itself, or another die read, shows part of that
# die: a spot and the window it is looked for in, `BARE_SHIFT_MM` wider each way, apart.
MIRROR_APART_MM = BARE_SIZES_MM[-1] + 2 * BARE_SHIFT_MM


def _mirrors(geo: BoardGeometry, x: float, y: float) -> list[tuple[float, float, int]]:
    """A board point's mirrors about the board's middle: across the line between the two
    sides, across the bar, and both (a half turn); each with the flip that maps a window
    there onto the point's own (0: upside down, 1: left to right, -1: both; cv2.flip's)."""
    w, h = geo.width_mm, geo.height_mm
    return [(x, h - y, 0), (w - x, y, 1), (w - x, h - y, -1)]


def mirror_marks(
    cfg: DiceSettings, image: Image, geo: BoardGeometry, dice: list[DieReading]
) -> list[DieReading]:
    """The dice, less each one whose spot's mirror about the board's middle looks the same,
    flipped, at every size (`vision.spots.alike` at least `cfg.mirror_alike`): a hinge on
    the bar, a print on the surface. A board is built symmetric, and a die thrown lands
    anywhere: its mirror shows the board. A mirror nearer than `MIRROR_APART_MM` to a die
    read, the die's own (near the board's middle) or another's (dice thrown mirrored), is
    not compared."""
    if not dice or cfg.mirror_alike >= 1.0:
        return dice
    at = geo.px_to_mm([d.center_px for d in dice]).tolist()
    out = []
    for d, (x, y) in zip(dice, at, strict=True):
        mirrors = [
            (mx, my, flip)
            for mx, my, flip in _mirrors(geo, x, y)
            if all(math.dist((mx, my), a) >= MIRROR_APART_MM for a in at)
        ]
        mark = spot(image, geo, x, y) if mirrors else None
        if mark is None or not any(
            alike(mark, np.ascontiguousarray(cv2.flip(window(image, geo, mx, my), flip)))
            >= cfg.mirror_alike
            for mx, my, flip in mirrors
        ):
            out.append(d)
    return out


def checker_marks(
    cfg: DiceSettings,
    image: Image,
    geo: BoardGeometry,
    dice: list[DieReading],
    checkers: list[tuple[float, float, str | None]],
    radius: float,
) -> list[DieReading]:
    """The dice, less each one that is a mark of the checkers themselves: a die whose
    centre lies over a checker (within `radius` mm of its centre) where the same spot of
    a nearby checker of that colour that no die lies over looks the same at every size
    (`vision.spots.alike` at least `cfg.bare_alike`). A highlight, a logo or a number
    printed on the checkers is there on every checker of a set, or several, at the same
    spot; a die lies on one checker and hides that spot. The checkers compared are those
    of this very frame (`BoardReader.checkers`), lit alike, so no board is learnt
    beforehand."""
    if not dice or not checkers or cfg.bare_alike >= 1.0:
        return dice
    at = geo.px_to_mm([d.center_px for d in dice]).tolist()
    bare = [c for c in checkers if all(math.dist(c[:2], a) >= radius for a in at)]
    out = []
    for d, (x, y) in zip(dice, at, strict=True):
        under = min(checkers, key=lambda c: math.dist((x, y), c[:2]))
        if math.dist((x, y), under[:2]) >= radius:  # over no checker
            out.append(d)
            continue
        peers = sorted(
            (c for c in bare if c[2] == under[2]), key=lambda c: math.dist(c[:2], under[:2])
        )[:BARE_PEERS]
        dx, dy = x - under[0], y - under[1]
        mark = spot(image, geo, x, y)
        windows = (window(image, geo, c[0] + dx, c[1] + dy) for c in peers)
        if not any(alike(mark, w) >= cfg.bare_alike for w in windows):  # the nearest first
            out.append(d)
    return out


__all__ = ["FrameDice", "FrameReader", "Reading", "board_marks", "checker_marks", "learned_marks"]
__all__ += ["mirror_marks", "over_checkers"]
