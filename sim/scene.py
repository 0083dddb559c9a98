"""What a rendered scene is made of: board styles, dice, the camera's pose, the look.

Plain frozen values (no pixels): a test or a benchmark describes a scene with them,
`sim.renderer.render` draws it. `random_scene` draws one within what a table set-up
produces; `scene_calibration` is the calibration of a scene's board at given corners.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from calibration.layout import ROW
from calibration.schema import Calibration

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    name: str
    frame: BGR
    surface: BGR
    triangles: tuple[BGR, BGR]
    light: BGR  # white's checkers
    dark: BGR  # black's checkers
    bar: BGR | None = None  # None: same as the frame
    texture: str = "felt"  # felt, wood, smooth
    table: BGR = (60, 70, 80)
    # How a checker is made (`sim.renderer`): "moulded" (bevelled rim, moulded ring: the
    # default family's), "flat" (a plain disc, thin rim), "raised" (a raised outer ring lit
    # from one side), "logo" (a thin rim and a letter in the middle; "#": each numbered),
    # "marbled" (streaks of `accent`), "shiny" (a raised rim and a highlight).
    design: str = "moulded"
    accent: tuple[BGR, BGR] | None = None  # (white's, black's) logo or streak colour
    logo: str = ""
    bar_raised: bool = False  # a bar standing above the surface: lit edge, shadow beside it
    hinges: bool = False  # two metal hinges with screws across the bar


STYLES = (
    Style(
        "classic",
        (30, 60, 110),
        (90, 140, 70),
        ((40, 40, 170), (215, 225, 230)),
        (225, 235, 240),
        (40, 35, 30),
    ),
    Style(
        "tournament",
        (25, 25, 25),
        (60, 110, 40),
        ((35, 35, 150), (200, 200, 200)),
        (230, 230, 230),
        (30, 30, 160),
        texture="felt",
    ),
    Style(
        "cork",
        (20, 45, 80),
        (120, 170, 200),
        ((30, 30, 30), (235, 245, 250)),
        (235, 240, 245),
        (20, 20, 110),
        texture="smooth",
    ),
    Style(
        "blue",
        (70, 50, 30),
        (140, 90, 40),
        ((40, 130, 220), (230, 230, 220)),
        (220, 230, 235),
        (35, 30, 30),
        bar=(50, 35, 25),
    ),
    Style(
        "leather",
        (15, 30, 55),
        (35, 75, 120),
        ((30, 30, 120), (170, 200, 215)),
        (210, 225, 235),
        (25, 25, 25),
        texture="wood",
    ),
    Style(
        "green-wood",
        (40, 80, 120),
        (50, 90, 40),
        ((230, 230, 230), (30, 30, 30)),
        (200, 220, 230),
        (20, 20, 90),
        texture="wood",
    ),
    Style(
        "grey",
        (90, 90, 90),
        (150, 150, 145),
        ((60, 60, 60), (240, 240, 240)),
        (245, 245, 245),
        (40, 40, 140),
        texture="smooth",
    ),
    Style(
        "burgundy",
        (25, 25, 70),
        (170, 190, 200),
        ((40, 40, 120), (60, 100, 60)),
        (235, 240, 240),
        (30, 30, 30),
    ),
)

# A second family, never drawn by default (`random_scene(rng, family="wide")`): checker
# sets, checker designs, boards, bars and light the reader was not tuned on (issue 27), to
# measure it on styles it never saw. White's set is the lighter one (CONTRACTS.md §1).
WIDE_STYLES = (
    Style(  # gold against white, raised rims, on dark green felt
        "gold-white",
        (20, 40, 70),
        (40, 70, 30),
        ((35, 115, 165), (225, 230, 235)),
        (235, 238, 240),
        (40, 165, 215),
        design="raised",
    ),
    Style(  # ivory and brown on light wood, points of the checkers' colours, hinged bar
        "ivory-brown",
        (30, 55, 90),
        (140, 185, 215),
        ((35, 65, 110), (200, 225, 240)),
        (205, 230, 242),
        (30, 60, 105),
        texture="wood",
        design="flat",
        bar=(25, 45, 75),
        bar_raised=True,
        hinges=True,
    ),
    Style(  # red and black, shiny, on red and black points
        "red-black",
        (20, 20, 20),
        (45, 75, 40),
        ((25, 25, 25), (35, 35, 170)),
        (40, 40, 185),
        (28, 28, 28),
        design="shiny",
    ),
    Style(  # cream and black with a letter, on a light board with cream and black points
        "cream-black",
        (40, 60, 90),
        (170, 200, 220),
        ((30, 30, 30), (185, 225, 240)),
        (190, 230, 245),
        (25, 25, 25),
        texture="smooth",
        design="logo",
        accent=((60, 110, 150), (170, 200, 215)),
        logo="B",
    ),
    Style(  # white and red flat discs on a near-white board
        "red-white",
        (60, 60, 60),
        (225, 228, 230),
        ((40, 40, 190), (80, 80, 80)),
        (240, 240, 240),
        (45, 45, 195),
        texture="smooth",
        design="flat",
    ),
    Style(  # marbled white and green
        "marble",
        (35, 35, 35),
        (90, 100, 95),
        ((60, 60, 60), (200, 205, 205)),
        (225, 225, 220),
        (50, 75, 35),
        design="marbled",
        accent=((140, 140, 145), (120, 150, 100)),
    ),
    Style(  # gold and black on dark wood, ochre points, a raised hinged bar
        "dark-gold",
        (15, 20, 30),
        (25, 35, 50),
        ((30, 125, 170), (20, 20, 20)),
        (60, 180, 225),
        (20, 20, 25),
        texture="wood",
        design="raised",
        bar=(10, 15, 22),
        bar_raised=True,
        hinges=True,
    ),
    Style(  # ivory and red, shiny, on mahogany with red points
        "ivory-red",
        (20, 30, 60),
        (30, 45, 95),
        ((35, 35, 140), (195, 215, 230)),
        (200, 222, 236),
        (40, 40, 160),
        texture="wood",
        design="shiny",
        bar_raised=True,
        hinges=True,
    ),
    Style(  # white and navy, numbered, on a light blue board
        "numbered",
        (70, 50, 30),
        (200, 180, 150),
        ((120, 60, 20), (230, 225, 215)),
        (235, 235, 235),
        (100, 50, 20),
        texture="smooth",
        design="logo",
        accent=((110, 60, 30), (220, 220, 220)),
        logo="#",
    ),
    Style(  # black checkers on a black board with black points
        "black-board",
        (30, 30, 30),
        (28, 28, 28),
        ((42, 42, 42), (215, 215, 215)),
        (215, 215, 215),
        (35, 35, 35),
        texture="smooth",
        design="flat",
    ),
)

FAMILIES = {"default": STYLES, "wide": WIDE_STYLES}

DICE_STYLES = {
    "white": ((235, 235, 235), (20, 20, 20)),
    "red": ((40, 40, 190), (240, 240, 240)),
    "black": ((25, 25, 25), (240, 240, 240)),
    "translucent": ((120, 140, 230), (250, 250, 250)),
}
# Dice of these styles are see-through, as tournaments' precision dice are: the share of
# what lies under a die that shows through its body (0: opaque), tinted by it, the pips
# of its bottom face faintly through it, and its sides seen from within (a rim inside its
# edges, each side's pips in a band along its edge). The flat drawing only (`Scene.dice_solid`
# draws every die opaque). Empty unless registered (`scripts/dicenet_data.py --clear`).
DICE_CLEAR: dict[str, float] = {}


@dataclass(frozen=True)
class Die:
    """A die at board position (x_mm, y_mm): its value, turn, and how it lies."""

    value: int
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    state: str = "flat"  # flat, cocked, on_checker
    style: str = "white"
    size_mm: float = 16.0
    lean_deg: float = 25.0  # how far a cocked die leans over an edge


@dataclass(frozen=True)
class CameraPose:
    yaw_deg: float = 0.0  # rotation of the board in the image
    tilt_deg: float = 0.0  # 0 = straight down
    tilt_axis_deg: float = 0.0
    distance_mm: float = 1300.0
    fill: float = 0.8  # the board's share of the image's limiting size
    shift: tuple[float, float] = (0.0, 0.0)  # of the board centre, in image fractions
    k1: float = 0.0  # radial distortion (negative = barrel)
    k2: float = 0.0


@dataclass(frozen=True)
class Look:
    light_gradient: float = 0.0  # 0 = even, 0.4 = strong
    vignette: float = 0.0
    noise: float = 0.0  # grey levels (sigma)
    blur: float = 0.0  # Gaussian sigma in pixels
    jpeg: int | None = None  # quality
    # Checkers' shadows: None = the default family's (fixed, down and to the right, hard);
    # else the direction they fall in the board's top-down view (degrees, x towards the
    # right, y down), their length per checker's height and their softness (blur).
    shadow_deg: float | None = None
    shadow_mm: float = 2.0
    shadow_blur_mm: float = 0.0
    shadow_strength: float = 0.7  # how much of the light a shadow takes (not the default's)


@dataclass(frozen=True)
class Scene:
    style: Style = STYLES[0]
    width_mm: float = 530.0
    height_mm: float = 440.0
    bar_width_mm: float = 50.0
    frame_mm: float = 35.0
    white_home: str = "right"
    white: tuple[int, ...] | None = None  # contract arrays; None = an empty board
    black: tuple[int, ...] | None = None
    dice: tuple[Die, ...] = ()
    pose: CameraPose = CameraPose()
    look: Look = Look()
    image_size: tuple[int, int] = (1280, 720)
    seed: int = 0
    row: int = ROW  # checkers laid along a point before the next are stacked on them
    checker_share: float | None = None  # diameter in point widths; None: CHECKER_SHARE
    # The points' shape (`sim.renderer`): `point_base` of a point's width across at the
    # board's edge (less: gaps between the points), `point_length` of half the board's
    # height long, starting `point_inset_mm` in from the edge, with a rounded end there
    # (`point_arched`, as on boards whose points end in an arch; not a checker).
    point_base: float = 1.0
    point_length: float = 0.86
    point_inset_mm: float = 0.0
    point_arched: bool = False
    # Soft points (`with_soft_points`): teardrops, their sides bowed out and their tips
    # rounded (`point_teardrop`, in place of the arch), and their edges blurred over
    # `point_soft_mm` (stitched, printed or inlaid points whose edges show no sharp line),
    # as on the development photo dices6's case.
    point_teardrop: bool = False
    point_soft_mm: float = 0.0
    # Dice drawn as solid cubes seen from the camera (`sim.renderer`): lifted by parallax,
    # the side faces that face the camera shown with their pips and shaded, a cocked die
    # leaning `Die.lean_deg` on an edge, a die on a checker lifted by the checker. Off:
    # the top face drawn on the board as seen from straight above (and a cocked die as a
    # squashed top face beside a plain side face), as every default-family benchmark and
    # test was made.
    dice_solid: bool = False
    # A cocked die drawn from above (dice not solid) as it looks: its top face
    # foreshortened by `Die.lean_deg` beside the side face the lean turns up, with that
    # face's pips, each face lit as it faces the light (`sim.renderer._draw_die`). Off: the
    # stylised drawing the shipped networks were trained on (docs/dice.md: they call none
    # of these cocked).
    dice_sides: bool = False
    # An open case (`sim.renderer`, `with_trays`): beyond each end of the playing surface (its
    # short sides) a rail `tray_rail_mm` wide in the frame's colour, then a tray `tray_mm`
    # wide lined as the surface is (split by a block across its middle where `tray_split`),
    # holding the checkers borne off, then the frame. 0: no trays, the frame all round.
    tray_mm: float = 0.0
    tray_rail_mm: float = 15.0
    tray_split: bool = False

    @property
    def margin_mm(self) -> float:
        """From the drawn board's edge to the playing surface's at its ends: the frame, and
        a tray and its rail where the case has them (along its long sides, the frame)."""
        return self.frame_mm + (self.tray_rail_mm + self.tray_mm if self.tray_mm > 0 else 0.0)


START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def random_scene(
    rng: random.Random,
    start_position: bool = True,
    image_size: tuple[int, int] = (1920, 1080),
    family: str = "default",
) -> Scene:
    """A scene of random style, pose and look, within what a table set-up produces.

    `family` "default" draws from `STYLES` (what every benchmark and test is judged on);
    "wide" from `WIDE_STYLES`, with light from any side, soft or hard shadows, checkers
    of 0.8-0.96 of a point's width, rows of five or six along a point, and points of
    other shapes (narrower than their pitch, shorter or longer, inset from the edge,
    arched at it).
    """
    styles: Sequence[Style] = FAMILIES[family]
    w = rng.uniform(480, 560)
    scene = Scene(
        style=rng.choice(styles),
        width_mm=w,
        height_mm=w * rng.uniform(0.78, 0.88),
        bar_width_mm=rng.uniform(35, 60),
        frame_mm=rng.uniform(22, 45),
        white_home=rng.choice(["right", "left"]),
        white=START if start_position else None,
        black=START if start_position else None,
        pose=CameraPose(
            yaw_deg=rng.uniform(-180, 180),
            tilt_deg=rng.uniform(0, 15),
            tilt_axis_deg=rng.uniform(0, 360),
            distance_mm=rng.uniform(900, 1600),
            fill=rng.uniform(0.62, 0.9),
            shift=(rng.uniform(-0.04, 0.04), rng.uniform(-0.04, 0.04)),
            k1=rng.uniform(-0.12, 0.02),
            k2=rng.uniform(-0.02, 0.04),
        ),
        look=Look(
            light_gradient=rng.uniform(0, 0.35),
            vignette=rng.uniform(0, 0.3),
            noise=rng.uniform(1, 7),
            blur=rng.uniform(0, 1.2),
            jpeg=rng.choice([None, 95, 85, 70, 60]),
        ),
        image_size=image_size,
        seed=rng.randrange(1 << 30),
    )
    if family == "default":
        return scene
    row = rng.choice([5, 6, 6])
    point = (scene.width_mm - scene.bar_width_mm) / 12
    fits = scene.height_mm / 2 / (row * point)  # the largest share a row of `row` fits in
    share = min(rng.uniform(0.8, 0.96), 0.98 * fits)
    soft = rng.random() < 0.5
    look = replace(
        scene.look,
        shadow_deg=rng.uniform(0, 360),
        shadow_mm=rng.uniform(1.0, 4.0),
        shadow_blur_mm=rng.uniform(1.0, 3.0) if soft else 0.0,
        shadow_strength=rng.uniform(0.4, 0.75),
    )
    inset = rng.uniform(1.0, 6.0)
    return replace(
        scene,
        row=row,
        checker_share=share,
        look=look,
        point_base=rng.uniform(0.7, 1.0),
        point_length=rng.uniform(0.75, 0.95),
        point_inset_mm=inset if rng.random() < 0.5 else 0.0,
        point_arched=rng.random() < 0.4,
    )


CHECKER_SHARE = 0.94  # a checker's diameter, in point widths


def scene_calibration(
    scene: Scene,
    corners: tuple[
        tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]
    ],
) -> Calibration:
    """A calibration of the scene's board with the surface corners at `corners` (pixels)."""
    return Calibration(
        image_size=scene.image_size,
        corners_px=corners,
        width_mm=scene.width_mm,
        height_mm=scene.height_mm,
        bar_width_mm=scene.bar_width_mm,
        white_home=scene.white_home,
    )


