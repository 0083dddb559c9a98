"""The cube display unit beside a match kept in a match file.

`follow()` keeps the unit showing the match's cube and score (whoever records
the actions: `bgcompanion match`, later the camera) and turns the unit's
double / take / pass buttons into match actions, recorded in the file like any
other. A press the rules do not allow now is ignored with the reason: "now" is
when the press is handled, with the match read again from the file (another
process may have recorded an action a moment before). When the unit goes quiet
for good it says so once, and once again when it is back.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.link.client import CubeLink, Status
from companion.link.protocol import ButtonPress, DisplayState
from companion.rules import BLACK, WHITE
from companion.rules.errors import RulesError
from companion.rules.match import Action, Match
from companion.store import Store

BUTTON_ACTIONS = {"double": "double", "take": "take", "pass": "drop"}


def press_action(match: Match, press: ButtonPress) -> Action | str:
    """The match action a button press asks for, or why it is ignored."""
    player = WHITE if press.player == "w" else BLACK
    kind = BUTTON_ACTIONS[press.button]
    if match.acting is not player:
        whose = f"{match.acting}'s turn to act" if match.acting else "nobody's turn to act"
        return f"{player} pressed {press.button}, but it is {whose}"
    if kind not in match.allowed():
        why = match.can_double() if kind == "double" else None
        return f"{player} pressed {press.button}: not allowed now" + (f" ({why})" if why else "")
    return {"type": kind}


def follow(
    db: str | Path,
    link: CubeLink,
    stop: threading.Event,
    say: Callable[[str], None],
    match_id: int | None = None,
    poll_s: float = 0.2,
) -> None:
    """Until `stop` is set: show the match in `db` on the unit, record its buttons' actions.
    The file is opened here, so this can run in a thread of its own."""
    with Store(db) as store:
        _follow(store, link, stop, say, match_id, poll_s)


def _follow(
    store: Store,
    link: CubeLink,
    stop: threading.Event,
    say: Callable[[str], None],
    match_id: int | None,
    poll_s: float,
) -> None:
    shown: DisplayState | None = None
    link_news = LinkNews(link, say)
    while not stop.is_set():
        link_news.check()
        selected = match_id or store.latest_match()
        if selected is None:
            stop.wait(poll_s)
            continue
        match = store.load(selected)
        state = DisplayState.from_summary(match.summary())
        if state != shown:
            link.show(state)
            shown = state
            say(f"showing: {state.line()}")
        try:
            press = link.events.get(timeout=poll_s)
        except queue.Empty:
            continue
        say(record_press(store, match_id, press))


def record_press(store: Store, match_id: int | None, press: ButtonPress, tries: int = 3) -> str:
    """Judge a press against the match as the file holds it now, and record it if allowed;
    the line saying what happened. The match is read again here, never taken from before
    the press arrived: another process may have just recorded an action. If one records
    between this reading and this writing, the press is judged again."""
    for _ in range(tries):
        selected = match_id or store.latest_match()
        if selected is None:
            return f"ignored: {press.player} {press.button}: no match in the file"
        action = press_action(store.load(selected), press)
        if isinstance(action, str):
            return f"ignored: {action}"
        try:
            store.apply(selected, action)
        except sqlite3.IntegrityError:  # another writer took the same place in the record
            continue
        except RulesError as e:
            return f"ignored: {press.player} {press.button}: {e}"
        return f"recorded: {action['type']} ({press.player} pressed {press.button})"
    return f"ignored: {press.player} {press.button}: the match file kept changing"


class LinkNews:
    """One line when the unit goes missing and one when it is back, not one per retry."""

    def __init__(self, link: CubeLink, say: Callable[[str], None]) -> None:
        self.link = link
        self.say = say
        self.missing_since: float | None = None

    def check(self) -> None:
        status = self.link.status
        if status is Status.MISSING and self.missing_since is None:
            self.missing_since = self.link.down_since or time.monotonic()
            why = self.link.problems[-1] if self.link.problems else "no answer"
            self.say(
                f"cube unit missing ({why.removeprefix('link: ')}): its display is stale; "
                "trying again every second until it answers"
            )
        elif status is Status.CONNECTED and self.missing_since is not None:
            gone = time.monotonic() - self.missing_since
            self.missing_since = None
            self.say(f"cube unit back after {gone:.0f} s: showing the match again")
