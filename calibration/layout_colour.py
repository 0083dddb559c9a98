"""Find the playing surface by its points' colours, where their edges do not show.

`calibration.layout_fit` scores the points' straight triangle edges. Points stitched,
printed or inlaid with soft, bowed sides (teardrops, as on the development photo dices6's
case) show none; where an open case's trays are lined as the surface is, the case's
straight outer edges then win (on dices6 the best layout lies 18% of the width off, its
triangle edges scoring nothing, nor at the labelled corners). Their colours still show.

The score of a layout (a quad, the bar's width and the points' height, as
`layout_fit.Layout`'s), in Lab units (lightness half-weighted: light falls off across a
board), for each of the 24 points:
- over BAND of its height from its base, how far the colour along its middle (within
  MIDDLE of its width of its axis) lies from the surface's, less how far the colour at its
  two sides lies from it (where it meets its neighbours: that far from the base a point has
  narrowed, triangle or teardrop, and only the surface shows there);
- its base: the colour just inside it (NEAR_BASE) the point's own (its distance from the
  middle's subtracted), and another just outside it (the frame's, a rail's: their distance
  added up to STEP, so that a case's stronger outer edge is no surer a base);
each point's score clipped to CLIP, then the mean over the points, less the mean over the
phantom points beyond each end of each row of how far they stand out as a point does. The
surface's colour: the median between the two rows' tips. A layout half a point along scores
below nothing (its sides fall on the points); one a point along, or taking the trays for
the surface too, has points on the frame or the trays, or points out of step, and a
phantom on a point.

The search, in the image rectified by the frame's inner edge (`layout_fit.rectified`): each
row's base near that edge's side along the bases (BASE_SLACK), the points' height one of
`layout_fit.HEIGHTS`, and each half's outer end and point width exhaustively, scored on
each column's mean colour over the row's bands. The best layouts found (and any given as
starts) are refined in the image by coordinate descent on the sides, the bar's width and
the points' height, and each base is then moved onto the straight line near it where the
colours fit best (`_snapped`).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import layout_fit
from calibration.layout_fit import Fit, Layout

FloatArray = NDArray[np.float64]
Image = NDArray[np.uint8]

BAND = (0.25, 0.6)  # of a point's height from its base: where its middle and sides are read
MIDDLE = 0.12  # of a point's width, either side of its axis
SIDE = 0.06  # of a point's width, either side of where it meets its neighbour
RECT_WIDTH = 240  # pixels across the outline in the rectified image
KEEP = 6  # best cells kept per half
REFINE = 4  # layouts refined in the image
BASE_SLACK = tuple(k * 0.01 for k in range(-1, 8))  # of the height: each row's base tried
SNAP = 0.025  # of the width: how far a side is moved to a straight line
MIN_SCORE = 6.0  # Lab units: a layout scoring less is not taken for the points
LIGHTNESS = 0.5  # the weight of a colour difference's lightness
CLIP = 50.0  # Lab units: each point's score clipped so, then the mean over the points
NEAR_BASE = (0.03, 0.1)  # of a point's height: its colour just inside its base
OUTSIDE_BASE = (-0.03, -0.015)  # of the surface's height: just outside a base
STEP = 15.0  # Lab units: a step this large at a base is one (a larger one is no surer)


def lab_image(image: Image) -> NDArray[np.float32]:
    """The image in Lab (OpenCV's 8-bit scale), lightly blurred."""
    blurred = cv2.GaussianBlur(image, (0, 0), 1.0)
    return np.asarray(cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB), np.float32)


