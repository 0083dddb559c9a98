"""Dice reading: accuracy on real photos and rendered rolls, verdicts, time per frame.

    .venv/bin/python benchmarks/dice.py [--rolls 140] [--seed 2026] [--real DIR] [--no-floors]
        [--styles default|wide] [--solid] [--sides] [--no-real] [--models DIR]

- Real photos: `../shared/data/dice_real_dev` (394 webcam photos, 1,200 dice), read
  without a calibration (the dice networks searching the plain photo). Unreadable and
  missed dice count as wrong.
- Rendered rolls: every kind in turn (valid, cocked, on a checker, wrong section, off
  the board, wrong number of dice, opening roll) on random boards, styles, poses and
  looks at 1920x1080, read with the true calibration by the dice networks
  (`vision/dicenet.py`) and judged for the roller by the rules
  (`companion.rules.roll_verdict`). `--styles wide` draws the boards from `sim.WIDE_STYLES`
  (checkers with logos, numbers, raised rims, marbling and highlights; light from any
  side), and prints the figures again over the rolls of the styles the dice networks'
  training never drew (`vision.board_net.HELD_OUT_WIDE`): the leave-out figure.
- The same rolls read and judged as a video's frames are (`vision.frame.FrameReader`):
  the checkers read too, a die whose centre lies over a checker found on a checker, a
  mark that bare checkers of its colour show at the same spot no die.
- And so again with each board learnt as `calibrate` learns it from the starting position
  (`vision.board_learn`; from the roll's frame before the dice, the rolls being thrown on
  the starting position): a die read where that frame showed a die-like mark of the board
  (a hinge, a print) that still looks so is none.
- Time: the median per image on one core, and its share of the 33 ms frame interval at
  30 fps; and the motion stage's (`vision.motion.MotionGate`, which tells moving frames
  from still ones and runs on every frame of a video) over the same rolls, each seen
  after the board without dice.
Targets (issue 5): >= 99.9% rendered, >= 99.5% real, no wrong value with high
confidence, zero invalid rolls accepted, false rerolls < 0.5%, median < 10 ms, the
motion stage < 3 ms.
Then the floors (`FLOORS`): exits 1 if a figure fell below where it stood; each is checked
on its default set only (the shared webcam photos; 140 rolls, seed 2026).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

# A benchmark named after a package would shadow it: this folder goes last on the path
# (its own helpers, benchmarks/benchkit.py, stay importable).
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

from benchkit import Floor, add_models, check, shared_data, use_models

from calibration.geometry import BoardGeometry
from calibration.schema import load
from companion.rules import REASONS, roll_verdict
from sim import write_roll_set
from vision.board_learn import NotStartingPosition, learn_appearance
from vision.board_net import HELD_OUT_WIDE
from vision.dice import read_dice
from vision.dice_settings import DiceSettings
from vision.evaluate import dice_alone as read_alone
from vision.evaluate import evaluate
from vision.frame import FrameDice
from vision.motion import MotionGate

ROOT = Path(__file__).resolve().parent.parent
REAL = str(shared_data("dice_real_dev"))
# Floors (benchmarks/benchkit.py) of the default sets: the webcam photos (read without a
# calibration) and the 140 rendered rolls of seed 2026; where the figures stood when set
# (the shipped networks of 2026-11), not the targets.
FLOORS = [
    # Raised from 0.875 with each scale's reading's face judged before the places
    # (2026-11-29: 91.2%; benchmarks/real.py gives the other real sets), from 0.91 with the
    # plain photo's scales 1.25 apart (93.2%).
    Floor("real photos: dice right", "real/accuracy", at_least=0.93),
    Floor("rendered: dice right", "rendered/accuracy", at_least=1.0),
    # 1 -> 2 on 2026-12-06 with the state read again facing the camera (`state_facing`):
    # a black die drawn cocked as a squashed top face with no side showing, which no camera
    # sees and the state reader was never shown, is read flat; the board photos' flat dice
    # called cocked 2 -> 0, the wide rolls as frames (not trained on) 6 -> 4 invalid rolls
    # accepted and 1.2% -> 0.0% false rerolls (docs/dice.md).
    Floor("rendered: invalid rolls accepted", "rendered/invalid_rolls_accepted", at_most=2),
    Floor("rendered: false reroll rate", "rendered/false_reroll_rate", at_most=0.005),
    # Set 2026-11-29 with the checkers read too (`vision.frame.over_checkers`); the dice
    # right and phantom dice so with the checkers' own marks no dice (`checker_marks`).
    Floor("rendered, with the checkers: dice right", "rendered/frame_accuracy", at_least=1.0),
    Floor("rendered, with the checkers: phantom dice", "rendered/frame_extra_dice", at_most=0),
    # ... and each board learnt by `calibrate` from its starting position (2026-11-29).
    Floor("rendered, boards learnt: dice right", "rendered/learnt_accuracy", at_least=1.0),
    Floor("rendered, boards learnt: phantom dice", "rendered/learnt_extra_dice", at_most=0),
    Floor(
        "rendered, boards learnt: invalid rolls accepted",
        "rendered/learnt_invalid_rolls_accepted",
        at_most=2,  # 1 before `state_facing` (above)
    ),
    Floor(
        "rendered, boards learnt: false reroll rate",
        "rendered/learnt_false_reroll_rate",
        at_most=0.005,
    ),
    Floor(
        "rendered, with the checkers: invalid rolls accepted",
        "rendered/frame_invalid_rolls_accepted",
        at_most=2,  # 1 before `state_facing` (above)
    ),
    Floor(
        "rendered, with the checkers: false reroll rate",
        "rendered/frame_false_reroll_rate",
        at_most=0.005,
    ),
]


# The figures kept (and floored) of the rolls read as frames, and with the boards learnt.
FRAME_FIGURES = ("accuracy", "extra_dice", "invalid_rolls_accepted", "false_reroll_rate")


def show(name: str, m: dict, timed: bool = True) -> None:  # type: ignore[type-arg]
    print(f"{name}: {m['images']} images, {m['dice']} dice")
    print(
        f"  dice right {m['accuracy']:.2%} (wrong {m['wrong']}, of which high-confidence "
        f"{m['wrong_high_confidence']}; unreadable {m['unreadable']}; missed {m['missed']}); "
        f"extra dice found {m['extra_dice']}"
    )
    if m["verdicts"]:
        print(
            f"  verdicts {m['verdicts']}: invalid rolls accepted {m['invalid_rolls_accepted']}, "
            f"false reroll rate {m['false_reroll_rate']:.1%}"
        )
        for reason, c in m["reroll_calls"].items():
            print(f"    {reason:14s} precision {c['precision']}  recall {c['recall']}")
    ms = m["median_ms"]
    if timed:  # (a frame read by a FrameReader made for its roll: its new board's time too)
        print(f"  time per image: median {ms:.1f} ms ({ms / 33.3:.0%} of a frame at 30 fps)")


def rolls(folder: Path) -> Iterator[tuple[dict[str, Any], BoardGeometry, np.ndarray]]:
    """Each rendered roll of `folder`: its label, its board's geometry and its frame."""
    for line in (folder / "labels.jsonl").read_text().splitlines():
        entry = json.loads(line)
        geo = BoardGeometry(load(folder / entry["calibration"]))
        yield entry, geo, np.asarray(cv2.imread(str(folder / entry["path"])), np.uint8)


