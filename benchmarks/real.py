"""Real photos of boards: checkers, dice and automatic corners, measured in one run.

    .venv/bin/python benchmarks/real.py [--data DIR] [--json] [--overlays OUTDIR]
        [--mosaic N] [--variants] [--no-floors] [--models DIR]

The data is a labelled folder in the format of shared/data/board_real_dev (its
README.md): `--data`, else $BGCOMPANION_SHARED/data/board_real_dev, else
../shared/data/board_real_dev beside the repository. Photos are read where they lie;
nothing is copied.

Measured:
- checkers (`vision.evaluate.evaluate_board`, the label's board block as calibration):
  boards exact, places (24 points and the bar) right, wrong places flagged;
- dice (`vision.dice.read_dice` with that calibration, no roller): labelled dice found
  and read right, phantom dice (found where no die and no cube lies), the doubling cube
  read as a die; and the same read as `referee` and `run` read a camera's frame
  (`vision.frame.FrameReader`: the checkers read too, a die over one on a checker, the
  checkers' own marks no dice);
- corners (`calibration.detect.find_board`, as `calibrate` finds them): photos whose
  four corners all lie within 1% of the board's width of the labelled ones (the
  corners compared as a set: the order is `calibration.orient`'s job); and on the photos
  of the starting position, what `calibrate` writes there at its default sizes (the
  places found, checked by the start: `companion.cli.calibrate.choose_corners`), its
  corners within 1% and white's home as labelled;
- dice on plain photos (`vision.evaluate.evaluate`, no calibration: the dice are looked
  for on the whole photo) of each labelled dice folder, by default the two shared ones
  beside the board photos (shared/data/dice_real_dev, dice_real_topdown_dev): dice
  right, wrong (and wrong with high confidence), unreadable, missed, phantom dice, the
  median time per photo; `--no-plain` leaves them out. The first folder's photos are also
  measured tiled three by three (`--mosaic N`: N by N; 1 leaves it out): photos of
  many dice (27 on the webcam photos), where a reader capped on its search marks read some.
  Dice whose face shows an emblem (`nonstandard_box_idx`) are not scored.
- `--variants`: the board photos again as other cameras would show the same tables
  (`VARIANTS`: turned half round, 0.6 and 1.5 times the pixels, JPEG at quality 30,
  blurred, noisy, under- and over-exposed, warmer light; each label's pixel positions
  moved with its photo): per variant boards exact, dice right, phantom dice, the cube
  read as a die, corners within 1% and corners found more than 1% off without a refusal,
  then their sums. What a reader does on one camera's pixels and not on another's is
  luck, not reading (about 6 min more).

Then the floors (`FLOORS`, benchmarks/benchkit.py) of each shared folder measured: it exits
1 if a figure fell below where it stood (the accuracy pins that were unit tests).

`--models DIR` (here and in benchmarks/dice.py, board.py and referee.py) measures candidate
networks, e.g. a training run's `--out` folder: a network found there runs instead of the
shipped one of the same name, the others stay the shipped ones (vision.networks.use_models).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

# A benchmark named after a package would shadow it: this folder goes last on the path
# (its own helpers, benchmarks/benchkit.py, stay importable).
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import cv2
import numpy as np
from benchkit import Floor, add_models, check, shared_data, use_models

from calibration.detect import AmbiguousBoard, BoardNotFound, find_board
from calibration.geometry import BoardGeometry
from calibration.schema import CalibrationError
from companion.cli.calibrate import choose_corners, default_arguments
from vision.board_learn import START
from vision.dice_settings import DiceSettings
from vision.evaluate import board_labels, dice_alone, evaluate, evaluate_board, label_calibration
from vision.frame import FrameDice

MOSAIC = "plain_mosaic"  # the folder of the first plain folder's photos tiled (--mosaic)
# Floors (benchmarks/benchkit.py), each named "folder/figure" and checked when that labelled
# folder is measured: where the figures stood when set (the shipped networks of 2026-11),
# not the targets.
FLOORS = [
    # Raised from 3 and 143 with the strip network's second opinion (vision.board_net).
    Floor("boards exact", "board_real_dev/boards_exact", at_least=5),
    # 147 since the network's 2026-11-28 fine-tune (scripts/train_checkernet.py): a third
    # point under dices6's arm misread, flagged, on a board already wrong; the wide styles'
    # boards exact 1,791 of 1,800 (1,788), the styles left out 542 of 544 (539).
    Floor("places right", "board_real_dev/places_right", at_least=147),
    Floor("dice right", "board_real_dev/dice_right", at_least=12),
    # Lowered from 1 and 1 with a mark whose face is not read taken for no die
    # (`value_min`, 2026-11-28): dices6's red checker under the sleeve and its cube.
    Floor("phantom dice", "board_real_dev/dice_phantom", at_most=0),
    Floor("cube read as a die", "board_real_dev/cube_as_die", at_most=0),
    Floor("flat dice read cocked or on a checker", "board_real_dev/dice_state_wrong", at_most=0),
    Floor("automatic corners within 1%", "board_real_dev/corners_within", at_least=4),
    # test2, the one photo of the starting position (set 2026-12-01: refused before, the
    # start reading on all three places its points fit).
    Floor("calibrate on the start within 1%", "board_real_dev/start_calibrated", at_least=1),
    # The same photos read as a camera's frames (set 2026-11-29).
    Floor("frames: dice right", "board_real_dev/frame_dice_right", at_least=12),
    Floor("frames: phantom dice", "board_real_dev/frame_dice_phantom", at_most=0),
    Floor("frames: cube read as a die", "board_real_dev/frame_cube_as_die", at_most=0),
    Floor("frames: flat dice read otherwise", "board_real_dev/frame_dice_state_wrong", at_most=0),
    # Raised from 0.83 and 45 with the dice read turned (read_turns) and a 1 matched as
    # far from its pip as the photo's other dice from their boxes' centres (2026-11-25).
    # Raised from 0.875 with the plain photo's dice sized by the surest die with a face
    # read (2026-11-28). Raised from 0.88 with the face rule judging each scale's reading
    # of a die before one a place is kept (2026-11-29: 91.2% right, 67 missed against 116,
    # 39 wrong against 28). Raised from 0.91 with the scales 1.25 apart, not 1.5
    # (`plain_step`, 2026-11-29: 93.2% right, 46 missed against 67).
    Floor("plain webcam dice right", "dice_real_dev/accuracy", at_least=0.93),
    # Raised from 15 with every place's marks read at each scale it was marked at
    # (`plain_places_max`, 2026-11-28): a die's side face read as a smaller die beside its
    # top face, and a key of the laptop; the same dice right. On the webcam photos tiled
    # (`--mosaic`, 27 dice a photo, not trained on): 74.9% -> 90.1% right, 5 -> 24 phantom
    # dice.
    # Lowered from 17 (and the others' from 5 and 24) with a mark whose face is not read
    # taken for no die (`value_min`, 2026-11-28): 3, 3 and 13, every figure of dice right
    # the same; 5 with the sizes judged by the surest die with a face read (88.0% right).
    # Raised to 8 with each reading's face judged before the places (2026-11-29): a mark
    # whose surest reading showed no face but a weaker one at another scale did (three, at
    # the photos' edges); 91.2% right.
    # Raised to 9 (and the tiled photos' to 14, the phone photos' to 4) with the scales 1.25
    # apart (2026-11-29): 24, 26 and 3 dice more read right, a phantom die more each, at
    # the photos' top edge.
    Floor("plain webcam phantom dice", "dice_real_dev/extra_dice", at_most=9),
    # The networks are fine-tuned on the top-down set: these two pin it, they claim nothing.
    # Lowered from 0.86 and 0 with the reader taught wrong sizes (2026-11-25: 85.7%, one
    # phantom die), which lifted the webcam set it was not trained on from 80.8% to 83.4%.
    # Raised from 0.85 and 1 with places, not marks, capped (2026-11-28: 86.3% -> 95.6%
    # right; 5 phantom dice, an owl on a cloth at the photos' edge among them).
    # Raised from 0.955 with each reading's face judged before the places (2026-11-29),
    # from 0.96 with the scales 1.25 apart (97.1%).
    Floor("plain top-down dice right", "dice_real_topdown_dev/accuracy", at_least=0.97),
    Floor("plain top-down phantom dice", "dice_real_topdown_dev/extra_dice", at_most=4),
    # The webcam photos tiled three by three (--mosaic): set 2026-11-28; raised from 0.9
    # with each reading's face judged before the places (2026-11-29: 91.6%), from 0.915
    # with the scales 1.25 apart (93.8%).
    Floor("plain mosaic dice right", f"{MOSAIC}/accuracy", at_least=0.935),
    Floor("plain mosaic phantom dice", f"{MOSAIC}/extra_dice", at_most=14),
]
# The board photos' variants (`--variants`), floored on their sums over the nine variants
# of the shared photos (set 2026-12-06 where they stood; the unchanged photos' own floors
# are above): 40 boards exact of 54, 103 dice right of 126, 6 phantom dice, the cube read
# as a die 4 times; corners within 1% on 32 of 54 and found more than 1% off (not refused)
# on 3 (24 and 7 before the layout was searched within the region's box too, 31 and 4
# before the bar's phantom points).
VARIANT_FLOORS = [
    Floor("variants: boards exact", "variants/boards_exact", at_least=40),
    Floor("variants: dice right", "variants/dice_right", at_least=103),
    Floor("variants: phantom dice", "variants/dice_phantom", at_most=6),
    Floor("variants: cube read as a die", "variants/cube_as_die", at_most=4),
    Floor("variants: corners within 1%", "variants/corners_within", at_least=36),
    Floor("variants: corners off, not refused", "variants/corners_off", at_most=0),
]
DIE_MATCH_MM = 12.0  # a die read within this of a labelled centre is that die
CORNER_TOLERANCE = 0.01  # of the board's width


def _state(die: Any) -> str:
    """A die's state as the labels name it."""
    return "cocked" if not die.flat else "on_checker" if die.on_checker else "flat"


