"""The .mat format: export, strict import, round trips, and GNU Backgammon's own files."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import BLACK, WHITE
from companion.rules.mat import MatError, export_mat, import_mat
from companion.rules.match import Match, MatchRules
from companion.rules.sample import random_actions
from tests.conftest import DATA


def replay(text: str) -> Match:
    rules, actions = import_mat(text)
    match = Match(rules)
    for action in actions:
        match.apply(action)
    return match


def random_match(seed: int, rules: MatchRules) -> Match:
    match = Match(rules)
    for _ in random_actions(random.Random(seed), match):
        if len(match.games) > 12:
            break
    return match


def results(match: Match) -> list[tuple[object, int, str]]:
    return [(g.winner, g.points, g.how) for g in match.games if g.winner]


@given(st.integers(0, 10_000), st.sampled_from([1, 3, 5, 7]))
def test_export_then_import_gives_the_same_match(seed: int, length: int) -> None:
    match = random_match(seed, MatchRules(length=length, white="Ann", black="Bob"))
    again = replay(export_mat(match))
    assert again.rules == match.rules
    assert again.score == match.score
    assert results(again) == results(match)
    assert [g.crawford for g in again.games] == [g.crawford for g in match.games]
    assert again.position == match.position
    assert export_mat(again) == export_mat(match)


def test_money_session_with_options_round_trips() -> None:
    rules = MatchRules(length=0, jacoby=True, beavers=True)
    match = random_match(3, rules)
    text = export_mat(match)
    assert " 0 point match" in text and '; [Jacoby "On"]' in text and '; [Beaver "On"]' in text
    again = replay(text)
    assert again.rules.jacoby and again.rules.beavers and again.score == match.score


def black_wins_by_drops(games: int) -> Match:
    """Ann (white) opens 31 with 8/5 6/5; Bob (black) doubles, Ann drops; `games` times."""
    match = Match(MatchRules(length=3, white="Ann", black="Bob"))
    for _ in range(games):
        for action in (
            {"type": "opening", "white": 3, "black": 1},
            {"type": "play", "play": "8/5 6/5"},
            {"type": "double"},
            {"type": "drop"},
        ):
            match.apply(action)
    return match


def test_the_layout_is_gnubgs() -> None:
    match = black_wins_by_drops(1)
    lines = export_mat(match).splitlines()
    assert " 3 point match" in lines
    assert " Game 1" in lines
    assert " Bob : 0                        Ann : 0" in lines
    assert "  1)                             31: 8/5 6/5" in lines
    assert "  2)  Doubles => 2                Drops" in lines
    assert "      Wins 1 point" in lines


def test_gnubgs_own_export_imports() -> None:
    """A 7-point match GNU Backgammon 1.07 played against itself and exported."""
    text = (DATA / "gnubg_selfplay_7.mat").read_text(encoding="utf-8")
    match = replay(text)
    assert match.rules.length == 7 and match.rules.black == "gnubg" and match.rules.white == "root"
    assert match.over and match.score == {WHITE: 7, BLACK: 2} and len(match.games) == 4


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace(" 3 point match", " three point match"), "expected the match header"),
        (lambda t: t.replace("31: 8/5 6/5", "31: 8/4 6/5"), "game 1, line"),
        (lambda t: t.replace("Wins 1 point", "Wins 2 points"), "'Wins 2' but the game ended"),
        (lambda t: t.replace(" Bob : 1", " Bob : 2"), "header says 2-0"),
        (lambda t: t.replace("31: 8/5 6/5", "33: 8/5 6/5"), "cannot be an opening roll"),
        (lambda t: t.replace("  2)  Doubles => 2", "  2)  Frobs => 2"), "cannot read"),
    ],
)
def test_bad_files_are_refused_with_the_place(edit: object, message: str) -> None:
    text = export_mat(black_wins_by_drops(2))
    replay(text)  # the unedited file is fine
    with pytest.raises(MatError, match=message):
        replay(edit(text))  # type: ignore[operator]


def test_a_wins_line_in_play_is_a_resignation() -> None:
    text = """ 5 point match

 Game 1
 Bob : 0                        Ann : 0
  1)                             31: 8/5 6/5
  2) 64: 24/18 13/9
                                  Wins 2 points
"""
    match = replay(text)
    assert results(match) == [(WHITE, 2, "resign")]
    assert match.score == {WHITE: 2, BLACK: 0}


def test_an_empty_play_is_a_roll_that_could_not_be_played() -> None:
    """GNU Backgammon writes "11:" with nothing after it when the roll cannot be played."""
    text = (DATA / "gnubg_selfplay_7.mat").read_text(encoding="utf-8")
    assert "  4) 11:                          Doubles => 2" in text
    _, actions = import_mat(text)
    empty = [a for a in actions if a["type"] == "play" and a["play"] == ""]
    assert len(empty) >= 10
