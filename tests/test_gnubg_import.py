"""GNU Backgammon itself (Debian `gnubg`, batch mode) imports our .mat files; we import its own."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.rules import BLACK, WHITE
from companion.rules.mat import export_mat, import_mat
from companion.rules.match import Match, MatchRules
from companion.rules.sample import random_actions
from tests import gnubg_cli

pytestmark = pytest.mark.skipif(
    not gnubg_cli.available(), reason="GNU Backgammon is installed by `make test` (apt gnubg)"
)


@pytest.mark.parametrize(("seed", "length"), [(1, 3), (2, 5), (3, 7), (4, 11)])
def test_gnubg_imports_our_match_with_the_same_games_and_score(
    tmp_path: Path, seed: int, length: int
) -> None:
    match = Match(MatchRules(length=length, white="Ann", black="Bob"))
    for _ in random_actions(random.Random(seed), match):
        pass
    assert match.over
    path = tmp_path / "match.mat"
    path.write_text(export_mat(match), encoding="utf-8")
    report = gnubg_cli.import_report(path)
    assert report.warnings == []
    assert report.length == length
    assert report.games == len([g for g in match.games if g.slots])
    assert report.scores == {"Ann": match.score[WHITE], "Bob": match.score[BLACK]}


def test_an_unfinished_match_imports_too(tmp_path: Path) -> None:
    match = Match(MatchRules(length=9, white="Ann", black="Bob"))
    for i, _ in enumerate(random_actions(random.Random(9), match)):
        if len(match.games) == 3 and i > 10 and match.game.slots:
            break
    path = tmp_path / "unfinished.mat"
    path.write_text(export_mat(match), encoding="utf-8")
    report = gnubg_cli.import_report(path)
    assert report.warnings == []
    assert report.scores == {"Ann": match.score[WHITE], "Bob": match.score[BLACK]}


def test_we_import_a_match_gnubg_just_played_and_exported(tmp_path: Path) -> None:
    path = tmp_path / "selfplay.mat"
    gnubg_cli.self_play_match(length=5, seed=11, out=path)
    rules, actions = import_mat(path.read_text(encoding="utf-8"))
    match = Match(rules)
    for action in actions:
        match.apply(action)
    report = gnubg_cli.import_report(path)
    assert match.over
    assert report.scores == {rules.white: match.score[WHITE], rules.black: match.score[BLACK]}
    assert report.games == len(match.games)


def test_the_oracle_notices_a_bad_file(tmp_path: Path) -> None:
    """The warning check above can fail: an impossible move makes GNU Backgammon warn."""
    path = tmp_path / "bad.mat"
    path.write_text(
        " 3 point match\n\n Game 1\n Bob : 0                        Ann : 0\n"
        "  1)                             31: 7/4 6/5\n",
        encoding="utf-8",
    )
    assert gnubg_cli.import_report(path).warnings != []
