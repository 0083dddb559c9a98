"""Random legal games: seeded sources of reachable positions for tests, benchmarks and renders."""

from __future__ import annotations

import random
from collections.abc import Iterator
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
