"""Following a game from frames: motion gate -> dice and checker readings -> referee.

`Follower.frame(image, index, t)` takes one camera frame and returns the referee's
events for it. A frame in motion is not read; a still frame that looks like the last
one read reuses its readings (`vision.motion.MotionGate`), so only frames where
something changed pay for a full reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from companion.referee import BoardSeen, Event, Observation, Referee
from vision.board import BoardReader
from vision.board_settings import BoardSettings
from vision.config import Config, load_config
from vision.dice import read_dice
from vision.die import DieReading
from vision.motion import MotionGate, MotionSettings

Image = NDArray[np.uint8]


@dataclass
class Glimpse:
    """A camera frame as the motion check saw it (the image dropped when not needed)."""

    index: int
    t: float
    moving: bool
    new: bool
    image: Image | None


@dataclass
class Stats:
    frames: int = 0
    read: int = 0  # frames that were read in full
    moving: int = 0


class Follower:
    def __init__(
        self,
        geo: BoardGeometry,
        referee: Referee,
        config: Config | None = None,
        *,
        board: BoardSettings | None = None,
        motion: MotionSettings | None = None,
    ) -> None:
        self.geo = geo
        self.referee = referee
        self.config = config or load_config()
        self.board = BoardReader(geo, board)
        self.gate = MotionGate(motion)
        self.last: tuple[list[DieReading], BoardSeen] | None = None
        self.stats = Stats()

    def read(self, image: Image) -> tuple[list[DieReading], BoardSeen]:
        dice = read_dice(self.config, image, self.geo).dice
        reading = self.board.read(image)
        places = tuple((p.place, float(p.confidence)) for p in reading.places)
        board = BoardSeen(tuple(reading.white), tuple(reading.black), reading.confidence, places)
        return dice, board

    def observe(self, image: Image, index: int, t: float) -> Observation:
        """What the referee is told of this frame (read in full only when it changed)."""
        moving, new = self.gate.check(image)
        observations, _ = self.observe_stretch([Glimpse(index, t, moving, new, image)])
        return observations[0]

    def observe_stretch(self, stretch: list[Glimpse]) -> tuple[list[Observation], bool]:
        """What the referee is told of frames in a row that are all in motion or all still
        (checked by `gate` as they came): a still stretch is read once, from its newest
        image, if anything in it changed. Also says whether that reading was made."""
        last = stretch[-1]
        fresh = not last.moving and (any(g.new for g in stretch) or self.last is None)
        if fresh:
            image = next(g.image for g in reversed(stretch) if g.image is not None)
            self.stats.read += 1
            self.last = self.read(image)
        self.stats.frames += len(stretch)
        if last.moving:
            self.stats.moving += len(stretch)
            return [Observation(g.index, g.t, moving=True) for g in stretch], False
        assert self.last is not None
        dice, board = self.last
        return [Observation(g.index, g.t, False, dice, board) for g in stretch], fresh

    def frame(self, image: Image, index: int, t: float) -> list[Event]:
        return self.referee.feed(self.observe(image, index, t))


def video_frames(source: str | int) -> Iterator[tuple[int, float, Image]]:
    """(index, seconds, image) of each frame of a video file or camera."""
    cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        what = f"camera {source}" if isinstance(source, int) else str(source)
        raise OSError(f"{what}: cannot open it as a video")
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    index = 0
    try:
        while True:
            ok, image = cap.read()
            if not ok:
                return
            yield index, index / fps, np.asarray(image, dtype=np.uint8)
            index += 1
    finally:
        cap.release()


def follow(
    frames: Iterator[tuple[int, float, Image]],
    follower: Follower,
    on_event: Callable[[Event], None],
) -> Stats:
    for index, t, image in frames:
        for event in follower.frame(image, index, t):
            on_event(event)
    return follower.stats
