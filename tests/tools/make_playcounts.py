"""Writes tests/data/playcounts.tsv: legal-play counts for 21 rolls over 320+ positions.

Like chess "perft": the number of distinct legal resulting positions for each
position and roll. Positions come from seeded random games and from seeded
random boards built for the rarer cases (checkers on the bar against made
points, primes, bear-offs). Every count is checked against GNU Backgammon's
move generator (PyPI `gnubg`) before the file is written; one disagreement and
nothing is written.

    .venv/bin/python -m tests.tools.make_playcounts
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from companion.rules import Position, position_id
from companion.rules.position import WHITE
from companion.rules.sample import random_positions

OUT = Path(__file__).resolve().parents[1] / "data" / "playcounts.tsv"
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]  # 11 21 22 31 32 33 ...
PER_CATEGORY = 70


def category(position: Position) -> str:
    """bar, bearoff, blocked (a run of 4+ opposing points ahead of a checker), contact or race."""
    me, opp = position.mover, position.opponent
    if me[25]:
        return "bar"
    if not any(me[7:26]):
        return "bearoff"
    held = [opp[25 - p] >= 2 for p in range(1, 25)]  # held[i]: my point i+1 is blocked
    back = max(i for i in range(1, 25) if me[i])
    run = best = 0
    for p in range(back - 1, 0, -1):
        run = run + 1 if held[p - 1] else 0
        best = max(best, run)
    if best >= 4:
        return "blocked"
    their_back = max(i for i in range(0, 26) if opp[i])
    if their_back and 25 - their_back < back:
        return "contact"
    return "race"


def _place(
    rng: random.Random, board: list[int], points: list[int], n: int, taken: set[int]
) -> None:
    free = [p for p in points if p not in taken]
    for _ in range(n):
        board[rng.choice(free)] += 1


def random_board(rng: random.Random, kind: str) -> Position:
    """A random possible position of the given kind, white on roll (not always reachable)."""
    while True:
        me, opp = [0] * 26, [0] * 26
        if kind == "bearoff":
            _place(rng, me, list(range(0, 7)), 15, set())
        else:
            if kind == "bar":
                me[25] = rng.randint(1, 3)
            if kind == "blocked":
                start = rng.randint(3, 12)
                for p in range(start, start + rng.randint(4, 6)):
                    opp[25 - p] = 2  # a prime in front of the checkers behind it
                me[rng.randint(start + 6, 24)] += 2
            # The opponent's home board often made when on the bar.
            if kind == "bar":
                for p in rng.sample(range(19, 25), rng.randint(2, 6)):
                    opp[25 - p] += 2
            mine = {p for p in range(1, 25) if opp[25 - p]}
            _place(rng, me, list(range(1, 25)), 15 - sum(me), mine)
            theirs = {25 - p for p in range(1, 25) if me[p]}
            _place(rng, opp, [0, *range(1, 25)], 15 - sum(opp), theirs)
        if kind == "bearoff":
            _place(rng, opp, [0, *range(1, 25)], 15, {25 - p for p in range(1, 7) if me[p]})
        position = Position.from_sides(me, opp, WHITE)
        if position.is_valid() and position.winner() is None and category(position) == kind:
            return position


def choose_positions(seed: int = 2026) -> list[tuple[str, Position]]:
    rng = random.Random(seed)
    chosen: dict[str, list[Position]] = {}
    seen: set[str] = set()
    for position in random_positions(seed, 4000):
        kind = category(position)
        pid = position_id(position)
        if pid not in seen and len(chosen.setdefault(kind, [])) < PER_CATEGORY:
            seen.add(pid)
            chosen[kind].append(position.with_turn(WHITE))
    for kind in ("bar", "bearoff", "blocked", "contact"):
        while len(chosen.setdefault(kind, [])) < PER_CATEGORY:
            position = random_board(rng, kind)
            if position_id(position) not in seen:
                seen.add(position_id(position))
                chosen[kind].append(position)
    return [(kind, p) for kind in sorted(chosen) for p in chosen[kind]]


def gnubg_counts(gnubg: Any, position: Position) -> list[int]:
    board = (tuple(position.opponent[1:26]), tuple(position.mover[1:26]))
    ctx, cube = gnubg.evalcontext(0, 0, 0, 0, 0), gnubg.cubeinfo()
    # GNU Backgammon lists no move for an unplayable roll; we list the empty play.
    return [max(1, len(gnubg.find_best_moves(board, cube, ctx, dice))) for dice in ROLLS]


def main() -> int:
    import gnubg

    rows = []
    mismatches = 0
    for kind, position in choose_positions():
        ours = [len(position.legal_plays(dice)) for dice in ROLLS]
        theirs = gnubg_counts(gnubg, position)
        if ours != theirs:
            mismatches += 1
            print(f"MISMATCH {position_id(position)} {kind}: {ours} != {theirs}", file=sys.stderr)
        rows.append(f"{position_id(position)}\t{kind}\t{','.join(map(str, ours))}")
    if mismatches:
        print(
            f"{mismatches} positions disagree with GNU Backgammon; nothing written", file=sys.stderr
        )
        return 1
    kinds = Counter(row.split("\t")[1] for row in rows)
    header = [
        "# Legal-play counts (distinct resulting positions), white on roll, per roll in the order",
        "# "
        + " ".join(f"{a}{b}" for a, b in ROLLS)
        + "; an unplayable roll counts 1 (the empty play).",
        f"# {len(rows)} positions: "
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        + ".",
        f"# Every count checked against GNU Backgammon {gnubg.__version__} (PyPI gnubg): agree.",
        "# Written by: python -m tests.tools.make_playcounts",
        "position_id\tcategory\tcounts",
    ]
    OUT.write_text("\n".join(header + rows) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(rows)} positions, {len(rows) * len(ROLLS)} counts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
