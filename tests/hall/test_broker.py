"""Tables and a hall over a real Mosquitto: every event of every table reaches the hall
once and in order, through a broker restart and a table restart; the ACL keeps each
table to its own topics; bad messages are counted, never shown."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.hall.broker import BrokerFolder, Mosquitto
from companion.hall.hall import Hall, HallListener
from companion.hall.publish import Publisher
from companion.hall.wire import Broker, event_message, topic
from companion.rules.match import Match, MatchRules
from companion.rules.sample import random_actions
from companion.store import Store
from tests.hall.conftest import credentials, wait_for


@pytest.fixture
def hall(mosquitto: Mosquitto, broker_folder: BrokerFolder, address: Broker) -> Iterator[Hall]:
    hall = Hall()
    listener = HallListener(hall, address, credentials(broker_folder, None), client_id="hall-t")
    listener.start()
    wait_for(listener.connected.is_set, 10, "the hall connects")
    yield hall
    listener.close()


class Table:
    """A table without a camera: its match file, a random match, and its publisher."""

    def __init__(self, folder: BrokerFolder, address: Broker, tmp: Path, table: str, seed: int):
        self.table = table
        self.folder, self.address = folder, address
        self.store = Store(tmp / f"table-{table}.db")
        rules = MatchRules(length=3)
        self.match_id = self.store.create_match(rules)
        self.actions = random_actions(random.Random(seed), Match(rules))
        self.publisher = self.new_publisher()
        self.slowest = 0.0

    def new_publisher(self) -> Publisher:
        p = Publisher(
            self.store.path,
            self.table,
            self.address,
            credentials(self.folder, self.table),
            lambda: {"match": self.match_id, "names": {"white": "W", "black": "B"}},
            retry_s=(0.05, 0.5),
        )
        p.start()
        return p

    def step(self) -> bool:
        """One action recorded (as the referee does) and the publisher told; False at the end."""
        action = next(self.actions, None)
        if action is None:
            return False
        start = time.monotonic()
        self.publisher.notify(self.store.apply(self.match_id, action))
        self.slowest = max(self.slowest, time.monotonic() - start)
        return True

    def ids(self) -> list[tuple[int, int]]:
        return [(e.match_id, e.seq) for e in self.store.events(self.match_id)]

    def close(self) -> None:
        self.publisher.close()
        self.store.close()


def test_every_event_reaches_the_hall_once_in_order_across_a_broker_restart(
    hall: Hall, mosquitto: Mosquitto, broker_folder: BrokerFolder, address: Broker, tmp_path: Path
) -> None:
    tables = [Table(broker_folder, address, tmp_path, t, seed) for seed, t in enumerate("123")]
    try:
        wait_for(lambda: all(t.publisher.status == "connected" for t in tables), 10, "connected")
        steps = 0
        playing = True
        while playing:
            playing = any([t.step() for t in tables])
            steps += 1
            if steps == 40:
                wait_for(lambda: len(hall.event_ids("1")) > 20, 10, "events before the outage")
                mosquitto.stop()
                wait_for(lambda: "down" in tables[0].publisher.status, 10, "the outage noticed")
            if steps == 120:
                mosquitto.start()  # 80 actions a table were recorded while it was down
        for t in tables:
            expected = t.ids()
            assert len(expected) > 130  # the outage fell mid-match
            wait_for(
                lambda t=t, e=expected: hall.event_ids(t.table) == e,
                20,
                f"table {t.table}'s {len(expected)} events at the hall",
                lambda t=t: (
                    f"the hall has {hall.stats()}, the last {hall.event_ids(t.table)[-2:]}; "
                    f"publisher {t.publisher.status}, mark {t.publisher.mark}, "
                    f"sent {t.publisher.sent}"
                ),
            )
        assert hall.stats()["missing"] == 0 and hall.stats()["dropped"] == {}
        # the referee was never held up by the broker being away
        assert max(t.slowest for t in tables) < 0.5
        # the marks caught up: a restart now would resend nothing
        for t in tables:
            last = t.ids()[-1]
            wait_for(lambda t=t, x=last: t.publisher.mark == x, 10, "the mark")
    finally:
        for t in tables:
            t.close()


def test_a_restarted_table_resends_from_the_acknowledged_mark_only(
    hall: Hall, broker_folder: BrokerFolder, address: Broker, tmp_path: Path
) -> None:
    t = Table(broker_folder, address, tmp_path, "12", seed=5)
    try:
        for _ in range(50):
            t.step()
        wait_for(lambda: hall.event_ids("12") == t.ids(), 10, "the first 50 actions")
        wait_for(lambda: t.publisher.mark == t.ids()[-1], 10, "the mark")
        t.publisher.close()
        with sqlite3.connect(t.store.path) as db:
            saved = db.execute("SELECT match_id, seq FROM hall_marks").fetchall()
        assert saved == [t.ids()[-1]]
        before = len(t.ids())
        for _ in range(30):  # played on while the table's publisher was stopped
            t.store.apply(t.match_id, next(t.actions))
        t.publisher = t.new_publisher()
        wait_for(lambda: hall.event_ids("12") == t.ids(), 10, "the events after the restart")
        assert t.publisher.sent == len(t.ids()) - before  # nothing sent twice
        assert hall.stats()["duplicates"] == 0
    finally:
        t.close()


def raw_client(
    folder: BrokerFolder, address: Broker, table: str | None, password: str = ""
) -> mqtt.Client:
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=f"raw-{table}", protocol=mqtt.MQTTv311
    )
    if table is not None:
        cred = credentials(folder, table)
        client.username_pw_set(cred.username, password or cred.password)
    return client


def test_a_table_can_publish_only_under_its_own_topic_and_lies_are_counted(
    hall: Hall, broker_folder: BrokerFolder, address: Broker
) -> None:
    client = raw_client(broker_folder, address, "1")
    client.connect(address.host, address.port)
    client.loop_start()
    try:
        record = {"type": "roll", "dice": [6, 6]}
        at = "2026-11-25T04:00:00.000Z"
        sends = [
            (topic("2", "event"), event_message("2", 1, 0, "roll", record, at)),  # ACL: refused
            (topic("1", "event"), event_message("2", 1, 0, "roll", record, at)),  # claims 2
            (topic("1", "event"), b"{not json"),
            (topic("1", "junk"), b"{}"),
            (topic("1", "event"), event_message("1", 1, 0, "roll", record, at)),  # a good one
        ]
        for name, payload in sends:
            client.publish(name, payload, qos=1).wait_for_publish(5)
        wait_for(lambda: hall.event_ids("1") == [(1, 0)], 10, "the good message")
        wait_for(lambda: sum(hall.stats()["dropped"].values()) == 3, 10, "three drops")
        view = hall.view()
        assert view["dropped"] == {"wrong_table": 1, "unparsable": 1, "wrong_topic": 1}
        assert [c["table"] for c in view["tables"]] == ["1"]  # table 2 never shown
    finally:
        client.loop_stop()
        client.disconnect()


def test_a_table_with_a_wrong_password_or_none_is_refused(
    mosquitto: Mosquitto, broker_folder: BrokerFolder, address: Broker, tmp_path: Path
) -> None:
    store = Store(tmp_path / "t.db")
    store.create_match(MatchRules(length=1))
    cred = credentials(broker_folder, "3")
    for given in (type(cred)(cred.username, "wrong"), None):
        p = Publisher(store.path, "3", address, given, retry_s=(0.05, 0.2))
        p.start()
        try:
            wait_for(lambda p=p: p.status.startswith("refused"), 10, "refused")
            assert "authori" in p.status.lower()
        finally:
            p.close()
    store.close()


def test_a_restarted_hall_gets_what_the_broker_kept_for_it(
    mosquitto: Mosquitto, broker_folder: BrokerFolder, address: Broker, tmp_path: Path
) -> None:
    """The hall's session is persistent: events published while it was away wait for it
    at the broker (and a hall that restarted does not call the ones before missing)."""
    hall_cred = credentials(broker_folder, None)
    first = Hall()
    listener = HallListener(first, address, hall_cred, client_id="hall-r")
    listener.start()
    wait_for(listener.connected.is_set, 10, "the hall connects")
    t = Table(broker_folder, address, tmp_path, "2", seed=9)
    try:
        for _ in range(20):
            t.step()
        wait_for(lambda: first.event_ids("2") == t.ids(), 10, "the first 20 actions")
        seen = len(t.ids())
        listener.close()
        for _ in range(20):
            t.step()
        wait_for(lambda: t.publisher.mark == t.ids()[-1], 10, "the broker has them all")
        second = Hall()
        again = HallListener(second, address, hall_cred, client_id="hall-r")
        again.start()
        try:
            kept = t.ids()[seen:]

            def all_kept() -> bool:
                # QoS 1 is at least once: an event the first hall took but had not yet
                # acknowledged when it closed comes again, before the kept ones (a fresh
                # hall has no earlier event to call it a duplicate of)
                got = second.event_ids("2")
                return got[-len(kept) :] == kept and got == t.ids()[len(t.ids()) - len(got) :]

            wait_for(
                all_kept,
                10,
                "the kept events",
                lambda: f"got {second.event_ids('2')}, kept {kept}",
            )
            assert second.stats()["missing"] == 0
            wait_for(lambda: bool(second.view()["tables"][0]["names"]), 10, "the retained state")
        finally:
            again.close()
    finally:
        t.close()
