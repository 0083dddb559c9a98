"""One table, in one direction: frames -> vision's reading -> referee -> match store ->
outputs (the page's state, the camera view, the cube unit, the listeners).

A `Session` owns one match file and the match being played in it. Three kinds of
threads change or show it, all through the session:

- the camera loop (`run_camera`): the newest frame is read (`vision.frame.FrameReader`,
  turned into the referee's observations by `companion.follow`) and the referee
  decides; a frame that arrives while the last is still being read is dropped, so the
  verdict is never late by more than one reading;
- the cube loop (`run_cube`): the unit shows the match's cube and score, and its
  double / take / pass buttons become match actions;
- the page (`companion.web`): it reads `state()` and waits for `wait_change()`, and
  its controls call `act()`, `undo()` and `new_match()` (a `Session` is the
  `companion.table.Table` the page knows of).

Every change goes through the store first (saved before it is shown) under one lock,
and bumps `version`, which wakes whoever waits for news; the outputs read the stored
match and what was last seen, never the readers. What the page makes of a match (its
legal plays, its record) is `companion.live`'s.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from calibration.refine import measure_drift
from calibration.schema import Calibration, CalibrationError
from companion.follow import Follower, Glimpse
from companion.live import history, legal_plays, shown
from companion.referee import Event, Observation, Referee
from companion.rules.errors import RulesError
from companion.rules.match import Action, Match, MatchError, MatchRules
from companion.settings import Settings
from companion.store import Store
from companion.table import PAGE_ACTIONS
from vision.die import DieReading
from vision.frame import FrameReader

Image = NDArray[np.uint8]
Frames = Iterator[tuple[int, float, Image]]

LOG_SIZE = 40
DRIFT_EVERY_S = 10.0


class CubeUnit(Protocol):
    """What the session needs of a cube link (`companion.link.client.CubeLink`)."""

    port: str
    events: Any

    def show(self, state: Any) -> None: ...

    def close(self) -> None: ...


@dataclass
class Health:
    """The page's health line."""

    source: str = "none"
    fps: float = 0.0
    frames: int = 0
    read: int = 0
    drift: dict[str, Any] | None = None  # the last calibration check
    cube: str = "none"  # none, connecting, connected, failed ...
    last_save: str | None = None
    camera_error: str | None = None
    drift_checked: float | None = None  # monotonic seconds of the last calibration check
    # the last time the calibration followed a moved board, and by how much
    followed: str | None = None
    _times: deque[float] = field(default_factory=lambda: deque(maxlen=60))

    def frame(self, now: float) -> None:
        self.frames += 1
        self._times.append(now)
        if len(self._times) >= 2:
            span = self._times[-1] - self._times[0]
            self.fps = (len(self._times) - 1) / span if span > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "fps": round(self.fps, 1),
            "frames": self.frames,
            "read": self.read,
            "drift": self.drift,
            "followed": self.followed,
            "cube": self.cube,
            "last_save": self.last_save,
            "camera_error": self.camera_error,
        }


@dataclass
class Seen:
    """The last reading of the camera, for the page's verdict and camera view."""

    frame: int = -1
    dice: tuple[DieReading, ...] = ()
    board: dict[str, Any] | None = None


