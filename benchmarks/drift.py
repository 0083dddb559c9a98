"""The drift check (`calibrate --check`, `run`'s check every few seconds): false alarms on
frames where nothing moved, and moves found, on rendered boards and real photos.

    .venv/bin/python benchmarks/drift.py [--boards 40] [--seed 2026] [--workers 2]
                                         [--data DIR] [--no-floors]

`calibration.refine.check_drift` is asked about each frame with its own calibration (a
false alarm if it says "moved") and with that calibration moved by each of `MOVES` (a
share of the board's width: the whole surface shifted, or turned about its middle so
that a corner moves so far, in turn), which is what a camera or board moved by as much
looks like to it. A move is found if it says "moved".

Rendered: `--boards` boards of each set, in a position of a random game, the
calibration the scene's true one with each corner moved by about 0.2% of the width (as
`benchmarks/board.py`): the default styles, open cases with soft points (`--trays
--soft-points` in the other benchmarks) and the wide styles (never tuned on). Real: the
labelled photos of shared/data/board_real_dev (`--data`), each with its labelled corners,
and each with the corners `find_board` puts there (as `calibrate` writes them, where it
finds one); and the photos of one board and camera (the same corners labelled within
0.5%) checked against each other's labelled calibration.

The reader's own tolerance, for scale (`benchmarks/board.py`'s boards, 60, default
styles, 2026-12-06): boards read exactly with the calibration shifted 1.5% of the width
60 of 60, 2% 58, 3% 19, 4% none.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from dataclasses import replace
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import cv2
import numpy as np
from benchkit import Floor, check, shared_data

from calibration.detect import AmbiguousBoard, BoardNotFound, find_board
from calibration.refine import check_drift
from calibration.schema import Calibration
from companion.rules.sample import random_positions
from sim import corners_moved, random_scene, render, with_soft_points, with_trays
from vision.evaluate import board_labels, label_calibration

MOVES = (0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.08)
SETS = ("default", "trays+soft", "wide")


def moved(cal: Calibration, share: float, turn: bool, rng: np.random.Generator) -> Calibration:
    """`cal` with its surface shifted by `share` of its width in a random direction, or
    turned about its middle so that its corners move that far."""
    c = np.array(cal.corners_px, np.float64)
    width = float(np.linalg.norm(c[1] - c[0]))
    if turn:
        mid = c.mean(axis=0)
        angle = share * width / float(np.linalg.norm(c - mid, axis=1).max())
        angle *= rng.choice([-1.0, 1.0])
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        c = (c - mid) @ rot.T + mid
    else:
        a = rng.uniform(0, 2 * np.pi)
        c = c + share * width * np.array([np.cos(a), np.sin(a)])
    (a0, b0), (a1, b1), (a2, b2), (a3, b3) = c.tolist()
    return replace(cal, corners_px=((a0, b0), (a1, b1), (a2, b2), (a3, b3)))


def drift_calls(image: np.ndarray, cal: Calibration, seed: int) -> dict[str, object]:
    """Unmoved: the share reported and whether it was called moved; then each move."""
    rng = np.random.default_rng(seed)
    still = check_drift(image, cal)
    found = [
        bool(check_drift(image, moved(cal, m, k % 2 == 1, rng))["moved"])
        for k, m in enumerate(MOVES)
    ]
    return {"still": float(str(still["drift_of_width"])), "alarm": bool(still["moved"]),
            "found": found}


def rendered(job: tuple[str, int, object]) -> dict[str, object]:
    name, i, scene = job
    cv2.setNumThreads(1)
    r = render(scene)  # type: ignore[arg-type]
    assert r.calibration is not None
    cal = corners_moved(r.calibration, 0.002, np.random.default_rng(i))
    out = drift_calls(r.image, cal, 1000 + i)
    out.update(set=name, board=i)
    return out


def scenes(name: str, n: int, seed: int) -> list[object]:
    rng = random.Random(seed)
    trays, soft = random.Random(seed + 1), random.Random(seed + 2)
    games = random_positions(seed, n)
    out = []
    for i in range(n):
        scene = random_scene(rng, family="wide" if name == "wide" else "default")
        scene = replace(scene, white=tuple(games[i].white), black=tuple(games[i].black))
        if name == "trays+soft":
            scene = with_soft_points(with_trays(scene, trays), soft)
        out.append(scene)
    return out


def ordered_like(found: np.ndarray, like: np.ndarray) -> np.ndarray:
    """`found`'s corners turned to lie nearest `like`'s (orientation is not checked here)."""
    rolls = [np.roll(found, -k, axis=0) for k in range(4)]
    return min(rolls, key=lambda q: float(np.abs(q - like).max()))


def real(folder: Path) -> tuple[list[str], dict[str, float]]:
    lines: list[str] = []
    alarms = checked = 0
    found_calls = [0] * len(MOVES)
    photos = []
    for n, entry in enumerate(board_labels(folder)):
        image = cv2.imread(str(folder / entry["image"]))
        if image is None:
            raise SystemExit(f"{folder / entry['image']}: not an image")
        cal = label_calibration(entry, (image.shape[1], image.shape[0]))
        photos.append((entry, image, cal))
        out = drift_calls(image, cal, 5000 + n)
        alarms += bool(out["alarm"])
        checked += 1
        for k, f in enumerate(out["found"]):  # type: ignore[arg-type]
            found_calls[k] += bool(f)
        text = f"  {entry['image']}: labelled corners {out['still']:.2%}" + (
            " MOVED" if out["alarm"] else ""
        )
        try:
            corners = find_board(image).corners
        except (AmbiguousBoard, BoardNotFound) as e:
            text += f"; find_board: {type(e).__name__}"
        else:
            c = ordered_like(np.array(corners), np.array(cal.corners_px))
            (a0, b0), (a1, b1), (a2, b2), (a3, b3) = c.tolist()
            own = replace(cal, corners_px=((a0, b0), (a1, b1), (a2, b2), (a3, b3)))
            report = check_drift(image, own)
            alarms += bool(report["moved"])
            checked += 1
            text += f"; corners found: {float(str(report['drift_of_width'])):.2%}" + (
                " MOVED" if report["moved"] else ""
            )
        lines.append(text)
    # photos of one board and camera: each checked with the others' labelled corners
    for entry, image, _ in photos:
        for other, _, cal in photos:
            if other is entry or other["image"] == entry["image"]:
                continue
            a = np.array(entry["board"]["corners_px"], np.float64)
            b = np.array(cal.corners_px, np.float64)
            if np.abs(a - b).max() > 0.005 * float(np.linalg.norm(a[1] - a[0])):
                continue
            report = check_drift(image, cal)
            alarms += bool(report["moved"])
            checked += 1
            lines.append(
                f"  {entry['image']} with {other['image']}'s corners: "
                f"{float(str(report['drift_of_width'])):.2%}" + (" MOVED" if report["moved"] else "")
            )
    figures = {"real_alarms": float(alarms), "real_checked": float(checked)}
    for k, m in enumerate(MOVES):
        figures[f"real_found_{m}"] = float(found_calls[k])
    figures["real_photos"] = float(len(photos))
    return lines, figures


FLOORS: list[Floor] = []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=40, help="rendered boards of each set")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--data", type=Path, default=shared_data("board_real_dev"))
    ap.add_argument("--no-floors", action="store_true", help="print the figures only")
    args = ap.parse_args()
    jobs = [(name, i, s) for name in SETS for i, s in enumerate(scenes(name, args.boards, args.seed))]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(rendered, jobs, chunksize=2)
    figures: dict[str, float] = {}
    moves = "  ".join(f"{m:.2%}" for m in MOVES)
    print(f"moves (share of the width): {moves}")
    for name in SETS:
        mine = [r for r in results if r["set"] == name]
        alarms = [r for r in mine if r["alarm"]]
        found = [sum(bool(r["found"][k]) for r in mine) for k in range(len(MOVES))]  # type: ignore[index]
        still = sorted(float(r["still"]) for r in mine)  # type: ignore[arg-type]
        print(
            f"{name}: {len(mine)} boards, false alarms {len(alarms)}"
            f" (unmoved, reported: median {still[len(still) // 2]:.2%}, worst {still[-1]:.2%});"
            f" moves found {'  '.join(f'{f}/{len(mine)}' for f in found)}"
        )
        for r in alarms:
            print(f"  board {r['board']}: {float(r['still']):.2%} on an unmoved frame")  # type: ignore[arg-type]
        figures[f"{name}_alarms"] = float(len(alarms))
        for k, m in enumerate(MOVES):
            figures[f"{name}_found_{m}"] = float(found[k])
    if args.data.is_dir():
        lines, real_figures = real(args.data)
        n = int(real_figures["real_photos"])
        print(
            f"real photos ({args.data}): false alarms {int(real_figures['real_alarms'])} of "
            f"{int(real_figures['real_checked'])} unmoved checks; moves found "
            + "  ".join(f"{int(real_figures[f'real_found_{m}'])}/{n}" for m in MOVES)
        )
        print("\n".join(lines))
        figures.update(real_figures)
    if args.no_floors:
        return 0
    return check(figures, FLOORS)


if __name__ == "__main__":
    sys.exit(main())
