"""A board's reading, and the check every reading ends with: each side has fifteen checkers.

`PlaceReading` is one point or one side's half of the bar as read (its count, colour and
confidence, and the rings found there); `BoardReading` the whole board in the contract's
arrays (CONTRACTS.md §3), with the least of its places' confidences. `Place` and `Found`
are where a place's checkers lie and what the rings found along it
(`vision.board.BoardReader`). `counts_check` doubts the places where a side's checkers do
not add up to fifteen as the rules have them (the reader runs it last).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from vision.board_layout import MAX_CHECKERS


@dataclass
class PlaceReading:
    """One point (white's numbering) or one side's half of the bar."""

    place: str  # "1".."24", "bar-white", "bar-black"
    color: str | None
    count: int
    confidence: float
    circles: list[tuple[float, float, float]] = field(default_factory=list)  # x_mm, y_mm, score

    def rings(self) -> list[tuple[float, float, float]]:
        """The rings found that the reading counts as checkers: all of them, or where it
        counts fewer (the network's count read over the rings': a ring found at an arched
        point's end, a die's edges closing a circle) the `count` clearest. A ring the
        reading does not count is no checker to lay a die on or to compare one with."""
        if self.count >= len(self.circles):
            return self.circles
        return sorted(self.circles, key=lambda c: -c[2])[: self.count]


@dataclass
class BoardReading:
    white: list[int]
    black: list[int]
    confidence: float
    places: list[PlaceReading]
    elapsed_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "position": {"white": self.white, "black": self.black},
            "confidence": round(self.confidence, 3),
            "elapsed_ms": round(self.elapsed_ms, 2),
        }

    def least_sure(self, n: int = 3) -> list[PlaceReading]:
        return sorted(self.places, key=lambda p: p.confidence)[:n]


@dataclass(frozen=True)
class Place:
    name: str
    x_mm: float  # the axis
    origin_mm: float  # where the row starts
    sign: int  # +1: the row runs down the board (towards white), -1 up
    length_mm: float


@dataclass
class Found:
    """What one place shows: its fully visible checkers and the best circle that was not one."""

    place: Place
    circles: list[tuple[float, float, float]] = field(default_factory=list)  # x, y mm, score
    colours: list[tuple[float, ...]] = field(default_factory=list)  # `checker_colour` of each
    along_d: list[float] = field(default_factory=list)  # from the origin, in diameters
    best_other: float = 0.0

    def keep(self, indices: list[int]) -> None:
        """Only the checkers at `indices` (of `circles`, with their colours and places)."""
        self.circles = [self.circles[k] for k in indices]
        self.colours = [self.colours[k] for k in indices]
        self.along_d = [self.along_d[k] for k in indices]


# A place read with less than even odds of being right is one the reader doubts (the
# referee's default for a board that counts, `WatchSettings.board_min`, is the same).
EVEN_ODDS = 0.5


def beside(place: str) -> set[str]:
    """The places next to `place` on the board: a point's neighbours along its side
    (across the bar too) and the point facing it across the board's middle; the bar's are
    the four points beside it, and each side's half of the bar is the other's."""
    if not place.isdigit():
        return {"6", "7", "18", "19", "bar-white", "bar-black"} - {place}
    n = int(place)
    out = {str(m) for m in (n - 1, n + 1, 25 - n) if 1 <= m <= 24}
    if n in (6, 7, 18, 19):
        out |= {"bar-white", "bar-black"}
    return out


def counts_check(
    places: list[PlaceReading],
    white: list[int],
    black: list[int],
    areas: dict[str, float],
    unexplained: set[str],
    unsure: float,
    bare_sure: float = 0.0,
) -> None:
    """Each side has 15 checkers, and none is borne off before all 15 are in its home
    board. A side read with more than 15 (after `_at_most_fifteen`) has a count too high
    somewhere among its places: each of them gets unsure. A side read with fewer than 15
    on the board and the bar while some lie outside its home board has checkers missed
    (a checker borne off and then one hit is legal, but rare): where something unread lies
    (`_surface_check`'s area, however small), or beside a place that shows something
    unread, a missed checker may lie, and so it may on a place read bare short of
    `bare_sure` (the network's odds that it is bare short of sure: a lone dark checker on
    a dark point shows nothing unread; 0 doubts none); each such place that could hold
    the side's checkers (read empty or with its colour; not the other side's half of the
    bar) gets unsure; so does each place read with fewer checkers than the rings found
    round things on (`vision.board.BoardReader._second_opinion` reads the network's count
    there as sure where it is sure of fewer: only while the side's total holds).
    A side's total proves its counts only where each of its counts is read sure: where
    one of them is read below even odds, it may be off and another off the other way (a
    phantom under a clock making up for a row under a card), so the places that show
    something unread (`unexplained`) and those beside them get unsure, and so do those
    read in the other side's colour (their checkers may be this side's, read in the
    wrong colour); a miss only possible, not certain, so not every place where a little
    shows unread (tried 2026-12-02: on the occlusion benchmark's 254 boards read right
    2,846 places made unsure against 2,619, no confident wrong place fewer).
    Such a board is flagged already (one place below even odds); only its other places'
    doubt grows. A place read empty below even odds is not such a count (tried
    2026-12-02, with every place showing a little unread doubted too: 3,433 places made
    unsure on those boards against 2,846, no confident wrong place fewer). `unsure` is
    the confidence they get at most."""
    for color, side in (("white", white), ("black", black)):
        other = "black" if color == "white" else "white"
        could_hold = [p for p in places if p.color in (None, color) and p.place != f"bar-{other}"]
        doubted = any(p.confidence < EVEN_ODDS and p.count and p.color == color for p in places)
        on_board = sum(side[1:])
        if on_board > MAX_CHECKERS:
            suspects = {p.place for p in places if p.color == color and p.count}
        elif (short := on_board < MAX_CHECKERS and any(side[7:])) or doubted:
            # A miss certain, wherever anything unread shows; only possible, where enough
            # does to be unexplained; and beside such places either way.
            near = {name for name, area in areas.items() if area > 0} if short else set(unexplained)
            if short:
                near |= {p.place for p in places if not p.count and p.confidence < bare_sure}
            # A place read with fewer checkers than the rings found round things there (the
            # strip network's count read over theirs) may hold the one missed, or be off.
            near |= {p.place for p in places if len(p.circles) > p.count}
            for name in unexplained:
                near |= beside(name)
            held = could_hold + ([p for p in places if p.color == other] if doubted else [])
            suspects = {p.place for p in held if p.place in near}
        else:
            continue
        for i, p in enumerate(places):
            if p.place in suspects and p.confidence > unsure:
                places[i] = replace(p, confidence=unsure)
