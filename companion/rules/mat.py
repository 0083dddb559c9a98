"""The Jellyfish .mat match format, both ways, as GNU Backgammon writes and reads it.

Columns: the left player is GNU Backgammon's player 0 (black here, the top
seat), the right player is player 1 (white, the bottom seat), matching the
Position ID / Match ID colours. Plays are written one step per die with 25 for
the bar and 0 for off, as GNU Backgammon's own export does, which its importer
reads without any of its lenient guesses. The Crawford rule is declared with
XG's `; [Crawford "On"]` tag; the Crawford game itself is implied by the scores
(shared/design/formats.md §1).

Import is strict where GNU Backgammon is lenient: every play must be legal for
its roll, every header score must follow from the results before it, a
`Wins` line must match the game's value, and `Doubles => N` must name the cube
the double turns. A file cut short on a line boundary reads as a valid but
shorter match, so a match not over (or a money game without a result) is
refused unless the caller accepts unfinished matches. Errors name the game and move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from companion.rules.errors import RulesError
from companion.rules.match import Action, Match, MatchError, MatchRules, Phase
from companion.rules.position import BLACK, WHITE, Color


class MatError(RulesError):
    """A .mat file that cannot be read, or that records something impossible."""


class UnfinishedMatch(MatError):
    """A .mat file whose match is not over: still in play, or cut short."""


# --- export ------------------------------------------------------------------


def _rows(slots: list[tuple[Color, str]]) -> list[list[str]]:
    """Slots in play order -> rows of [left (black), right (white)]."""
    rows: list[list[str]] = []
    for color, text in slots:
        if color is BLACK:
            rows.append([text, ""])
        elif rows and rows[-1][0] and not rows[-1][1]:
            rows[-1][1] = text
        else:
            rows.append(["", text])
    return rows


def export_mat(match: Match, event_date: str | None = None) -> str:
    """The whole match (every game played or in play) as .mat text."""
    rules = match.rules
    lines = ['; [Variation "Backgammon"]', '; [Transcriber "bgcompanion"]']
    if event_date:
        lines.append(f'; [EventDate "{event_date}"]')
    if rules.length:
        lines.append(f'; [Crawford "{"On" if rules.crawford else "Off"}"]')
    else:
        lines.append(f'; [Jacoby "{"On" if rules.jacoby else "Off"}"]')
        lines.append(f'; [Beaver "{"On" if rules.beavers else "Off"}"]')
    lines += ["", f" {rules.length} point match", ""]
    for game in match.games:
        if not game.slots and game.winner is None:
            continue  # the next game has not started
        lines.append(f" Game {game.number}")
        lines.append(
            " "
            + f"{rules.black} : {game.score_black}".ljust(31)
            + f"{rules.white} : {game.score_white}"
        )
        for i, (left, right) in enumerate(_rows(game.slots), 1):
            lines.append(f"{i:3d}) {left:<27} {right}".rstrip())
        if game.winner is not None:
            s = "s" if game.points != 1 else ""
            indent = 34 if game.winner is WHITE else 6
            lines.append(" " * indent + f"Wins {game.points} point{s}")
        lines.append("")
    return "\n".join(lines) + "\n"


# --- import ------------------------------------------------------------------


@dataclass
class _Game:
    number: int
    scores: tuple[int, int]  # (left = black, right = white)
    slots: list[tuple[Color, str, int]] = field(default_factory=list)  # (color, text, line)


@dataclass
class ParsedMat:
    rules: MatchRules
    games: list[_Game]


# ASCII digits only (re.ASCII): `\d` and int() also take other scripts' digits.
_LENGTH = re.compile(r"^\s*([0-9]{1,3})\s+[Pp]oint\s+[Mm]atch", re.ASCII)
_SCORE = re.compile(
    r"^\s*(?P<l>[^:]*?)\s*:\s*(?P<ls>[0-9]{1,3})\s+(?P<r>[^:]*?)\s*:\s*(?P<rs>[0-9]{1,3})\s*$",
    re.ASCII,
)
_TAG = re.compile(r'^[;#]\s*\[(\w+)\s+"([^"]*)"\]', re.ASCII)
_ROW = re.compile(r"^\s*[0-9]+\)(.*)$", re.ASCII)
_GAME = re.compile(r"^\s*Game\s+([0-9]{1,4})\b", re.ASCII)


def _split_row(rest: str) -> tuple[str, str]:
    """GNU Backgammon's column split: 2 characters before a second ':', else the
    first double space from column 15 on (formats.md §1)."""
    colons = [i for i, ch in enumerate(rest) if ch == ":"]
    if len(colons) >= 2:
        cut = colons[1] - 2
    elif len(rest) > 15 and rest.find("  ", 15) >= 0:
        cut = rest.find("  ", 15)
    else:
        return rest.strip(), ""
    return rest[:cut].strip(), rest[cut:].strip()


def parse_mat(text: str) -> ParsedMat:
    """The rules, names and the games' move columns of a .mat file (not yet checked)."""
    tags: dict[str, str] = {}
    length: int | None = None
    games: list[_Game] = []
    lines = text.lstrip("\ufeff").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        number = i + 1
        i += 1
        if not line.strip():
            continue
        if length is None:
            tag = _TAG.match(line.strip())
            if tag:
                tags[tag[1].lower()] = tag[2]
                continue
            if line.lstrip().startswith((";", "#")):
                continue
            m = _LENGTH.match(line)
            if not m:
                raise MatError(f"line {number}: expected the match header, e.g. ' 7 point match'")
            length = int(m[1])
            continue
        game = _GAME.match(line)
        if game:
            score = _SCORE.match(lines[i]) if i < len(lines) else None
            if not score:
                raise MatError(f"line {number + 1}: expected the score line 'Name : 0   Name : 0'")
            games.append(_Game(int(game[1]), (int(score["ls"]), int(score["rs"]))))
            if len(games) == 1:
                tags["black"], tags["white"] = score["l"].strip(), score["r"].strip()
            i += 1
            continue
        if not games:
            raise MatError(f"line {number}: expected ' Game 1' before the moves")
        row = _ROW.match(line)
        if row:
            left, right = _split_row(row[1])
        else:
            indent = len(line) - len(line.lstrip())
            left, right = ("", line.strip()) if indent >= 20 else (line.strip(), "")
        for color, cell in ((BLACK, left), (WHITE, right)):
            if cell:
                games[-1].slots.append((color, cell, number))
    if length is None:
        raise MatError("no match header (' N point match') found")

    def on(name: str) -> bool:
        return tags.get(name, "").strip().lower() in ("on", "true", "yes", "1")

    try:
        rules = MatchRules(
            length=length,
            jacoby=on("jacoby") and not length,
            beavers=on("beaver") and not length,
            crawford=tags.get("crawford", "on").strip().lower() != "off",
            white=tags.get("white") or "White",
            black=tags.get("black") or "Black",
        )
    except MatchError as e:
        raise MatError(f"header: {e}") from None
    return ParsedMat(rules, games)


