"""The .mat format: export, strict import, round trips, and GNU Backgammon's own files."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import BLACK, WHITE
from companion.rules.mat import MatError, export_mat, import_mat
from companion.rules.match import Match, MatchRules
from companion.rules.sample import random_actions
from tests.conftest import DATA

# each example plays a whole match: a third of the profile's examples (50 by default)
WHOLE_MATCHES = settings(max_examples=max(10, settings.default.max_examples // 3))


def replay(text: str) -> Match:
    """The match a file records; a match still in play is accepted (see the cut-short tests)."""
    rules, actions = import_mat(text, unfinished=True)
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


@WHOLE_MATCHES
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


def cut_after(text: str, marker: str) -> str:
    """The file cut on the line boundary after the first line holding `marker`."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if marker in line)
    return "".join(lines[: at + 1])


def test_a_file_cut_short_on_a_line_boundary_is_refused() -> None:
    """Each cut was a valid, shorter match: imported silently as if it had been played so."""
    text = (DATA / "gnubg_selfplay_7.mat").read_text(encoding="utf-8")
    assert replay(text).over  # the whole file
    with pytest.raises(MatError, match="game 1 has no result: the file may have been cut short"):
        import_mat(cut_after(text, "  4) 11:"))
    with pytest.raises(MatError, match=r"the 7-point match is not over \(score .* after game 1\)"):
        import_mat(cut_after(text, "Wins"))
    with pytest.raises(MatError, match="game 2 has no moves"):
        import_mat(
            cut_after(text, " Game 2")[:-1] + "\n" + text.split(" Game 2\n")[1].split("\n")[0]
        )
    # Accepted as a match still in play when asked for.
    assert not replay(cut_after(text, "  4) 11:")).over


@pytest.mark.parametrize(
    ("double", "message"),
    [
        ("Doubles => *", "expected 'Doubles => N'"),
        ("Doubles => 4", "the cube is at 1, so a double turns it to 2"),
        ("Doubles => 2x", "expected 'Doubles => N'"),
    ],
)
def test_a_double_names_the_cube_it_turns(double: str, message: str) -> None:
    text = export_mat(black_wins_by_drops(2))
    assert "  2)  Doubles => 2                Drops" in text
    replay(text.replace("  2)  Doubles => 2 ", "  2)  Double       "))  # bare "Double" reads
    with pytest.raises(MatError, match=message):
        replay(text.replace("  2)  Doubles => 2 ", f"  2)  {double:<13}", 1))


@pytest.mark.parametrize("digits", ["\uff13\uff11", "\u0663\u0661"])
def test_plays_and_scores_take_ascii_digits_only(digits: str) -> None:
    text = export_mat(black_wins_by_drops(2))
    with pytest.raises(MatError, match="cannot read"):
        replay(text.replace("31: 8/5 6/5", f"{digits}: 8/5 6/5", 1))
    with pytest.raises(MatError, match="expected the match header"):
        replay(text.replace(" 3 point match", f" {digits[0]} point match"))
