"""GNU Backgammon Position ID and Match ID, and XGID, both ways.

Colours: GNU Backgammon's player 1 is the bottom player, white here; player 0
is the top player, black (formats.md §4: "bottom = player 1, top = player 0").
A Position ID is written from the side on roll: the side not on roll's
checkers first (points 1-24, then the bar), then the side on roll's, each
checker a 1 bit and each point closed by a 0 bit, packed least significant bit
first into 10 bytes and written in Base64 without padding. Checked against
GNU Backgammon itself (tests/rules/test_ids_gnubg.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from companion.rules.errors import IdError
from companion.rules.position import (
    BAR,
    BLACK,
    CHECKERS,
    WHITE,
    Color,
    Position,
    pack_bits,
    position_from_id,
    position_id,
    unpack_bits,
)


class GameState(IntEnum):
    """GNU Backgammon's game states (Match ID bits 9-11)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


_PLAYER = {BLACK: 0, WHITE: 1}
_COLOR = {0: BLACK, 1: WHITE}


@dataclass(frozen=True)
class MatchInfo:
    """What a Match ID / XGID says beside the board.

    `on_roll` is the player on roll (or who rolled the dice shown); `to_act`
    the player who must act now, the opponent while a double or resignation
    awaits an answer. Scores are by colour; `match_length` 0 is money play.
    """

    match_length: int = 0
    score_white: int = 0
    score_black: int = 0
    cube_value: int = 1
    cube_owner: Color | None = None
    on_roll: Color = WHITE
    to_act: Color | None = None  # None: the same as on_roll
    dice: tuple[int, int] | None = None
    crawford: bool = False
    double_offered: bool = False
    resign: int = 0  # 0 none, 1 single, 2 gammon, 3 backgammon
    game_state: GameState = GameState.PLAYING
    jacoby: bool = True
    beavers: bool = False
    max_cube_log2: int = 10  # XGID's cube limit; GNU Backgammon ignores it

    @property
    def acting(self) -> Color:
        return self.on_roll if self.to_act is None else self.to_act


def _field(value: int, width: int) -> list[int]:
    return [(value >> i) & 1 for i in range(width)]


def _read(bits: list[int], start: int, width: int) -> int:
    return sum(bits[start + i] << i for i in range(width))


# --- Match ID ------------------------------------------------------------


def _log2_cube(value: int) -> int:
    if value < 1 or value & (value - 1):
        raise IdError(f"cube value {value} is not a power of two")
    return value.bit_length() - 1


def match_id(info: MatchInfo) -> str:
    """The GNU Backgammon Match ID (12 characters)."""
    owner = 3 if info.cube_owner is None else _PLAYER[info.cube_owner]
    dice = sorted(info.dice, reverse=True) if info.dice else [0, 0]
    for name, value, width in (
        ("match length", info.match_length, 15),
        ("white's score", info.score_white, 15),
        ("black's score", info.score_black, 15),
    ):
        if not 0 <= value < 1 << width:
            raise IdError(f"{name} {value} does not fit a Match ID")
    bits = (
        _field(_log2_cube(info.cube_value), 4)
        + _field(owner, 2)
        + _field(_PLAYER[info.on_roll], 1)
        + _field(int(info.crawford), 1)
        + _field(int(info.game_state), 3)
        + _field(_PLAYER[info.acting], 1)
        + _field(int(info.double_offered), 1)
        + _field(info.resign, 2)
        + _field(dice[0], 3)
        + _field(dice[1], 3)
        + _field(info.match_length, 15)
        + _field(info.score_black, 15)
        + _field(info.score_white, 15)
        + _field(int(not info.jacoby), 1)
    )
    return pack_bits(bits, 9)


def match_from_id(text: str) -> MatchInfo:
    """The fields of a Match ID."""
    bits = unpack_bits(text.strip(), 9, "Match ID")
    owner = _read(bits, 4, 2)
    if owner == 2:
        raise IdError(f"Match ID {text!r}: cube owner 2 is not a player")
    state = _read(bits, 8, 3)
    if state > 4:
        raise IdError(f"Match ID {text!r}: unknown game state {state}")
    d1, d2 = _read(bits, 15, 3), _read(bits, 18, 3)
    if (d1 == 0) != (d2 == 0) or d1 > 6 or d2 > 6:
        raise IdError(f"Match ID {text!r}: dice {d1} and {d2} are not a roll")
    on_roll = _COLOR[bits[6]]
    to_act = _COLOR[bits[11]]
    return MatchInfo(
        cube_value=1 << _read(bits, 0, 4),
        cube_owner=None if owner == 3 else _COLOR[owner],
        on_roll=on_roll,
        crawford=bool(bits[7]),
        game_state=GameState(state),
        to_act=None if to_act is on_roll else to_act,
        double_offered=bool(bits[12]),
        resign=_read(bits, 13, 2),
        dice=(d1, d2) if d1 else None,
        match_length=_read(bits, 21, 15),
        score_black=_read(bits, 36, 15),
        score_white=_read(bits, 51, 15),
        jacoby=not bits[66],
    )


def gnubg_id(position: Position, info: MatchInfo) -> str:
    """`PositionID:MatchID`, the board written from `info.on_roll`'s side."""
    return f"{position_id(position.with_turn(info.on_roll))}:{match_id(info)}"


# --- XGID ----------------------------------------------------------------


