"""The dice reader (the networks, `vision.dicenet`): rendered rolls read (and judged by
the rules, whose verdict is tested in tests/rules/test_roll.py), the settings file, what
is no image. Accuracy on real photos is measured by `benchmarks/dice.py` and
`benchmarks/real.py`, not here."""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from companion.rules import roll_verdict
from sim import START, Die, Look, Scene, render
from tests.vision.rolls import NET
from vision.dice import read_dice
from vision.dice_settings import DiceSettings, dice_settings_text, load_dice_settings
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


def test_a_faintly_marked_die_is_read_where_the_reader_is_sure_of_it() -> None:
    # The referee benchmark's wide game 2 (a black board): a white 2 on a light point,
    # marked by the detector at odds under `detect_min`, read by the reader at 1.0.
    from sim import film_game

    film = film_game(102, (1920, 1080), length=7, family="wide")
    scene = film.shots[47].scene
    assert scene.style.name == "black-board" and len(scene.dice) == 2
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    cfg = DiceSettings()
    strong = replace(cfg, detect_weak=cfg.detect_min)  # weak marks not read
    assert [d.value for d in read_dice(strong, r.image, geo).dice] == [1]
    seen = read_dice(cfg, r.image, geo).dice
    assert sorted(d.value for d in seen) == sorted(d.value for d in scene.dice) == [1, 2]


def test_a_config_file_overrides_defaults_and_rejects_unknown_names(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    for section in ("net", "dice"):  # [net], as ever, or [dice] as in companion/settings.toml
        good.write_text(f"[{section}]\nvalue_min = 0.75\nread_px = 72\n")
        assert load_dice_settings(good) == replace(DiceSettings(), value_min=0.75)
    assert load_dice_settings(None) == DiceSettings() == CFG
    good.write_text("")
    assert load_dice_settings(good) == DiceSettings()
    for text, message in [
        ("[net]\nvalue_mni = 0.5\n", "bad.toml [net]: unknown key 'value_mni' (did you mean"),
        ("[nets]\nx = 1\n", "unknown section [nets] (did you mean 'net'?) (sections: [dice]"),
        ('[net]\nvalue_min = "high"\n', "[net]: value_min must be a number, got 'high'"),
        ("[net]\nread_px = 72.5\n", "[net]: read_px must be a whole number, got 72.5"),
        ("[dice]\nvalue_min = 1.5\n", "[dice]: value_min must be from 0 to 1, got 1.5"),
        ("[dice]\nplain_step = 1\n", "plain_step must be from 1.05 to 100, got 1.0"),
        ("[dice]\nplain_fill_max = 0\n", "plain_fill_max must be from 0.5 to 1000"),
        ("[dice]\nread_px_per_mm = 0\n", "read_px_per_mm must be from 0.1 to 20"),
        ("[dice]\n[net]\n", "in [dice] or [net], not both"),
        ("net = 3\n", "net must be a section [net], not a value"),
        ("[net\n", "not valid TOML"),
        # A file written for the retired pip reader, or its switches: named, not ignored.
        ("[pips]\ncontrast_min = 55\n", "unknown section [pips]"),
        ("[changed]\nwhole_max = 0.5\n", "unknown section [changed]"),
        ("[net]\nuse = 0\n", "unknown key 'use'"),
        ("[net]\nplain = 1\n", "unknown key 'plain'"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(ConfigError, match=re.escape(message)) as e:
            load_dice_settings(bad)
        assert "\n" not in str(e.value)
    with pytest.raises(ConfigError, match="no such settings file"):
        load_dice_settings(tmp_path / "missing.toml")


def test_the_settings_written_with_a_report_read_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    for settings in (DiceSettings(), replace(DiceSettings(), value_min=0.1 + 0.2, read_px=64)):
        path.write_text(dice_settings_text(settings))
        assert load_dice_settings(path) == settings
    assert dice_settings_text(DiceSettings()).startswith("[dice]\ndetect_px_per_mm = 1.0\n")


def test_the_dice_settings_are_frozen_and_refuse_what_the_reader_cannot_use() -> None:
    with pytest.raises(FrozenInstanceError):
        CFG.value_min = 0.1  # type: ignore[misc]
    with pytest.raises(ValueError, match="read_px must be from 8 to 1024, got 0"):
        DiceSettings(read_px=0)


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
