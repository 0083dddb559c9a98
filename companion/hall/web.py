"""The director's hall page: a Flask app over a `Hall`.

Watching needs nothing: the grid of tables (those needing a person first), the results
board, the count of messages dropped. Acknowledging an alert needs the director's PIN,
as a table's controls do, with the same checks (companion.web.auth): the PIN compared
in constant time, a pause after five wrong ones, an anti-forgery token on every change,
the page's own origin. Live updates go out as Server-Sent Events from one hub thread
for every watcher (companion.web.streams), built at most a few times a second.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from flask import session as cookie

from companion.hall.hall import Hall
from companion.hall.wire import TABLE_ID
from companion.web.auth import (
    CONTROLLERS_KEY,
    Controllers,
    Refused,
    checked_json,
    controllers,
    holds_controls,
    log_in,
    log_out,
    page_token,
    register_refusals,
)
from companion.web.streams import ADOPT_KEY, HUB_KEY, StreamHub, Watch, event

bp = Blueprint("hall", __name__, template_folder="templates")


def create_hall_app(hall: Hall, pin: str, test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secrets.token_bytes(32),
        MAX_CONTENT_LENGTH=4 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        PIN_ATTEMPTS=5,
        PIN_PAUSE_S=30.0,
        STREAM_KEEPALIVE_S=15.0,
        STREAM_MAX_WATCHERS=200,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["bg_hall"] = hall
    app.extensions["bg_hall_pin"] = pin
    app.extensions[CONTROLLERS_KEY] = Controllers()
    app.extensions["bg_hub"] = StreamHub(
        hall.view,
        hall.wait_change,
        hall.stop,
        limit=int(app.config["STREAM_MAX_WATCHERS"]),
        keepalive_s=float(app.config["STREAM_KEEPALIVE_S"]),
    )
    app.register_blueprint(bp)

    register_refusals(app)
    return app


def _hall() -> Hall:
    h: Hall = current_app.extensions["bg_hall"]
    return h


def _guard(need_control: bool = True) -> dict[str, Any]:
    """Checks a state-changing request as a table's page does; returns its JSON object."""
    return checked_json(need_control, "acknowledging needs the director's PIN")


def _state() -> dict[str, Any]:
    return {**_hall().view(), "control": holds_controls()}


@bp.get("/")
def index() -> str:
    return render_template(
        "hall.html",
        token=page_token(),
        state=json.dumps(_state()).replace("<", "\\u003c"),
    )


@bp.get("/api/state")
def state() -> Response:
    return jsonify(_state())


@bp.get("/api/stats")
def stats() -> Response:
    return jsonify(_hall().stats())


@bp.get("/api/events/<table>")
def events(table: str) -> Response:
    """Every event id the hall holds for a table, in order (for checks and tools)."""
    if not TABLE_ID.fullmatch(table):
        raise Refused(400, "a table id is 1-32 letters, digits, '-' or '_'")
    return jsonify({"table": table, "ids": _hall().event_ids(table)})


@bp.get("/api/stream")
def stream() -> Response:
    streams: StreamHub = current_app.extensions["bg_hub"]
    if not streams.reserve():
        raise Refused(503, f"too many live watchers ({streams.limit}): try again later")
    sid, granted = cookie.get("control"), controllers()

    def control() -> bool:
        return sid in granted

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if request.environ.get(HUB_KEY) is streams:
        request.environ[ADOPT_KEY] = Watch(control)
        return Response(b"retry: 2000\n\n", mimetype="text/event-stream", headers=headers)
    hall = _hall()
    keepalive = float(current_app.config["STREAM_KEEPALIVE_S"])

    def generate() -> Iterator[bytes]:
        version = -1
        while not hall.stop.is_set():
            now = hall.wait_change(version, keepalive)
            if now == version:
                yield b": keepalive\n\n"
                continue
            version = now
            yield event(hall.view(), control())

    response = Response(generate(), mimetype="text/event-stream", headers=headers)
    response.call_on_close(streams.release)
    return response


@bp.post("/api/login")
def login() -> Response:
    body = _guard(need_control=False)
    return log_in(body, str(current_app.extensions["bg_hall_pin"]), "the PIN is digits 0-9")


@bp.post("/api/logout")
def logout() -> Response:
    _guard(need_control=False)
    return log_out()


@bp.post("/api/ack")
def acknowledge() -> Response:
    """The director has seen a table's alert: {"table": "12", "alert": KEY}."""
    body = _guard()
    table, key = body.get("table"), body.get("alert")
    if not isinstance(table, str) or not TABLE_ID.fullmatch(table):
        raise Refused(400, "table: a table id")
    if not isinstance(key, str) or len(key) > 100:
        raise Refused(400, "alert: the alert's key, as the page has it")
    if not _hall().acknowledge(table, key):
        raise Refused(404, f"table {table} has no such alert now")
    return jsonify({"ok": True})


def make_hall_server(host: str, port: int, app: Flask) -> Any:
    """The hall page's server: a thread per request, one for every live stream."""
    from companion.web.streams import make_page_server

    return make_page_server(host, port, app)
