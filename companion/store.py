"""The match record: an append-only event log in SQLite; the state is a fold of the events.

Every action (opening roll, roll, reroll, play, illegal play and its
resolution, double, beaver, take, drop, resign, correction, undo) is written
with the events it caused (game over, match over) in one transaction, in WAL
mode with synchronous=FULL, before anyone is told it happened. Nothing is
edited in place: an undo is a new event that cancels the latest action. A
restart, even after `kill -9` or a power cut, folds the events again and
resumes exactly. Several matches live in one file.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration.jsonin import BadJSON
from calibration.jsonin import loads as bounded_json
from companion.rules.errors import RulesError
from companion.rules.match import Action, Match, MatchError, MatchRules

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
"""
FORMAT_VERSION = 1
DERIVED = {"game_over", "match_over"}  # written for readers; the fold recomputes them


class StoreError(RulesError):
    """The match file cannot be used (not a database, unknown match, bad history)."""


@dataclass(frozen=True)
class Event:
    match_id: int
    seq: int
    type: str
    payload: dict[str, Any]
    at: str


def _now() -> str:
    now = time.time()  # one clock read for the seconds and the milliseconds
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"


class Store:
    """One SQLite match file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            # One connection, usable from any thread: callers that share a Store between
            # threads (the live companion) serialise their calls with a lock of their own.
            self.db = sqlite3.connect(
                self.path, isolation_level=None, timeout=10, check_same_thread=False
            )
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, FORMAT_VERSION):
                raise StoreError(
                    f"{self.path}: match file format {version} is newer than this program"
                )
            self.db.executescript(SCHEMA)
            if version != FORMAT_VERSION:  # a new file; an opened one is left byte for byte
                self.db.execute(f"PRAGMA user_version={FORMAT_VERSION}")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a bgcompanion match file ({e})") from None
        self._cache: dict[int, tuple[Match, int]] = {}

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # --- matches ----------------------------------------------------------------
    def create_match(self, rules: MatchRules) -> int:
        with self._transaction() as db:
            cur = db.execute("INSERT INTO matches (created_at) VALUES (?)", (_now(),))
            match_id = int(cur.lastrowid or 0)
            self._insert(db, match_id, 0, {"type": "match_created", "rules": rules.to_json()})
        self._cache[match_id] = (Match(rules), 0)
        return match_id

    def match_ids(self) -> list[int]:
        return [row[0] for row in self.db.execute("SELECT id FROM matches ORDER BY id")]

    def latest_match(self) -> int | None:
        ids = self.match_ids()
        return ids[-1] if ids else None

    def events(self, match_id: int) -> list[Event]:
        rows = self.db.execute(
            "SELECT seq, type, payload, at FROM events WHERE match_id = ? ORDER BY seq",
            (match_id,),
        ).fetchall()
        if not rows:
            raise StoreError(f"{self.path}: no match {match_id}")
        return [self._event(match_id, *row) for row in rows]

    def _event(self, match_id: int, seq: int, kind: Any, payload: Any, at: Any) -> Event:
        """One stored row as an Event; StoreError naming the row when it was damaged (every
        row this program writes holds a JSON object whose `type` is the row's type)."""
        where = f"{self.path}: match {match_id}, event {seq}"
        if not isinstance(payload, str | bytes):
            raise StoreError(f"{where}: the record is damaged (its payload is not text)")
        try:
            doc = bounded_json(payload)
        except BadJSON as e:
            raise StoreError(f"{where}: the record is damaged (its payload is {e})") from None
        if not isinstance(doc, dict) or doc.get("type") != kind:
            raise StoreError(
                f"{where}: the record is damaged (its payload is not a {kind!r} event)"
            )
        return Event(match_id, seq, str(kind), doc, str(at))

    # --- state -----------------------------------------------------------------
    def load(self, match_id: int) -> Match:
        """The current state: the fold of the match's events (cached while this process writes)."""
        cached = self._cache.get(match_id)
        last = self.db.execute(
            "SELECT MAX(seq) FROM events WHERE match_id = ?", (match_id,)
        ).fetchone()[0]
        if last is None:
            raise StoreError(f"{self.path}: no match {match_id}")
        if cached is not None and cached[1] == last:
            return cached[0]
        match = fold(self.events(match_id))
        self._cache[match_id] = (match, last)
        return match

    def apply(self, match_id: int, action: Action) -> list[Action]:
        """Checks `action` against the rules, then records it and what it caused.

        Raises MatchError (or another RulesError) with the reason and records
        nothing when the action is not allowed now.
        """
        if action.get("type") == "undo":
            return self.undo(match_id)
        match = self.load(match_id)
        last = self._cache[match_id][1]
        try:
            events = match.apply(action)
        except RulesError:
            self._cache.pop(match_id, None)  # the fold is the truth; refold next time
            raise
        try:
            with self._transaction() as db:
                for i, event in enumerate(events, 1):
                    self._insert(db, match_id, last + i, event)
        except BaseException:
            self._cache.pop(match_id, None)
            raise
        self._cache[match_id] = (match, last + len(events))
        return events

    def undo(self, match_id: int) -> list[Action]:
        """Cancels the latest action still in force (recorded as an `undo` event)."""
        events = self.events(match_id)
        if not _effective_actions(events):
            raise MatchError("nothing to undo")
        undo: Action = {"type": "undo"}
        with self._transaction() as db:
            self._insert(db, match_id, events[-1].seq + 1, undo)
        self._cache.pop(match_id, None)
        return [undo]

    def _insert(self, db: sqlite3.Connection, match_id: int, seq: int, event: Action) -> None:
        db.execute(
            "INSERT INTO events (match_id, seq, type, payload, at) VALUES (?, ?, ?, ?, ?)",
            (match_id, seq, event["type"], json.dumps(event, separators=(",", ":")), _now()),
        )


def _effective_events(events: list[Event]) -> list[Event]:
    """The actions in force, as their events: each undo cancels the latest one before it."""
    stack: list[Event] = []
    for event in events[1:]:
        if event.type == "undo":
            if stack:
                stack.pop()
        elif event.type not in DERIVED:
            stack.append(event)
    return stack


def _effective_actions(events: list[Event]) -> list[Action]:
    """The actions in force: each undo cancels the latest one before it."""
    return [event.payload for event in _effective_events(events)]


def fold(events: list[Event]) -> Match:
    """The match state from its events (the first one creates the match)."""
    if not events or events[0].type != "match_created":
        raise StoreError("a match's first event must create it")
    # A record edited by hand can hold anything: whatever fails names the event.
    unusable = (RulesError, KeyError, TypeError, ValueError, AttributeError, IndexError)
    first = events[0]
    try:
        match = Match(MatchRules.from_json(first.payload["rules"]))
    except unusable as e:
        raise StoreError(
            f"match {first.match_id}, event 0 ({first.type}): its record does not replay ({e})"
        ) from None
    for event in _effective_events(events):
        try:
            match.apply(event.payload, trusted=True)
        except unusable as e:
            raise StoreError(
                f"match {event.match_id}, event {event.seq} ({event.type}): its record does "
                f"not replay ({e})"
            ) from None
    return match
