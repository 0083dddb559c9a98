"""Dice on a plain photo (no calibration) read by the networks (`vision.dicenet`): the
photo searched at a ladder of scales, and the scoring of labelled sets."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import cv2
import numpy as np

from sim import START, CameraPose, Die, Look, Scene, render
from vision import dicenet
from vision.dice import read_dice
from vision.dice_settings import DiceSettings
from vision.dicenet import find_dice_plain, plain_scales
from vision.die import DieReading
from vision.evaluate import evaluate

CFG = DiceSettings()


def test_the_scales_run_from_the_smallest_die_to_a_third_of_the_photo() -> None:
    n = CFG
    for w, h in ((640, 480), (1920, 1080), (4032, 3024)):
        scales = plain_scales(CFG, w, h)
        assert scales == sorted(scales, reverse=True)
        ratios = [a / b for a, b in itertools.pairwise(scales)]
        assert np.allclose(ratios, n.plain_step)
        top = scales[0]
        # the smallest die looked for is plain_side_min_px, unless the photo would be too large
        assert top * w * top * h <= n.plain_pixels_max * 1.0001
        assert top <= n.plain_die_px / n.plain_side_min_px + 1e-9
        # the largest: a die a third of the shorter side is made plain_die_px wide or less
        assert scales[-1] * min(w, h) / n.plain_fill_max <= n.plain_die_px * n.plain_step


def test_a_tiny_or_blank_photo_has_no_dice() -> None:
    assert find_dice_plain(CFG, np.zeros((5, 7, 3), np.uint8)) == []
    assert find_dice_plain(CFG, np.full((300, 400, 3), 128, np.uint8)) == []


def _rendered_dice() -> tuple[np.ndarray, list[tuple[float, float, int]]]:
    """A board photographed from above with four flat dice, and where they lie (px)."""
    dice = (
        Die(3, 150.0, 120.0, angle_deg=10, style="white", size_mm=16),
        Die(5, 420.0, 330.0, angle_deg=35, style="red", size_mm=16),
        Die(6, 250.0, 300.0, angle_deg=0, style="white", size_mm=16),
        Die(2, 470.0, 100.0, angle_deg=60, style="red", size_mm=16),
    )
    r = render(
        Scene(
            white=START,
            black=START,
            dice=dice,
            pose=CameraPose(),
            look=Look(),
            image_size=(1280, 720),
        )
    )
    centres = [
        (float(d["center_px"][0]), float(d["center_px"][1]), die.value)
        for d, die in zip(r.labels["dice"], dice, strict=True)
    ]
    return r.image, centres


def test_dice_on_a_board_photo_are_found_and_read_without_a_calibration() -> None:
    image, truth = _rendered_dice()
    result = read_dice(CFG, image)
    assert len(result.dice) == len(truth)
    for x, y, value in truth:
        near = [d for d in result.dice if np.hypot(d.center_px[0] - x, d.center_px[1] - y) < 8]
        assert [d.value for d in near] == [value]


def test_the_same_photo_halved_reads_the_same_dice() -> None:
    image, truth = _rendered_dice()
    half = np.asarray(cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
    big = np.asarray(cv2.resize(image, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR))
    for k, photo in ((0.5, half), (2.0, big)):
        got = sorted((d.value or 0) for d in read_dice(CFG, photo).dice)
        assert got == sorted(v for _, _, v in truth), k


def test_emblem_faces_are_not_scored_and_a_die_read_there_is_no_phantom(tmp_path: Path) -> None:
    image, truth = _rendered_dice()
    cv2.imwrite(str(tmp_path / "a.png"), image)
    boxes = [[x - 12, y - 12, 24, 24, v] for x, y, v in truth]
    entry = {"path": "a.png", "boxes": boxes, "nonstandard_box_idx": [0]}
    (tmp_path / "labels.jsonl").write_text(json.dumps(entry) + "\n")
    m = evaluate(CFG, tmp_path)
    assert m.dice == 3
    assert m.right == 3
    assert m.extra == 0


def test_a_set_is_scored_with_the_reader_it_is_given(tmp_path: Path) -> None:
    image, truth = _rendered_dice()
    cv2.imwrite(str(tmp_path / "a.png"), image)
    boxes = [[x - 12, y - 12, 24, 24, v] for x, y, v in truth]
    (tmp_path / "labels.jsonl").write_text(json.dumps({"path": "a.png", "boxes": boxes}) + "\n")
    seen: list[tuple[int, int]] = []

    def one_wrong(cfg: DiceSettings, photo: np.ndarray, geo: object) -> list[DieReading]:
        seen.append(photo.shape[:2])
        x, y, v = truth[0]
        return [DieReading(v % 6 + 1, 0.95, (x, y)), DieReading(2, 0.5, (5.0, 5.0))]

    m = evaluate(CFG, tmp_path, reader=one_wrong)
    assert seen == [image.shape[:2]]
    assert (m.dice, m.right, m.wrong, m.wrong_high_confidence) == (len(truth), 0, 1, 1)
    assert (m.missed, m.extra) == (len(truth) - 1, 1)


def test_each_place_is_read_at_every_scale_it_was_marked_at_and_places_are_capped() -> None:
    cfg = DiceSettings(plain_places_max=2)
    marks = [
        (100.0, 100.0, 1.0, 0.9),  # place A, its strongest mark
        (103.0, 98.0, 0.5, 0.8),  # A again, a scale coarser (within plain_apart of a side)
        (300.0, 100.0, 1.0, 0.7),  # place B
        (500.0, 100.0, 1.0, 0.6),  # place C: the weakest place, over the cap
        (302.0, 101.0, 0.5, 0.3),  # B at the coarser scale, weaker than C's mark
    ]
    assert cfg.plain_die_px * cfg.plain_apart > 3.7  # A's two marks are one place
    got = dicenet._places_marks(cfg, marks)
    assert sorted(got) == sorted(m for m in marks if m[0] < 400)
