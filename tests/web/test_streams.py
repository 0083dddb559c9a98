"""Live streams on the page's own server: one thread serves every watcher, each change
reaches each of them, the cap refuses one more with a clear answer, and a watcher that
leaves frees its place."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.rules.match import MatchRules
from companion.session import Session
from companion.web import create_app, make_page_server
from companion.web.streams import PageServer, StreamHub, Watch

PIN = "4821"


def eventually(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Session, PageServer]]:
    session = Session(tmp_path / "match.db", MatchRules(length=5), pin=PIN)
    app = create_app(session, {"STREAM_MAX_WATCHERS": 3, "STREAM_KEEPALIVE_S": 0.3})
    server = make_page_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="web")
    thread.start()
    yield session, server
    session.stop.set()
    server.shutdown()
    server.server_close()
    thread.join(5)
    session.close()


class Watcher:
    """A browser's EventSource, by hand: the request, the headers, then events."""

    def __init__(self, port: int, cookie: str = "") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        extra = f"Cookie: {cookie}\r\n" if cookie else ""
        self.sock.sendall(
            f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        self.headers = head.decode("latin-1")

    def _until(self, mark: bytes) -> bytes:
        while mark not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed")
            self.buffer += data
        part, self.buffer = self.buffer.split(mark, 1)
        return part

    def body(self) -> bytes:
        """The rest of a refusal (the server closes after it)."""
        while True:
            data = self.sock.recv(65536)
            if not data:
                return self.buffer
            self.buffer += data

    def state(self) -> dict[str, Any]:
        """The next state pushed (keep-alives and the retry line skipped)."""
        while True:
            block = self._until(b"\n\n").decode()
            if "event: state" in block:
                found = re.search(r"^data: (.*)$", block, re.M)
                assert found
                state: dict[str, Any] = json.loads(found[1])
                return state

    def close(self) -> None:
        self.sock.close()


def test_one_thread_streams_every_change_to_every_watcher(
    served: tuple[Session, PageServer],
) -> None:
    session, server = served
    watchers = [Watcher(server.port) for _ in range(3)]
    try:
        assert [w.status for w in watchers] == [200, 200, 200]
        assert all("text/event-stream" in w.headers for w in watchers)
        first = [w.state() for w in watchers]
        assert all(s["match"]["phase"] == "opening" and s["control"] is False for s in first)
        # the requests' threads have ended: the streams live on in the hub's thread
        assert eventually(
            lambda: not any("process_request" in t.name for t in threading.enumerate())
        ), [t.name for t in threading.enumerate()]
        assert {"stream-hub", "stream-changes"} <= {t.name for t in threading.enumerate()}
        session.act({"type": "opening", "white": 4, "black": 2})
        for w in watchers:
            state = w.state()
            while state["match"]["phase"] == "opening":
                state = w.state()
            assert state["match"]["dice"] == [4, 2]
    finally:
        for w in watchers:
            w.close()


def test_one_watcher_more_than_the_cap_is_refused_and_a_leaving_one_frees_a_place(
    served: tuple[Session, PageServer],
) -> None:
    _, server = served
    watchers = [Watcher(server.port) for _ in range(3)]
    refused = Watcher(server.port)
    assert refused.status == 503
    assert re.search(r"^Retry-After: \d+\r?$", refused.headers, re.M)
    body = refused.body().decode()
    assert body.strip().count("\n") == 0 and "too many live watchers" in json.loads(body)["error"]
    refused.close()
    watchers[0].close()
    assert eventually(lambda: server.hub.watching == 2)
    again = Watcher(server.port)
    assert again.status == 200 and again.state()["match"]["phase"] == "opening"
    for w in [*watchers[1:], again]:
        w.close()
    assert eventually(lambda: server.hub.watching == 0)


def test_a_watcher_that_logs_out_elsewhere_stops_being_shown_the_controls(
    served: tuple[Session, PageServer],
) -> None:
    import http.client

    session, server = served
    web = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    web.request("GET", "/")
    page = web.getresponse()
    cookie = page.getheader("Set-Cookie", "").split(";", 1)[0]
    found = re.search(r'name="csrf-token" content="([^"]+)"', page.read().decode())
    assert found
    headers = {"Content-Type": "application/json", "X-CSRF-Token": found[1], "Cookie": cookie}

    def post(url: str, body: dict[str, Any]) -> int:
        web.request("POST", url, json.dumps(body), headers)
        r = web.getresponse()
        r.read()
        if r.getheader("Set-Cookie"):
            headers["Cookie"] = r.getheader("Set-Cookie", "").split(";", 1)[0]
        return r.status

    assert post("/api/login", {"pin": PIN}) == 200
    watcher = Watcher(server.port, headers["Cookie"])
    try:
        assert watcher.state()["control"] is True
        assert post("/api/logout", {}) == 200
        session.act({"type": "opening", "white": 4, "black": 2})
        state = watcher.state()
        while state["match"]["phase"] == "opening":
            state = watcher.state()
        assert state["control"] is False
    finally:
        watcher.close()
        web.close()


class Changes:
    """A session's version and change signal, without a match behind them."""

    def __init__(self) -> None:
        self.version = 0
        self.changed = threading.Condition()
        self.stop = threading.Event()

    def bump(self) -> None:
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def wait_change(self, version: int, timeout: float) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.version != version, timeout)
            return self.version


def read_states(sock: socket.socket, until_version: int, timeout: float = 5.0) -> list[int]:
    """The versions of the states read from a hub's stream, up to `until_version`."""
    sock.settimeout(timeout)
    buffer, versions = b"", []
    while not versions or versions[-1] < until_version:
        data = sock.recv(1 << 20)
        assert data, "the stream ended"
        buffer += data
        *blocks, buffer = buffer.split(b"\n\n")
        versions += [
            json.loads(b.split(b"data: ", 1)[1])["version"] for b in blocks if b"data:" in b
        ]
    return versions


def test_a_slow_watcher_gets_the_newest_state_not_every_one() -> None:
    changes = Changes()
    big = "x" * 200_000  # states larger than the socket's buffers

    def render() -> dict[str, Any]:
        return {"version": changes.version, "padding": big}

    hub = StreamHub(render, changes.wait_change, changes.stop, limit=5, keepalive_s=5)
    mine, theirs = socket.socketpair()
    assert hub.reserve()
    hub.adopt(mine, Watch(lambda: False))
    try:
        for _ in range(30):  # 30 changes while the watcher reads nothing
            changes.bump()
            time.sleep(0.01)
        versions = read_states(theirs, 30)
        assert versions[-1] == 30
        assert len(versions) < 10, versions  # the ones it could not take were skipped
        assert versions == sorted(versions)
    finally:
        hub.close()
        theirs.close()


def test_a_state_that_cannot_be_built_does_not_end_the_streams() -> None:
    changes = Changes()
    broken = {1}

    def render() -> dict[str, Any]:
        if changes.version in broken:
            raise ValueError("the match file is busy")
        return {"version": changes.version}

    hub = StreamHub(render, changes.wait_change, changes.stop, limit=5, keepalive_s=5)
    mine, theirs = socket.socketpair()
    assert hub.reserve()
    hub.adopt(mine, Watch(lambda: False))
    try:
        assert read_states(theirs, 0) == [0]
        changes.bump()  # version 1 fails to build
        assert eventually(lambda: len(hub.problems) == 1)
        changes.bump()
        assert read_states(theirs, 2) == [2]
    finally:
        hub.close()
        theirs.close()
    assert hub.watching == 0  # closing the hub gave every place back
