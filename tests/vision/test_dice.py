"""The dice reader (the networks, `vision.dicenet`): rendered rolls read (and judged by
the rules, whose verdict is tested in tests/rules/test_roll.py), the settings file, what
is no image. Accuracy on real photos is measured by `benchmarks/dice.py` and
`benchmarks/real.py`, not here."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from companion.rules import roll_verdict
from sim import START, Die, Look, Scene, render
from tests.vision.rolls import NET
from vision.config import load_config
from vision.dice import read_dice
from vision.errors import ConfigError, ImageError

CFG = NET


def rendered_roll(value: int, style: str, **kw: object) -> tuple[object, BoardGeometry]:
    dice = (
        Die(value, 400, 150, angle_deg=20, style=style),
        Die(7 - value, 450, 300, angle_deg=70, style=style),
    )
    r = render(Scene(white=START, black=START, dice=dice, image_size=(1920, 1080), **kw))  # type: ignore[arg-type]
    assert r.calibration is not None
    return r, BoardGeometry(r.calibration)


@pytest.mark.parametrize("style", ["white", "red", "black", "translucent"])
@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_every_face_is_read_on_a_clean_rendered_board(value: int, style: str) -> None:
    r, geo = rendered_roll(value, style, look=Look())
    result = read_dice(CFG, r.image, geo)  # type: ignore[attr-defined]
    assert sorted(d.value for d in result.dice) == sorted([value, 7 - value])
    verdict = roll_verdict(result.dice, "white")
    assert verdict.roll == tuple(sorted([value, 7 - value], reverse=True))
    assert verdict.valid and verdict.reasons == []
    assert all(d.section == "right" and d.flat for d in result.dice)


def test_dice_in_the_roller_s_left_section_are_a_wrong_section_for_white_not_black() -> None:
    r, geo = rendered_roll(3, "white", look=Look())
    dice = read_dice(CFG, r.image, geo).dice  # type: ignore[attr-defined]
    assert roll_verdict(dice, "white").reasons == []
    assert roll_verdict(dice, "black").reasons == ["wrong_section"]
    assert roll_verdict(dice, "opening").reasons == ["wrong_section"]


def test_a_config_file_overrides_defaults_and_rejects_unknown_names(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text("[net]\nvalue_min = 0.75\n")
    assert load_config(good)["net"]["value_min"] == 0.75
    assert {k: v for k, v in load_config(good)["net"].items() if k != "value_min"} == {
        k: v for k, v in CFG["net"].items() if k != "value_min"
    }
    assert list(load_config()) == ["net"]  # the networks' settings, and nothing else
    for text, message in [
        ("[net]\nvalue_mni = 0.5\n", "unknown key net.value_mni"),
        ("[nets]\nx = 1\n", "unknown section [nets] (known: [net])"),
        ('[net]\nvalue_min = "high"\n', "must be a number"),
        ("[net\n", "not valid TOML"),
        # A file written for the retired pip reader, or its switches: named, not ignored.
        ("[pips]\ncontrast_min = 55\n", "unknown section [pips] (known: [net])"),
        ("[changed]\nwhole_max = 0.5\n", "unknown section [changed]"),
        ("[net]\nuse = 0\n", "unknown key net.use"),
        ("[net]\nplain = 1\n", "unknown key net.plain"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(ConfigError, match=re.escape(message)):
            load_config(bad)


@pytest.mark.parametrize(
    "image",
    [
        None,
        "frame.png",
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((40, 40, 2), np.uint8),
        np.zeros((4, 40, 40, 3), np.uint8),
    ],
    ids=["none", "path", "empty", "two-channels", "four-dimensions"],
)
def test_read_dice_rejects_what_is_not_an_image(image: object) -> None:
    for geo in (None, BoardGeometry(render(Scene(image_size=(640, 360))).calibration)):  # type: ignore[arg-type]
        with pytest.raises(ImageError):
            read_dice(CFG, image, geo)  # type: ignore[arg-type]
