"""Dice drawn as solid cubes seen from any height, pasted onto the dice networks' training
squares and views (scripts/train_dicenet.py `--solid-pastes`).

A camera that is not straight above a die sees its side faces with their pips beside its
top face: a webcam on a desk looking down at 30-60 degrees, a phone held aslant, a board
camera over a die near the picture's edge. The renderer's dice (`sim`) are drawn from
above, and real dice photographed from above (`dicenet_pastes.RealDice`) show little of
their sides, so a reader taught on them reads a side's pips as part of the top face (a 1
with a 5 beside it read as a 2 or a 6) or misses the die. Here each die is a cube with
rounded corners, of any colour and pips, lit from any side, seen through a pinhole camera
from 25 to 90 degrees above the table and from any side, blurred at times: a die of one
more kind, taught as its top face's value. Whether it lies flat is not taught (the
`oblique` flag, as for real dice photographed aslant): a flat die seen so shows its sides
as a cocked one does.

The patch is centred on the top face's centre (the die's place as the reader reports
it). Nothing here reads a photo: the dice are drawn from numbers alone.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Alpha = NDArray[np.float32]
Vec = NDArray[np.float64]

ELEVATION_DEG = (25.0, 90.0)  # the camera's height over the table, as seen from the die
DISTANCE_SIDES = (4.0, 30.0)  # the camera's distance, in die sides (the perspective)
FOOT_DOWN = 0.6  # of the dice, those drawn with the camera's foot straight down in the patch
SUPER = 4  # drawn this many times larger, then shrunk (smooth edges)
SIDE_SEEN = 0.3  # a side face in view this large, of the top face's area, is named
# Pip places on a face (u, w in face sides, from its middle), before each face's own turn:
# the renderer's (`sim.renderer._PIPS`), written again here because the training runs in a
# virtual environment without the project (scripts/train_dicenet.py: torch, cv2, numpy).
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _unit(v: Vec) -> Vec:
    return np.asarray(v / max(float(np.linalg.norm(v)), 1e-12), np.float64)


def _luma(c: tuple[float, float, float]) -> float:
    return 0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2]


def _hsv_colour(rng: np.random.Generator, s: tuple[float, float], v: tuple[float, float]) -> Vec:
    hsv = np.uint8([[[rng.integers(0, 180), rng.uniform(*s) * 255, rng.uniform(*v) * 255]]])
    return np.asarray(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0], np.float64)


def dice_colours(rng: np.random.Generator) -> tuple[Vec, Vec]:
    """A die's face and pip colours (BGR): ivory or white, black, or any colour; pips
    standing out from the face (dark on light faces, mostly white on dark ones)."""
    kind = rng.random()
    if kind < 0.3:  # ivory to white
        face = np.array([rng.uniform(170, 245), rng.uniform(200, 250), rng.uniform(215, 255)])
    elif kind < 0.4:  # black or nearly
        face = np.full(3, rng.uniform(10, 60)) + rng.uniform(-8, 8, 3)
    else:
        face = _hsv_colour(rng, (0.3, 1.0), (0.25, 1.0))
    light = _luma((face[0], face[1], face[2])) > 130
    if rng.random() < 0.8:
        pip = np.full(3, rng.uniform(5, 50)) if light else np.full(3, rng.uniform(215, 250))
    else:  # coloured pips, still apart from the face
        pip = _hsv_colour(rng, (0.4, 1.0), (0.1, 0.4) if light else (0.75, 1.0))
    return np.clip(face, 0, 255), np.clip(pip, 0, 255)


def _sides(value: int, rng: np.random.Generator) -> list[int]:
    """The values round `value` on top (+u, +w, -u, -w): opposite faces add up to seven."""
    a, b = (v for v in range(1, 7) if v not in (value, 7 - value) and v < 7 - v)
    if rng.random() < 0.5:
        a, b = b, a
    return [a, b, 7 - a, 7 - b]


class SolidDice:
    """Dice drawn as solid cubes seen from any height (see the module's docstring), with
    the interface of `dicenet_pastes.RealDice`: `sample` gives a patch, its alpha and the
    top face's value; `oblique`: whether a die lies flat is not taught."""

    oblique = True

    def sample(self, rng: np.random.Generator, side_px: float) -> tuple[Image, Alpha, int]:
        """A die whose top face is `side_px` wide (at its own depth), its top face's centre
        in the patch's middle: the patch, its alpha (the die's outline) and its value."""
        patch, alpha, value, _ = self.sample_sides(rng, side_px)
        return patch, alpha, value

    def sample_sides(
        self, rng: np.random.Generator, side_px: float
    ) -> tuple[Image, Alpha, int, list[tuple[float, float]]]:
        """As `sample`, and where the centres of the side faces in view lie from the top
        face's (patch px; those seen at least `SIDE_SEEN` as large as the top face): a
        square centred on one shows a face with pips that is not the die's top, a die
        whose place lies a side away (no die there)."""
        value = int(rng.integers(1, 7))
        patch, alpha, sides = draw_die(rng, value, side_px)
        return patch, alpha, value, sides


def draw_die(
    rng: np.random.Generator,
    value: int,
    side_px: float,
    elevation_deg: float | None = None,
    plain: bool = False,
) -> tuple[Image, Alpha, list[tuple[float, float]]]:
    """One die with `value` on top, drawn as `SolidDice.sample_sides` says: seen from
    `elevation_deg` above the table (else drawn from `ELEVATION_DEG`); `plain`: never
    blurred, no highlight."""
    size = math.ceil(side_px * 3.2) | 1
    big = size * SUPER
    face_col, pip_col = dice_colours(rng)
    yaw = rng.uniform(0, 2 * math.pi)
    eu = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    ew = np.array([-math.sin(yaw), math.cos(yaw), 0.0])
    ez = np.array([0.0, 0.0, 1.0])
    # The die rests on the table (z = 0), its top face's centre at (0, 0, 1), its middle at
    # (0, 0, 0.5); the camera looks at the top face's centre. Unit: the die's side.
    el = math.radians(rng.uniform(*ELEVATION_DEG) if elevation_deg is None else elevation_deg)
    az = rng.uniform(0, 2 * math.pi)
    dist = rng.uniform(*DISTANCE_SIDES)
    target = np.array([0.0, 0.0, 1.0])
    eye = target + dist * np.array(
        [math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)]
    )
    fwd = _unit(target - eye)
    right = _unit(np.cross(fwd, ez)) if el < math.radians(89.5) else _unit(np.cross(fwd, eu))
    up = np.cross(right, fwd)  # the camera's up: away from its foot
    turn = 0.0 if rng.random() < FOOT_DOWN else rng.uniform(0, 2 * math.pi)
    ct, st = math.cos(turn), math.sin(turn)
    focal = side_px * dist * SUPER  # a side at the target's depth is side_px wide

    def project(points: Vec) -> NDArray[np.int32]:
        p = points - eye
        depth = np.maximum(p @ fwd, 1e-3)
        x, y = focal * (p @ right) / depth, -focal * (p @ up) / depth
        x, y = ct * x - st * y, st * x + ct * y
        return np.round(np.stack([x + big / 2, y + big / 2], -1)).astype(np.int32)

    light = _unit(
        np.array([*(rng.uniform(-1, 1, 2) * math.cos(math.radians(rng.uniform(20, 80)))), 1.0])
    )
    ambient, diffuse = rng.uniform(0.35, 0.65), rng.uniform(0.3, 0.7)
    round_r = rng.uniform(0.08, 0.22)  # the corners' radius, of a side
    pip_off = rng.uniform(0.23, 0.3)
    pip_r = rng.uniform(0.065, 0.1)
    one_r = pip_r * rng.uniform(1.0, 1.7)
    bevel = rng.random() < 0.6
    bevel_shade = rng.uniform(0.55, 1.15)
    sides = _sides(value, rng)
    # Each face: its middle, two half-axes (face u, w) and its value.
    faces = [
        (0.5 * ez, 0.5 * eu, 0.5 * ew, value),
        (0.5 * eu, 0.5 * ew, 0.5 * ez, sides[0]),
        (0.5 * ew, -0.5 * eu, 0.5 * ez, sides[1]),
        (-0.5 * eu, -0.5 * ew, 0.5 * ez, sides[2]),
        (-0.5 * ew, 0.5 * eu, 0.5 * ez, sides[3]),
    ]
    centre = np.array([0.0, 0.0, 0.5])
    canvas = np.zeros((big, big, 3), np.float64)
    mask = np.zeros((big, big), np.uint8)
    corner = np.linspace(0, math.pi / 2, 6)
    ring = np.linspace(0, 2 * math.pi, 18, endpoint=False)
    seen: list[tuple[float, float, float]] = []  # each face in view: centre (px), area
    for middle, hu, hw, v in faces:
        c = centre + middle
        normal = _unit(middle)
        if float(normal @ (eye - c)) <= 0:
            continue  # facing away from the camera
        shade = ambient + diffuse * max(0.0, float(normal @ light))
        # The face's outline: a square with rounded corners (face units, -1..1).
        r = 2 * round_r
        outline = []
        for (su, sw), a0 in zip(((1, 1), (-1, 1), (-1, -1), (1, -1)), (0, 1, 2, 3), strict=True):
            for a in corner + a0 * math.pi / 2:
                outline.append((su * (1 - r) + r * math.cos(a), sw * (1 - r) + r * math.sin(a)))
        pts = np.array([c + u * hu + w * hw for u, w in outline])
        poly = project(pts)
        (mx, my), area = project(c[None])[0], abs(cv2.contourArea(poly.astype(np.float32)))
        seen.append(((mx - big / 2) / SUPER, (my - big / 2) / SUPER, area))
        cv2.fillPoly(canvas, [poly], (face_col * shade).tolist(), cv2.LINE_8)
        cv2.fillPoly(mask, [poly], 255, cv2.LINE_8)
        if bevel:
            thick = max(1, round(side_px * SUPER * rng.uniform(0.02, 0.05)))
            cv2.polylines(
                canvas, [poly], True, (face_col * shade * bevel_shade).tolist(), thick, cv2.LINE_8
            )
        spin = int(rng.integers(4))
        for pu, pw in PIPS[v]:
            for _ in range(spin):
                pu, pw = -pw, pu
            pr = one_r if v == 1 else pip_r
            ring_pts = np.array(
                [
                    c
                    + (2 * pip_off * pu + 2 * pr * math.cos(t)) * hu
                    + (2 * pip_off * pw + 2 * pr * math.sin(t)) * hw
                    for t in ring
                ]
            )
            pip_shade = shade * rng.uniform(0.85, 1.0)
            cv2.fillPoly(canvas, [project(ring_pts)], (pip_col * pip_shade).tolist(), cv2.LINE_8)
    if rng.random() < 0.3 and not plain:  # a highlight on the top face
        hx, hy = project(np.array([centre + 0.5 * ez + rng.uniform(-0.35, 0.35, 3) * (eu + ew)]))[0]
        spot = np.zeros((big, big), np.float64)
        cv2.circle(spot, (int(hx), int(hy)), max(1, int(side_px * SUPER * 0.15)), 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), side_px * SUPER * 0.1)
        canvas += spot[:, :, None] * rng.uniform(30, 90) * (mask[:, :, None] > 0)
    patch = cv2.resize(np.clip(canvas, 0, 255), (size, size), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(mask.astype(np.float32) / 255, (size, size), interpolation=cv2.INTER_AREA)
    how = 1.0 if plain else rng.random()
    if how < 0.3:  # out of focus
        sigma = rng.uniform(0.4, 1.3)
        patch = cv2.GaussianBlur(patch, (0, 0), sigma)
        alpha = cv2.GaussianBlur(alpha, (0, 0), sigma)
    elif how < 0.45:  # moving
        length = int(rng.integers(2, 7))
        kernel = np.zeros((length * 2 + 1, length * 2 + 1), np.float32)
        a = rng.uniform(0, math.pi)
        p0 = (length - length * math.cos(a), length - length * math.sin(a))
        p1 = (length + length * math.cos(a), length + length * math.sin(a))
        cv2.line(kernel, tuple(round(v) for v in p0), tuple(round(v) for v in p1), 1.0, 1)
        kernel /= max(float(kernel.sum()), 1e-6)
        patch = cv2.filter2D(patch, -1, kernel)
        alpha = cv2.filter2D(alpha, -1, kernel)
    top_area = seen[0][2]  # the top face is always in view, and drawn first
    sides = [(x, y) for x, y, area in seen[1:] if area >= SIDE_SEEN * top_area]
    return (
        np.asarray(np.clip(patch, 0, 255), np.uint8),
        np.asarray(np.clip(alpha, 0, 1), np.float32),
        sides,
    )
