"""Game end (winner and result type) and the opening roll."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from companion.rules.errors import DiceError
from companion.rules.position import BAR, OFF, Color, Position


class ResultType(IntEnum):
    """How a game is won; the value is the multiplier of the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True)
class GameResult:
    winner: Color
    kind: ResultType

    @property
    def multiplier(self) -> int:
        return int(self.kind)


def game_result(position: Position) -> GameResult | None:
    """The result once one side has borne off all 15 checkers, else None.

    The loser is gammoned if he has borne off none, backgammoned if he has also
    a checker on the bar or in the winner's home board (his own points 19-24).
    """
    winner = position.winner()
    if winner is None:
        return None
    loser = position.side(winner.opponent)
    if loser[OFF]:
        kind = ResultType.SINGLE
    elif loser[BAR] or any(loser[19:25]):
        kind = ResultType.BACKGAMMON
    else:
        kind = ResultType.GAMMON
    return GameResult(winner, kind)


@dataclass(frozen=True)
class OpeningRoll:
    """One die each. Equal dice are rolled again; the higher die moves first with both numbers."""

    white: int
    black: int

    def __post_init__(self) -> None:
        for name, die in (("white", self.white), ("black", self.black)):
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                raise DiceError(f"opening roll: {name}'s die {die!r} is not a number from 1 to 6")

    @property
    def first(self) -> Color | None:
        """Who moves first, or None when the dice are equal and both roll again."""
        if self.white == self.black:
            return None
        return Color.WHITE if self.white > self.black else Color.BLACK

    @property
    def dice(self) -> tuple[int, int] | None:
        """The roll the first player plays: his own die, then his opponent's."""
        first = self.first
        if first is None:
            return None
        return (self.white, self.black) if first is Color.WHITE else (self.black, self.white)

    def position(self) -> Position | None:
        """The starting position with the first player to move."""
        first = self.first
        return None if first is None else Position.start(first)
