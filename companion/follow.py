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
from vision.config import Config, load_config
from vision.dice import DieReading, read_dice
from vision.motion import MotionGate

Image = NDArray[np.uint8]


@dataclass
class Stats:
    frames: int = 0
    read: int = 0  # frames that were read in full
    moving: int = 0


class Follower:
    def __init__(self, geo: BoardGeometry, referee: Referee, config: Config | None = None) -> None:
        self.geo = geo
        self.referee = referee
        self.config = config or load_config()
        self.board = BoardReader(geo)
        self.gate = MotionGate()
        self.last: tuple[list[DieReading], BoardSeen] | None = None
        self.stats = Stats()

    def read(self, image: Image) -> tuple[list[DieReading], BoardSeen]:
        dice = read_dice(self.config, image, self.geo, None).dice
        reading = self.board.read(image)
        return dice, BoardSeen(tuple(reading.white), tuple(reading.black), reading.confidence)

    def observe(self, image: Image, index: int, t: float) -> Observation:
        """What the referee is told of this frame (read in full only when it changed)."""
        self.stats.frames += 1
        moving, new = self.gate.check(image)
        if moving:
            self.stats.moving += 1
            return Observation(index, t, moving=True)
        if new or self.last is None:
            self.stats.read += 1
            self.last = self.read(image)
        dice, board = self.last
        return Observation(index, t, False, dice, board)

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
