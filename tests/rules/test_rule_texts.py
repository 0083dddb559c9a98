"""One test per rule sentence in shared/rules/, each citing the text it checks.

Every test carries `@rule(file, quote)`; test_quotes_are_in_the_rule_texts
checks that each quote really stands in the cited file. Positions are written
as GNU Backgammon Position IDs (white on roll) with a small board in a comment:
white is O, black is X, points numbered from white's side.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from companion.rules import (
    BAR,
    BLACK,
    OFF,
    WHITE,
    IllegalPlayError,
    NotationError,
    OpeningRoll,
    Position,
    ResultType,
    game_result,
)
from companion.rules.notation import is_legal, parse_play
from tests.conftest import SHARED

CITED: list[tuple[str, str, str]] = []


def rule(file: str, quote: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Marks a test as checking `quote` from shared/rules/<file>_*.txt."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        CITED.append((fn.__name__, file, quote))
        fn.__doc__ = f"{fn.__doc__ or ''}\n\nshared/rules/{file}: {quote!r}"
        return fn

    return mark


def plays_text(position: Position, dice: tuple[int, int]) -> set[str]:
    return {str(p) for p in position.legal_plays(dice)}


def reason(position: Position, dice: tuple[int, int], text: str) -> str:
    with pytest.raises(IllegalPlayError) as e:
        parse_play(position, dice, text)
    return str(e.value)


# LONE_13_VS_8_10
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    1O   .   .   .   .   . | 11X   .   .   .   .   .
#     .   .  2X   .  2X   . |   .   .   .   .   . 14O
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
LONE_13_VS_8_10 = Position.from_id("4P8AZgD/PwAEAA")

# LONE_13_VS_10
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    1O   .   .   .   .   . | 13X   .   .   .   .   .
#     .   .  2X   .   .   . |   .   .   .   .   . 14O
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
LONE_13_VS_10 = Position.from_id("4P8DGAD/PwAEAA")

# LONE_13_VS_7_2_3
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    1O   .   .   .   .   . |  9X   .   .   .   .   .
#     .   .   .   .   .  2X |   .   .   .  2X  2X 14O
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
LONE_13_VS_7_2_3 = Position.from_id("4D8ADBv/PwAEAA")

# LONE_13_VS_2
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    1O   .   .   .   .   . | 13X   .   .   .   .   .
#     .   .   .   .   .   . |   .   .   .   .  2X 14O
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
LONE_13_VS_2 = Position.from_id("4P8DABj/PwAEAA")

# BAR_VS_CLOSED
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#     .   .   .   .   .   . |  2X  2X  2X  2X  2X  2X
#    3X   .   .   .   .   . | 14O   .   .   .   .   .
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O1 X0  off O0 X0
BAR_VS_CLOSED = Position.from_id("27YBBwDg/wcAQA")

# LONE_24_VS_6
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#     .   .   .   .   .   . | 13X   .   .   .   .  1O
#     .   .   .   .   .   . |  2X   .   .   .   . 14O
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
LONE_24_VS_6 = Position.from_id("4P8DgAH/PwAAIA")

# LONE_24_VS_18
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#     .   .   .   .   .  2X | 13X   .   .   .   .  1O
#     .   .   .   .   .   . |   .   .   .   .   . 14O
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
LONE_24_VS_18 = Position.from_id("4P8bAAD/PwAAIA")

# BLOTS_ON_10_AND_5
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    5O   .   .   .  3X   . |  3X   .   .   .   .  2O
#    5X   .  1X   .  3O   . |  5O  1X   .   .   .  2X
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
BLOTS_ON_10_AND_5 = Position.from_id("4Bx8gjDgc/ABMA")

# ONE_ON_BAR
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    5O   .   .   .  3X   . |  5X   .   .   .   .  1O
#    5X   .   .   .  3O   . |  5O   .   .   .   .  2X
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O1 X0  off O0 X0
ONE_ON_BAR = Position.from_id("4HPwATDgc/ABUA")

# TWO_ON_BAR
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#    5O   .   .   .  3X   . |  5X   .   .   .   .   .
#    5X   .   .   .  3O   . |  5O   .   .   .   .  2X
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O2 X0  off O0 X0
TWO_ON_BAR = Position.from_id("4HPwATDgc/ABYA")

# HOME_BUT_9
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#     .   .   .   .   .   . |  5X  5X  5X   .   .   .
#     .   .   .  1O   .   . |  4O  4O  3O  3O   .   .
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
HOME_BUT_9 = Position.from_id("+L4PAADcvUcAAA")

# HOME_BUT_BAR
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#     .   .   .   .  5X   . |  5X   .   .   .   .   .
#    5X   .   .   .   .   . |  4O  4O  3O  3O   .   .
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O1 X0  off O0 X0
HOME_BUT_BAR = Position.from_id("4PPBBwDcvQcAQA")

# BEAROFF_6_5_3
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#     .   .   .   .   .   . |  5X  5X  5X   .   .   .
#     .   .   .   .   .   . |  2O  2O   . 11O   .   .
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
BEAROFF_6_5_3 = Position.from_id("+L4PAAD8nw0AAA")

# BEAROFF_3_2
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#     .   .   .   .   .   . |  5X  5X  5X   .   .   .
#     .   .   .   .   .   . |   .   .   .  2O 13O   .
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
BEAROFF_3_2 = Position.from_id("+L4PAAD+vwEAAA")

# BEAROFF_6_2
#    13  14  15  16  17  18 |  19  20  21  22  23  24
#     .   .   .   .   .   . |  5X  5X  5X   .   .   .
#     .   .   .   .   .   . |  1O   .   .   . 14O   .
#    12  11  10   9   8   7 |   6   5   4   3   2   1
#   bar O0 X0  off O0 X0
BEAROFF_6_2 = Position.from_id("+L4PAAD+fwgAAA")

START = Position.start()


@pytest.mark.skipif(not (SHARED / "rules").is_dir(), reason="shared/rules is not beside the repo")
def test_quotes_are_in_the_rule_texts() -> None:
    """Every quote cited below stands, word for word, in the file it names."""
    assert CITED, "no rule tests registered"
    texts = {}
    for path in sorted((SHARED / "rules").glob("*.txt")):
        texts[path.name[:3]] = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
    assert texts, f"no rule texts found under {SHARED / 'rules'}"
    for name, file, quote in CITED:
        assert quote in texts[file], f"{name}: quote not found in {file}: {quote!r}"


# --- set-up and direction ---------------------------------------------------


@rule(
    "003",
    "The initial arrangement of checkers is: two on each player'due south twenty-four bespeak",
)
def test_starting_position_has_two_five_three_five() -> None:
    for color in (WHITE, BLACK):
        board = START.side(color)
        assert {i: n for i, n in enumerate(board) if n} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert START.pip_count(WHITE) == START.pip_count(BLACK) == 167


@rule("000", "one player's 1st point is the other player's 24th point")
def test_each_players_point_is_the_others_25_minus() -> None:
    assert START.owner_of(WHITE, 1) == (BLACK, 2)  # black's 24 point
    assert START.owner_of(BLACK, 19) == (WHITE, 5)  # white's 6 point


@rule("001", "The checkers are always moved forward, to a lower-numbered point.")
def test_checkers_only_move_forward() -> None:
    for dice in ((3, 1), (6, 6), (5, 2)):
        for play in START.legal_plays(dice):
            assert all(dst < src for src, dst, _ in play.steps)
    with pytest.raises(NotationError, match="goes backwards"):
        parse_play(START, (3, 1), "8/11")


# --- moving -----------------------------------------------------------------


@rule("001", "A checker may be moved only to an open point , one that is not occupied by two")
def test_no_play_lands_on_a_point_held_by_two_opposing_checkers() -> None:
    # Black holds white's 1, 12, 17 and 19 points in the start.
    assert not is_legal(START.legal_plays((5, 1)), "6/1")
    assert "blocked (black has 2 checkers there)" in reason(START, (5, 1), "6/1 8/7")


@rule("001", "but only if the intermediate point either three or five spaces from the starting")
def test_one_checker_with_both_dice_needs_an_open_intermediate_point() -> None:
    # Both 13/10 and 13/8 blocked: 13/5 cannot be played, and nothing else can move.
    plays = LONE_13_VS_8_10.legal_plays((5, 3))
    assert plays.dice_used == 0 and [str(p) for p in plays] == [""]
    # Only 13/10 blocked: 13/8/5 goes through the open 8.
    assert plays_text(LONE_13_VS_10, (5, 3)) == {"13/5"}


@rule("000", "may not even temporarily stop on a blocked point")
def test_doubles_cannot_pass_through_a_blocked_point() -> None:
    # 24/21 is open, 21/18 is blocked: one 3 of four is all white can play.
    plays = LONE_24_VS_18.legal_plays((3, 3))
    assert plays.dice_used == 1
    assert plays_text(LONE_24_VS_18, (3, 3)) == {"24/21"}


@rule("001", "A roll of 6 and 6 means that the player has four sixes to use")
def test_doubles_are_four_moves() -> None:
    plays = START.legal_plays((6, 6))
    assert plays.dice_used == 4
    assert all(len(p.steps) == 4 for p in plays)
    assert is_legal(plays, "24/18(2) 13/7(2)")


@rule("001", "A player must use both numbers of a roll if this is legally possible")
def test_both_dice_must_be_used_when_possible() -> None:
    assert all(len(p.steps) == 2 for p in START.legal_plays((6, 1)))
    assert "both 6 and 1 can be played" in reason(START, (6, 1), "13/7")


@rule("001", "When only one number can be played, the player must play that number.")
def test_when_only_one_number_can_be_played_it_must_be_played() -> None:
    # 13/7 is blocked; 13/8 is open but 8/2 and 8/3 are blocked: only the 5 plays.
    assert plays_text(LONE_13_VS_7_2_3, (6, 5)) == {"13/8"}
    assert "can play 65, e.g. 13/8" in reason(LONE_13_VS_7_2_3, (6, 5), "")


@rule("001", "Or if either number can be played but not both, the player must play the larger one.")
def test_either_but_not_both_means_the_larger() -> None:
    # 13/7 or 13/8 can be played, but 7/2 and 8/2 are blocked: the 6 must be played.
    assert plays_text(LONE_13_VS_2, (6, 5)) == {"13/7"}
    assert "must be the larger (6)" in reason(LONE_13_VS_2, (6, 5), "13/8")


@rule("001", "When neither number can be used, the player loses his turn.")
def test_when_neither_number_can_be_used_the_turn_is_lost() -> None:
    plays = BAR_VS_CLOSED.legal_plays((6, 5))
    assert len(plays) == 1 and plays.dice_used == 0
    assert plays[0].result.side(WHITE) == BAR_VS_CLOSED.white
    assert plays[0].result.turn is BLACK
    assert "no legal play" in reason(BAR_VS_CLOSED, (6, 5), "bar/19")


@rule("001", "when all four numbers cannot be played, the player must play as many numbers as")
def test_doubles_play_as_many_as_possible() -> None:
    # 24/18/12 is open, 12/6 is blocked: two of the four 6s.
    plays = LONE_24_VS_6.legal_plays((6, 6))
    assert plays.dice_used == 2
    assert plays_text(LONE_24_VS_6, (6, 6)) == {"24/12"}
    assert is_legal(plays, "24/12") and not is_legal(plays, "24/18")


# --- hitting and entering -------------------------------------------------


@rule("001", "If an opposing checker lands on a blot, the blot is hit and placed on the bar.")
def test_landing_on_a_blot_hits_it() -> None:
    play = parse_play(BLOTS_ON_10_AND_5, (3, 2), "13/10* 13/11")
    assert play.result.black[BAR] == 1 and play.result.black[15] == 0
    assert play.hits == 1
    assert str(play) == "13/11 13/10*"


@rule("000", "You can hit more than one of your opponents pieces in a turn.")
def test_two_blots_can_be_hit_in_one_turn() -> None:
    play = parse_play(BLOTS_ON_10_AND_5, (3, 1), "13/10 6/5")  # the '*' may be left out
    assert play.result.black[BAR] == 2
    assert str(play) == "13/10* 6/5*"


@rule("003", "If a player is able to enter some but not all of his checkers")
def test_enter_as_many_as_possible_then_forfeit() -> None:
    # Two on the bar; black's 6 point (white's 19) is made, its 4 point (white's 21) is open.
    plays = TWO_ON_BAR.legal_plays((6, 4))
    assert plays_text(TWO_ON_BAR, (6, 4)) == {"bar/21"}
    assert plays.dice_used == 1
    # With 44 both enter, then two more 4s are played.
    assert TWO_ON_BAR.legal_plays((4, 4)).dice_used == 4
    assert all(str(p).startswith("bar/21(2)") for p in TWO_ON_BAR.legal_plays((4, 4)))


@rule("000", "Players with checkers on the bar may not make any other moves on the board until")
def test_checkers_on_the_bar_enter_before_anything_else() -> None:
    for play in ONE_ON_BAR.legal_plays((5, 3)):
        assert play.steps[0][0] == BAR
    assert "must enter first" in reason(ONE_ON_BAR, (5, 3), "13/8 13/10")
    # Written in any order, a play that enters first is fine.
    assert str(parse_play(ONE_ON_BAR, (5, 3), "13/10 bar/20")) == "bar/20 13/10"


@rule("003", "A checker is entered past moving it to an open up point corresponding to one of")
def test_entry_point_matches_a_die() -> None:
    # 64: black's 6 point (white's 19) is closed, so the checker enters on black's 4 (white's 21).
    for play in ONE_ON_BAR.legal_plays((6, 4)):
        assert play.steps[0][:2] == (BAR, 21)


@rule("003", "unused numbers on the dice must exist played, by moving either the checker that")
def test_after_entering_the_other_die_moves_any_checker() -> None:
    texts = plays_text(ONE_ON_BAR, (6, 4))
    assert "bar/15" in texts  # the entered checker moves on
    assert "bar/21 13/7" in texts  # or another checker


# --- bearing off ------------------------------------------------------------


@rule("001", "you cannot bear off any checkers unless all of your checkers are on your home")
def test_no_bearing_off_with_a_checker_outside() -> None:
    assert "still on 9" in reason(HOME_BUT_9, (6, 5), "6/off 5/off")
    # Bringing the last checker home first makes it legal.
    assert is_legal(HOME_BUT_9.legal_plays((6, 5)), "9/3 5/off")


@rule("001", "if one or more of your checkers are on the bar, you cannot bear off any checkers")
def test_no_bearing_off_with_a_checker_on_the_bar() -> None:
    assert "must enter first" in reason(HOME_BUT_BAR, (6, 5), "6/off 5/off")
    assert all(p.steps[0][0] == BAR for p in HOME_BUT_BAR.legal_plays((6, 5)))


@rule("004", "Thus, rolling a 6 permits the player to remove a checker from the six point.")
def test_a_die_bears_off_from_its_own_point() -> None:
    play = parse_play(BEAROFF_6_5_3, (6, 5), "6/off 5/off")
    assert play.result.white[OFF] == 2


@rule("001", "If you roll a number for which there is no checker on the related point")
def test_die_with_empty_point_must_move_from_higher_point() -> None:
    # No checker on 4, but checkers on 5 and 6: a 4 moves one of them, it cannot bear off the 3.
    assert "has a checker on 6" in reason(BEAROFF_6_5_3, (4, 4), "3/off(4)")
    assert is_legal(BEAROFF_6_5_3.legal_plays((4, 4)), "6/2(2) 5/1(2)")


@rule("003", "permitted (and required) to remove a checker from the highest point on which")
def test_larger_die_bears_off_from_the_highest_point() -> None:
    assert plays_text(BEAROFF_3_2, (6, 5)) == {"3/off(2)"}
    # With 22 the checker on 3 cannot get off: 3/1, then a 2 may not bear off from 1 (2 is higher).
    assert "from the highest point" in reason(BEAROFF_3_2, (2, 2), "3/off")


@rule("004", "A player is under no obligation to bear off if he can make an otherwise legal move.")
def test_bearing_off_is_not_compulsory() -> None:
    texts = plays_text(BEAROFF_6_2, (2, 1))
    assert "6/3" in texts  # no checker borne off
    assert "6/5 2/off" in texts


@rule("004", 'If a checker is "hit" during the bearoff process, the player must bring that')
def test_a_hit_checker_must_come_home_before_bearing_off_again() -> None:
    for play in HOME_BUT_BAR.legal_plays((3, 1)):
        assert all(dst != OFF for _, dst, _ in play.steps)


# --- the end of the game and its value --------------------------------------


def _finished(black: dict[int, int]) -> Position:
    b = [0] * 26
    for point, n in black.items():
        b[point] = n
    b[OFF] = 15 - sum(b)
    w = [15] + [0] * 25
    return Position(tuple(w), tuple(b), BLACK)


@rule("004", "The first player to bear off all fifteen checkers will be declared the winner.")
def test_first_to_bear_off_fifteen_wins() -> None:
    assert START.winner() is None and game_result(START) is None
    result = game_result(_finished({6: 3}))
    assert result is not None and result.winner is WHITE


@rule("001", "if the losing player has borne off at least one checker, he loses only the value")
def test_single_game_when_loser_bore_off() -> None:
    result = game_result(_finished({6: 3}))
    assert result is not None and result.kind is ResultType.SINGLE and result.multiplier == 1


@rule("001", "if the loser has not borne off any of his checkers, he is gammoned")
def test_gammon_when_loser_bore_off_none() -> None:
    result = game_result(_finished({6: 10, 8: 5}))
    assert result is not None and result.kind is ResultType.GAMMON and result.multiplier == 2


@rule("002", "still has one or more checkers on the bar or in the winner's home board")
def test_backgammon_with_a_checker_in_the_winners_home_or_on_the_bar() -> None:
    in_home = game_result(_finished({6: 14, 19: 1}))  # black's 19 = white's 6, white's home
    on_bar = game_result(_finished({6: 14, BAR: 1}))
    assert in_home is not None and in_home.kind is ResultType.BACKGAMMON
    assert on_bar is not None and on_bar.kind is ResultType.BACKGAMMON and on_bar.multiplier == 3


# --- the opening roll ---------------------------------------------------------


@rule("004", "The player with a higher roll makes the first move, using that die roll along")
def test_opening_roll_higher_die_moves_with_both() -> None:
    roll = OpeningRoll(white=2, black=5)
    assert roll.first is BLACK and roll.dice == (5, 2)
    position = roll.position()
    assert position is not None and position.turn is BLACK
    assert OpeningRoll(white=6, black=1).dice == (6, 1)


@rule("001", "If equal numbers come up, then both players roll again")
def test_equal_opening_dice_roll_again() -> None:
    roll = OpeningRoll(white=4, black=4)
    assert roll.first is None and roll.dice is None and roll.position() is None
