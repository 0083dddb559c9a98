"""The position: two 26-int arrays (CONTRACTS.md §3) and the side to move.

Each array is from its owner's point of view: index 1..24 = checkers on that
player's point n, 25 = on the bar, 0 = borne off. White's point n is black's
point 25 - n. A `Position` can hold an impossible board (vision produces them);
`status()` lists what is wrong with it, and move generation refuses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from companion.rules.errors import PositionError

if TYPE_CHECKING:
    from companion.rules.moves import LegalPlays, Play

OFF = 0
BAR = 25
CHECKERS = 15
POINTS = 24


class Color(StrEnum):
    """A side. White sits at the bottom edge of the board frame (CONTRACTS.md §1)."""

    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


WHITE = Color.WHITE
BLACK = Color.BLACK

Board = tuple[int, ...]

_START: Board = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def _as_board(values: Iterable[Any], side: str) -> Board:
    board = tuple(values)
    if len(board) != 26:
        raise PositionError(
            f"{side}: expected 26 numbers (off, points 1-24, bar), got {len(board)}"
        )
    if set(map(type, board)) != {int}:  # exact ints: no bools, floats or strings
        i, v = next((i, v) for i, v in enumerate(board) if type(v) is not int)
        raise PositionError(f"{side}[{i}]: expected a whole number, got {v!r}")
    return board


@dataclass(frozen=True, slots=True)
class Position:
    """A board and the side to move. Frozen and hashable.

    `white` and `black` are each from their owner's point of view. Building an
    impossible position is allowed; `status()` says what is wrong with it.
    """

    white: Board
    black: Board
    turn: Color = WHITE

    def __post_init__(self) -> None:
        object.__setattr__(self, "white", _as_board(self.white, "white"))
        object.__setattr__(self, "black", _as_board(self.black, "black"))
        object.__setattr__(self, "turn", Color(self.turn))

    # --- construction -------------------------------------------------
    @classmethod
    def _trusted(cls, white: Board, black: Board, turn: Color) -> Position:
        """Without checks: for boards the engine itself made from a valid position."""
        self = object.__new__(cls)
        object.__setattr__(self, "white", white)
        object.__setattr__(self, "black", black)
        object.__setattr__(self, "turn", turn)
        return self

    @classmethod
    def start(cls, turn: Color = WHITE) -> Position:
        """The starting position: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6."""
        return cls(_START, _START, turn)

    @classmethod
    def from_json(cls, obj: Any, turn: Color | str = WHITE) -> Position:
        """From the contract's `{"white": [...26], "black": [...26]}`."""
        if not isinstance(obj, Mapping):
            raise PositionError("position: expected an object with 'white' and 'black' arrays")
        for side in ("white", "black"):
            if side not in obj:
                raise PositionError(f"position: missing '{side}'")
            if not isinstance(obj[side], Sequence) or isinstance(obj[side], str):
                raise PositionError(f"position: '{side}' must be an array of 26 numbers")
        try:
            color = Color(turn)
        except ValueError:
            raise PositionError(f"turn: expected 'white' or 'black', got {turn!r}") from None
        return cls(tuple(obj["white"]), tuple(obj["black"]), color)

    @classmethod
    def from_sides(cls, mover: Sequence[int], other: Sequence[int], turn: Color) -> Position:
        """From the side to move's array and the other side's array."""
        if turn is WHITE:
            return cls(tuple(mover), tuple(other), WHITE)
        return cls(tuple(other), tuple(mover), BLACK)

    @classmethod
    def from_id(cls, text: str, turn: Color | None = None) -> Position:
        """From a GNU Backgammon Position ID or an XGID (see `companion.rules.ids`)."""
        from companion.rules import ids

        return ids.parse_position(text, turn)

    def to_json(self) -> dict[str, list[int]]:
        return {"white": list(self.white), "black": list(self.black)}

    # --- views -------------------------------------------------------
    def side(self, color: Color) -> Board:
        return self.white if color is WHITE else self.black

    @property
    def mover(self) -> Board:
        """The array of the side to move."""
        return self.side(self.turn)

    @property
    def opponent(self) -> Board:
        """The array of the side not to move."""
        return self.side(self.turn.opponent)

    def with_turn(self, turn: Color) -> Position:
        return Position(self.white, self.black, turn)

    def pip_count(self, color: Color) -> int:
        """Pips `color` needs to bear everything off (a bar checker counts 25)."""
        board = self.side(color)
        return sum(i * n for i, n in enumerate(board))

    def owner_of(self, color: Color, point: int) -> tuple[Color | None, int]:
        """Who holds `point` (in `color`'s numbering, 1..24) and with how many checkers."""
        mine = self.side(color)[point]
        theirs = self.side(color.opponent)[25 - point]
        if mine and not theirs:
            return color, mine
        if theirs and not mine:
            return color.opponent, theirs
        return None, 0

    def status(self) -> list[str]:
        """Everything impossible about this position, as sentences; empty if it is possible."""
        problems: list[str] = []
        for color in (WHITE, BLACK):
            board = self.side(color)
            negative = [i for i, n in enumerate(board) if n < 0]
            if negative:
                problems.append(f"{color} has a negative count at index {negative[0]}")
            total = sum(board)
            if total != CHECKERS:
                problems.append(f"{color} has {total} checkers (expected {CHECKERS})")
        for point in range(1, POINTS + 1):
            w, b = self.white[point], self.black[25 - point]
            if w > 0 and b > 0:
                problems.append(
                    f"white's point {point} (black's {25 - point}) holds both colours "
                    f"({w} white, {b} black)"
                )
        if self.white[OFF] == CHECKERS and self.black[OFF] == CHECKERS:
            problems.append("both sides have borne off all their checkers")
        return problems

    def is_valid(self) -> bool:
        return not self.status()

    # --- rules ---------------------------------------------------------
    def legal_plays(self, dice: Iterable[int]) -> LegalPlays:
        """Every distinct legal play for the side to move and this roll (lazy)."""
        from companion.rules.moves import LegalPlays

        return LegalPlays(self, dice)

    def parse_play(self, dice: Iterable[int], text: str) -> Play:
        """The legal play written as `text`, or IllegalPlayError saying why it is not legal."""
        return self.legal_plays(dice).parse(text)

    def winner(self) -> Color | None:
        """The side that has borne off all 15, if any."""
        if self.white[OFF] == CHECKERS:
            return WHITE
        if self.black[OFF] == CHECKERS:
            return BLACK
        return None

    def __str__(self) -> str:
        from companion.rules.text import draw_board

        return draw_board(self)

    def __repr__(self) -> str:
        from companion.rules import ids

        if self.is_valid():
            return f"Position.from_id({ids.position_id(self)!r}, {self.turn.value!r})"
        return f"Position(white={self.white!r}, black={self.black!r}, turn={self.turn.value!r})"
