"""Rolls: dice thrown onto a rendered board, with the verdict the rules give them.

Each kind of roll (`ROLL_KINDS`) stands or breaks exactly one rule; `write_roll_set`
writes a labelled set of them in the layout `vision.evaluate` reads.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2

from calibration.geometry import BoardGeometry
from sim.renderer import checker_layout, render
from sim.scene import CHECKER_SHARE, DICE_STYLES, Die, Scene, random_scene, scene_calibration

# The renderer's own dice styles, as it ships them: a training script registers dice of
# random colours in `DICE_STYLES` (scripts/dicenet_data.py), and a roll drawn from the
# table as it then stood would not be the benchmark's (a test of roll 127 once read a
# 6-6 where the benchmark has a 5-3, after the training scenes' test had run).
ROLL_DICE_STYLES = tuple(DICE_STYLES)

ROLL_KINDS = (
    "valid",
    "cocked",
    "on_checker",
    "wrong_section",
    "off_board",
    "dice_count",
    "opening",
)


def random_roll_scene(
    rng: random.Random,
    kind: str = "valid",
    image_size: tuple[int, int] = (1920, 1080),
    solid: bool = False,
    family: str = "default",
    sides: bool = False,
) -> tuple[Scene, str, list[str]]:
    """A random board with dice thrown as `kind` says; the roller and the reasons expected.

    `valid` and `opening` rolls stand (reasons []); every other kind breaks exactly one
    rule (its reason in CONTRACTS.md's vocabulary). Dice keep clear of checkers unless
    they stand on one, and of each other. `solid`: the dice drawn as cubes seen from the
    camera (`Scene.dice_solid`), and the camera anywhere from 0.6 to 1.6 m away and tilted
    up to 30 degrees, where flat dice show their sides. `family`: the board styles drawn
    (`random_scene`; "wide": boards, checkers and light the dice networks never saw).
    `sides`: a cocked die drawn from above with the side its lean turns up
    (`Scene.dice_sides`); the scenes are otherwise the same.
    """
    if kind not in ROLL_KINDS:
        raise ValueError(f"unknown roll kind {kind!r}")
    base = random_scene(rng, start_position=True, image_size=image_size, family=family)
    if solid:
        pose = replace(base.pose, tilt_deg=rng.uniform(0, 30), distance_mm=rng.uniform(600, 1600))
        base = replace(base, pose=pose, dice_solid=True)
    if sides:
        base = replace(base, dice_sides=True)
    # Only board millimetres are needed here: any corners inside the image will do.
    iw, ih = image_size
    geo = BoardGeometry(
        scene_calibration(base, ((0, 0), (iw - 1, 0), (iw - 1, ih - 1), (0, ih - 1)))
    )
    roller = "opening" if kind == "opening" else rng.choice(["white", "black"])
    style = rng.choice(ROLL_DICE_STYLES)
    d = geo.point_width_mm * CHECKER_SHARE
    occupied = [tuple(c["center_mm"]) for c in checker_layout(base, geo)]

    def free_spot(section: str, taken: list[tuple[float, float]]) -> tuple[float, float]:
        rect = geo.left if section == "left" else geo.right
        for _ in range(500):
            x = rng.uniform(rect.x0 + 14, rect.x1 - 14)
            y = rng.uniform(rect.y0 + 14, rect.y1 - 14)
            if all(math.hypot(x - cx, y - cy) > d / 2 + 14 for cx, cy in occupied) and all(
                math.hypot(x - tx, y - ty) > 30 for tx, ty in taken
            ):
                return x, y
        raise RuntimeError("no free spot for a die")  # pragma: no cover

    if roller == "opening":
        sections = ["right", "left"]
    else:
        own = "right" if roller == "white" else "left"
        sections = [own, own]
    count = 2
    if kind == "dice_count":
        count = rng.choice([1, 3])
        sections = (sections * 2)[:count]
    spots: list[tuple[float, float]] = []
    for section in sections:
        spots.append(free_spot(section, spots))
    states = ["flat"] * count
    if kind == "cocked":
        states[rng.randrange(count)] = "cocked"
    elif kind == "on_checker":
        k = rng.randrange(count)
        states[k] = "on_checker"
        own_x = geo.right if sections[k] == "right" else geo.left
        spots[k] = rng.choice([c for c in occupied if own_x.contains(*c)])
    elif kind == "wrong_section":
        k = rng.randrange(count)
        other = "left" if sections[k] == "right" else "right"
        spots[k] = free_spot(other, spots[:k] + spots[k + 1 :])
    elif kind == "off_board":
        k = rng.randrange(count)
        side = rng.choice(["top", "bottom"])
        x = rng.uniform(40, base.width_mm - 40)
        spots[k] = (x, -base.frame_mm / 2 if side == "top" else base.height_mm + base.frame_mm / 2)
    size = rng.uniform(14, 18)
    dice = tuple(
        Die(
            rng.randint(1, 6),
            x,
            y,
            angle_deg=rng.uniform(0, 360),
            state=state,
            style=style,
            size_mm=size,
            lean_deg=rng.uniform(12, 35) if solid else 25.0,
        )
        for (x, y), state in zip(spots, states, strict=True)
    )
    reasons = [] if kind in ("valid", "opening") else [kind]
    return replace(base, dice=dice), roller, reasons


def roll_scenes(
    seed: int = 0,
    image_size: tuple[int, int] = (1920, 1080),
    solid: bool = False,
    family: str = "default",
    sides: bool = False,
) -> Iterator[tuple[Scene, str, list[str], str]]:
    """The rolls `write_roll_set` writes, in its order: each one's scene, roller, reasons
    and kind (every kind in turn, `random_roll_scene`), endlessly."""
    rng = random.Random(seed)
    for n in itertools.count():
        kind = ROLL_KINDS[n % len(ROLL_KINDS)]
        yield *random_roll_scene(rng, kind, image_size, solid, family, sides), kind


def nth_roll(n: int, seed: int = 0, family: str = "default") -> tuple[Scene, str, list[str]]:
    """Roll `n` (from 0) of `write_roll_set(..., seed=seed, family=family)` at 1920x1080:
    its scene, roller and reasons, without rendering those before it."""
    scene, roller, reasons, _ = next(itertools.islice(roll_scenes(seed, family=family), n, None))
    return scene, roller, reasons


def write_roll_set(
    folder: str | Path,
    count: int,
    seed: int = 0,
    image_size: tuple[int, int] = (1920, 1080),
    backgrounds: bool = False,
    solid: bool = False,
    family: str = "default",
    sides: bool = False,
) -> None:
    """A labelled set of rendered rolls (every kind in turn), in the layout `evaluate` reads;
    with `backgrounds`, each also as the camera saw it before the dice were thrown (the
    same scene without dice: `roll_NNNN.board.png`, a "background" in its label);
    `solid`: dice drawn as cubes seen from the camera, `family` the board styles drawn,
    `sides` cocked dice drawn with the side they turn up (`random_roll_scene`)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    scenes = roll_scenes(seed, image_size, solid, family, sides)
    for n, (scene, roller, reasons, kind) in zip(range(count), scenes, strict=False):
        r = render(scene)
        assert r.calibration is not None
        name = f"roll_{n:04d}"
        cv2.imwrite(str(folder / f"{name}.png"), r.image)
        r.calibration.save(folder / f"{name}.cal.json")
        dice = [{"center_px": d["center_px"], "value": d["value"]} for d in r.labels["dice"]]
        extra = {}
        if backgrounds:
            board = render(replace(scene, dice=()))
            cv2.imwrite(str(folder / f"{name}.board.png"), board.image)
            extra["background"] = f"{name}.board.png"
        lines.append(
            json.dumps(
                {
                    **extra,
                    "path": f"{name}.png",
                    "calibration": f"{name}.cal.json",
                    "roller": roller,
                    "reasons": reasons,
                    "kind": kind,
                    "dice": dice,
                    "style": scene.style.name,
                    "dice_style": scene.dice[0].style,
                }
            )
        )
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n")
