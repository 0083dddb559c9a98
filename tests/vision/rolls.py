"""The dice benchmark's rendered rolls (`benchmarks/dice.py`) as scenes."""

from __future__ import annotations

import copy
import random
from functools import cache

import pytest

from sim import ROLL_KINDS, Scene, random_roll_scene
from vision.config import Config, load_config


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


def pip_reader(cfg: Config) -> Config:
    """`cfg` with the dice networks off: calibrated colour frames read by the pip reader
    (`vision.dice.read_calibrated`), as grey frames always are."""
    out = copy.deepcopy(cfg)
    out["net"]["use"] = 0
    return out


NET = load_config()  # calibrated colour frames read by the dice networks
PIPS = pip_reader(NET)  # ... and by the pip reader
# What either reader must do: a test taking `cfg` runs with both.
READERS = pytest.mark.parametrize("cfg", [NET, PIPS], ids=["net", "pips"])
