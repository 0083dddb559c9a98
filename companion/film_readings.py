"""A rendered game told to the referee as readers would tell it, mistakes and all.

`film_observations` turns a `sim.films.GameFilm` into the referee's observations frame
by frame, without rendering a pixel: frames with a hand in them are in motion, and
each still scene is read with the mistakes a `Noise` asks for. The referee's tests and
`benchmarks/referee.py` use it to measure how the referee recovers from misreadings.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from companion.referee import Observation
from companion.rules.position import Position
from sim.films import FPS, GameFilm
from vision.die import DieReading
from vision.reading import BoardSeen, Reading


@dataclass(frozen=True)
class Noise:
    """Reading mistakes made on purpose, each drawn afresh for every still scene.

    `counts`: the share of places (24 points and each side's half of the bar) read a
    checker more or fewer, with full confidence (the worst kind of mistake);
    `unread`: the share of places not read (low confidence, any count: a hand, a cup);
    `dice`: the share of dice read with another value;
    `rest`: how many things at rest are read as dice (the doubling cube, a clock's
    button, a print): each from a still scene drawn at random to another (or the film's
    end), at one place on the board or its frame, with one face;
    `jitter`: how far (px, the standard deviation) each die's centre is read from where it
    lies, drawn afresh for every still scene (a reader's centre wanders a little);
    `flicker`: the share of still scenes in which a thing at rest is not read (its
    reading weak, passing for a die in some frames only);
    `missed`: the share of dice not read where they lie, in every look of them (a small
    dark die on a dark point).
    `cocked`: the share of dice lying flat read cocked, in every look of them (a reader's
    false call on a die at rest: a needless reroll call, the players playing on);
    `faceless`: the share of dice read without a value, in every look of them (a die the
    reader finds but cannot read: it asks for the dice by hand, the players playing on);
    `blind`: the share of cocked dice read flat, in every look of them (a reader that does
    not know a cocked die as a camera sees it: the roll accepted, the players throwing
    again);
    `unsure_wrong`, `unsure_right`: the shares of the dice read with another value, and of
    those read right, whose confidence is below 0.9 (drawn from 0.6-0.9; the others are
    read with full confidence, as without them). On the real photos 37 of the 40 dice
    read wrong were below 0.9, and 335 of the 1,424 read right.
    """

    counts: float = 0.0
    unread: float = 0.0
    dice: float = 0.0
    rest: int = 0
    jitter: float = 0.0
    flicker: float = 0.0
    missed: float = 0.0
    unsure_wrong: float = 0.0
    unsure_right: float = 0.0
    cocked: float = 0.0
    faceless: float = 0.0
    blind: float = 0.0


PX_PER_MM = 2.0  # the stand-in pixels of a die's centre: board millimetres, so scaled
FRAME_MM = 30.0  # things at rest lie this far beyond the playing surface at most


def _at_rest(film: GameFilm, noise: Noise, rng: random.Random) -> list[tuple[int, int, DieReading]]:
    """`noise.rest` things read as dice: (first still scene, last, the die read)."""
    assert film.base is not None
    width, height = film.base.width_mm, film.base.height_mm
    stills = sum(not shot.hand for shot in film.shots)
    out = []
    for _ in range(noise.rest):
        first = rng.randrange(stills)
        last = rng.choice([stills - 1, rng.randrange(first, stills)])
        x = rng.uniform(-FRAME_MM, width + FRAME_MM)
        y = rng.uniform(-FRAME_MM, height + FRAME_MM)
        inside = 0 <= x <= width and 0 <= y <= height
        section = ("right" if x > width / 2 else "left") if inside else "off"
        die = DieReading(rng.randint(1, 6), 1.0, (x * PX_PER_MM, y * PX_PER_MM), section=section)
        out.append((first, last, die))
    return out


def _noisy_board(position: Position, noise: Noise, rng: random.Random) -> BoardSeen:
    """The board as a reader with these mistakes would report it (the off counts derived
    from the checkers seen, as `vision.board` does)."""
    white, black = list(position.white), list(position.black)
    places: list[tuple[str, float]] = []
    for name in [str(p) for p in range(1, 25)] + ["bar-white", "bar-black"]:
        if name.startswith("bar"):
            side, i = (white, 25) if name == "bar-white" else (black, 25)
        elif white[int(name)] or (not black[25 - int(name)] and rng.random() < 0.5):
            side, i = white, int(name)
        else:
            side, i = black, 25 - int(name)
        confidence = 1.0
        if rng.random() < noise.unread:
            side[i], confidence = rng.randint(0, 3), 0.1
        elif rng.random() < noise.counts:
            side[i] = side[i] + 1 if side[i] == 0 or rng.random() < 0.5 else side[i] - 1
        places.append((name, confidence))
    confidence = min(c for _, c in places)
    for side in (white, black):
        on_board = sum(side[1:])
        if on_board > 15:
            confidence = 0.0
        side[0] = max(0, 15 - on_board)
    return BoardSeen(tuple(white), tuple(black), confidence, tuple(places))


def _jittered(die: DieReading, jitter: float, rng: random.Random) -> DieReading:
    x, y = die.center_px
    return replace(die, center_px=(x + rng.gauss(0, jitter), y + rng.gauss(0, jitter)))


def film_observations(
    film: GameFilm, noise: Noise | None = None, seed: int = 0
) -> Iterator[Observation]:
    """The film as the referee would be told it by readers making `noise`'s mistakes,
    frame by frame (frames with a hand in them are in motion, and not read)."""
    assert film.base is not None
    rng = random.Random(seed)
    noise = noise or Noise()
    half = film.base.width_mm / 2
    rest = _at_rest(film, noise, rng)
    frame = 0
    still = -1
    for shot in film.shots:
        still += not shot.hand
        if shot.hand:
            for _ in range(shot.frames):
                yield Observation(frame, frame / FPS)
                frame += 1
            continue
        scene = shot.scene
        dice = []
        for d in scene.dice:
            if noise.missed and random.Random(f"{seed} {d.x_mm} {d.y_mm}").random() < noise.missed:
                continue  # missed where it lies, look after look
            value: int | None = d.value
            if (
                noise.faceless
                and random.Random(f"{seed} {d.x_mm} {d.y_mm} face").random() < noise.faceless
            ):
                value = None
            elif rng.random() < noise.dice:
                value = rng.choice([v for v in range(1, 7) if v != d.value])
            confidence = 1.0
            unsure = noise.unsure_right if value == d.value else noise.unsure_wrong
            if unsure and rng.random() < unsure:
                confidence = rng.uniform(0.6, 0.9)
            section = "right" if d.x_mm > half else "left"
            flat = d.state != "cocked"
            misread = noise.cocked if flat else noise.blind  # its lie read the other way
            if misread and random.Random(f"{seed} {d.x_mm} {d.y_mm} lie").random() < misread:
                flat = not flat
            dice.append(
                DieReading(
                    value,
                    confidence,
                    (d.x_mm * PX_PER_MM, d.y_mm * PX_PER_MM),  # the film is not rendered
                    flat=flat,
                    section=section,
                    on_checker=d.state == "on_checker",
                )
            )
        dice += [
            die
            for first, last, die in rest
            if first <= still <= last and not (noise.flicker and rng.random() < noise.flicker)
        ]
        if noise.jitter:
            dice = [_jittered(die, noise.jitter, rng) for die in dice]
        empty = Position((15,) + (0,) * 25, (15,) + (0,) * 25)
        white, black = scene.white or empty.white, scene.black or empty.black
        board = _noisy_board(Position(white, black), noise, rng)
        for _ in range(shot.frames):
            yield Observation(frame, frame / FPS, Reading(tuple(dice), board))
            frame += 1