_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_WINS = re.compile(r"^Wins\s+([0-9]{1,4})\s+points?", re.IGNORECASE | re.ASCII)
# "Doubles => 2" as GNU Backgammon and XG write it; a bare "Double" is read too.
_DOUBLE = re.compile(r"^(?:re)?doubles?(?:\s*=>\s*(?P<cube>[0-9]{1,5}))?\s*$", re.I | re.ASCII)


def _slot_actions(match: Match, color: Color, text: str) -> list[Action]:
    """The actions one .mat cell stands for, given the match so far."""
    roll = _ROLL.match(text)
    lower = text.lower()
    if roll:
        d1, d2 = int(roll[1]), int(roll[2])
        play = roll[3].strip()
        if play.lower() in ("cannot move", "???"):
            play = ""
        actions: list[Action] = []
        if match.phase == Phase.OPENING:
            if d1 == d2:
                raise MatError(f"{d1}{d2} cannot be an opening roll (equal dice roll again)")
            mine, theirs = max(d1, d2), min(d1, d2)
            white, black = (mine, theirs) if color is WHITE else (theirs, mine)
            actions.append({"type": "opening", "white": white, "black": black})
        else:
            actions.append({"type": "roll", "dice": [d1, d2]})
        if play:
            actions.append({"type": "play", "play": play})
        else:
            actions.append({"type": "play?", "dice": [d1, d2]})
        return actions
    if lower.startswith(("double", "redouble")):
        double = _DOUBLE.match(text)
        if not double:
            raise MatError(f"cannot read {text!r}: expected 'Doubles => N', N the new cube")
        if double["cube"] is not None and int(double["cube"]) != 2 * match.cube:
            raise MatError(
                f"{text!r}: the cube is at {match.cube}, so a double turns it to {2 * match.cube}"
            )
        return [{"type": "double"}]
    if lower.startswith(("beaver", "raccoon")):
        return [{"type": "beaver"}]
    if lower.startswith("take"):
        return [{"type": "take"}]
    if lower.startswith(("drop", "pass")):
        return [{"type": "drop"}]
    wins = _WINS.match(text)
    if wins:
        return [{"type": "wins", "points": int(wins[1])}]
    raise MatError(f"cannot read {text!r}")


