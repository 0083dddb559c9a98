"""What the benchmarks share: their floors, and where the shared data lies.

Floors are figures a benchmark must not fall below (or above, for mistakes). The
accuracy pins live here, not in the unit tests: a benchmark prints its figures,
then one line per floor, and exits 1 if any is broken, so `make bench` fails on a
regression and `make test` stays fast and pins behaviour only. A floor is where a
figure stood when it was set, never a target (the targets are in the issues).

    from benchkit import Floor, check
    sys.exit(check(figures, [Floor("boards exact", "boards_exact", at_least=3)]))
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]


def add_models(ap: argparse.ArgumentParser) -> None:
    """The `--models DIR` option: candidate networks measured in place of the shipped ones."""
    ap.add_argument(
        "--models",
        type=Path,
        help="run the networks in this folder instead of vision/models' of the same names "
        "(a candidate measured; those it lacks stay the shipped ones)",
    )


def use_models(folder: Path | None) -> None:
    """The networks `--models` named, if any, run from here on (and in worker processes
    forked after), with a line on stderr saying so (stdout may be one JSON document)."""
    if folder is not None:
        from vision.networks import use_models as use

        use(folder)
        names = ", ".join(sorted(p.name for p in folder.glob("*.onnx")))
        print(f"networks from {folder}: {names} (the others shipped)", file=sys.stderr)


def shared_data(name: str) -> Path:
    """A folder of the shared data: $BGCOMPANION_SHARED/data/NAME, else ../shared/data/NAME
    beside the repository (where CI puts it)."""
    return Path(os.environ.get("BGCOMPANION_SHARED", ROOT.parent / "shared")) / "data" / name


@dataclass(frozen=True)
class Floor:
    """`figures[key]` must be at least `at_least` and at most `at_most` (either or both)."""

    name: str
    key: str
    at_least: float | None = None
    at_most: float | None = None

    def holds(self, value: float) -> bool:
        low = self.at_least is None or value >= self.at_least
        return low and (self.at_most is None or value <= self.at_most)

    def bound(self) -> str:
        parts = []
        if self.at_least is not None:
            parts.append(f">= {self.at_least:g}")
        if self.at_most is not None:
            parts.append(f"<= {self.at_most:g}")
        return " and ".join(parts)


def check(figures: Mapping[str, float], floors: Sequence[Floor], out: TextIO = sys.stdout) -> int:
    """Prints each floor with its figure to `out`; 1 if any is broken (or its figure is
    missing), else 0."""
    broken = 0
    for floor in floors:
        value = figures.get(floor.key)
        ok = value is not None and floor.holds(float(value))
        broken += not ok
        shown = "missing" if value is None else f"{float(value):g}"
        print(
            f"  floor {floor.name}: {shown} ({floor.bound()}) {'ok' if ok else 'BROKEN'}", file=out
        )
    print(f"floors: {len(floors) - broken}/{len(floors)} hold", file=out)
    return 1 if broken else 0
