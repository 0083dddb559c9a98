"""Position: construction from the contract's arrays, status() of impossible boards, views."""

from __future__ import annotations

import dataclasses

import pytest

from companion.rules import (
    BLACK,
    WHITE,
    DiceError,
    Position,
    PositionError,
    check_dice,
    draw_board,
)
from companion.rules.notation import parse_play

START = Position.start()


def test_json_round_trip_and_hashing() -> None:
    doc = START.to_json()
    assert doc["white"] == [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2, 0]
    assert Position.from_json(doc) == START
    assert Position.from_json(doc, "black") == START.with_turn(BLACK) != START
    assert len({START, Position.from_json(doc), START.with_turn(BLACK)}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        START.turn = BLACK  # type: ignore[misc]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([1, 2], "expected an object"),
        ({"white": [0] * 26}, "missing 'black'"),
        ({"white": "abc", "black": [0] * 26}, "must be an array"),
        ({"white": [0] * 25, "black": [0] * 26}, "expected 26 numbers"),
        ({"white": [0] * 25 + [1.5], "black": [0] * 26}, "expected a whole number"),
        ({"white": [0] * 25 + [True], "black": [0] * 26}, "expected a whole number"),
    ],
)
def test_malformed_json_is_refused_with_a_reason(doc: object, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.from_json(doc)


def test_turn_must_be_a_colour() -> None:
    with pytest.raises(PositionError, match="turn"):
        Position.from_json(START.to_json(), "red")


def test_status_lists_every_problem() -> None:
    assert START.status() == []
    white = list(START.white)
    white[7] = 1  # a 16th white checker on white's 7 point
    black = list(START.black)
    black[18] = 1  # black's 18 is white's 7: both colours on one point
    black[6] -= 2  # and only 13 black checkers
    problems = Position(tuple(white), tuple(black)).status()
    assert "white has 16 checkers (expected 15)" in problems
    assert "black has 14 checkers (expected 15)" in problems
    assert any("white's point 7 (black's 18) holds both colours" in p for p in problems)
    negative = Position((-1, *START.white[1:25], START.white[25] + 1), START.black)
    assert any("negative" in p for p in negative.status())


def test_an_impossible_position_can_be_built_but_not_played() -> None:
    bad = Position((1, *START.white[1:]), START.black)
    assert not bad.is_valid()
    with pytest.raises(PositionError, match="16 checkers"):
        bad.legal_plays((3, 1))
    assert "Position(white=" in repr(bad)


def test_a_finished_game_has_no_plays() -> None:
    done = Position((15,) + (0,) * 25, START.black, BLACK)
    assert done.winner() is WHITE
    with pytest.raises(PositionError, match="game is over"):
        done.legal_plays((3, 1))


@pytest.mark.parametrize("dice", [(0, 1), (7, 1), (3,), (1, 2, 3), "31", (True, 1), 5])
def test_bad_dice_are_refused(dice: object) -> None:
    with pytest.raises(DiceError):
        check_dice(dice)  # type: ignore[arg-type]


def test_pip_counts_and_views() -> None:
    assert START.pip_count(WHITE) == START.pip_count(BLACK) == 167
    after = parse_play(START, (6, 5), "24/13").result
    assert after.pip_count(WHITE) == 156 and after.turn is BLACK
    assert after.mover == after.black and after.opponent == after.white
    assert START.owner_of(WHITE, 6) == (WHITE, 5)
    assert START.owner_of(WHITE, 7) == (None, 0)


def test_the_text_board_shows_every_checker_and_the_pips() -> None:
    text = draw_board(START)
    # 15 checkers a side drawn (no stack over 5 at the start), plus the legend's letter.
    assert text.count("O") == text.count("X") == 16
    assert "White (O): pips 167" in text and "Black (X): pips 167" in text
    lines = text.splitlines()
    assert lines[0].split() == [str(n) for n in range(13, 25)]
    assert lines[-4].split() == [str(n) for n in range(12, 0, -1)]
    assert "white to move" in text
    with_bar = Position.from_id("4HPwATDgc/ABUA")
    assert "O 1" in draw_board(with_bar)
