"""The strip counter (`scripts/train_checkernet.py`) against the ring reader, on the same boards.

    .venv/bin/python scripts/eval_checkernet.py --model /tmp/cn/checker_count.onnx \
        [--boards 100] [--seed 777] [--styles held|seen] [--real DIR] [--montage PNG]

(a) Rendered boards of the styles left out of training (`checkernet_data.HELD_OUT`:
three wide, two default), drawn as the training boards are (wide three times in five,
four in five positions from games, one in five a stress position) but with another seed;
`--styles seen` draws the training styles instead (new boards). The calibration is the
scene's with each corner moved by about 0.2% of the board's width (as benchmarks/board.py).
(b) The labelled real photos (default ../shared/data/board_real_dev, read in place),
calibrated from their labels as benchmarks/real.py does.

Per board, the ring reader (`vision.board.BoardReader.read` without the network's second
opinion, `net_check = false`; read twice as the board
benchmark does, so its checker size is settled) and the network (on the strips cut from
the same reader's warp) give each point's count: the checkers on it whatever their colour
(the network knows no colours); the reader's counts with colours are given too. Figures:
points whose count is right, boards with all 24 points' counts right, each half of the
bar; per style. The network runs on one thread (onnxruntime).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from checkernet_data import HELD_OUT, cut_strips, draw_scenes, labels
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from sim import corners_moved, render
from vision.board import BoardReader, BoardSettings
from vision.board_net import StripCounter
from vision.evaluate import board_labels, label_calibration

RINGS = BoardSettings(net_check=False)  # the ring reader alone


@dataclass
class Tally:
    boards: int = 0
    net_points: int = 0  # points whose count the network has right
    ring_points: int = 0  # ... the ring reader (count, whatever the colour)
    ring_coloured: int = 0  # ... the ring reader, count and colour
    net_boards: int = 0  # boards with all 24 counts right
    ring_boards: int = 0
    ring_boards_coloured: int = 0
    net_bar: int = 0  # halves of the bar right
    ring_bar: int = 0
    net_unsure: int = 0  # points under `sure`
    net_unsure_wrong: int = 0
    net_wrong: int = 0
    misread: list[str] = field(default_factory=list)

    def add(
        self,
        name: str,
        truth: NDArray[np.int8],
        owner: NDArray[np.int8],
        net: NDArray[np.int64],
        prob: NDArray[np.float32],
        ring: NDArray[np.int64],
        ring_owner: NDArray[np.int64],
        sure: float,
    ) -> None:
        pts = slice(0, 24)
        self.boards += 1
        net_ok = net[pts] == truth[pts]
        ring_ok = ring[pts] == truth[pts]
        col_ok = ring_ok & ((ring_owner[pts] == owner[pts]) | (truth[pts] == 0))
        self.net_points += int(net_ok.sum())
        self.ring_points += int(ring_ok.sum())
        self.ring_coloured += int(col_ok.sum())
        self.net_boards += bool(net_ok.all())
        self.ring_boards += bool(ring_ok.all())
        self.ring_boards_coloured += bool(col_ok.all())
        self.net_bar += int((net[24:] == truth[24:]).sum())
        self.ring_bar += int((ring[24:] == truth[24:]).sum())
        unsure = prob[pts] < sure
        self.net_unsure += int(unsure.sum())
        self.net_unsure_wrong += int((unsure & ~net_ok).sum())
        self.net_wrong += int((~net_ok).sum())
        bad = [
            f"{k + 1}:{truth[k]}/net {net[k]}/ring {ring[k]}"
            for k in range(24)
            if not (net_ok[k] and ring_ok[k])
        ]
        if bad:
            self.misread.append(f"{name}: " + ", ".join(bad))

    def lines(self, label: str) -> list[str]:
        n = max(1, self.boards)
        pts = 24 * n
        return [
            f"{label}: {self.boards} boards",
            f"  points' counts right: net {self.net_points}/{pts} "
            f"({100 * self.net_points / pts:.1f}%), rings {self.ring_points}/{pts} "
            f"({100 * self.ring_points / pts:.1f}%; with colour {self.ring_coloured}, "
            f"{100 * self.ring_coloured / pts:.1f}%)",
            f"  boards with all 24 counts right: net {self.net_boards}/{n} "
            f"({100 * self.net_boards / n:.0f}%), rings {self.ring_boards}/{n} "
            f"({100 * self.ring_boards / n:.0f}%; with colour {self.ring_boards_coloured})",
            f"  bar halves right: net {self.net_bar}/{2 * n}, rings {self.ring_bar}/{2 * n}",
            f"  net points unsure: {self.net_unsure} ({self.net_unsure_wrong} of them wrong); "
            f"net wrong points in all: {self.net_wrong}",
        ]


def ring_counts(reading: Any) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The reader's count and owner (0 none, 1 white, 2 black) per place, as `labels`."""
    count, owner = labels(reading.white, reading.black)
    return count.astype(np.int64), owner.astype(np.int64)


