"""The benchmarks run as documented: each starts (none shadows a package), `make bench`
runs every one, and a broken floor fails the run."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if p.name != "benchkit.py")

sys.path.append(str(BENCH))  # last: as the benchmarks themselves put it
from benchkit import Floor, check  # noqa: E402


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_benchmark_starts_as_its_docstring_says(script: str) -> None:
    # `python benchmarks/dice.py` once raised ModuleNotFoundError: a file in the folder
    # named after a package shadowed it. --help imports everything the benchmark needs.
    text = (BENCH / script).read_text()
    assert f"benchmarks/{script}" in text.split('"""')[1]  # the command is documented
    out = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "usage:" in out.stdout


def test_make_bench_runs_every_benchmark() -> None:
    recipe = (ROOT / "Makefile").read_text().split("\nbench:")[1].split("\n\n")[0]
    run = set(re.findall(r"benchmarks/(\w+\.py)", recipe))
    assert run == set(SCRIPTS)


def test_a_broken_floor_fails_and_says_which() -> None:
    floors = [
        Floor("right", "right", at_least=0.9),
        Floor("phantoms", "phantoms", at_most=2),
        Floor("wrong", "wrong", at_most=0),
    ]
    out = io.StringIO()
    assert check({"right": 0.95, "phantoms": 2, "wrong": 0}, floors, out) == 0
    assert "floors: 3/3 hold" in out.getvalue()
    out = io.StringIO()
    assert check({"right": 0.85, "phantoms": 3}, floors, out) == 1
    lines = out.getvalue().splitlines()
    assert "floor right: 0.85 (>= 0.9) BROKEN" in lines[0]
    assert "floor phantoms: 3 (<= 2) BROKEN" in lines[1]
    assert "floor wrong: missing (<= 0) BROKEN" in lines[2]  # a figure not measured
    assert lines[-1] == "floors: 0/3 hold"
