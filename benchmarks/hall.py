"""The tournament hall under load: many tables through one broker to one hall.

    .venv/bin/python benchmarks/hall.py [--tables 200] [--speed 10] [--match-length 3]

Starts a real Mosquitto on this machine (a config made by `bgcompanion hall-setup`'s
code: a login and an ACL per table) and the real hall (`bgcompanion hall`, its own
process), then `--workers` processes that each play their share of the tables: every
table a match file, a publisher thread, and a whole random match (companion.rules.sample)
replayed at `--speed` times a table's real pace (a roll 4 s after the last play, a
play 8 s after its roll, a cube action 5 s: a turn in 12 s). Each action is recorded in
the table's match file as the referee records it and its publisher is told; the
publisher sends it on. At the end the hall's events are compared with every table's
match file.

Prints: tables, events recorded, events lost (in a file but not at the hall; target 0),
out of order or doubled at the hall (target 0), the latency from an event being saved at
its table to the hall holding it (median, 95th percentile: target under 1 s, worst), and
the hall process's CPU and memory (and the broker's).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

from companion.hall.broker import Mosquitto, free_port, write_config
from companion.hall.wire import Broker, load_credentials

GAPS_S = {"roll": 4.0, "play": 8.0, "opening": 10.0}  # a table's real pace
CUBE_GAP_S = 5.0


def actions_of(seed: int, length: int) -> list[tuple[float, dict[str, Any]]]:
    """A whole random match: each action with its real-time gap after the one before."""
    from companion.rules.match import Match, MatchRules
    from companion.rules.sample import random_actions

    out = []
    for action in random_actions(random.Random(seed), Match(MatchRules(length=length))):
        out.append((GAPS_S.get(str(action["type"]), CUBE_GAP_S), action))
    return out


# --- a worker: its share of the tables ---------------------------------------------------
def worker(args: argparse.Namespace) -> None:
    from companion.hall.publish import Publisher
    from companion.rules.match import MatchRules
    from companion.store import Store

    folder = Path(args.folder)
    broker = Broker("127.0.0.1", args.port)
    tables = args.worker_tables.split(",")
    stores, publishers, plans = {}, {}, {}
    for t in tables:
        store = Store(folder / f"table-{t}.db")
        stores[t] = (store, 0)  # the match is created when the table starts playing
        cred = load_credentials(folder / "broker" / f"table-{t}.cred", {})
        publishers[t] = Publisher(store.path, t, broker, cred, heartbeat_s=10.0)
        plans[t] = actions_of(args.seed * 100_000 + int(t), args.match_length)
    for p in publishers.values():
        p.start()
    rng = random.Random(args.seed)
    start = args.start_at
    queue: list[tuple[float, str, int]] = []
    for t in tables:
        first = plans[t][0][0] * rng.random() / args.speed  # the tables do not start at once
        heapq.heappush(queue, (start + first, t, 0))
    while queue:
        when, t, i = heapq.heappop(queue)
        delay = when - time.time()
        if delay > 0:
            time.sleep(delay)
        store, match_id = stores[t]
        if i == 0:
            match_id = store.create_match(MatchRules(length=args.match_length))
            stores[t] = (store, match_id)
        publishers[t].notify(store.apply(match_id, plans[t][i][1]))
        if i + 1 < len(plans[t]):
            heapq.heappush(queue, (when + plans[t][i + 1][0] / args.speed, t, i + 1))
    # every event acknowledged by the broker (bounded), then the files' ids
    deadline = time.monotonic() + 60
    for t in tables:
        store, match_id = stores[t]
        last = store.events(match_id)[-1]
        while publishers[t].mark != (match_id, last.seq) and time.monotonic() < deadline:
            time.sleep(0.05)
    out = {}
    for t in tables:
        store, match_id = stores[t]
        out[t] = [[e.match_id, e.seq] for e in store.events(match_id)]
        publishers[t].close()
        store.close()
    Path(args.out).write_text(json.dumps(out))


# --- the whole run ----------------------------------------------------------------------------
def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) in MB."""
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--speed", type=float, default=10.0, help="times a table's real pace")
    ap.add_argument("--match-length", type=int, default=3)
    ap.add_argument("--workers", type=int, default=4, help="processes playing the tables")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument(
        "--outage-at", type=float, default=0, help="stop the broker this many s into the play"
    )
    ap.add_argument("--outage-s", type=float, default=5.0, help="for this long (default 5)")
    ap.add_argument("--worker-tables", help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--start-at", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker_tables:
        worker(args)
        return

    tmp = Path(tempfile.mkdtemp(prefix="bgcompanion-hall-bench-"))
    tables = [str(n) for n in range(1, args.tables + 1)]
    folder = write_config(tmp / "broker", tables, port=free_port(), host="127.0.0.1")
    broker = Mosquitto(folder)
    broker.start()
    page = free_port()
    hall = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "hall",
            "--broker",
            f"mqtt://127.0.0.1:{folder.port}",
            "--credentials",
            str(folder.hall_credentials),
            "--port",
            str(page),
            "--pin",
            "2468",
        ],
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{page}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get_json(base + "/api/state")["status"] == "connected":
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the hall did not start")
            time.sleep(0.2)
        start_at = time.time() + 3.0 + args.tables / 100  # the publishers connect first
        workers = []
        for w in range(args.workers):
            mine = tables[w :: args.workers]
            if not mine:
                continue
            out = tmp / f"worker-{w}.json"
            cmd = [sys.executable, __file__, "--worker-tables", ",".join(mine)]
            cmd += ["--folder", str(tmp), "--port", str(folder.port), "--start-at", str(start_at)]
            cmd += ["--match-length", str(args.match_length), "--speed", str(args.speed)]
            cmd += ["--seed", str(args.seed), "--out", str(out)]
            workers.append((subprocess.Popen(cmd), out))
        hall_cpu0, broker_cpu0 = cpu_s(hall.pid), cpu_s(broker.pid or 0)
        wall0 = time.time()
        print(
            f"hall benchmark: {args.tables} tables, {args.match_length}-point matches at "
            f"{args.speed:g}x a table's pace, {len(workers)} worker processes; playing...",
            flush=True,
        )
        peak_rss, broker_used = 0.0, 0.0
        outage = start_at + args.outage_at if args.outage_at else None
        while any(p.poll() is None for p, _ in workers):
            time.sleep(0.5)
            peak_rss = max(peak_rss, memory_mb(hall.pid)[0])
            if outage is not None and time.time() >= outage:
                outage = None
                broker_used += cpu_s(broker.pid or 0) - broker_cpu0  # the first one's share
                broker.stop()
                print(f"  the broker stopped for {args.outage_s:g} s", flush=True)
                time.sleep(args.outage_s)
                broker.start()
                broker_cpu0 = cpu_s(broker.pid or 0)
        wall = max(time.time() - max(wall0, start_at), 1e-9)
        if any(p.returncode for p, _ in workers):
            raise SystemExit("a worker failed")
        expected: dict[str, list[list[int]]] = {}
        for _, out in workers:
            expected |= json.loads(out.read_text())
        total = sum(len(ids) for ids in expected.values())
        deadline = time.monotonic() + 30
        while get_json(base + "/api/stats")["events"] < total and time.monotonic() < deadline:
            time.sleep(0.2)
        hall_cpu = cpu_s(hall.pid) - hall_cpu0
        broker_cpu = broker_used + cpu_s(broker.pid or 0) - broker_cpu0
        stats = get_json(base + "/api/stats")
        lost = disorder = 0
        for t, ids in expected.items():
            got = get_json(f"{base}/api/events/{t}")["ids"]
            lost += len({tuple(i) for i in ids} - {tuple(i) for i in got})
            disorder += got != sorted(got) or len(got) != len({tuple(i) for i in got})
        rss, hwm = memory_mb(hall.pid)
        brss, _ = memory_mb(broker.pid or 0)
        lat = stats["latency_s"]
        held = stats["events"]
        print(f"  tables: {len(expected)}  events recorded: {total}  at the hall: {held}")
        print(f"  events lost: {lost} (target 0)  tables out of order or doubled: {disorder}")
        print(
            f"  resends dropped as duplicates: {stats['duplicates']}  "
            f"messages dropped: {sum(stats['dropped'].values())}"
        )
        print(
            f"  latency event saved -> hall: median {lat['p50'] * 1000:.0f} ms, "
            f"p95 {lat['p95'] * 1000:.0f} ms (target < 1000), worst {lat['max'] * 1000:.0f} ms"
        )
        print(
            f"  play: {wall:.0f} s, {total / wall:.0f} events/s; hall CPU {hall_cpu:.1f} s "
            f"({100 * hall_cpu / wall:.0f}% of a core), memory {rss:.0f} MB now, "
            f"peak {max(hwm, peak_rss):.0f} MB; broker CPU {100 * broker_cpu / wall:.0f}% "
            f"of a core, {brss:.0f} MB"
        )
    finally:
        hall.terminate()
        hall.wait(10)
        broker.stop()


if __name__ == "__main__":
    main()
