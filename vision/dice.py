"""Dice: find every die in a frame, read its top face, see how it lies and where.

One reader: two small networks (`vision.dicenet`, run by ONNX Runtime). With a
calibration the board is seen from straight above and searched there (`net_dice`);
without one, a plain photo is searched at a ladder of scales (`plain_net_dice`,
`plain_*` of `vision.dice_settings.DiceSettings`). A grey frame is read as a colour one whose
three channels are its grey. Whether the dice read stand as a roll is the rules'
verdict (`companion.rules.roll`), not the reader's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from vision import dicenet
from vision.dice_settings import DiceSettings
from vision.die import DieReading
from vision.errors import ImageError

Image = NDArray[np.uint8]


@dataclass
class DiceResult:
    """The dice read in one frame and the time it took."""

    dice: list[DieReading]
    elapsed_ms: float = 0.0


def _die(
    values: dicenet.Floats,
    states: dicenet.Floats,
    centre: tuple[float, float],
    section: str | None = None,
) -> DieReading:
    """A die as the reader's odds of each value and state say: its likeliest value (the
    networks report only dice whose face they read, `value_min`), cocked or on a checker
    as its likeliest state."""
    best = int(np.argmax(values))
    state = dicenet.STATES[int(np.argmax(states))]
    return DieReading(
        best + 1,
        float(values[best]),
        centre,
        flat=state != "cocked",
        section=section,
        on_checker=state == "on_checker",
    )


def net_dice(cfg: DiceSettings, image: Image, geo: BoardGeometry) -> list[DieReading]:
    """The dice the networks read on a calibrated colour frame (`vision.dicenet`)."""
    out = []
    for d in dicenet.find_dice(cfg, image, geo):
        (px,) = geo.mm_to_px([(d.x_mm, d.y_mm)])
        centre = (float(px[0]), float(px[1]))
        out.append(_die(d.values, d.states, centre, geo.section_mm(d.x_mm, d.y_mm)))
    return out


def plain_net_dice(cfg: DiceSettings, image: Image) -> list[DieReading]:
    """The dice the networks read on a plain colour photo (`vision.dicenet`)."""
    return [_die(d.values, d.states, (d.x_px, d.y_px)) for d in dicenet.find_dice_plain(cfg, image)]


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
    cfg: DiceSettings,
    image: Image,
    geo: BoardGeometry | None = None,
) -> DiceResult:
    """The dice in one frame: with a calibration, on the board and a margin round it
    (`net_dice`; each die's section and whether it rests on a checker); without one,
    anywhere in the photo (`plain_net_dice`; no section). Whether they stand as a roll
    is the rules' verdict (`companion.rules.roll.roll_verdict`)."""
    start = time.perf_counter()
    image = to_bgr(image)
    dice = net_dice(cfg, image, geo) if geo is not None else plain_net_dice(cfg, image)
    return DiceResult(dice, (time.perf_counter() - start) * 1000)