def import_mat(text: str, unfinished: bool = False) -> tuple[MatchRules, list[Action]]:
    """The rules and the checked list of actions that replay the match in the file.

    A file cut short on a line boundary is a valid match record, only shorter; so,
    unless `unfinished`, a match whose length is not reached (or a money session whose
    last game has no result) is refused, saying how far it goes.
    """
    parsed = parse_mat(text)
    match = Match(parsed.rules)
    actions: list[Action] = []
    for game in parsed.games:
        where = f"game {game.number}"
        if match.over:
            raise MatError(f"{where}: the match was already over")
        expected = (match.score[BLACK], match.score[WHITE])
        if game.scores != expected:
            raise MatError(
                f"{where}: the header says {game.scores[0]}-{game.scores[1]} "
                f"but the games before it give {expected[0]}-{expected[1]}"
            )
        number = match.game.number
        for color, cell, line in game.slots:
            try:
                for action in _slot_actions(match, color, cell):
                    actions.extend(_apply(match, action, color, number))
            except RulesError as e:
                raise MatError(f"{where}, line {line} ({color} {cell!r}): {e}") from None
        if match.game.number == number and not match.over and game is not parsed.games[-1]:
            raise MatError(f"{where}: the game has no result but another game follows")
    if not unfinished:
        _check_finished(match, parsed)
    return parsed.rules, actions


def _check_finished(match: Match, parsed: ParsedMat) -> None:
    """UnfinishedMatch unless the file records a whole match (or, for a money session,
    whole games): a file cut short on a line boundary reads as a shorter match."""
    cut = "the file may have been cut short"
    if not parsed.games or not parsed.games[-1].slots:
        what = f"game {parsed.games[-1].number} has no moves" if parsed.games else "no games"
        raise UnfinishedMatch(f"{what}: {cut}")
    if match.phase not in (Phase.OPENING, Phase.MATCH_OVER):
        raise UnfinishedMatch(f"game {parsed.games[-1].number} has no result: {cut}")
    if parsed.rules.length and not match.over:
        raise UnfinishedMatch(
            f"the {parsed.rules.length}-point match is not over (score "
            f"{match.score[BLACK]}-{match.score[WHITE]} after game {parsed.games[-1].number}): "
            f"{cut}"
        )


def _apply(match: Match, action: Action, color: Color, number: int) -> list[Action]:
    """Applies one .mat action to `match`; returns the match actions it became."""
    kind = action["type"]
    if kind == "wins":
        points = action["points"]
        finished = match.game.number != number or match.over
        if finished:
            record = match.games[number - 1]
            if record.winner is not color or record.points != points:
                raise MatError(
                    f"'Wins {points}' but the game ended {record.winner} +{record.points}"
                )
            return []
        # A game still in play: the other player resigned (single, gammon or backgammon).
        level = 1 if points <= match.cube else 2 if points <= 2 * match.cube else 3
        done: list[Action] = [
            {"type": "resign", "level": level, "player": color.opponent},
            {"type": "accept"},
        ]
        for a in done:
            match.apply(a)
        if match.games[number - 1].points != points:
            raise MatError(
                f"'Wins {points}' is not a resignation's value with the cube at {match.cube}"
            )
        return done
    if kind == "play?":
        # No play written: none possible, one forced, or a resignation follows.
        assert match.dice is not None
        plays = match.position.legal_plays(match.dice)
        if len(plays) == 1:
            action = {"type": "play", "play": str(plays[0])}
        else:
            return []
    if match.acting not in (None, color) and kind != "opening":
        raise MatError(f"{color} cannot {kind}: {match.acting} is to act")
    match.apply(action)
    return [action]
