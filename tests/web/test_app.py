"""The page's server: watching is open, changing needs the PIN and the anti-forgery token,
every bad request is a 4xx that changes nothing, and the controls act on the match file."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules.match import MatchRules
from companion.session import Session
from companion.web import create_app

PIN = "4821"


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = Session(tmp_path / "match.db", MatchRules(length=5), pin=PIN)
    yield s
    s.close()


@pytest.fixture
def app(session: Session) -> Flask:
    return create_app(session, {"TESTING": True, "PIN_PAUSE_S": 60.0})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def token_of(client: FlaskClient) -> str:
    page = client.get("/")
    assert page.status_code == 200
    found = re.search(r'name="csrf-token" content="([^"]+)"', page.get_data(as_text=True))
    assert found
    return found[1]


def post(client: FlaskClient, url: str, body: Any, token: str) -> Any:
    return client.post(url, json=body, headers={"X-CSRF-Token": token})


def controller(client: FlaskClient) -> str:
    token = token_of(client)
    r = post(client, "/api/login", {"pin": PIN}, token)
    assert r.status_code == 200, r.get_json()
    return token


def events_in_file(db: Path) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def test_the_page_carries_the_state_and_a_token(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    state = json.loads(re.search(r'id="initial-state"[^>]*>(.*?)</script>', page, re.S)[1])  # type: ignore[index]
    assert state["match"]["phase"] == "opening" and state["match"]["length"] == 5
    assert state["control"] is False
    for name in ("app.js", "board.js", "app.css"):
        with client.get(f"/static/{name}") as r:
            assert r.status_code == 200 and len(r.data) > 1000


def test_a_spectator_can_watch_but_not_act(client: FlaskClient, session: Session) -> None:
    token = token_of(client)
    before = events_in_file(session.store.path)
    r = post(client, "/api/action", {"type": "opening", "white": 5, "black": 3}, token)
    assert r.status_code == 401 and "PIN" in r.get_json()["error"]
    assert post(client, "/api/undo", {}, token).status_code == 401
    assert post(client, "/api/new-match", {"length": 3}, token).status_code == 401
    assert events_in_file(session.store.path) == before
    assert client.get("/api/state").get_json()["match"]["phase"] == "opening"


def test_a_wrong_pin_is_refused_and_repeated_tries_are_paused(client: FlaskClient) -> None:
    token = token_of(client)
    for _ in range(5):
        assert post(client, "/api/login", {"pin": "0000"}, token).status_code == 403
    r = post(client, "/api/login", {"pin": PIN}, token)
    assert r.status_code == 429  # even the right PIN waits out the pause
    assert client.get("/api/state").get_json()["control"] is False


def test_forged_requests_are_refused(client: FlaskClient) -> None:
    token = controller(client)
    action = {"type": "opening", "white": 5, "black": 3}
    # no token, a wrong token, another site's page, a form post instead of JSON
    assert client.post("/api/action", json=action).status_code == 403
    assert post(client, "/api/action", action, "not-the-token").status_code == 403
    r = client.post(
        "/api/action",
        json=action,
        headers={"X-CSRF-Token": token, "Origin": "http://evil.example"},
    )
    assert r.status_code == 403
    r = client.post("/api/action", data={"type": "opening"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 415
    assert client.get("/api/state").get_json()["match"]["phase"] == "opening"


def test_bad_requests_get_a_clear_4xx_and_change_nothing(
    client: FlaskClient, session: Session
) -> None:
    token = controller(client)
    before = events_in_file(session.store.path)
    cases = [
        ("/api/action", {"type": "explode"}, 400, "unknown action"),
        ("/api/action", {"type": "roll", "dice": [7, 1]}, 400, "two dice"),
        ("/api/action", {"type": "opening", "white": "5"}, 400, "white's die"),
        ("/api/action", {"type": "play", "play": 5}, 400, "notation"),
        ("/api/action", {"type": "resign", "level": 4}, 400, "level"),
        ("/api/action", {"type": "double"}, 409, "cannot double"),  # opening roll first
        ("/api/new-match", {"length": "7"}, 400, "expected int"),
        ("/api/new-match", {"length": 99}, 400, "match length"),
        ("/api/new-match", {"colour": "red"}, 400, "unknown match setting"),
        ("/api/new-match", {"length": 5, "jacoby": True}, 400, "money play"),
    ]
    for url, body, status, words in cases:
        r = post(client, url, body, token)
        assert r.status_code == status, (body, r.get_json())
        assert words in r.get_json()["error"], (body, r.get_json())
    r = client.post(
        "/api/action",
        data="{not json",
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
    )
    assert r.status_code == 400
    assert post(client, "/api/undo", {}, token).status_code == 409  # nothing to undo
    assert client.get("/nowhere").status_code == 404
    assert client.get("/api/action").status_code == 405
    assert client.get("/camera.jpg").status_code == 404  # no camera in this session
    assert client.get("/camera.jpg?width=huge").status_code == 400
    big = {"type": "play", "play": "x" * 20000}
    assert post(client, "/api/action", big, token).status_code == 413
    assert events_in_file(session.store.path) == before


def test_the_controls_play_a_game_by_hand(client: FlaskClient, session: Session) -> None:
    token = controller(client)
    assert client.get("/api/state").get_json()["control"] is True

    def act(body: dict[str, Any]) -> dict[str, Any]:
        r = post(client, "/api/action", body, token)
        assert r.status_code == 200, r.get_json()
        state: dict[str, Any] = client.get("/api/state").get_json()
        return state

    state = act({"type": "opening", "white": 3, "black": 1})
    assert state["match"]["phase"] == "move" and state["match"]["turn"] == "white"
    assert "8/5 6/5" in [p["play"] for p in state["plays"]]
    step = next(p for p in state["plays"] if p["play"] == "8/5 6/5")["steps"]
    assert sorted(map(tuple, step)) == [(6, 5, False), (8, 5, False)]
    state = act({"type": "play", "play": "8/5 6/5"})
    assert state["match"]["turn"] == "black" and state["match"]["phase"] == "roll"
    state = act({"type": "double"})
    assert state["match"]["cube"]["offered"] is True
    state = act({"type": "take"})
    assert state["match"]["cube"] == {"value": 2, "owner": "white", "offered": False}
    state = act({"type": "roll", "dice": [2, 6]})
    assert state["match"]["dice"] == [6, 2]
    # black's plays are shown on white's numbering for the board: 24/18 is white's 1 -> 7
    assert any(s[:2] == [1, 7] for p in state["plays"] for s in p["steps"])
    r = post(client, "/api/action", {"type": "play", "play": "24/10"}, token)
    assert r.status_code in (400, 409) and r.get_json()["error"]
    assert post(client, "/api/undo", {}, token).status_code == 200
    state = client.get("/api/state").get_json()
    assert state["match"]["phase"] == "roll" and state["match"]["turn"] == "black"
    assert [h["text"] for h in state["history"]][-2:] == ["Doubles => 2", "Takes"]
    mat = client.get("/export.mat")
    assert mat.status_code == 200 and "31: 8/5 6/5" in mat.get_data(as_text=True)
    assert "attachment" in mat.headers["Content-Disposition"]


def test_a_new_match_with_tournament_rules_hides_the_legal_plays(
    client: FlaskClient, session: Session
) -> None:
    token = controller(client)
    r = post(
        client,
        "/api/new-match",
        {"length": 3, "white": "Ann", "black": "Bob", "tournament": True, "call_illegal": False},
        token,
    )
    assert r.status_code == 200
    post(client, "/api/action", {"type": "opening", "white": 6, "black": 1}, token)
    state = client.get("/api/state").get_json()
    assert state["match_id"] == r.get_json()["match_id"] and state["names"]["white"] == "Ann"
    assert state["plays"] == [] and state["plays_hidden"] is True
    # an illegal play is recorded, but not called: the players did not agree to it
    illegal = {"white": [0] * 26, "black": [0] * 26}
    for side in ("white", "black"):
        for point, n in ((6, 5), (8, 3), (13, 5), (24, 2)):
            illegal[side][point] = n
    illegal["white"][13], illegal["white"][7] = 3, 2  # 13/7(2): no play of 61
    with session.lock:
        session.referee.act({"type": "illegal_play", "position": illegal})
        session._record([{"type": "illegal_play", "player": "white", "position": illegal}])
    state = client.get("/api/state").get_json()
    assert state["match"]["phase"] == "illegal"
    assert state["call"] is None
    assert all(e["type"] != "illegal_play" for e in state["log"])


def test_the_stream_pushes_each_change(app: Flask, client: FlaskClient, session: Session) -> None:
    token = controller(client)
    app.config["STREAM_KEEPALIVE_S"] = 0.2
    got: list[dict[str, Any]] = []
    response = client.get("/api/stream")
    assert response.mimetype == "text/event-stream"
    lines = response.response  # type: ignore[attr-defined]

    def read() -> None:
        for chunk in lines:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            if text.startswith("id:"):
                got.append(json.loads(text.split("data: ", 1)[1]))
            if len(got) == 2:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    post(client, "/api/action", {"type": "opening", "white": 4, "black": 2}, token)
    reader.join(timeout=10)
    assert len(got) == 2
    assert got[0]["match"]["phase"] == "opening" and got[1]["match"]["phase"] == "move"
    assert got[1]["match"]["dice"] == [4, 2] and got[1]["control"] is True


def one_line_json(r: Any) -> dict[str, Any]:
    """The body of a refusal: one line of JSON with the reason."""
    text = r.get_data(as_text=True)
    assert text.strip().count("\n") == 0, text
    reply: dict[str, Any] = json.loads(text)
    assert isinstance(reply.get("error"), str) and reply["error"]
    return reply


def test_malformed_pins_and_tokens_get_a_4xx_with_one_line_of_json(
    app: Flask, client: FlaskClient, session: Session
) -> None:
    app.config["PIN_ATTEMPTS"] = 100  # only the shape of what is sent is tested here
    token = token_of(client)
    before = events_in_file(session.store.path)
    pins: list[Any] = [
        "００００",  # full-width digits
        "٤٨٢١",  # the right PIN in Arabic-Indic digits
        "48２1",
        "4821x",
        "",
        " ",
        "1" * 13,
        "\ud800",
        4821,
        None,
        ["4821"],
    ]
    for pin in pins:
        r = post(client, "/api/login", {"pin": pin}, token)
        assert r.status_code == 400, (pin, r.status_code)
        assert "PIN" in one_line_json(r)["error"]
    action = {"type": "opening", "white": 5, "black": 3}
    for bad in ("tok\xe9n", token[:-1] + "\xff", "\x80" * 32, "x" * 5000, token + "=", " "):
        for url, body in (("/api/login", {"pin": PIN}), ("/api/action", action)):
            r = post(client, url, body, bad)
            assert r.status_code == 403, (bad, url, r.status_code)
            assert "anti-forgery token" in one_line_json(r)["error"]
    nested = "[" * 5000 + "]" * 5000  # deeper than Python's JSON parser goes
    r = client.post(
        "/api/login",
        data=nested,
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
    )
    assert r.status_code == 400 and one_line_json(r)
    assert client.get("/api/state").get_json()["control"] is False
    assert events_in_file(session.store.path) == before
    # the right PIN, with spaces around it as typed, still works
    assert post(client, "/api/login", {"pin": f" {PIN} "}, token).status_code == 200


def test_logging_out_revokes_the_session_on_the_server(
    app: Flask, client: FlaskClient, session: Session
) -> None:
    token = controller(client)
    saved = client.get_cookie("session")
    assert saved is not None
    assert post(client, "/api/logout", {}, token).status_code == 200
    # a copy of the cookie taken before logging out, replayed by another browser
    replay = app.test_client()
    replay.set_cookie("session", saved.value)
    before = events_in_file(session.store.path)
    r = post(replay, "/api/action", {"type": "opening", "white": 5, "black": 3}, token)
    assert r.status_code == 401 and "PIN" in one_line_json(r)["error"]
    assert post(replay, "/api/undo", {}, token).status_code == 401
    assert replay.get("/api/state").get_json()["control"] is False
    assert events_in_file(session.store.path) == before
    # another browser's controls are its own: one logging out does not end them
    other = app.test_client()
    other_token = controller(other)
    again = controller(client)
    assert post(client, "/api/logout", {}, again).status_code == 200
    r = post(other, "/api/action", {"type": "opening", "white": 5, "black": 3}, other_token)
    assert r.status_code == 200


def test_live_streams_beyond_the_cap_are_refused_with_retry_after(
    app: Flask, client: FlaskClient
) -> None:
    app.extensions["bg_hub"].limit = 2
    first, second = client.get("/api/stream"), client.get("/api/stream")
    assert first.status_code == second.status_code == 200
    refused = client.get("/api/stream")
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == str(app.config["STREAM_RETRY_AFTER_S"])
    assert "too many live watchers" in one_line_json(refused)["error"]
    assert client.get("/").status_code == 200  # the page itself is still served
    assert client.get("/api/state").status_code == 200
    first.close()  # a watcher leaves: its place is free again
    third = client.get("/api/stream")
    assert third.status_code == 200
    second.close()
    third.close()
    assert app.extensions["bg_hub"].watching == 0


def test_the_page_says_when_the_cube_unit_is_missing(client: FlaskClient, session: Session) -> None:
    assert client.get("/api/state").get_json()["cube_missing"] is False
    session.health.cube = "missing (LinkTimeout: no answer from the cube unit)"
    assert client.get("/api/state").get_json()["cube_missing"] is True
    page = client.get("/").get_data(as_text=True)
    assert 'id="cube-missing"' in page and "cube unit missing" in page
    session.health.cube = "connected"
    assert client.get("/api/state").get_json()["cube_missing"] is False


def test_the_page_shows_the_cube_unit_missing_while_it_is_silent(
    client: FlaskClient, session: Session
) -> None:
    from companion.cli.run import _link_status
    from companion.link.client import CubeLink, Status
    from companion.link.emulator import Emulator
    from tests.link.quick import SILENCE

    quick = SILENCE

    def missing() -> bool:
        return bool(client.get("/api/state").get_json()["cube_missing"])

    with Emulator() as unit, CubeLink(unit.port, deadlines=quick) as link:
        cube = threading.Thread(target=session.run_cube, args=(link, lambda: _link_status(link)))
        cube.start()
        try:
            assert link.wait_status(Status.CONNECTED, 3)
            assert wait(lambda: session.health.cube == "connected") and not missing()
            unit.silent = True
            assert wait(missing)
            assert client.get("/api/state").get_json()["health"]["cube"].startswith("missing")
            unit.silent = False
            assert wait(lambda: not missing())
        finally:
            session.stop.set()
            cube.join(5)


def wait(condition: Any, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
