"""Real stacking: rows longer than five, layers on top, and piles that cannot be counted."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import vision.render
from calibration.geometry import BoardGeometry
from vision.board import BoardReader, BoardReading
from vision.render import START, random_scene, render


def _read_stack(
    count: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[int], BoardReading]:
    """White's 6-point holding `count` checkers laid in rows of six (then on top), on a
    board whose points are long enough for six."""
    monkeypatch.setattr(vision.render, "ROW", 6)
    white = [0] * 26
    white[6], white[8], white[0] = count, 15 - count - 2, 2
    scene = replace(random_scene(random.Random(seed)), white=tuple(white), black=START)
    scene = replace(scene, height_mm=0.9 * scene.width_mm)
    r = render(scene)
    assert r.calibration is not None
    return white, BoardReader(BoardGeometry(r.calibration)).read(r.image)


@pytest.mark.parametrize("count", [6, 7, 9, 12])
def test_rows_longer_than_five_and_layers_on_them_are_counted(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    white, reading = _read_stack(count, 600 + count, monkeypatch)
    assert reading.white == white and reading.black == list(START)
    six = next(p for p in reading.places if p.place == "6")
    assert six.confidence >= 0.5


def test_a_pile_that_looks_like_two_counts_is_unsure_not_guessed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Eleven in rows of six show five on top, as ten in rows of five do: from above the
    # sixth checker of the row lies under the top layer's last one.
    _, reading = _read_stack(11, 611, monkeypatch)
    six = next(p for p in reading.places if p.place == "6")
    assert six.count in (10, 11) and six.confidence < 0.5
    assert reading.confidence < 0.5
