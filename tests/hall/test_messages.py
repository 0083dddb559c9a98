"""The hall's intake without a broker: what parses, what is dropped and counted, events
kept once and in order, alerts from a table's state, results, and the page's checks."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.hall.hall import Hall
from companion.hall.web import create_hall_app
from companion.hall.wire import (
    Dropped,
    WireError,
    event_message,
    load_credentials,
    online_message,
    parse_broker,
    parse_message,
    state_message,
    topic,
)

PIN = "135790"


def event(table: str, match: int, seq: int, kind: str = "roll", **record: Any) -> bytes:
    return event_message(
        table, match, seq, kind, {"type": kind, **record}, "2026-11-25T04:00:00.000Z"
    )


def state(table: str, **fields: Any) -> bytes:
    doc = {
        "match": 1,
        "at": 1.0,
        "names": {"white": "Ann", "black": "Bob"},
        "score": {"white": 0, "black": 0},
        "cube": {"value": 1, "owner": None, "offered": False},
        "health": {"cube_missing": False},
        "call": None,
        "fix": None,
        "phase": "roll",
        "turn": "white",
    }
    return state_message(table, {**doc, **fields})


def card(hall: Hall, table: str) -> dict[str, Any]:
    return next(c for c in hall.view()["tables"] if c["table"] == table)


# --- addresses and credentials ------------------------------------------------------------
def test_a_broker_address_is_mqtt_host_port_without_credentials() -> None:
    assert (parse_broker("mqtt://10.0.0.5:1884").host, parse_broker("mqtt://h").port) == (
        "10.0.0.5",
        1883,
    )
    for bad in ("http://h:1", "mqtt://user:pw@h:1", "mqtt://h:99999", "mqtt://h:1/x", "h:1"):
        with pytest.raises(WireError):
            parse_broker(bad)


def test_credentials_come_from_a_file_or_the_environment(tmp_path: Path) -> None:
    cred = tmp_path / "t.cred"
    cred.write_text("table-12:s3cr:et\n")
    got = load_credentials(cred, {})
    assert got is not None and (got.username, got.password) == ("table-12", "s3cr:et")
    env = {"BGCOMPANION_MQTT_USER": "hall", "BGCOMPANION_MQTT_PASSWORD": "pw"}
    from_env = load_credentials(None, env)
    assert from_env is not None and from_env.password == "pw"
    assert load_credentials(None, {}) is None
    cred.write_text("no colon here\n")
    with pytest.raises(WireError, match="USER:PASSWORD"):
        load_credentials(cred, {})


# --- parsing ----------------------------------------------------------------------------------
def test_a_table_message_parses_with_its_table_and_kind() -> None:
    got = parse_message(topic("12", "event"), event("12", 3, 7, "play", play="13/8 13/10"))
    assert (got.table, got.kind, got.doc["seq"], got.doc["event"]["play"]) == (
        "12",
        "event",
        7,
        "13/8 13/10",
    )
    assert parse_message(topic("12", "online"), online_message("12", True)).doc["online"]


@pytest.mark.parametrize(
    ("name", "payload", "reason"),
    [
        ("bgcompanion/table/12/other", b"{}", "wrong_topic"),
        ("bgcompanion/table/12", b"{}", "wrong_topic"),
        ("bgcompanion/table/a b/state", b"{}", "wrong_topic"),
        ("bgcompanion/elsewhere/12/state", b"{}", "wrong_topic"),
        ("bgcompanion/table/12/event", b"not json", "unparsable"),
        ("bgcompanion/table/12/event", b"[1, 2]", "unparsable"),
        ("bgcompanion/table/12/event", b"[" * 5000, "unparsable"),
        ("bgcompanion/table/12/event", b"\xff\xfe", "unparsable"),
        ("bgcompanion/table/12/event", b'{"table": "12", "match": 1, "seq": -1}', "unparsable"),
        ("bgcompanion/table/12/event", b'{"table": "12", "match": true, "seq": 1}', "unparsable"),
        ("bgcompanion/table/12/state", b'{"table": "12", "match": 1}', "unparsable"),
        ("bgcompanion/table/12/event", event("13", 1, 0), "wrong_table"),
        ("bgcompanion/table/12/state", state("7"), "wrong_table"),
    ],
)
def test_a_bad_message_is_dropped_with_its_reason(name: str, payload: bytes, reason: str) -> None:
    with pytest.raises(Dropped) as caught:
        parse_message(name, payload)
    assert caught.value.reason == reason


def test_dropped_messages_are_counted_and_never_shown() -> None:
    hall = Hall()
    assert hall.receive(topic("1", "event"), event("1", 1, 0, "match_created"))
    assert not hall.receive(topic("1", "event"), event("2", 1, 1))  # claims table 2
    assert not hall.receive("bgcompanion/table/1/junk", b"{}")
    assert not hall.receive(topic("3", "state"), b"{")
    view = hall.view()
    assert view["dropped"] == {"wrong_table": 1, "wrong_topic": 1, "unparsable": 1}
    assert view["dropped_total"] == 3
    assert [c["table"] for c in view["tables"]] == ["1"]  # table 3 never appeared
    assert hall.event_ids("1") == [(1, 0)]


# --- events: once, in order --------------------------------------------------------------------
def test_events_are_kept_once_in_order_and_resends_are_dropped() -> None:
    hall = Hall()
    for seq in (0, 1, 2, 1, 2, 3, 0, 3):  # a resend after an outage repeats a few
        hall.receive(
            topic("5", "event"), event("5", 1, seq, "match_created" if not seq else "roll")
        )
    for seq in (0, 1):  # the next match in the same file starts again at 0
        hall.receive(
            topic("5", "event"), event("5", 2, seq, "match_created" if not seq else "roll")
        )
    assert hall.event_ids("5") == [(1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1)]
    stats = hall.stats()
    assert (stats["duplicates"], stats["missing"], stats["events"]) == (4, 0, 6)


def test_a_gap_in_a_tables_events_is_counted_and_shown_as_an_alert() -> None:
    hall = Hall()
    hall.receive(topic("8", "event"), event("8", 1, 0, "match_created"))
    hall.receive(topic("8", "event"), event("8", 1, 4))
    assert hall.stats()["missing"] == 3
    assert [a["kind"] for a in card(hall, "8")["alerts"]] == ["missing"]


# --- what needs a person ---------------------------------------------------------------------
def test_calls_fixes_and_a_missing_cube_unit_are_alerts_at_the_top() -> None:
    hall = Hall()
    hall.receive(topic("1", "state"), state("1"))
    hall.receive(topic("2", "state"), state("2", call={"type": "reroll", "reasons": ["cocked"]}))
    hall.receive(topic("3", "state"), state("3", fix={"type": "needs_fix", "why": "unreadable"}))
    hall.receive(topic("4", "state"), state("4", health={"cube_missing": True}))
    hall.receive(
        topic("10", "state"), state("10", call={"type": "illegal_play", "play": "13/7 8/7"})
    )
    view = hall.view()
    assert [c["table"] for c in view["tables"]] == ["2", "3", "4", "10", "1"]
    assert view["attention"] == 4
    texts = {c["table"]: [a["text"] for a in c["alerts"]] for c in view["tables"]}
    assert texts["2"] == ["reroll: cocked"]
    assert texts["3"] == ["needs a fix: unreadable"]
    assert texts["4"] == ["cube unit missing"]
    assert texts["10"] == ["illegal play: 13/7 8/7"]
    assert texts["1"] == []


def test_an_acknowledged_alert_leaves_until_a_new_one_comes() -> None:
    hall = Hall()
    reroll = {"type": "reroll", "reasons": ["cocked"], "t": 10.0}
    hall.receive(topic("2", "state"), state("2", call=reroll))
    key = card(hall, "2")["alerts"][0]["key"]
    assert hall.acknowledge("2", key) and not hall.acknowledge("2", "2:reroll:999")
    hall.receive(topic("2", "state"), state("2", call=reroll, phase="move"))  # the same call
    assert card(hall, "2")["alerts"] == []
    hall.receive(topic("2", "state"), state("2", call={**reroll, "t": 25.0}))  # a new one
    assert [a["text"] for a in card(hall, "2")["alerts"]] == ["reroll: cocked"]


def test_a_table_gone_quiet_or_offline_is_an_alert() -> None:
    hall = Hall(stale_s=30)
    hall.receive(topic("1", "state"), state("1"), now=1000.0)
    hall.receive(topic("2", "online"), online_message("2", False), now=1000.0)
    assert hall.view(now=1001.0)["attention"] == 1  # the offline one only
    view = hall.view(now=1031.0)
    kinds = {c["table"]: [a["kind"] for a in c["alerts"]] for c in view["tables"]}
    assert kinds == {"1": ["quiet"], "2": ["offline"]}


def test_finished_matches_go_to_the_results_board() -> None:
    hall = Hall()
    created = event_message(
        "4",
        1,
        0,
        "match_created",
        {"type": "match_created", "rules": {"white": "Ann", "black": "Bob"}},
        "2026-11-25T04:00:00.000Z",
    )
    hall.receive(topic("4", "event"), created)
    hall.receive(
        topic("4", "event"),
        event("4", 1, 1, "match_over", winner="black", score={"white": 3, "black": 5}),
    )
    (result,) = hall.view()["results"]
    assert (result["table"], result["winner_name"], result["score"]) == (
        "4",
        "Bob",
        {"white": 3, "black": 5},
    )


# --- the page --------------------------------------------------------------------------------
@pytest.fixture
def client() -> FlaskClient:
    hall = Hall()
    hall.receive(topic("2", "state"), state("2", call={"type": "reroll", "reasons": ["cocked"]}))
    app = create_hall_app(hall, PIN, {"TESTING": True})
    return app.test_client()


def token_of(client: FlaskClient) -> str:
    page = client.get("/").get_data(as_text=True)
    found = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert found
    return found[1]


def test_the_hall_page_shows_every_table_to_anyone(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    doc = json.loads(re.search(r'id="initial-state"[^>]*>(.*?)</script>', page, re.S)[1])  # type: ignore[index]
    assert [c["table"] for c in doc["tables"]] == ["2"] and doc["control"] is False
    assert client.get("/api/state").get_json()["attention"] == 1


def test_acknowledging_needs_the_directors_pin(client: FlaskClient) -> None:
    token = token_of(client)
    key = client.get("/api/state").get_json()["tables"][0]["alerts"][0]["key"]
    ack = {"table": "2", "alert": key}
    headers = {"X-CSRF-Token": token}
    assert client.post("/api/ack", json=ack, headers=headers).status_code == 401
    assert client.post("/api/ack", json=ack).status_code == 403  # no anti-forgery token
    assert client.post("/api/login", json={"pin": "000000"}, headers=headers).status_code == 403
    assert client.post("/api/login", json={"pin": "１２３４"}, headers=headers).status_code == 400
    assert client.post("/api/login", json={"pin": PIN}, headers=headers).status_code == 200
    bad = client.post("/api/ack", json={"table": "2", "alert": "nope"}, headers=headers)
    assert bad.status_code == 404 and "no such alert" in bad.get_json()["error"]
    assert client.post("/api/ack", json=ack, headers=headers).status_code == 200
    assert client.get("/api/state").get_json()["attention"] == 0


def test_a_bad_request_to_the_hall_is_one_line_of_json(client: FlaskClient) -> None:
    token = token_of(client)
    r = client.post("/api/ack", data="x", headers={"X-CSRF-Token": token})
    assert r.status_code == 415 and list(r.get_json()) == ["error"]
    assert client.get("/api/events/bad%20id").status_code == 400
    assert client.get("/api/events/2").get_json() == {"table": "2", "ids": []}


def test_a_message_the_client_could_not_send_is_not_taken_as_acknowledged() -> None:
    """paho raises on asking whether such a message was published; the publisher's thread
    must not die of it (the event goes again from the mark)."""
    import paho.mqtt.client as mqtt

    from companion.hall.publish import _acknowledged

    info = mqtt.MQTTMessageInfo(7)
    info.rc = mqtt.MQTT_ERR_NO_CONN
    with pytest.raises(RuntimeError):
        info.is_published()
    assert _acknowledged(info) is False


def test_a_checked_message_that_still_cannot_be_used_is_counted_not_raised() -> None:
    hall = Hall()
    broken = state("9", names={"white": "A", "black": "B"}, phase="match_over", winner="white")
    hall._result = None  # type: ignore[assignment,method-assign]  # a bug in the hall itself
    assert hall.receive(topic("9", "state"), broken) is False
    assert hall.view()["dropped"] == {"unusable": 1}
