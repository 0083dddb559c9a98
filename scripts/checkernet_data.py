"""Strips of rendered boards, one per point and per half of the bar, labelled with the count.

    .venv/bin/python scripts/checkernet_data.py --boards 2400 --out /tmp/cn/data [--seed 1]
        [--camouflage SHARE] [--stress SHARE]

The data of the strip network `vision.board_net` runs (issue 27: checkers on points of
their own colour, tall piles, the bar). Each board is a `sim.random_scene` of either
family (wide three times in five; wide scenes draw points of other shapes too), its
position from random games (four in five) or a stress position with tall stacks and
checkers on the bar. The frame is warped to the board's view exactly as
`vision.board.BoardReader.rectify` does (1.5 px/mm, 8 mm margin), with the scene's
calibration moved a little (each corner by about 0.2% of the board's width, as the board
benchmark does; and a second cut with about 0.6%, a few millimetres, for training).

The strips are `vision.board_net`'s, as the reader cuts them: a point's rectangle and a
quarter of a point's width to either side, from just before its edge to just past the
middle of the board, turned so that row 0 is at its edge; the bar's halves from the
board's middle towards their owner.

Label per strip: the checkers on it (0-15) and whose they are (0 none, 1 white, 2 black).
Styles in `HELD_OUT` (`vision.board_net`) are never drawn here (the evaluation's,
`scripts/eval_checkernet.py`).
Shards of `SHARD` boards go to `--out` as npz: x (n, STRIP_H, STRIP_W, 3) uint8 BGR,
count, owner, place (0-23 points 1-24 in white's numbering, 24 white's bar, 25 black's),
board, style, variant (0 the benchmark's calibration, 1 the one further off). Most empty
points are dropped from training shards (`KEEP_EMPTY` of them kept).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from companion.rules.sample import random_positions, stress_position
from sim import STYLES, WIDE_STYLES, Scene, Style, corners_moved, random_scene, render
from vision.board import BoardReader
from vision.board_net import HELD_OUT, PLACES, StripCounter

STYLE_NAMES = [s.name for s in STYLES] + [s.name for s in WIDE_STYLES]
SHARD = 100
KEEP_EMPTY = 0.35
NOISE = (0.002, 0.006)  # corner noise per variant, of the board's width
# Stress positions' stack heights: taller than benchmarks/board.py's, up to a whole side.
TALL = (1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)


def cut_strips(reader: BoardReader, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The 26 strips of a frame, warped as the reader warps it: (PLACES, H, W, 3) BGR."""
    counter = StripCounter(reader.geo, reader.s.px_per_mm, reader.m)
    return counter.strips(reader.rectify(image))


def labels(white: Any, black: Any) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """Per place: the checkers there and whose (0 none, 1 white, 2 black)."""
    count = np.zeros(PLACES, np.int8)
    owner = np.zeros(PLACES, np.int8)
    for n in range(1, 25):
        w, b = white[n], black[25 - n]
        count[n - 1] = w + b
        owner[n - 1] = 1 if w else 2 if b else 0
    count[24], owner[24] = white[25], 1 if white[25] else 0
    count[25], owner[25] = black[25], 2 if black[25] else 0
    return count, owner


# Checker designs a camouflaged set may take (those that need no accent colour or logo).
PLAIN_DESIGNS = ("moulded", "flat", "raised", "shiny")


def camouflaged(style: Style, rng: random.Random) -> Style:
    """`style` with one checker set (either) the colour of one of the board's own parts
    (its surface, a triangle colour or the bar), jittered by up to 20 levels per channel,
    and of any plain design: checkers that show little but their rims (a dark set on a
    dark point, a gold one on a gold point), whatever the board. The name is kept (the
    held-out styles stay out)."""
    parts = [style.surface, *style.triangles, style.bar or style.frame]
    base = rng.choice(parts)
    colour = tuple(int(min(255, max(0, c + rng.randint(-20, 20)))) for c in base)
    which = "dark" if rng.random() < 0.5 else "light"
    return replace(style, **{which: colour}, design=rng.choice(PLAIN_DESIGNS), accent=None)


def draw_scenes(
    seed: int,
    boards: int,
    held_out: bool,
    wide_share: float = 0.6,
    camouflage: float = 0.0,
    stress: float | None = None,
) -> list[Scene]:
    """Scenes whose styles are (held_out) or are not (training) in `HELD_OUT`; a share
    `camouflage` of them with one checker set the colour of the board (`camouflaged`); a
    share `stress` of them in a stress position with tall piles (None: every fifth)."""
    pick = random.Random(seed + 1)
    rng = random.Random(seed)
    games = random_positions(seed, boards)
    out = []
    for i in range(boards):
        family = "wide" if rng.random() < wide_share else "default"
        while True:
            scene = random_scene(rng, family=family)
            if (scene.style.name in HELD_OUT) == held_out:
                break
        if (i % 5 == 4) if stress is None else pick.random() < stress:
            white, black = stress_position(rng, TALL)
        else:
            white, black = tuple(games[i].white), tuple(games[i].black)
        if rng.random() < camouflage:
            scene = replace(scene, style=camouflaged(scene.style, rng))
        out.append(replace(scene, white=white, black=black))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=2400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/cn/data")
    ap.add_argument(
        "--camouflage",
        type=float,
        default=0.0,
        help="the share of boards with one checker set the colour of the board's own parts",
    )
    ap.add_argument(
        "--stress",
        type=float,
        default=None,
        help="the share of boards in a stress position with tall piles (default: one in five)",
    )
    args = ap.parse_args()
    cv2.setNumThreads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scenes = draw_scenes(
        args.seed, args.boards, held_out=False, camouflage=args.camouflage, stress=args.stress
    )
    keep = np.random.default_rng(args.seed)
    buf: dict[str, list[Any]] = {
        k: [] for k in ("x", "count", "owner", "place", "board", "style", "variant")
    }
    t0 = time.perf_counter()
    for i, scene in enumerate(scenes):
        r = render(scene)
        assert r.calibration is not None
        count, owner = labels(scene.white, scene.black)
        for variant, share in enumerate(NOISE):
            reader = BoardReader(BoardGeometry(corners_moved(r.calibration, share, keep)))
            x = cut_strips(reader, r.image)
            chosen = (count > 0) | (keep.random(PLACES) < KEEP_EMPTY)
            idx = np.flatnonzero(chosen)
            buf["x"].append(x[idx])
            buf["count"].append(count[idx])
            buf["owner"].append(owner[idx])
            buf["place"].append(idx.astype(np.int8))
            buf["board"].append(np.full(len(idx), i, np.int32))
            buf["style"].append(np.full(len(idx), STYLE_NAMES.index(scene.style.name), np.int8))
            buf["variant"].append(np.full(len(idx), variant, np.int8))
        if (i + 1) % SHARD == 0 or i + 1 == len(scenes):
            shard = out / f"shard_{args.seed}_{i // SHARD:03d}.npz"
            np.savez_compressed(shard, **{k: np.concatenate(v) for k, v in buf.items()})
            buf = {k: [] for k in buf}
            print(f"{i + 1}/{len(scenes)} boards, {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
