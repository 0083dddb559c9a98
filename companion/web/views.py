"""The page's routes: the page, its state (whole, and pushed as Server-Sent Events),
the camera view, the controls, the .mat export."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    session,
)

from companion.rules.errors import RulesError
from companion.rules.match import MatchError, MatchRules
from companion.table import PAGE_ACTIONS, Table
from companion.web.auth import (
    Refused,
    checked_json,
    controllers,
    holds_controls,
    log_in,
    log_out,
    page_token,
)
from companion.web.streams import ADOPT_KEY, HUB_KEY, StreamHub, Watch, event

bp = Blueprint("web", __name__)


def live() -> Table:
    s: Table = current_app.extensions["bg_session"]
    return s


def hub() -> StreamHub:
    h: StreamHub = current_app.extensions["bg_hub"]
    return h


def _guard(need_control: bool = True) -> dict[str, Any]:
    """Checks a state-changing request; returns its JSON body (an object)."""
    return checked_json(need_control, "controls need the PIN shown in the terminal")


def page_state(s: Table) -> dict[str, Any]:
    """What the page shows, but for whether the watcher holds the controls."""
    state = s.state()
    cube = str(state["health"].get("cube", ""))
    state["cube_missing"] = cube.split(" ", 1)[0] == "missing"  # the link's Status.MISSING
    return state


def _state() -> dict[str, Any]:
    state = page_state(live())
    state["control"] = holds_controls()
    return state


# --- watching ----------------------------------------------------------------------------
@bp.get("/")
def index() -> str:
    return render_template(
        "index.html",
        token=page_token(),
        state=json.dumps(_state()).replace("<", "\\u003c"),  # safe inside <script>
        control=holds_controls(),
    )


@bp.get("/api/state")
def state() -> Response:
    return jsonify(_state())


@bp.get("/api/stream")
def stream() -> Response:
    """The state pushed on every change (Server-Sent Events), to at most
    STREAM_MAX_WATCHERS at once; beyond that a 503 with a Retry-After."""
    streams = hub()
    if not streams.reserve():
        wait = int(current_app.config["STREAM_RETRY_AFTER_S"])
        raise Refused(
            503,
            f"too many live watchers ({streams.limit}): try again in {wait} s",
            retry_after_s=wait,
        )
    sid, granted = session.get("control"), controllers()

    def control() -> bool:
        return sid in granted

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if request.environ.get(HUB_KEY) is streams:  # the page's server: the hub serves it
        request.environ[ADOPT_KEY] = Watch(control)
        return Response(b"retry: 2000\n\n", mimetype="text/event-stream", headers=headers)
    response = Response(
        _events(live(), control, float(current_app.config["STREAM_KEEPALIVE_S"])),
        mimetype="text/event-stream",
        headers=headers,
    )
    response.call_on_close(streams.release)
    return response


def _events(s: Table, control: Callable[[], bool], keepalive: float) -> Iterator[bytes]:
    """A stream served by a thread of its own (outside the page's server: tests, other
    WSGI servers)."""
    version = -1
    while not s.stop.is_set():
        now = s.wait_change(version, keepalive)
        if s.stop.is_set():  # woken by the table stopping: its record may be closing
            return
        if now == version:
            yield b": keepalive\n\n"
            continue
        version = now
        yield event(page_state(s), control())


@bp.get("/camera.jpg")
def camera() -> Response:
    try:
        width = int(request.args.get("width", "800"))
    except ValueError:
        raise Refused(400, "width: a number of pixels, 160 to 1920") from None
    if not 160 <= width <= 1920:
        raise Refused(400, "width: a number of pixels, 160 to 1920")
    jpeg = live().camera_jpeg(width)
    if jpeg is None:
        raise Refused(404, "no camera frame yet")
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
    return log_in(body, live().pin, "the PIN is the digits 0-9 shown in the terminal")


@bp.post("/api/logout")
def logout() -> Response:
    """Gives the controls back (revoked on the server too)."""
    _guard(need_control=False)
    return log_out()


# --- controls --------------------------------------------------------------------------
def _action(body: dict[str, Any]) -> dict[str, Any]:
    """The match action a control asks for, checked for shape (the rules check the rest)."""
    kind = body.get("type")
    if kind not in PAGE_ACTIONS:
        raise Refused(400, f"unknown action {kind!r}")
    action: dict[str, Any] = {"type": kind}
    if kind == "roll":
        dice = body.get("dice")
        if (
            not isinstance(dice, list)
            or len(dice) != 2
            or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice)
        ):
            raise Refused(400, "a roll is two dice, 1 to 6: {'dice': [5, 3]}")
        action["dice"] = sorted(dice, reverse=True)
    elif kind == "opening":
        for side in ("white", "black"):
            die = body.get(side)
            if not isinstance(die, int) or not 1 <= die <= 6:
                raise Refused(400, f"an opening roll needs {side}'s die, 1 to 6")
            action[side] = die
    elif kind == "play":
        text = body.get("play")
        if not isinstance(text, str) or len(text) > 120:
            raise Refused(400, "a play is text in standard notation, e.g. '13/8 13/10'")
        action["play"] = text.strip()
    elif kind == "resign":
        level = body.get("level", 1)
        if level not in (1, 2, 3):
            raise Refused(400, "resign: level 1 (single), 2 (gammon) or 3 (backgammon)")
        action["level"] = level
    return action


@bp.post("/api/action")
def act() -> Response:
    action = _action(_guard())
    try:
        events = live().act(action)
    except MatchError as e:
        raise Refused(409, str(e)) from None
    except RulesError as e:
        raise Refused(400, str(e)) from None
    return jsonify({"ok": True, "events": events})


@bp.post("/api/undo")
def undo() -> Response:
    _guard()
    try:
        live().undo()
    except RulesError as e:
        raise Refused(409, str(e)) from None
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
            raise Refused(400, f"unknown match setting {key!r}")
        if type(value) is not kind:
            raise Refused(400, f"{key}: expected {kind.__name__}, got {value!r}")
        fields[key] = value
    try:
        rules = MatchRules(**fields)
    except RulesError as e:
        raise Refused(400, str(e)) from None
    match_id = live().new_match(rules)
    return jsonify({"ok": True, "match_id": match_id})
