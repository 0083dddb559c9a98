"""Dice: find every die in a frame, read its top face, judge how it lies and the roll.

One reader: two small networks (`vision.dicenet`, run by ONNX Runtime). With a
calibration the board is seen from straight above and searched there (`net_dice`);
without one, a plain photo is searched at a ladder of scales (`plain_net_dice`,
`[net] plain_*` in `vision/dice.toml`). A grey frame is read as a colour one whose
three channels are its grey. The rules' verdict on the dice read is `verdict`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry, Color
from vision import dicenet
from vision.config import Config
from vision.errors import ImageError

Image = NDArray[np.uint8]
REASONS = ("cocked", "wrong_section", "on_checker", "off_board", "dice_count", "unreadable")


@dataclass
class DieReading:
    value: int | None
    confidence: float
    center_px: tuple[float, float]
    flat: bool = True
    section: str | None = None
    on_checker: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "confidence": round(self.confidence, 3),
            "center_px": [round(self.center_px[0], 1), round(self.center_px[1], 1)],
            "flat": self.flat,
            "section": self.section,
            "on_checker": self.on_checker,
        }


@dataclass
class DiceResult:
    dice: list[DieReading]
    roll: tuple[int, int] | None
    valid: bool
    reasons: list[str]
    elapsed_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": [d.to_json() for d in self.dice],
            "roll": list(self.roll) if self.roll else None,
            "valid": self.valid,
            "reasons": self.reasons,
            "elapsed_ms": round(self.elapsed_ms, 2),
        }


def verdict(
    dice: list[DieReading], roller: str | None, calibrated: bool
) -> tuple[tuple[int, int] | None, bool, list[str]]:
    """The roll (high die first) and whether it stands, with the reasons it does not."""
    reasons: list[str] = []
    values = [d.value for d in dice]
    roll = None
    if len(dice) == 2 and None not in values:
        hi, lo = sorted((int(v) for v in values if v is not None), reverse=True)
        roll = (hi, lo)
    if any(v is None for v in values):
        reasons.append("unreadable")
    if len(dice) != 2:
        reasons.append("dice_count")
    if any(not d.flat for d in dice):
        reasons.append("cocked")
    if calibrated:
        if any(d.on_checker for d in dice):
            reasons.append("on_checker")
        if any(d.section == "off" for d in dice):
            reasons.append("off_board")
        on_board = [d for d in dice if d.section != "off"]
        if roller in ("white", "black"):
            want = "right" if roller == "white" else "left"
            if any(d.section != want for d in on_board):
                reasons.append("wrong_section")
        elif (
            roller == "opening"
            and len(on_board) == 2
            and sorted(str(d.section) for d in on_board) != ["left", "right"]
        ):
            reasons.append("wrong_section")
    ordered = [r for r in REASONS if r in reasons]
    return roll, not ordered, ordered


def net_dice(cfg: Config, image: Image, geo: BoardGeometry) -> list[DieReading]:
    """The dice the networks read on a calibrated colour frame (`vision.dicenet`)."""
    out = []
    for d in dicenet.find_dice(cfg, image, geo):
        (px,) = geo.mm_to_px([(d.x_mm, d.y_mm)])
        best = int(np.argmax(d.values))
        sure = float(d.values[best])
        state = dicenet.STATES[int(np.argmax(d.states))]
        out.append(
            DieReading(
                best + 1 if sure >= cfg["net"]["value_min"] else None,
                sure,
                (float(px[0]), float(px[1])),
                flat=state != "cocked",
                section=geo.section_mm(d.x_mm, d.y_mm),
                on_checker=state == "on_checker",
            )
        )
    return out


def plain_net_dice(cfg: Config, image: Image) -> list[DieReading]:
    """The dice the networks read on a plain colour photo (`vision.dicenet`)."""
    out = []
    for d in dicenet.find_dice_plain(cfg, image):
        best = int(np.argmax(d.values))
        sure = float(d.values[best])
        state = dicenet.STATES[int(np.argmax(d.states))]
        out.append(
            DieReading(
                best + 1 if sure >= cfg["net"]["value_min"] else None,
                sure,
                (d.x_px, d.y_px),
                flat=state != "cocked",
                on_checker=state == "on_checker",
            )
        )
    return out


_TO_BGR = {1: cv2.COLOR_GRAY2BGR, 4: cv2.COLOR_BGRA2BGR}  # by the number of channels


def to_bgr(image: Image) -> Image:
    """`image` as a 3-channel BGR frame: a grey one (2-D or one channel) with its grey in
    every channel, a BGRA one without its alpha; anything else is no image."""
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise ImageError("not an image")
    if image.ndim == 2 or (image.ndim == 3 and image.shape[2] in _TO_BGR):
        code = _TO_BGR[1 if image.ndim == 2 else image.shape[2]]
        return np.asarray(cv2.cvtColor(np.asarray(image, np.uint8), code), dtype=np.uint8)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise ImageError(f"unexpected image shape {image.shape}")


def read_dice(
    cfg: Config,
    image: Image,
    geo: BoardGeometry | None = None,
    roller: Color | str | None = None,
) -> DiceResult:
    """Everything about the dice in one frame: with a calibration, on the board and a
    margin round it (`net_dice`; sections, checkers and the board's edge judged); without
    one, anywhere in the photo (`plain_net_dice`; only cocked, unreadable and the number
    of dice judged)."""
    start = time.perf_counter()
    image = to_bgr(image)
    dice = net_dice(cfg, image, geo) if geo is not None else plain_net_dice(cfg, image)
    roll, valid, reasons = verdict(dice, roller, geo is not None)
    return DiceResult(dice, roll, valid, reasons, (time.perf_counter() - start) * 1000)
