"""Training scenes for the dice networks (`vision/dicenet.py`), rendered by `sim`.

    python3 scripts/dicenet_data.py OUT --scenes 6000 --seed 100000 [--jobs 2] [--shards 12]
        [--solid SHARE] [--facing] [--sides] [--wide SHARE [--random-designs]] [--clear SHARE]

Each scene is a random board (the renderer's styles, or colours drawn at random),
checkers at the start or anywhere, and 0-8 dice (the renderer's four styles, or
colours drawn at random; flat, cocked or on a checker; on the surface, by checkers,
on the bar or the frame), under the renderer's poses, lenses and lights; with `--wide`,
that share of the scenes drawn from the wide family (`sim.WIDE_STYLES`: checkers with
logos, numbers, raised rims, marbling and highlights, light from any side), its styles in
`vision.board_net.HELD_OUT_WIDE` never, to measure on (`benchmarks/dice.py --styles
wide`). Written per
job into OUT/shard_NN.npz:
- `det`: each scene's board seen from above at 1 px/mm (`dicenet.board_frame`), and
  `det_dice`: (scene, x, y) of each die's centre in that view's pixels;
- `crops`: squares round each die's centre and round places without one (random
  places, checkers, beside a die), `read_px_per_mm` px/mm (with `--facing` each turned so
  that the camera's foot lies down in it, `dicenet.facing`), and for each the offset of
  the nearest die's centre from the square's centre (px of the square; nan where none
  lies inside), with that die's value and state, and `clear`: 1 where it is see-through
  (`--clear`; `scripts/train_dicenet.py` teaches its state only with `--clear-state`).

Seeds apart from the benchmark's and the tests' (2026, 7, 11, 12, ...): 100000 on.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calibration.geometry import BoardGeometry  # noqa: E402
from sim import (  # noqa: E402
    CHECKER_SHARE,
    DICE_CLEAR,
    DICE_STYLES,
    STYLES,
    WIDE_STYLES,
    CameraPose,
    Die,
    Look,
    Scene,
    Style,
    checker_layout,
    random_scene,
    render,
    scene_calibration,
)
from vision.board_net import HELD_OUT_WIDE  # noqa: E402
from vision.dicenet import STATES, around, board_frame, facing, warp  # noqa: E402

DETECT_SCALE = 1.0
DETECT_MARGIN = 60.0
READ_SCALE = 2.0
CROP = 96  # stored; the reader takes 72 px from within, shifted up to 12 px
NEGATIVES = 10
# Of the scenes, this share has its dice drawn solid (`sim.Scene.dice_solid`: parallax, side
# faces with their pips, a cocked die leaning), half of them under a camera tilted 10-35
# degrees (flat dice then show their sides, as on any camera not straight above the die),
# half of them lit from any side.
SOLID_SHARE = 0.0  # (`--solid`)
# The reader's squares turned so that the board point below the camera lies straight down in
# each (`vision.dicenet.facing`): for a reader that reads them so (`dicenet.READ_FACING`).
FACING = False  # (`--facing`)
# Cocked dice drawn from above as they look (`sim.Scene.dice_sides`: the top face
# foreshortened beside the side face the lean turns up, with its pips, lit), not as the
# stylised squashed face beside a plain band.
SIDES = False  # (`--sides`)
# Of the scenes, this share drawn from the wide family, but for its held-out styles (`--wide`);
# half of those with a board and checkers of its designs in colours drawn at random
# (`random_wide_style`, `--random-designs`).
WIDE_SHARE = 0.0
RANDOM_DESIGNS = False
# Of the dice styles drawn, this share see-through (`sim.DICE_CLEAR`, `--clear`): precision
# dice of any colour, what lies under them showing through, tinted, with the pips of their
# other faces faintly (a purple die on a black point shows little but its top pips).
CLEAR_SHARE = 0.0
WIDE_KEPT = tuple(s for s in WIDE_STYLES if s.name not in HELD_OUT_WIDE)  # what it may draw


def _colour(rng: random.Random, lo: int = 0, hi: int = 255) -> tuple[int, int, int]:
    return (rng.randint(lo, hi), rng.randint(lo, hi), rng.randint(lo, hi))


def _luma(c: tuple[int, int, int]) -> float:
    return 0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2]


def random_style(rng: random.Random) -> Style:
    """A board of colours drawn at random (light and dark checkers kept apart)."""
    light = _colour(rng, 150, 255)
    dark = _colour(rng, 0, 110)
    return Style(
        f"random{rng.randrange(1 << 20)}",
        _colour(rng, 0, 200),
        _colour(rng, 20, 230),
        (_colour(rng, 0, 255), _colour(rng, 0, 255)),
        light,
        dark,
        bar=_colour(rng, 0, 200) if rng.random() < 0.3 else None,
        texture=rng.choice(["felt", "wood", "smooth"]),
        table=_colour(rng, 20, 200),
    )


DESIGNS = ("moulded", "flat", "raised", "logo", "marbled", "shiny")  # `sim.Style.design`
GLYPHS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789&$#"  # a logo's letter ("#": each numbered)


def random_wide_style(rng: random.Random) -> Style:
    """A board of colours drawn at random whose checkers are made any way the renderer
    makes them (rims, a letter or number of any colour, marbling, highlights), with or
    without a raised, hinged bar: the wide family's designs, not its styles."""
    design = rng.choice(DESIGNS)
    own = design in ("logo", "marbled") or rng.random() < 0.5
    return replace(
        random_style(rng),
        design=design,
        accent=(_colour(rng), _colour(rng)) if own else None,
        logo=rng.choice(GLYPHS) if design == "logo" else "",
        bar_raised=rng.random() < 0.3,
        hinges=rng.random() < 0.3,
    )


