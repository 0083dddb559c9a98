"""Standard notation both ways, and the precise reason given for each kind of illegal play."""

from __future__ import annotations

import pytest

from companion.rules import (
    IllegalPlayError,
    NotationError,
    Position,
    format_steps,
)
from companion.rules.notation import find_play, is_legal, parse_play, read_segments

START = Position.start()
# Black has blots on white's 10 and 5 (its own 15 and 20).
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    5O   .   .   .  3X   . |  3X   .   .   .   .  2O
#    5X   .  1X   .  3O   . |  5O  1X   .   .   .  2X
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
BLOTS = Position.from_id("4Bx8gjDgc/ABMA")
# White: 1 on the bar, the rest as at the start less one back checker.
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    5O   .   .   .  3X   . |  5X   .   .   .   .  1O
#    5X   .   .   .  3O   . |  5O   .   .   .   .  2X
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O1 X0  off O0 X0
ONE_ON_BAR = Position.from_id("4HPwATDgc/ABUA")


def test_fixtures_are_what_the_comments_say() -> None:
    assert BLOTS.black[15] == BLOTS.black[20] == 1 and BLOTS.white == START.white
    assert ONE_ON_BAR.white[25] == 1 and ONE_ON_BAR.white[24] == 1


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ([(24, 18, False), (13, 11, False)], "24/18 13/11"),
        ([(24, 18, False), (18, 13, False)], "24/13"),
        ([(24, 18, True), (18, 13, False)], "24/18*/13"),
        ([(13, 7, True)], "13/7*"),
        ([(8, 5, False), (8, 5, False)], "8/5(2)"),
        ([(6, 5, True), (6, 5, False)], "6/5*(2)"),
        ([(25, 22, False), (13, 8, False)], "bar/22 13/8"),
        ([(6, 0, False), (5, 0, False)], "6/off 5/off"),
        ([(13, 7, False), (13, 7, False), (8, 2, False), (8, 2, False)], "13/7(2) 8/2(2)"),
        ([(8, 3, False), (24, 21, False)], "24/21 8/3"),
        ([], ""),
    ],
)
def test_formatting(steps: list[tuple[int, int, bool]], text: str) -> None:
    assert format_steps(steps) == text


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("8/5 6/5", "8/5 6/5"),
        ("6/5 8/5", "8/5 6/5"),
        ("8/5, 6/5", "8/5 6/5"),
        ("  8/5   6/5 ", "8/5 6/5"),
        ("24/20", "24/20"),
        ("24/23/20", "24/20"),
        ("24/21/20", "24/20"),
        ("24/21 21/20", "24/20"),
        ("13/9", "13/9"),
    ],
)
def test_written_forms_of_the_same_play(written: str, canonical: str) -> None:
    assert str(parse_play(START, (3, 1), written)) == canonical


def test_repeats_bar_off_and_numeric_points() -> None:
    assert str(parse_play(START, (6, 6), "24/18(2) 13/7(2)")) == "24/18(2) 13/7(2)"
    with pytest.raises(IllegalPlayError, match="point 1 is blocked"):
        parse_play(START, (6, 6), "13/1(2)")
    assert str(parse_play(ONE_ON_BAR, (5, 3), "Bar/20 24/21")) == "bar/20 24/21"
    assert str(parse_play(ONE_ON_BAR, (5, 3), "25/20 24/21")) == "bar/20 24/21"
    # White: 4 on 6, 3 on 5, 4 on 4, 2 on 3, 2 on 2; black: 5 each on its 6, 5 and 4.
    home = Position.from_id("+L4PAAC2dw8AAA")
    play = home.legal_plays((6, 5))[0]
    assert "off" in str(play)
    assert parse_play(home, (6, 5), str(play).replace("off", "0")).result == play.result


def test_hit_marks_are_optional_but_must_be_true() -> None:
    assert str(parse_play(BLOTS, (3, 1), "13/10* 6/5*")) == "13/10* 6/5*"
    assert str(parse_play(BLOTS, (3, 1), "13/10 6/5")) == "13/10* 6/5*"
    with pytest.raises(IllegalPlayError, match="no black blot on 9 to hit"):
        parse_play(BLOTS, (4, 1), "13/9* 6/5*")


def test_an_intermediate_hit_is_shown_and_an_unmarked_path_avoids_it() -> None:
    # 13/9 with 31 can go 13/10*/9 (hitting on 10) or 13/12 ... 12 is blocked, so only via 10.
    play = parse_play(BLOTS, (3, 1), "13/10*/9")
    assert str(play) == "13/10*/9" and play.hits == 1
    # 8/4 with 31: via 5 (a blot: hit) or via 7 (no hit). Unmarked means via 7.
    quiet = parse_play(BLOTS, (3, 1), "8/4")
    assert quiet.hits == 0 and str(quiet) == "8/4"
    assert parse_play(BLOTS, (3, 1), "8/5*/4").hits == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("13-8", "expected from/to"),
        ("13/", "is not a point"),
        ("13/8 x", "expected from/to"),
        ("26/20", "there is no point 26"),
        ("off/20", "cannot start from off"),
        ("13/bar", "cannot end on the bar"),
        ("8/11", "goes backwards"),
        ("8/5(5)", "repeated 1 to 4 times"),
        ("*13/10", "is not a point"),
    ],
)
def test_unreadable_text_is_a_notation_error(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        read_segments(text)


@pytest.mark.parametrize(
    ("position", "dice", "text", "message"),
    [
        (START, (3, 1), "8/5 6/5 4/3", "3 moves, but 31 gives 2"),
        (START, (3, 1), "7/4 6/5", "white has no checker on 7"),
        (START, (3, 1), "bar/22 6/5", "white has no checker on the bar"),
        (START, (6, 5), "13/7 13/8*", "no black blot on 8 to hit"),
        (START, (5, 1), "6/1 8/7", "point 1 is blocked (black has 2 checkers there)"),
        (START, (6, 5), "13/9 13/8", "13/9 is 4 pips, but the dice left are 6 and 5"),
        (START, (3, 1), "13/9 24/23", "24/23: the moves written before it already use the whole"),
        (START, (6, 5), "6/off 24/18", "cannot bear off with a checker still on 24"),
        (
            ONE_ON_BAR,
            (5, 3),
            "13/8 13/10",
            "white has a checker on the bar, which must enter first",
        ),
        (START, (6, 1), "13/7", "plays one die, but both 6 and 1 can be played"),
        (START, (6, 6), "24/18(2) 13/7", "plays 3 of the four 6s, but 4 can be played"),
        (START, (3, 1), "", "white can play 31, e.g."),
    ],
)
def test_illegal_plays_say_why(
    position: Position, dice: tuple[int, int], text: str, message: str
) -> None:
    with pytest.raises(IllegalPlayError) as e:
        parse_play(position, dice, text)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_membership_accepts_plays_and_positions_and_is_legal_reads_text() -> None:
    plays = START.legal_plays((3, 1))
    play = find_play(plays, "8/5 6/5")
    assert play in plays and play.result in plays and 42 not in plays
    assert is_legal(plays, "8/5 6/5") and is_legal(plays, "6/5 8/5")
    assert not is_legal(plays, "8/4 6/5") and not is_legal(plays, "rubbish")
    with pytest.raises(TypeError, match="is_legal"):
        assert "8/5 6/5" in plays  # reading text is notation's, above the plays
    assert repr(play) == "Play('8/5 6/5')"
    assert plays.find(play.result) is not None and plays.find(START) is None
