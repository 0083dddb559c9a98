"""Rendered videos of whole games, with the events a referee must find in them.

A game is played with random legal plays (and, as asked, broken rolls that must be
rolled again and one illegal play), then filmed as a list of shots: still scenes
held for a few frames, and frames with a hand over the board in between (rolling,
moving checkers, picking the dice up). Each still is rendered once with
`sim.renderer` and repeated, so a two-minute game renders in under a minute.

The truth is the list of events in the referee's vocabulary, computed by playing
the same actions on a `Match` (the rules are the only part of `companion` used here;
`companion.film_readings` tells a film to the referee as readers would).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.geometry import BoardGeometry
from companion.rules.match import Match, MatchRules
from companion.rules.position import Color, Position
from sim.renderer import checker_layout, render
from sim.scene import CHECKER_SHARE, Die, Look, Scene, random_scene, scene_calibration

FPS = 30
STILL = 9  # frames a still scene is held
HAND = 4  # frames of motion between stills


@dataclass
class Shot:
    scene: Scene
    frames: int
    hand: bool = False


@dataclass
class GameFilm:
    shots: list[Shot] = field(default_factory=list)
    truth: list[dict[str, Any]] = field(default_factory=list)
    base: Scene | None = None
    before: list[Position] = field(default_factory=list)  # the board before each move
    rolls: list[tuple[int, int]] = field(default_factory=list)  # ... and the dice it plays


def video_scene(
    rng: random.Random, image_size: tuple[int, int] = (1920, 1080), family: str = "default"
) -> Scene:
    """A board filmed as a table set-up for refereeing should be: filling the frame, sharp
    (its style from `family`, as `sim.random_scene` draws it)."""
    scene = random_scene(rng, image_size=image_size, family=family)
    pose = replace(
        scene.pose,
        fill=rng.uniform(0.88, 0.95),
        tilt_deg=rng.uniform(0, 5),
        k1=rng.uniform(-0.03, 0.0),
        k2=0.0,
        shift=(0.0, 0.0),
    )
    look = Look(light_gradient=rng.uniform(0, 0.2), noise=rng.uniform(1, 3), blur=0.4)
    return replace(scene, pose=pose, look=look, white_home="right")


def _geometry(scene: Scene) -> BoardGeometry:
    """The scene's board in millimetres (the corners: any inside the image will do)."""
    iw, ih = scene.image_size
    return BoardGeometry(
        scene_calibration(scene, ((0, 0), (iw - 1, 0), (iw - 1, ih - 1), (0, ih - 1)))
    )


def _with(scene: Scene, position: Position) -> Scene:
    return replace(scene, white=tuple(position.white), black=tuple(position.black))


def _spots(
    rng: random.Random, scenes: list[Scene], sections: list[str], size: float
) -> list[tuple[float, float]]:
    """Free places for dice in the given sections, clear of every checker in `scenes`."""
    geo = _geometry(scenes[0])
    d = geo.point_width_mm * CHECKER_SHARE
    taken = [tuple(c["center_mm"]) for s in scenes for c in checker_layout(s, geo)]
    out: list[tuple[float, float]] = []
    for section in sections:
        rect = geo.left if section == "left" else geo.right
        for _ in range(2000):
            x = rng.uniform(rect.x0 + size, rect.x1 - size)
            y = rng.uniform(rect.y0 + size, rect.y1 - size)
            if all(math.hypot(x - cx, y - cy) > d / 2 + size for cx, cy in taken) and all(
                math.hypot(x - ox, y - oy) > 2.2 * size for ox, oy in out
            ):
                out.append((x, y))
                break
        else:  # pragma: no cover - a board too full for dice
            raise RuntimeError("no free place for a die")
    return out


def _dice(
    rng: random.Random,
    scenes: list[Scene],
    values: list[int],
    sections: list[str],
    states: list[str] | None = None,
) -> tuple[Die, ...]:
    size = 17.0
    spots = _spots(rng, scenes, sections, size)
    states = states or ["flat"] * len(values)
    return tuple(
        Die(v, x, y, angle_deg=rng.uniform(0, 90), state=st, size_mm=size)
        for v, (x, y), st in zip(values, spots, states, strict=True)
    )