# The renderer's own dice styles. Till 2026-12-03 `random_dice_style` drew from the table as
# it stood, with the styles of random colours it had registered before in the same process
# among them: the networks shipped were trained on scenes drawn so.
RENDERER_DICE = tuple(DICE_STYLES)


def random_dice_style(rng: random.Random) -> str:
    """A die style: one of the renderer's four, or colours drawn at random (registered in
    the renderer's table under a new name); with `--clear`, that share see-through."""
    if CLEAR_SHARE and rng.random() < CLEAR_SHARE:
        return _clear_dice_style(rng)
    if rng.random() < 0.7:
        return rng.choice(RENDERER_DICE)
    face = _colour(rng)
    pip = (20, 20, 20) if _luma(face) > 128 else (240, 240, 240)
    if rng.random() < 0.3:
        pip = _colour(rng)
        if abs(_luma(pip) - _luma(face)) < 70:
            pip = (20, 20, 20) if _luma(face) > 128 else (245, 245, 245)
    name = f"random{rng.randrange(1 << 30)}"
    DICE_STYLES[name] = (face, pip)
    return name


def _clear_dice_style(rng: random.Random) -> str:
    """A see-through die's style: a colour of any hue, light or dark, its pips mostly
    white, and from 0.3 to 0.75 of what lies under it showing through (`sim.DICE_CLEAR`)."""
    top = rng.randint(60, 235)
    face = [int(top * rng.uniform(0.1, 1.0)) for _ in range(3)]
    face[rng.randrange(3)] = top  # its hue: the strongest channel
    grey = rng.randint(225, 250)
    pip = (grey, grey, grey) if rng.random() < 0.8 else _colour(rng, 150, 255)
    name = f"clear{rng.randrange(1 << 30)}"
    DICE_STYLES[name] = ((face[0], face[1], face[2]), pip)
    DICE_CLEAR[name] = rng.uniform(0.3, 0.75)
    return name


