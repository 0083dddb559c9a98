"""Dice reading measured over a labelled set: accuracy, confusion matrix, reroll calls.

A labelled set is a folder with `labels.jsonl`, one object per image:
- `path`: the image, relative to the folder;
- either `boxes`: `[x, y, w, h, value]` around each die's top face (the format of
  `shared/data/dice_real_dev`), or `dice`: `[{"center_px": [x, y], "value": v}]`;
- optionally `calibration` (a file relative to the folder), `roller`, and `reasons`
  (the verdict the rules give: [] for a roll that stands).

The reroll calls are measured only when the caller gives the verdict to measure (the
rules', `companion.rules.roll.roll_verdict`: vision never imports companion).

A labelled die counts as right only if a die is found on it and read as its value;
missed and unreadable dice count as wrong.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from calibration.imageio import ImageFileError, load_image
from calibration.jsonin import BadJSON, loads
from calibration.schema import load as load_calibration
from vision.dice import read_dice
from vision.dice_settings import DiceSettings, dice_settings_text
from vision.die import DieReading
from vision.errors import VisionError

NONE = 0  # confusion-matrix column for "no value": missed or unreadable
HIGH_CONFIDENCE = 0.9

# A roll's verdict: the dice read, the roller and whether the board was calibrated ->
# the roll, whether it stands and the reasons it does not.
Verdict = Callable[
    [Sequence[DieReading], str | None, bool], tuple[tuple[int, int] | None, bool, list[str]]
]
# How an image's dice are read: the settings, the image and its board's geometry (None
# for a plain photo) -> the dice.
Reader = Callable[[DiceSettings, NDArray[np.uint8], BoardGeometry | None], list[DieReading]]


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
    calls: dict[str, list[int]] = field(default_factory=dict)  # reason: [true, false, missed]
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
    """(x, y, match radius, value) for each labelled die; value 0 for a die whose face
    shows an emblem instead of pips (`nonstandard_box_idx`): not scored, and a die read
    there is not an extra one.

    A die read within 0.7 of its box's longer side of the box's centre is that die. Where
    boxes enclose the pips only (`dice_real_dev`), a 1's box is its one pip, a fifth of
    its face: its radius is that of the photo's other dice (their median box), or, with
    none, twice its pip's."""
    out = []
    odd = set(entry.get("nonstandard_box_idx", []))
    boxes = entry.get("boxes", [])
    others = [max(b[2], b[3]) for b in boxes if int(b[4]) != 1]
    usual = float(np.median(others)) if others else 0.0
    for k, (x, y, w, h, v) in enumerate(boxes):
        side = max(w, h)
        if int(v) == 1:
            side = max(side, usual if others else 2 * side)
        out.append((x + w / 2, y + h / 2, 0.7 * side, 0 if k in odd else int(v)))
    for d in entry.get("dice", []) if "boxes" not in entry else []:
        out.append((d["center_px"][0], d["center_px"][1], d.get("radius_px", 15.0), d["value"]))
    return out


def _read_image(path: Path, where: str) -> NDArray[np.uint8]:
    """The colour image at `path`, checked before decoding (calibration.imageio: size,
    truncation, no decoder noise on stderr); VisionError naming `where` otherwise."""
    try:
        return load_image(path)
    except ImageFileError as e:
        raise VisionError(f"{where}: {e}") from None


def dice_alone(
    cfg: DiceSettings, image: NDArray[np.uint8], geo: BoardGeometry | None
) -> list[DieReading]:
    """The dice of one image read by the dice reader alone (`vision.dice.read_dice`)."""
    return read_dice(cfg, image, geo).dice


