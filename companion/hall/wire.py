"""What goes over the broker: topics, payloads, and the checks a message must pass.

Topics (one table's, all under its own id; the broker's ACL lets table `<id>` write
only under `bgcompanion/table/<id>/`, and the hall only read):

- `bgcompanion/table/<id>/event`  QoS 1, not retained: one event of the table's match
  file, in the file's order: `{"table": "12", "match": 3, "seq": 17, "type": "play",
  "event": {...the stored event...}, "at": "2026-11-25T04:00:00.123Z"}`. `(match, seq)`
  is the event's id in the file: subscribers drop one they already have.
- `bgcompanion/table/<id>/state`  QoS 1, retained: the table now (names, score, match
  length, cube, Crawford, Position ID, whose turn, the referee's standing call, a fix
  asked for, health, the page's address), sent when it changes and every few seconds.
- `bgcompanion/table/<id>/online` QoS 1, retained: `{"table": "12", "online": true}`;
  the broker sends `false` for the table (its will) when the table vanishes.

Pure functions and no broker client here: the unit tests of parsing run without one.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from calibration.jsonin import BadJSON
from calibration.jsonin import loads as bounded_json

PREFIX = "bgcompanion/table"
KINDS = ("event", "state", "online")
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_PAYLOAD = 64 * 1024  # a state is about 1 KB, an event less
MAX_TEXT = 200  # any one string shown on the hall page
USER_ENV = "BGCOMPANION_MQTT_USER"
PASSWORD_ENV = "BGCOMPANION_MQTT_PASSWORD"


class WireError(ValueError):
    """A broker address, a table id or a credentials file that cannot be used."""


class Dropped(ValueError):
    """A message the hall will not show; `reason` is the counter it is counted under."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


@dataclass(frozen=True)
class Broker:
    host: str
    port: int

    def __str__(self) -> str:
        return f"mqtt://{self.host}:{self.port}"


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str = ""


@dataclass(frozen=True)
class Message:
    """A message that passed the checks: whose it is, which kind, its document."""

    table: str
    kind: str
    doc: dict[str, Any]


def parse_broker(text: str) -> Broker:
    """`mqtt://HOST:PORT` (the port defaults to 1883); credentials never go in it."""
    parts = urlsplit(text)
    if parts.scheme != "mqtt" or not parts.hostname:
        raise WireError(f"{text!r}: expected mqtt://HOST:PORT")
    if parts.username or parts.password:
        raise WireError("put the broker's credentials in a file or the environment, not the URL")
    try:
        port = parts.port or 1883
    except ValueError:
        raise WireError(f"{text!r}: the port must be 1-65535") from None
    if parts.path not in ("", "/"):
        raise WireError(f"{text!r}: expected mqtt://HOST:PORT with no path")
    return Broker(parts.hostname, port)


def check_table_id(text: str) -> str:
    if not TABLE_ID.fullmatch(text):
        raise WireError(f"table id {text[:40]!r}: 1-32 letters, digits, '-' or '_'")
    return text


def load_credentials(
    path: str | Path | None, env: Mapping[str, str] | None = None
) -> Credentials | None:
    """From a file holding `USER:PASSWORD` on its first line, or else from the environment
    (BGCOMPANION_MQTT_USER, BGCOMPANION_MQTT_PASSWORD); None when neither gives a user."""
    env = os.environ if env is None else env
    if path is not None:
        try:
            line = Path(path).read_text(encoding="utf-8").splitlines()[0:1]
        except (OSError, UnicodeDecodeError) as e:
            raise WireError(f"{path}: cannot read the credentials ({e})") from None
        user, sep, password = (line[0] if line else "").partition(":")
        if not sep or not user:
            raise WireError(f"{path}: expected USER:PASSWORD on its first line")
        return Credentials(user, password)
    user = env.get(USER_ENV, "")
    return Credentials(user, env.get(PASSWORD_ENV, "")) if user else None


def topic(table: str, kind: str) -> str:
    return f"{PREFIX}/{table}/{kind}"


def _dumps(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, separators=(",", ":")).encode()


def event_message(
    table: str, match: int, seq: int, kind: str, event: dict[str, Any], at: str
) -> bytes:
    return _dumps(
        {"table": table, "match": match, "seq": seq, "type": kind, "event": event, "at": at}
    )


def state_message(table: str, state: dict[str, Any]) -> bytes:
    return _dumps({**state, "table": table})


def online_message(table: str, online: bool) -> bytes:
    return _dumps({"table": table, "online": online})


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_message(topic_name: str, payload: bytes) -> Message:
    """The message if it may be shown; Dropped naming why not (`wrong_topic`,
    `unparsable` or `wrong_table`)."""
    parts = topic_name.split("/")
    if (
        len(parts) != 4
        or "/".join(parts[:2]) != PREFIX
        or parts[3] not in KINDS
        or not TABLE_ID.fullmatch(parts[2])
    ):
        raise Dropped("wrong_topic", topic_name[:MAX_TEXT])
    table, kind = parts[2], parts[3]
    if len(payload) > MAX_PAYLOAD:
        raise Dropped("unparsable", f"{len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        doc = bounded_json(payload)
    except (BadJSON, UnicodeDecodeError, RecursionError) as e:
        raise Dropped("unparsable", str(e)) from None
    if not isinstance(doc, dict):
        raise Dropped("unparsable", "not a JSON object")
    if doc.get("table") != table:
        raise Dropped("wrong_table", f"topic of table {table}, message of {doc.get('table')!r}")
    problem = _problem(kind, doc)
    if problem:
        raise Dropped("unparsable", problem)
    return Message(table, kind, doc)


def _problem(kind: str, doc: dict[str, Any]) -> str | None:
    """What is wrong with a message's fields, or None."""
    if kind == "online":
        return None if isinstance(doc.get("online"), bool) else "online: expected true or false"
    if kind == "event":
        match, seq, event = doc.get("match"), doc.get("seq"), doc.get("event")
        if not (isinstance(match, int) and isinstance(seq, int) and _is_int(match)):
            return "an event needs a match >= 1 and a seq >= 0"
        if not _is_int(seq) or match < 1 or seq < 0:
            return "an event needs a match >= 1 and a seq >= 0"
        if not isinstance(doc.get("type"), str) or not isinstance(doc.get("at"), str):
            return "an event needs its type and time"
        if not isinstance(event, dict) or event.get("type") != doc["type"]:
            return "an event's record must be an object of its type"
        return None
    # state
    if not _is_int(doc.get("match")) or not isinstance(doc.get("at"), int | float):
        return "a state needs its match and time"
    for key in ("names", "score", "cube", "health"):
        if not isinstance(doc.get(key, {}), dict):
            return f"{key}: expected an object"
    for key in ("call", "fix"):
        if doc.get(key) is not None and not isinstance(doc[key], dict):
            return f"{key}: expected an object or null"
    return None


def text(value: object, limit: int = MAX_TEXT) -> str:
    """A value from a message as text for the page, cut to `limit`."""
    out = value if isinstance(value, str) else json.dumps(value)
    return out if len(out) <= limit else out[: limit - 1] + "…"
