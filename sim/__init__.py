"""Scenes and games drawn as a camera would see them: the inverse of `vision`.

The renderer draws a board of some style with checkers, dice, a camera's pose and
look, and labels exactly what it drew; the films play whole games and film them with
the events a referee must find. Test data, training data and the demo come from here.

Depends on `calibration` (board geometry, the stacking convention) and on
`companion.rules` (the games); `vision` never imports it, and it never imports `vision`.
"""

from __future__ import annotations

from sim.films import (
    FPS,
    GameFilm,
    Shot,
    draw_hand,
    film_game,
    save_truth,
    shot_images,
    video_scene,
    write_video,
)
from sim.renderer import Rendered, checker_layout, render
from sim.rolls import ROLL_KINDS, nth_roll, random_roll_scene, roll_scenes, write_roll_set
from sim.scene import (
    CHECKER_SHARE,
    DICE_CLEAR,
    DICE_STYLES,
    FAMILIES,
    START,
    STYLES,
    WIDE_STYLES,
    CameraPose,
    Die,
    Look,
    Scene,
    Style,
    corners_moved,
    cut_image,
    random_scene,
    scene_calibration,
    with_soft_points,
    with_trays,
)

__all__ = [
    "CHECKER_SHARE",
    "DICE_CLEAR",
    "DICE_STYLES",
    "FAMILIES",
    "FPS",
    "ROLL_KINDS",
    "START",
    "STYLES",
    "WIDE_STYLES",
    "CameraPose",
    "Die",
    "GameFilm",
    "Look",
    "Rendered",
    "Scene",
    "Shot",
    "Style",
    "checker_layout",
    "corners_moved",
    "cut_image",
    "draw_hand",
    "film_game",
    "nth_roll",
    "random_roll_scene",
    "random_scene",
    "render",
    "roll_scenes",
    "save_truth",
    "scene_calibration",
    "shot_images",
    "video_scene",
    "with_soft_points",
    "with_trays",
    "write_roll_set",
    "write_video",
]