def motion_ms(folder: Path) -> list[float]:
    """The motion stage's time on each frame (ms): every roll of the set after its board
    without dice, as a camera would show them one after the other."""
    gate = MotionGate()
    times = []
    for line in (folder / "labels.jsonl").read_text().splitlines():
        entry = json.loads(line)
        for name in (entry["background"], entry["path"]):
            frame = np.asarray(cv2.imread(str(folder / name)), np.uint8)
            start = time.perf_counter()
            gate.check(frame)
            times.append((time.perf_counter() - start) * 1000)
    return times


def learnt_rolls(folder: Path) -> tuple[Path, int]:
    """The rolls of `folder` (a subfolder) with each board learnt as `calibrate` learns it
    from the starting position (`vision.board_learn`), from the roll's frame before the
    dice were thrown (its `background`: the rolls are thrown on the starting position);
    and how many boards were not learnt (their frame not read as the starting position,
    their calibration kept as it was)."""
    out = folder / "learnt"
    out.mkdir()
    lines, missed = [], 0
    for line in (folder / "labels.jsonl").read_text().splitlines():
        entry = json.loads(line)
        cal = load(folder / entry["calibration"])
        start = np.asarray(cv2.imread(str(folder / entry["background"])), np.uint8)
        try:
            cal = replace(cal, appearance=learn_appearance(start, cal))
        except NotStartingPosition:
            missed += 1
        cal.save(out / entry["calibration"])
        for key in ("path", "background"):
            entry[key] = f"../{entry[key]}"
        lines.append(json.dumps(entry))
    (out / "labels.jsonl").write_text("\n".join(lines) + "\n")
    return out, missed


def held_out_rolls(folder: Path) -> Path | None:
    """A set (a subfolder of `folder`) of `folder`'s rolls on the wide styles the dice
    networks' training never drew (`scripts/dicenet_data.py --wide`); None if none."""
    entries = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    moved = []
    for entry in entries:
        if entry["style"] not in HELD_OUT_WIDE:
            continue
        for key in ("path", "calibration", "background"):
            if key in entry:
                entry[key] = f"../{entry[key]}"
        moved.append(json.dumps(entry))
    if not moved:
        return None
    held = folder / "held_out"
    held.mkdir()
    (held / "labels.jsonl").write_text("\n".join(moved) + "\n")
    return held


