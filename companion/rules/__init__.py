"""The backgammon rules: positions, legal plays, notation, game end, IDs.

Standard library only; imports nothing else of the project.

    >>> from companion.rules import Position, is_legal, parse_play
    >>> plays = Position.start().legal_plays((3, 1))
    >>> len(plays), is_legal(plays, "8/5 6/5")
    (16, True)
    >>> parse_play(Position.start(), (3, 1), "8/5 6/5").result.turn
    <Color.BLACK: 'black'>

The modules import each other one way only (tests/test_architecture.py checks
that there is no cycle): errors <- position (Position, its Position ID, legal
plays, a play written out) <- notation (reading play text), text (the board
drawn), ids (Match ID, XGID), game <- match <- mat, sample; roll (whether the dice
as they lie stand as a roll) stands alone.
"""

from companion.rules.errors import (
    DiceError,
    IdError,
    IllegalPlayError,
    NotationError,
    PositionError,
    RulesError,
)
from companion.rules.game import GameResult, OpeningRoll, ResultType, game_result
from companion.rules.ids import (
    GameState,
    MatchInfo,
    gnubg_id,
    match_from_id,
    match_id,
    parse_gnubg_id,
    parse_position,
    parse_xgid,
    xgid,
)
from companion.rules.notation import find_play, is_legal, parse_play
from companion.rules.position import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    WHITE,
    Color,
    LegalPlays,
    Play,
    Position,
    check_dice,
    format_steps,
    position_from_id,
    position_id,
)
from companion.rules.roll import REASONS, DieShown, Verdict, roll_verdict
from companion.rules.text import draw_board

__all__ = [
    "BAR",
    "BLACK",
    "CHECKERS",
    "OFF",
    "REASONS",
    "WHITE",
    "Color",
    "DiceError",
    "DieShown",
    "GameResult",
    "GameState",
    "IdError",
    "IllegalPlayError",
    "LegalPlays",
    "MatchInfo",
    "NotationError",
    "OpeningRoll",
    "Play",
    "Position",
    "PositionError",
    "ResultType",
    "RulesError",
    "Verdict",
    "check_dice",
    "draw_board",
    "find_play",
    "format_steps",
    "game_result",
    "gnubg_id",
    "is_legal",
    "match_from_id",
    "match_id",
    "parse_gnubg_id",
    "parse_play",
    "parse_position",
    "parse_xgid",
    "position_from_id",
    "position_id",
    "roll_verdict",
    "xgid",
]
