"""The running companion without the page: the demo recording, the film player's cues,
the session following frames into the match file, and the cube unit beside it."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import numpy as np

from companion.demo import Cue, FilmPlayer, Recording, demo_calibration
from companion.follow import Glimpse
from companion.rules.match import MatchRules
from companion.session import Session
from sim import film_game, render


def test_the_shipped_calibration_is_the_recordings_truth() -> None:
    recording = Recording.load()
    truth = render(recording.scene()).calibration
    shipped = demo_calibration()
    assert truth is not None
    assert shipped.image_size == truth.image_size == recording.size
    assert np.allclose(shipped.corners_px, truth.corners_px, atol=0.01)
    assert len(recording.games) >= 2 and recording.match_length > 0


def small_recording() -> Recording:
    return Recording((320, 180), 2, 3, [{"seed": 1}, {"seed": 2}], {})


def test_the_film_player_holds_while_the_cube_is_decided_and_follows_new_games() -> None:
    stop = threading.Event()
    cue = {"key": (1, 1), "hold": False}
    player = FilmPlayer(
        small_recording(), lambda: Cue(cue["key"], cue["hold"], False), stop, speed=10
    )
    frames = player.frames()
    first = list(itertools.islice(frames, 40))
    assert [i for i, _, _ in first] == list(range(40))  # numbered without gaps
    cue["hold"] = True
    held = list(itertools.islice(frames, 6))
    assert all(np.array_equal(held[0][2], image) for _, _, image in held)  # the board waits
    cue["hold"] = False
    assert player.game == 1
    cue["key"] = (1, 2)  # the match started its next game (a pass, say)
    list(itertools.islice(frames, 3))
    assert player.game == 2  # the next game's film is playing
    assert player.still_starts and player.still_starts[0][0] > 0
    stop.set()


def test_a_session_follows_the_demo_film_into_the_match_file(tmp_path: Path) -> None:
    recording = Recording.load()
    film = film_game(11, recording.size, illegal_at=4, max_turns=3, scene=recording.scene())
    session = Session(tmp_path / "m.db", MatchRules(length=5), calibration=demo_calibration())
    seen: list[str] = []
    session.listeners.append(lambda events: seen.extend(e["type"] for e in events))

    def frames():  # type: ignore[no-untyped-def]
        index = 0
        for shot in film.shots:
            image = render(shot.scene).image
            for _ in range(shot.frames):
                yield index, index / 30, image if not shot.hand else image[::-1].copy()
                index += 1

    session.run_camera(frames(), "test film")
    truth = [e["type"] for e in film.truth]
    assert seen == truth
    state = session.state()
    assert state["health"]["frames"] == sum(s.frames for s in film.shots)
    assert state["health"]["read"] < state["health"]["frames"] / 4  # still frames reused
    assert state["seen"]["board"] is not None and state["camera"]
    # The dice last read, as read-dice writes them (CONTRACTS.md §4): one die type.
    assert state["seen"]["dice"] == [d.to_json() for d in session.seen.dice]
    assert all(
        set(d) >= {"value", "center_px", "flat", "section", "on_checker"}
        for d in state["seen"]["dice"]
    )
    assert session.camera_jpeg(400)[:2] == b"\xff\xd8"  # type: ignore[index]
    stored = [e.type for e in session.store.events(session.match_id)]
    assert stored.count("play") == truth.count("play")
    session.close()


def test_frames_that_arrive_together_count_each_still_frame(tmp_path: Path) -> None:
    """A slow reading takes the newest frame of a still stretch once, and every frame of
    the stretch still counts towards the dice settling."""
    recording = Recording.load()
    film = film_game(5, recording.size, max_turns=1, scene=recording.scene())
    session = Session(tmp_path / "m.db", MatchRules(length=5), calibration=demo_calibration())
    opening = next(s for s in film.shots if s.scene.dice and not s.hand)
    image = render(opening.scene).image
    assert session.follower is not None
    reads = session.follower.stats.read
    batch = [Glimpse(0, 0.0, True, False, None)] + [
        Glimpse(i, i / 30, False, i == 1, image if i == 5 else None) for i in range(1, 6)
    ]
    started = time.monotonic()
    events = session.feed_run(batch)
    assert time.monotonic() - started < 30
    assert session.follower.stats.read == reads + 1
    kinds = [e["type"] for e in session.log]
    assert kinds and kinds[0] in ("opening_roll", "reroll")
    assert events == []  # recorded, and told to the listeners, not returned twice
    session.close()


def test_frames_of_another_size_than_the_calibration_are_refused_clearly(tmp_path: Path) -> None:
    session = Session(tmp_path / "m.db", MatchRules(), calibration=demo_calibration())
    wrong = np.zeros((720, 1280, 3), np.uint8)
    session.run_camera(iter([(0, 0.0, wrong)]), "camera 0")
    error = session.state()["health"]["camera_error"]
    assert "1280x720" in error and "1920x1080" in error
    assert session.state()["health"]["frames"] == 0  # nothing was read from them
    session.close()


def test_a_session_follows_a_bumped_camera_and_reads_on(tmp_path: Path) -> None:
    """`run`'s check of a still frame: the camera turned 1.5 degrees since `calibrate`
    recorded the board's view; the session reads on with the calibration followed to the
    board (within 0.5% of the width of the scene's truth), the page says so, and the
    board still reads as the starting position."""
    from dataclasses import replace

    from calibration.board_view import record
    from sim import START, CameraPose, Scene

    pose = CameraPose(yaw_deg=12, tilt_deg=6)
    start = render(Scene(white=START, black=START, pose=pose, image_size=(1280, 720)))
    assert start.calibration is not None
    cal = replace(start.calibration, view=record(start.image, start.calibration))
    bumped = render(
        Scene(white=START, black=START, pose=replace(pose, yaw_deg=13.5), image_size=(1280, 720))
    )
    assert bumped.calibration is not None
    session = Session(tmp_path / "m.db", MatchRules(length=5), calibration=cal)
    for k in range(8):  # still frames: read, then checked
        session.feed(bumped.image, k, k / 30)
    assert session._still
    session._maybe_check_drift(bumped.image)
    health = session.state()["health"]
    assert health["drift"]["followed"] is True and health["drift"]["moved"] is False
    assert health["followed"] is not None and "%" in health["followed"]
    assert session.calibration is not None and session.calibration.view == cal.view
    truth = np.array(bumped.calibration.corners_px)
    width = float(np.linalg.norm(truth[1] - truth[0]))
    assert np.abs(np.array(session.calibration.corners_px) - truth).max() < 0.005 * width
    assert session.follower is not None
    reading = session.follower.reader.read_still(bumped.image).board
    assert reading is not None
    assert list(reading.white) == list(START) and list(reading.black) == list(START)
    # checked again, nothing moved since: no move, nothing followed again
    session.health.drift_checked = None
    session._maybe_check_drift(bumped.image)
    drift = session.state()["health"]["drift"]
    assert drift["moved"] is False and drift["followed"] is False


def test_a_session_without_the_view_says_moved_and_keeps_its_calibration(tmp_path: Path) -> None:
    from dataclasses import replace

    from sim import START, CameraPose, Scene

    pose = CameraPose(yaw_deg=12, tilt_deg=6)
    start = render(Scene(white=START, black=START, pose=pose, image_size=(1280, 720)))
    assert start.calibration is not None
    bumped = render(
        Scene(white=START, black=START, pose=replace(pose, yaw_deg=13.5), image_size=(1280, 720))
    )
    session = Session(tmp_path / "m.db", MatchRules(length=5), calibration=start.calibration)
    for k in range(8):
        session.feed(bumped.image, k, k / 30)
    session._maybe_check_drift(bumped.image)
    health = session.state()["health"]
    assert health["drift"]["moved"] is True and health["drift"]["followed"] is False
    assert health["followed"] is None and session.calibration is start.calibration
