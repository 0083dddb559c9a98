"""The wide family of scenes (issue 27): other checker sets, designs, boards, bars, light
and rows of six, drawn only when asked for, with labels as exact as the default's."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from sim import (
    STYLES,
    WIDE_STYLES,
    Look,
    Scene,
    checker_layout,
    random_scene,
    render,
    with_soft_points,
)

PLAIN = Look(shadow_deg=45.0, shadow_mm=2.0)  # no noise or gradient; the wide path's shadows
# White: 6 on its 6-point (a row of six), 8 on its 8-point (six, then two on top), one on
# the bar; black: 12 on its 6-point (two layers of six), one on its 13-point, two on the bar.
WHITE = (0, 0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
BLACK = (0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)


def colour_near(image: np.ndarray, xy: list[float], radius: int = 2) -> np.ndarray:
    x, y = round(xy[0]), round(xy[1])
    patch = image[y - radius : y + radius + 1, x - radius : x + radius + 1].reshape(-1, 3)
    return np.median(patch, axis=0)


def test_the_default_scenes_are_drawn_as_before_from_the_default_styles_only() -> None:
    # Pinned before the wide family existed: the default draws the same random numbers.
    scene = random_scene(random.Random(4))
    assert (scene.style.name, scene.seed, round(scene.width_mm, 3)) == (
        "tournament",
        415399827,
        498.884,
    )
    assert scene == random_scene(random.Random(4), family="default")
    rng = random.Random(1)
    for _ in range(40):
        scene = random_scene(rng)
        assert scene.style in STYLES
        assert scene.row == 5 and scene.checker_share is None and scene.look.shadow_deg is None


def test_wide_scenes_draw_the_wide_styles_with_rows_that_fit() -> None:
    rng = random.Random(2)
    scenes = [random_scene(rng, family="wide") for _ in range(60)]
    assert {s.style.name for s in scenes} == {s.name for s in WIDE_STYLES}
    assert not {s.name for s in WIDE_STYLES} & {s.name for s in STYLES}
    assert {s.row for s in scenes} == {5, 6}
    for s in scenes:
        assert s.checker_share is not None and s.look.shadow_deg is not None
        point = (s.width_mm - s.bar_width_mm) / 12
        assert s.row * s.checker_share * point <= s.height_mm / 2  # a row stays in its half
    with pytest.raises(KeyError):
        random_scene(rng, family="nope")


def test_rows_of_six_are_laid_as_six_along_the_point_then_stacked() -> None:
    scene = Scene(white=WHITE, black=BLACK, row=6, checker_share=0.85, look=PLAIN)
    geo = BoardGeometry(render(scene).calibration)  # type: ignore[arg-type]
    d = geo.point_width_mm * 0.85
    items = checker_layout(scene, geo)
    layers = Counter((c["color"], c["point"], c["layer"]) for c in items)
    assert layers[("white", 6, 0)] == 6 and layers[("white", 6, 1)] == 0
    assert (layers[("white", 8, 0)], layers[("white", 8, 1)]) == (6, 2)
    assert (layers[("black", 6, 0)], layers[("black", 6, 1)]) == (6, 6)  # as stack_layout
    row = sorted(c["center_mm"][1] for c in items if (c["color"], c["point"]) == ("white", 6))
    steps = np.diff(row)
    assert (steps >= d - 1e-6).all() and (steps <= 1.05 * d).all()  # touching, small gaps
    for c in items:
        if c["point"] != "bar":
            assert geo.point_rect(c["point"], c["color"]).contains(*c["center_mm"])


@pytest.mark.parametrize("style", WIDE_STYLES, ids=lambda s: s.name)
def test_a_wide_scene_labels_exactly_the_checkers_it_draws(style: object) -> None:
    scene = replace(
        random_scene(random.Random(7), family="wide", image_size=(960, 540)),
        style=style,
        white=WHITE,
        black=BLACK,
    )
    r = render(scene)
    checkers = r.labels["checkers"]
    assert r.labels["style"] == scene.style.name
    counts = Counter((c["color"], c["point"]) for c in checkers)
    for color, arr in (("white", WHITE), ("black", BLACK)):
        drawn = {p: n for (c, p), n in counts.items() if c == color}
        wanted = {p: arr[p] for p in range(1, 25) if arr[p]} | {"bar": arr[25]}
        assert drawn == wanted
    assert np.array_equal(r.image, render(scene).image)  # seeded: the same scene, same pixels


def test_wide_checkers_show_their_colour_and_cast_shadows_away_from_the_light() -> None:
    style = next(s for s in WIDE_STYLES if s.name == "red-white")  # flat discs
    scene = Scene(style=style, white=WHITE, black=BLACK, row=6, checker_share=0.85, look=PLAIN)
    r = render(scene)
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    d = geo.point_width_mm * 0.85
    top = [c for c in r.labels["checkers"] if c["point"] == 6 and c["color"] == "white"]
    for c in top:
        assert np.abs(colour_near(r.image, c["center_px"]) - style.light).max() < 25
    # Light from the upper left (shadows fall at 45 degrees): beyond a lone checker's
    # lower right rim the board is darker than beyond its upper left one.
    (lone,) = [c for c in r.labels["checkers"] if c["point"] == 13]
    x, y = lone["center_mm"]
    reach = d / 2 + 1.0
    lit, shaded = geo.mm_to_px(
        [(x - reach * 0.7, y - reach * 0.7), (x + reach * 0.7, y + reach * 0.7)]
    )
    assert colour_near(r.image, list(shaded)).sum() < colour_near(r.image, list(lit)).sum() - 30


def test_points_of_other_shapes_leave_the_board_showing_where_a_triangle_would_not() -> None:
    style = next(s for s in WIDE_STYLES if s.name == "red-white")
    plain = Scene(style=style, look=PLAIN)
    shaped = replace(plain, point_base=0.7, point_inset_mm=4.0, point_arched=True)
    r0, r1 = render(plain), render(shaped)
    assert r0.calibration is not None
    geo = BoardGeometry(r0.calibration)
    rect = geo.point_rect(3)
    x = (rect.x0 + rect.x1) / 2
    edge = rect.y0 if rect.y0 == 0 else rect.y1
    inward = 1 if rect.y0 == 0 else -1
    point = style.triangles[3 % 2]

    def at(r: object, x_mm: float, along_mm: float) -> np.ndarray:
        (px,) = geo.mm_to_px([(x_mm, edge + inward * along_mm)])
        return colour_near(r.image, list(px))  # type: ignore[attr-defined]

    # Near the edge, at a point's corner: the triangle's colour, or the bare board where the
    # arched, narrower point leaves it; on the axis a little further in, the point both times.
    corner = rect.x0 + 0.1 * (rect.x1 - rect.x0)
    assert np.abs(at(r0, corner, 2.0) - point).max() < 25
    assert np.abs(at(r1, corner, 2.0) - style.surface).max() < 25
    assert np.abs(at(r1, x, 12.0) - point).max() < 25
    # The default family never draws them: its scenes keep the plain triangles.
    rng = random.Random(5)
    for _ in range(10):
        s = random_scene(rng)
        assert (s.point_base, s.point_inset_mm, s.point_arched) == (1.0, 0.0, False)
    wide = [random_scene(rng, family="wide") for _ in range(30)]
    assert any(s.point_arched for s in wide) and any(s.point_inset_mm > 0 for s in wide)


def test_soft_points_are_teardrops_whose_edges_fade_and_nothing_else_changes() -> None:
    style = next(s for s in WIDE_STYLES if s.name == "red-white")
    plain = Scene(style=style, look=PLAIN)
    drop = replace(plain, point_teardrop=True)
    soft = replace(drop, point_soft_mm=4.0)
    r0, r1, r2 = render(plain), render(drop), render(soft)
    assert r0.calibration is not None
    geo = BoardGeometry(r0.calibration)
    rect = geo.point_rect(3)
    x, half = (rect.x0 + rect.x1) / 2, (rect.x1 - rect.x0) / 2
    edge = rect.y0 if rect.y0 == 0 else rect.y1
    inward = 1 if rect.y0 == 0 else -1
    length = plain.height_mm / 2 * plain.point_length
    point = style.triangles[3 % 2]

    def at(r: object, x_mm: float, along_mm: float) -> np.ndarray:
        (px,) = geo.mm_to_px([(x_mm, edge + inward * along_mm)])
        return colour_near(r.image, list(px), radius=1)  # type: ignore[attr-defined]

    # Half way along, 0.58 of its half width out: bare board beside the triangle (0.5 wide
    # there), the point's colour in the teardrop (0.5 ** 0.7 = 0.62 wide).
    assert np.abs(at(r0, x + 0.58 * half, length / 2) - style.surface).max() < 25
    assert np.abs(at(r1, x + 0.58 * half, length / 2) - point).max() < 25
    # 2 mm either side of the teardrop's side: its colour and the surface's where it is
    # drawn sharp, each a good part of the way to the other's where its edge fades over 4 mm;
    # the point's middle the same both times.
    w = half * 0.5**0.7
    for r, mixed in ((r1, False), (r2, True)):
        inside = np.abs(at(r, x + w - 2.0, length / 2) - point).max()
        outside = np.abs(at(r, x + w + 2.0, length / 2) - style.surface).max()
        assert (min(inside, outside) > 12) if mixed else (max(inside, outside) < 6)
    assert np.abs(at(r2, x, length / 2) - at(r1, x, length / 2)).max() < 6
    # The checkers and labels are those of the board with triangles.
    assert r2.labels == r0.labels
    # Drawn only when asked for: no family's random scenes have them.
    rng = random.Random(8)
    scenes = [random_scene(rng, family=f) for f in ("default", "wide") for _ in range(15)]
    assert not any(s.point_teardrop or s.point_soft_mm for s in scenes)
    asked = with_soft_points(scenes[0], random.Random(1))
    assert asked.point_teardrop and 1.5 <= asked.point_soft_mm <= 4.0