def _illegal(rng: random.Random, before: Position, dice: tuple[int, ...]) -> Position | None:
    """A legal result with one of the mover's checkers a point further on: no play gives it."""
    mover = before.turn
    plays = before.legal_plays(dice)
    legal = {(p.result.white, p.result.black) for p in plays}
    for play in rng.sample(list(plays), min(len(plays), 20)):
        side = list(play.result.side(mover))
        opp = list(play.result.side(mover.opponent))
        sources = [p for p in range(2, 25) if side[p]]
        rng.shuffle(sources)
        for p in sources:
            q = p - 1
            if opp[25 - q]:  # keep it simple: onto an empty point or his own
                continue
            moved = side.copy()
            moved[p] -= 1
            moved[q] += 1
            mine = tuple(moved)
            white, black = (mine, tuple(opp)) if mover == Color.WHITE else (tuple(opp), mine)
            pos = Position(white, black, mover.opponent)
            if not pos.status() and (pos.white, pos.black) not in legal:
                return pos
    return None


def film_game(
    seed: int,
    image_size: tuple[int, int] = (1920, 1080),
    length: int = 0,
    broken_rolls: float = 0.15,
    illegal_at: int | None = None,
    max_turns: int = 400,
    scene: Scene | None = None,
    family: str = "default",
    spare: bool = False,
    hidden: Collection[int] = (),
) -> GameFilm:
    """A whole game as shots, and the referee's events for it.

    `broken_rolls` is the share of rolls first thrown cocked or into the wrong section;
    `illegal_at` the turn (counted from 1) played illegally, if any.
    `scene` films on that board and camera (the games of one match) instead of a
    random one of the styles of `family` ("default" or "wide": `sim.random_scene`).
    `spare`: a spare die lies on the frame beside the board from the first shot to the
    last, a 5 (a die left aside: no die of any throw; the truth does not name it).
    `hidden`: in these turns (counted from 1, the opening's), one die of the throw that
    stands is not in the picture where it lies, as a die the camera does not read there (a
    dark die on a dark point); the truth names the roll as thrown.
    """
    rng = random.Random(seed)
    base = video_scene(rng, image_size, family)
    if scene is not None:
        base = replace(scene, dice=(), white=base.white, black=base.black)
    match = Match(MatchRules(length=length))
    film = GameFilm(base=base)
    empty = _with(base, Position.start())

    def still(scene: Scene) -> None:
        film.shots.append(Shot(scene, HAND, hand=True))
        film.shots.append(Shot(scene, STILL))

    def truth(events: list[dict[str, Any]]) -> None:
        film.truth.extend(events)

    board = Position.start()
    still(empty)
    # The opening roll: one die each, into each player's right-hand section.
    while True:
        w, b = rng.randint(1, 6), rng.randint(1, 6)
        scene = replace(
            _with(base, board), dice=_dice(rng, [_with(base, board)], [w, b], ["right", "left"])
        )
        done = match.apply({"type": "opening", "white": w, "black": b})
        if 1 in hidden and not done[0].get("again"):
            scene = replace(scene, dice=scene.dice[:1])  # black's die not seen
        still(scene)
        if done[0].get("again"):
            truth([{"type": "reroll", "player": None, "reasons": ["tie"]}])
            still(_with(base, board))
            continue
        first = str(done[0]["first"])
        dice = [w, b] if first == "white" else [b, w]
        truth([{"type": "opening_roll", "player": first, "dice": dice}])
        break
    dice_scene = scene
    turn = 0
    while turn < max_turns:
        turn += 1
        mover = str(match.acting)
        own = "right" if mover == "white" else "left"
        if turn > 1:
            roll = sorted([rng.randint(1, 6), rng.randint(1, 6)], reverse=True)
            if rng.random() < broken_rolls:
                kind = rng.choice(["cocked", "wrong_section"])
                other = "left" if own == "right" else "right"
                sections = [own, own] if kind == "cocked" else [own, other]
                states = ["flat", "cocked"] if kind == "cocked" else None
                bad = _dice(rng, [_with(base, board)], roll, sections, states)
                still(replace(_with(base, board), dice=bad))
                truth([{"type": "reroll", "player": mover, "reasons": [kind]}])
                match.apply({"type": "roll", "dice": roll})
                match.apply({"type": "reroll", "reasons": [kind]})
                still(_with(base, board))
                roll = sorted([rng.randint(1, 6), rng.randint(1, 6)], reverse=True)
            thrown = _dice(rng, [_with(base, board)], roll, [own, own])
            if turn in hidden:
                thrown = thrown[:1]  # the other die not seen where it lies
            dice_scene = replace(_with(base, board), dice=thrown)
            still(dice_scene)
            done = match.apply({"type": "roll", "dice": roll})
            truth([{"type": "roll", "player": mover, "dice": done[0]["dice"]}])
        position = match.position
        film.before.append(position)
        assert match.dice is not None
        film.rolls.append(match.dice)
        plays = position.legal_plays(match.dice)
        play = plays[rng.randrange(len(plays))]
        result = play.result
        illegal = _illegal(rng, position, match.dice) if turn == illegal_at else None
        after = illegal or result
        # The dice stay where they fell while the checkers move; they must stay clear.
        dice_now = dice_scene.dice
        moved = replace(_with(base, after), dice=dice_now)
        if any(
            math.hypot(d.x_mm - c["center_mm"][0], d.y_mm - c["center_mm"][1]) < 30
            for d in dice_now
            for c in checker_layout(moved, _geometry(moved))
        ):
            values = [d.value for d in dice_now]
            sections = ["right" if d.x_mm > base.width_mm / 2 else "left" for d in dice_now]
            moved = replace(moved, dice=_dice(rng, [_with(base, after)], values, sections))
        still(moved)
        still(_with(base, after))
        truth([{"type": "dice_picked_up", "player": mover}])
        if illegal is not None:
            done = match.apply({"type": "illegal_play", "position": illegal.to_json()})
            truth([{"type": "illegal_play", "player": mover, "position": illegal.to_json()}])
        else:
            done = match.apply({"type": "play", "play": str(play)})
            truth([{"type": "play", "player": mover, "play": str(play)}])
            for e in done[1:]:
                if e["type"] == "game_over":
                    truth(
                        [
                            {
                                "type": "game_over",
                                "winner": str(e["winner"]),
                                "points": e["points"],
                                "result": e["result"],
                            }
                        ]
                    )
                if e["type"] == "match_over":
                    truth([{"type": "match_over", "winner": str(e["winner"]), "score": e["score"]}])
        board = after
        if any(e["type"] == "game_over" for e in done):
            break
    if spare:
        _lay_spare(film)
    return film


