"""A table as the page sees it: what it shows, and the controls it takes.

`companion.web` depends on this interface only, never on the session that implements
it (`companion.session.Session`), so that the page imports neither the camera, the
readers nor the serial link: it reads state, waits for changes and asks for actions.
Standard library and the rules only.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from companion.rules.match import Action, Match, MatchRules

# What the page may ask for, and what each needs.
PAGE_ACTIONS = {
    "double",
    "take",
    "drop",
    "beaver",
    "resign",
    "accept",
    "reject",
    "roll",
    "opening",
    "play",
}


class Table(Protocol):
    """One table's match and what was seen of it, as the page reads and changes it."""

    @property
    def pin(self) -> str:
        """The PIN that gives a browser the controls."""
        ...

    @property
    def match_id(self) -> int:
        """The match being played (its number in the match file)."""
        ...

    @property
    def stop(self) -> threading.Event:
        """Set when the table closes: live streams end."""
        ...

    def state(self) -> dict[str, Any]:
        """Everything the page shows, as JSON; its "version" moves on every change."""
        ...

    def wait_change(self, version: int, timeout: float) -> int:
        """Block until the version moves past `version` (or timeout); the version now."""
        ...

    def camera_jpeg(self, width: int = 800) -> bytes | None:
        """The newest camera frame with what was read drawn over it, or None."""
        ...

    def match(self) -> Match:
        """The match as stored now."""
        ...

    def act(self, action: Action) -> list[dict[str, Any]]:
        """An action of PAGE_ACTIONS; its events. MatchError or RulesError say why not."""
        ...

    def undo(self) -> None:
        """Takes back the last change; RulesError when there is none."""
        ...

    def new_match(self, rules: MatchRules) -> int:
        """Starts a new match under `rules`; its id."""
        ...


__all__ = ["PAGE_ACTIONS", "Table"]
