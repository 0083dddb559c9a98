"""Seeded sources of positions (`companion.rules.sample`)."""

from __future__ import annotations

import random

from companion.rules.position import Position
from companion.rules.sample import stress_position


def test_stress_positions_are_valid_with_tall_stacks_of_the_heights_asked() -> None:
    rng = random.Random(5)
    tallest = 0
    for _ in range(200):
        white, black = stress_position(rng, heights=(4, 9))
        assert Position(white, black).is_valid()
        for side in (white, black):
            assert sum(side) == 15
            stacks = [n for n in side[1:25] if n]
            # Each point gets one of the heights, but the last one what is left.
            assert sum(n not in (4, 9) for n in stacks) <= 1
            tallest = max(tallest, *stacks)
    assert tallest == 9
