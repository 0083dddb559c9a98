"""Property tests over random reachable positions (seeded random legal games)."""

from __future__ import annotations

import functools
import random

from hypothesis import given
from hypothesis import strategies as st

from companion.rules import (
    BAR,
    OFF,
    GameState,
    MatchInfo,
    Position,
    match_from_id,
    match_id,
    parse_xgid,
    position_from_id,
    position_id,
    xgid,
)
from companion.rules.notation import find_play
from companion.rules.position import BLACK, WHITE, Color
from companion.rules.sample import random_game
from tests.rules.reference import reference_plays

dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))


@functools.cache
def _game(seed: int) -> list[Position]:
    return [turn.position for turn in random_game(random.Random(seed))]


@st.composite
def reachable(draw: st.DrawFn) -> Position:
    """A position from one of 400 seeded random legal games, at a random turn."""
    positions = _game(draw(st.integers(0, 399)))
    return positions[draw(st.integers(0, len(positions) - 1))]


@given(reachable(), dice_st)
def test_every_play_keeps_15_checkers_a_side_and_a_possible_board(
    position: Position, dice: tuple[int, int]
) -> None:
    for play in position.legal_plays(dice):
        assert play.result.status() == []
        assert sum(play.result.white) == sum(play.result.black) == 15


@given(reachable(), dice_st)
def test_the_fast_generator_agrees_with_a_brute_force_one(
    position: Position, dice: tuple[int, int]
) -> None:
    me, them = position.turn, position.turn.opponent
    ours = {(p.result.side(me), p.result.side(them)) for p in position.legal_plays(dice)}
    assert ours == reference_plays(position.mover, position.opponent, dice)[0]


@given(reachable(), dice_st)
def test_every_play_uses_the_most_dice_possible(position: Position, dice: tuple[int, int]) -> None:
    plays = position.legal_plays(dice)
    assert {len(p.steps) for p in plays} == {plays.dice_used}
    _, most = reference_plays(position.mover, position.opponent, dice)
    assert plays.dice_used == most <= (4 if dice[0] == dice[1] else 2)


@given(reachable(), dice_st.filter(lambda d: d[0] != d[1]))
def test_one_die_playable_means_the_larger_when_possible(
    position: Position, dice: tuple[int, int]
) -> None:
    plays = position.legal_plays(dice)
    if plays.dice_used != 1:
        return
    big, small = max(dice), min(dice)
    big_alone = position.legal_plays((big, big)).dice_used >= 1
    for play in plays:
        ((src, dst, _),) = play.steps
        moved = src - dst
        if big_alone:
            # The larger die was played: exact distance, or a bear-off from the highest point.
            assert moved == big or (dst == OFF and moved < big)
        else:
            assert moved == small or (dst == OFF and moved < small)


@given(reachable(), dice_st)
def test_no_checker_moves_backwards_and_pips_add_up(
    position: Position, dice: tuple[int, int]
) -> None:
    me, them = position.turn, position.turn.opponent
    total = sum(dice) * (2 if dice[0] == dice[1] else 1)
    for play in position.legal_plays(dice):
        assert all(dst < src for src, dst, _ in play.steps)
        moved = position.pip_count(me) - play.result.pip_count(me)
        assert 0 <= moved <= total
        assert moved == sum(src - dst for src, dst, _ in play.steps)
        hit_pips = play.result.pip_count(them) - position.pip_count(them)
        assert hit_pips >= 0 and (hit_pips > 0) == (play.hits > 0)
        assert play.result.side(them)[BAR] - position.side(them)[BAR] == play.hits


@given(reachable(), dice_st)
def test_notation_round_trips(position: Position, dice: tuple[int, int]) -> None:
    plays = position.legal_plays(dice)
    for play in plays:
        again = find_play(plays, str(play))
        assert again.result == play.result, str(play)


@given(reachable())
def test_position_id_round_trips(position: Position) -> None:
    assert position_from_id(position_id(position), position.turn) == position


colors = st.sampled_from([WHITE, BLACK])


@st.composite
def match_infos(draw: st.DrawFn, turn: Color) -> MatchInfo:
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 9, 11, 15, 25]))
    offered = draw(st.booleans())
    return MatchInfo(
        match_length=length,
        score_white=draw(st.integers(0, max(0, length - 1))),
        score_black=draw(st.integers(0, max(0, length - 1))),
        cube_value=1 << draw(st.integers(0, 12)),
        cube_owner=draw(st.none() | colors),
        on_roll=turn,
        to_act=turn.opponent if offered else None,
        double_offered=offered,
        dice=None if offered else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
        crawford=bool(length) and draw(st.booleans()),
        jacoby=not length and draw(st.booleans()),
        beavers=not length and draw(st.booleans()),
        game_state=GameState.PLAYING,
    )


@given(reachable(), st.data())
def test_xgid_round_trips(position: Position, data: st.DataObject) -> None:
    info = data.draw(match_infos(position.turn))
    assert parse_xgid(xgid(position, info)) == (position, info)


@given(st.data())
def test_match_id_round_trips(data: st.DataObject) -> None:
    info = data.draw(match_infos(data.draw(colors)))
    back = match_from_id(match_id(info))
    expected_dice = tuple(sorted(info.dice, reverse=True)) if info.dice else None
    assert back.dice == expected_dice
    assert (back.score_white, back.score_black, back.cube_value, back.cube_owner) == (
        info.score_white,
        info.score_black,
        info.cube_value,
        info.cube_owner,
    )
    assert (back.on_roll, back.acting, back.double_offered, back.crawford) == (
        info.on_roll,
        info.acting,
        info.double_offered,
        info.crawford,
    )
