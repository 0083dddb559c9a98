"""How well a position explains a checker reading: the referee's best explanation.

A human referee who misreads one point does not lose the game: they know the position
before the play and the roll, so only a handful of positions can follow, and the one
that fits what they see best is the play. This module gives the referee that measure.

A reading is compared with a position place by place: the 24 points and each side's
half of the bar (the borne-off counts are 15 less the checkers seen, so they are not
compared: a checker missed would count twice). Each checker of difference costs the
reader's confidence in that place, so a point it could not read (a hand, a dice cup
over it) decides nothing and a clearly read one decides fully:

    weight = clip((confidence - unread) / (sure - unread), 0, 1)

All counts are in checkers: a cost of 1 is one checker that the position puts where
the reading has none, read with full confidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.rules.position import BAR, CHECKERS, OFF, Color, Position

Board = tuple[int, ...]


@dataclass(frozen=True)
class ExplainSettings:
    """The referee's thresholds for reading a play, in checkers of weighted difference."""

    unread: float = 0.3  # a place read with less confidence than this decides nothing
    sure: float = 0.8  # ... and one read with this much or more decides fully
    margin_min: float = 1.0  # the best explanation beats the next by this much to be taken
    check_margin: float = 2.0  # a play taken with less margin is shown for a glance
    close_max: float = 1.5  # a legal result this close explains the board (else: illegal?)
    accept_max: float = 3.0  # a noisy reading still taken as a play, when clearly the best
    resync_readings: int = 2  # looks in a row that show the same sure difference
    resync_plays: int = 2  # ... across this many positions the referee believed in turn
    resync_lost: int = 2  # plays in a row unexplained: a sure board seen twice is taken whole
    # A die of the roll read with less confidence than this may be misread: where a roll
    # with that die's face changed has a play that explains the board clearly, and the
    # roll read has none, the dice are corrected and that play recorded, to be checked.
    # (On the real photos, 37 of the 40 dice read wrong were below 0.9, and 335 of the
    # 1,424 read right: 15 of 306 from above, 320 of 1,118 on the aslant webcam.)
    die_sure: float = 0.9

    def __post_init__(self) -> None:
        for name, value in vars(self).items():  # a settings file's slip, named
            if value < 0:
                raise ValueError(f"{name} must be 0 or more, got {value!r}")


@dataclass(frozen=True)
class WeighedBoard:
    """A checker reading as the referee weighs it: both arrays and a weight per entry.

    `white_w[i]` weighs `white[i]` (its owner's numbering, 0 off, 25 bar); the same for
    black. The weights of a point are shared by both colours' entries for it.
    """

    white: Board
    black: Board
    white_w: tuple[float, ...]
    black_w: tuple[float, ...]

    def cost(self, position: Position) -> float:
        """Checkers of weighted difference between `position` and this reading."""
        return _cost(self.white, self.white_w, position.white) + _cost(
            self.black, self.black_w, position.black
        )

    def residual(self, position: Position) -> dict[tuple[str, int], int]:
        """Where the reading differs from `position` at surely read places: the checkers
        the reading has more (+) or fewer (-), by (colour, index in its owner's numbering)."""
        out: dict[tuple[str, int], int] = {}
        for color, seen, w, want in (
            ("white", self.white, self.white_w, position.white),
            ("black", self.black, self.black_w, position.black),
        ):
            for i, (a, b) in enumerate(zip(seen, want, strict=True)):
                if a != b and w[i] >= 1.0:
                    out[(color, i)] = a - b
        return out

    def sure_where(self, a: Position, b: Position) -> bool:
        """Whether every place where `a` and `b` differ was read surely."""
        for seen_w, pa, pb in ((self.white_w, a.white, b.white), (self.black_w, a.black, b.black)):
            if any(x != y and seen_w[i] < 1.0 for i, (x, y) in enumerate(zip(pa, pb, strict=True))):
                return False
        return True

    def shows(self, position: Position, where: Iterable[tuple[str, int]]) -> bool:
        """Whether, at every place of `where` ((colour, index) as in `residual`), the
        reading was sure and shows what `position` has there."""
        for color, i in where:
            seen, w, want = (
                (self.white, self.white_w, position.white)
                if color == "white"
                else (self.black, self.black_w, position.black)
            )
            if w[i] < 1.0 or seen[i] != want[i]:
                return False
        return True

    @property
    def sure_everywhere(self) -> bool:
        """Whether every point and both halves of the bar were read surely."""
        return min(self.white_w[1:]) >= 1.0 and min(self.black_w[1:]) >= 1.0

    @property
    def position(self) -> Position | None:
        """The reading as a position, where it is one (whatever it may mean)."""
        try:
            return Position(self.white, self.black)
        except ValueError:
            return None


def _cost(seen: Board, weights: Sequence[float], want: Board) -> float:
    return sum(w * abs(a - b) for a, b, w in zip(seen, want, weights, strict=True))


