"""The embedded demo: a recorded match played to the companion as if by a camera.

The recording (`companion/data/demo.json`, shipped with the package) names the board
and camera and, for each game, the seed of its random legal play, its broken rolls
and its illegal play; `sim.films` turns that into shots and
`sim.render` into frames, rendered a few shots ahead in a thread of their own and
played at the film's 30 frames a second. Its calibration
(`companion/data/demo.cal.json`) is the one the renderer says is true.

The player follows the match it is shown to: it waits while a double or resignation
is being decided, goes on to the next game's film when the match starts a new game
(a pass ends a game early), and stops when the match is over until a new match
starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from calibration.schema import Calibration, load
from sim import FPS, GameFilm, Scene, draw_hand, film_game, shot_images, video_scene

if TYPE_CHECKING:
    from companion.session import Session

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class Recording:
    size: tuple[int, int]
    board_seed: int
    match_length: int
    games: list[dict[str, Any]]
    pose: dict[str, float]

    @classmethod
    def load(cls, path: str | Path | None = None) -> Recording:
        text = (
            Path(path).read_text()
            if path
            else resources.files("companion").joinpath("data/demo.json").read_text()
        )
        obj = json.loads(text)
        return cls(
            tuple(obj["size"]),
            obj["board_seed"],
            obj["match_length"],
            obj["games"],
            obj.get("pose", {}),
        )

    def scene(self) -> Scene:
        """The board and camera: a random table set-up, placed as `pose` says."""
        scene = video_scene(random.Random(self.board_seed), self.size)
        pose = scene.pose
        return replace(
            scene,
            pose=replace(
                pose,
                yaw_deg=float(self.pose.get("yaw_deg", pose.yaw_deg)),
                fill=float(self.pose.get("fill", pose.fill)),
            ),
        )

    def film(self, game: int) -> GameFilm:
        """Game `game` (counted from 0; the recording's games repeat after the last)."""
        spec = self.games[game % len(self.games)]
        return film_game(
            spec["seed"],
            self.size,
            broken_rolls=spec.get("broken_rolls", 0.15),
            illegal_at=spec.get("illegal_at"),
            scene=self.scene(),
        )


def demo_calibration() -> Calibration:
    with resources.as_file(resources.files("companion").joinpath("data/demo.cal.json")) as p:
        return load(p)


@dataclass(frozen=True)
class Cue:
    """Where the film stands, as the match it is shown to sees it."""

    game_key: tuple[int, int]  # (match id, game number): a change starts the next film
    hold: bool  # a double or resignation is being decided: the players wait
    over: bool  # the match is over


HOLDING = ("doubled", "beavered", "resigned")  # phases in which the players wait


def session_cue(session: Session) -> Callable[[], Cue]:
    """The cue of a live session's match, for a film played to it."""

    def cue() -> Cue:
        with session.lock:
            match = session.match()
            return Cue(
                (session.match_id, match.game.number), match.phase.value in HOLDING, match.over
            )

    return cue


class FilmPlayer:
    """Frames of the recording, at the film's pace, following the match's cues."""

    def __init__(
        self,
        recording: Recording,
        cue: Callable[[], Cue],
        stop: threading.Event,
        speed: float = 1.0,
    ) -> None:
        self.recording = recording
        self.cue = cue
        self.stop = stop
        self.speed = speed
        self.game = 0
        # (frame, wall time) of each frame where a still shot began: where dice settle
        self.still_starts: deque[tuple[int, float]] = deque(maxlen=1000)

    def _shots(self, film: GameFilm) -> Iterator[tuple[bool, Image]]:
        """(hand over the board, image) per shot, rendered ahead in a thread."""
        ahead: queue.Queue[tuple[bool, int, Image] | None] = queue.Queue(maxsize=2)
        done = threading.Event()

        def work() -> None:
            # Rendering stands in for the camera's own hardware: it must not slow the
            # reading down, so it runs at a lower priority (Linux: per thread).
            with contextlib.suppress(AttributeError, OSError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
            for shot, image in shot_images(film):
                if done.is_set():
                    return
                while not done.is_set():
                    try:
                        ahead.put((shot.hand, shot.frames, image), timeout=0.2)
                        break
                    except queue.Full:
                        continue
            ahead.put(None)

        threading.Thread(target=work, daemon=True, name="demo-render").start()
        try:
            while True:
                item = ahead.get()
                if item is None:
                    return
                hand, frames, image = item
                for _ in range(frames):
                    yield hand, image
        finally:
            done.set()

    def frames(self) -> Iterator[tuple[int, float, Image]]:
        index = 0
        period = 1.0 / (FPS * self.speed)
        rng = np.random.default_rng(0)
        next_at = time.monotonic()
        last: Image | None = None
        while not self.stop.is_set():
            start_key = self.cue().game_key
            film = self.recording.film(self.game)
            self.game += 1
            was_hand = True
            for hand, image in self._shots(film):
                cue = self.cue()
                while cue.hold and not self.stop.is_set() and last is not None:
                    # The players decide the cube: the board stays as it is.
                    next_at = self._wait(next_at, period)
                    yield index, index / FPS, last
                    index += 1
                    cue = self.cue()
                if self.stop.is_set() or cue.game_key != start_key:
                    break
                frame = draw_hand(image, rng) if hand else image
                next_at = self._wait(next_at, period)
                now = time.monotonic()
                if was_hand and not hand:
                    self.still_starts.append((index, now))
                was_hand = hand
                yield index, index / FPS, frame
                index += 1
                last = image
            # The film is over: hold its last frame until the match moves on.
            deadline = time.monotonic() + 5.0
            while not self.stop.is_set() and last is not None:
                cue = self.cue()
                if cue.game_key != start_key and not cue.over:
                    break
                if not cue.over and time.monotonic() > deadline:
                    break  # the end was missed: go on with the next game anyway
                next_at = self._wait(next_at, period)
                yield index, index / FPS, last
                index += 1

    def _wait(self, next_at: float, period: float) -> float:
        delay = next_at - time.monotonic()
        if delay > 0:
            self.stop.wait(delay)
        elif delay < -0.5:
            next_at = time.monotonic()  # fell behind: do not rush to catch up
        return next_at + period


__all__ = ["Cue", "FilmPlayer", "Recording", "demo_calibration", "session_cue"]
