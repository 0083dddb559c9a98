"""The dice networks on a calibrated board (`vision/dicenet.py`): the board seen from
above, the dice marked and read, and the rules' verdict on rolls they never saw."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import vision.dicenet
from calibration.geometry import BoardGeometry
from sim import (
    DICE_STYLES,
    ROLL_KINDS,
    START,
    CameraPose,
    Die,
    Look,
    Scene,
    random_roll_scene,
    render,
)
from tests.vision.rolls import benchmark_roll
from vision.changes import DiceWatch
from vision.config import load_config
from vision.dice import read_dice
from vision.dicenet import around, board_frame, warp
from vision.errors import VisionError

CFG = load_config()


def test_the_board_seen_from_above_shows_each_millimetre_where_the_calibration_puts_it() -> None:
    # A turned, tilted camera with a barrelled lens: a red die's face at a known board
    # point lies at that point of the view, at its size in millimetres.
    pose = CameraPose(yaw_deg=35, tilt_deg=12, tilt_axis_deg=60, k1=-0.1)
    dice = (Die(1, 120.0, 300.0, angle_deg=0, style="red", size_mm=16),)
    r = render(
        Scene(white=START, black=START, dice=dice, pose=pose, look=Look(), image_size=(1920, 1080))
    )
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    view = board_frame(geo, 2.0, 60.0)
    seen = warp(r.image, geo, view)
    assert seen.shape == (round((geo.height_mm + 120) * 2), round((geo.width_mm + 120) * 2), 3)
    red = (seen[..., 2].astype(int) - seen[..., 1]) > 80
    for dx, dy in ((-5.5, -5.5), (5.5, 5.5), (-5.5, 5.5), (5.5, -5.5)):  # inside the face
        col, row = view.to_px(120.0 + dx, 300.0 + dy)
        assert red[round(row), round(col)]
    for dx, dy in ((-10.0, 0.0), (10.0, 0.0), (0.0, -10.0)):  # beyond its 8 mm half-side
        col, row = view.to_px(120.0 + dx, 300.0 + dy)
        assert not red[round(row), round(col)]
    # A square round a point is the same view, cut out.
    square = warp(r.image, geo, around(geo, 120.0, 300.0, 2.0, 40), cache=False)
    col, row = (round(v + 0.5) for v in view.to_px(120.0 - 10, 300.0 - 10))  # its first pixel
    cut = seen[row : row + 40, col : col + 40]
    assert np.abs(square.astype(int) - cut).mean() < 2


def roll(kind: str, style: str, seed: int):  # type: ignore[no-untyped-def]
    """A roll of `kind` as the benchmark throws them, on a board it never used (seeds
    apart from the benchmark's and the networks' training scenes)."""
    rng = random.Random(f"dicenet-{kind}-{style}-{seed}")
    scene, roller, reasons = random_roll_scene(rng, kind, (1920, 1080))
    scene = replace(scene, dice=tuple(replace(d, style=style) for d in scene.dice))
    r = render(scene)
    assert r.calibration is not None
    return r, scene, roller, reasons


@pytest.mark.parametrize("style", sorted(DICE_STYLES))
@pytest.mark.parametrize("kind", ROLL_KINDS)
def test_every_kind_of_roll_in_every_style_gets_the_rules_verdict(kind: str, style: str) -> None:
    # Each kind breaks one rule (or none: valid, opening) on a random board, pose and
    # light: the reasons are the rules', and every die is found and read right.
    r, scene, roller, reasons = roll(kind, style, 1)
    geo = BoardGeometry(r.calibration)
    result = read_dice(CFG, r.image, geo, roller)
    got = [d.to_json() for d in result.dice]
    assert result.reasons == reasons, got
    assert sorted(d.value or 0 for d in result.dice) == sorted(d.value for d in scene.dice), got
    for truth in r.labels["dice"]:
        near = min(
            result.dice, key=lambda d: np.hypot(*np.subtract(d.center_px, truth["center_px"]))
        )
        assert np.hypot(*np.subtract(near.center_px, truth["center_px"])) < 4.0
        assert near.flat == truth["flat"] and near.on_checker == truth["on_checker"]


def test_in_a_video_a_die_that_changed_nothing_where_it_lies_is_read() -> None:
    # The dice benchmark's roll 127: a black 5 on a dark point changes less than 1% of its
    # disc since the board was seen without dice (the pip reader's video path looked only
    # where the board changed, and missed it). The networks read the whole board.
    scene, roller, reasons = benchmark_roll(127)
    assert reasons == ["cocked"] and sorted(d.value for d in scene.dice) == [3, 5]
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    watch = DiceWatch(CFG, geo)
    assert watch.read_roll(render(replace(scene, dice=())).image).dice == []
    five = next(d for d in r.labels["dice"] if d["value"] == 5)
    changed = watch.background.changed(r.image)
    assert changed is not None
    assert watch.background.changed_share(changed, *five["center_px"], 15, colour=True) < 0.05
    result = watch.read_roll(r.image, roller)
    assert sorted(d.value or 0 for d in result.dice) == [3, 5]
    assert result.reasons == ["cocked"]


def test_without_the_networks_the_pip_reader_reads_the_frame() -> None:
    r, _, roller, _ = roll("valid", "white", 3)
    geo = BoardGeometry(r.calibration)
    pips = copy.deepcopy(CFG)
    pips["net"]["use"] = 0
    calls: list[int] = []
    real = vision.dicenet.find_dice

    def spy(*a: object, **k: object) -> object:
        calls.append(1)
        return real(*a, **k)  # type: ignore[arg-type]

    mp = pytest.MonkeyPatch()
    mp.setattr(vision.dicenet, "find_dice", spy)
    try:
        read_dice(pips, r.image, geo, roller)
        assert calls == []
        read_dice(CFG, r.image, geo, roller)
        assert calls == [1]
        # A grey frame has no colour for the networks: the pip reader reads it.
        grey = r.image.mean(axis=2).astype(np.uint8)
        read_dice(CFG, grey, geo, roller)
        assert calls == [1]
    finally:
        mp.undo()


@pytest.mark.parametrize(
    ("content", "error"),
    [(None, "no such network"), (b"not a network", "not a network ONNX Runtime can run")],
)
def test_a_missing_or_corrupt_network_is_a_one_line_error(
    content: bytes | None, error: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r, _, roller, _ = roll("valid", "red", 4)
    if content is not None:
        (tmp_path / "dice_detector.onnx").write_bytes(content)
    monkeypatch.setattr(vision.dicenet, "MODELS", tmp_path)
    vision.dicenet._load.cache_clear()
    try:
        with pytest.raises(VisionError, match=rf"dice_detector\.onnx: {error}"):
            read_dice(CFG, r.image, BoardGeometry(r.calibration), roller)
    finally:
        vision.dicenet._load.cache_clear()
