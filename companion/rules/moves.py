"""Legal plays: every distinct resulting position for a position, side to move and roll.

The rules (shared/rules/, as GNU Backgammon applies them): checkers on the bar
enter before anything else moves; a checker may land only on a point not held
by two or more opposing checkers, and a checker moving with both dice must be
able to stop on the intermediate point; a lone opposing checker there is hit;
doubles are four moves; as many dice as possible must be used, and when only
one of two different dice can be played it must be the larger; bearing off
needs all 15 checkers in the home board, and a die larger than the highest
occupied point bears off from that highest point only.

Plays that lead to the same position are one play. A roll that cannot be
played at all has exactly one legal play: the empty play (the position stays).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import overload

from companion.rules.errors import DiceError, PositionError, RulesError
from companion.rules.position import BAR, BLACK, OFF, WHITE, Position

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
        from companion.rules.notation import format_steps

        return format_steps(self.steps)

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other._result == self._result

    def __hash__(self) -> int:
        return hash(self._result)


class LegalPlays:
    """Lazy view of every distinct legal play: `len()`, iteration, indexing, `in`.

    `x in plays` accepts a Play, a resulting Position, or play text.
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
            try:
                self.parse(item)
            except RulesError:
                return False
            return True
        return False

    def parse(self, text: str) -> Play:
        """The legal play written as `text`; IllegalPlayError or NotationError saying why not."""
        from companion.rules.notation import parse_play

        return parse_play(self, text)

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
