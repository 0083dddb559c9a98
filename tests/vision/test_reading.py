"""The one reading of a frame: frozen, and as sure as its least sure part."""

from __future__ import annotations

import dataclasses

import pytest

from vision.die import DieReading
from vision.reading import MOVING, BoardSeen, Reading

START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def test_a_reading_is_as_sure_as_its_least_sure_part() -> None:
    board = BoardSeen(START, START, 0.9, (("6", 0.95),))
    dice = (DieReading(3, 0.99, (10.0, 20.0)), DieReading(5, 0.6, (30.0, 20.0)))
    assert Reading(dice, board).confidence == pytest.approx(0.6)
    assert Reading((), board).confidence == pytest.approx(0.9)
    assert Reading(dice, None).confidence == 0.0  # the board was not read
    assert MOVING.moving and MOVING.confidence == 0.0 and MOVING.dice == ()


def test_a_reading_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        MOVING.moving = False  # type: ignore[misc]
