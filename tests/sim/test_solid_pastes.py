"""Dice drawn as solid cubes seen from any height (`scripts/dicenet_solid.py`), which the dice
networks' training can paste as dice of one more kind (`--solid-pastes`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.sim.conftest import dicenet_solid

SIDE = 40.0  # px: the top face's side


def _pips(patch: np.ndarray, alpha: np.ndarray, face: tuple[int, int, int, int]) -> int:
    """The blobs unlike the die's face colour inside `face` (x0, y0, x1, y1) of the patch."""
    x0, y0, x1, y1 = face
    part = patch[y0:y1, x0:x1].astype(int)
    # within the face, clear of its edge (a bevel drawn round it)
    edge = max(1, round(0.12 * SIDE))
    inside = cv2.erode(
        (alpha[y0:y1, x0:x1] > 0.99).astype(np.uint8), np.ones((3, 3)), iterations=edge
    )
    inside = inside.astype(bool)
    colour = np.median(part[inside], axis=0)
    ink = (np.abs(part - colour).sum(-1) > 120) & inside
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8))
    return sum(1 for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= 4)


def test_a_solid_die_comes_as_a_patch_its_outline_and_its_top_face_value() -> None:
    dice = dicenet_solid.SolidDice()
    assert dice.oblique  # a flat die seen aslant shows its sides: its state is not taught
    for seed in range(30):
        patch, alpha, value = dice.sample(np.random.default_rng(seed), SIDE)
        assert patch.dtype == np.uint8 and patch.shape == (*alpha.shape, 3)
        assert 1 <= value <= 6
        assert float(alpha.min()) >= 0.0 and float(alpha.max()) <= 1.0
        # the die is drawn, and it is about a die's size (its top face and sides)
        area = float(alpha.sum())
        assert 0.5 * SIDE**2 < area < 4.0 * SIDE**2


@pytest.mark.parametrize("value", range(1, 7))
def test_from_straight_above_the_top_face_is_centred_and_shows_its_value(value: int) -> None:
    for seed in range(5):
        rng = np.random.default_rng(100 * value + seed)
        patch, alpha, sides = dicenet_solid.draw_die(
            rng, value, SIDE, elevation_deg=90.0, plain=True
        )
        assert sides == []  # no side face shows
        ys, xs = np.nonzero(alpha > 0.5)
        middle = (patch.shape[0] - 1) / 2
        assert abs(float(xs.mean()) - middle) < 1.5 and abs(float(ys.mean()) - middle) < 1.5
        # only the top face shows: a square of the die's side (turned: up to its diagonal)
        across = float(xs.max() - xs.min() + 1)
        assert SIDE * 0.9 <= across <= SIDE * 1.45
        box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
        assert _pips(patch, alpha, box) == value


def test_seen_aslant_its_sides_show_towards_the_camera(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dicenet_solid, "FOOT_DOWN", 1.0)  # the camera's foot down in the patch
    for seed in range(10):
        rng = np.random.default_rng(seed)
        _, above, _ = dicenet_solid.draw_die(rng, 3, SIDE, elevation_deg=90.0, plain=True)
        rng = np.random.default_rng(seed)
        _, aslant, sides = dicenet_solid.draw_die(rng, 3, SIDE, elevation_deg=35.0, plain=True)
        middle = (aslant.shape[0] - 1) / 2
        ys, _ = np.nonzero(aslant > 0.5)
        # the top face stays in the middle; the sides below it, towards the camera's foot
        assert float(ys.mean()) > middle + 0.1 * SIDE
        assert float(aslant.sum()) > 1.3 * float(above.sum())
        # a side face in view, its centre towards the foot, about a side from the top's
        assert sides and all(y > 0.3 * SIDE for _, y in sides)
        assert all(0.4 * SIDE < float(np.hypot(x, y)) < 1.2 * SIDE for x, y in sides)


def test_the_solid_dice_pips_lie_where_the_renderers_do() -> None:
    # Written again in the script (the training's environment has no project), kept equal.
    from sim import renderer

    assert dicenet_solid.PIPS == renderer._PIPS
