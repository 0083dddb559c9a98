"""Following a game from frames: vision's readings -> the referee's observations.

`Follower.observe(image, index, t)` turns one camera frame into what the referee is told
of it; the reading itself is vision's (`vision.frame.FrameReader`: a frame in motion is
not read, a still frame that looks like the last one read reuses its reading).
`observe_stretch` does the same for frames that arrived together, reading a still
stretch once. The follower owns no referee: whoever runs the table feeds it
(`follow` here for the command line, `companion.session.Session` for the live table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.referee import Event, Observation, Referee
from vision.frame import FrameReader

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
    def __init__(self, reader: FrameReader) -> None:
        self.reader = reader
        self.stats = Stats()

    def observe(self, image: Image, index: int, t: float) -> Observation:
        """What the referee is told of this frame (read in full only when it changed)."""
        moving, new = self.reader.check(image)
        observations, _ = self.observe_stretch([Glimpse(index, t, moving, new, image)])
        return observations[0]

    def observe_stretch(self, stretch: list[Glimpse]) -> tuple[list[Observation], bool]:
        """What the referee is told of frames in a row that are all in motion or all still
        (checked by the reader's motion gate as they came): a still stretch is read once,
        from its newest image, if anything in it changed. Also says whether that reading
        was made."""
        last = stretch[-1]
        image = next((g.image for g in reversed(stretch) if g.image is not None), None)
        reading, fresh = self.reader.reading(image, last.moving, any(g.new for g in stretch))
        if fresh:
            self.stats.read += 1
        self.stats.frames += len(stretch)
        if last.moving:
            self.stats.moving += len(stretch)
        return [Observation(g.index, g.t, reading) for g in stretch], fresh


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
    referee: Referee,
    on_event: Callable[[Event], None],
) -> Stats:
    """Every frame in turn: observed, then decided by `referee`; each event told."""
    for index, t, image in frames:
        for event in referee.feed(follower.observe(image, index, t)):
            on_event(event)
    return follower.stats
