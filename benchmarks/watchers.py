"""The table's page with a room of phones watching it live.

    .venv/bin/python benchmarks/watchers.py [--watchers 500] [--requests 200]

Starts the real server (`bgcompanion run` on its embedded demo, in its own process: the
camera film playing, the referee deciding, the cube unit emulated), times `--requests`
loads of the page (GET /, a new connection each, as a browser's reload) with nobody
watching, then opens `--watchers` live streams (/api/stream, as each phone's page does)
and times the page again while every watcher is being sent every change. Prints the
page's latency (median, 95th percentile, worst), the server's threads and memory, and
how many states each watcher received meanwhile. Target: 95th percentile under 100 ms
with 500 watchers.
"""

from __future__ import annotations

import argparse
import http.client
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

PIN = "2468"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def page_times(port: int, n: int, gap_s: float) -> list[float]:
    """Milliseconds to load the page n times (a new connection each, the body read)."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/")
        response = conn.getresponse()
        body = response.read()
        conn.close()
        times.append((time.perf_counter() - start) * 1000)
        if response.status != 200 or b"initial-state" not in body:
            raise SystemExit(f"the page answered {response.status}")
        time.sleep(gap_s)
    return times


class Watchers:
    """Many live streams read by one thread of this process: counts the states each gets."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sel = selectors.DefaultSelector()
        self.states: dict[int, int] = {}
        self.refused = 0
        self.closed = 0
        self._tails: dict[int, bytes] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._socks: list[socket.socket] = []

    def open(self, n: int) -> None:
        """Open n streams, one after another (each answered before the next is asked)."""
        request = (
            f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        ).encode()
        for _ in range(n):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            sock.sendall(request)
            head = b""
            while b"\r\n\r\n" not in head:
                data = sock.recv(65536)
                if not data:
                    break
                head += data
            if not head.startswith(b"HTTP/1.1 200"):
                self.refused += 1
                sock.close()
                continue
            sock.setblocking(False)
            self.states[sock.fileno()] = head.count(b"event: state")
            self._tails[sock.fileno()] = head[-64:]
            self.sel.register(sock, selectors.EVENT_READ)
            self._socks.append(sock)
        self._thread.start()  # all open: one thread reads them all from now on

    def _read(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.sel.select(0.05):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(1 << 20)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                fd = sock.fileno()
                if not data:
                    self.sel.unregister(sock)
                    self.closed += 1
                    continue
                tail = self._tails[fd]
                text = tail + data
                with self._lock:
                    self.states[fd] += text.count(b"event: state") - tail.count(b"event: state")
                self._tails[fd] = text[-64:]

    def counts(self) -> list[int]:
        with self._lock:
            return list(self.states.values())

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for sock in self._socks:
            sock.close()


def threads_and_memory(pid: int) -> tuple[int, float]:
    """The server process's threads and resident memory (MB), from /proc."""
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(fields["Threads"]), int(fields["VmRSS"].split()[0]) / 1024


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return (
        f"median {statistics.median(ordered):.1f} ms, 95th percentile {p95:.1f} ms, "
        f"worst {ordered[-1]:.1f} ms"
    )


def p95_of(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--requests", type=int, default=200, help="page loads timed each time")
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between page loads")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.watchers + 256
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))

    port = free_port()
    seconds = 120 + args.requests * (args.gap + 0.2) * 2
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion.cli", "run", "--port", str(port), "--pin", PIN),
            *("--seconds", f"{seconds:.0f}", "--quiet"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        if f":{port}/" not in first:
            raise SystemExit(f"the server did not start: {first}{server.stdout.read()}")
        threading.Thread(target=server.stdout.read, daemon=True).start()  # drain
        time.sleep(2.0)  # the demo under way
        page_times(port, 10, args.gap)  # warm up
        alone = page_times(port, args.requests, args.gap)
        threads_alone, rss_alone = threads_and_memory(server.pid)

        watchers = Watchers(port)
        start = time.perf_counter()
        watchers.open(args.watchers)
        opened = time.perf_counter() - start
        time.sleep(2.0)
        before = watchers.counts()
        crowd = page_times(port, args.requests, args.gap)
        after = watchers.counts()
        threads_crowd, rss_crowd = threads_and_memory(server.pid)
        live = len(after)
        got = sorted(b - a for a, b in zip(before, after, strict=True))
        watchers.close()
        time.sleep(2.0)
        threads_after, rss_after = threads_and_memory(server.pid)

        print(f"the page (GET /, {args.requests} loads, {args.gap * 1000:.0f} ms apart):")
        print(f"  nobody watching:   {summary(alone)}")
        print(f"  {live} watching:   {summary(crowd)}")
        print(
            f"watchers: {live} streams open ({watchers.refused} refused, {watchers.closed} "
            f"closed by the server) in {opened:.1f} s; states received by each while the "
            f"page was timed: median {statistics.median(got) if got else 0:.0f}, "
            f"fewest {got[0] if got else 0}"
        )
        print(
            f"server: {threads_alone} threads and {rss_alone:.0f} MB with nobody watching, "
            f"{threads_crowd} threads and {rss_crowd:.0f} MB with {live} watchers, "
            f"{threads_after} threads and {rss_after:.0f} MB once they had gone"
        )
        target = p95_of(crowd) < 100
        verdict = "met" if target else "NOT met"
        print(f"target (95th percentile under 100 ms with the watchers): {verdict}")
        return 0 if target else 1
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
