"""A match writer for the crash test: appends a seeded match's actions, one ack line per commit.

    python -m tests.tools.store_writer DB SEED

Resumes the match already in DB (if any) and carries on with the same seeded
sequence of actions, printing "ack N" once action N is committed.
"""

from __future__ import annotations

import random
import sys

from companion.rules.match import Action, Match, MatchRules
from companion.rules.sample import random_actions
from companion.store import Store, _effective_actions

RULES = MatchRules(length=25, white="Ann", black="Bob")


def planned_actions(seed: int) -> list[Action]:
    """The whole match this seed plays (the same in every process)."""
    return list(random_actions(random.Random(seed), Match(RULES)))


def main() -> int:
    db, seed = sys.argv[1], int(sys.argv[2])
    plan = planned_actions(seed)
    store = Store(db)
    match_id = store.latest_match() or store.create_match(RULES)
    done = len(_effective_actions(store.events(match_id)))
    store.load(match_id)
    for n in range(done, len(plan)):
        store.apply(match_id, plan[n])
        print(f"ack {n + 1}", flush=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
