"""What the page makes of a match: the legal plays to highlight, the game's record, and
which events it shows (`companion.session.Session.state` puts them in the page's state).
The rules only: no camera, reader or serial port.
"""

from __future__ import annotations

from typing import Any

from companion.rules.match import Match, MatchRules, Phase
from companion.rules.position import WHITE, Color


def shown(event: dict[str, Any], rules: MatchRules) -> bool:
    """Illegal plays are not shown in tournament mode unless both players agreed."""
    return not (event["type"] == "illegal_play" and rules.tournament and not rules.call_illegal)


def legal_plays(match: Match, limit: int = 60) -> list[dict[str, Any]]:
    """The legal plays of the roll to be played, in notation, with their steps in white's
    point numbers (1-24, 25 bar, 0 off from white's side; black's are mirrored) for
    highlighting on the board."""
    if match.phase != Phase.MOVE or match.dice is None:
        return []
    mover = match.on_roll
    out: list[dict[str, Any]] = []
    for play in match.position.legal_plays(match.dice)[:limit]:
        steps = []
        for src, dst, hit in play.steps:
            steps.append([_white_point(src, mover), _white_point(dst, mover), hit])
        out.append({"play": str(play) or "(no legal play)", "steps": steps})
    return out


def _white_point(point: int, mover: Color) -> int | str:
    """A mover's point number as the board on the page names it (white's numbering)."""
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return point if mover == WHITE else 25 - point


def history(match: Match, games: int = 1) -> list[dict[str, Any]]:
    """The current game's record: each player's rolls, plays and cube actions, in order."""
    out = []
    for g in match.games[-games:]:
        for color, text in g.slots:
            out.append({"game": g.number, "player": str(color), "text": text.strip()})
    return out


__all__ = ["history", "legal_plays", "shown"]
