"""A table's publisher: its match file's events and its state, to the hall's broker.

The match file stays the source of truth. One thread of its own reads the events
after the last one the broker acknowledged (a mark kept in the match file, table
`hall_marks`), publishes them in order at QoS 1 with their id `(match, seq)`, and moves
the mark as the broker's acknowledgements come back, in order. A broker that is down,
slow or refusing never holds up the referee or the page: they only `notify()` (a
wake-up); the events wait in the file. After an outage, or a restart of the table, the
publisher resends from the mark: nothing is lost, and what was in flight when the
connection broke may come twice, which subscribers drop by its id.

Each connection is a fresh client (the same code path as a restart): no message is
kept in the client between connections.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.hall.wire import (
    Broker,
    Credentials,
    event_message,
    online_message,
    state_message,
    topic,
)

MARKS = """
CREATE TABLE IF NOT EXISTS hall_marks (
    target TEXT PRIMARY KEY,
    match_id INTEGER NOT NULL,
    seq INTEGER NOT NULL
) WITHOUT ROWID;
"""
Mark = tuple[int, int]  # (match_id, seq) of the last event the broker acknowledged


class Publisher:
    """Publishes one table's match file to the broker, from a thread of its own."""

    def __init__(
        self,
        db: str | Path,
        table: str,
        broker: Broker,
        credentials: Credentials | None = None,
        state: Callable[[], dict[str, Any]] | None = None,
        *,
        window: int = 100,
        heartbeat_s: float = 10.0,
        state_every_s: float = 0.25,
        retry_s: tuple[float, float] = (0.2, 2.0),
        connect_timeout_s: float = 5.0,
    ) -> None:
        self.db_path = Path(db)
        self.table = table
        self.broker = broker
        self.credentials = credentials
        self.state = state
        self.window = window
        self.heartbeat_s = heartbeat_s
        self.state_every_s = state_every_s
        self.retry_s = retry_s
        self.connect_timeout_s = connect_timeout_s
        self.target = f"{table}@{broker.host}:{broker.port}"
        self.status = "not started"  # connecting, connected, refused (...), down (...)
        self.sent = 0  # event messages handed to the broker (resends included)
        self.problems: deque[str] = deque(maxlen=20)
        self._wake = threading.Condition()
        self._news = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._connected = False
        self._refused: str | None = None
        self._db: sqlite3.Connection | None = None
        self.mark: Mark = (0, -1)
        self._state_sent = 0.0

    # --- what the table calls --------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"hall-{self.table}")
        self._thread.start()

    def notify(self, events: object = None) -> None:
        """Something was recorded or changed: look again (never blocks on the broker;
        takes `Session.listeners`' argument and ignores it: the file says what is new)."""
        with self._wake:
            self._news = True
            self._wake.notify()

    def close(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self.notify()
        if self._thread is not None:
            self._thread.join(timeout)

    # --- the thread ---------------------------------------------------------------------
    def _run(self) -> None:
        self._db = sqlite3.connect(self.db_path, timeout=10, isolation_level=None)
        self._db.execute("PRAGMA synchronous=NORMAL")  # the mark: a lost one means a resend
        self._db.executescript(MARKS)
        row = self._db.execute(
            "SELECT match_id, seq FROM hall_marks WHERE target = ?", (self.target,)
        ).fetchone()
        self.mark = (int(row[0]), int(row[1])) if row else (0, -1)
        delay = self.retry_s[0]
        try:
            while not self._stop.is_set():
                client = self._connect()
                if client is not None:
                    delay = self.retry_s[0]
                    try:
                        self._serve(client)
                    except (sqlite3.Error, OSError, ValueError, RuntimeError) as e:
                        # the thread lives on: the events wait in the file, sent from the mark
                        self.problems.append(f"{type(e).__name__}: {e}")
                    finally:
                        self._disconnect(client)
                if not self._stop.is_set():
                    self._stop.wait(delay)
                    delay = min(self.retry_s[1], delay * 2)
        finally:
            self._db.close()

    def _connect(self) -> mqtt.Client | None:
        self.status = "connecting"
        self._connected, self._refused = False, None
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"bgcompanion-table-{self.table}",
            clean_session=True,
            protocol=mqtt.MQTTv311,
        )
        if self.credentials is not None:
            client.username_pw_set(self.credentials.username, self.credentials.password)
        client.will_set(topic(self.table, "online"), online_message(self.table, False), 1, True)
        client.max_inflight_messages_set(self.window + 4)
        client.max_queued_messages_set(0)
        client.connect_timeout = self.connect_timeout_s
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        try:
            client.connect(self.broker.host, self.broker.port, keepalive=10)
        except (OSError, ValueError) as e:
            self.status = f"down ({e})"
            return None
        client.loop_start()
        deadline = time.monotonic() + self.connect_timeout_s
        with self._wake:
            self._wake.wait_for(
                lambda: self._connected or self._refused is not None or self._stop.is_set(),
                max(0.0, deadline - time.monotonic()),
            )
        if not self._connected:
            self.status = f"refused ({self._refused})" if self._refused else "down (no answer)"
            self._disconnect(client)
            return None
        self.status = "connected"
        return client

    def _disconnect(self, client: mqtt.Client) -> None:
        if self._connected and self._stop.is_set():
            info = client.publish(
                topic(self.table, "online"), online_message(self.table, False), 1, True
            )
            info.wait_for_publish(1.0)
        client.disconnect()
        client.loop_stop()
        self._connected = False

    def _serve(self, client: mqtt.Client) -> None:
        """Publish from the mark on, and the state, until the connection or the table ends."""
        client.publish(topic(self.table, "online"), online_message(self.table, True), 1, True)
        inflight: deque[tuple[mqtt.MQTTMessageInfo, Mark]] = deque()
        sent_upto = self.mark
        last_state: str | None = None
        state_at = 0.0
        while self._connected and not self._stop.is_set():
            # the acknowledged prefix moves the mark
            moved = False
            while inflight and _acknowledged(inflight[0][0]):
                self.mark = inflight.popleft()[1]
                moved = True
            if moved:
                self._save_mark()
            more = self.window - len(inflight)
            rows = self._after(sent_upto, more) if more > 0 else []
            for match_id, seq, kind, payload, at in rows:
                info = client.publish(
                    topic(self.table, "event"),
                    event_message(self.table, match_id, seq, kind, _record(kind, payload), at),
                    qos=1,
                )
                if info.rc != mqtt.MQTT_ERR_SUCCESS:
                    return  # the connection broke under it: reconnect, resend from the mark
                inflight.append((info, (match_id, seq)))
                sent_upto = (match_id, seq)
                self.sent += 1
            now = time.monotonic()
            if self.state is not None and now - state_at >= self.state_every_s:
                last_state, state_at = self._publish_state(client, last_state, now, state_at)
            with self._wake:
                if not self._news and len(rows) < max(more, 1):
                    self._wake.wait(min(self.state_every_s, 1.0))
                self._news = False

    def _publish_state(
        self, client: mqtt.Client, last: str | None, now: float, sent_at: float
    ) -> tuple[str | None, float]:
        """The state, when it changed or the heartbeat is due (retained)."""
        assert self.state is not None
        try:
            state = self.state()
        except Exception as e:  # a state that cannot be built must not stop the events
            self.problems.append(f"state: {type(e).__name__}: {e}")
            return last, now
        digest = hashlib.sha1(repr(sorted(state.items())).encode()).hexdigest()
        if digest == last and now - self._state_sent < self.heartbeat_s:
            return last, now
        payload = state_message(self.table, {**state, "at": round(time.time(), 3)})
        client.publish(topic(self.table, "state"), payload, qos=1, retain=True)
        self._state_sent = now
        return digest, now

    def _after(self, mark: Mark, limit: int) -> list[tuple[int, int, str, str, str]]:
        assert self._db is not None
        match_id, seq = mark
        rows = self._db.execute(
            "SELECT match_id, seq, type, payload, at FROM events "
            "WHERE match_id > ? OR (match_id = ? AND seq > ?) ORDER BY match_id, seq LIMIT ?",
            (match_id, match_id, seq, limit),
        ).fetchall()
        return [(int(m), int(s), str(t), str(p), str(a)) for m, s, t, p, a in rows]

    def _save_mark(self) -> None:
        assert self._db is not None
        try:
            self._db.execute(
                "INSERT INTO hall_marks (target, match_id, seq) VALUES (?, ?, ?) "
                "ON CONFLICT(target) DO UPDATE SET "
                "match_id = excluded.match_id, seq = excluded.seq",
                (self.target, *self.mark),
            )
        except sqlite3.OperationalError as e:  # busy: the next acknowledgement saves it
            self.problems.append(f"mark: {e}")

    # --- the client's callbacks (its network thread: only flags and a wake-up) ---------
    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        with self._wake:
            if reason.is_failure:
                self._refused = str(reason)
            else:
                self._connected = True
            self._wake.notify()

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        with self._wake:
            self._connected = False
            if not self._stop.is_set():
                self.status = f"down ({reason})"
            self._wake.notify()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        with self._wake:
            self._news = True
            self._wake.notify()


