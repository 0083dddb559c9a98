"""Cross-checks against GNU Backgammon itself (PyPI `gnubg`, a test-time oracle only).

Move counts, Position IDs, and the GNUbg IDs GNU Backgammon derives from our XGIDs,
over seeded random positions from whole games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.rules import GameState, MatchInfo, Position, gnubg_id, parse_xgid, position_id, xgid
from companion.rules.notation import find_play
from companion.rules.position import BLACK, WHITE
from companion.rules.sample import random_positions

gnubg: Any = pytest.importorskip("gnubg", reason="install the dev extras: pip install -e '.[dev]'")

POSITIONS = random_positions(seed=2026, count=250)
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def gnubg_board(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """GNU Backgammon's board: (side not on roll, side on roll), points 1-24 then the bar."""
    return tuple(position.opponent[1:26]), tuple(position.mover[1:26])


def gnubg_play_count(position: Position, dice: tuple[int, int]) -> int:
    moves = gnubg.find_best_moves(
        gnubg_board(position), gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 0, 0, 0), dice
    )
    return max(1, len(moves))  # GNU Backgammon lists no move where we list the empty play


def test_the_oracle_is_really_gnubg() -> None:
    assert gnubg.position_id(gnubg_board(Position.start())) == "4HPwATDgc/ABMA"
    assert gnubg_play_count(Position.start(), (3, 1)) == 16


def test_play_counts_agree_with_gnubg_for_every_roll() -> None:
    mismatches = []
    for position in POSITIONS[:120]:
        for dice in ROLLS:
            ours, theirs = len(position.legal_plays(dice)), gnubg_play_count(position, dice)
            if ours != theirs:
                mismatches.append((position_id(position), dice, ours, theirs))
    assert mismatches == []


def test_resulting_positions_agree_with_gnubg() -> None:
    """Not just the count: the set of resulting Position IDs is GNU Backgammon's.

    Only for rolls that bear nothing off: the binding's move tuples stop at the
    first checker borne off (it writes (2,) for 2/off(2)), so its text for such
    plays is incomplete. Counts are compared everywhere above.
    """
    checked = 0
    for position in POSITIONS[120:250]:
        for dice in ((6, 5), (3, 3), (2, 1), (4, 4)):
            if any(dst == 0 for p in position.legal_plays(dice) for _, dst, _ in p.steps):
                continue
            checked += 1
            board = gnubg_board(position)
            plays = position.legal_plays(dice)
            theirs = set()
            for move in gnubg.find_best_moves(
                board, gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 0, 0, 0), dice
            ):
                text = gnubg.move_tuple_to_string(move["move"], board)
                ours = find_play(plays, text)  # gnubg's own notation parses
                theirs.add(position_id(ours.result))
            if plays.dice_used:
                assert {position_id(p.result) for p in plays} == theirs
    assert checked >= 300


def test_position_ids_agree_with_gnubg() -> None:
    for position in POSITIONS:
        assert position_id(position) == gnubg.position_id(gnubg_board(position))
        assert Position.from_id(gnubg.position_id(gnubg_board(position)), position.turn) == position


def test_gnubg_reads_our_xgids_as_we_do() -> None:
    rng = random.Random(7)
    for position in POSITIONS[:80]:
        length = rng.choice([0, 0, 3, 5, 7, 11])
        info = MatchInfo(
            match_length=length,
            score_white=rng.randrange(length) if length else 0,
            score_black=rng.randrange(length) if length else 0,
            cube_value=rng.choice([1, 2, 4, 8, 64]),
            on_roll=position.turn,
            dice=rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))]),
            game_state=GameState.PLAYING,
            jacoby=length == 0 and rng.random() < 0.5,
        )
        if info.cube_value > 1:
            info = MatchInfo(**{**info.__dict__, "cube_owner": rng.choice([WHITE, BLACK])})
        text = xgid(position, info)
        gnubg.set_gnubg_id(text)
        assert gnubg.gnubg_id() == gnubg_id(position, info), text
        assert parse_xgid(text) == (position, info)
