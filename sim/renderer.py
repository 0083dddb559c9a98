"""A seeded renderer of board scenes with exact labels, for tests, benchmarks and the demo.

A scene (`sim.scene`) is a board of some style (frame, surface, triangle, checker and
dice colours, textures), checkers placed from the contract's position arrays, dice
placed at board positions (flat, cocked, or standing on a checker), seen by a camera
with any rotation, a tilt of up to 15 degrees, lens distortion, uneven light, noise and
JPEG compression. The labels say exactly where everything is: the playing surface's
corners in the raw image, the camera model, each checker and each die.

The board is drawn top-down in millimetres (2 px/mm) and projected through the
plane's homography; checkers' heights are drawn in the top-down view, not lifted by
parallax. Dice are drawn so too (their top face; a cocked one as a squashed top face
beside a plain side face, or, where the scene's `dice_sides` asks, as its top face
foreshortened by its lean beside the side face the lean turns up, with that face's pips,
each face lit as it faces the light) unless the scene's `dice_solid` asks for cubes seen
from the camera: each corner is then drawn where the ray from the camera through it meets the
board, so after the homography it lies where the camera sees it, and a flat die seen
aslant shows the sides that face the camera. Checkers are stacked as
`calibration.layout` says, the convention the reader expects too. An open case
(`Scene.tray_mm`) has a tray beyond each end of the surface, behind a rail, with the
checkers borne off standing on edge in it; the table shows beyond its long sides' frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry, Color, dense_maps
from calibration.layout import stack_layout
from calibration.schema import Calibration, Camera
from sim.scene import (
    BGR,
    CHECKER_SHARE,
    DICE_CLEAR,
    DICE_STYLES,
    CameraPose,
    Die,
    Look,
    Scene,
    Style,
    scene_calibration,
)

Image = NDArray[np.uint8]
PX_PER_MM = 2.0
_BAND = 64  # rows of a frame worked on at once where each pixel is worked on alone
BAR_ROW = 4  # checkers on the bar, in a row from the centre towards the owner

_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclass
class Rendered:
    image: Image
    labels: dict[str, Any] = field(default_factory=dict)
    calibration: Calibration | None = None  # the truth (corners undistorted when a lens is set)
    raw_corners: NDArray[np.float64] | None = None  # the surface corners in the raw image


# --- drawing the board top-down ------------------------------------------------------


def _shade(color: BGR, factor: float) -> BGR:
    return (
        int(min(255, color[0] * factor)),
        int(min(255, color[1] * factor)),
        int(min(255, color[2] * factor)),
    )


def _texture(shape: tuple[int, int], kind: str, rng: np.random.Generator) -> NDArray[np.float32]:
    """A multiplicative texture around 1.0."""
    h, w = shape
    if kind == "smooth":
        return np.ones((h, w), np.float32) + rng.normal(0, 0.01, (h, w)).astype(np.float32)
    noise = rng.normal(0, 1, (max(1, h // 4), max(1, w // 4))).astype(np.float32)
    if kind == "wood":
        noise = np.asarray(cv2.GaussianBlur(noise, (0, 0), sigmaX=12, sigmaY=0.6), np.float32)
        amp = 0.08
    else:
        noise = np.asarray(cv2.GaussianBlur(noise, (0, 0), 1.0), np.float32)
        amp = 0.05
    noise = np.asarray(cv2.resize(noise, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    noise /= max(float(np.std(noise)), 1e-6)
    return (1.0 + amp * noise).astype(np.float32)


def _textured(image: Image, tex: NDArray[np.float32]) -> Image:
    """`image` times `tex` (per pixel), in bands of rows: no float copy of the whole."""
    out = np.empty_like(image)
    for y in range(0, image.shape[0], _BAND):
        band = image[y : y + _BAND].astype(np.float32) * tex[y : y + _BAND, :, None]
        out[y : y + _BAND] = np.clip(band, 0, 255, out=band)
    return out


def _mm(v: float) -> int:
    return round(v * PX_PER_MM)


def _draw_checker(canvas: Image, x: float, y: float, d: float, color: BGR, layer: int = 0) -> None:
    """A checker seen from above: its shadow, a bevelled rim with a dark seam, a moulded ring.

    A checker stacked on others stands higher: a little larger and with a longer shadow.
    """
    cx, cy, r = _mm(x), _mm(y), _mm(d / 2 * (1 + 0.015 * layer))
    lift = 1 + layer
    cv2.circle(canvas, (cx + 3 * lift, cy + 4 * lift), r, (20, 20, 20), -1, cv2.LINE_AA)  # shadow
    cv2.circle(canvas, (cx, cy), r, _shade(color, 0.8), -1, cv2.LINE_AA)
    cv2.circle(canvas, (cx, cy), int(r * 0.86), color, -1, cv2.LINE_AA)
    cv2.circle(canvas, (cx, cy), int(r * 0.55), _shade(color, 0.93), 2, cv2.LINE_AA)
    # The bevelled edge catches the light (dark checkers show it most) and meets the next
    # checker in a dark seam.
    lit = tuple(min(255, c + 55) for c in color)
    cv2.circle(canvas, (cx, cy), int(r * 0.9), lit, 3, cv2.LINE_AA)
    cv2.circle(canvas, (cx, cy), r, _shade(color, 0.3), 2, cv2.LINE_AA)


def _light_dir(look: Look) -> tuple[float, float]:
    """Towards the light in the top-down view (unit vector): opposite the shadows."""
    deg = 53.13 if look.shadow_deg is None else look.shadow_deg
    a = math.radians(deg)
    return -math.cos(a), -math.sin(a)


def _raise_bar(view: Image, x0: float, x1: float, color: BGR, look: Look) -> None:
    """A bar standing above the surface: its edge towards the light lit, its shadow on the
    surface beside its other edge."""
    lit, dark = (x0, x1) if _light_dir(look)[0] < 0 else (x1, x0)
    h = view.shape[0]
    step = 1 if dark == x1 else -1
    shadow_x = sorted((_mm(dark), _mm(dark) + step * _mm(4.0)))
    band = view[:, shadow_x[0] : shadow_x[1]]
    band[:] = (band.astype(np.float32) * 0.55).astype(np.uint8)
    cv2.line(view, (_mm(lit), 0), (_mm(lit), h), _shade(color, 1.9), 3, cv2.LINE_AA)
    cv2.line(view, (_mm(dark) - step * 2, 0), (_mm(dark) - step * 2, h), _shade(color, 0.5), 3)


def _draw_hinges(view: Image, x0: float, x1: float, height_mm: float) -> None:
    """Two metal hinges across the bar, a quarter of the way from each edge, with screws."""
    metal, screw = (165, 170, 175), (70, 75, 80)
    width = (x1 - x0) * 0.7
    cx = (x0 + x1) / 2
    for y in (height_mm * 0.2, height_mm * 0.8):
        top_left = (_mm(cx - width / 2), _mm(y - 16))
        bottom_right = (_mm(cx + width / 2), _mm(y + 16))
        cv2.rectangle(view, top_left, bottom_right, metal, -1, cv2.LINE_AA)
        cv2.rectangle(view, top_left, bottom_right, _shade(metal, 0.6), 1, cv2.LINE_AA)
        cv2.line(view, (_mm(cx), _mm(y - 16)), (_mm(cx), _mm(y + 16)), _shade(metal, 0.5), 2)
        for dx in (-0.3, 0.3):
            for dy in (-10.0, 0.0, 10.0):
                centre = (_mm(cx + dx * width), _mm(y + dy))
                cv2.circle(view, centre, max(2, _mm(1.6)), screw, -1, cv2.LINE_AA)


def _disc(
    r: float,
    color: BGR,
    design: str,
    accent: BGR,
    light: tuple[float, float],
    rng: np.random.Generator,
    text: str,
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """A checker of `design` seen from above, centred in a square patch: (BGR, coverage)."""
    half = math.ceil(r) + 2
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    dist = np.hypot(xx, yy)
    rho = dist / r
    alpha = np.clip(r - dist + 0.5, 0.0, 1.0)
    facing = (xx * light[0] + yy * light[1]) / np.maximum(dist, 1e-3)  # +1 towards the light
    base = np.array(color, np.float32)
    gain = np.ones_like(rho)
    if design == "moulded":  # as `_draw_checker` draws it, less its shadow
        gain = np.where(rho > 0.86, 0.8, np.where(np.abs(rho - 0.55) < 0.02, 0.93, 1.0))
        gain = np.where(rho > 0.97, 0.3, gain)
    elif design == "flat":
        gain = np.where(rho > 0.94, 0.55, 1.0)
    elif design in ("raised", "shiny"):
        ring = (rho > 0.74) & (rho <= 0.95)
        gain = np.where(ring, 1.0 + 0.22 * facing, 1.0)
        seam = (rho > 0.7) & (rho <= 0.74)
        gain = np.where(seam, 1.0 - 0.25 * np.maximum(facing, 0.0) - 0.05, gain)
        gain = np.where(rho > 0.95, 0.5, gain)
    elif design == "logo":
        gain = np.where(rho > 0.94, 0.55, 1.0)
        gain = np.where(np.abs(rho - 0.62) < 0.025, 0.8, gain)
    elif design == "marbled":
        angle = rng.uniform(0, math.pi)
        along = (xx * math.cos(angle) + yy * math.sin(angle)) / r
        across = (-xx * math.sin(angle) + yy * math.cos(angle)) / r
        phase = rng.uniform(0, 2 * math.pi, 3)
        wave = along * rng.uniform(5, 9) + 1.4 * np.sin(across * 3 + phase[0])
        wave += 0.8 * np.sin(along * 2.3 + across * 4.1 + phase[1])
        vein = np.exp(-(np.sin(wave + phase[2]) ** 2) / 0.06).astype(np.float32)
        gain = np.where(rho > 0.95, 0.55, 1.0)
    out = base[None, None, :] * gain[..., None]
    if design == "marbled":
        mix = (0.75 * vein * (rho <= 0.95))[..., None]
        out = out * (1 - mix) + np.array(accent, np.float32) * mix
    if design == "shiny":
        hx, hy = 0.42 * r * light[0], 0.42 * r * light[1]
        spot = np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (0.16 * r) ** 2))
        out = out + (150 * spot)[..., None]
    out = np.clip(out, 0, 255)
    if design == "logo" and text:
        patch = np.ascontiguousarray(out.astype(np.uint8))
        scale = r / 28 * (1.0 if len(text) == 1 else 0.75)
        thick = max(1, round(r / 14))
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        org = (half - tw // 2, half + th // 2)
        cv2.putText(patch, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, accent, thick, cv2.LINE_AA)
        out = patch.astype(np.float32)
    return out.astype(np.float32), alpha.astype(np.float32)


def _paste(
    view: Image, cx: float, cy: float, rgb: NDArray[np.float32], alpha: NDArray[np.float32]
) -> None:
    """`rgb` over `view` with coverage `alpha`, the patch centred at pixel (cx, cy)."""
    half = rgb.shape[0] // 2
    x0, y0 = round(cx) - half, round(cy) - half
    h, w = view.shape[:2]
    ax0, ay0 = max(0, -x0), max(0, -y0)
    ax1, ay1 = min(rgb.shape[1], w - x0), min(rgb.shape[0], h - y0)
    if ax0 >= ax1 or ay0 >= ay1:
        return
    region = view[y0 + ay0 : y0 + ay1, x0 + ax0 : x0 + ax1]
    a = alpha[ay0:ay1, ax0:ax1, None]
    mixed = region.astype(np.float32) * (1 - a) + rgb[ay0:ay1, ax0:ax1] * a
    region[:] = np.clip(mixed, 0, 255).astype(np.uint8)


def _draw_checkers(
    view: Image, checkers: list[dict[str, Any]], d: float, style: Style, look: Look, seed: int
) -> None:
    """The checkers in the style's design, layer by layer: each layer's shadows (cast away
    from the scene's light, longer for higher checkers, hard or soft) darken what lies
    below, then its checkers are drawn over them. Seeded by the scene."""
    light = _light_dir(look)
    tints = {"white": style.light, "black": style.dark}
    accents = dict(zip(("white", "black"), style.accent or (style.light, style.dark), strict=True))
    if style.accent is None:  # a logo or streaks a shade off the checker's own colour
        accents = {c: _shade(t, 0.6 if sum(t) > 300 else 1.8) for c, t in tints.items()}
    r = _mm(d / 2)
    numbers: dict[tuple[str, Any], int] = {}
    for layer in sorted({int(c["layer"]) for c in checkers}):
        mine = [(k, c) for k, c in enumerate(checkers) if c["layer"] == layer]
        lift = (1 + layer) * look.shadow_mm
        mask = np.zeros(view.shape[:2], np.float32)
        for _, c in mine:
            x, y = c["center_mm"]
            sx, sy = x - light[0] * lift, y - light[1] * lift
            cv2.circle(
                mask, (_mm(sx), _mm(sy)), _mm(d / 2 * (1 + 0.015 * layer)), 1.0, -1, cv2.LINE_AA
            )
        if look.shadow_blur_mm > 0:
            sigma = look.shadow_blur_mm * PX_PER_MM * (1 + 0.3 * layer)
            mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma), np.float32)
        dark = 1.0 - look.shadow_strength * mask
        shaded = view.astype(np.float32) * dark[..., None]
        view[:] = np.clip(shaded, 0, 255).astype(np.uint8)
        for k, c in mine:
            x, y = c["center_mm"]
            key = (c["color"], c["point"])
            numbers[key] = numbers.get(key, 0) + 1
            text = str(numbers[key]) if style.logo == "#" else style.logo
            rng = np.random.default_rng([seed, 11, k])
            rgb, alpha = _disc(
                r * (1 + 0.015 * layer),
                tints[c["color"]],
                style.design,
                accents[c["color"]],
                light,
                rng,
                text,
            )
            _paste(view, x * PX_PER_MM, y * PX_PER_MM, rgb, alpha)


def _share(scene: Scene) -> float:
    """A checker's diameter in point widths: the scene's, else the module's `CHECKER_SHARE`
    (looked up when drawn, so that a test may set it)."""
    return CHECKER_SHARE if scene.checker_share is None else scene.checker_share


def checker_layout(scene: Scene, geo: BoardGeometry) -> list[dict[str, Any]]:
    """Where each checker of the scene's position lies, as players place them by hand.

    Rows of `scene.row` along the point from the edge, touching or with small gaps, a
    little off the point's axis; past a row's worth stacked on top, each across two below it
    (`calibration.layout.stack_layout`); on the bar, each side's checkers in a row from the
    centre towards the owner. Seeded by the scene.
    """
    rng = np.random.default_rng([scene.seed, 7])
    d = geo.point_width_mm * _share(scene)
    p = geo.point_width_mm
    out: list[dict[str, Any]] = []
    for color, arr in (("white", scene.white), ("black", scene.black)):
        if arr is None:
            continue
        places: list[tuple[Any, int, float, float, int]] = []  # point, count, x, origin, sign
        for point in range(1, 25):
            rect = geo.point_rect(point, "white" if color == "white" else "black")
            from_top = rect.y0 == 0
            edge = 0.0 if from_top else geo.height_mm
            places.append((point, arr[point], (rect.x0 + rect.x1) / 2, edge, 1 if from_top else -1))
        sign = 1 if color == "white" else -1
        places.append(("bar", arr[25], geo.width_mm / 2, geo.height_mm / 2 + sign * 0.2 * d, sign))
        for point, count, cx, origin, sign in places:
            row = BAR_ROW if point == "bar" else scene.row
            layers: list[list[tuple[float, float]]] = []  # per layer: (along, across) centres
            for layer, _ in stack_layout(count, row):
                if layer == len(layers):
                    layers.append([])
                mine = layers[layer]
                if layer == 0:
                    gap = rng.uniform(0, 0.04 * d) if mine else 0.0
                    a = mine[-1][0] + d + gap if mine else d / 2
                    c = rng.uniform(-0.07, 0.07) * p
                else:  # across two below it, or half past the last one below
                    below, j = layers[layer - 1], len(mine)
                    if j + 1 < len(below):
                        a = (below[j][0] + below[j + 1][0]) / 2
                        c = (below[j][1] + below[j + 1][1]) / 2
                    else:
                        a, c = below[-1][0] + d / 2, below[-1][1]
                    c += rng.uniform(-0.03, 0.03) * p
                mine.append((a, c))
                out.append(
                    {
                        "color": color,
                        "point": point,
                        "layer": layer,
                        "center_mm": [cx + c, origin + sign * a],
                    }
                )
    return out


# A pip's centre from its face's centre (`_PIPS`' units) and its radius, of the die's size.
PIP_SPREAD, PIP_RADIUS = 0.27, 0.085
# A pip's outline where it is drawn as a polygon (foreshortened, or projected): 12 points
# round the unit circle.
_RING = [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 12, endpoint=False)]


def _draw_die(
    canvas: Image, die: Die, offset_mm: float = 0.0, look: Look | None = None, sides: bool = False
) -> dict[str, Any]:
    """A die on the canvas, seen from straight above; `offset_mm` shifts surface
    millimetres to canvas millimetres. A cocked die: its top face squashed to 0.62 beside a
    plain side face 0.45 of the die wide, darker; or, with `sides` (a scene's
    `dice_sides`), leaning `lean_deg` over one edge: its top face foreshortened by the
    lean's cosine and, beside it, the side face the lean turns up, as wide as the lean's
    sine, with its pips, both shaded by `look`'s light (as `_draw_solid_die` shades its
    faces)."""
    face, pip = DICE_STYLES[die.style]
    s = die.size_mm * (1.12 if die.state == "on_checker" else 1.0)
    a = math.radians(die.angle_deg)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    lean = math.radians(die.lean_deg) if die.state == "cocked" else 0.0
    squash = math.cos(lean) if sides else 0.62 if die.state == "cocked" else 1.0

    def polygon(corners: list[tuple[float, float]]) -> NDArray[np.int32]:
        """Die-frame corners (in die sizes, turned by the die's angle) to canvas pixels."""
        return np.array(
            [
                [
                    (offset_mm + die.x_mm + (p * ux + q * vx) * s) * PX_PER_MM,
                    (offset_mm + die.y_mm + (p * uy + q * vy) * s) * PX_PER_MM,
                ]
                for p, q in corners
            ],
            np.int32,
        )

    def spot(p: float, q: float) -> tuple[float, float]:
        """Die-frame (p, q), in die sizes (q foreshortened as the top face is), to canvas
        millimetres."""
        x = offset_mm + die.x_mm + (p * ux + q * squash * vx) * s
        y = offset_mm + die.y_mm + (p * uy + q * squash * vy) * s
        return x, y

    half = 0.5 * squash
    pts = polygon([(-0.5, -half), (0.5, -half), (0.5, half), (-0.5, half)])
    side = None
    # the visible side face: the one the lean turns up, or the plain band
    near, far = half, half + (math.sin(lean) if sides else 0.45)
    if die.state == "cocked":
        side = polygon([(-0.5, near), (0.5, near), (0.5, far), (-0.5, far)])
    shadow = pts + np.array([4, 5], np.int32)
    clear = DICE_CLEAR.get(die.style, 0.0)
    if clear:
        _draw_clear_die(canvas, die.value, face, pip, clear, pts, side, shadow, spot, s)
        return _die_label(die)
    if side is not None and not sides:
        cv2.fillConvexPoly(canvas, side, _shade(face, 0.65), cv2.LINE_AA)
    cv2.fillConvexPoly(canvas, shadow, (20, 20, 20), cv2.LINE_AA)
    top_shade = 1.0
    if side is not None and sides:
        # Each face's normal: the top's tipped away from the side by the lean, the side's
        # turned up by it; lit as `_draw_solid_die` lights a face.
        lx, ly = _light_dir(look if look is not None else Look())
        along = lx * vx + ly * vy  # the light's reach along the side's outward direction
        top_shade = _lit(0.6 * -along * math.sin(lean) + 0.8 * math.cos(lean))
        side_shade = _lit(0.6 * along * math.cos(lean) + 0.8 * math.sin(lean))
        cv2.fillConvexPoly(canvas, side, _shade(face, side_shade), cv2.LINE_AA)
        cv2.polylines(canvas, [side], True, _shade(face, side_shade * 0.75), 1, cv2.LINE_AA)
        # The side's pips: its value is the one beside the top's on the +v side
        # (`_sides`), each pip foreshortened as the face is.
        middle, r = (near + far) / 2, PIP_RADIUS
        for p, q in _PIPS[_sides(die.value)[1]]:
            cu, cv = p * PIP_SPREAD, middle + q * PIP_SPREAD * math.sin(lean)
            spots = [(cu + r * x, cv + r * y * math.sin(lean)) for x, y in _RING]
            cv2.fillConvexPoly(canvas, polygon(spots), _shade(pip, side_shade), cv2.LINE_AA)
    top = _shade(face, top_shade)
    cv2.fillConvexPoly(canvas, pts, top, cv2.LINE_AA)
    cv2.polylines(canvas, [pts], True, _shade(top, 0.75), 1, cv2.LINE_AA)
    _draw_pips(canvas, spot, die.value, _shade(pip, top_shade), s)
    return _die_label(die)


def _lit(facing: float) -> float:
    """A face's shade from how much it faces the light (the dot product of its normal with
    the light's direction, 0.8 for a face lying flat), as `_draw_solid_die` shades."""
    return min(1.0, max(0.35, 0.45 + 0.55 * facing / 0.8))


Spot = Callable[[float, float], tuple[float, float]]  # die-frame (in die sizes) to canvas mm


def _draw_pips(
    target: Image,
    spot: Spot,
    value: int,
    colour: BGR,
    size_mm: float,
    mirror: float = 1.0,
    corner: tuple[int, int] = (0, 0),
) -> None:
    """`value`'s pips on `target`, whose corner lies at canvas pixel `corner`; `mirror` -1
    flips them across the die (a bottom face's, seen through the die)."""
    for p, q in _PIPS[value]:
        px, py = spot(mirror * p * PIP_SPREAD, q * PIP_SPREAD)
        at = (_mm(px) - corner[0], _mm(py) - corner[1])
        cv2.circle(target, at, max(2, _mm(size_mm * PIP_RADIUS)), colour, -1, cv2.LINE_AA)


def _draw_clear_die(
    canvas: Image,
    value: int,
    face: BGR,
    pip: BGR,
    clear: float,
    pts: NDArray[np.int32],
    side: NDArray[np.int32] | None,
    shadow: NDArray[np.int32],
    spot: Spot,
    size_mm: float,
) -> None:
    """A see-through die (`DICE_CLEAR`) showing `value`: drawn opaque on a copy of what lies
    under it, then mixed with what lies under, tinted by the die's colour, where its body
    is; its shadow lighter, its bottom face's pips faintly through it, and its sides seen
    from within, as a camera above sees them through the top: a darker rim inside each
    edge and each side's pips in a band along its edge; its top face's pips on top."""
    polys = [pts, shadow] + ([side] if side is not None else [])
    every = np.concatenate(polys)
    h, w = canvas.shape[:2]
    x0, y0 = (int(v) for v in np.maximum(every.min(axis=0) - 3, 0))
    x1, y1 = (int(v) for v in np.minimum(every.max(axis=0) + 4, (w, h)))
    if x1 <= x0 or y1 <= y0:
        return
    at = np.array([x0, y0], np.int32)
    under = canvas[y0:y1, x0:x1].astype(np.float32)
    layer = canvas[y0:y1, x0:x1].copy()
    body = np.zeros(layer.shape[:2], np.uint8)
    dark = np.zeros(layer.shape[:2], np.uint8)
    cv2.fillConvexPoly(dark, shadow - at, 255, cv2.LINE_AA)
    if side is not None:
        cv2.fillConvexPoly(layer, side - at, _shade(face, 0.65), cv2.LINE_AA)
        cv2.fillConvexPoly(body, side - at, 255, cv2.LINE_AA)
    cv2.fillConvexPoly(layer, pts - at, face, cv2.LINE_AA)
    cv2.fillConvexPoly(body, pts - at, 255, cv2.LINE_AA)
    cv2.polylines(layer, [pts - at], True, _shade(face, 0.75), 1, cv2.LINE_AA)
    # The bottom face's pips, seen through the die: mirrored, between body and pip colour.
    blue, green, red = (int(0.6 * f + 0.4 * p) for p, f in zip(pip, face, strict=True))
    faint = (blue, green, red)
    _draw_pips(layer, spot, 7 - value, faint, size_mm, mirror=-1.0, corner=(x0, y0))
    # The sides seen from within: a rim inside the edges, each side's pips along its edge
    # (+u, +v, -u, -v: `_sides`), squeezed into a band from 0.36 to 0.45 of the side out.
    corners = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    rim = np.array([spot(p * 0.44, q * 0.44) for p, q in corners]) * PX_PER_MM - at
    cv2.polylines(layer, [np.round(rim).astype(np.int32)], True, _shade(face, 0.55), 1, cv2.LINE_AA)
    radius = max(1, _mm(size_mm * 0.05))
    for (eu, ev), seen in zip(((1, 0), (0, 1), (-1, 0), (0, -1)), _sides(value), strict=True):
        for p, q in _PIPS[seen]:
            depth, along = 0.405 - q * 0.035, p * PIP_SPREAD
            x, y = spot(eu * depth - ev * along, ev * depth + eu * along)
            cv2.circle(layer, (_mm(x) - x0, _mm(y) - y0), radius, faint, -1, cv2.LINE_AA)
    tint = np.asarray(face, np.float32) / max(1.0, float(max(face)))
    through = under * tint
    alpha = body.astype(np.float32)[..., None] / 255.0
    # Less light is stopped the clearer the die: its shadow is the lighter.
    shaded = under * (1.0 - (dark.astype(np.float32)[..., None] / 255.0) * (0.75 - 0.5 * clear))
    mixed = layer.astype(np.float32) * (1 - clear) + through * clear
    out = np.clip(shaded * (1 - alpha) + mixed * alpha + 0.5, 0, 255).astype(np.uint8)
    canvas[y0:y1, x0:x1] = out
    _draw_pips(canvas, spot, value, pip, size_mm)


def _die_label(die: Die) -> dict[str, Any]:
    """A die's label: its value, where it lies on the board and how."""
    return {
        "value": die.value,
        "center_mm": [die.x_mm, die.y_mm],
        "state": die.state,
        "flat": die.state != "cocked",
        "on_checker": die.state == "on_checker",
        "style": die.style,
    }


CHECKER_MM = 4.0  # a checker's thickness: a die on one rests this high


def _sides(value: int) -> tuple[int, int, int, int]:
    """The values on a die's four sides (+u, +v, -u, -v) round `value` on top: opposite
    faces add up to seven."""
    a, b = (v for v in range(1, 7) if v not in (value, 7 - value) and v < 7 - v)
    return a, b, 7 - a, 7 - b


def _draw_solid_die(
    canvas: Image, die: Die, offset_mm: float, eye: tuple[float, float, float], look: Look
) -> None:
    """A die as a cube seen from the camera at `eye` (canvas mm, and its height over the
    board): each corner projected onto the board along the ray to the eye, so that the
    plane's homography puts it where the camera sees it (a point `z` high at p lies on
    the ray through eye + (p - eye) * H / (H - z)). The faces that face the eye are
    drawn, shaded by the light, each with its pips."""
    face_colour, pip_colour = DICE_STYLES[die.style]
    s = die.size_mm
    a = math.radians(die.angle_deg)
    eu = np.array([math.cos(a), math.sin(a), 0.0])
    ev = np.array([-math.sin(a), math.cos(a), 0.0])
    ew = np.array([0.0, 0.0, 1.0])
    lean = math.radians(die.lean_deg) if die.state == "cocked" else 0.0
    lift = CHECKER_MM if die.state == "on_checker" else 0.0
    base = np.array([offset_mm + die.x_mm, offset_mm + die.y_mm, lift])

    def turn(v: float, w: float) -> tuple[float, float]:
        """Die-frame (v, w) leaning about the edge at v = s/2, w = 0."""
        dv = v - s / 2
        return s / 2 + dv * math.cos(lean) + w * math.sin(lean), -dv * math.sin(
            lean
        ) + w * math.cos(lean)

    def world(u: float, v: float, w: float) -> NDArray[np.float64]:
        tv, tw = turn(v, w)
        return np.asarray(base + u * eu + tv * ev + tw * ew, np.float64)

    ex, ey, eh = eye

    def project(points: NDArray[np.float64]) -> NDArray[np.int32]:
        k = eh / np.maximum(eh - points[:, 2], 1.0)
        x = ex + (points[:, 0] - ex) * k
        y = ey + (points[:, 1] - ey) * k
        return np.round(np.stack([x, y], 1) * PX_PER_MM * 16).astype(np.int32)

    lx, ly = _light_dir(look)
    light = np.array([0.6 * lx, 0.6 * ly, 0.8])
    h = s / 2
    # The shadow: the footprint on the board, pushed away from the light.
    foot = np.array([world(u * h, v * h, 0.0) for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    foot[:, :2] -= np.array([lx, ly]) * s * 0.3
    foot[:, 2] = 0.0
    cv2.fillConvexPoly(canvas, project(foot), (20, 20, 20), cv2.LINE_AA, 4)
    sides = _sides(die.value)
    # Each face: its centre and two half-axes in the die's frame, and its value.
    faces = [
        ((0.0, 0.0, s), (h, 0.0, 0.0), (0.0, h, 0.0), die.value),
        ((h, 0.0, h), (0.0, h, 0.0), (0.0, 0.0, h), sides[0]),
        ((0.0, h, h), (-h, 0.0, 0.0), (0.0, 0.0, h), sides[1]),
        ((-h, 0.0, h), (0.0, -h, 0.0), (0.0, 0.0, h), sides[2]),
        ((0.0, -h, h), (h, 0.0, 0.0), (0.0, 0.0, h), sides[3]),
    ]
    eye_v = np.array(eye, np.float64)
    middle = world(0.0, 0.0, h)
    for (cu, cv, cw), ax1, ax2, value in faces:
        c = world(cu, cv, cw)
        p1 = world(cu + ax1[0], cv + ax1[1], cw + ax1[2]) - c
        p2 = world(cu + ax2[0], cv + ax2[1], cw + ax2[2]) - c
        normal = (c - middle) / h
        if float(normal @ (eye_v - c)) <= 0:
            continue
        shade = _lit(float(normal @ light))
        corners = project(np.array([c - p1 - p2, c + p1 - p2, c + p1 + p2, c - p1 + p2]))
        cv2.fillConvexPoly(canvas, corners, _shade(face_colour, shade), cv2.LINE_AA, 4)
        cv2.polylines(canvas, [corners], True, _shade(face_colour, shade * 0.75), 1, cv2.LINE_AA, 4)
        e1, e2 = p1 / h, p2 / h
        r = s * PIP_RADIUS
        for p, q in _PIPS[value]:
            pc = c + (p * PIP_SPREAD * s) * e1 + (q * PIP_SPREAD * s) * e2
            pts = np.array([pc + r * (cx * e1 + cy * e2) for cx, cy in _RING])
            cv2.fillConvexPoly(canvas, project(pts), _shade(pip_colour, shade), cv2.LINE_AA, 4)


TEARDROP = 0.7  # a teardrop point's width along it: (what is left of its length) ** TEARDROP


def _point_outline(scene: Scene, geo: BoardGeometry, n: int) -> NDArray[np.int32]:
    """Point `n`'s outline in board pixels (2 px/mm): a triangle from the board's edge to
    its tip, or the scene's other shape (`Scene.point_base`, `point_length`,
    `point_inset_mm`, `point_arched`, `point_teardrop`)."""
    r = geo.point_rect(n)
    sign = 1 if r.y0 == 0 else -1
    edge = (r.y0 if r.y0 == 0 else r.y1) + sign * scene.point_inset_mm
    x, half = (r.x0 + r.x1) / 2, (r.x1 - r.x0) / 2 * scene.point_base
    length = scene.height_mm / 2 * scene.point_length
    tip = (x, edge + sign * length)
    if scene.point_teardrop:  # sides bowed out: as wide as what is left of it to the 0.7th
        t = np.linspace(0.0, 1.0, 25)[:-1]
        side = [(x + half * (1 - f) ** TEARDROP, edge + sign * f * length) for f in t]
        mirrored = [(2 * x - px, py) for px, py in reversed(side)]
        return np.array([[_mm(px), _mm(py)] for px, py in [*mirrored, *side, tip]], np.int32)
    if scene.point_arched:  # a half disc at the edge, its sides running on to the tip
        t = np.linspace(0.0, np.pi, 17)
        end = [(x + half * math.cos(a), edge + sign * half * (1 - math.sin(a))) for a in t]
    else:
        end = [(x - half, edge), (x + half, edge)]
    return np.array([[_mm(px), _mm(py)] for px, py in [*end, tip]], np.int32)


def _draw_soft_points(view: Image, scene: Scene, geo: BoardGeometry) -> None:
    """The points, each colour's blended in by its outlines' cover blurred over
    `Scene.point_soft_mm` (its edges fade over that width, showing no line)."""
    sigma = max(_mm(scene.point_soft_mm) / 2, 0.5)
    for colour in (0, 1):
        cover = np.zeros(view.shape[:2], np.float32)
        for n in range(2 - colour, 25, 2):
            cv2.fillConvexPoly(cover, _point_outline(scene, geo, n), 1.0, cv2.LINE_AA)
        alpha = np.asarray(cv2.GaussianBlur(cover, (0, 0), sigma), np.float32)[..., None]
        tint = np.array(scene.style.triangles[colour], np.float32)
        view[:] = np.clip(view * (1 - alpha) + tint * alpha + 0.5, 0, 255).astype(np.uint8)


def _tray_ends(scene: Scene) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where an open case's two trays (`Scene.tray_mm`) lie across, x0 and x1 in the drawn
    board's mm (its corner the origin): beyond the left end of the surface, then the
    right, each behind its rail."""
    m, w, rail, tray = scene.margin_mm, scene.width_mm, scene.tray_rail_mm, scene.tray_mm
    return (m - rail - tray, m - rail), (m + w + rail, m + w + rail + tray)


def _trays(scene: Scene) -> list[tuple[float, float, float, float]]:
    """An open case's trays in the drawn board's mm: x0, x1, y0, y1 of each, the
    surface's height long (split across the middle where `tray_split`); none without."""
    if scene.tray_mm <= 0:
        return []
    m, h = scene.margin_mm, scene.height_mm
    if not scene.tray_split:
        return [(x0, x1, m, m + h) for x0, x1 in _tray_ends(scene)]
    block = 0.15 * h  # across the middle: where a case keeps the cube
    return [
        (x0, x1, y0, y1)
        for x0, x1 in _tray_ends(scene)
        for y0, y1 in ((m, m + h / 2 - block / 2), (m + h / 2 + block / 2, m + h))
    ]


ON_EDGE = 0.17  # a checker's thickness, of its diameter: what one borne off shows from above


def _draw_borne_off(canvas: Image, scene: Scene, geo: BoardGeometry, d: float) -> None:
    """Each side's checkers borne off (index 0 of its array), standing on edge in the tray
    beside its home board, from the end of the tray on its side of the board: seen from
    above, a strip a checker's thickness wide and (at most) its diameter long each."""
    m, thick = scene.margin_mm, ON_EDGE * d
    length = min(d, scene.tray_mm - 4.0)
    tints = {"white": scene.style.light, "black": scene.style.dark}
    ends = _tray_ends(scene)
    sides: tuple[tuple[Color, tuple[int, ...] | None], ...] = (
        ("white", scene.white),
        ("black", scene.black),
    )
    for color, counts in sides:
        home = geo.point_rect(1, color)  # surface mm
        x0, x1 = ends[(home.x0 + home.x1) / 2 > scene.width_mm / 2]
        x = (x0 + x1) / 2
        far = home.y0 == 0  # the home board along the far (top) edge
        for k in range(counts[0] if counts else 0):
            y = (
                m + 2.0 + (k + 0.5) * thick
                if far
                else m + scene.height_mm - 2.0 - (k + 0.5) * thick
            )
            top_left = (_mm(x - length / 2), _mm(y - thick / 2))
            bottom_right = (_mm(x + length / 2), _mm(y + thick / 2))
            cv2.rectangle(canvas, top_left, bottom_right, tints[color], -1, cv2.LINE_AA)
            cv2.rectangle(canvas, top_left, bottom_right, _shade(tints[color], 0.5), 1, cv2.LINE_AA)


def _top_down(
    scene: Scene,
    geo: BoardGeometry,
    rng: np.random.Generator,
    eye: tuple[float, float, float] | None = None,
) -> tuple[Image, dict[str, Any]]:
    """The board from straight above at 2 px/mm, frame (and an open case's trays)
    included; origin at the drawn board's corner. With the camera's `eye` (canvas mm and
    height), dice are drawn solid."""
    st, f = scene.style, scene.margin_mm
    w_mm, h_mm = scene.width_mm + 2 * f, scene.height_mm + 2 * f
    size = (_mm(h_mm), _mm(w_mm))
    canvas = np.zeros((*size, 3), np.uint8)
    canvas[:] = st.frame
    for x0, x1, y0, y1 in _trays(scene):
        canvas[_mm(y0) : _mm(y1), _mm(x0) : _mm(x1)] = st.surface
    inner = canvas[_mm(f) : _mm(f + scene.height_mm), _mm(f) : _mm(f + scene.width_mm)]
    inner[:] = st.surface
    # Everything on the surface is drawn in surface millimetres: shift by the frame.
    view = canvas[_mm(f) : _mm(f + scene.height_mm), _mm(f) : _mm(f + scene.width_mm)]
    if scene.point_soft_mm > 0:
        _draw_soft_points(view, scene, geo)
    else:
        for n in range(1, 25):
            outline = _point_outline(scene, geo, n)
            cv2.fillConvexPoly(view, outline, st.triangles[n % 2], cv2.LINE_AA)
    bar = geo.bar
    view[:, _mm(bar.x0) : _mm(bar.x1)] = st.bar or st.frame
    if st.bar_raised:
        _raise_bar(view, bar.x0, bar.x1, st.bar or st.frame, scene.look)
    tex = _texture(size, st.texture, rng)
    canvas = _textured(canvas, tex)
    view = canvas[_mm(f) : _mm(f + scene.height_mm), _mm(f) : _mm(f + scene.width_mm)]
    if st.hinges:
        _draw_hinges(view, bar.x0, bar.x1, scene.height_mm)
    d = geo.point_width_mm * _share(scene)
    checkers = checker_layout(scene, geo)
    tints = {"white": st.light, "black": st.dark}
    if st.design == "moulded" and scene.look.shadow_deg is None:
        # Lower layers first, so that a stacked checker lies over those it rests on.
        for item in sorted(checkers, key=lambda c: c["layer"]):
            x, y = item["center_mm"]
            _draw_checker(view, x, y, d, tints[item["color"]], item["layer"])
    else:
        _draw_checkers(view, checkers, d, st, scene.look, scene.seed)
    if scene.tray_mm > 0:
        _draw_borne_off(canvas, scene, geo, d)
    if eye is not None:
        for die in scene.dice:
            _draw_solid_die(canvas, die, f, eye, scene.look)
        dice = [_die_label(die) for die in scene.dice]
    else:
        dice = [
            _draw_die(canvas, die, offset_mm=f, look=scene.look, sides=scene.dice_sides)
            for die in scene.dice
        ]
    return canvas, {"checkers": checkers, "dice": dice}


# --- the camera --------------------------------------------------------------------------


def _rotation(pose: CameraPose) -> NDArray[np.float64]:
    yaw, tilt, axis = (math.radians(v) for v in (pose.yaw_deg, pose.tilt_deg, pose.tilt_axis_deg))
    rz = np.array(
        [[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]]
    )
    ax = np.array([math.cos(axis), math.sin(axis), 0.0])
    tilt_r, _ = cv2.Rodrigues(ax * tilt)
    return np.asarray(tilt_r @ rz, dtype=np.float64)


def _camera(
    scene: Scene, board_w: float, board_h: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The camera matrix, and the homography from board mm (frame origin) to undistorted px."""
    iw, ih = scene.image_size
    pose = scene.pose
    r = _rotation(pose)
    t = np.array([0.0, 0.0, pose.distance_mm])
    centre = np.array([[1, 0, -board_w / 2], [0, 1, -board_h / 2], [0, 0, 1]], np.float64)
    plane = np.column_stack([r[:, 0], r[:, 1], t]) @ centre  # board mm -> camera rays
    corners = np.array(
        [[0, 0, 1], [board_w, 0, 1], [board_w, board_h, 1], [0, board_h, 1]], np.float64
    ).T
    rays = plane @ corners
    xy = rays[:2] / rays[2]
    span = max((xy[0].max() - xy[0].min()) / iw, (xy[1].max() - xy[1].min()) / ih)
    f = pose.fill / span
    mid = (xy.max(axis=1) + xy.min(axis=1)) / 2
    cx = iw / 2 - f * mid[0] + pose.shift[0] * iw
    cy = ih / 2 - f * mid[1] + pose.shift[1] * ih
    # Principal point at the image centre; the board's offset goes into the homography.
    k = np.array([[f, 0, iw / 2], [0, f, ih / 2], [0, 0, 1]], np.float64)
    shift = np.array([[1, 0, cx - iw / 2], [0, 1, cy - ih / 2], [0, 0, 1]], np.float64)
    return k, shift @ k @ plane


def _eye(scene: Scene, board_w: float, board_h: float) -> tuple[float, float, float]:
    """The camera's centre over the board: (x, y) in board mm from the frame's corner, and
    its height over the board (mm)."""
    r = _rotation(scene.pose)
    c = -r.T @ np.array([0.0, 0.0, scene.pose.distance_mm])
    return float(c[0] + board_w / 2), float(c[1] + board_h / 2), float(-c[2])


def _distortion_maps(
    k: NDArray[np.float64], dist: NDArray[np.float64], size: tuple[int, int]
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """For each raw (distorted) pixel, where it comes from in the undistorted image."""
    iw, ih = size
    step = 8
    gx, gy = np.meshgrid(
        np.arange(0, iw + step, step, dtype=np.float64),
        np.arange(0, ih + step, step, dtype=np.float64),
    )
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1).reshape(-1, 1, 2)
    und = (
        cv2.undistortPoints(pts, k, dist, P=k)
        .reshape(gx.shape[0], gx.shape[1], 2)
        .astype(np.float32)
    )
    return dense_maps(und, iw, ih, step, _BAND)


def render(scene: Scene) -> Rendered:
    """The image of a scene, and its labels."""
    rng = np.random.default_rng(scene.seed)
    iw, ih = scene.image_size
    f = scene.margin_mm
    board_w, board_h = scene.width_mm + 2 * f, scene.height_mm + 2 * f
    k, h_board = _camera(scene, board_w, board_h)
    surface_mm = np.array(
        [
            [f, f],
            [f + scene.width_mm, f],
            [f + scene.width_mm, f + scene.height_mm],
            [f, f + scene.height_mm],
        ]
    )
    und_corners = cv2.perspectiveTransform(surface_mm.reshape(-1, 1, 2), h_board).reshape(-1, 2)
    geo_cal = scene_calibration(scene, _quad(und_corners))
    geo = BoardGeometry(geo_cal)
    top, items = _top_down(
        scene, geo, rng, _eye(scene, board_w, board_h) if scene.dice_solid else None
    )
    # Table background, then the board projected onto it.
    table = np.zeros((ih, iw, 3), np.uint8)
    table[:] = scene.style.table
    table = _textured(table, _texture((ih, iw), "wood", rng))
    tex_from_mm = np.array([[PX_PER_MM, 0, 0], [0, PX_PER_MM, 0], [0, 0, 1]], np.float64)
    h_tex = h_board @ np.linalg.inv(tex_from_mm)
    board = cv2.warpPerspective(top, h_tex, (iw, ih), flags=cv2.INTER_LINEAR)
    case = np.full(top.shape[:2], 255, np.uint8)
    beyond = f - scene.frame_mm  # along the long sides, past the frame: the table
    if beyond > 0:
        case[: _mm(beyond)] = 0
        case[_mm(f + scene.height_mm + scene.frame_mm) :] = 0
    mask = cv2.warpPerspective(case, h_tex, (iw, ih))
    image = np.where(mask[..., None] > 127, board, table)
    del board, mask, table  # frame-sized: not kept while the rest is drawn
    dist = np.array([scene.pose.k1, scene.pose.k2, 0.0, 0.0, 0.0])
    camera = None
    raw_corners = und_corners
    if scene.pose.k1 or scene.pose.k2:
        mx, my = _distortion_maps(k, dist, (iw, ih))
        image = np.asarray(
            cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8
        )
        del mx, my
        rays = (np.linalg.inv(k) @ np.hstack([und_corners, np.ones((4, 1))]).T).T
        raw_corners = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), k, dist)[0].reshape(-1, 2)
        (k0, k1, k2), d = k.tolist(), dist.tolist()
        camera = Camera(
            ((k0[0], k0[1], k0[2]), (k1[0], k1[1], k1[2]), (k2[0], k2[1], k2[2])),
            (d[0], d[1], d[2], d[3], d[4]),
        )
    image = _light_and_noise(image, scene.look, rng)
    truth = replace(geo_cal, camera=camera)
    truth_geo = BoardGeometry(truth)
    for item in items["checkers"] + items["dice"]:
        (px,) = truth_geo.mm_to_px([tuple(item["center_mm"])])
        item["center_px"] = [float(px[0]), float(px[1])]
    labels = {
        "image_size": [iw, ih],
        "corners_px_raw": raw_corners.tolist(),
        "calibration": truth.to_json(),
        "style": scene.style.name,
        "white_home": scene.white_home,
        "pose": scene.pose.__dict__,
        **items,
    }
    return Rendered(image, labels, truth, np.asarray(raw_corners, np.float64))


def _quad(
    c: NDArray[Any],
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]:
    return (
        (float(c[0][0]), float(c[0][1])),
        (float(c[1][0]), float(c[1][1])),
        (float(c[2][0]), float(c[2][1])),
        (float(c[3][0]), float(c[3][1])),
    )


def _light_and_noise(image: Image, look: Look, rng: np.random.Generator) -> Image:
    ih, iw = image.shape[:2]
    out = image.astype(np.float32)
    if look.light_gradient or look.vignette:
        # Broadcast rows and columns, in bands of rows: the same values as full grids,
        # a fraction of the memory.
        xx = np.arange(iw, dtype=np.float32)[None, :]
        angle = rng.uniform(0, 2 * math.pi)
        for y in range(0, ih, _BAND):
            yy = np.arange(y, min(y + _BAND, ih), dtype=np.float32)[:, None]
            ramp = ((xx / iw - 0.5) * math.cos(angle) + (yy / ih - 0.5) * math.sin(angle)) * 2
            field = 1.0 + look.light_gradient * 0.5 * ramp
            r2 = ((xx - iw / 2) / (iw / 2)) ** 2 + ((yy - ih / 2) / (ih / 2)) ** 2
            field *= 1.0 - look.vignette * 0.5 * r2
            out[y : y + _BAND] *= field[..., None]
    if look.blur:
        cv2.GaussianBlur(out, (0, 0), look.blur, dst=out)  # in place: one float frame less
    if look.noise:
        # In bands of rows: the same draws as one call, without a float64 copy of the frame.
        band = 64
        for y in range(0, ih, band):
            rows = out[y : y + band]
            rows += rng.normal(0, look.noise, rows.shape).astype(np.float32)
    result = np.clip(out, 0, 255, out=out).astype(np.uint8)
    if look.jpeg:
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            result = np.asarray(decoded, np.uint8)
    return np.asarray(result, dtype=np.uint8)
