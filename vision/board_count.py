"""Counting the checkers on a point from where its fully visible ones lie.

Each count, in each row length a point allows (`vision.board_layout`), leaves its own
pattern of fully visible checkers; the circles found along a point are matched against
them. The count that fits is the reading; where another count fits about as well the
pile cannot be counted from above and the reading says so (low confidence).
"""

from __future__ import annotations

import math

from vision.board_layout import MAX_CHECKERS, PATTERNS
from vision.board_settings import BoardSettings


class Counting:
    """The counting half of `vision.board.BoardReader`: its settings and its patterns,
    (count, visible positions in diameters) for each row length its points allow."""

    s: BoardSettings
    patterns: list[tuple[int, list[float]]]

    def _cost(self, along_d: list[float], expected: list[float]) -> float:
        """How far the circles sit from where a count puts them (1 = at the tolerance)."""
        return max(
            (
                abs(a - e) / (self.s.fit_tolerance + self.s.fit_drift * i)
                for i, (a, e) in enumerate(zip(along_d, expected, strict=True))
            ),
            default=0.0,
        )

    def _fits(self, along_d: list[float]) -> dict[int, float]:
        """Each count that explains the circles found, with the least cost of its layouts
        (a row of five, or of six or seven where the point is that long)."""
        fits: dict[int, float] = {}
        for k, pattern in self.patterns:
            if len(pattern) == len(along_d):
                cost = self._cost(along_d, pattern)
                if cost < 1 and cost < fits.get(k, math.inf):
                    fits[k] = cost
        return fits

    def _count(self, along_d: list[float]) -> tuple[int, float]:
        """The count whose visible checkers match the circles found, and the fit's confidence.

        Rows longer than five are read where the point is long enough for them; a count
        that fits only in the README's layout (a row of five, then on top) is preferred,
        and where another count fits about as well the pile cannot be counted from above:
        the confidence then stays below 0.5. When no count fits, one checker may have
        been missed (its rim hidden by glare or a shadow): a count whose visible checkers
        are those found plus one is taken if it fits, below 0.5 too.
        """
        fits = self._fits(along_d)
        if fits:
            ranked = sorted(
                fits.items(), key=lambda kc: (kc[1] - self._usual(kc[0], along_d), kc[0])
            )
            best, best_cost = ranked[0]
            conf = float((1.0 - best_cost) ** 0.5)
            if len(ranked) > 1 and ranked[1][1] - best_cost < self.s.count_margin:
                conf = min(conf, self.s.unsure_count)
            return best, conf
        for k in range(MAX_CHECKERS + 1):
            missed = self._one_missed(along_d, k)
            if missed is not None:
                return k, missed
        # Nothing fits: the nearest count, flagged.
        costs = [
            (self._cost(along_d, pattern), k)
            for k, pattern in self.patterns
            if len(pattern) == len(along_d)
        ]
        return (min(costs)[1], 0.0) if costs else (0, 0.0)

    def _usual(self, count: int, along_d: list[float]) -> float:
        """A bonus (in cost) for a count that the usual layout (rows of five) explains."""
        pattern = PATTERNS[count]
        if len(pattern) == len(along_d) and self._cost(along_d, pattern) < 1:
            return self.s.count_margin
        return 0.0

    def _one_missed(self, along_d: list[float], count: int) -> float | None:
        """The confidence (below 0.5) that `count` explains the circles with one of its
        visible checkers missed, or None."""
        for k, pattern in self.patterns:
            if k != count or len(pattern) != len(along_d) + 1:
                continue
            for gone in range(len(pattern)):
                cost = self._cost(along_d, pattern[:gone] + pattern[gone + 1 :])
                if cost < 0.7:
                    return float(0.4 * (1.0 - cost) ** 0.5)
        return None

    def _fewer(self, along_d: list[float], count: int) -> list[tuple[int, float]]:
        """Smaller counts that also explain the circles found, with their confidence.

        The circles of a short row with its first checker missed (glare at the edge) sit
        where a tall stack's top layer would: both fit. The reading takes the exact fit;
        when a colour then has more than 15 checkers, these are what it falls back on.
        """
        out = []
        fits = self._fits(along_d)
        for k in range(count):
            if k in fits:
                out.append((k, float((1.0 - fits[k]) ** 0.5)))
            elif (missed := self._one_missed(along_d, k)) is not None:
                out.append((k, missed))
        return out
