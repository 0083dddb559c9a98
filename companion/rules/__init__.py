"""The backgammon rules: positions, legal plays, notation, game end, IDs.

Standard library only; imports nothing else of the project.

    >>> from companion.rules import Position
    >>> plays = Position.start().legal_plays((3, 1))
    >>> len(plays), "8/5 6/5" in plays
    (16, True)
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
    position_from_id,
    position_id,
    xgid,
)
from companion.rules.moves import LegalPlays, Play, check_dice
from companion.rules.notation import format_steps
from companion.rules.position import BAR, BLACK, CHECKERS, OFF, WHITE, Color, Position
from companion.rules.text import draw_board

__all__ = [
    "BAR",
    "BLACK",
    "CHECKERS",
    "OFF",
    "WHITE",
    "Color",
    "DiceError",
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
    "check_dice",
    "draw_board",
    "format_steps",
    "game_result",
    "gnubg_id",
    "match_from_id",
    "match_id",
    "parse_gnubg_id",
    "parse_position",
    "parse_xgid",
    "position_from_id",
    "position_id",
    "xgid",
]
