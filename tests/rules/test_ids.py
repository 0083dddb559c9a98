"""Position ID, Match ID and XGID: formats.md's worked examples, round trips, errors."""

from __future__ import annotations

import pytest

from companion.rules import (
    BLACK,
    WHITE,
    GameState,
    IdError,
    MatchInfo,
    Position,
    gnubg_id,
    match_from_id,
    match_id,
    parse_gnubg_id,
    parse_position,
    parse_xgid,
    position_from_id,
    position_id,
    xgid,
)
from companion.rules.notation import parse_play


def _sides(on_roll: dict[int, int], other: dict[int, int]) -> tuple[list[int], list[int]]:
    def arr(spec: dict[int, int]) -> list[int]:
        a = [0] * 26
        for k, v in spec.items():
            a[k] = v
        a[0] = 15 - sum(a)
        return a

    return arr(on_roll), arr(other)


def test_starting_position_id_is_the_manuals() -> None:
    assert position_id(Position.start()) == "4HPwATDgc/ABMA"
    assert position_id(Position.start(BLACK)) == "4HPwATDgc/ABMA"


def test_after_opening_31_the_id_changes_as_in_formats_md() -> None:
    after = parse_play(Position.start(), (3, 1), "8/5 6/5").result
    assert after.turn is BLACK
    assert position_id(after) == "sGfwATDgc/ABMA"


def test_bar_and_borne_off_example() -> None:
    # On roll: 1 on the bar, 4 on 6, 3 on 5, 3 on 4, 2 on 3 (2 off);
    # not on roll: 3 on the bar, 2 on 24, 4 on 13, 3 on 8, 3 on 6.
    mover, other = _sides({25: 1, 6: 4, 5: 3, 4: 3, 3: 2}, {25: 3, 24: 2, 13: 4, 8: 3, 6: 3})
    position = Position.from_sides(mover, other, WHITE)
    assert position_id(position) == "4Bw8AHbs7gEAEA"
    assert position_from_id("4Bw8AHbs7gEAEA", WHITE) == position


@pytest.mark.parametrize(
    ("info", "expected"),
    [
        # 9-point match, score 2-4 (player 0 = black has 2), player 0 owns a 2-cube,
        # player 1 (white) has rolled 52.
        (
            MatchInfo(
                match_length=9,
                score_black=2,
                score_white=4,
                cube_value=2,
                cube_owner=BLACK,
                on_roll=WHITE,
                dice=(5, 2),
            ),
            "QYkqASAAIAAA",
        ),
        # Money game, centred 1-cube, player 0 (black) to roll, no dice, Jacoby on.
        (MatchInfo(on_roll=BLACK), "MAEAAAAAAAAA"),
        # 3-point match, score 2-0, Crawford game, player 1 (white) has rolled 61.
        (
            MatchInfo(match_length=3, score_black=2, crawford=True, on_roll=WHITE, dice=(6, 1)),
            "8AlnACAAAAAA",
        ),
    ],
)
def test_match_id_examples(info: MatchInfo, expected: str) -> None:
    assert match_id(info) == expected
    assert match_from_id(expected) == info


def test_match_id_writes_the_higher_die_first() -> None:
    low_first = MatchInfo(match_length=9, on_roll=WHITE, dice=(2, 5))
    assert match_from_id(match_id(low_first)).dice == (5, 2)


def test_match_id_fields_round_trip() -> None:
    info = MatchInfo(
        match_length=25,
        score_white=24,
        score_black=13,
        cube_value=64,
        cube_owner=WHITE,
        on_roll=BLACK,
        to_act=WHITE,
        double_offered=True,
        game_state=GameState.PLAYING,
        jacoby=False,
    )
    assert match_from_id(match_id(info)) == info
    resigned = MatchInfo(on_roll=WHITE, to_act=BLACK, resign=3, game_state=GameState.RESIGNED)
    assert match_from_id(match_id(resigned)) == resigned


@pytest.mark.parametrize(
    ("text", "gnubg"),
    [
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            "4HPwATDgc/ABMA:cAkAAAAAAAAE",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:4:3:1:5:10",
            "4HPwATDgc/ABMA:8ImlADAAIAAE",
        ),
        (
            "XGID=cb-BCCD-----d----c-c-----A:2:-1:1:52:4:2:0:7:10",
            "4Bw8AHbs7gEAEA:QonqACAAIAAE",
        ),
    ],
)
def test_xgid_examples_give_gnubgs_ids(text: str, gnubg: str) -> None:
    position, info = parse_xgid(text)
    assert gnubg_id(position, info) == gnubg
    assert xgid(position, info) == text
    back_position, back_info = parse_gnubg_id(gnubg)
    assert back_position == position
    assert back_info.dice == (tuple(sorted(info.dice, reverse=True)) if info.dice else None)
    assert (back_info.score_white, back_info.score_black) == (info.score_white, info.score_black)


def test_xgid_money_rules_field() -> None:
    position, info = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:3:0:10")
    assert info.jacoby and info.beavers and info.on_roll is BLACK and position.turn is BLACK
    _, none = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10")
    assert not none.jacoby and not none.beavers


def test_xgid_double_offered_means_the_other_side_acts() -> None:
    _, info = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:D:0:0:0:5:10")
    assert info.double_offered and info.on_roll is WHITE and info.acting is BLACK
    assert info.cube_value == 2 and info.cube_owner is WHITE


def test_parse_position_accepts_every_form() -> None:
    start = Position.start()
    assert parse_position("4HPwATDgc/ABMA") == start
    assert parse_position("4HPwATDgc/ABMA", BLACK) == start.with_turn(BLACK)
    assert parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAE") == start
    assert parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10").turn is BLACK
    assert parse_position("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10") == start
    assert Position.from_id("4HPwATDgc/ABMA") == start


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/ABM", "expected 14 Base64 characters"),
        ("4HPwATDgc/AB!A", "expected 14 Base64 characters"),
        ("//////////////", "runs out of bits"),
        ("/////wAAAAAAAA", "checkers on one side"),
    ],
)
def test_bad_position_ids_are_refused(text: str, message: str) -> None:
    with pytest.raises(IdError, match=message):
        position_from_id(text)


def test_position_id_with_both_colours_on_a_point_is_refused() -> None:
    both = Position((0, 1, *[0] * 23, 14), (1, *[0] * 23, 1, 13), WHITE)
    # white 1 on its 1 point, black 1 on its 24 (the same point): impossible.
    assert both.status()
    with pytest.raises(IdError, match="holds both colours"):
        position_from_id(position_id(both))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0", "expected 10 fields"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "26 characters"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "cube position"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10", "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "not a number"),
        ("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10", "checkers on the board"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "black's bar"),
    ],
)
def test_bad_xgids_are_refused(text: str, message: str) -> None:
    with pytest.raises(IdError, match=message):
        parse_xgid(text)


@pytest.mark.parametrize("text", ["QYkqASAAIAA", "QYkqASAAIAA*", "////////////"])
def test_bad_match_ids_are_refused(text: str) -> None:
    with pytest.raises(IdError):
        match_from_id(text)
