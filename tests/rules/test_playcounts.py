"""The play-count file (like chess "perft"), cross-checked once against GNU Backgammon.

tests/data/playcounts.tsv holds, for 350 positions (bar, bear-off, blocked,
contact and race cases) and all 21 rolls, the number of distinct legal
resulting positions. It was written by tests/tools/make_playcounts.py, which
refuses to write unless GNU Backgammon's move generator gives the same counts.
"""

from __future__ import annotations

from collections import Counter

from companion.rules import position_from_id
from tests.conftest import DATA

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def load() -> list[tuple[str, str, list[int]]]:
    rows = []
    for line in (DATA / "playcounts.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("position_id"):
            continue
        pid, kind, counts = line.split("\t")
        rows.append((pid, kind, [int(c) for c in counts.split(",")]))
    return rows


def test_the_file_covers_every_kind_of_position_and_roll() -> None:
    rows = load()
    assert len(rows) >= 300
    kinds = Counter(kind for _, kind, _ in rows)
    assert set(kinds) >= {"bar", "bearoff", "blocked", "contact"}
    assert min(kinds.values()) >= 50
    assert all(len(counts) == 21 for _, _, counts in rows)
    # The file exercises the rare cases too: unplayable rolls and very open doubles.
    flat = [c for _, _, counts in rows for c in counts]
    assert flat.count(1) > 50 and max(flat) > 300


def test_every_count_matches() -> None:
    wrong = []
    for pid, kind, counts in load():
        position = position_from_id(pid)
        ours = [len(position.legal_plays(dice)) for dice in ROLLS]
        if ours != counts:
            wrong.append(
                (
                    pid,
                    kind,
                    [
                        (f"{a}{b}", o, c)
                        for (a, b), o, c in zip(ROLLS, ours, counts, strict=True)
                        if o != c
                    ],
                )
            )
    assert wrong == []