def weigh(
    white: Sequence[int],
    black: Sequence[int],
    places: Iterable[tuple[str, float]],
    confidence: float,
    settings: ExplainSettings,
) -> WeighedBoard:
    """A reading with each entry weighed by the confidence of the place it was read at.

    `places` are the reader's per-place confidences ("1".."24" in white's numbering,
    "bar-white", "bar-black"); without them every place gets the board's confidence.
    """
    s = settings

    def weight(c: float) -> float:
        return min(1.0, max(0.0, (c - s.unread) / (s.sure - s.unread)))

    w_white = [weight(confidence)] * 26
    w_black = [weight(confidence)] * 26
    given = list(places)
    for name, c in given:
        if name == "bar-white":
            w_white[BAR] = weight(c)
        elif name == "bar-black":
            w_black[BAR] = weight(c)
        elif name.isascii() and name.isdigit() and 1 <= int(name) <= 24:
            point = int(name)
            w_white[point] = w_black[25 - point] = weight(c)
    # The off counts are 15 less the checkers seen: they say nothing the places do not,
    # and weighing them would count every checker missed twice.
    w_white[OFF] = w_black[OFF] = 0.0
    return WeighedBoard(tuple(white), tuple(black), tuple(w_white), tuple(w_black))


@dataclass(frozen=True)
class Fit:
    """The best explanation among candidates, and by how much it beats the next."""

    index: int  # of the best candidate
    cost: float
    margin: float  # the next best's cost less the best's (inf: no other candidate)


def best_fit(costs: Sequence[float]) -> Fit | None:
    """The candidate of least cost (the first of equals), and by how much it beats the next."""
    if not costs:
        return None
    order = sorted(range(len(costs)), key=lambda i: costs[i])
    first = order[0]
    margin = costs[order[1]] - costs[first] if len(order) > 1 else float("inf")
    return Fit(first, costs[first], margin)


def shifted(position: Position, deltas: dict[tuple[str, int], int]) -> Position | None:
    """`position` with checkers added (+) or taken (-) at (colour, index), as `residual`
    gives them, the borne-off counts made up to 15 a side; None where that is no board."""
    white, black = list(position.white), list(position.black)
    for (color, i), d in deltas.items():
        (white if color == "white" else black)[i] += d
    for side in (white, black):
        side[OFF] = CHECKERS - sum(side[1:])  # borne off: what is not on the board
    try:
        return Position(tuple(white), tuple(black), position.turn)
    except ValueError:
        return None


def plausible_play(before: Position, after: Position, mover: Color) -> bool:
    """Whether `after` could be what `mover` left by moving checkers once, legally or not.

    The mover moves at most five checkers forwards (four played and one nudged; borne
    off ones stay off, none come back from the board to the bar); the opponent's
    checkers only go to the bar, one from each point hit. A reading outside this (14
    checkers off for both sides in the opening) is a misread board, never an illegal
    play.
    """
    if after.status():
        return False
    mine, theirs = before.side(mover), after.side(mover)
    opp_b, opp_a = before.side(mover.opponent), after.side(mover.opponent)
    if opp_a[OFF] != opp_b[OFF]:
        return False
    hit = 0
    for i in range(1, 25):
        lost = opp_b[i] - opp_a[i]
        if lost not in (0, 1) or (lost == 1 and opp_b[i] != 1):
            return False
        hit += lost
    if opp_a[BAR] - opp_b[BAR] != hit:
        return False
    if theirs[OFF] < mine[OFF] or theirs[BAR] > mine[BAR]:
        return False
    if theirs[OFF] > mine[OFF] and any(theirs[i] for i in range(7, 26)):
        return False  # more off, with checkers still outside home: a checker missed
    moved = sum(max(0, mine[i] - theirs[i]) for i in range(1, 26))
    gone = before.pip_count(mover) - after.pip_count(mover)
    # A play moves at most four checkers; an illegal one may touch one more (a checker
    # nudged on a point beside those played).
    return 0 < moved <= 5 and 0 < gone <= 4 * 6 + 6


def plausible_correction(before: Position, after: Position) -> bool:
    """Whether the referee may take `after` for the board, believing `before` until now.

    It must be a position (15 checkers a side, no point shared) that no game has ended
    in; borne off checkers never come back; and a side bears off only with all its
    checkers home, so more off than believed needs every one of them home now, and home
    in the position believed too. The reader counts a checker it does not see as borne
    off (15 less those on the board): a checker outside home read nowhere for a few looks
    is a misread, not a bear-off. A side that comes home and bears off while the referee
    is not following is a turn missed, read as a play (`Referee._missed_turn`), never a
    correction. (Without that, a lone checker missed for a few looks was taken off in
    mid-game and the game ended early: 2 of the 3 games still lost with dice missed and
    places misread on seeds 300-339 and 500-539, `benchmarks/referee.py --noise`,
    2026-12-07.)
    """
    if after.status() or after.winner() is not None:
        return False
    for color in (Color.WHITE, Color.BLACK):
        was, now = before.side(color), after.side(color)
        if now[OFF] < was[OFF]:
            return False
        if now[OFF] > was[OFF] and any(was[i] or now[i] for i in range(7, 26)):
            return False
        if sum(now) != CHECKERS:
            return False
    return True
