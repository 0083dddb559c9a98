"""The companion's speed and memory, on the embedded demo, with the page open in Chromium.

    .venv/bin/python benchmarks/table.py [--seconds 90]

1. Verdict latency: from the frame in which the dice come to rest (the first still
   frame after the hand) to the verdict (roll, opening roll or reroll) arriving at a
   page's event stream. The demo is played in this process at its real pace, with
   headless Chromium showing the page and a second stream client timing the arrivals.
   Target: under 250 ms.
2. The page's first render: from navigation start to the board drawn, in Chromium.
   Target: under 1 s.
3. Memory: `bgcompanion run` (the demo, as `make demo` starts it) in its own process,
   with the page open, its peak resident memory. Target: under 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from werkzeug.serving import make_server

from companion.demo import FilmPlayer, Recording, demo_calibration, session_cue
from companion.rules.match import MatchRules
from companion.session import Session, return_memory_promptly
from companion.web import create_app

VERDICTS = {"roll", "opening_roll", "reroll"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def chromium() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def quiet_server() -> None:
    import logging

    logging.getLogger("werkzeug").setLevel(logging.WARNING)


def latency(seconds: float) -> tuple[list[float], list[float]]:
    """Verdict latencies (ms) over `seconds` of the demo, and first renders (ms)."""
    return_memory_promptly()  # as `bgcompanion run` does
    recording = Recording.load()
    workdir = tempfile.mkdtemp(prefix="bench-companion-")
    session = Session(
        Path(workdir) / "m.db",
        MatchRules(length=recording.match_length),
        calibration=demo_calibration(),
        pin="1234",
    )
    port = free_port()
    quiet_server()
    server = make_server("127.0.0.1", port, create_app(session), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    player = FilmPlayer(recording, session_cue(session), session.stop)
    url = f"http://127.0.0.1:{port}/"
    browser = chromium()
    browser.get(url)
    arrivals: dict[tuple[int, str], float] = {}

    def listen() -> None:
        with urllib.request.urlopen(url + "api/stream") as stream:
            for raw in stream:
                line = raw.decode()
                if not line.startswith("data: "):
                    continue
                now = time.monotonic()
                for e in json.loads(line[6:])["log"]:
                    if e["type"] in VERDICTS and not e.get("by_hand"):
                        arrivals.setdefault((e["frame"], e["type"]), now)
                if session.stop.is_set():
                    return

    threading.Thread(target=listen, daemon=True).start()
    camera = threading.Thread(
        target=session.run_camera, args=(player.frames(), "demo", True), daemon=True
    )
    camera.start()
    time.sleep(seconds)
    renders = []
    for _ in range(5):
        browser.get(url)
        t = None
        for _ in range(100):
            t = browser.execute_script("return window.bgFirstRender")
            if t:
                break
            time.sleep(0.02)
        renders.append(float(t or 1e9))
    session.stop.set()
    camera.join(timeout=10)
    browser.quit()
    server.shutdown()
    starts = sorted(player.still_starts)
    out = []
    for (frame, _kind), arrived in sorted(arrivals.items()):
        before = [wall for index, wall in starts if index <= frame]
        if before:
            out.append((arrived - before[-1]) * 1000)
    session.close()
    return out, renders


def memory(seconds: float) -> float:
    """Peak resident memory (MB) of `bgcompanion run` on the demo with the page open."""
    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion.cli", "run", "--port", str(port)),
            *("--pin", "1234", "--quiet", "--seconds", str(seconds + 15)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    proc.stdout.readline()
    browser = chromium()
    browser.get(f"http://127.0.0.1:{port}/")
    peak = 0.0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        status = Path(f"/proc/{proc.pid}/status").read_text()
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]) / 1024)
        time.sleep(1)
    browser.quit()
    proc.terminate()
    proc.communicate(timeout=30)
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=90, help="demo time for each part")
    args = parser.parse_args()
    lat, renders = latency(args.seconds)
    peak = memory(args.seconds)
    print(f"companion on the embedded demo, {os.cpu_count()} cores, {args.seconds:.0f} s each")
    if lat:
        lat.sort()
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        print(
            f"  dice at rest -> verdict on the page: {len(lat)} verdicts, median "
            f"{statistics.median(lat):.0f} ms, p95 {p95:.0f} ms, max {max(lat):.0f} ms "
            f"(target < 250 ms): {'met' if p95 < 250 else 'NOT met'} at p95"
        )
    else:
        print("  no verdicts timed")
    print(
        f"  page first render: median {statistics.median(renders):.0f} ms, max "
        f"{max(renders):.0f} ms (target < 1000 ms)"
    )
    print(f"  bgcompanion run peak memory: {peak:.0f} MB (target < 300 MB)")


if __name__ == "__main__":
    main()
