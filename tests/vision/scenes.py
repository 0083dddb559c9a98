"""A rendered board written as the files a user gives the command line."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import cv2

from companion.rules.position import Position
from companion.rules.sample import random_positions
from sim import random_scene, render


def write_board(folder: Path) -> tuple[Path, Path, Position]:
    """A rendered board in a random position (seed 5) as `board.png` and its calibration
    `board.cal.json` in `folder`, and the position it shows."""
    p = random_positions(5, 1)[0]
    scene = replace(random_scene(random.Random(5)), white=tuple(p.white), black=tuple(p.black))
    r = render(scene)
    assert r.calibration is not None
    cv2.imwrite(str(folder / "board.png"), r.image)
    r.calibration.save(folder / "board.cal.json")
    return folder / "board.png", folder / "board.cal.json", p
