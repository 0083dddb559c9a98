"""The page's routes: the page, its state (whole, and pushed as Server-Sent Events),
the camera view, the controls, the .mat export."""

from __future__ import annotations

import hmac
import json
import secrets
import time
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    session,
)
from werkzeug.exceptions import HTTPException

from companion.live import PAGE_ACTIONS, Session
from companion.rules.errors import RulesError
from companion.rules.match import MatchError, MatchRules

bp = Blueprint("web", __name__)


class BadRequest(Exception):
    """A request the page refuses: a status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def live() -> Session:
    s: Session = current_app.extensions["bg_session"]
    return s


def _token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def _control() -> bool:
    """Whether this browser has entered the PIN (since this run started)."""
    return bool(session.get("control")) and session.get("pin_of") == _pin_tag()


def _pin_tag() -> str:
    return hmac.new(current_app.config["SECRET_KEY"], live().pin.encode(), "sha256").hexdigest()[
        :16
    ]


def _guard(need_control: bool = True) -> dict[str, Any]:
    """Checks a state-changing request; returns its JSON body (an object)."""
    origin = request.headers.get("Origin")
    if origin is not None and origin.rstrip("/") != request.host_url.rstrip("/"):
        raise BadRequest(403, f"requests from {origin} are not accepted")
    if not request.is_json:
        raise BadRequest(415, "send JSON (Content-Type: application/json)")
    sent = request.headers.get("X-CSRF-Token", "")
    expected = session.get("csrf")
    if not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
        raise BadRequest(403, "missing or wrong anti-forgery token: reload the page")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest(400, "the body must be a JSON object")
    if need_control and not _control():
        raise BadRequest(401, "controls need the PIN shown in the terminal")
    return body


def _state() -> dict[str, Any]:
    state = live().state()
    state["control"] = _control()
    return state


# --- watching ----------------------------------------------------------------------------
@bp.get("/")
def index() -> str:
    return render_template(
        "index.html",
        token=_token(),
        state=json.dumps(_state()).replace("<", "\\u003c"),  # safe inside <script>
        control=_control(),
    )


@bp.get("/api/state")
def state() -> Response:
    return jsonify(_state())


@bp.get("/api/stream")
def stream() -> Response:
    control = _control()
    s = live()
    keepalive = float(current_app.config["STREAM_KEEPALIVE_S"])

    def events() -> Iterator[str]:
        version = -1
        while not s.stop.is_set():
            now = s.wait_change(version, keepalive)
            if now == version:
                yield ": keepalive\n\n"
                continue
            version = now
            state = s.state()
            state["control"] = control
            yield f"id: {now}\nevent: state\ndata: {json.dumps(state)}\n\n"

    return Response(
        events(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@bp.get("/camera.jpg")
def camera() -> Response:
    try:
        width = int(request.args.get("width", "800"))
    except ValueError:
        raise BadRequest(400, "width: a number of pixels, 160 to 1920") from None
    if not 160 <= width <= 1920:
        raise BadRequest(400, "width: a number of pixels, 160 to 1920")
    jpeg = live().camera_jpeg(width)
    if jpeg is None:
        raise BadRequest(404, "no camera frame yet")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/export.mat")
def export() -> Response:
    from companion.rules.mat import export_mat

    s = live()
    text = export_mat(s.match(), time.strftime("%Y.%m.%d"))
    return Response(
        text,
        mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="match-{s.match_id}.mat"'},
    )


# --- the PIN -------------------------------------------------------------------------------
@bp.post("/api/login")
def login() -> Response:
    body = _guard(need_control=False)
    who = request.remote_addr or "?"
    failures: dict[str, tuple[int, float]] = current_app.extensions.setdefault("bg_pin_fails", {})
    count, since = failures.get(who, (0, 0.0))
    pause = float(current_app.config["PIN_PAUSE_S"])
    if count >= int(current_app.config["PIN_ATTEMPTS"]) and time.monotonic() - since < pause:
        raise BadRequest(429, f"too many wrong PINs: wait {pause:.0f} seconds")
    pin = body.get("pin")
    if not isinstance(pin, str) or not hmac.compare_digest(pin.strip(), live().pin):
        failures[who] = (count + 1, time.monotonic())
        raise BadRequest(403, "wrong PIN")
    failures.pop(who, None)
    session["control"] = True
    session["pin_of"] = _pin_tag()
    return jsonify({"ok": True, "control": True})


@bp.post("/api/logout")
def logout() -> Response:
    _guard(need_control=False)
    session.pop("control", None)
    return jsonify({"ok": True, "control": False})


# --- controls --------------------------------------------------------------------------
def _action(body: dict[str, Any]) -> dict[str, Any]:
    """The match action a control asks for, checked for shape (the rules check the rest)."""
    kind = body.get("type")
    if kind not in PAGE_ACTIONS:
        raise BadRequest(400, f"unknown action {kind!r}")
    action: dict[str, Any] = {"type": kind}
    if kind == "roll":
        dice = body.get("dice")
        if (
            not isinstance(dice, list)
            or len(dice) != 2
            or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice)
        ):
            raise BadRequest(400, "a roll is two dice, 1 to 6: {'dice': [5, 3]}")
        action["dice"] = sorted(dice, reverse=True)
    elif kind == "opening":
        for side in ("white", "black"):
            die = body.get(side)
            if not isinstance(die, int) or not 1 <= die <= 6:
                raise BadRequest(400, f"an opening roll needs {side}'s die, 1 to 6")
            action[side] = die
    elif kind == "play":
        text = body.get("play")
        if not isinstance(text, str) or len(text) > 120:
            raise BadRequest(400, "a play is text in standard notation, e.g. '13/8 13/10'")
        action["play"] = text.strip()
    elif kind == "resign":
        level = body.get("level", 1)
        if level not in (1, 2, 3):
            raise BadRequest(400, "resign: level 1 (single), 2 (gammon) or 3 (backgammon)")
        action["level"] = level
    return action


@bp.post("/api/action")
def act() -> Response:
    action = _action(_guard())
    try:
        events = live().act(action)
    except MatchError as e:
        raise BadRequest(409, str(e)) from None
    except RulesError as e:
        raise BadRequest(400, str(e)) from None
    return jsonify({"ok": True, "events": events})


@bp.post("/api/undo")
def undo() -> Response:
    _guard()
    try:
        live().undo()
    except RulesError as e:
        raise BadRequest(409, str(e)) from None
    return jsonify({"ok": True})


RULE_FIELDS: dict[str, type] = {
    "length": int,
    "crawford": bool,
    "jacoby": bool,
    "beavers": bool,
    "auto_doubles": int,
    "dice_on_checker": str,
    "white": str,
    "black": str,
    "tournament": bool,
    "call_illegal": bool,
}


@bp.post("/api/new-match")
def new_match() -> Response:
    body = _guard()
    fields: dict[str, Any] = {}
    for key, value in body.items():
        kind = RULE_FIELDS.get(key)
        if kind is None:
            raise BadRequest(400, f"unknown match setting {key!r}")
        if type(value) is not kind:
            raise BadRequest(400, f"{key}: expected {kind.__name__}, got {value!r}")
        fields[key] = value
    try:
        rules = MatchRules(**fields)
    except RulesError as e:
        raise BadRequest(400, str(e)) from None
    match_id = live().new_match(rules)
    return jsonify({"ok": True, "match_id": match_id})


# --- errors ----------------------------------------------------------------------------
def register_errors(app: Flask) -> None:
    @app.errorhandler(BadRequest)
    def refused(e: BadRequest) -> tuple[Response, int]:
        return jsonify({"error": e.message}), e.status

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> tuple[Response, int]:
        return jsonify({"error": f"{e.name}: {e.description}"}), e.code or 500
