"""A still frame read whole (`vision.frame.FrameReader`): the dice judged with the
checkers found, a die over a checker's centre on a checker whatever the dice reader's
own verdict."""

from __future__ import annotations

import numpy as np
import pytest

import vision.dicenet
from calibration.geometry import BoardGeometry
from sim import START, Die, Scene, render
from vision.dice import read_dice
from vision.dice_settings import DiceSettings
from vision.die import DieReading
from vision.frame import FrameReader, over_checkers


def _geo() -> BoardGeometry:
    r = render(Scene(image_size=(1280, 720)))
    assert r.calibration is not None
    return BoardGeometry(r.calibration)


def _die_at(geo: BoardGeometry, x_mm: float, y_mm: float, on_checker: bool = False) -> DieReading:
    ((u, v),) = geo.mm_to_px([(x_mm, y_mm)]).tolist()
    return DieReading(4, 0.99, (u, v), on_checker=on_checker)


def test_a_die_over_a_checkers_centre_is_on_a_checker() -> None:
    geo = _geo()
    centres = [(100.0, 40.0), (300.0, 200.0)]
    over = _die_at(geo, 104.0, 43.0)  # 5 mm from a centre: resting on that checker
    beside = _die_at(geo, 100.0, 70.0)  # 30 mm away: lying on the board beside it
    said = _die_at(geo, 250.0, 300.0, on_checker=True)  # the reader's own verdict stays
    out = over_checkers([over, beside, said], centres, geo, 19.0)
    assert [d.on_checker for d in out] == [True, False, True]
    assert out[1] is beside and out[0].value == 4 and out[0].flat
    assert over_checkers([over], [], geo, 19.0) == [over]  # no checker found: as read


def test_a_frame_marks_a_die_resting_on_a_checker_though_the_reader_calls_it_flat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = render(Scene(white=START, black=START, image_size=(1920, 1080)))
    x, y = first.labels["checkers"][0]["center_mm"]
    on = Die(5, x, y, angle_deg=10, state="on_checker", style="red")
    r = render(Scene(white=START, black=START, dice=(on,), image_size=(1920, 1080)))
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    real = vision.dicenet.run_network

    def flat(name: str, x: np.ndarray) -> np.ndarray:  # the reader's state: always flat
        out = real(name, x)
        if name == "dice_reader.onnx":
            out = out.copy()
            out[:, 7:10] = [10.0, 0.0, 0.0]
        return out

    monkeypatch.setattr(vision.dicenet, "run_network", flat)
    cfg = DiceSettings()
    (alone,) = read_dice(cfg, r.image, geo).dice
    assert alone.value == 5 and not alone.on_checker
    (seen,) = FrameReader(geo, dice=cfg).read_still(r.image).dice
    assert seen.value == 5 and seen.on_checker