def xgid(position: Position, info: MatchInfo) -> str:
    """The XGID of a position and match state (bottom = white)."""
    chars = ["-"] * 26
    w, b = position.white, position.black
    if b[BAR]:
        chars[0] = chr(ord("a") + b[BAR] - 1)
    if w[BAR]:
        chars[25] = chr(ord("A") + w[BAR] - 1)
    for point in range(1, 25):
        if w[point]:
            chars[point] = chr(ord("A") + w[point] - 1)
        elif b[25 - point]:
            chars[point] = chr(ord("a") + b[25 - point] - 1)
    owner = {None: 0, WHITE: 1, BLACK: -1}[info.cube_owner]
    turn = 1 if info.on_roll is WHITE else -1
    if info.double_offered:
        dice = "D"
    elif info.dice:
        dice = f"{info.dice[0]}{info.dice[1]}"
    else:
        dice = "00"
    rules = int(info.crawford) if info.match_length else int(info.jacoby) | int(info.beavers) << 1
    return (
        f"XGID={''.join(chars)}:{_log2_cube(info.cube_value)}:{owner}:{turn}:{dice}:"
        f"{info.score_white}:{info.score_black}:{rules}:{info.match_length}:{info.max_cube_log2}"
    )


def _int(text: str, name: str, xg: str) -> int:
    # ASCII digits, few of them: `\d` takes other scripts' digits, and int() refuses
    # more than 4,300 digits with a ValueError of its own.
    if not re.fullmatch(r"-?[0-9]{1,6}", text):
        raise IdError(f"XGID {xg[:80]!r}: {name} {text[:20]!r} is not a number (1-6 digits)")
    return int(text)


def parse_xgid(text: str) -> tuple[Position, MatchInfo]:
    """The position (side to move = the player on roll) and match state of an XGID."""
    raw = text.strip()
    body = raw[5:] if raw.upper().startswith("XGID=") else raw
    parts = body.split(":")
    if len(parts) < 9 or len(parts) > 10:
        raise IdError(f"XGID {raw!r}: expected 10 fields separated by ':', got {len(parts)}")
    board, cube, owner, turn, dice = parts[:5]
    if len(board) != 26 or not re.fullmatch(r"[-A-Pa-p]{26}", board):
        raise IdError(f"XGID {raw!r}: the board must be 26 characters of '-', A-P and a-p")
    w, b = [0] * 26, [0] * 26
    for i, ch in enumerate(board):
        if ch == "-":
            continue
        n = ord(ch.lower()) - ord("a") + 1
        if ch.isupper():
            if i == 0:
                raise IdError(f"XGID {raw!r}: the first character is black's bar (a-p)")
            w[i] += n
        else:
            if i == 25:
                raise IdError(f"XGID {raw!r}: the last character is white's bar (A-P)")
            b[BAR if i == 0 else 25 - i] += n
    for side, arr in (("white", w), ("black", b)):
        if sum(arr) > CHECKERS:
            raise IdError(f"XGID {raw!r}: {side} has {sum(arr)} checkers on the board")
        arr[0] = CHECKERS - sum(arr)
    cube_log2 = _int(cube, "cube", raw)
    if not 0 <= cube_log2 <= 15:
        raise IdError(f"XGID {raw!r}: cube {cube_log2} out of range")
    owners = {"0": None, "1": WHITE, "-1": BLACK}
    if owner not in owners:
        raise IdError(f"XGID {raw!r}: cube position {owner!r} must be 1, 0 or -1")
    if turn not in ("1", "-1"):
        raise IdError(f"XGID {raw!r}: turn {turn!r} must be 1 or -1")
    on_roll = WHITE if turn == "1" else BLACK
    rolled: tuple[int, int] | None = None
    offered = dice.upper() == "D"
    if not offered and dice != "00":
        if not re.fullmatch(r"[1-6][1-6]", dice):
            raise IdError(f"XGID {raw!r}: dice {dice!r} must be 00, D or two digits 1-6")
        rolled = (int(dice[0]), int(dice[1]))
    score_w = _int(parts[5], "bottom score", raw)
    score_b = _int(parts[6], "top score", raw)
    rules = _int(parts[7], "rules", raw)
    length = _int(parts[8], "match length", raw)
    max_cube = _int(parts[9], "max cube", raw) if len(parts) == 10 else 10
    if min(score_w, score_b, length) < 0 or not 0 <= rules <= 3:
        raise IdError(f"XGID {raw!r}: scores, rules and match length must not be negative")
    info = MatchInfo(
        match_length=length,
        score_white=score_w,
        score_black=score_b,
        cube_value=1 << cube_log2,
        cube_owner=owners[owner],
        on_roll=on_roll,
        to_act=on_roll.opponent if offered else None,
        dice=rolled,
        crawford=bool(rules & 1) if length else False,
        double_offered=offered,
        jacoby=bool(rules & 1) if not length else False,
        beavers=bool(rules & 2) if not length else False,
        max_cube_log2=max_cube,
    )
    position = Position(tuple(w), tuple(b), on_roll)
    problems = position.status()
    if problems:
        raise IdError(f"XGID {raw!r}: {problems[0]}")
    return position, info


def parse_gnubg_id(text: str) -> tuple[Position, MatchInfo]:
    """`PositionID:MatchID` (GNU Backgammon's "GNUbg ID")."""
    pid, _, mid = text.strip().partition(":")
    info = match_from_id(mid)
    return position_from_id(pid, info.on_roll), info


def parse_position(text: str, turn: Color | None = None) -> Position:
    """A position from an XGID, a GNUbg ID (`PositionID:MatchID`) or a bare Position ID.

    A bare Position ID does not say whose turn it is: `turn` (default white)
    is the side on roll. For the other forms `turn`, if given, overrides the ID.
    """
    raw = text.strip()
    if raw.upper().startswith("XGID=") or raw.count(":") >= 8:
        position, _ = parse_xgid(raw)
    elif ":" in raw:
        position, _ = parse_gnubg_id(raw)
    else:
        return position_from_id(raw, turn or WHITE)
    return position if turn is None else position.with_turn(turn)