def dice_figures(
    folder: Path, entries: list[dict[str, Any]], frames: bool = False
) -> dict[str, Any]:
    """Dice read against the labels' `dice` and `cube`, per photo and in all; `frames`:
    each photo read as a camera's frame is (`FrameReader.read_still`), not by the dice
    reader alone."""
    cfg = DiceSettings()
    reader = FrameDice() if frames else dice_alone
    out: dict[str, Any] = {
        "dice": 0,
        "right": 0,
        "state_wrong": 0,
        "phantom": 0,
        "cube_as_die": 0,
        "photos": [],
    }
    for entry in entries:
        image = np.asarray(cv2.imread(str(folder / entry["image"]), cv2.IMREAD_COLOR), np.uint8)
        geo = BoardGeometry(label_calibration(entry, (image.shape[1], image.shape[0])))
        radius = DIE_MATCH_MM * geo.px_per_mm_max
        read = reader(cfg, image, geo)
        used: set[int] = set()
        lines = []
        for die in entry.get("dice") or []:
            x, y = die["center_px"]
            near = [
                (float(np.hypot(d.center_px[0] - x, d.center_px[1] - y)), k)
                for k, d in enumerate(read)
                if k not in used
            ]
            near = [c for c in near if c[0] < radius]
            out["dice"] += 1
            if not near:
                lines.append(f"{die['value']} missed")
                continue
            k = min(near)[1]
            used.add(k)
            value = read[k].value
            out["right"] += value == die["value"]
            state = _state(read[k])
            wrong_state = "state" in die and state != die["state"]
            out["state_wrong"] += wrong_state
            lines.append(f"{die['value']} read {value}" + (f" {state}" if wrong_state else ""))
        cube = entry.get("cube")
        for k, d in enumerate(read):
            if k in used:
                continue
            if cube and np.hypot(*np.subtract(d.center_px, cube["center_px"])) < radius:
                out["cube_as_die"] += 1
                lines.append(f"cube read as a {d.value}")
            else:
                out["phantom"] += 1
                lines.append(f"phantom {d.value} at ({d.center_px[0]:.0f}, {d.center_px[1]:.0f})")
        out["photos"].append({"image": entry["image"], "dice": lines})
    return out


