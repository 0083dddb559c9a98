"""Live streams without a thread per watcher, and the page's server that hands them over.

The page's server (`PageServer`, werkzeug's threaded server) gives each request a thread
for as long as the request lasts. A live stream (Server-Sent Events on `/api/stream`)
lasts as long as a page is open, so a thread each let a room of phones slow the table:
500 watchers were 509 threads, each building the whole state on every change. Here the
stream's request goes through the app as any other (the cap, who holds the controls);
then the server answers its headers and hands the connection to one `StreamHub` thread,
which builds the state once per change and writes it to every watcher without blocking.
A watcher too slow to take a state gets only the newest one when it can take more; one
that takes nothing for `stall_s` is dropped (its browser reconnects if it is still there).

Outside this server (Flask's test client, another WSGI server) the app streams with a
generator per watcher, as before, under the same cap.
"""

from __future__ import annotations

import contextlib
import json
import resource
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

STREAM_PATH = "/api/stream"
HUB_KEY = "bgcompanion.stream_hub"  # environ: a hub that can take this request's connection
ADOPT_KEY = "bgcompanion.stream_watch"  # environ, set by the view: hand it over, as this Watch
KEEPALIVE = b": keepalive\n\n"


@dataclass(frozen=True)
class Watch:
    """What the hub needs to know of one watcher: whether it holds the controls now
    (asked at every push, so that logging out shows at once)."""

    control: Callable[[], bool]


def event(state: dict[str, Any], control: bool) -> bytes:
    """One state as a Server-Sent Event."""
    data = json.dumps({**state, "control": control})
    return f"id: {state.get('version', 0)}\nevent: state\ndata: {data}\n\n".encode()


@dataclass(eq=False)
class _Watcher:
    sock: socket.socket
    watch: Watch
    out: bytearray = field(default_factory=bytearray)  # being sent
    newest: bytes | None = None  # the state to send when `out` is done (older ones dropped)
    version: int | None = None  # of the last state queued
    moved: float = field(default_factory=time.monotonic)  # the last time it took bytes
    writing: bool = False  # registered for EVENT_WRITE


