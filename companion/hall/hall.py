"""The hall: every table's state and events as heard from the broker, checked.

`Hall.receive(topic, payload)` is the whole intake, with no broker in it (the unit tests
call it directly): a message that does not parse, comes from a topic outside the
tables' layout, or claims another table than its topic's is dropped and counted by
reason, never shown. Events are kept once each, in each table's order: one whose id
`(match, seq)` is not past the table's last is a duplicate (a resend after an outage)
and is dropped; one that skips ids counts the gap as missing. What needs a person (a
reroll or illegal play called, a fix asked for, the cube unit or camera missing, a
table gone quiet or offline, events missing) is an alert until the director
acknowledges it; a new occurrence is a new alert.

`HallListener` subscribes with a persistent session (clean_session false, a fixed
client id): while the hall is away the broker keeps its events for it.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from companion.hall.wire import Broker, Credentials, Dropped, Message, parse_message, text

STALE_S = 30.0  # a table not heard from for this long is an alert
RECENT = 12  # events kept whole per table, for its card
LATENCIES = 200_000  # event latencies kept for the statistics


@dataclass
class Alert:
    key: str
    kind: str
    text: str
    ident: str
    since: float


@dataclass
class TableView:
    table: str
    state: dict[str, Any] | None = None
    state_heard: float | None = None
    online: bool | None = None
    # every event kept, in order, as runs [match, first seq, last seq] (a day's events in
    # a few numbers a match, not a tuple each)
    runs: list[list[int]] = field(default_factory=list)
    count: int = 0
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT))
    heard: float | None = None  # the last event's arrival (the hall's clock)
    missing: int = 0
    duplicates: int = 0
    names: dict[int, dict[str, str]] = field(default_factory=dict)  # per match
    alerts: dict[str, Alert] = field(default_factory=dict)  # per kind

    @property
    def last(self) -> tuple[int, int] | None:
        return (self.runs[-1][0], self.runs[-1][2]) if self.runs else None

    def add(self, key: tuple[int, int]) -> None:
        last = self.runs[-1] if self.runs else None
        if last is not None and last[0] == key[0] and last[2] + 1 == key[1]:
            last[2] = key[1]
        else:
            self.runs.append([key[0], key[1], key[1]])
        self.count += 1

    def ids(self) -> list[tuple[int, int]]:
        return [(m, seq) for m, first, last in self.runs for seq in range(first, last + 1)]


class Hall:
    """Every table heard from; thread-safe (the broker's thread writes, pages read)."""

    def __init__(self, stale_s: float = STALE_S, min_push_s: float = 0.2) -> None:
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.stop = threading.Event()
        self.tables: dict[str, TableView] = {}
        self.dropped: Counter[str] = Counter()
        self.last_dropped: deque[str] = deque(maxlen=10)
        self.results: dict[tuple[str, int], dict[str, Any]] = {}
        self.acknowledged: set[str] = set()
        self.latencies: deque[float] = deque(maxlen=LATENCIES)
        self.received = 0
        self.status = "not connected"
        self.stale_s = stale_s
        self.min_push_s = min_push_s
        self._told = 0.0
        self._serial = 0

    # --- intake ----------------------------------------------------------------------------
    def receive(self, topic: str, payload: bytes, now: float | None = None) -> bool:
        """One message from the broker; whether it was taken (else it was counted)."""
        now = time.time() if now is None else now
        try:
            message = parse_message(topic, payload)
        except Dropped as e:
            with self.changed:
                self.dropped[e.reason] += 1
                self.last_dropped.append(str(e)[:200])
                self._bump()
            return False
        with self.changed:
            self.received += 1
            view = self.tables.get(message.table)
            if view is None:
                view = self.tables[message.table] = TableView(message.table)
            try:
                taken = self._take(view, message, now)
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                # a message that passed the checks but still cannot be used: counted
                self.dropped["unusable"] += 1
                self.last_dropped.append(f"unusable: {type(e).__name__}: {e}"[:200])
                taken = False
            self._bump()
            return taken

    def _take(self, view: TableView, message: Message, now: float) -> bool:
        doc = message.doc
        if message.kind == "online":
            view.online = bool(doc["online"])
            self._update_alerts(view, now)
            return True
        if message.kind == "state":
            view.state, view.state_heard = doc, now
            if doc.get("phase") == "match_over" and isinstance(doc.get("winner"), str):
                self._result(view, int(doc["match"]), doc, now)
            self._update_alerts(view, now)
            return True
        key = (int(doc["match"]), int(doc["seq"]))
        last = view.last
        if last is not None and key <= last:
            view.duplicates += 1
            return False
        if last is None:
            pass  # the first heard from this table (a hall started late, or restarted)
        elif key[0] != last[0]:
            view.missing += key[1]  # a match's events start at 0 (match_created)
        else:
            view.missing += key[1] - last[1] - 1
        view.add(key)
        view.heard = now
        record = doc["event"]
        view.recent.append(
            {"match": key[0], "seq": key[1], "type": doc["type"], "at": doc["at"], "heard": now}
        )
        self.latencies.append(now - _wall(doc["at"], now))
        if doc["type"] == "match_created":
            rules = _obj(record, "rules")
            view.names[key[0]] = {
                "white": text(rules.get("white", "White"), 60),
                "black": text(rules.get("black", "Black"), 60),
            }
        elif doc["type"] == "match_over":
            self._result(view, key[0], record, now)
        self._update_alerts(view, now)
        return True

    def _result(self, view: TableView, match: int, doc: dict[str, Any], now: float) -> None:
        if (view.table, match) in self.results:
            return
        names = view.names.get(match) or _names(view.state or {})
        score = _obj(doc, "score")
        winner = doc.get("winner")
        self.results[(view.table, match)] = {
            "table": view.table,
            "match": match,
            "names": names,
            "score": {c: score.get(c) if isinstance(score.get(c), int) else None for c in names},
            "winner": winner if winner in ("white", "black") else None,
            "winner_name": names.get(str(winner), "?"),
            "at": now,
        }

    # --- alerts ------------------------------------------------------------------------------
    def _update_alerts(self, view: TableView, now: float) -> None:
        """Alerts as the table's state and events show them; one that stands keeps its
        key (so an acknowledgement holds), one that is new gets a new key."""
        found: dict[str, tuple[str, str]] = {}  # kind -> (text, ident)
        state: dict[str, Any] = view.state or {}
        call = state.get("call")
        if isinstance(call, dict):
            kind = "illegal_play" if call.get("type") == "illegal_play" else "reroll"
            detail = call.get("play") or ", ".join(map(str, call.get("reasons") or []))
            label = "illegal play" if kind == "illegal_play" else "reroll"
            found[kind] = (f"{label}: {text(detail, 80)}" if detail else label, _ident(call))
        fix = state.get("fix")
        if isinstance(fix, dict):
            found["needs_fix"] = (f"needs a fix: {text(fix.get('why', ''), 100)}", _ident(fix))
        health = _obj(state, "health")
        if health.get("cube_missing") is True:
            found["cube_missing"] = ("cube unit missing", "")
        if health.get("camera_error"):
            found["camera"] = (f"camera: {text(health['camera_error'], 100)}", "")
        if health.get("moved") is True:
            found["moved"] = ("the board or camera has moved: calibrate again", "")
        if view.online is False:
            found["offline"] = ("offline", "")
        if view.missing:
            found["missing"] = (f"{view.missing} events missing", "")
        for kind in list(view.alerts):
            if kind not in found or found[kind][1] != view.alerts[kind].ident:
                del view.alerts[kind]
        for kind, (label, ident) in found.items():
            if kind in view.alerts:
                view.alerts[kind].text = label
            else:
                self._serial += 1
                key = f"{view.table}:{kind}:{self._serial}"
                view.alerts[kind] = Alert(key, kind, label, ident, now)

    def acknowledge(self, table: str, key: str) -> bool:
        """The director has seen this alert: it leaves the top of the page."""
        with self.changed:
            view = self.tables.get(table)
            quiet = key.startswith(f"{table}:quiet:")
            if view is None or not (quiet or any(a.key == key for a in view.alerts.values())):
                return False
            self.acknowledged.add(key)
            self._bump()
            return True

    # --- what the page shows -----------------------------------------------------------------
    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    def wait_change(self, version: int, timeout: float) -> int:
        """Block until the version moves past `version` (or timeout); at most one answer
        every `min_push_s`, so a busy hall is drawn a few times a second, not per message."""
        wait = self._told + self.min_push_s - time.monotonic()
        if wait > 0:
            self.stop.wait(wait)
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or self.stop.is_set(), timeout)
            self._told = time.monotonic()
            return self.version

    def view(self, now: float | None = None) -> dict[str, Any]:
        now = time.time() if now is None else now
        with self.lock:
            cards = [self._card(v, now) for v in self.tables.values()]
            cards.sort(key=lambda c: (not c["alerts"], _table_order(c["table"])))
            return {
                "version": self.version,
                "now": now,
                "status": self.status,
                "tables": cards,
                "attention": sum(1 for c in cards if c["alerts"]),
                "results": sorted(self.results.values(), key=lambda r: -float(r["at"])),
                "dropped": dict(self.dropped),
                "dropped_total": sum(self.dropped.values()),
                "events": sum(v.count for v in self.tables.values()),
            }

    def _card(self, view: TableView, now: float) -> dict[str, Any]:
        state: dict[str, Any] = view.state or {}
        alerts = [a for a in view.alerts.values() if a.key not in self.acknowledged]
        heard = max(x for x in (view.heard, view.state_heard, 0.0) if x is not None)
        if heard and now - heard > self.stale_s and view.online is not False:
            key = f"{view.table}:quiet:{int(heard)}"
            if key not in self.acknowledged:
                alerts.append(Alert(key, "quiet", "not heard from", "", heard))
        last = view.recent[-1] if view.recent else None
        cube = _obj(state, "cube")
        return {
            "table": view.table,
            "online": view.online,
            "names": _names(state) if state else view.names.get(max(view.names, default=0), {}),
            "score": _score(state.get("score")),
            "length": state.get("length") if isinstance(state.get("length"), int) else None,
            "cube": {
                "value": cube.get("value") if isinstance(cube.get("value"), int) else 1,
                "owner": text(cube.get("owner") or "", 10),
                "offered": cube.get("offered") is True,
            },
            "crawford": state.get("crawford") is True,
            "phase": text(state.get("phase") or "", 20),
            "turn": text(state.get("turn") or "", 10),
            "dice": state.get("dice") if _dice(state.get("dice")) else None,
            "position_id": text(state.get("position_id") or "", 20),
            "page": _page(state.get("page")),
            "last": {"type": text(last["type"], 30), "heard": last["heard"]} if last else None,
            "heard": heard or None,
            "events": view.count,
            "missing": view.missing,
            "alerts": [{"key": a.key, "kind": a.kind, "text": a.text} for a in alerts],
        }

    # --- what tests and the benchmark ask -----------------------------------------------------
    def event_ids(self, table: str) -> list[tuple[int, int]]:
        with self.lock:
            view = self.tables.get(table)
            return view.ids() if view else []

    def stats(self) -> dict[str, Any]:
        with self.lock:
            lat = sorted(self.latencies)
            return {
                "tables": len(self.tables),
                "events": sum(v.count for v in self.tables.values()),
                "duplicates": sum(v.duplicates for v in self.tables.values()),
                "missing": sum(v.missing for v in self.tables.values()),
                "received": self.received,
                "dropped": dict(self.dropped),
                "latency_s": {
                    "p50": _pct(lat, 0.5),
                    "p95": _pct(lat, 0.95),
                    "max": lat[-1] if lat else None,
                },
            }