def plain_figures(folders: list[Path]) -> list[dict[str, Any]]:
    """Dice on each folder's plain photos, read without a calibration."""
    cfg = DiceSettings()
    out = []
    for folder in folders:
        m = evaluate(cfg, folder).to_json()
        out.append({"folder": str(folder), **{k: m[k] for k in PLAIN_KEYS}})
    return out


def write_mosaics(folder: Path, out: Path, side: int) -> Path:
    """The labelled plain photos of `folder` tiled `side` by `side` into photos of many dice
    (each photo resized to the first one's size, its boxes with it), written to `out`
    with their labels: how a reader holds on a photo of many dice, measured on photos it
    was not trained on. Photos left over from the last whole tile are left out."""
    entries = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    per = side * side
    size: tuple[int, int] | None = None
    for n in range(len(entries) // per):
        tiles: list[np.ndarray] = []
        boxes: list[list[float]] = []
        odd: list[int] = []
        for k, entry in enumerate(entries[n * per : (n + 1) * per]):
            photo = cv2.imread(str(folder / entry["path"]), cv2.IMREAD_COLOR)
            if photo is None:
                sys.exit(f"{folder / entry['path']}: not an image")
            h, w = photo.shape[:2]
            size = size or (w, h)
            sx, sy = size[0] / w, size[1] / h
            tiles.append(cv2.resize(photo, size, interpolation=cv2.INTER_AREA))
            ox, oy = (k % side) * size[0], (k // side) * size[1]
            nonstandard = set(entry.get("nonstandard_box_idx", []))
            for j, (x, y, bw, bh, value) in enumerate(entry["boxes"]):
                if j in nonstandard:
                    odd.append(len(boxes))
                boxes.append([x * sx + ox, y * sy + oy, bw * sx, bh * sy, value])
        rows = [np.hstack(tiles[r * side : (r + 1) * side]) for r in range(side)]
        path = f"mosaic{n}.png"
        cv2.imwrite(str(out / path), np.vstack(rows))
        lines.append(json.dumps({"path": path, "boxes": boxes, "nonstandard_box_idx": odd}))
    (out / "labels.jsonl").write_text("".join(line + "\n" for line in lines))
    return out


Variant = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
_SAME = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def _scaled(k: float) -> Variant:
    def change(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = image.shape[:2]
        size = (round(w * k), round(h * k))
        out = cv2.resize(image, size, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC)
        sx, sy = size[0] / w, size[1] / h  # pixel centres: x' + 0.5 = sx (x + 0.5)
        return out, np.array([[sx, 0.0, (sx - 1) / 2], [0.0, sy, (sy - 1) / 2]])

    return change


def _turned(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h, w = image.shape[:2]
    return np.ascontiguousarray(image[::-1, ::-1]), np.array([[-1.0, 0, w - 1], [0, -1.0, h - 1]])


def _jpeg(quality: int) -> Variant:
    def change(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8), _SAME

    return change


def _exposed(gain: float, gamma: float) -> Variant:
    def change(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out = (image.astype(np.float64) / 255) ** gamma * gain * 255
        return np.clip(out, 0, 255).astype(np.uint8), _SAME

    return change


def _blurred(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 1.5), np.uint8), _SAME


def _noisy(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    noise = np.random.default_rng(1).normal(0.0, 8.0, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8), _SAME


def _warm(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    out = image.astype(np.float64) * np.array([0.75, 1.0, 1.1])  # BGR: less blue, more red
    return np.clip(out, 0, 255).astype(np.uint8), _SAME


# Changes that keep a photo's labels true (the same table, another camera): each gives the
# changed photo and the 2 x 3 affine map of its pixel positions.
VARIANTS: dict[str, Variant] = {
    "turned": _turned,  # the camera turned half round: the same pixels, another order
    "small": _scaled(0.6),  # a 768 x 432 stream
    "large": _scaled(1.5),  # 1920 x 1080 from a 1280 x 720 photo
    "jpeg30": _jpeg(30),  # a stream's compression
    "blurred": _blurred,  # out of focus, or moving (Gaussian, 1.5 px)
    "noisy": _noisy,  # a dim room's sensor noise (8 of 255)
    "dark": _exposed(0.6, 1.3),  # under-exposed
    "bright": _exposed(1.25, 0.8),  # over-exposed: the lightest parts clipped
    "warm": _warm,  # tungsten light, no white balance
}


def write_variant(folder: Path, entries: list[dict[str, Any]], name: str, out: Path) -> Path:
    """The labelled board photos of `folder` changed by `VARIANTS[name]`, written to `out`
    (lossless) with their labels, each pixel position (corners, dice, cube) moved."""
    change = VARIANTS[name]
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for entry in entries:
        image = cv2.imread(str(folder / entry["image"]), cv2.IMREAD_COLOR)
        if image is None:
            sys.exit(f"{folder / entry['image']}: not an image")
        changed, move = change(np.asarray(image, np.uint8))
        label = json.loads(json.dumps(entry))

        def moved(xy: list[float], move: np.ndarray = move) -> list[float]:
            return [float(v) for v in move @ np.array([xy[0], xy[1], 1.0])]

        label["image"] = f"{Path(entry['image']).stem}.png"
        label["board"]["corners_px"] = [moved(c) for c in entry["board"]["corners_px"]]
        for die in label.get("dice") or []:
            die["center_px"] = moved(die["center_px"])
        if label.get("cube"):
            label["cube"]["center_px"] = moved(label["cube"]["center_px"])
        cv2.imwrite(str(out / label["image"]), changed)
        lines.append(json.dumps(label))
    (out / "labels.jsonl").write_text("".join(line + "\n" for line in lines))
    return out


VARIANT_KEYS = (
    "boards_exact",
    "dice_right",
    "dice_phantom",
    "cube_as_die",
    "corners_within",
    "corners_off",
)


def variant_figures(folder: Path, entries: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Each variant's figures (`VARIANT_KEYS`; the dice read as a camera's frames are, as
    `referee` and `run` read them), and their sums under "all"."""
    out: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in VARIANTS:
            changed = write_variant(folder, entries, name, Path(tmp) / name)
            labels = board_labels(changed)
            checkers = evaluate_board(changed, None).to_json()
            dice = dice_figures(changed, labels, frames=True)
            corners = corner_figures(changed, labels)
            off = sum(p.get("worst_share", 0.0) > CORNER_TOLERANCE for p in corners["photos"])
            out[name] = {
                "boards_exact": checkers["boards_exact"],
                "dice_right": dice["right"],
                "dice_phantom": dice["phantom"],
                "cube_as_die": dice["cube_as_die"],
                "corners_within": corners["within"],
                "corners_off": off,
            }
    out["all"] = {k: sum(v[k] for v in out.values()) for k in VARIANT_KEYS}
    return out


PLAIN_KEYS = (
    "images",
    "dice",
    "accuracy",
    "right",
    "wrong",
    "wrong_high_confidence",
    "unreadable",
    "missed",
    "extra_dice",
    "median_ms",
)


def _worst(truth: np.ndarray, found: np.ndarray) -> float:
    """The worst corner's distance from the nearest of the other set's, of the width."""
    dist = np.linalg.norm(truth[:, None, :] - found[None, :, :], axis=2)
    width = float(np.linalg.norm(truth[1] - truth[0]))
    return float(max(dist.min(axis=1).max(), dist.min(axis=0).max())) / width


def _is_start(entry: dict[str, Any]) -> bool:
    position = entry.get("position") or {}
    return all(list(position.get(side, ())) == list(START) for side in ("white", "black"))


def corner_figures(folder: Path, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """find_board's corners against the labelled ones, as a share of the board's width; and
    on the photos of the starting position what `calibrate` writes."""
    out: dict[str, Any] = {"photos": [], "within": 0, "start": [], "start_within": 0}
    for entry in entries:
        image = np.asarray(cv2.imread(str(folder / entry["image"]), cv2.IMREAD_COLOR), np.uint8)
        truth = np.asarray(entry["board"]["corners_px"], np.float64)
        candidates: list[np.ndarray] = []
        ambiguous = None
        try:
            detection = find_board(image)
            candidates = [detection.corners, *detection.alternatives]
            worst = _worst(truth, detection.corners)
            out["within"] += worst <= CORNER_TOLERANCE
            out["photos"].append({"image": entry["image"], "worst_share": round(worst, 4)})
        except BoardNotFound as e:
            out["photos"].append({"image": entry["image"], "error": str(e)})
            if isinstance(e, AmbiguousBoard):
                candidates, ambiguous = list(e.candidates), str(e)
        if not _is_start(entry):
            continue
        sizes = default_arguments()
        try:
            if not candidates:
                raise CalibrationError(out["photos"][-1]["error"])
            seat = choose_corners(image, candidates, sizes, None, ambiguous, io.StringIO())
        except CalibrationError as e:
            out["start"].append({"image": entry["image"], "error": str(e)})
            continue
        worst = _worst(truth, np.array(seat.cal.corners_px, np.float64))
        home = seat.cal.white_home == entry["board"].get("white_home")
        out["start_within"] += worst <= CORNER_TOLERANCE and home
        out["start"].append(
            {"image": entry["image"], "worst_share": round(worst, 4), "white_home_right": home}
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="the labelled folder")
    ap.add_argument("--json", action="store_true", help="one JSON document")
    ap.add_argument("--overlays", help="write the photos whose checkers were read wrong there")
    ap.add_argument(
        "--dice-data",
        type=Path,
        action="append",
        default=None,
        help="a labelled folder of plain dice photos (repeat; default: the two shared ones)",
    )
    ap.add_argument("--no-plain", action="store_true", help="leave the plain dice photos out")
    ap.add_argument(
        "--mosaic",
        type=int,
        default=3,
        help="also the first plain folder's photos tiled N by N (photos of many dice; 1: not)",
    )
    ap.add_argument(
        "--variants",
        action="store_true",
        help="also the board photos as other cameras would show them (VARIANTS: turned, "
        "scaled, compressed, blurred, noisy, exposed, warm)",
    )
    ap.add_argument("--no-floors", action="store_true", help="print the figures only")
    add_models(ap)
    args = ap.parse_args()
    use_models(args.models)
    folder = args.data or shared_data("board_real_dev")
    if not (folder / "labels.jsonl").is_file():
        if args.data is None:  # a clone without the shared data beside it: nothing to measure
            print(f"real photos: {folder} not found (give --data or set BGCOMPANION_SHARED)")
            return 0
        sys.exit(f"{folder}: no labels.jsonl")
    cv2.setNumThreads(1)
    entries = board_labels(folder)
    checkers = evaluate_board(folder, args.overlays).to_json()
    dice = dice_figures(folder, entries)
    dice_frames = dice_figures(folder, entries, frames=True)
    corners = corner_figures(folder, entries)
    plain_folders = args.dice_data or [
        folder.parent / "dice_real_dev",
        folder.parent / "dice_real_topdown_dev",
    ]
    plain_folders = [f for f in plain_folders if (f / "labels.jsonl").is_file()]
    plain = [] if args.no_plain else plain_figures(plain_folders)
    if not args.no_plain and args.mosaic > 1 and plain_folders:
        with tempfile.TemporaryDirectory() as tmp:
            tiled = write_mosaics(plain_folders[0], Path(tmp) / MOSAIC, args.mosaic)
            (mosaic,) = plain_figures([tiled])
            n = args.mosaic
            plain.append(mosaic | {"shown": f"{plain_folders[0]} tiled {n} by {n}"})
    variants = variant_figures(folder, entries) if args.variants else {}
    if args.json:
        print(
            json.dumps(
                {
                    "checkers": checkers,
                    "dice": dice,
                    "dice_frames": dice_frames,
                    "corners": corners,
                    "plain": plain,
                    "variants": variants,
                }
            )
        )
    else:
        show(folder, entries, checkers, dice, dice_frames, corners, plain)
        show_variants(variants, len(entries))
    figures: dict[str, float] = {
        f"{folder.name}/{k}": v
        for k, v in {
            "boards_exact": checkers["boards_exact"],
            "places_right": checkers["places_right"],
            "dice_right": dice["right"],
            "dice_phantom": dice["phantom"],
            "cube_as_die": dice["cube_as_die"],
            "dice_state_wrong": dice["state_wrong"],
            "corners_within": corners["within"],
            "start_calibrated": corners["start_within"],
            "frame_dice_right": dice_frames["right"],
            "frame_dice_phantom": dice_frames["phantom"],
            "frame_cube_as_die": dice_frames["cube_as_die"],
            "frame_dice_state_wrong": dice_frames["state_wrong"],
        }.items()
    }
    for p in plain:
        name = Path(p["folder"]).name
        figures |= {f"{name}/{k}": p[k] for k in ("accuracy", "extra_dice") if p[k] is not None}
    if variants and folder.name == "board_real_dev":  # floored on the shared photos only
        figures |= {f"variants/{k}": v for k, v in variants["all"].items()}
    measured = {key.split("/")[0] for key in figures}
    floors = [f for f in FLOORS + VARIANT_FLOORS if f.key.split("/")[0] in measured]
    if args.no_floors or not floors:
        return 0
    # with --json the figures went to stdout as one document: the floors go to stderr
    return check(figures, floors, sys.stderr if args.json else sys.stdout)


def show(
    folder: Path,
    entries: list[dict[str, Any]],
    checkers: dict[str, Any],
    dice: dict[str, Any],
    dice_frames: dict[str, Any],
    corners: dict[str, Any],
    plain: list[dict[str, Any]],
) -> None:
    """The figures as text, photo by photo."""
    n = len(entries)
    print(f"real photos: {n} in {folder}")
    for photo in checkers["photos"]:
        wrong = ", ".join(f"{w['place']} {w['read']} (truth {w['truth']})" for w in photo["wrong"])
        print(f"  {photo['image']}: {'exact' if photo['exact'] else wrong}")
    print(
        f"checkers: boards exact {checkers['boards_exact']}/{n}, places right "
        f"{checkers['places_right']}/{checkers['places']} = {100 * checkers['place_accuracy']:.1f}%"
        f", wrong places flagged {checkers['places_wrong_flagged']}/{checkers['places_wrong']}, "
        f"median {checkers['median_ms']} ms"
    )
    for name, d in (("dice", dice), ("dice read as frames, with the checkers", dice_frames)):
        for photo in d["photos"]:
            print(f"  {photo['image']}: {'; '.join(photo['dice']) or 'no dice'}")
        print(
            f"{name}: values right {d['right']}/{d['dice']}, state wrong (flat read cocked or "
            f"on a checker) {d['state_wrong']}, phantom dice {d['phantom']}, "
            f"cube read as a die {d['cube_as_die']}"
        )
    for photo in corners["photos"]:
        what = photo.get("error") or f"worst corner {100 * photo['worst_share']:.2f}% of width"
        print(f"  {photo['image']}: {what}")
    print(f"corners within 1% of the board's width: {corners['within']}/{n}")
    for photo in corners["start"]:
        what = photo.get("error") or (
            f"worst corner {100 * photo['worst_share']:.2f}% of width, white's home "
            + ("right" if photo["white_home_right"] else "wrong")
        )
        print(f"  {photo['image']}, calibrate: {what}")
    print(
        f"calibrate on the photos of the starting position: within 1% of the width, white's "
        f"home right {corners['start_within']}/{len(corners['start'])}"
    )
    for p in plain:
        print(
            f"plain dice photos, {p.get('shown', p['folder'])}: {p['images']} photos, dice right "
            f"{p['right']}/{p['dice']} = {100 * (p['accuracy'] or 0):.2f}%, wrong {p['wrong']} "
            f"({p['wrong_high_confidence']} with high confidence), unreadable "
            f"{p['unreadable']}, missed {p['missed']}, phantom dice {p['extra_dice']}, "
            f"median {p['median_ms']} ms a photo"
        )


def show_variants(variants: dict[str, dict[str, int]], n: int) -> None:
    """The variants' figures as a table, a line each, their sums last."""
    if not variants:
        return
    print(
        f"the {n} board photos as other cameras would show them (dice read as frames): "
        "boards exact, dice right, phantom dice, cube read as a die, corners within 1%, "
        "corners more than 1% off (not refused)"
    )
    for name, v in variants.items():
        print(f"  {name:8s} " + "  ".join(f"{v[k]:3d}" for k in VARIANT_KEYS))


if __name__ == "__main__":
    sys.exit(main())
