"""Legal-play enumeration speed over 2,000 seeded (position, roll) cases, against peers.

    .venv/bin/python benchmarks/movegen.py [--cases 2000] [--seed 1]

Prints our median / 99th percentile / worst time per case and enumerations per
second, then the same cases through the peers that are installed: GNU
Backgammon's C move generator (PyPI `gnubg`; its find_best_moves also scores
every play with its 0-ply neural net, which is included in its time) and the
pure-Python engine of PyPI `backgammon` (generate_plays()). Targets: median
under 1 ms, worst under 20 ms, >= 5x the pure-Python peer, within 10x of gnubg.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from companion.rules import Position
from companion.rules.sample import random_positions

Case = tuple[Position, tuple[int, int]]


def make_cases(n: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    positions = random_positions(seed, n)
    return [(p, (rng.randint(1, 6), rng.randint(1, 6))) for p in positions]


def time_each(cases: list[Case], fn: Callable[[Case], int], repeat: int = 3) -> list[float]:
    """Best-of-`repeat` seconds per case."""
    times = []
    gc.disable()
    try:
        for case in cases:
            best = float("inf")
            for _ in range(repeat):
                t0 = time.perf_counter()
                fn(case)
                best = min(best, time.perf_counter() - t0)
            times.append(best)
    finally:
        gc.enable()
    return times


def ours(case: Case) -> int:
    position, dice = case
    return len(position.legal_plays(dice))


def gnubg_peer() -> Callable[[Case], int] | None:
    try:
        import gnubg  # type: ignore[import-untyped]
    except ImportError:
        return None
    ctx, cube = gnubg.evalcontext(0, 0, 0, 0, 0), gnubg.cubeinfo()

    def run(case: Case) -> int:
        position, dice = case
        board = (tuple(position.opponent[1:26]), tuple(position.mover[1:26]))
        return max(1, len(gnubg.find_best_moves(board, cube, ctx, dice)))

    return run


def backgammon_peer() -> Callable[[Case], int] | None:
    try:
        import backgammon  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return None
    raise SystemExit("PyPI `backgammon` is installed but its adapter is not written yet")


def summary(name: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[int(len(ms) * 0.99) - 1]
    per_s = len(ms) / (sum(ms) / 1000)
    return (
        f"{name:<28} median {statistics.median(ms):7.3f} ms   p99 {p99:7.3f} ms   "
        f"worst {ms[-1]:7.3f} ms   {per_s:9.0f} enumerations/s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    cases = make_cases(args.cases, args.seed)
    print(f"movegen: {len(cases)} seeded cases (seed {args.seed}), best of 3 per case, one core")
    print(
        f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or '?'}"
    )
    our_times = time_each(cases, ours)
    print(summary("bgcompanion (pure Python)", our_times))
    worst = max(range(len(cases)), key=lambda i: our_times[i])
    wp, wd = cases[worst]
    print(f"{'':<28} worst case: {wp!r} dice {wd[0]}{wd[1]}, {ours(cases[worst])} plays")
    median_ok = statistics.median(our_times) < 0.001
    worst_ok = max(our_times) < 0.020
    print(
        f"targets: median < 1 ms {'MET' if median_ok else 'MISSED'}, "
        f"worst < 20 ms {'MET' if worst_ok else 'MISSED'}"
    )

    for name, peer, target in (
        ("gnubg (C, + 0-ply eval)", gnubg_peer(), "within 10x"),
        ("backgammon (pure Python)", backgammon_peer(), ">= 5x faster"),
    ):
        if peer is None:
            print(f"{name:<28} not installed: no ratio")
            continue
        mismatched = sum(1 for c in cases if peer(c) != ours(c))
        times = time_each(cases, peer)
        print(summary(name, times))
        ratio = sum(our_times) / sum(times)
        med_ratio = statistics.median(our_times) / statistics.median(times)
        print(
            f"{'':<28} ours / theirs: total {ratio:.2f}x, median {med_ratio:.2f}x "
            f"(target {target}); play counts differ on {mismatched} cases"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