def random_position(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two sides' checkers (the contract's arrays) spread at random over points apart."""
    white, black = [0] * 26, [0] * 26
    points = list(range(1, 25))
    rng.shuffle(points)
    mine, theirs = points[: rng.randint(3, 9)], points[12 : 12 + rng.randint(3, 9)]
    for arr, own, convert in ((white, mine, False), (black, theirs, True)):
        left = 15
        arr[0] = rng.choice([0, 0, 0, rng.randint(0, 8)])
        arr[25] = rng.choice([0, 0, 0, 0, 1, 2])
        left -= arr[0] + arr[25]
        for _ in range(left):
            p = rng.choice(own)
            arr[25 - p if convert else p] += 1
    return tuple(white), tuple(black)


def training_scene(rng: random.Random) -> Scene:
    """A random scene with dice as `dicenet` must read them (see the module's docstring)."""
    size = (1920, 1080) if rng.random() < 0.75 else (1280, 720)
    wide = bool(WIDE_SHARE) and rng.random() < WIDE_SHARE
    scene = random_scene(rng, True, size, "wide" if wide else "default")
    if wide:  # its styles, those held out never, or its designs in colours at random
        if RANDOM_DESIGNS and rng.random() < 0.5:
            scene = replace(scene, style=random_wide_style(rng))
        elif scene.style.name in HELD_OUT_WIDE:
            scene = replace(scene, style=rng.choice(WIDE_KEPT))
    elif rng.random() < 0.35:
        scene = replace(scene, style=random_style(rng))
    elif rng.random() < 0.1:
        scene = replace(scene, style=replace(rng.choice(STYLES), name="again"))
    if rng.random() < 0.5:
        white, black = random_position(rng)
        scene = replace(scene, white=white, black=black)
    if rng.random() < 0.2:  # as a referee's camera is set up: filling the frame, sharp
        scene = replace(
            scene,
            pose=replace(scene.pose, fill=rng.uniform(0.85, 0.95), tilt_deg=rng.uniform(0, 5)),
        )
    if rng.random() < 0.15:
        scene = replace(
            scene,
            look=Look(noise=rng.uniform(0, 2)),
            pose=CameraPose(
                yaw_deg=rng.choice([0.0, 90.0, 180.0, -90.0, rng.uniform(-180, 180)]),
                fill=rng.uniform(0.6, 0.95),
            ),
        )
    if SOLID_SHARE and rng.random() < SOLID_SHARE:  # solid dice, often seen from aslant
        pose = scene.pose
        if rng.random() < 0.5:
            pose = replace(pose, tilt_deg=rng.uniform(10, 35), distance_mm=rng.uniform(600, 1600))
        look = scene.look
        if rng.random() < 0.5:  # the light from any side (the dice's shading, the shadows)
            look = replace(look, shadow_deg=rng.uniform(0, 360), shadow_mm=rng.uniform(1, 4))
        scene = replace(scene, pose=pose, look=look, dice_solid=True)
    return replace(scene, dice=_dice(rng, scene), dice_sides=SIDES)


def _dice(rng: random.Random, scene: Scene) -> tuple[Die, ...]:
    iw, ih = scene.image_size
    geo = BoardGeometry(
        scene_calibration(scene, ((0, 0), (iw - 1, 0), (iw - 1, ih - 1), (0, ih - 1)))
    )
    d = geo.point_width_mm * CHECKER_SHARE
    checkers = [tuple(c["center_mm"]) for c in checker_layout(scene, geo)]
    count = rng.choice([0, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8])
    mixed = rng.random() < 0.3
    style = random_dice_style(rng)
    die_mm = rng.uniform(13, 19)
    w, h, f = scene.width_mm, scene.height_mm, scene.frame_mm
    out: list[Die] = []
    for _ in range(count):
        state = rng.choices(STATES, [0.55, 0.25, 0.2])[0]
        for _try in range(200):
            if state == "on_checker" and checkers:
                x, y = rng.choice(checkers)
            else:
                where = rng.random()
                if where < 0.15:  # on the frame, off the surface
                    if rng.random() < 0.7:
                        x = rng.uniform(20, w - 20)
                        y = -f / 2 if rng.random() < 0.5 else h + f / 2
                    else:
                        x = -f / 2 if rng.random() < 0.5 else w + f / 2
                        y = rng.uniform(20, h - 20)
                    y += rng.uniform(-0.15, 0.15) * f
                elif where < 0.35 and checkers:  # beside a checker
                    cx, cy = rng.choice(checkers)
                    a = rng.uniform(0, 2 * math.pi)
                    r = d / 2 + rng.uniform(10, 16)
                    x, y = cx + r * math.cos(a), cy + r * math.sin(a)
                else:
                    x, y = rng.uniform(10, w - 10), rng.uniform(10, h - 10)
                if state == "on_checker":
                    state = "flat"
                if any(math.hypot(x - cx, y - cy) < d / 2 + 10 for cx, cy in checkers):
                    continue
            if all(math.hypot(x - o.x_mm, y - o.y_mm) > 25 for o in out):
                out.append(
                    Die(
                        rng.randint(1, 6),
                        x,
                        y,
                        angle_deg=rng.uniform(0, 360),
                        state=state,
                        style=random_dice_style(rng) if mixed else style,
                        size_mm=die_mm * (rng.uniform(0.95, 1.05) if mixed else 1.0),
                        lean_deg=rng.uniform(15, 45) if scene.dice_solid else 25.0,
                    )
                )
                break
    return tuple(out)


def scene_data(seed: int) -> dict[str, object]:
    """One scene's detector view, its dice there, and the reader's squares."""
    rng = random.Random(seed)
    scene = training_scene(rng)
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    view = board_frame(geo, DETECT_SCALE, DETECT_MARGIN)
    det = warp(r.image, geo, view, cache=False)
    dice = [(die, lab) for die, lab in zip(scene.dice, r.labels["dice"], strict=True)]
    centres = [(die.x_mm, die.y_mm) for die, _ in dice]
    det_dice = [
        (*view.to_px(x, y), die.value, STATES.index(die.state))
        for (x, y), (die, _) in zip(centres, dice, strict=True)
    ]
    places = list(centres)
    checkers = [tuple(c["center_mm"]) for c in r.labels["checkers"]]
    dmm = geo.point_width_mm * CHECKER_SHARE
    for _ in range(NEGATIVES):
        kind = rng.random()
        if kind < 0.35 or not (checkers or centres):
            x = rng.uniform(-DETECT_MARGIN + 10, geo.width_mm + DETECT_MARGIN - 10)
            y = rng.uniform(-DETECT_MARGIN + 10, geo.height_mm + DETECT_MARGIN - 10)
        elif (kind < 0.75 and checkers) or not centres:
            cx, cy = rng.choice(checkers)
            a, rad = rng.uniform(0, 2 * math.pi), rng.uniform(0, dmm * 0.7)
            x, y = cx + rad * math.cos(a), cy + rad * math.sin(a)
        else:
            cx, cy = rng.choice(centres)
            a, rad = rng.uniform(0, 2 * math.pi), rng.uniform(12, 26)
            x, y = cx + rad * math.cos(a), cy + rad * math.sin(a)
        places.append((x, y))
    crops, near, value, state, clear, sides = [], [], [], [], [], []
    for x, y in places:
        # `--facing`: turned so that the camera's foot lies down (`dicenet.facing`).
        turn = facing(geo, x, y, READ_SCALE) if FACING else 0.0
        c, s = math.cos(turn), math.sin(turn)
        crops.append(warp(r.image, geo, around(geo, x, y, READ_SCALE, CROP, turn), cache=False))
        best = None
        for (dx, dy), (die, _) in zip(centres, dice, strict=True):
            dist = math.hypot(dx - x, dy - y)
            if best is None or dist < best[0]:  # the offset in the turned square's pixels
                u, v = c * (dx - x) + s * (dy - y), -s * (dx - x) + c * (dy - y)
                best = (dist, u * READ_SCALE, v * READ_SCALE, die)
        if best is None or best[0] * READ_SCALE > CROP / 2:
            near.append((np.nan, np.nan))
            value.append(0)
            state.append(0)
            clear.append(0)
            sides.append(0)
        else:
            near.append((best[1], best[2]))
            value.append(best[3].value)
            state.append(STATES.index(best[3].state))
            clear.append(int(best[3].style in DICE_CLEAR))
            sides.append(int(SIDES and best[3].state == "cocked"))
    return {
        "det": det,
        "det_dice": det_dice,
        "crops": crops,
        "near": near,
        "value": value,
        "state": state,
        "clear": clear,
        "sides": sides,
        "size": [die.size_mm for die, _ in dice],
    }


def write_shard(args: tuple[str, int, list[int]]) -> str:
    out, job, seeds = args
    dets, shapes, det_dice, crops, near, value, state = [], [], [], [], [], [], []
    clear: list[int] = []
    sides: list[int] = []
    for k, seed in enumerate(seeds):
        s = scene_data(seed)
        det = s["det"]
        assert isinstance(det, np.ndarray)
        det_dice += [(len(dets), *d) for d in s["det_dice"]]  # type: ignore[attr-defined]
        dets.append(det.ravel())  # views differ in size with the board: kept flat
        shapes.append(det.shape[:2])
        crops += s["crops"]  # type: ignore[arg-type]
        near += s["near"]  # type: ignore[arg-type]
        value += s["value"]  # type: ignore[arg-type]
        state += s["state"]  # type: ignore[arg-type]
        clear += s["clear"]  # type: ignore[arg-type]
        sides += s["sides"]  # type: ignore[arg-type]
        if k % 100 == 0:
            print(f"job {job}: {k}/{len(seeds)}", flush=True)
    path = Path(out) / f"shard_{job:02d}.npz"
    np.savez(
        path,
        det=np.concatenate(dets),
        det_shapes=np.array(shapes, np.int64),
        det_dice=np.array(det_dice, np.float32).reshape(-1, 5),
        crops=np.stack(crops),
        near=np.array(near, np.float32),
        value=np.array(value, np.int64),
        state=np.array(state, np.int64),
        clear=np.array(clear, np.uint8),
        sides=np.array(sides, np.uint8),
    )
    return str(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=100000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--shards", type=int, default=12)
    ap.add_argument("--solid", type=float, default=0.0, help="share of scenes with solid dice")
    ap.add_argument(
        "--facing", action="store_true", help="squares turned so that the camera's foot is down"
    )
    ap.add_argument(
        "--sides", action="store_true", help="cocked dice drawn with the side they turn up"
    )
    ap.add_argument(
        "--wide",
        type=float,
        default=0.0,
        help="share of scenes from the wide family (held-out styles never)",
    )
    ap.add_argument(
        "--random-designs",
        action="store_true",
        help="half the wide scenes with the wide family's checker designs in random colours",
    )
    ap.add_argument(
        "--clear", type=float, default=0.0, help="share of dice styles drawn see-through"
    )
    args = ap.parse_args()
    global SOLID_SHARE, FACING, SIDES, WIDE_SHARE, RANDOM_DESIGNS, CLEAR_SHARE
    CLEAR_SHARE = args.clear
    SOLID_SHARE = args.solid
    FACING = args.facing
    SIDES = args.sides
    WIDE_SHARE = args.wide
    RANDOM_DESIGNS = args.random_designs
    Path(args.out).mkdir(parents=True, exist_ok=True)
    seeds = [args.seed + k for k in range(args.scenes)]
    work = [(args.out, j, seeds[j :: args.shards]) for j in range(args.shards)]
    with multiprocessing.Pool(args.jobs) as pool:
        for path in pool.imap_unordered(write_shard, work):
            print("wrote", path, flush=True)


if __name__ == "__main__":
    main()
