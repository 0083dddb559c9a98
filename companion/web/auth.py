"""The page's secrets checked so that no input can break the check: the PIN, the
anti-forgery token, and which browsers hold the controls now.

Comparisons are constant-time on bytes (`hmac.compare_digest` refuses text that is not
ASCII, which made a full-width PIN a server error). Who holds the controls is kept here,
on the server, as well as in the browser's signed cookie: logging out removes the
browser's id, so a copy of the cookie taken before logging out controls nothing.
"""

from __future__ import annotations

import hmac
import secrets
import string
import threading
import time
from collections import OrderedDict
from typing import Any

from flask import Flask, Response, current_app, jsonify, request, session
from werkzeug.exceptions import HTTPException

PIN_MAX = 12  # the longest PIN `run --pin` accepts
TOKEN_MAX = 128  # the page's tokens are 32 characters
TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "-_")  # token_urlsafe's


class Refused(Exception):
    """A request a page refuses: a status and one line saying why (a JSON error)."""

    def __init__(self, status: int, message: str, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after_s = retry_after_s


def register_refusals(app: Flask) -> None:
    """Every refusal and HTTP error as one line of JSON with its status."""

    @app.errorhandler(Refused)
    def refused(e: Refused) -> tuple[Response, int]:
        response = jsonify({"error": e.message})
        if e.retry_after_s is not None:
            response.headers["Retry-After"] = str(e.retry_after_s)
        return response, e.status

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> tuple[Response, int]:
        return jsonify({"error": f"{e.name}: {e.description}"}), e.code or 500


def checked_json(need_control: bool, control_needed: str) -> dict[str, Any]:
    """The JSON object of a state-changing request, once it passed a page's checks: from
    this page (Origin), JSON, the anti-forgery token the page gave this browser and, where
    `need_control`, a browser that holds the controls (else `control_needed` is said)."""
    origin = request.headers.get("Origin")
    if origin is not None and origin.rstrip("/") != request.host_url.rstrip("/"):
        raise Refused(403, f"requests from {origin[:100]!r} are not accepted")
    if not request.is_json:
        raise Refused(415, "send JSON (Content-Type: application/json)")
    sent = request.headers.get("X-CSRF-Token", "")
    expected_token = session.get("csrf")
    if sent and not well_formed_token(sent):
        raise Refused(403, "malformed anti-forgery token: reload the page")
    if not sent or not isinstance(expected_token, str) or not same_secret(sent, expected_token):
        raise Refused(403, "missing or wrong anti-forgery token: reload the page")
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # arrays nested thousands deep: not a request of a page's
        body = None
    if not isinstance(body, dict):
        raise Refused(400, "the body must be a JSON object")
    if need_control and not holds_controls():
        raise Refused(401, control_needed)
    return body


def same_secret(given: str, expected: str) -> bool:
    """Whether two secrets are equal, in time that does not depend on where they differ."""
    return hmac.compare_digest(
        given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )


def well_formed_pin(sent: object) -> str | None:
    """The PIN as typed (spaces around it dropped) if it is 1 to 12 ASCII digits, else None.
    Full-width or other scripts' digits are not a PIN's digits."""
    if not isinstance(sent, str):
        return None
    pin = sent.strip(" \t")
    if not 0 < len(pin) <= PIN_MAX or not pin.isascii() or not pin.isdigit():
        return None
    return pin


def well_formed_token(sent: str) -> bool:
    """Whether an anti-forgery token has the shape of the page's tokens."""
    return 0 < len(sent) <= TOKEN_MAX and all(c in TOKEN_CHARS for c in sent)


class Controllers:
    """The browsers that entered the PIN and have not logged out since (this run only): a
    random id each, also kept in that browser's signed cookie. The oldest are forgotten
    beyond `limit`, so PIN holders logging in again and again cannot fill memory."""

    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._ids: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def grant(self) -> str:
        """A new id that holds the controls until it is revoked."""
        sid = secrets.token_urlsafe(18)
        with self._lock:
            self._ids[sid] = None
            while len(self._ids) > self.limit:
                self._ids.popitem(last=False)
        return sid

    def revoke(self, sid: object) -> None:
        with self._lock:
            if isinstance(sid, str):
                self._ids.pop(sid, None)

    def __contains__(self, sid: object) -> bool:
        with self._lock:
            return isinstance(sid, str) and sid in self._ids

    def __len__(self) -> int:
        with self._lock:
            return len(self._ids)


CONTROLLERS_KEY = "bg_controllers"  # where an app keeps its Controllers


def controllers() -> Controllers:
    """The browsers holding the controls of the app serving this request."""
    c: Controllers = current_app.extensions[CONTROLLERS_KEY]
    return c


def page_token() -> str:
    """This browser's anti-forgery token, made on its first visit."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def holds_controls() -> bool:
    """Whether this browser holds the controls: it entered the PIN in this run and has not
    logged out since (checked on the server: an old copy of the cookie does not do)."""
    return session.get("control") in controllers()


def log_in(body: dict[str, Any], expected_pin: str, malformed: str) -> Response:
    """Gives this browser the controls for the right PIN; wrong PINs from one address are
    paused after `PIN_ATTEMPTS` for `PIN_PAUSE_S` (the app's config). `malformed` says what
    a PIN is, for one that is not digits."""
    who = request.remote_addr or "?"
    failures: dict[str, tuple[int, float]] = current_app.extensions.setdefault("bg_pin_fails", {})
    count, since = failures.get(who, (0, 0.0))
    pause = float(current_app.config["PIN_PAUSE_S"])
    if count >= int(current_app.config["PIN_ATTEMPTS"]) and time.monotonic() - since < pause:
        raise Refused(429, f"too many wrong PINs: wait {pause:.0f} seconds")
    pin = well_formed_pin(body.get("pin"))
    if pin is None:
        failures[who] = (count + 1, time.monotonic())
        raise Refused(400, malformed)
    if not same_secret(pin, expected_pin):
        failures[who] = (count + 1, time.monotonic())
        raise Refused(403, "wrong PIN")
    failures.pop(who, None)
    granted = controllers()
    granted.revoke(session.get("control"))  # one id per browser: the new one
    session["control"] = granted.grant()
    return jsonify({"ok": True, "control": True})


def log_out() -> Response:
    """Gives the controls back: this browser's id is revoked here, on the server, so a copy
    of its cookie kept from before controls nothing either."""
    controllers().revoke(session.pop("control", None))
    return jsonify({"ok": True, "control": False})
