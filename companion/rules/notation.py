"""Reading standard play notation: `24/18 13/11`, `bar/22`, `6/off`, `13/7*`, `24/13`, `8/5(2)`.

Written from the mover's side. A play writes itself (`str(play)`, by
`companion.rules.position.format_steps`) in GNU Backgammon's habits: one
checker's consecutive steps are joined (`24/13`, or `24/18*/13` when it hits on
the way), moves are listed from the highest point down, and identical moves are
counted (`8/5(2)`). Reading also accepts `25` for the bar, `0` for off, chains
(`13/7/1`), commas, and no `*` where a hit happens; a `*` where nothing is hit
is an error. A written play is legal when it can be carried out with the dice
and leads to a position in the legal set; otherwise IllegalPlayError says why.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable
from itertools import pairwise

from companion.rules.errors import IllegalPlayError, NotationError, RulesError
from companion.rules.position import (
    BAR,
    OFF,
    LegalPlays,
    Play,
    Position,
    apply_step,
    highest_point,
    point_text,
    step_target,
    undo_step,
)

# A written move: (from, to, marked as a hit).
Segment = tuple[int, int, bool]

NO_PLAY_WORDS = {"", "-", "none", "no play", "cannot move", "can't move", "pass"}


# ASCII digits only: `\d` and int() also take other scripts' digits ("１３/８", "١٣/٨").
_TOKEN = re.compile(r"^(?P<chain>[^()]+?)(?:\((?P<count>[0-9])\))?$")
_POINT = re.compile(r"^(?P<p>bar|off|[0-9]{1,2})(?P<hit>\*?)$")


def _read_point(text: str, token: str) -> tuple[int, bool]:
    m = _POINT.match(text)
    if not m:
        raise NotationError(f"cannot read {token!r}: {text!r} is not a point, 'bar' or 'off'")
    p = m["p"]
    value = BAR if p == "bar" else OFF if p == "off" else int(p)
    if value > BAR:
        raise NotationError(f"cannot read {token!r}: there is no point {value}")
    return value, bool(m["hit"])


def read_segments(text: str) -> list[Segment]:
    """The written moves of a play, one (from, to, hit mark) per slash, or NotationError."""
    cleaned = text.strip().lower()
    if cleaned in NO_PLAY_WORDS:
        return []
    segments: list[Segment] = []
    for token in re.split(r"[\s,]+", cleaned, flags=re.ASCII):
        m = _TOKEN.match(token)
        parts = m["chain"].split("/") if m else []
        if not m or len(parts) < 2:
            raise NotationError(f"cannot read {token!r}: expected from/to, e.g. 13/8 or bar/22")
        count = int(m["count"] or 1)
        if not 1 <= count <= 4:
            raise NotationError(f"cannot read {token!r}: a move can be repeated 1 to 4 times")
        points = [_read_point(part, token) for part in parts]
        if points[0][1]:
            raise NotationError(f"cannot read {token!r}: '*' marks the point where a hit lands")
        chain: list[Segment] = []
        for (src, _), (dst, hit) in pairwise(points):
            if src == OFF:
                raise NotationError(f"cannot read {token!r}: a move cannot start from off")
            if dst == BAR:
                raise NotationError(f"cannot read {token!r}: a move cannot end on the bar")
            if dst >= src:
                raise NotationError(
                    f"{token}: checkers move forward to lower points, "
                    f"{point_text(src)}/{point_text(dst)} goes backwards"
                )
            chain.append((src, dst, hit))
        # "6/5*(2)": the hit mark belongs to one of the copies, not to each.
        segments.extend(chain)
        segments.extend([(src, dst, False) for src, dst, _ in chain] * (count - 1))
    if len(segments) > 4 * 4:
        raise NotationError(f"{text!r}: too many moves")
    return segments


class _Board:
    """Mutable mover/opponent arrays for carrying out written moves."""

    def __init__(self, position: Position, strict: bool = False) -> None:
        self.me = list(position.mover)
        self.opp = list(position.opponent)
        self.color = position.turn
        # Strict: a landing not marked '*' must not hit. Notation marks every hit,
        # so "5/2" means 5/4/2 rather than 5/3*/2; a second, lenient pass accepts
        # plays written without their '*'.
        self.strict = strict

    def carry_out(
        self, segments: list[Segment], dice: list[int]
    ) -> Generator[list[int], None, None]:
        """Carries out all written moves, in every order and interleaving, one die at a time.

        Yields the dice left after each complete way, with the board changed; the
        board is restored when the generator resumes or is closed. Interleaving
        matters: with two on the bar, `bar/19(2)` enters both before either moves on.
        """
        pending = [(src, dst, marked) for src, dst, marked in segments if src != dst]
        if not pending:
            yield dice
            return
        hi = highest_point(self.me)
        for i, (src, dst, marked) in enumerate(pending):
            if pending.index((src, dst, marked)) != i or not self.me[src]:
                continue
            for j, die in enumerate(dice):
                if die in dice[:j]:
                    continue
                land = step_target(self.me, self.opp, src, die, hi)
                if land < 0 or land < dst:
                    continue
                hit = apply_step(self.me, self.opp, src, land)
                try:
                    # A marked landing must hit; in the strict pass no other may.
                    allowed = hit if land == dst and marked else not (hit and self.strict)
                    if allowed:
                        rest = [*pending[:i], (land, dst, marked), *pending[i + 1 :]]
                        yield from self.carry_out(rest, dice[:j] + dice[j + 1 :])
                finally:
                    undo_step(self.me, self.opp, src, land, hit)

    def key(self) -> bytes:
        return bytes(self.me) + bytes(self.opp)


def _dice_text(dice: list[int]) -> str:
    if not dice:
        return "no dice are left"
    if len(dice) == 1:
        return f"the die left is {dice[0]}"
    return "the dice left are " + " and ".join(str(d) for d in sorted(dice, reverse=True))


def _why_not(board: _Board, seg: Segment, dice: list[int]) -> str:
    """A sentence saying why one written move cannot be carried out now."""
    src, dst, marked = seg
    me, opp, color, other = board.me, board.opp, board.color, board.color.opponent
    move = f"{point_text(src)}/{point_text(dst)}{'*' if marked else ''}"
    if me[BAR] and src != BAR:
        return f"{move}: {color} has a checker on the bar, which must enter first"
    if not me[src]:
        where = "on the bar" if src == BAR else f"on {src}"
        return f"{move}: {color} has no checker {where}"
    if not dice:
        return f"{move}: the moves written before it already use the whole roll"
    if dst > 0 and opp[BAR - dst] >= 2:
        return f"{move}: point {dst} is blocked ({other} has {opp[BAR - dst]} checkers there)"
    if marked and dst > 0 and opp[BAR - dst] == 0:
        return f"{move}: there is no {other} blot on {dst} to hit"
    if dst == OFF:
        hi = highest_point(me)
        if hi > 6:
            outside = "the bar" if hi == BAR else f"{hi}"
            return f"{move}: {color} cannot bear off with a checker still on {outside}"
        if src != hi and max(dice) > src:
            return (
                f"{move}: a die larger than {src} bears off only from the highest point, "
                f"and {color} has a checker on {hi}"
            )
        return (
            f"{move}: {_dice_text(dice)}; a checker bears off with its point's number, "
            "or with a larger number from the highest point only"
        )
    distance = src - dst
    if len(set(dice)) == 1:
        reachable = {dice[0] * k for k in range(1, len(dice) + 1)}
    else:
        reachable = set(dice) | {sum(dice)}
    if dst > 0 and distance not in reachable:
        return f"{move} is {distance} pips, but {_dice_text(dice)}"
    return f"{move}: every way to move it stops on a blocked point"


def _explain(position: Position, segments: list[Segment], dice: list[int]) -> str:
    """Why the written moves cannot all be carried out, taking them in the order written."""
    board = _Board(position)
    for seg in segments:
        ways = board.carry_out([seg], dice)
        left = next(ways, None)
        if left is None:
            return _why_not(board, seg, dice)
        after = list(board.me), list(board.opp)
        ways.close()  # restores the board
        board.me, board.opp = after
        dice = left
    return "the moves cannot all be played together with this roll"


def parse_play(position: Position, dice: Iterable[int], text: str) -> Play:
    """The legal play for `position` and `dice` written as `text`.

    IllegalPlayError or NotationError says why it is not one.
    """
    return find_play(position.legal_plays(dice), text)


def is_legal(plays: LegalPlays, text: str) -> bool:
    """Whether `text` writes one of `plays` (what `text in plays` would mean)."""
    try:
        find_play(plays, text)
    except RulesError:
        return False
    return True


def find_play(plays: LegalPlays, text: str) -> Play:
    """The play of `plays` written as `text`; IllegalPlayError or NotationError saying why not.

    For when the legal plays are at hand already (`parse_play` makes them).
    """
    segments = read_segments(text)
    position = plays.position
    d1, d2 = plays.dice
    roll = f"{d1}{d2}"
    pool = [d1] * 4 if d1 == d2 else [d1, d2]
    color = position.turn
    if len(plays) == 1 and plays.dice_used == 0:
        if not segments:
            return plays[0]
        raise IllegalPlayError(f"{color} cannot move with {roll}: there is no legal play")
    if not segments:
        example = plays[0]
        raise IllegalPlayError(f"{color} can play {roll}, e.g. {example}")
    if len(segments) > len(pool):
        raise IllegalPlayError(
            f"{text.strip()}: {len(segments)} moves, but {roll} gives {len(pool)}"
        )
    most_used = -1
    for strict in (True, False):
        board = _Board(position, strict)
        for left in board.carry_out(segments, pool):
            most_used = max(most_used, len(pool) - len(left))
            play = plays.find(_result(position, board.key()))
            if play is not None:
                return play
    if most_used < 0:
        raise IllegalPlayError(_explain(position, segments, list(pool)))
    # Carried out, but not a legal play: too few dice, or the smaller die.
    example = plays[0]
    if plays.dice_used > most_used:
        if d1 == d2:
            raise IllegalPlayError(
                f"plays {most_used} of the four {d1}s, but {plays.dice_used} can be played, "
                f"e.g. {example}"
            )
        raise IllegalPlayError(
            f"plays one die, but both {d1} and {d2} can be played, e.g. {example}"
        )
    if d1 != d2 and plays.dice_used == 1:
        raise IllegalPlayError(
            f"only one die can be played, and then it must be the larger ({max(d1, d2)}): {example}"
        )
    raise IllegalPlayError(f"not a legal play for {roll}, e.g. {example}")


def _result(position: Position, key: bytes) -> Position:
    return Position.from_sides(tuple(key[:26]), tuple(key[26:]), position.turn)