class Session:
    """One match file, the match being played, and whoever watches it (a `Table`)."""

    def __init__(
        self,
        db: str | Path,
        rules: MatchRules | None = None,
        *,
        calibration: Calibration | None = None,
        resume: bool = False,
        pin: str = "",
        settings: Settings | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.store = Store(db)
        self.pin = pin
        latest = self.store.latest_match() if resume else None
        if latest is not None and not self.store.load(latest).over:
            self.match_id = latest
        else:
            self.match_id = self.store.create_match(rules or MatchRules())
        self.geo = BoardGeometry(calibration) if calibration else None
        self.calibration = calibration
        self.referee = self._new_referee()
        self.follower = self._follower(self.geo) if self.geo else None
        self.health = Health()
        self.seen = Seen()
        self.log: deque[Event] = deque(maxlen=LOG_SIZE)
        self.call: Event | None = None  # the reroll or illegal play standing now
        self.fix: Event | None = None  # a hand correction asked for
        self.glance: Event | None = None  # a play taken on a thin margin, or a correction
        self.frame_image: Image | None = None
        self.frame_index = -1
        self.stop = threading.Event()
        self.listeners: list[Callable[[list[Event]], None]] = []
        self.unit: Any = None  # a stand-in cube unit (the emulator): its display is shown
        self._t0 = time.monotonic()
        self._still = False
        self._last_bump = 0.0

    def _follower(self, geo: BoardGeometry) -> Follower:
        return Follower(
            FrameReader(
                geo, dice=self.settings.dice, board=self.settings.board, motion=self.settings.motion
            )
        )

    def _new_referee(self) -> Referee:
        match_id = self.match_id
        return Referee(
            lambda: self.store.load(match_id),
            lambda a: self.store.apply(match_id, a),
            **self.settings.referee_options(),
        )

    # --- reading ------------------------------------------------------------------------
    def match(self) -> Match:
        with self.lock:
            return self.store.load(self.match_id)

    def wait_change(self, version: int, timeout: float) -> int:
        """Block until the version moves past `version` (or timeout); the version now."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or self.stop.is_set(), timeout)
            return self.version

    def _bump(self) -> None:
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    # --- changes --------------------------------------------------------------------------
    def act(self, action: Action) -> list[Event]:
        """An action from the page or the unit's buttons; MatchError says why it is refused."""
        kind = action.get("type")
        if kind not in PAGE_ACTIONS:
            raise MatchError(f"unknown action {kind!r}")
        with self.lock:
            events = self.referee.act(action, self.frame_index, self._now())
            self._record(events, by_hand=True)
            return events

    def undo(self) -> None:
        with self.lock:
            self.store.undo(self.match_id)
            self.referee.reset()
            self.call = self.fix = None
            self._record([{"type": "undo", "t": self._now(), "frame": self.frame_index}])

    def new_match(self, rules: MatchRules) -> int:
        with self.lock:
            self.match_id = self.store.create_match(rules)
            self.referee = self._new_referee()
            self.call = self.fix = None
            self.log.clear()
            self._record([{"type": "new_match", "t": self._now(), "frame": self.frame_index}])
            return self.match_id

    def _now(self) -> float:
        return round(time.monotonic() - self._t0, 3)

    def _record(self, events: list[Event], by_hand: bool = False) -> None:
        """Events decided (already stored): the standing call, the log, the listeners."""
        for e in events:
            kind = e["type"]
            if by_hand:
                e = {**e, "by_hand": True}
            if kind in ("reroll", "illegal_play"):
                self.call = e
            elif kind in ("roll", "opening_roll", "play", "accept", "reject", "game_over"):
                self.call = None
            if kind in ("play", "illegal_play", "correction", "new_match", "undo"):
                thin = kind == "play" and bool((e.get("fit") or {}).get("check"))
                fixed = kind == "correction" and not by_hand
                self.glance = e if thin or fixed else None
            if kind == "needs_fix":
                self.fix = e
            elif kind not in ("dice_picked_up",):
                self.fix = None
            self.log.append(e)
        if events:
            self.health.last_save = time.strftime("%H:%M:%S")
        for listener in list(self.listeners):
            listener(events)
        self._bump()

    # --- the camera -----------------------------------------------------------------------
    def feed(self, image: Image, index: int, t: float) -> list[Event]:
        """One camera frame, in turn: read if it changed, then decided."""
        assert self.follower is not None, "no calibration: the camera cannot be followed"
        moving, new = self.follower.reader.check(image)
        return self.feed_run([Glimpse(index, t, moving, new, image)])

    def feed_run(self, glimpses: list[Glimpse]) -> list[Event]:
        """Frames that arrived together, in order: each still stretch is read once (its
        newest frame, outside the lock, if anything in it changed), then every frame is
        told to the referee (inside the lock), so that a reading slower than the camera
        still counts each still frame towards the dice settling."""
        follower = self.follower
        assert follower is not None, "no calibration: the camera cannot be followed"
        stretches: list[list[Glimpse]] = []
        for g in glimpses:
            if g.moving or not stretches or stretches[-1][-1].moving:
                stretches.append([g])
            else:
                stretches[-1].append(g)
        events: list[Event] = []
        for stretch in stretches:
            observations, fresh = follower.observe_stretch(stretch)  # reads: outside the lock
            last = stretch[-1]
            with self.lock:
                now = time.monotonic()
                for obs in observations:
                    self.health.frame(now)
                    events.extend(self.referee.feed(obs))
                if fresh:
                    self._note_seen(observations[-1])
                self.health.read = follower.stats.read
                self._still = not last.moving
                if last.image is not None:
                    self.frame_image, self.frame_index = last.image, last.index
                if events or fresh:
                    self._record(events)
                    events = []
                elif now - self._last_bump > 1.0:
                    self._last_bump = now
                    self._bump()  # the health line's frame rate
        return events

    def _note_seen(self, obs: Observation) -> None:
        self.seen = Seen(
            frame=obs.frame,
            dice=tuple(obs.dice),
            board=(
                {
                    "white": list(obs.board.white),
                    "black": list(obs.board.black),
                    "confidence": round(obs.board.confidence, 3),
                }
                if obs.board
                else None
            ),
        )

    def run_camera(self, frames: Frames, source: str, realtime: bool = False) -> None:
        """Follow `frames` until they end or `stop` is set. With `realtime`, frames come at
        their own pace (a camera, or a film played as if live) from a thread of their own;
        otherwise every frame is read in turn, as fast as it can be."""
        self.health.source = source
        frames = self._sized(frames)
        try:
            if realtime:
                self._run_live(frames)
            else:
                for index, t, image in frames:
                    if self.stop.is_set():
                        break
                    self.feed(image, index, t)
                    self._maybe_check_drift(image)
        except OSError as e:
            self.health.camera_error = str(e)
            self._bump()

    def _sized(self, frames: Frames) -> Frames:
        """The frames, refused with a clear reason when they do not fit the calibration
        (another camera mode, or another camera: every position read would be wrong)."""
        expected = self.calibration.image_size if self.calibration else None
        for index, t, image in frames:
            size = (image.shape[1], image.shape[0])
            if expected is not None and size != tuple(expected):
                raise OSError(
                    f"the camera gives {size[0]}x{size[1]} frames but the calibration was made "
                    f"for {expected[0]}x{expected[1]}: set the camera to that size, or calibrate "
                    "again"
                )
            yield index, t, image

    def _run_live(self, frames: Frames) -> None:
        """A grabber thread checks each frame for motion as it comes (cheap) and queues
        it; this thread reads what was queued. Only the newest image of a still stretch is
        kept, so a slow reading holds one frame in memory, not a second of them."""
        assert self.follower is not None
        reader = self.follower.reader
        waiting: deque[Glimpse] = deque(maxlen=120)
        ready = threading.Condition()
        done = threading.Event()
        failure: list[BaseException] = []

        def grab() -> None:
            try:
                for index, t, image in frames:
                    moving, new = reader.check(image)
                    with ready:
                        if waiting and (waiting[-1].moving or not moving):
                            # Reading needs the newest frame of each still stretch, the
                            # camera view the newest frame: no other image is kept.
                            waiting[-1].image = None
                        waiting.append(Glimpse(index, t, moving, new, image))
                        ready.notify()
                    if self.stop.is_set():
                        break
            except BaseException as e:  # told by the reader below
                failure.append(e)
            finally:
                close = getattr(frames, "close", None)
                if close is not None:
                    close()  # a video's capture released here, not at the process's exit
                done.set()
                with ready:
                    ready.notify()

        grabber = threading.Thread(target=grab, daemon=True, name="frames")
        grabber.start()
        while not self.stop.is_set():
            with ready:
                ready.wait_for(lambda: bool(waiting) or done.is_set(), 0.5)
                batch = list(waiting)
                waiting.clear()
            if not batch:
                if done.is_set():
                    break
                continue
            self.feed_run(batch)
            image = batch[-1].image
            if image is not None:
                self._maybe_check_drift(image)
        # Stopped: the grabber stops after the frame it is on. Left running into the
        # process's exit, a capture still open in it aborts the process (OpenCV's threads).
        grabber.join(timeout=5)
        if failure and isinstance(failure[0], OSError):
            raise failure[0]

    def _maybe_check_drift(self, image: Image) -> None:
        """Every few seconds, on a still frame: has the board or camera moved?"""
        if self.calibration is None or self.follower is None:
            return
        now = time.monotonic()
        last = self.health.drift_checked
        if (last is not None and now - last < DRIFT_EVERY_S) or not self._still:
            return
        self.health.drift_checked = now
        try:
            found, located = measure_drift(image, self.calibration)
        except (CalibrationError, cv2.error, ValueError) as e:
            self.health.drift = {"moved": None, "error": str(e)}
        else:
            followed = False
            if found["moved"] and located is not None:
                self._follow(located)
                followed = True
                share = float(str(found["drift_of_width"])) * 100
                self.health.followed = f"{time.strftime('%H:%M:%S')}, {share:.1f}%"
            self.health.drift = {
                "moved": bool(found["moved"]) and not followed,
                "drift_of_width": found["drift_of_width"],
                "followed": followed,
            }
        self._bump()

    def _follow(self, cal: Calibration) -> None:
        """The board or camera moved and the view recorded at calibration placed the board
        anew: read from here on with `cal` (its corners where the board now lies, the
        recorded view still the reference). Called between readings, on the reading
        thread: the next frame is read afresh; the referee's game goes on."""
        geo = BoardGeometry(cal)
        follower = self._follower(geo)
        with self.lock:
            self.calibration, self.geo, self.follower = cal, geo, follower

    # --- the cube unit --------------------------------------------------------------------
    def run_cube(self, link: CubeUnit, status: Callable[[], str]) -> None:
        """Keep the unit showing the match; its buttons become actions (until `stop`)."""
        import queue

        from companion.cube_session import press_action
        from companion.link.protocol import DisplayState

        shown: DisplayState | None = None
        seen_version = -1
        while not self.stop.is_set():
            with self.lock:
                self.health.cube = status()
                if self.version != seen_version:
                    seen_version = self.version
                    state = DisplayState.from_summary(self.match().summary())
                    if state != shown:
                        link.show(state)
                        shown = state
            try:
                press = link.events.get(timeout=0.1)
            except queue.Empty:
                continue
            with self.lock:
                action = press_action(self.match(), press)
                if isinstance(action, str):
                    self.log.append({"type": "ignored", "why": action, "t": self._now()})
                    self._bump()
                    continue
                try:
                    self.act(action)
                except RulesError as e:
                    self.log.append({"type": "ignored", "why": str(e), "t": self._now()})
                    self._bump()

    # --- what the page shows ----------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        with self.lock:
            match = self.match()
            summary = match.summary()
            rules = match.rules
            call = self.call
            if (
                call is not None
                and call["type"] == "illegal_play"
                and rules.tournament
                and not rules.call_illegal
            ):
                call = None  # the players did not agree to have illegal plays called
            return {
                "version": self.version,
                "match_id": self.match_id,
                "match": summary,
                "names": {"white": rules.white, "black": rules.black},
                "plays": [] if rules.tournament else legal_plays(match),
                "plays_hidden": rules.tournament,
                "history": history(match),
                "call": call,
                "fix": self.fix,
                "glance": self.glance,
                "seen": {
                    "frame": self.seen.frame,
                    "dice": [d.to_json() for d in self.seen.dice],
                    "board": self.seen.board,
                },
                "log": [e for e in self.log if shown(e, rules)][-12:],
                "health": self.health.to_json(),
                "unit": (
                    {"display": self.unit.display(), "leds": sorted(self.unit.leds())}
                    if self.unit is not None
                    else None
                ),
                "camera": self.frame_image is not None,
                "frame": self.frame_index,
            }

    def camera_jpeg(self, width: int = 800) -> bytes | None:
        """The newest frame with what was read drawn over it, as JPEG."""
        with self.lock:
            image, seen, geo = self.frame_image, self.seen, self.geo
        if image is None:
            return None
        from vision.overlay import draw_reading

        zoom = min(1.0, width / image.shape[1])
        small = image
        if zoom < 1:
            small = np.asarray(
                cv2.resize(image, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA),
                dtype=np.uint8,
            )
        shown = draw_reading(small, seen.dice, seen.board, geo, zoom)
        ok, buf = cv2.imencode(".jpg", shown, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return buf.tobytes() if ok else None

    def close(self) -> None:
        self.stop.set()
        self._bump()
        with self.lock:
            self.store.close()


def return_memory_promptly() -> bool:
    """Make large frame-sized buffers go back to the system as soon as they are freed.

    glibc raises its mmap threshold as large blocks are freed (up to 32 MB), after
    which even a whole float frame (25 MB at 1080p) comes from heaps that never shrink,
    one per thread: the companion's memory would grow by hundreds of MB. A fixed 16 MB
    threshold returns those at once while the reading's smaller arrays are still reused
    from the heap (a lower threshold costs the reading a page fault per array, half
    again its time), and two heaps do for all threads. Linux with glibc only; elsewhere
    a no-op.
    """
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if not name:
        return False
    try:
        libc = ctypes.CDLL(name)
        m_mmap_threshold, m_arena_max = -3, -8
        ok = libc.mallopt(m_mmap_threshold, 16 * 1024 * 1024) == 1
        return bool(ok and libc.mallopt(m_arena_max, 2) == 1)
    except (OSError, AttributeError):
        return False


__all__ = ["Health", "Seen", "Session", "return_memory_promptly"]