def evaluate(
    cfg: DiceSettings,
    folder: str | Path,
    verdict: Verdict | None = None,
    reasons: Sequence[str] = (),
    reader: Reader = dice_alone,
) -> Metrics:
    """The metrics of reading every labelled image (a label's `background`, the board
    before the dice were thrown, is not needed to read them and is ignored). With a
    `verdict`, also its calls on each label with `reasons`: each reason of the vocabulary
    `reasons` (or, without one, each reason called or labelled) counted. `reader`: how an
    image's dice are read (the dice reader alone; `vision.frame` reads a frame's checkers
    too)."""
    folder = Path(folder)
    labels = folder / "labels.jsonl"
    if not labels.is_file():
        raise VisionError(f"{folder}: no labels.jsonl")
    m = Metrics(calls={r: [0, 0, 0] for r in reasons})
    geos: dict[str, BoardGeometry] = {}
    for n, line in enumerate(labels.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = loads(line)
        except BadJSON as e:
            raise VisionError(f"{labels}:{n}: {e}") from None
        try:
            truth = _truth(entry)
            path = str(entry["path"])
        except (KeyError, TypeError, ValueError, IndexError):
            raise VisionError(f"{labels}:{n}: expected 'path' and 'boxes' or 'dice'") from None
        image = _read_image(folder / path, f"{labels}:{n}")
        geo = None
        if entry.get("calibration"):
            key = entry["calibration"]
            if key not in geos:
                geos[key] = BoardGeometry(load_calibration(folder / key))
            geo = geos[key]
        start = time.perf_counter()
        dice = reader(cfg, np.asarray(image, dtype=np.uint8), geo)
        m.times_ms.append((time.perf_counter() - start) * 1000)
        m.images += 1
        used: set[int] = set()
        for x, y, radius, value in sorted(truth, key=lambda t: t[3] == 0):
            best = None
            for k, die in enumerate(dice):
                dist = float(np.hypot(die.center_px[0] - x, die.center_px[1] - y))
                if k not in used and dist < radius and (best is None or dist < best[1]):
                    best = (k, dist)
            if value == 0:
                if best is not None:
                    used.add(best[0])
                continue
            m.dice += 1
            if best is None:
                m.missed += 1
                m.confusion[value, NONE] += 1
                continue
            used.add(best[0])
            die = dice[best[0]]
            read = die.value or NONE
            m.confusion[value, read] += 1
            if read == value:
                m.right += 1
            elif read == NONE:
                m.unreadable += 1
            else:
                m.wrong += 1
                m.wrong_high_confidence += die.confidence >= HIGH_CONFIDENCE
        m.extra += len(dice) - len(used)
        if verdict is not None and "reasons" in entry:
            _, valid, called = verdict(dice, entry.get("roller"), geo is not None)
            m.verdicts += 1
            want, got = set(entry["reasons"]), set(called)
            for reason in reasons or sorted(want | got):
                m.calls.setdefault(reason, [0, 0, 0])
                if reason in got and reason in want:
                    m.calls[reason][0] += 1
                elif reason in got:
                    m.calls[reason][1] += 1
                elif reason in want:
                    m.calls[reason][2] += 1
            if want and valid:
                m.invalid_accepted += 1
            if not want:
                m.valid_rolls += 1
                m.valid_rerolled += not valid
    return m


def write_report(cfg: DiceSettings, metrics: Metrics, out: str | Path) -> None:
    """metrics.json, confusion.csv, confusion.png and the config.toml that produced them."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "metrics.json").write_text(json.dumps(metrics.to_json(), indent=2) + "\n")
    (out / "config.toml").write_text(dice_settings_text(cfg))
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


# --- checkers -------------------------------------------------------------------------
# A labelled board set is a folder with `labels.jsonl`, one object per photo, in the
# format of `shared/data/board_real_dev`: `image` (relative to the folder), `board` (the
# calibration's board block, CONTRACTS.md §2: raw pixel corners, no lens) and `position`
# (CONTRACTS.md §3). Optional `image_size` (taken from the image when absent).

BAR = 25
PLACES = [str(n) for n in range(1, 25)] + ["bar"]


@dataclass
class PhotoResult:
    """One labelled photo read: which places were wrong, as (place, read, truth)."""

    image: str
    exact: bool
    places_right: int
    places: int
    wrong: list[tuple[str, str, str]]
    confidence: float
    elapsed_ms: float
    unsure_wrong: int = 0  # wrong places the reading flagged (place confidence < 0.5)

    def to_json(self) -> dict[str, Any]:
        return {
            "image": self.image,
            "exact": self.exact,
            "places_right": self.places_right,
            "places": self.places,
            "wrong": [{"place": p, "read": r, "truth": t} for p, r, t in self.wrong],
            "wrong_flagged": self.unsure_wrong,
            "confidence": round(self.confidence, 3),
            "elapsed_ms": round(self.elapsed_ms, 1),
        }


@dataclass
class BoardMetrics:
    photos: list[PhotoResult] = field(default_factory=list)

    @property
    def exact(self) -> int:
        return sum(p.exact for p in self.photos)

    @property
    def places_right(self) -> int:
        return sum(p.places_right for p in self.photos)

    @property
    def places(self) -> int:
        return sum(p.places for p in self.photos)

    def to_json(self) -> dict[str, Any]:
        wrong = sum(len(p.wrong) for p in self.photos)
        flagged = sum(p.unsure_wrong for p in self.photos)
        return {
            "boards": len(self.photos),
            "boards_exact": self.exact,
            "places": self.places,
            "places_right": self.places_right,
            "place_accuracy": round(self.places_right / self.places, 4) if self.places else None,
            "places_wrong": wrong,
            "places_wrong_flagged": flagged,
            "boards_flagged_when_wrong": sum(
                not p.exact and p.confidence < 0.5 for p in self.photos
            ),
            "median_ms": round(float(np.median([p.elapsed_ms for p in self.photos])), 1)
            if self.photos
            else None,
            "photos": [p.to_json() for p in self.photos],
        }


def _place_text(white: int, black: int) -> str:
    """A place's contents as `W3`, `B2`, `W1 B1` or `-`."""
    parts = [f"W{white}"] * bool(white) + [f"B{black}"] * bool(black)
    return " ".join(parts) or "-"


def _place_counts(position: dict[str, list[int]], place: str) -> tuple[int, int]:
    """(white, black) checkers at a place named in white's numbering ("1".."24", "bar")."""
    white, black = position["white"], position["black"]
    if place == "bar":
        return int(white[BAR]), int(black[BAR])
    n = int(place)
    return int(white[n]), int(black[25 - n])


def board_labels(folder: str | Path) -> list[dict[str, Any]]:
    """The labelled photos of a board set, each checked for the keys the evaluation needs."""
    labels = Path(folder) / "labels.jsonl"
    if not labels.is_file():
        raise VisionError(f"{folder}: no labels.jsonl")
    out = []
    for n, line in enumerate(labels.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = loads(line)
        except BadJSON as e:
            raise VisionError(f"{labels}:{n}: {e}") from None
        pos = entry.get("position") if isinstance(entry, dict) else None
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("image"), str)
            or not isinstance(entry.get("board"), dict)
            or not isinstance(pos, dict)
            or any(len(pos.get(c) or []) != 26 for c in ("white", "black"))
        ):
            raise VisionError(
                f"{labels}:{n}: expected 'image', 'board' and 'position' (two arrays of 26)"
            )
        entry["line"] = n
        out.append(entry)
    return out