def steady_ms(cfg: DiceSettings, folder: Path) -> list[float]:
    """Each roll's time (ms) read as a camera's frames are, its board's calibration met
    before (`evaluate` meets a new one with every roll: the board's warp maps are made
    anew, about 2 ms)."""
    times = []
    for _, geo, frame in rolls(folder):
        read_dice(cfg, frame, geo)
        start = time.perf_counter()
        read_dice(cfg, frame, geo)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=140)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--real", default=REAL)
    ap.add_argument(
        "--solid",
        action="store_true",
        help="rendered rolls of dice drawn as cubes seen from the camera, tilted up to 30 degrees",
    )
    ap.add_argument(
        "--sides",
        action="store_true",
        help="rendered rolls whose cocked dice show the side their lean turns up, with its pips "
        "(sim.Scene.dice_sides), not the stylised squashed face the networks were trained on",
    )
    ap.add_argument(
        "--styles",
        choices=["default", "wide"],
        default="default",
        help="the rendered boards' styles: the default set, or the wide one (sim.WIDE_STYLES: "
        "boards, checkers and light the dice networks were never trained on; no floors)",
    )
    ap.add_argument("--no-real", action="store_true", help="leave the real photos out")
    ap.add_argument("--no-floors", action="store_true", help="print the figures only")
    add_models(ap)
    args = ap.parse_args()
    use_models(args.models)
    cv2.setNumThreads(1)  # one core, as the target says
    cfg = DiceSettings()
    real = Path(args.real)
    figures: dict[str, float] = {}
    if args.no_real:
        pass
    elif (real / "labels.jsonl").is_file():
        m = evaluate(cfg, real, roll_verdict, REASONS).to_json()
        show("real photos", m)
        figures["real/accuracy"] = m["accuracy"]
    else:
        print(f"real photos: {real} not found (skipped)")
    with tempfile.TemporaryDirectory() as tmp:
        write_roll_set(
            tmp,
            args.rolls,
            seed=args.seed,
            backgrounds=True,
            solid=args.solid,
            family=args.styles,
            sides=args.sides,
        )
        rendered = evaluate(cfg, tmp, roll_verdict, REASONS).to_json()
        solid = ", dice solid" if args.solid else ", cocked dice with sides" if args.sides else ""
        wide = ", wide styles" if args.styles == "wide" else ""
        show(f"rendered rolls (1920x1080, calibrated{solid}{wide}), each a still", rendered)
        figures |= {
            f"rendered/{k}": rendered[k]
            for k in ("accuracy", "invalid_rolls_accepted", "false_reroll_rate")
        }
        frame = evaluate(cfg, tmp, roll_verdict, REASONS, FrameDice()).to_json()
        show("  the same read as a video's frames are, with the checkers", frame, timed=False)
        figures |= {f"rendered/frame_{k}": frame[k] for k in FRAME_FIGURES}
        learnt, missed = learnt_rolls(Path(tmp))
        learnt_m = evaluate(cfg, learnt, roll_verdict, REASONS, FrameDice()).to_json()
        show(
            f"  the same, each board learnt by `calibrate` from its starting position (the frame "
            f"before the dice; {missed} not learnt)",
            learnt_m,
            timed=False,
        )
        figures |= {f"rendered/learnt_{k}": learnt_m[k] for k in FRAME_FIGURES}
        if args.styles == "wide":
            left_out = ", ".join(HELD_OUT_WIDE)
            left_out = f"the styles left out of the dice networks' training ({left_out})"
            held, held_learnt = held_out_rolls(Path(tmp)), held_out_rolls(learnt)
            for name, sets, reader in (
                ("", held, read_alone),
                (", read as frames", held, FrameDice()),
                (", read as frames, each board learnt", held_learnt, FrameDice()),
            ):
                if sets is not None:
                    m = evaluate(cfg, sets, roll_verdict, REASONS, reader).to_json()
                    show(f"  of them {left_out}{name}", m, timed=reader is read_alone)
        ms = float(np.median(steady_ms(cfg, Path(tmp))))
        print(
            f"a frame of a board whose calibration was met before (a camera's): median "
            f"{ms:.1f} ms ({ms / 33.3:.0%} of a frame at 30 fps; target < 10 ms)"
        )
        ms = float(np.median(motion_ms(Path(tmp))))
        print(
            f"motion stage (every frame of a video, 1920x1080): median {ms:.2f} ms "
            f"({ms / 33.3:.0%} of a frame at 30 fps; target < 3 ms)"
        )
    if args.no_floors:
        return 0
    measured = {
        "real": args.real == REAL,
        "rendered": args.rolls == 140
        and args.seed == 2026
        and not args.solid
        and not args.sides
        and args.styles == "default",
    }
    floors = [f for f in FLOORS if measured[f.key.split("/")[0]]]
    return check(figures, [f for f in floors if f.key in figures])


if __name__ == "__main__":
    sys.exit(main())