def _obj(doc: dict[str, Any], key: str) -> dict[str, Any]:
    """doc[key] if it is an object, else an empty one (messages are checked loosely)."""
    value = doc.get(key)
    return value if isinstance(value, dict) else {}


def _pct(values: list[float], q: float) -> float | None:
    return round(values[min(len(values) - 1, int(q * len(values)))], 4) if values else None


def _wall(at: str, default: float) -> float:
    """A stored event's time (`2026-11-25T04:00:00.123Z`) as seconds since the epoch."""
    import calendar

    try:
        whole, _, ms = at.rstrip("Z").partition(".")
        return calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) + int(ms or 0) / 1000
    except ValueError:
        return default


def _ident(doc: dict[str, Any]) -> str:
    return hashlib.sha1(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:12]


def _names(state: dict[str, Any]) -> dict[str, str]:
    names = _obj(state, "names")
    return {c: text(names.get(c, c.title()), 60) for c in ("white", "black")}


def _score(score: object) -> dict[str, int | None]:
    s = score if isinstance(score, dict) else {}
    return {c: s.get(c) if isinstance(s.get(c), int) else None for c in ("white", "black")}


def _dice(dice: object) -> bool:
    return isinstance(dice, list) and len(dice) == 2 and all(isinstance(d, int) for d in dice)


