"""GNU Backgammon (Debian `gnubg`) in batch mode for tests: `gnubg -t -q`, commands on stdin."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"


def available() -> bool:
    return Path(GNUBG).exists()


def run(commands: list[str], timeout: float = 120) -> str:
    result = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return result.stdout + result.stderr


@dataclass
class ImportReport:
    games: int
    scores: dict[str, int]
    length: int
    warnings: list[str]


_SCORE = re.compile(
    r"The score \(after (\d+) games?\) is: (.+?) (\d+), (.+?) (\d+) \(match to (\d+) points?[^)]*\)"
)


def import_report(mat: Path) -> ImportReport:
    """What GNU Backgammon says after importing a .mat file."""
    out = run([f"import mat {mat}", "show score"])
    found = _SCORE.findall(out)
    if not found:
        raise AssertionError(
            f"GNU Backgammon printed no score after importing {mat}:\n{out[-2000:]}"
        )
    games, n0, s0, n1, s1, length = found[-1]
    warnings = [line for line in out.splitlines() if "WARNING" in line or "Invalid" in line]
    return ImportReport(int(games), {n0: int(s0), n1: int(s1)}, int(length), warnings)


def self_play_match(length: int, seed: int, out: Path) -> None:
    """GNU Backgammon plays itself (0-ply) and exports the match as .mat."""
    setup = []
    for player in (0, 1):
        setup += [
            f"set player {player} gnubg",
            f"set player {player} chequerplay evaluation plies 0",
            f"set player {player} cubedecision evaluation plies 0",
        ]
    run([*setup, f"set seed {seed}", f"new match {length}", f"export match mat {out}"])