def net_counts(
    model: str, reader: BoardReader, view: NDArray[np.uint8]
) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """The network's count of each place of the reader's board view, and its odds."""
    odds = StripCounter(reader.geo, reader.s.px_per_mm, reader.m, model).odds(view)
    return odds.argmax(axis=1), odds.max(axis=1).astype(np.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="/tmp/cn/checker_count.onnx")
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--styles", choices=["held", "seen"], default="held")
    default_real = Path(__file__).resolve().parents[2] / "shared" / "data" / "board_real_dev"
    ap.add_argument("--real", default=str(default_real))
    ap.add_argument("--sure", type=float, default=0.8, help="a point under this is unsure")
    ap.add_argument("--montage", help="write the real photos' strips here (PNG)")
    ap.add_argument("--verbose", action="store_true", help="each misread board's points")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    model = str(Path(args.model).resolve())  # vision.networks takes an absolute path as it is

    per_style: dict[str, Tally] = defaultdict(Tally)
    total = Tally()
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    net_ms: list[float] = []
    for i, scene in enumerate(draw_scenes(args.seed, args.boards, held_out=args.styles == "held")):
        r = render(scene)
        assert r.calibration is not None
        reader = BoardReader(BoardGeometry(corners_moved(r.calibration, 0.002, rng)), RINGS)
        reader.read(r.image)  # settles the checkers' size, as benchmarks/board.py does
        ring, ring_owner = ring_counts(reader.read(r.image))
        t = time.perf_counter()
        net, prob = net_counts(model, reader, reader.rectify(r.image))
        net_ms.append(1000 * (time.perf_counter() - t))
        truth, owner = labels(scene.white, scene.black)
        for tally in (per_style[scene.style.name], total):
            tally.add(
                f"board {i} ({scene.style.name})",
                truth,
                owner,
                net,
                prob,
                ring,
                ring_owner,
                args.sure,
            )
    print(
        f"rendered boards, {args.styles} styles ({', '.join(HELD_OUT)} held out of training), "
        f"seed {args.seed}: {time.perf_counter() - t0:.0f} s; "
        f"net (cut + 26 strips) median {np.median(net_ms):.1f} ms"
    )
    for line in total.lines("all"):
        print(line)
    for name in sorted(per_style):
        tally = per_style[name]
        print(
            f"  {name:<12} {tally.boards:3d} boards: points net "
            f"{100 * tally.net_points / (24 * tally.boards):.1f}% rings "
            f"{100 * tally.ring_points / (24 * tally.boards):.1f}%; boards net "
            f"{tally.net_boards} rings {tally.ring_boards}"
        )
    if args.verbose:
        for line in total.misread:
            print("   ", line)

    real = Path(args.real)
    if not (real / "labels.jsonl").is_file():
        print(f"no real photos at {real}")
        return
    photos = Tally()
    montage = []
    for entry in board_labels(real):
        image = np.asarray(cv2.imread(str(real / entry["image"]), cv2.IMREAD_COLOR), np.uint8)
        cal = label_calibration(entry, (image.shape[1], image.shape[0]))
        reader = BoardReader(BoardGeometry(cal), RINGS)
        ring, ring_owner = ring_counts(reader.read(image))  # once, as benchmarks/real.py
        net, prob = net_counts(model, reader, reader.rectify(image))
        truth, owner = labels(entry["position"]["white"], entry["position"]["black"])
        photos.add(entry["image"], truth, owner, net, prob, ring, ring_owner, args.sure)
        if args.montage:
            montage.append(np.concatenate(list(cut_strips(reader, image)), axis=1))
    for line in photos.lines(f"real photos ({real.name})"):
        print(line)
    for line in photos.misread:
        print("   ", line)
    if args.montage:
        cv2.imwrite(args.montage, np.concatenate(montage, axis=0))


if __name__ == "__main__":
    main()