class StreamHub:
    """Every live watcher of one page, served by one thread (plus one that waits for
    changes). `reserve()` a place first; `adopt()` then takes a connection whose response
    headers are sent. Places are counted for the generator streams too (`release()`)."""

    def __init__(
        self,
        render: Callable[[], dict[str, Any]],
        wait_change: Callable[[int, float], int],
        stopped: threading.Event,
        *,
        limit: int,
        keepalive_s: float = 15.0,
        stall_s: float = 60.0,
    ) -> None:
        self.render = render
        self.wait_change = wait_change
        self.stopped = stopped
        self.limit = limit
        self.keepalive_s = keepalive_s
        self.stall_s = stall_s
        self._places = 0
        self.problems: deque[str] = deque(maxlen=20)  # states that could not be built
        self._lock = threading.Lock()
        self._arrived: list[_Watcher] = []
        self._watchers: list[_Watcher] = []
        self._latest = 0  # the session's version as last heard
        self._closing = threading.Event()
        self._threads: list[threading.Thread] = []
        self._sel: selectors.BaseSelector | None = None
        self._wake_r: socket.socket | None = None
        self._wake_w: socket.socket | None = None

    # --- places ---------------------------------------------------------------------------
    def reserve(self) -> bool:
        """Take a watcher's place; False when all `limit` are taken."""
        with self._lock:
            if self._places >= self.limit:
                return False
            self._places += 1
            return True

    def release(self) -> None:
        with self._lock:
            self._places = max(0, self._places - 1)

    @property
    def watching(self) -> int:
        """Places taken now (streams open, or being opened)."""
        with self._lock:
            return self._places

    # --- connections ------------------------------------------------------------------------
    def adopt(self, sock: socket.socket, watch: Watch) -> None:
        """Serve this connection from now on (its place reserved, its headers sent)."""
        sock.setblocking(False)
        with self._lock:
            if self._closing.is_set() or self.stopped.is_set():
                sock.close()
                self._places = max(0, self._places - 1)
                return
            self._start()
            self._arrived.append(_Watcher(sock, watch))
        self._wake()

    def close(self) -> None:
        """Stop serving: every stream is closed (browsers reconnect when a page is back)."""
        self._closing.set()
        self._wake()
        for t in self._threads:
            if t.name == "stream-hub":  # the other ends at its next wait (a daemon)
                t.join(timeout=5)

    def _start(self) -> None:
        if self._threads:
            return
        self._sel = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._sel.register(self._wake_r, selectors.EVENT_READ, None)
        self._threads = [
            threading.Thread(target=self._listen, daemon=True, name="stream-changes"),
            threading.Thread(target=self._serve, daemon=True, name="stream-hub"),
        ]
        for t in self._threads:
            t.start()

    def _wake(self) -> None:
        wake = self._wake_w
        if wake is not None:
            with contextlib.suppress(OSError):  # full (a wake-up is on its way) or closed
                wake.send(b"x")

    def _listen(self) -> None:
        """Wait for the session's changes; wake the hub for each."""
        version = -1
        while not self._closing.is_set() and not self.stopped.is_set():
            now = self.wait_change(version, self.keepalive_s)
            if now != version:
                version = self._latest = now
                self._wake()
        self._wake()

    # --- the hub's thread ---------------------------------------------------------------
    def _serve(self) -> None:
        assert self._sel is not None
        sel = self._sel
        heard = -1
        beat = time.monotonic()
        try:
            while not self._closing.is_set() and not self.stopped.is_set():
                wait = max(0.0, beat + self.keepalive_s - time.monotonic())
                for key, mask in sel.select(wait):
                    if key.data is None:
                        self._drain_wake()
                        continue
                    w: _Watcher = key.data
                    if mask & selectors.EVENT_READ:
                        self._hear(w)
                    if mask & selectors.EVENT_WRITE and w in self._watchers:
                        self._flush(w)
                with self._lock:
                    arrived, self._arrived = self._arrived, []
                for w in arrived:
                    sel.register(w.sock, selectors.EVENT_READ, w)
                    self._watchers.append(w)
                latest = self._latest
                if arrived or latest != heard:
                    heard = latest
                    try:
                        state = self.render()
                    except Exception as e:  # one bad state must not end every stream
                        self.problems.append(f"{type(e).__name__}: {e}")
                        continue
                    self._push(state)
                if time.monotonic() - beat >= self.keepalive_s:
                    beat = time.monotonic()
                    self._beat(beat)
        finally:
            for w in list(self._watchers):
                self._drop(w)
            with self._lock:
                arrived, self._arrived = self._arrived, []
            for w in arrived:
                w.sock.close()
                self.release()
            self._closing.set()  # adopt() refuses from now on
            wake_r, wake_w, self._wake_r, self._wake_w = self._wake_r, self._wake_w, None, None
            for s in (wake_r, wake_w):
                if s is not None:
                    s.close()
            sel.close()

    def _push(self, state: dict[str, Any]) -> None:
        """The state to every watcher that has not had it (one encoding per control flag)."""
        version = state.get("version")
        encoded: dict[bool, bytes] = {}
        for w in list(self._watchers):
            if w.version == version:
                continue
            w.version = version
            control = bool(w.watch.control())
            if control not in encoded:
                encoded[control] = event(state, control)
            self._send(w, encoded[control], replaces=True)

    def _beat(self, now: float) -> None:
        """Keep idle streams open through proxies; drop watchers that take nothing."""
        for w in list(self._watchers):
            if w.out and now - w.moved > self.stall_s:
                self._drop(w)
            elif not w.out:
                self._send(w, KEEPALIVE, replaces=False)

    def _send(self, w: _Watcher, data: bytes, *, replaces: bool) -> None:
        if w.out:
            if replaces:
                w.newest = data  # the older state waiting is of no use any more
            return
        w.out += data
        self._flush(w)

    def _flush(self, w: _Watcher) -> None:
        while w.out:
            try:
                sent = w.sock.send(w.out)
            except BlockingIOError:
                break
            except OSError:
                self._drop(w)
                return
            del w.out[:sent]
            w.moved = time.monotonic()
            if not w.out and w.newest is not None:
                w.out += w.newest
                w.newest = None
        self._want_write(w, bool(w.out))

    def _want_write(self, w: _Watcher, want: bool) -> None:
        if want != w.writing and self._sel is not None:
            w.writing = want
            mask = selectors.EVENT_READ | (selectors.EVENT_WRITE if want else 0)
            self._sel.modify(w.sock, mask, w)

    def _hear(self, w: _Watcher) -> None:
        """A watcher sends nothing after its request: readable means it has gone."""
        try:
            data = w.sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop(w)

    def _drop(self, w: _Watcher) -> None:
        if w not in self._watchers:
            return
        self._watchers.remove(w)
        if self._sel is not None:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._sel.unregister(w.sock)
        w.sock.close()
        self.release()

    def _drain_wake(self) -> None:
        wake = self._wake_r
        with contextlib.suppress(OSError):
            while wake is not None and wake.recv(4096):
                pass


