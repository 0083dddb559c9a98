"""Dice reading measured over a labelled set: accuracy, confusion matrix, reroll calls.

A labelled set is a folder with `labels.jsonl`, one object per image:
- `path`: the image, relative to the folder;
- either `boxes`: `[x, y, w, h, value]` around each die's top face (the format of
  `shared/data/dice_real_dev`), or `dice`: `[{"center_px": [x, y], "value": v}]`;
- optionally `calibration` (a file relative to the folder), `roller`, and `reasons`
  (the verdict the rules give: [] for a roll that stands).

A labelled die counts as right only if a die is found on it and read as its value;
missed and unreadable dice count as wrong.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.geometry import BoardGeometry
from calibration.schema import load as load_calibration
from vision.changes import DiceWatch
from vision.config import Config, config_text
from vision.dice import REASONS, read_dice
from vision.errors import VisionError

NONE = 0  # confusion-matrix column for "no value": missed or unreadable
HIGH_CONFIDENCE = 0.9


@dataclass
class Metrics:
    images: int = 0
    dice: int = 0
    right: int = 0
    missed: int = 0
    unreadable: int = 0
    wrong: int = 0
    wrong_high_confidence: int = 0
    extra: int = 0
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((7, 7), np.int64))
    calls: dict[str, list[int]] = field(default_factory=lambda: {r: [0, 0, 0] for r in REASONS})
    verdicts: int = 0
    invalid_accepted: int = 0
    valid_rerolled: int = 0
    valid_rolls: int = 0
    times_ms: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        calls = {}
        for reason, (tp, fp, fn) in self.calls.items():
            calls[reason] = {
                "precision": round(tp / (tp + fp), 4) if tp + fp else None,
                "recall": round(tp / (tp + fn), 4) if tp + fn else None,
                "true_calls": tp,
                "false_calls": fp,
                "missed_calls": fn,
            }
        return {
            "images": self.images,
            "dice": self.dice,
            "accuracy": round(self.right / self.dice, 5) if self.dice else None,
            "right": self.right,
            "wrong": self.wrong,
            "wrong_high_confidence": self.wrong_high_confidence,
            "unreadable": self.unreadable,
            "missed": self.missed,
            "extra_dice": self.extra,
            "verdicts": self.verdicts,
            "invalid_rolls_accepted": self.invalid_accepted,
            "false_reroll_rate": round(self.valid_rerolled / self.valid_rolls, 4)
            if self.valid_rolls
            else None,
            "reroll_calls": calls,
            "median_ms": round(float(np.median(self.times_ms)), 2) if self.times_ms else None,
        }


def _truth(entry: dict[str, Any]) -> list[tuple[float, float, float, int]]:
    """(x, y, match radius, value) for each labelled die."""
    out = []
    for x, y, w, h, v in entry.get("boxes", []):
        out.append((x + w / 2, y + h / 2, 0.7 * max(w, h), int(v)))
    for d in entry.get("dice", []) if "boxes" not in entry else []:
        out.append((d["center_px"][0], d["center_px"][1], d.get("radius_px", 15.0), d["value"]))
    return out


def _read_image(path: Path) -> Any:
    """The colour image at `path`, or None where there is none to read (a missing file is
    checked first: OpenCV warns on stderr of it)."""
    return cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None


def evaluate(cfg: Config, folder: str | Path, backgrounds: bool = False) -> Metrics:
    """The metrics of reading every labelled image. With `backgrounds`, an image whose
    label names a `background` (the same board before the dice were thrown) and a
    calibration is read as in a video (`DiceWatch`), with that frame seen first."""
    folder = Path(folder)
    labels = folder / "labels.jsonl"
    if not labels.is_file():
        raise VisionError(f"{folder}: no labels.jsonl")
    m = Metrics()
    geos: dict[str, BoardGeometry] = {}
    for n, line in enumerate(labels.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as e:
            raise VisionError(f"{labels}:{n}: malformed JSON ({e.msg})") from None
        try:
            truth = _truth(entry)
            path = str(entry["path"])
        except (KeyError, TypeError, ValueError, IndexError):
            raise VisionError(f"{labels}:{n}: expected 'path' and 'boxes' or 'dice'") from None
        image = _read_image(folder / path)
        if image is None:
            raise VisionError(f"{labels}:{n}: cannot read image {path}")
        geo = None
        if entry.get("calibration"):
            key = entry["calibration"]
            if key not in geos:
                geos[key] = BoardGeometry(load_calibration(folder / key))
            geo = geos[key]
        watch = None
        if backgrounds and geo is not None and entry.get("background"):
            before = _read_image(folder / str(entry["background"]))
            if before is None or before.shape != image.shape:
                raise VisionError(f"{labels}:{n}: cannot read background {entry['background']}")
            watch = DiceWatch(cfg, geo)
            watch.background.remember(np.asarray(before, dtype=np.uint8))
        start = time.perf_counter()
        if watch is not None:
            result = watch.read_roll(np.asarray(image, dtype=np.uint8), entry.get("roller"))
        else:
            result = read_dice(cfg, np.asarray(image, dtype=np.uint8), geo, entry.get("roller"))
        m.times_ms.append((time.perf_counter() - start) * 1000)
        m.images += 1
        used: set[int] = set()
        for x, y, radius, value in truth:
            m.dice += 1
            best = None
            for k, die in enumerate(result.dice):
                dist = float(np.hypot(die.center_px[0] - x, die.center_px[1] - y))
                if k not in used and dist < radius and (best is None or dist < best[1]):
                    best = (k, dist)
            if best is None:
                m.missed += 1
                m.confusion[value, NONE] += 1
                continue
            used.add(best[0])
            die = result.dice[best[0]]
            read = die.value or NONE
            m.confusion[value, read] += 1
            if read == value:
                m.right += 1
            elif read == NONE:
                m.unreadable += 1
            else:
                m.wrong += 1
                m.wrong_high_confidence += die.confidence >= HIGH_CONFIDENCE
        m.extra += len(result.dice) - len(used)
        if "reasons" in entry:
            m.verdicts += 1
            want, got = set(entry["reasons"]), set(result.reasons)
            for reason in REASONS:
                if reason in got and reason in want:
                    m.calls[reason][0] += 1
                elif reason in got:
                    m.calls[reason][1] += 1
                elif reason in want:
                    m.calls[reason][2] += 1
            if want and result.valid:
                m.invalid_accepted += 1
            if not want:
                m.valid_rolls += 1
                m.valid_rerolled += not result.valid
    return m


def write_report(cfg: Config, metrics: Metrics, out: str | Path) -> None:
    """metrics.json, confusion.csv, confusion.png and the config.toml that produced them."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "metrics.json").write_text(json.dumps(metrics.to_json(), indent=2) + "\n")
    (out / "config.toml").write_text(config_text(cfg))
    names = ["none", "1", "2", "3", "4", "5", "6"]
    with (out / "confusion.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["true \\ read", *names])
        for v in range(1, 7):
            w.writerow([names[v], *(int(c) for c in metrics.confusion[v])])
    cell = 60
    img = np.full((cell * 7 + 10, cell * 8, 3), 255, np.uint8)
    peak = max(1, int(metrics.confusion.max()))
    for j, name in enumerate(names):
        cv2.putText(img, name, (cell * (j + 1) + 15, 35), 0, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
    for v in range(1, 7):
        y = cell * v
        cv2.putText(img, names[v], (20, y + 35), 0, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
        for j in range(7):
            count = int(metrics.confusion[v, j])
            shade = 255 - int(200 * count / peak)
            colour = (shade, shade, 255) if j != v else (shade, 255, shade)
            x = cell * (j + 1)
            cv2.rectangle(img, (x, y), (x + cell - 2, y + cell - 2), colour, -1)
            cv2.putText(img, str(count), (x + 8, y + 35), 0, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.imwrite(str(out / "confusion.png"), img)
