"""The cube, scoring, Crawford, money options and irregularities, with worked examples."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import BLACK, WHITE, Position
from companion.rules.ids import match_id
from companion.rules.match import Match, MatchError, MatchRules, Phase, match_info
from companion.rules.sample import random_actions
from tests.rules.test_rule_texts import rule

# each example plays a whole match: a third of the profile's examples (50 by default)
WHOLE_MATCHES = settings(max_examples=max(10, settings.default.max_examples // 3))


def play_out(match: Match, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for action in actions:
        events.extend(match.apply(action))
    return events


def opening(white: int = 3, black: int = 1) -> dict[str, Any]:
    return {"type": "opening", "white": white, "black": black}


# Last checkers: white has one checker on its 1 point, black none borne off
# (15 on its 6 point) or some borne off. Used to end games quickly.
def near_end(match: Match, black: list[int]) -> None:
    white = [14, 1] + [0] * 24
    match.position = Position(tuple(white), tuple(black), WHITE)
    match.phase = Phase.ROLL


BLACK_NONE_OFF = [0] * 6 + [15] + [0] * 19  # all on black's 6 point: gammon
BLACK_SOME_OFF = [1] * 1 + [0] * 5 + [14] + [0] * 19  # one borne off: single
BLACK_IN_WHITE_HOME = [0] * 6 + [14] + [0] * 13 + [1] + [0] * 5  # one on black's 20 (white's 5)


def test_the_cube_starts_centred_at_1() -> None:
    match = Match(MatchRules(length=5))
    assert match.cube == 1 and match.cube_owner is None
    assert match.allowed() == ["opening"]


@rule("001", "He may do this only at the start of his own turn and before he has rolled the dice.")
def test_double_only_before_rolling_on_ones_own_turn() -> None:
    match = Match(MatchRules(length=5))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
    assert match.on_roll is BLACK and "double" in match.allowed()
    play_out(match, {"type": "roll", "dice": [6, 4]})
    with pytest.raises(MatchError, match="cannot double: a double is offered only before rolling"):
        match.apply({"type": "double"})


@rule("001", "A player who accepts a double becomes the owner of the cube and only he may make")
def test_take_gives_the_cube_and_only_the_owner_redoubles() -> None:
    match = Match(MatchRules(length=9))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"}, {"type": "double"})
    play_out(match, {"type": "take"})
    assert match.cube == 2 and match.cube_owner is WHITE
    play_out(match, {"type": "roll", "dice": [6, 4]}, {"type": "play", "play": "24/14"})
    assert "double" in match.allowed()  # white owns it: may redouble
    play_out(match, {"type": "double"}, {"type": "take"})
    assert match.cube == 4 and match.cube_owner is BLACK
    # White, who doubled, now rolls; black owns the cube.
    assert match.on_roll is WHITE and "double" not in match.allowed()
    with pytest.raises(MatchError, match="black owns the cube"):
        match.apply({"type": "double"})


@rule("001", "If a player refuses a redouble, he must pay the number of points that were at stake")
def test_a_pass_pays_the_value_before_the_redouble() -> None:
    match = Match(MatchRules(length=0))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"}, {"type": "double"})
    play_out(
        match, {"type": "take"}, {"type": "roll", "dice": [6, 4]}, {"type": "play", "play": "24/14"}
    )
    events = play_out(match, {"type": "double"}, {"type": "drop"})
    over = events[-1]
    assert over["type"] == "game_over" and over["winner"] == WHITE and over["points"] == 2
    assert match.score == {WHITE: 2, BLACK: 0}


@rule("001", "There is no limit to the number of redoubles in a game.")
def test_redoubles_go_past_64() -> None:
    match = Match(MatchRules(length=0))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
    for _ in range(8):
        play_out(match, {"type": "double"}, {"type": "take"})
        dice = match.position.legal_plays((1, 2))
        play_out(match, {"type": "roll", "dice": [1, 2]}, {"type": "play", "play": str(dice[0])})
    assert match.cube == 256


@rule("004", "winning the 1st game with a Gammon in a 5pt match with the final doubling cube")
def test_five_point_match_gammon_with_cube_2_scores_4() -> None:
    match = Match(MatchRules(length=5))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"}, {"type": "double"})
    play_out(match, {"type": "take"})
    near_end(match, BLACK_NONE_OFF)
    match.cube, match.cube_owner = 2, WHITE  # as after black's double and white's take
    events = play_out(match, {"type": "roll", "dice": [2, 1]}, {"type": "play", "play": "1/off"})
    assert events[-1] == {
        "type": "game_over",
        "winner": WHITE,
        "points": 4,
        "result": "gammon",
        "score": {"white": 4, "black": 0},
    }
    assert match.score[WHITE] == 4 and match.game.number == 2


@rule("002", "the opponent loses a backgammon and loses triple the current stakes")
def test_backgammon_is_three_times_the_cube() -> None:
    match = Match(MatchRules(length=0))
    match.apply(opening(3, 1))
    match.apply({"type": "play", "play": "8/5 6/5"})
    near_end(match, BLACK_IN_WHITE_HOME)
    events = play_out(match, {"type": "roll", "dice": [2, 1]}, {"type": "play", "play": "1/off"})
    assert events[-1]["points"] == 3 and events[-1]["result"] == "backgammon"


def test_single_game_pays_the_cube() -> None:
    match = Match(MatchRules(length=0))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
    near_end(match, BLACK_SOME_OFF)
    events = play_out(match, {"type": "roll", "dice": [2, 1]}, {"type": "play", "play": "1/off"})
    assert events[-1]["points"] == 1 and events[-1]["result"] == "single"


@rule("000", "Gammons and backgammons count only as a single game if neither player has offered")
def test_jacoby_counts_gammons_single_while_the_cube_is_centred() -> None:
    for jacoby, expected in ((True, 1), (False, 2)):
        match = Match(MatchRules(length=0, jacoby=jacoby))
        play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
        near_end(match, BLACK_NONE_OFF)
        events = play_out(
            match, {"type": "roll", "dice": [2, 1]}, {"type": "play", "play": "1/off"}
        )
        assert events[-1]["points"] == expected


@rule("000", "If identical numbers are thrown on the first roll, the stakes are doubled.")
def test_automatic_doubles_up_to_the_limit() -> None:
    match = Match(MatchRules(length=0, auto_doubles=1))
    match.apply(opening(4, 4))
    assert match.cube == 2 and match.cube_owner is None and match.phase == Phase.OPENING
    match.apply(opening(2, 2))
    assert match.cube == 2  # the limit: one automatic double a game
    match.apply(opening(5, 2))
    assert match.on_roll is WHITE and match.dice == (5, 2)


@rule("000", "When a player is doubled, he may immediately redouble beaver while retaining")
def test_beaver_keeps_the_cube_and_the_doubler_answers() -> None:
    match = Match(MatchRules(length=0, beavers=True))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"}, {"type": "double"})
    assert "beaver" in match.allowed()
    play_out(match, {"type": "beaver"})
    assert match.phase == Phase.BEAVERED and match.acting is BLACK
    play_out(match, {"type": "take"})
    assert match.cube == 4 and match.cube_owner is WHITE and match.acting is BLACK
    # Refusing a beaver pays the doubled stake.
    other = Match(MatchRules(length=0, beavers=True))
    play_out(other, opening(3, 1), {"type": "play", "play": "8/5 6/5"}, {"type": "double"})
    events = play_out(other, {"type": "beaver"}, {"type": "drop"})
    assert events[-1]["winner"] == WHITE and events[-1]["points"] == 2


def test_beavers_only_when_agreed() -> None:
    match = Match(MatchRules(length=0))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"}, {"type": "double"})
    with pytest.raises(MatchError, match="cannot beaver now"):
        match.apply({"type": "beaver"})


def test_money_options_are_refused_in_a_match() -> None:
    with pytest.raises(MatchError, match="money play"):
        MatchRules(length=7, jacoby=True)


def _to_crawford() -> Match:
    match = Match(MatchRules(length=3))
    play_out(
        match,
        opening(3, 1),
        {"type": "play", "play": "8/5 6/5"},
        {"type": "double"},
        {"type": "drop"},
    )  # black doubles, white passes: black 1
    play_out(
        match,
        opening(3, 1),
        {"type": "play", "play": "8/5 6/5"},
        {"type": "double"},
        {"type": "drop"},
    )  # black 2 of 3: the next game is the Crawford game
    return match


@rule("004", "Crawford Rule")
def test_no_doubling_in_the_crawford_game_then_post_crawford() -> None:
    match = _to_crawford()
    assert match.score == {WHITE: 0, BLACK: 2} and match.crawford
    assert match_id(match_info(match))  # encodes
    assert match_info(match).crawford
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
    assert "double" not in match.allowed()
    with pytest.raises(MatchError, match="cannot double: no doubling in the Crawford game"):
        match.apply({"type": "double"})
    play_out(match, {"type": "resign", "level": 1}, {"type": "accept"})  # black resigns
    assert match.score == {WHITE: 1, BLACK: 2}
    assert not match.crawford and match.post_crawford
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
    assert "double" in match.allowed()


def test_the_match_ends_at_the_length() -> None:
    match = _to_crawford()
    play_out(match, opening(1, 3), {"type": "play", "play": "8/5 6/5"})
    events = play_out(match, {"type": "resign", "level": 2}, {"type": "accept"})
    assert [e["type"] for e in events[-2:]] == ["game_over", "match_over"]
    assert match.winner is BLACK and match.over and match.allowed() == []
    with pytest.raises(MatchError, match="the match is over"):
        match.apply({"type": "roll", "dice": [3, 1]})


def test_resignation_rejected_play_goes_on() -> None:
    match = Match(MatchRules(length=5))
    play_out(
        match, opening(3, 1), {"type": "play", "play": "8/5 6/5"}, {"type": "roll", "dice": [6, 4]}
    )
    play_out(match, {"type": "resign", "level": 3})
    assert match.acting is WHITE and match.allowed() == ["accept", "reject"]
    play_out(match, {"type": "reject"})
    assert match.phase == Phase.MOVE and match.dice == (6, 4)


@rule("000", "He shall be deemed to have thrown the dice even if he rolls cocked dice.")
def test_after_a_cocked_roll_no_double() -> None:
    match = Match(MatchRules(length=5))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
    play_out(match, {"type": "roll", "dice": [6, 4]}, {"type": "reroll", "reasons": ["cocked"]})
    assert match.phase == Phase.ROLL and "double" not in match.allowed()


@rule("003", "If a player rolls before his opponent has completed his plough past picking upward")
def test_an_early_roll_is_void_and_the_double_stays_open() -> None:
    match = Match(MatchRules(length=5))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
    play_out(match, {"type": "roll", "dice": [6, 4]}, {"type": "reroll", "reasons": ["early"]})
    assert match.phase == Phase.ROLL and "double" in match.allowed()


def _illegal(match: Match) -> Position:
    """White rolled 31 and played 8/4 6/5 (one pip too many): returns the position left."""
    play_out(match, opening(3, 1))
    bad = list(match.position.white)
    bad[8], bad[4], bad[6], bad[5] = 2, 1, 4, 1
    observed = Position(tuple(bad), match.position.black, BLACK)
    play_out(match, {"type": "illegal_play", "position": observed.to_json(), "play": "8/4 6/5"})
    return observed


@rule("000", "the opponent has the option of accepting the play as made or of requiring the player")
def test_illegal_play_accept_or_require_a_legal_play() -> None:
    match = Match(MatchRules(length=5))
    observed = _illegal(match)
    assert match.phase == Phase.ILLEGAL and match.acting is BLACK
    play_out(match, {"type": "reject"})
    assert (
        match.phase == Phase.MOVE and match.on_roll is WHITE and match.position == Position.start()
    )
    play_out(match, {"type": "illegal_play", "position": observed.to_json()}, {"type": "accept"})
    assert match.position.white == observed.white and match.on_roll is BLACK
    # The .mat record gets steps that lead to the position left (8/5 6/4 = 8/4 6/5).
    assert match.game.slots[-1] == (WHITE, "31: 8/5 6/4")


@rule("000", "A play is deemed to have been accepted as made when the opponent rolls his dice")
def test_rolling_or_doubling_accepts_an_illegal_play() -> None:
    for action in ({"type": "roll", "dice": [5, 2]}, {"type": "double"}):
        match = Match(MatchRules(length=5))
        observed = _illegal(match)
        match.apply(action)
        assert match.position.white == observed.white
        assert match.phase in (Phase.MOVE, Phase.DOUBLED)


def test_a_correction_sets_the_board() -> None:
    match = Match(MatchRules(length=5))
    play_out(match, opening(3, 1), {"type": "play", "play": "8/5 6/5"})
    fixed = Position.start().to_json()
    play_out(match, {"type": "correction", "position": fixed, "note": "camera misread"})
    assert match.position == Position.start(BLACK)
    with pytest.raises(MatchError, match="impossible"):
        match.apply(
            {"type": "correction", "position": {"white": [16] + [0] * 25, "black": fixed["black"]}}
        )


def test_a_correction_sets_the_dice_of_a_roll_misread_but_never_the_opening_roll() -> None:
    match = Match(MatchRules(length=5))
    play_out(match, opening(3, 1))
    with pytest.raises(MatchError, match="only while a roll is to be played"):
        match.apply({"type": "correction", "dice": [4, 1]})  # the opening roll's dice
    play_out(match, {"type": "play", "play": "8/5 6/5"}, {"type": "roll", "dice": [5, 5]})
    done = match.apply({"type": "correction", "dice": [5, 2], "note": "a 2 read as a 5"})
    assert done[0]["dice"] == [5, 2] and match.dice == (5, 2)
    assert match.position.black == Position.start().black  # the board stays as it was
    play_out(match, {"type": "play", "play": "13/8 13/11"})
    assert match.game.slots[-1][1].startswith("52:")  # the .mat gets the dice as they fell
    with pytest.raises(MatchError, match="only while a roll is to be played"):
        match.apply({"type": "correction", "dice": [6, 6]})  # white has not rolled yet


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "take"}, "cannot take now"),
        ({"type": "roll", "dice": [3, 1]}, "cannot roll now: waiting for the opening roll"),
        ({"type": "frobnicate"}, "unknown action"),
        ({"type": "opening", "white": 7, "black": 1}, "not a number from 1 to 6"),
    ],
)
def test_illegal_actions_say_why_and_change_nothing(action: dict[str, Any], message: str) -> None:
    match = Match(MatchRules(length=5))
    before = match.summary()
    with pytest.raises(Exception, match=message):
        match.apply(action)
    assert match.summary() == before


@WHOLE_MATCHES
@given(st.integers(0, 100_000), st.sampled_from([0, 1, 3, 5, 9]), st.booleans())
def test_random_legal_actions_keep_the_score_consistent(
    seed: int, length: int, options: bool
) -> None:
    """The score is always the sum of the games' results; the cube and Crawford stay lawful."""
    money = length == 0
    rules = MatchRules(
        length=length,
        jacoby=money and options,
        beavers=money and options,
        auto_doubles=2 if money and options else 0,
    )
    match = Match(rules)
    for i, _ in enumerate(random_actions(random.Random(seed), match)):
        finished = [g for g in match.games if g.winner is not None]
        for color in (WHITE, BLACK):
            assert match.score[color] == sum(g.points for g in finished if g.winner is color)
        assert match.cube >= 1 and match.cube & (match.cube - 1) == 0
        if match.crawford:
            assert "double" not in match.allowed() and match.cube_owner is None
        if money and i > 400:
            break
    if length:
        assert match.over and match.winner is not None
        assert match.score[match.winner] >= length
        assert max(match.score.values()) - max(g.points for g in match.games if g.winner) < length
        crawfords = [g for g in match.games if g.crawford]
        assert len(crawfords) <= 1


def test_a_void_opening_roll_is_rolled_again_one_die_each() -> None:
    match = Match(MatchRules(length=5))
    play_out(match, opening(5, 2), {"type": "reroll", "reasons": ["cocked"]})
    assert match.phase == Phase.OPENING and match.allowed() == ["opening"] and match.dice is None
    play_out(match, opening(1, 6))
    assert match.on_roll is BLACK and match.dice == (6, 1)
    # Later in the game a reroll is an ordinary one: the same player rolls two dice.
    play_out(
        match,
        {"type": "play", "play": "13/7 8/7"},
        {"type": "roll", "dice": [3, 1]},
        {"type": "reroll", "reasons": ["wrong_section"]},
    )
    assert match.phase == Phase.ROLL and match.on_roll is WHITE


def test_a_bad_roll_does_not_accept_a_pending_illegal_play() -> None:
    match = Match(MatchRules(length=5))
    _illegal(match)
    before = match.summary()
    with pytest.raises(Exception, match="not a number from 1 to 6"):
        match.apply({"type": "roll", "dice": [7, 1]})
    assert match.summary() == before and match.phase == Phase.ILLEGAL
