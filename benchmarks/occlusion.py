"""Occlusion and clutter: an arm, a dice cup, a clock and a score card on and round a board.

    .venv/bin/python benchmarks/occlusion.py [--boards 100] [--seed 2026]
        [--styles default|wide] [--beside] [--workers 2]

Each board is a random style, pose, light and position as in `benchmarks/board.py` (four
in five from random games, one in five a stress position), rendered at 1920x1080; then
`sim.clutter.draw_clutter` draws a player's arm and hand reaching over the surface and a
dice cup, a clock and a score card, each over the surface or (`--beside`) beside it. None
of these things is drawn by the scenes the readers were trained or tuned on. The frame
is read as `referee` reads one (`vision.frame.FrameReader.read_still`: dice, then the
checkers), with the scene's calibration moved by about 0.2% of the board's width.

Measured (issue 27, "Occlusion": the points under a hand, an arm, a cup or a clock are
unsure, and a confident wrong count is the one result never accepted; issue 28: nothing
that is not a die is read as one):
- places (24 points, each side's bar) under something: read right, read wrong but unsure
  (confidence under `--flag`, 0.5, as the referee's board minimum), and read wrong with
  confidence (the figure that must be 0);
- places clear of everything read wrong with confidence;
- boards read exactly, flagged, and wrong but not flagged (must be 0);
- dice read where no die lies (none is thrown): each named by what it lies on.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

# A benchmark named after a package would shadow it: this folder goes last on the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

from calibration.geometry import BoardGeometry, Rect
from companion.rules.sample import random_positions, stress_position
from sim import Scene, corners_moved, random_scene, render
from sim.clutter import KINDS, Clutter, draw_clutter
from vision.frame import FrameReader

STEP_MM = 5.0  # a place's strip sampled this often to tell whether something lies over it


def place_rects(geo: BoardGeometry) -> dict[str, Rect]:
    """Each place's area on the board (mm): the 24 points' strips (white's numbering), and
    for each side's checkers on the bar the whole bar (they lie in either half)."""
    out = {str(n): geo.point_rect(n) for n in range(1, 25)}
    out["bar-white"] = out["bar-black"] = geo.bar
    return out


def covered(rect: Rect, things: list[Clutter]) -> str | None:
    """The kind of the first thing that lies over part of `rect`, if any."""
    xs = np.arange(rect.x0 + STEP_MM / 2, rect.x1, STEP_MM)
    ys = np.arange(rect.y0 + STEP_MM / 2, rect.y1, STEP_MM)
    for thing in things:
        if any(thing.covers(float(x), float(y)) for x in xs for y in ys):
            return thing.kind
    return None


def _counts(white: list[int], black: list[int], place: str) -> tuple[int, int]:
    """(white's, black's) checkers on a place, in white's numbering."""
    if place == "bar-white":
        return white[25], 0
    if place == "bar-black":
        return 0, black[25]
    n = int(place)
    return white[n], black[25 - n]


def measure(job: tuple[int, Scene, int, bool, float]) -> dict[str, object]:
    i, scene, seed, beside, flag = job
    import cv2

    cv2.setNumThreads(1)
    r = render(scene)
    assert r.calibration is not None
    truth_geo = BoardGeometry(r.calibration)
    rng = np.random.default_rng([seed, i])
    image, things = draw_clutter(r.image, truth_geo, rng, KINDS, over=not beside)
    cal = corners_moved(r.calibration, 0.002, np.random.default_rng(i))
    reader = FrameReader(BoardGeometry(cal))
    t0 = time.perf_counter()
    reading = reader.read_still(image)
    ms = (time.perf_counter() - t0) * 1000
    board = reading.board
    assert board is not None
    true_w, true_b = list(scene.white or [0] * 26), list(scene.black or [0] * 26)
    conf = dict(board.places)
    rects = place_rects(truth_geo)
    places = []
    for name, rect in rects.items():
        wrong = _counts(list(board.white), list(board.black), name) != _counts(true_w, true_b, name)
        places.append((name, covered(rect, things), wrong, conf.get(name, 0.0) >= flag))
    right = list(board.white) == true_w and list(board.black) == true_b
    dice = []
    for d in reading.dice:
        ((x, y),) = truth_geo.px_to_mm([d.center_px])
        on = next((t.kind for t in things if t.covers(float(x), float(y))), None)
        where = on or (truth_geo.section_mm(float(x), float(y)))
        dice.append((d.value, where))
    return {
        "board": i,
        "style": scene.style.name,
        "right": right,
        "flagged": board.confidence < flag,
        "places": places,
        "dice": dice,
        "ms": ms,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--styles", choices=["default", "wide"], default="default")
    ap.add_argument(
        "--beside", action="store_true", help="the cup, clock and card beside the board"
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--flag", type=float, default=0.5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = random_positions(args.seed, args.boards)
    jobs = []
    for i in range(args.boards):
        scene = random_scene(rng, family=args.styles)
        white, black = stress_position(rng) if i % 5 == 4 else (games[i].white, games[i].black)
        scene = replace(scene, white=tuple(white), black=tuple(black))
        jobs.append((i, scene, args.seed, args.beside, args.flag))
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(measure, jobs, chunksize=2)
    wall = time.perf_counter() - t0
    where = "beside the board" if args.beside else "over the board"
    print(
        f"boards: {len(results)} (seed {args.seed}, {args.styles} styles), an arm over each "
        f"and a cup, a clock and a card {where}; {wall:.0f} s with {args.workers} workers"
    )
    under = [p for r in results for p in r["places"] if p[1] is not None]  # type: ignore[attr-defined]
    clear = [p for r in results for p in r["places"] if p[1] is None]  # type: ignore[attr-defined]
    print(
        f"places under something: {len(under)}; read right {sum(not p[2] for p in under)}, "
        f"wrong but unsure {sum(p[2] and not p[3] for p in under)}, "
        f"wrong with confidence {sum(p[2] and p[3] for p in under)} (target 0; on the bar "
        f"{sum(p[2] and p[3] and p[0].startswith('bar') for p in under)})"
    )
    for kind in KINDS:
        mine = [p for p in under if p[1] == kind]
        if mine:
            print(
                f"  under the {kind}: {len(mine)}, right {sum(not p[2] for p in mine)}, "
                f"wrong with confidence {sum(p[2] and p[3] for p in mine)}"
            )
    print(
        f"places clear of everything: {len(clear)}; wrong {sum(p[2] for p in clear)}, "
        f"wrong with confidence {sum(p[2] and p[3] for p in clear)}"
    )
    right = sum(bool(r["right"]) for r in results)
    unflagged = [r for r in results if not r["right"] and not r["flagged"]]
    print(
        f"boards exact {right}/{len(results)}, flagged {sum(bool(r['flagged']) for r in results)},"
        f" wrong and not flagged {len(unflagged)} (target 0)"
    )
    for r in results:
        confident = [p[0] for p in r["places"] if p[2] and p[3]]  # type: ignore[attr-defined]
        if confident:
            print(f"  board {r['board']} ({r['style']}): read wrong with confidence {confident}")
    phantom = [(r["board"], d) for r in results for d in r["dice"]]  # type: ignore[attr-defined]
    print(f"dice read where none lies: {len(phantom)} (target 0)")
    for board, (value, on) in phantom:
        print(f"  board {board}: a {value} on {on}")
    times = sorted(float(r["ms"]) for r in results)  # type: ignore[arg-type]
    median = times[len(times) // 2]
    print(
        f"a frame read (dice and checkers, {args.workers} workers at once): median {median:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
