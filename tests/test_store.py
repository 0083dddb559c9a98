"""The match record: append-only SQLite events, state as a fold, crash safety."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rules.match import Match, MatchError, MatchRules
from companion.store import Store, StoreError, _effective_actions
from tests.conftest import ROOT
from tests.tools.store_writer import RULES, planned_actions


def opening_and_play(store: Store, match_id: int) -> None:
    store.apply(match_id, {"type": "opening", "white": 3, "black": 1})
    store.apply(match_id, {"type": "play", "play": "8/5 6/5"})


def test_the_file_is_wal_with_full_sync(tmp_path: Path) -> None:
    with Store(tmp_path / "m.db") as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_actions_are_recorded_and_a_restart_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Store(path) as store:
        match_id = store.create_match(MatchRules(length=5))
        opening_and_play(store, match_id)
        store.apply(match_id, {"type": "double"})
        events = store.apply(match_id, {"type": "drop"})
        assert [e["type"] for e in events] == ["drop", "game_over"]
        before = store.load(match_id).summary()
    with Store(path) as again:
        assert again.load(match_id).summary() == before
        types = [e.type for e in again.events(match_id)]
        assert types == ["match_created", "opening", "play", "double", "drop", "game_over"]


def test_several_matches_in_one_file(tmp_path: Path) -> None:
    with Store(tmp_path / "m.db") as store:
        a = store.create_match(MatchRules(length=3))
        b = store.create_match(MatchRules(length=0, jacoby=True))
        opening_and_play(store, a)
        assert store.match_ids() == [a, b] and store.latest_match() == b
        assert store.load(b).phase == "opening" and store.load(a).phase == "roll"
        assert store.load(b).rules.jacoby


def test_an_illegal_action_records_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "m.db") as store:
        match_id = store.create_match(MatchRules(length=5))
        opening_and_play(store, match_id)
        count = len(store.events(match_id))
        with pytest.raises(MatchError, match="cannot take now"):
            store.apply(match_id, {"type": "take"})
        with pytest.raises(Exception, match="not a number from 1 to 6"):
            store.apply(match_id, {"type": "roll", "dice": [9, 1]})
        assert len(store.events(match_id)) == count
        store.apply(match_id, {"type": "roll", "dice": [6, 4]})  # and it goes on
        assert store.load(match_id).dice == (6, 4)


def test_undo_is_a_new_event_and_restores_the_state(tmp_path: Path) -> None:
    with Store(tmp_path / "m.db") as store:
        match_id = store.create_match(MatchRules(length=5))
        opening_and_play(store, match_id)
        before = store.load(match_id).summary()
        store.apply(match_id, {"type": "double"})
        store.apply(match_id, {"type": "drop"})  # ends game 1
        assert store.load(match_id).game.number == 2
        store.apply(match_id, {"type": "undo"})
        assert store.load(match_id).phase == "doubled"
        store.apply(match_id, {"type": "undo"})
        assert store.load(match_id).summary() == before
        types = [e.type for e in store.events(match_id)]
        assert types.count("undo") == 2 and "drop" in types  # nothing edited away
        for _ in range(2):
            store.undo(match_id)
        with pytest.raises(MatchError, match="nothing to undo"):
            store.undo(match_id)
        assert store.load(match_id).phase == "opening"


def test_a_file_that_is_not_a_database_gets_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("these are not the events you are looking for\n" * 50)
    with pytest.raises(StoreError, match="not a bgcompanion match file"):
        Store(bad)
    with Store(tmp_path / "m.db") as store, pytest.raises(StoreError, match="no match 7"):
        store.load(7)


def test_a_record_that_does_not_replay_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Store(path) as store:
        match_id = store.create_match(MatchRules(length=5))
        opening_and_play(store, match_id)
    db = sqlite3.connect(path)
    db.execute("INSERT INTO events VALUES (?, 3, 'take', '{\"type\":\"take\"}', 'x')", (match_id,))
    db.commit()
    db.close()
    with Store(path) as store, pytest.raises(StoreError, match="does not replay"):
        store.load(match_id)


def test_kill_minus_9_at_random_moments_loses_no_acknowledged_event(tmp_path: Path) -> None:
    """A writer is killed with SIGKILL at random points, again and again on the same file.

    After each kill the record must fold, hold every action the writer
    acknowledged (its "ack N" lines, read to the end after the kill), at most
    one more (the one in flight), and be exactly the planned sequence so far.
    """
    db, seed = tmp_path / "crash.db", 20261122
    plan = planned_actions(seed)
    assert len(plan) > 200
    rng = random.Random(seed)
    kills = before = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    while True:
        writer = subprocess.Popen(
            [sys.executable, "-m", "tests.tools.store_writer", str(db), str(seed)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        assert writer.stdout is not None
        wait_for = rng.randint(1, 25)
        seen: list[str] = []
        for line in writer.stdout:
            seen += line.split()
            wait_for -= line.startswith("ack")
            if wait_for == 0 or line.startswith("done"):
                break
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        seen += writer.stdout.read().split()  # everything it printed before it died
        writer.stdout.close()
        acks = [int(seen[i + 1]) for i, word in enumerate(seen) if word == "ack"]
        kills += 1
        with Store(db) as store:
            match_id = store.latest_match()
            assert match_id is not None
            events = store.events(match_id)
            recorded = _effective_actions(events)
            last_ack = acks[-1] if acks else before
            assert len(recorded) >= last_ack, "an acknowledged action was lost"
            assert len(recorded) <= last_ack + 1, "more than the action in flight"
            before = len(recorded)
            expected = Match(RULES)
            for planned, stored in zip(plan, recorded, strict=False):
                assert stored["type"] == planned["type"]
                expected.apply(planned)
            assert store.load(match_id).summary() == expected.summary()
            assert [e.seq for e in events] == list(range(len(events)))
            assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        if len(recorded) == len(plan):
            break
        assert kills < 200, "the writer makes no progress"
    assert kills >= 8