def label_calibration(entry: dict[str, Any], image_size: tuple[int, int]) -> Any:
    """The calibration a label's `board` block describes, for an image of `image_size`."""
    from calibration.schema import from_json

    doc = {
        "format": "bgcompanion-calibration",
        "version": 1,
        "image_size": list(entry.get("image_size") or image_size),
        "board": entry["board"],
    }
    return from_json(doc)


def evaluate_board(
    folder: str | Path, overlays: str | Path | None = None, flag: float = 0.5
) -> BoardMetrics:
    """Read every labelled photo of a board set and compare each place with the label.

    A place is one of the 24 points or the bar; it is right when both colours' counts
    there are. A board is exact when every place is (the off counts follow). With
    `overlays`, each photo read wrong is written there as a PNG with its mistakes marked.
    """
    from vision.frame import FrameReader

    folder = Path(folder)
    m = BoardMetrics()
    for entry in board_labels(folder):
        image = _read_image(folder / entry["image"], str(folder))
        cal = label_calibration(entry, (image.shape[1], image.shape[0]))
        geo = BoardGeometry(cal)
        reading = FrameReader(geo).read_board(image)  # as a camera's frame: dice painted out
        read = {"white": reading.white, "black": reading.black}
        conf = {p.place: p.confidence for p in reading.places}
        wrong, flagged = [], 0
        for place in PLACES:
            got, want = _place_counts(read, place), _place_counts(entry["position"], place)
            if got != want:
                wrong.append((place, _place_text(*got), _place_text(*want)))
                sure = (
                    min(conf.get("bar-white", 1.0), conf.get("bar-black", 1.0))
                    if place == "bar"
                    else conf.get(place, 1.0)
                )
                flagged += sure < flag
        result = PhotoResult(
            entry["image"],
            not wrong,
            len(PLACES) - len(wrong),
            len(PLACES),
            wrong,
            reading.confidence,
            reading.elapsed_ms,
            flagged,
        )
        m.photos.append(result)
        if overlays is not None and wrong:
            _write_board_overlay(image, geo, reading, result, Path(overlays))
    return m


def _write_board_overlay(
    image: Any, geo: BoardGeometry, reading: Any, result: PhotoResult, out: Path
) -> None:
    """The photo with the surface outlined, every circle found ringed (green: a place read
    right; red: wrong) and each wrong place labelled `read / truth`."""
    out.mkdir(parents=True, exist_ok=True)
    canvas = image.copy()
    w, h = geo.cal.width_mm, geo.cal.height_mm
    outline = geo.mm_to_px([(0, 0), (w, 0), (w, h), (0, h)])
    cv2.polylines(canvas, [np.round(outline).astype(np.int32)], True, (255, 200, 0), 2)
    wrong = {p for p, _, _ in result.wrong}
    d_px = geo.point_width_mm * 0.47 * geo.px_per_mm_max
    for place in reading.places:
        name = "bar" if place.place.startswith("bar") else place.place
        colour = (40, 40, 230) if name in wrong else (60, 200, 60)
        for x, y, _ in place.circles:
            (c,) = geo.mm_to_px([(x, y)])
            cv2.circle(canvas, (round(c[0]), round(c[1])), round(d_px), colour, 2, cv2.LINE_AA)
    for place, got, want in result.wrong:
        if place == "bar":
            x, y = geo.width_mm / 2, geo.height_mm / 2
        else:
            rect = geo.point_rect(int(place))
            x, y = (rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2
        (c,) = geo.mm_to_px([(x, y)])
        text = f"{place}: {got} / {want}"
        org = (round(c[0]) - 60, round(c[1]))
        cv2.putText(canvas, text, org, 0, 0.55, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(canvas, text, org, 0, 0.55, (40, 40, 230), 1, cv2.LINE_AA)
    name = Path(result.image).stem + ".png"
    cv2.imwrite(str(out / name), canvas)
