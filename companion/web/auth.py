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
from collections import OrderedDict

PIN_MAX = 12  # the longest PIN `run --pin` accepts
TOKEN_MAX = 128  # the page's tokens are 32 characters
TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "-_")  # token_urlsafe's


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