def _distance(a: FloatArray, b: FloatArray) -> FloatArray:
    """Lab distance along the last axis, lightness weighted by LIGHTNESS."""
    d = a - b
    return np.asarray(np.sqrt((LIGHTNESS * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2))


def _grid(us: FloatArray, vs: FloatArray) -> FloatArray:
    """Every (u, v) of the two lists (N x 2, u varying fastest)."""
    return np.stack(np.meshgrid(us, vs), -1).reshape(-1, 2)


def _canonical_samples(
    bar: float, tip: float
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The layout's samples in canonical (u, v): each point's middle (24 x 9 x 2), each
    point's two sides (24 x 2 x 6 x 2), then the same of a phantom point beyond each end of
    each row (4 more of each); the surface between the rows' tips (N x 2); and each point's
    axis just inside its base and just outside it (24 x 2 x 6 x 2)."""
    p = (1 - bar) / 12
    vs = np.linspace(BAND[0], BAND[1], 3) * tip
    across = np.array([-MIDDLE, 0.0, MIDDLE]) * p
    beside = np.array([-SIDE, SIDE]) * p
    middles, sides, bases = [], [], []
    for x0 in (0.0, (1 + bar) / 2):
        for row in (0, 1):
            v = vs if row == 0 else 1 - vs
            inside, outside = np.array(NEAR_BASE) * tip, np.array(OUTSIDE_BASE)
            if row:
                inside, outside = 1 - inside, 1 - outside
            for k in range(6):
                centre = x0 + (k + 0.5) * p
                middles.append(_grid(centre + across, v))
                # where the point meets its neighbour, or the half's end (read inside it)
                meets = [
                    x0 + j * p + (SIDE * p if j == 0 else -SIDE * p if j == 6 else 0.0)
                    for j in (k, k + 1)
                ]
                sides.append(np.stack([_grid(at + beside, v) for at in meets]))
                bases.append([_grid(centre + across, inside), _grid(centre + across, outside)])
    # a phantom point beyond each end of each row: its middle and its sides (the far one a
    # point out, the near one just beyond the end)
    for centre, ats in (
        (-0.5 * p, (-p, -SIDE * p)),
        (1 + 0.5 * p, (1 + p, 1 + SIDE * p)),
    ):
        for row in (0, 1):
            v = vs if row == 0 else 1 - vs
            middles.append(_grid(centre + across, v))
            sides.append(np.stack([_grid(at + beside, v) for at in ats]))
    gap = 1 - 2 * tip
    surface = _grid(np.linspace(0.04, 0.96, 24), np.linspace(tip + gap / 4, 1 - tip - gap / 4, 3))
    return np.array(middles), np.array(sides), surface, np.array(bases)


def _at(lab: NDArray[np.float32], pts: FloatArray) -> FloatArray:
    """The colours at points (... x 2, image px; bilinear, the image's edge beyond it)."""
    flat = pts.reshape(-1, 1, 2).astype(np.float32)
    out = cv2.remap(
        lab, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(out, np.float64).reshape(*pts.shape[:-1], 3)


def scores(lab: NDArray[np.float32], quads: FloatArray, bar: float, tip: float) -> FloatArray:
    """The layout's colour score for each quad (Q x 4 x 2, first side along the bases)."""
    middles, sides, surface, bases = _canonical_samples(bar, tip)
    hs = layout_fit._homographies(quads)
    ground = np.median(_at(lab, layout_fit._apply(hs, surface)), axis=1)  # Q x 3
    middle = _at(lab, layout_fit._apply(hs, middles)).mean(axis=2)  # Q x 24 x 3
    side = _at(lab, layout_fit._apply(hs, sides)).mean(axis=3)  # Q x 24 x 2 x 3
    near, out = np.moveaxis(_at(lab, layout_fit._apply(hs, bases)).mean(axis=3), 2, 0)
    stands = _distance(middle, ground[:, None]) - _distance(side, ground[:, None, None]).mean(-1)
    stands, phantom = stands[:, :24], stands[:, 24:]
    # the base: the point's own colour just inside it, another just outside
    stands += np.minimum(_distance(near, out), STEP) - _distance(near, middle[:, :24])
    return np.asarray(
        np.clip(stands, -CLIP, CLIP).mean(axis=1) - np.clip(phantom, 0, CLIP).mean(axis=1)
    )


def _half_grid(
    profiles: tuple[FloatArray, FloatArray, FloatArray],
    ground: FloatArray,
    ends: FloatArray,
    widths: FloatArray,
    sign: float,
) -> FloatArray:
    """A half-row's score for each (outer end, point width) (E x W) from each column's
    mean colour (X x 3) over the row's band, just inside its base and just outside it
    (`profiles`), and the surface's colour."""
    span = len(profiles[0])
    cums = [np.concatenate([np.zeros((1, 3)), np.cumsum(f, axis=0)]) for f in profiles]

    def mean(lo: FloatArray, hi: FloatArray, which: int = 0) -> FloatArray:
        a = np.clip(np.round(np.minimum(lo, hi)), 0, span - 1).astype(np.intp)
        b = np.clip(np.round(np.maximum(lo, hi)), 0, span - 1).astype(np.intp) + 1
        return np.asarray((cums[which][b] - cums[which][a]) / (b - a)[..., None])

    e, p = ends[:, None, None], widths[None, :, None]
    k = np.arange(6)[None, None, :]
    centre = e + sign * (k + 0.5) * p
    colour = mean(centre - MIDDLE * p, centre + MIDDLE * p)
    near = mean(centre - MIDDLE * p, centre + MIDDLE * p, 1)
    out = mean(centre - MIDDLE * p, centre + MIDDLE * p, 2)
    middle = _distance(colour, ground) + np.minimum(_distance(near, out), STEP)
    middle -= _distance(near, colour)
    j = np.arange(7)[None, None, :]
    inset = np.where(j == 0, SIDE, np.where(j == 6, -SIDE, 0.0))
    at = e + sign * (j + inset) * p
    side = _distance(mean(at - SIDE * p, at + SIDE * p), ground)  # E x W x 7
    stands = middle - (side[..., :-1] + side[..., 1:]) / 2
    # a phantom point beyond the outer end: it must not stand out as a point does
    ph = e[..., 0] - sign * 0.5 * p[..., 0]
    w = p[..., 0]
    phantom = _distance(mean(ph - MIDDLE * w, ph + MIDDLE * w), ground)
    outer = e[..., 0] - sign * w
    inner = e[..., 0] - sign * SIDE * w
    phantom -= (
        _distance(mean(outer - SIDE * w, outer + SIDE * w), ground)
        + _distance(mean(inner - SIDE * w, inner + SIDE * w), ground)
    ) / 2
    return np.asarray(np.clip(stands, -CLIP, CLIP).mean(axis=-1) - np.clip(phantom, 0, CLIP))


def _search_rectified(lab: NDArray[np.float32], outline: FloatArray) -> list[Layout]:
    """Candidate layouts (their quads in `lab`'s pixels) for the outline with its first
    side taken along the point bases, scored in the rectified image."""
    rect, rect_to_img, nu, nv = layout_fit.rectified(lab, outline, RECT_WIDTH)
    rect = rect.astype(np.float64)
    span_v, span_u = rect.shape[:2]
    margin = layout_fit.MARGIN
    m_u, m_v = margin * nu, margin * nv
    rows = np.concatenate([np.zeros((1, span_u, 3)), np.cumsum(rect, axis=0)])
    middle = (rows[round(m_v + 0.53 * nv)] - rows[round(m_v + 0.47 * nv)]) / max(
        1, round(m_v + 0.53 * nv) - round(m_v + 0.47 * nv)
    )
    ground = np.median(middle[int(m_u + 0.05 * nu) : int(m_u + 0.95 * nu)], axis=0)
    ends = np.arange(layout_fit.END_RANGE[0] * nu, layout_fit.END_RANGE[1] * nu, 1.0) + m_u
    right_ends = span_u - 1 - ends
    widths = np.arange(layout_fit.POINT_RANGE[0] * nu, layout_fit.POINT_RANGE[1] * nu, 0.5)
    # the bases: the surface's sides along them (the frame's inner edge), a little either way
    bases = m_v + np.array(BASE_SLACK) * nv

    def band(y: float, a: float, b: float) -> FloatArray:
        """Each column's mean colour over rows y + a to y + b (either way round)."""
        lo, hi = sorted((y + a, y + b))
        first = int(np.clip(round(lo), 0, span_v - 1))
        last = max(first + 1, int(np.clip(round(hi), 0, span_v)))
        return np.asarray((rows[last] - rows[first]) / (last - first))

    found: list[tuple[float, FloatArray, float, float]] = []
    for tip in layout_fit.HEIGHTS:
        h = tip * nv
        grids: list[list[tuple[FloatArray, FloatArray]]] = [[], []]
        for row, inward in ((0, 1.0), (1, -1.0)):
            for base in bases:
                y = base if row == 0 else span_v - 1 - base
                profiles = (
                    band(y, inward * BAND[0] * h, inward * BAND[1] * h),
                    band(y, inward * NEAR_BASE[0] * h, inward * NEAR_BASE[1] * h),
                    band(y, inward * OUTSIDE_BASE[0] * nv, inward * OUTSIDE_BASE[1] * nv),
                )
                grids[row].append(
                    (
                        _half_grid(profiles, ground, ends, widths, 1.0),
                        _half_grid(profiles, ground, right_ends, widths, -1.0),
                    )
                )
        for i, top in enumerate(bases):
            for j, low in enumerate(bases):
                bottom = span_v - 1 - low
                if bottom - top < layout_fit.MIN_HEIGHT * nv:
                    continue
                halves = []
                for s in (0, 1):
                    grid = (grids[0][i][s] + grids[1][j][s]) / 2
                    cells = layout_fit._top_cells(grid, KEEP)
                    halves.append([(float(grid[a, b]), a, b) for a, b in cells])
                for sl, il, jl in halves[0]:
                    for sr, ir, jr in halves[1]:
                        left, right = ends[il], right_ends[ir]
                        bar = layout_fit.halves_bar(left, right, widths[jl], widths[jr])
                        if bar is None:
                            continue
                        width = right - left
                        quad = np.array(
                            [[left, top], [right, top], [right, bottom], [left, bottom]]
                        )
                        found.append(((sl + sr) / 2, quad, bar / width, tip * nv / (bottom - top)))
    found.sort(key=lambda f: -f[0])
    out: list[Layout] = []
    for score, rect_quad, bar, tip in found:
        quad = layout_fit._apply(rect_to_img[None], rect_quad)[0]
        if any(layout_fit.near(quad, o.quad, layout_fit.DISTINCT) for o in out):
            continue
        out.append(Layout(quad, bar, float(np.clip(tip, 0.25, 0.48)), score))
        if len(out) == REFINE:
            break
    return out


def _descend(lab: NDArray[np.float32], layout: Layout) -> Layout:
    """Coordinate descent on the sides (each moved along its normal), the bar's width and
    the points' height (`layout_fit.descend`)."""
    width = float(np.linalg.norm(layout.quad[1] - layout.quad[0]))

    def sides_moved(quad: FloatArray, step: float) -> list[FloatArray]:
        moves = []
        for i in range(4):
            a, b = quad[i], quad[(i + 1) % 4]
            normal = np.array([a[1] - b[1], b[0] - a[0]]) / np.linalg.norm(b - a)
            for sign in (-1.0, 1.0):
                q = quad.copy()
                q[[i, (i + 1) % 4]] += sign * step * width * normal
                moves.append(q)
        return moves

    def score(quads: FloatArray, bar: float, tip: float) -> FloatArray:
        return scores(lab, quads, bar, tip)

    start = Layout(
        layout.quad.copy(),
        layout.bar,
        layout.tip,
        float(score(layout.quad[None], layout.bar, layout.tip)[0]),
    )
    return layout_fit.descend(
        score, start, (0.01, 0.005, 0.0025), sides_moved, layout_fit.BAR_RANGE
    )


def _line_contrast(grads: layout_fit.Gradients, quads: FloatArray, side: int) -> FloatArray:
    """How clearly a straight line shows along side `side` of each quad (Q): the median,
    along it, of the colour step across it less its flanks' (`layout_fit.line_contrasts`)."""
    a, b = quads[:, side], quads[:, (side + 1) % 4]
    offset = layout_fit.OFFSET * np.linalg.norm(b - a, axis=1)
    contrast = layout_fit.line_contrasts(grads, a, b, np.linspace(0.05, 0.95, 48), offset)
    return np.asarray(np.median(contrast, axis=1))


def _snapped(grads: layout_fit.Gradients, lab: NDArray[np.float32], layout: Layout) -> Layout:
    """The layout with each base moved onto a straight line near it (the frame's edges are
    straight where the points' sides are not): of the lines within SNAP of the width that
    show at least half as clearly as the clearest, the one where the colours fit best
    (a case's outer edge may show more clearly than the surface's own)."""
    quad = layout.quad.copy()
    width = float(np.linalg.norm(quad[1] - quad[0]))
    shifts = np.arange(-SNAP, SNAP + 1e-9, 0.001) * width
    for side in (0, 2):
        a, b = quad[side], quad[(side + 1) % 4]
        normal = np.array([a[1] - b[1], b[0] - a[0]]) / np.linalg.norm(b - a)
        moved = np.repeat(quad[None], len(shifts), axis=0)
        moved[:, [side, (side + 1) % 4]] += shifts[:, None, None] * normal
        clear = _line_contrast(grads, moved, side)
        peaks = (clear >= np.maximum(np.roll(clear, 1), np.roll(clear, -1))) & (
            clear >= 0.5 * clear.max()
        )
        peaks[[0, -1]] = False  # a line at the reach's end may lie beyond it
        if not peaks.any():
            continue
        options = moved[peaks]
        fits = scores(lab, options, layout.bar, layout.tip)
        quad = options[int(np.argmax(fits))]
    return Layout(
        quad, layout.bar, layout.tip, float(scores(lab, quad[None], layout.bar, layout.tip)[0])
    )


def fit(small: Image, inner: FloatArray, starts: tuple[Layout, ...] = ()) -> Fit | None:
    """The surface whose points' colours stand out best from the surface (in `small`'s
    pixels), its bases near the long sides of `inner` (the frame's inner edge), its ends
    searched within; layouts found otherwise (`starts`: the edges' best) refined by their
    colours too, to compete; None if none scores MIN_SCORE."""
    lab = lab_image(small)
    # the bases along the longer sides: a surface is wider than it is high, an open case's
    # inner edge more so (the trays lie beyond its ends)
    along, across = (float(np.linalg.norm(inner[i + 1] - inner[i])) for i in (0, 1))
    bases = inner if along >= across else np.roll(inner, 1, axis=0)
    grads = layout_fit.gradients(small)
    # the starts along either axis: the edges' layout may take either pair of sides for
    # the bases where its corners are right
    turned = [Layout(np.roll(s.quad, k, axis=0), s.bar, s.tip, 0.0) for s in starts for k in (0, 1)]
    refined = [
        _snapped(grads, lab, _descend(lab, layout))
        for layout in [*_search_rectified(lab, bases), *turned]
    ]
    if not refined:
        return None
    refined.sort(key=lambda layout: -layout.score)
    best = refined[0]
    if best.score < MIN_SCORE:
        return None
    runner_up, alternatives = layout_fit.rivals(refined, best)
    return Fit(best, 0.0, runner_up, False, alternatives)
