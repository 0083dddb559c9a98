"""The companion's web page: a Flask app factory and its one blueprint.

Anyone who can reach the page may watch: the board drawn from the match's position,
the dice and the referee's verdict, the cube, the score, the camera view. Changing
anything takes the PIN printed in the terminal at start; every request that changes
state also carries the page's anti-forgery token (double-submitted: a header that a
page from another site cannot set, checked against the signed session) and must come
from this page's origin. Every bad request gets a 4xx with one line of JSON saying
why, and changes nothing.

The page knows the table only through `companion.table.Table` (state, changes, the
camera view as JPEG): it never imports the camera, the readers or the serial link.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask

from companion.table import Table


def create_app(session: Table, test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secrets.token_bytes(32),
        MAX_CONTENT_LENGTH=16 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        PIN_ATTEMPTS=5,  # wrong PINs in a row from one address before a pause
        PIN_PAUSE_S=30.0,
        STREAM_KEEPALIVE_S=15.0,
        STREAM_MAX_WATCHERS=1000,  # live streams at once; more get a 503 and Retry-After
        STREAM_RETRY_AFTER_S=30,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["bg_session"] = session
    from companion.web.auth import CONTROLLERS_KEY, Controllers, register_refusals
    from companion.web.streams import StreamHub
    from companion.web.views import bp, page_state

    app.extensions[CONTROLLERS_KEY] = Controllers()
    app.extensions["bg_hub"] = StreamHub(
        lambda: page_state(session),
        session.wait_change,
        session.stop,
        limit=int(app.config["STREAM_MAX_WATCHERS"]),
        keepalive_s=float(app.config["STREAM_KEEPALIVE_S"]),
    )
    app.register_blueprint(bp)
    register_refusals(app)
    return app


def make_page_server(host: str, port: int, app: Flask) -> Any:
    """The page's HTTP server (see companion.web.streams)."""
    from companion.web.streams import make_page_server as make

    return make(host, port, app)


__all__ = ["create_app", "make_page_server"]