def corners_moved(cal: Calibration, share: float, rng: np.random.Generator) -> Calibration:
    """`cal` with each corner moved at random by about `share` of the board's width (each
    coordinate normal, sigma share x width / 1.4): a calibration as found, not the truth."""
    corners = np.array(cal.corners_px)
    width = float(np.linalg.norm(corners[1] - corners[0]))
    moved = corners + rng.normal(0, share * width / 1.4, corners.shape)
    (a, b), (c, d), (e, f), (g, h) = moved.tolist()
    return replace(cal, corners_px=((a, b), (c, d), (e, f), (g, h)))


def with_trays(scene: Scene, rng: random.Random) -> Scene:
    """`scene`'s board as an open case with trays (`Scene.tray_mm`): trays 40-65 mm wide
    behind rails of 8-20 mm, half of them split across the middle (a block for the cube),
    as the cases of the development photos test2 and dices6 are, drawn with `rng`."""
    return replace(
        scene,
        tray_mm=rng.uniform(40, 65),
        tray_rail_mm=rng.uniform(8, 20),
        tray_split=rng.random() < 0.5,
    )


def with_soft_points(scene: Scene, rng: random.Random) -> Scene:
    """`scene`'s board with soft points (`Scene.point_teardrop`, `point_soft_mm`): teardrops
    whose edges blur over 1.5-4 mm, drawn with `rng`."""
    return replace(scene, point_teardrop=True, point_soft_mm=rng.uniform(1.5, 4.0))


def cut_image(
    image: np.ndarray, corners: np.ndarray, side: int, clear: float
) -> tuple[np.ndarray, np.ndarray]:
    """`image` cut at `side` (0 top, 1 bottom, 2 left, 3 right) `clear` of the surface's
    width beyond its `corners` (px) there, and the corners in the cut image: a board whose
    frame runs off the picture, as a stream's or an open case's wider than the view."""
    width = float(np.linalg.norm(corners[1] - corners[0]))
    margin = int(clear * width)
    h, w = image.shape[:2]
    if side == 0:
        y = max(0, int(corners[:, 1].min()) - margin)
        return np.ascontiguousarray(image[y:]), corners - [0, y]
    if side == 1:
        return np.ascontiguousarray(image[: min(h, int(corners[:, 1].max()) + margin)]), corners
    if side == 2:
        x = max(0, int(corners[:, 0].min()) - margin)
        return np.ascontiguousarray(image[:, x:]), corners - [x, 0]
    return np.ascontiguousarray(image[:, : min(w, int(corners[:, 0].max()) + margin)]), corners
