"""Calibration on rendered boards: orientation, corner refinement, time per image.

    .venv/bin/python benchmarks/calibration.py [--boards 300] [--seed 2026]

Each board is a random style, pose (any rotation, tilt up to 15 degrees), lens,
light, noise and JPEG at 1920x1080, in the starting position. Measured:
- orientation from the starting position, the corners given in shuffled order:
  share right, share confident (the rest fall back to the order given);
- corner refinement from corners about 0.7% of the board's width off (what
  `calibrate --check` does): share within 0.5% of the width, median error;
- automatic board finding: not built yet (no figure).
Targets (issue): corners within 0.5% in 99% of images; orientation right in all.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

# This file's name is the package's: keep its folder from shadowing `calibration`.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

from calibration.orient import orient
from calibration.refine import polish
from vision.render import random_scene, render


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng, noise = random.Random(args.seed), np.random.default_rng(args.seed)
    right = confident = within = 0
    errors, t_orient, t_refine = [], [], []
    for i in range(args.boards):
        scene = random_scene(rng)
        r = render(scene)
        assert r.raw_corners is not None
        truth = r.raw_corners
        width = float(np.linalg.norm(truth[1] - truth[0]))
        t0 = time.perf_counter()
        found = orient(r.image, truth[noise.permutation(4)])
        t_orient.append(time.perf_counter() - t0)
        ok = np.allclose(np.array(found.corners), truth) and found.white_home == scene.white_home
        right += ok
        confident += found.confident
        start = truth + noise.normal(0, 0.007 * width, truth.shape)
        t0 = time.perf_counter()
        corners = polish(r.image, start)
        t_refine.append(time.perf_counter() - t0)
        error = float(np.abs(corners - truth).max()) / width
        errors.append(error)
        within += error <= 0.005
        if (i + 1) % 50 == 0:
            print(f"  {i + 1} boards...", file=sys.stderr, flush=True)
    n = args.boards
    print(f"calibration benchmark: {n} rendered 1920x1080 boards (seed {args.seed})")
    print(
        f"orientation from the starting position: right {right}/{n} ({right / n:.1%}), "
        f"confident {confident}/{n} ({confident / n:.1%}); "
        f"median {statistics.median(t_orient) * 1000:.0f} ms   target: right in all: "
        f"{'MET' if right == n else 'MISSED'}"
    )
    print(
        f"corner refinement from ~0.7% off: within 0.5% of the width {within}/{n} "
        f"({within / n:.1%}), median error {statistics.median(errors):.3%}, "
        f"worst {max(errors):.2%}; median {statistics.median(t_refine) * 1000:.0f} ms"
    )
    print("automatic board finding: not built yet (target: within 0.5% in 99% of images)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