def _acknowledged(info: mqtt.MQTTMessageInfo) -> bool:
    """Whether the broker acknowledged it (a message the client could not send is not:
    it goes again, from the mark, on the next connection)."""
    try:
        return info.is_published()
    except (RuntimeError, ValueError):
        return False


def _record(kind: str, payload: str) -> dict[str, Any]:
    """A stored event's record as sent (a damaged row is sent as its type alone)."""
    import json

    try:
        doc = json.loads(payload)
    except ValueError:
        doc = None
    return doc if isinstance(doc, dict) and doc.get("type") == kind else {"type": kind}


def session_state(session: Any, page: str | None = None) -> dict[str, Any]:
    """What the hall shows of a live table (`companion.session.Session`): names, score,
    length, cube, Crawford, Position ID, whose turn, the standing call and fix, health."""
    from companion.rules import position_id

    with session.lock:
        full = session.state()
        position = position_id(session.match().position)
    match = full["match"]
    health = full["health"]
    cube = str(health.get("cube", ""))
    drift = health.get("drift") or {}
    last = full["log"][-1] if full["log"] else None
    return {
        "match": full["match_id"],
        "names": full["names"],
        "length": match["length"],
        "score": match["score"],
        "cube": match["cube"],
        "crawford": match["crawford"],
        "phase": match["phase"],
        "turn": match["turn"],
        "dice": match["dice"],
        "winner": match["winner"],
        "position_id": position,
        "call": _brief(full["call"]),
        "fix": _brief(full["fix"]),
        "last": last["type"] if last else None,
        "health": {
            "source": health.get("source"),
            "cube": cube,
            "cube_missing": cube.split(" ", 1)[0] == "missing",
            "camera_error": health.get("camera_error"),
            "moved": drift.get("moved"),
        },
        "page": page,
    }


def _brief(event: dict[str, Any] | None) -> dict[str, Any] | None:
    """A call or fix as the hall needs it (no frame numbers or fits)."""
    if event is None:
        return None
    keep = ("type", "reasons", "play", "player", "why", "note", "dice", "t")
    return {k: event[k] for k in keep if k in event}
