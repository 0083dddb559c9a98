"""The dice benchmark's rendered rolls (`benchmarks/dice.py`) as scenes."""

from __future__ import annotations

import random
from functools import cache

from sim import ROLL_KINDS, Scene, random_roll_scene
from vision.dice_settings import DiceSettings


@cache
def benchmark_roll(n: int, seed: int = 2026) -> tuple[Scene, str, list[str]]:
    """Roll n of the dice benchmark's rendered set (`--seed`, 2026 unless given): its
    scene, roller, reasons."""
    rng = random.Random(seed)
    for k in range(n + 1):
        scene, roller, reasons = random_roll_scene(
            rng, ROLL_KINDS[k % len(ROLL_KINDS)], (1920, 1080)
        )
    return scene, roller, reasons


NET = DiceSettings()  # the dice networks' settings, as shipped
