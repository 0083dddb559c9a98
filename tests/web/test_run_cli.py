"""`bgcompanion run --video`: a recorded video played as the camera, events printed and
stored, the page served, the match file resumable."""

from __future__ import annotations

import json
import socket
import sqlite3
import urllib.request
from pathlib import Path

from tests.test_cli import run


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_run_follows_a_video_into_the_match_file(tmp_path: Path) -> None:
    film = tmp_path / "film"
    made = run("film-game", str(film), "--seed", "3", "--max-turns", "2")
    assert made.returncode == 0, made.stderr
    truth = [json.loads(line) for line in (film / "truth.jsonl").read_text().splitlines()]
    db = tmp_path / "table.db"
    port = free_port()
    out = run(
        *("run", "--video", str(film / "game.avi"), "--calibration", str(film / "game.cal.json")),
        *("--cube", "none", "--db", str(db), "--port", str(port), "--pin", "1357"),
        *("--match-length", "3", "--white", "Ann", "--seconds", "25", "--json"),
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert f"http://127.0.0.1:{port}/" in lines[0] and "1357" in lines[1]
    events = [json.loads(line) for line in lines if line.startswith("{")]
    kinds = [e["type"] for e in events]
    assert kinds == [e["type"] for e in truth]
    assert "the video has ended" in out.stdout
    with sqlite3.connect(db) as c:
        stored = [row[0] for row in c.execute("SELECT type FROM events ORDER BY seq")]
    assert stored[0] == "match_created" and stored.count("play") == kinds.count("play")

    # A restart with --resume goes on with the same unfinished match.
    port = free_port()
    again = run(
        *("run", "--video", str(film / "game.avi"), "--calibration", str(film / "game.cal.json")),
        *("--cube", "none", "--db", str(db), "--port", str(port), "--resume", "--seconds", "1"),
    )
    assert again.returncode == 0, again.stderr
    assert "match 1:" in again.stdout


def test_run_serves_the_page_while_it_follows(tmp_path: Path) -> None:
    """The page answers during a run (the demo here), and stops with it."""
    import subprocess
    import sys
    import time

    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion.cli", "run", "--port", str(port), "--quiet"),
            *("--db", str(tmp_path / "d.db"), "--seconds", "20"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert "the page is on" in proc.stdout.readline()
    try:
        # Following: the frames read go on rising while the page answers (how fast is the
        # benchmarks' business: on a loaded machine 26 frames in 15 s, not 30).
        deadline = time.monotonic() + 15
        state, seen = None, []
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state") as r:
                state = json.load(r)
            seen.append(state["health"]["frames"])
            if len(set(seen)) >= 3 and state["unit"]:
                break
            time.sleep(0.5)
        assert state is not None and len(set(seen)) >= 3 and seen == sorted(seen), seen
        assert state["health"]["cube"] == "connected" and state["unit"]["display"]
        assert state["match"]["length"] == 5  # the demo's match
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_the_health_line_says_why_the_cube_unit_is_not_connected() -> None:
    from collections import deque
    from types import SimpleNamespace

    from companion.cli.run import _link_status
    from companion.link.client import Status

    problems = deque(["link: SerialException: no cube unit found on any USB serial port"])
    link = SimpleNamespace(status=Status.CONNECTING, problems=problems)
    assert _link_status(link) == "connecting (no cube unit found on any USB serial port)"
    link.status = Status.CONNECTED
    assert _link_status(link) == "connected"


def test_run_says_once_when_the_cube_unit_goes_missing_and_once_when_it_is_back(
    tmp_path: Path,
) -> None:
    import queue
    import subprocess
    import sys
    import threading

    from companion.link.emulator import Emulator

    with Emulator() as unit:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "companion.cli", "run", "--port", str(free_port())),
                *("--cube", unit.port, "--db", str(tmp_path / "d.db"), "--quiet"),
                *("--seconds", "30"),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()  # type: ignore[union-attr]

        def next_line_with(words: str, timeout: float) -> str:
            while True:
                line = lines.get(timeout=timeout)
                if words in line:
                    return line

        try:
            assert unit.wait_display(" 0  64 0", 10)  # connected: the match is shown
            unit.silent = True  # lost within 1.5 s, missing 2 s later
            missing = next_line_with("bgcompanion: cube unit", 10)
            assert "cube unit missing" in missing and "stale" in missing
            unit.silent = False
            back = next_line_with("bgcompanion: cube unit", 5)
            assert back.startswith("bgcompanion: cube unit back after")
            assert unit.wait_display(" 0  64 0", 2)
        finally:
            proc.terminate()
            proc.communicate(timeout=20)
