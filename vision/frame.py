"""Reading camera frames: motion gate -> dice and checkers -> one `vision.reading.Reading`.

`FrameReader.read(image)` is the one entry point for a frame taken in turn. A frame in
motion is not read; a still frame that looks like the last one read gives that reading
again (`vision.motion.MotionGate`), so only frames where something changed pay for a
full reading. Where the motion check runs apart from the reading (a camera's own
thread, `companion.session`), `check` and `reading` are its two halves.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from vision.board import BoardReader
from vision.board_settings import BoardSettings
from vision.dice import read_dice
from vision.dice_settings import DiceSettings
from vision.die import DieReading
from vision.motion import MotionGate, MotionSettings
from vision.reading import MOVING, BoardSeen, Reading

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
        dice = read_dice(self.dice, image, self.geo).dice
        found = self.board.read(image)
        centres = [(c[0], c[1]) for p in found.places for c in p.circles]
        dice = over_checkers(dice, centres, self.geo, self.board.d_mm / 2)
        places = tuple((p.place, float(p.confidence)) for p in found.places)
        board = BoardSeen(tuple(found.white), tuple(found.black), found.confidence, places)
        return Reading(tuple(dice), board)


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


__all__ = ["FrameReader", "Reading", "over_checkers"]