def _lay_spare(film: GameFilm) -> None:
    """A spare die on the frame beside the right-hand end of the board in every shot
    (shots that shared a scene still share one: it is rendered once)."""
    base = film.base
    assert base is not None
    die = Die(5, base.width_mm + base.frame_mm / 2, 0.3 * base.height_mm, 20.0, size_mm=16.0)
    scenes = [shot.scene for shot in film.shots]  # held, so that no id is used twice
    laid = {id(s): replace(s, dice=(*s.dice, die)) for s in scenes}
    film.shots = [replace(shot, scene=laid[id(shot.scene)]) for shot in film.shots]


def shot_images(film: GameFilm) -> Iterator[tuple[Shot, np.ndarray]]:
    """Each shot with its scene's image, rendered once for shots in a row that share it."""
    last: tuple[Scene, np.ndarray] | None = None
    for shot in film.shots:
        if last is None or last[0] is not shot.scene:
            last = (shot.scene, render(shot.scene).image)
        yield shot, last[1]


def write_video(film: GameFilm, path: str | Path, fps: int = FPS) -> int:
    """Renders the film to a video file (Motion JPEG in AVI); returns the number of frames.

    Motion JPEG compresses each frame alone, as a USB camera's stream does; MPEG-4
    would carry a hand's ghost into the still frames after it for a while.
    """
    assert film.base is not None
    iw, ih = film.base.image_size
    out = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (iw, ih))
    if not out.isOpened():
        raise OSError(f"{path}: cannot write a video there")
    rng = np.random.default_rng(0)
    frames = 0
    try:
        for shot, image in shot_images(film):
            for _k in range(shot.frames):
                frame = draw_hand(image, rng) if shot.hand else image
                out.write(frame)
                frames += 1
    finally:
        out.release()
    return frames


def draw_hand(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A copy of `image` with a hand and arm reaching over the board from the near edge,
    somewhere new on each call: the motion between a film's stills."""
    frame = image.copy()
    h, w = frame.shape[:2]
    x, y = int(rng.uniform(0.25, 0.75) * w), int(rng.uniform(0.3, 0.7) * h)
    skin = (int(rng.uniform(90, 130)), int(rng.uniform(140, 170)), int(rng.uniform(190, 225)))
    cv2.line(frame, (x, y), (x + int(rng.uniform(-0.2, 0.2) * w), h), skin, int(0.06 * h))
    cv2.ellipse(
        frame, (x, y), (int(0.05 * h), int(0.07 * h)), rng.uniform(0, 180), 0, 360, skin, -1
    )
    return frame


def save_truth(film: GameFilm, path: str | Path) -> None:
    """The film's true events, one JSON object a line."""
    Path(path).write_text("".join(json.dumps(e) + "\n" for e in film.truth))
