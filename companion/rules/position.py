"""The position, its Position ID, and its legal plays: the core of the rules.

A position is two 26-int arrays (CONTRACTS.md §3) and the side to move. Each
array is from its owner's point of view: index 1..24 = checkers on that
player's point n, 25 = on the bar, 0 = borne off. White's point n is black's
point 25 - n. A `Position` can hold an impossible board (vision produces them);
`status()` lists what is wrong with it, and move generation refuses it.

Legal plays are every distinct resulting position for a position, side to move
and roll. The rules (shared/rules/, as GNU Backgammon applies them): checkers
on the bar enter before anything else moves; a checker may land only on a
point not held by two or more opposing checkers, and a checker moving with
both dice must be able to stop on the intermediate point; a lone opposing
checker there is hit; doubles are four moves; as many dice as possible must be
used, and when only one of two different dice can be played it must be the
larger; bearing off needs all 15 checkers in the home board, and a die larger
than the highest occupied point bears off from that highest point only. Plays
that lead to the same position are one play. A roll that cannot be played at
all has exactly one legal play: the empty play (the position stays).

One module so that `position.legal_plays(dice)` needs no import cycle: this is
the bottom of the rules and imports nothing of them but the errors. Reading
play text is `companion.rules.notation`; the board drawn as text is
`companion.rules.text`; Match ID and XGID are `companion.rules.ids`.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, overload

from companion.rules.errors import DiceError, IdError, PositionError

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
    def from_id(cls, text: str, turn: Color = WHITE) -> Position:
        """From a GNU Backgammon Position ID, with `turn` as the side on roll.

        XGIDs and `PositionID:MatchID`: `companion.rules.ids.parse_position`.
        """
        return position_from_id(text, turn)

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
        """Every distinct legal play for the side to move and this roll (lazy).

        To read a written play: `companion.rules.notation.parse_play`.
        """
        return LegalPlays(self, dice)

    def winner(self) -> Color | None:
        """The side that has borne off all 15, if any."""
        if self.white[OFF] == CHECKERS:
            return WHITE
        if self.black[OFF] == CHECKERS:
            return BLACK
        return None

    def __repr__(self) -> str:
        """`Position.from_id(...)`, or the constructor call for an impossible position.

        There is no board drawing here: `companion.rules.text.draw_board`.
        """
        if self.is_valid():
            return f"Position.from_id({position_id(self)!r}, {self.turn.value!r})"
        return f"Position(white={self.white!r}, black={self.black!r}, turn={self.turn.value!r})"


# --- Position ID ---------------------------------------------------------
# GNU Backgammon's (checked against it in tests/rules). The bit packing is
# shared with the Match ID (companion.rules.ids).


def pack_bits(bits: list[int], nbytes: int) -> str:
    """`bits` packed least significant bit first into `nbytes` bytes, Base64 without padding."""
    data = bytearray(nbytes)
    for k, bit in enumerate(bits):
        if bit:
            data[k >> 3] |= 1 << (k & 7)
    return base64.b64encode(bytes(data)).decode("ascii").rstrip("=")


def unpack_bits(text: str, nbytes: int, what: str) -> list[int]:
    """The bits of `pack_bits`'s text, or IdError naming `what` was being read."""
    chars = -(-nbytes * 4 // 3)
    if len(text) != chars or not re.fullmatch(r"[A-Za-z0-9+/]+", text):
        raise IdError(f"{what} {text!r}: expected {chars} Base64 characters (A-Z a-z 0-9 + /)")
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except binascii.Error as e:
        raise IdError(f"{what} {text!r}: not Base64 ({e})") from None
    return [(data[k >> 3] >> (k & 7)) & 1 for k in range(nbytes * 8)]


def position_id(position: Position) -> str:
    """The GNU Backgammon Position ID, from the side to move (`position.turn`)."""
    bits: list[int] = []
    for board in (position.opponent, position.mover):
        for point in range(1, BAR + 1):
            bits.extend([1] * board[point])
            bits.append(0)
    if len(bits) > 80:
        raise IdError("a position with more than 15 checkers a side has no Position ID")
    return pack_bits(bits, 10)


def position_from_id(text: str, turn: Color = WHITE) -> Position:
    """The position of a Position ID, with `turn` as the side on roll."""
    bits = unpack_bits(text.strip(), 10, "Position ID")
    sides: list[list[int]] = []
    k = 0
    for _ in range(2):
        board = [0] * 26
        for point in range(1, BAR + 1):
            while k < 80 and bits[k]:
                board[point] += 1
                k += 1
            if k >= 80:
                raise IdError(f"Position ID {text!r}: runs out of bits at point {point}")
            k += 1
        on_board = sum(board)
        if on_board > CHECKERS:
            raise IdError(f"Position ID {text!r}: {on_board} checkers on one side (at most 15)")
        board[0] = CHECKERS - on_board
        sides.append(board)
    position = Position.from_sides(sides[1], sides[0], turn)
    problems = position.status()
    if problems:
        raise IdError(f"Position ID {text!r}: {problems[0]}")
    return position


# --- legal plays ----------------------------------------------------------

# One checker moving one die: (from, to, hit), in the mover's numbering;
# from = 25 is the bar, to = 0 is off.
Step = tuple[int, int, bool]
Dice = tuple[int, int]


def check_dice(dice: Iterable[int]) -> Dice:
    """Two numbers from 1 to 6, or DiceError."""
    try:
        values = tuple(dice)
    except TypeError:
        raise DiceError(f"dice: expected two numbers 1-6, got {dice!r}") from None
    if len(values) != 2:
        raise DiceError(f"dice: expected two numbers 1-6, got {len(values)} numbers")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise DiceError(f"dice: {v!r} is not a number from 1 to 6")
    return values[0], values[1]


def highest_point(me: list[int]) -> int:
    """The highest point with a checker of `me` (25 if one is on the bar, 0 if none left)."""
    hi = BAR
    while hi > 0 and not me[hi]:
        hi -= 1
    return hi


def step_target(me: list[int], opp: list[int], src: int, die: int, hi: int) -> int:
    """Where a checker from `src` lands with `die` (0 = borne off), or -1 if it may not move.

    `hi` is highest_point(me). Does not check that `src` holds a checker.
    """
    if hi == BAR and src != BAR:
        return -1  # a checker on the bar must enter first
    dst = src - die
    if dst > 0:
        return -1 if opp[BAR - dst] >= 2 else dst
    if hi > 6:
        return -1  # not all checkers home: no bearing off
    if dst < 0 and src != hi:
        return -1  # a larger die bears off from the highest point only
    return OFF


def apply_step(me: list[int], opp: list[int], src: int, dst: int) -> bool:
    """Moves one checker in place; returns whether it hit a blot."""
    me[src] -= 1
    me[dst] += 1
    if dst and opp[BAR - dst] == 1:
        opp[BAR - dst] = 0
        opp[BAR] += 1
        return True
    return False


def undo_step(me: list[int], opp: list[int], src: int, dst: int, hit: bool) -> None:
    me[dst] -= 1
    me[src] += 1
    if hit:
        opp[BAR] -= 1
        opp[BAR - dst] = 1


class _Search:
    """Depth-first search over die orders, keeping only plays that use the most dice."""

    __slots__ = ("best", "doubles", "me", "opp", "out", "steps")

    def __init__(self, me: list[int], opp: list[int], doubles: bool) -> None:
        self.me = me
        self.opp = opp
        self.doubles = doubles
        self.steps: list[Step] = []
        self.out: dict[bytes, tuple[Step, ...]] = {}
        self.best = 0

    def run(self, dice: tuple[int, ...], max_src: int) -> None:
        me, opp = self.me, self.opp
        moved = False
        if dice:
            die, rest = dice[0], dice[1:]
            hi = highest_point(me)
            sources = (BAR,) if hi == BAR else range(min(hi, max_src), 0, -1)
            for src in sources:
                if not me[src]:
                    continue
                dst = step_target(me, opp, src, die, hi)
                if dst < 0:
                    continue
                moved = True
                hit = apply_step(me, opp, src, dst)
                self.steps.append((src, dst, hit))
                # With doubles, visit moves in non-increasing source order: every
                # legal sequence has such an ordering, so nothing is lost.
                self.run(rest, src if self.doubles else BAR)
                self.steps.pop()
                undo_step(me, opp, src, dst, hit)
        if moved:
            return
        n = len(self.steps)
        if n < self.best:
            return
        if n > self.best:
            self.out.clear()
            self.best = n
        key = bytes(me) + bytes(opp)
        if key not in self.out:
            self.out[key] = tuple(self.steps)


def generate(
    me: list[int], opp: list[int], dice: Dice
) -> tuple[int, dict[bytes, tuple[Step, ...]]]:
    """All legal plays as {bytes(mover) + bytes(opponent) after: steps}, and the dice used.

    `me` and `opp` are the mover's and the opponent's arrays (each from its own
    side); they are restored before returning.
    """
    d1, d2 = dice
    if d1 == d2:
        search = _Search(me, opp, True)
        search.run((d1,) * 4, BAR)
        return search.best, search.out
    search = _Search(me, opp, False)
    search.run((d1, d2), BAR)
    search.run((d2, d1), BAR)
    if search.best == 1:
        # Only one die can be played: it must be the larger if the larger can be played.
        for die in (max(d1, d2), min(d1, d2)):
            single = _Search(me, opp, False)
            single.run((die,), BAR)
            if single.best:
                return 1, single.out
    return search.best, search.out


class Play:
    """A legal play: its steps (one per die) and the position it leads to.

    Two plays are equal when they lead to the same position. `str()` is the
    standard notation; the empty play (no legal move) is written "".
    """

    __slots__ = ("_result", "before", "steps")

    def __init__(self, before: Position, steps: tuple[Step, ...], result: Position) -> None:
        self.before = before
        self.steps = steps
        self._result = result

    @property
    def result(self) -> Position:
        """The position after the play, with the opponent to move."""
        return self._result

    @property
    def dice_used(self) -> int:
        return len(self.steps)

    @property
    def hits(self) -> int:
        return sum(1 for _, _, hit in self.steps if hit)

    def __str__(self) -> str:
        return format_steps(self.steps)

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other._result == self._result

    def __hash__(self) -> int:
        return hash(self._result)


class LegalPlays:
    """Lazy view of every distinct legal play: `len()`, iteration, indexing, `in`.

    `x in plays` accepts a Play or a resulting Position; for play text,
    `companion.rules.notation.is_legal` (reading text is above this module).
    """

    __slots__ = ("_by_result", "_dice_used", "_plays", "dice", "position")

    def __init__(self, position: Position, dice: Iterable[int]) -> None:
        self.position = position
        self.dice = check_dice(dice)
        problems = position.status()
        if problems:
            raise PositionError(f"impossible position: {problems[0]}")
        if position.winner() is not None:
            raise PositionError(f"the game is over: {position.winner()} has borne off all 15")
        self._plays: list[Play] | None = None
        self._by_result: dict[Position, Play] = {}
        self._dice_used = 0

    def _load(self) -> list[Play]:
        if self._plays is None:
            pos = self.position
            me, opp = list(pos.mover), list(pos.opponent)
            self._dice_used, found = generate(me, opp, self.dice)
            make = Position._trusted
            if pos.turn is WHITE:
                self._plays = [
                    Play(pos, steps, make(tuple(key[:26]), tuple(key[26:]), BLACK))
                    for key, steps in found.items()
                ]
            else:
                self._plays = [
                    Play(pos, steps, make(tuple(key[26:]), tuple(key[:26]), WHITE))
                    for key, steps in found.items()
                ]
        return self._plays

    @property
    def dice_used(self) -> int:
        """How many dice every legal play uses (0 when the roll cannot be played)."""
        self._load()
        return self._dice_used

    def find(self, result: Position) -> Play | None:
        """The legal play that leads to `result`, if any (the side to move is ignored)."""
        if not self._by_result:
            self._by_result = {p.result: p for p in self._load()}
        return self._by_result.get(result.with_turn(self.position.turn.opponent))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return self.find(item.result) is not None
        if isinstance(item, Position):
            return self.find(item) is not None
        if isinstance(item, str):
            raise TypeError(
                "'in' with play text: use companion.rules.notation.is_legal(plays, text)"
            )
        return False

    def __iter__(self) -> Iterator[Play]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...
    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        return self._load()[index]

    def __repr__(self) -> str:
        d1, d2 = self.dice
        return f"<LegalPlays {d1}{d2}: {', '.join(str(p) or '(none)' for p in self)}>"


# --- writing a play --------------------------------------------------------
# In GNU Backgammon's style (see companion.rules.notation, which reads it back).


def point_text(p: int) -> str:
    """How notation writes a point: its number, `bar` or `off`."""
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def format_steps(steps: Iterable[Step]) -> str:
    """Notation for a sequence of single-die steps."""
    paths: list[list[tuple[int, bool]]] = []  # [(point, hit on landing there), ...]
    for src, dst, hit in steps:
        for path in paths:
            if path[-1][0] == src:
                path.append((dst, hit))
                break
        else:
            paths.append([(src, False), (dst, hit)])
    rendered: list[tuple[tuple[int, ...], str]] = []
    for path in paths:
        # Keep the start, the end and every intermediate point where a hit happened.
        kept = [path[0]] + [p for p in path[1:-1] if p[1]] + [path[-1]]
        text = "/".join(point_text(p) + ("*" if hit else "") for p, hit in kept)
        rendered.append((tuple(-p for p, _ in kept), text))
    rendered.sort()
    # Count identical moves; a hit mark on any copy marks the group ("6/5*(2)").
    counts: dict[str, int] = {}
    shown: dict[str, str] = {}
    for _, text in rendered:
        plain = text.replace("*", "")
        counts[plain] = counts.get(plain, 0) + 1
        if plain not in shown or "*" in text:
            shown[plain] = text
    return " ".join(f"{shown[p]}({n})" if n > 1 else shown[p] for p, n in counts.items())