class _Handler(WSGIRequestHandler):
    """werkzeug's handler, but a live stream's connection outlives its request: after the
    app has let it in, the headers are sent here and the connection goes to the hub."""

    server: PageServer

    def run_wsgi(self) -> None:
        if self.command != "GET" or urlsplit(self.path).path != STREAM_PATH:
            super().run_wsgi()
            return
        hub = self.server.hub
        self.environ = environ = self.make_environ()
        environ[HUB_KEY] = hub
        answer: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc: Any = None) -> Any:
            answer[:] = [status, headers]
            return lambda data: None

        body_parts = self.server.app(environ, start_response)
        try:
            body = b"".join(body_parts)
        finally:
            close = getattr(body_parts, "close", None)
            if close is not None:
                close()
        watch = environ.get(ADOPT_KEY)
        status, headers = answer
        code, _, reason = status.partition(" ")
        try:
            self.send_response(int(code), reason)
            for key, value in headers:
                if key.lower() not in ("content-length", "connection", "transfer-encoding"):
                    self.send_header(key, value)
            if watch is None:  # refused: an ordinary answer
                self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
        except OSError:
            if watch is not None:
                hub.release()
            return
        if watch is not None:
            self.server.hand_over(self.connection, watch)


class PageServer(ThreadedWSGIServer):
    """The page's HTTP server: a thread per request, one thread for all live streams."""

    def __init__(self, host: str, port: int, app: Flask) -> None:
        super().__init__(host, port, app, handler=_Handler)
        self.hub: StreamHub = app.extensions["bg_hub"]
        self._handed: set[socket.socket] = set()
        self._handed_lock = threading.Lock()

    def hand_over(self, connection: socket.socket, watch: Watch) -> None:
        """The hub gets its own descriptor of the connection; this one is closed as usual,
        but not shut down (which would end the connection for both)."""
        try:
            own = connection.dup()
        except OSError:
            self.hub.release()
            return
        with self._handed_lock:
            self._handed.add(connection)
        self.hub.adopt(own, watch)

    def shutdown_request(self, request: Any) -> None:
        with self._handed_lock:
            handed = request in self._handed
            self._handed.discard(request)
        if handed:
            self.close_request(request)
        else:
            super().shutdown_request(request)

    def shutdown(self) -> None:
        super().shutdown()
        self.hub.close()


def make_page_server(host: str, port: int, app: Flask) -> PageServer:
    """The page's server on host:port; raises the open-files limit (when allowed) so that
    the cap on live watchers, not the system, is what refuses one."""
    hub: StreamHub = app.extensions["bg_hub"]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hub.limit + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    return PageServer(host, port, app)
