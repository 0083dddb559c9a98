"""Match record speed: appends per second with full durability, and resume time.

    .venv/bin/python benchmarks/store.py [--dir DIR]

Appends a seeded 25-point match's actions one transaction each (WAL,
synchronous=FULL: an fsync per action, as in play), then times opening the
file and folding the whole record again (what a restart does). Targets:
append >= 500 events/s, resume a 25-point match < 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.rules.match import Match, MatchRules
from companion.rules.sample import random_actions
from companion.store import Store


def planned_match(seed: int) -> tuple[MatchRules, list[dict[str, object]]]:
    rules = MatchRules(length=25, white="Ann", black="Bob")
    match = Match(rules)
    # Few doubles, so that the match runs to a realistic number of games.
    return rules, list(random_actions(random.Random(seed), match, double_rate=0.01))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="where to put the file (default: a temporary folder)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    rules, actions = planned_match(args.seed)
    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bgstore-"))
    path = folder / "bench.db"
    path.unlink(missing_ok=True)
    with Store(path) as store:
        match_id = store.create_match(rules)
        t0 = time.perf_counter()
        events = 0
        for action in actions:
            events += len(store.apply(match_id, action))
        elapsed = time.perf_counter() - t0
        final = store.load(match_id)
    games = len([g for g in final.games if g.winner])
    print(f"store: {path} ({path.stat().st_size // 1024} KiB + WAL)")
    print(
        f"match: 25 points, {games} games, {len(actions)} actions, {events} events, "
        f"final score {final.score}"
    )
    rate = events / elapsed
    print(
        f"append: {rate:8.0f} events/s  ({len(actions) / elapsed:.0f} actions/s, "
        f"{elapsed / len(actions) * 1000:.2f} ms per action incl. rules check and fsync)"
        f"   target >= 500 events/s: {'MET' if rate >= 500 else 'MISSED'}"
    )

    times = []
    for _ in range(15):
        t0 = time.perf_counter()
        with Store(path) as store:
            state = store.load(match_id)
        times.append(time.perf_counter() - t0)
        assert state.summary() == final.summary()
    median = statistics.median(times) * 1000
    print(
        f"resume: median {median:6.1f} ms, worst {max(times) * 1000:6.1f} ms to open the file "
        f"and fold {events} events   target < 50 ms: {'MET' if median < 50 else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
