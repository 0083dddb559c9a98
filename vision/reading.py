"""One reading of one camera frame: the dice, the checkers, motion, and how sure.

`vision.frame.FrameReader.read(image)` makes it; the referee is told of it frame by
frame (`companion.follow` turns it into an `Observation`). Standard library only, as
`vision.die`: the referee, its films and its tests build readings without loading the
networks or OpenCV.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.die import DieReading


@dataclass(frozen=True)
class BoardSeen:
    """The checkers read: both arrays, the board's confidence and, where the reader
    gives them, each place's ("1".."24" in white's numbering, "bar-white", "bar-black")."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    confidence: float
    places: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Reading:
    """A frame as vision saw it: in motion (not read: no dice, no board), or still with
    the dice and the checkers read."""

    dice: tuple[DieReading, ...] = ()
    board: BoardSeen | None = None
    moving: bool = False

    @property
    def confidence(self) -> float:
        """How sure the reading is as a whole: the least sure of its parts (the board and
        each die); 0 for a frame in motion or one whose board was not read."""
        if self.moving or self.board is None:
            return 0.0
        return float(min([self.board.confidence, *(d.confidence for d in self.dice)]))


MOVING = Reading(moving=True)

__all__ = ["MOVING", "BoardSeen", "Reading"]