def _page(url: object) -> str | None:
    """A table's page address, if it is a plain http(s) one (never javascript: and such)."""
    if isinstance(url, str) and url.startswith(("http://", "https://")) and len(url) < 200:
        return url
    return None


def _table_order(table: str) -> tuple[int, str]:
    return (int(table), "") if table.isdigit() else (1 << 30, table)


class HallListener:
    """The hall's subscription: every table's topics, into `hall.receive`."""

    def __init__(
        self,
        hall: Hall,
        broker: Broker,
        credentials: Credentials | None = None,
        client_id: str = "bgcompanion-hall",
    ) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.hall = hall
        self.broker = broker
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        if credentials is not None:
            self.client.username_pw_set(credentials.username, credentials.password)
        self.client.reconnect_delay_set(1, 2)  # a broker back is seen within 2 s
        self.client.max_queued_messages_set(0)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.connected = threading.Event()

    def start(self) -> None:
        self.hall.status = "connecting"
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self._set_status(f"refused ({reason})")
            return
        client.subscribe("bgcompanion/#", qos=1)
        self._set_status("connected")
        self.connected.set()

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self.connected.clear()
        self._set_status(f"down ({reason}); reconnecting")

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            name = message.topic
        except UnicodeDecodeError:
            name = "(not UTF-8)"
        self.hall.receive(name, bytes(message.payload))

    def _set_status(self, status: str) -> None:
        with self.hall.changed:
            self.hall.status = status
            self.hall._bump()
