"""The cube display unit beside a match kept in a match file.

`follow()` keeps the unit showing the match's cube and score (whoever records
the actions: `bgcompanion match`, later the camera) and turns the unit's
double / take / pass buttons into match actions, recorded in the file like any
other. A press the rules do not allow now is ignored with the reason.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from pathlib import Path

from companion.link.client import CubeLink
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
    while not stop.is_set():
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
        action = press_action(match, press)
        if isinstance(action, str):
            say(f"ignored: {action}")
            continue
        try:
            store.apply(selected, action)
        except RulesError as e:  # the file changed under us since it was read
            say(f"ignored: {press.player} {press.button}: {e}")
            continue
        say(f"recorded: {action['type']} ({press.player} pressed {press.button})")
