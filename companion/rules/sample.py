"""Random legal games: seeded sources of reachable positions for tests, benchmarks and renders."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from companion.rules.game import OpeningRoll
from companion.rules.match import Action, Match, Phase
from companion.rules.position import Play, Position


@dataclass(frozen=True)
class Turn:
    """One turn of a game: the position before it, the roll and the play chosen."""

    position: Position
    dice: tuple[int, int]
    play: Play


def roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def random_game(rng: random.Random, max_turns: int = 1000) -> Iterator[Turn]:
    """A whole game with uniformly random legal plays, from the opening roll to the end."""
    opening = OpeningRoll(*roll(rng))
    while opening.first is None:
        opening = OpeningRoll(*roll(rng))
    position = opening.position()
    dice = opening.dice
    assert position is not None and dice is not None
    for _ in range(max_turns):
        plays = position.legal_plays(dice)
        play = plays[rng.randrange(len(plays))]
        yield Turn(position, dice, play)
        position = play.result
        if position.winner() is not None:
            return
        dice = roll(rng)


def random_positions(seed: int, count: int, games_cap: int = 10_000) -> list[Position]:
    """`count` positions (side to move set) from seeded random games, a few per game."""
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(games_cap):
        turns = list(random_game(rng))
        # A few positions per game, from the opening to the bear-off.
        for turn in rng.sample(turns, min(4, len(turns))):
            out.append(turn.position)
            if len(out) == count:
                return out
    return out


def stress_position(
    rng: random.Random, heights: Sequence[int] = (1, 2, 3, 6, 7, 8, 9, 10, 11, 12)
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A valid position with tall stacks: each side's checkers on few points, each point
    given one of `heights` (or what is left), and some on the bar. (Not reachable by play
    in general: for reading boards, not for the rules.)"""
    while True:
        white, black = [0] * 26, [0] * 26
        taken: set[int] = set()  # in white's numbering
        for side, is_white in ((white, True), (black, False)):
            left = 15
            side[25] = rng.choice([0, 0, 0, 1, 2, 3, 4])
            left -= side[25]
            while left > 0:
                n = rng.choice([k for k in range(1, 25) if k not in taken])
                taken.add(n)
                k = min(left, rng.choice(heights))
                side[n if is_white else 25 - n] += k
                left -= k
        pos = Position((0, *white[1:]), (0, *black[1:]))
        if pos.is_valid():
            return tuple(pos.white), tuple(pos.black)


def random_actions(
    rng: random.Random, match: Match, cube_actions: bool = True, double_rate: float = 0.08
) -> Iterator[Action]:
    """Random legal actions for `match` until it is over, applying each as it goes.

    Doubles, takes, drops, beavers, resignations and rerolls appear now and then,
    so that every part of the state machine is exercised.
    """
    while match.phase != Phase.MATCH_OVER:
        allowed = match.allowed()
        if match.phase == Phase.OPENING:
            action: Action = {
                "type": "opening",
                "white": rng.randint(1, 6),
                "black": rng.randint(1, 6),
            }
        elif match.phase == Phase.ROLL:
            if cube_actions and "double" in allowed and rng.random() < double_rate:
                action = {"type": "double"}
            elif rng.random() < 0.005:
                action = {"type": "resign", "level": rng.randint(1, 3)}
            else:
                action = {"type": "roll", "dice": list(roll(rng))}
        elif match.phase == Phase.MOVE:
            if rng.random() < 0.01:
                action = {
                    "type": "reroll",
                    "reasons": [rng.choice(["cocked", "wrong_section", "early"])],
                }
            else:
                assert match.dice is not None
                plays = match.position.legal_plays(match.dice)
                action = {"type": "play", "play": str(plays[rng.randrange(len(plays))])}
        elif match.phase in (Phase.DOUBLED, Phase.BEAVERED):
            r = rng.random()
            if "beaver" in allowed and r < 0.15:
                action = {"type": "beaver"}
            else:
                action = {"type": "take" if r < 0.75 else "drop"}
        elif match.phase == Phase.RESIGNED:
            action = {"type": "accept" if rng.random() < 0.7 else "reject"}
        else:
            action = {"type": "accept"}
        match.apply(action)
        yield action
