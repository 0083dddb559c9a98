"""Find the playing surface by its points: a template of the 24 triangles fitted to the image.

The frame's inner edge is not always the surface's: a tray the surface's colour beside
the points, dark trays and a dark frame around an open case. The points' layout is the
surface's own mark: two rows of twelve triangles, six each side of the bar, their bases
on two opposite sides.

The score of a candidate surface (a quad, the bar's width b and the points' height t,
shares of the surface) maps the canonical layout into the image by the quad's
homography and takes, along every triangle edge, the bar's two edges, the two end lines
and the two base lines, the Lab gradient across the line minus the larger of the
gradients just beside it (a ridge or a step, not a broad slope), the median along each
line (a base line's upper quartile: points and checkers of the frame's colour hide it in
places); the mean over the triangle edges plus the mean over the lines, less the edges
found in a phantom column of points just outside each end (the layout is periodic: one
point off must not score as well).

The search, in the image rectified by the board's outline (the surface is there an
upright rectangle, near enough): the outline's two sides along the bases are first
moved to the clearest straight line near each (an outline cut askew where the board met
a table of its colour leans against the surface); each half of the layout is two combs
of six triangles that share their columns (the outer end and the point width), the
bottom comb shifted by up to SHEAR against the top (the outline's ends may still lean);
the base lines are taken on a coarse grid, each moved to the clearest level line near
it (the edges are near upright: a row off moves a sample along its edge, not across
it), and the columns exhaustively at a pixel. The best layouts are refined in the
image: each side swept along its normal (a frame has several parallel edges, further
apart than a corner's step), then coordinate descent on the corners, b and t. The
search is then run again in the image rectified by the best layout so far, where what
is left of the outline's lean is gone.

The layout is periodic: where the points at an end lie under checkers and the frame (or
one point colour) is the surface's colour, the layout a point along, or a point short or
long at one end, is a best of its own out of the descent's reach. The best layout's such
neighbours are refined too, and taken where they score better.

A layout elsewhere within a factor of the best's score makes the fit ambiguous
(`Fit.runner_up`); one that differs from the best only by one side moved along its
normal does not count: the best's own sweep weighed that side's parallel lines. The
places scoring at least ALTERNATIVE of the best are kept (`Fit.alternatives`): the
starting position, which the points alone cannot see, decides between them
(`companion.cli.calibrate.choose_corners`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
Image = NDArray[np.uint8]
Gradients = tuple[NDArray[np.float32], NDArray[np.float32]]

BASE_QUANTILE = 0.75  # along a base line: the points and checkers hide the step in places
FRACTIONS = np.linspace(0.12, 0.92, 9)  # samples along each line, from its base
OFFSET = 0.012  # beside a line (of the surface's width): the ridge's flanks
PHANTOM_INSET = 0.15  # of a point's width: a phantom point's edges, kept off the end line
RECT_WIDTH = 220  # pixels across the outline in the rectified image
MARGIN = 0.06  # of the outline, rectified beyond each of its sides
END_RANGE = (-0.05, 0.3)  # where a half's outer end may lie, of the outline's width
ROW_RANGE = (-0.05, 0.3)  # where a row's base line may lie, of the outline's height
ROW_STEP = 0.02  # of the outline's height: the base lines' grid
ROWS = 8  # candidate base lines (and heights) kept per row
MIN_HEIGHT = 0.6  # of the outline's height: the surface's least
POINT_RANGE = (0.05, 0.085)  # a point's width, of the outline's width
POINT_STEP = 0.5  # rectified pixels
HEIGHTS = (0.3, 0.36, 0.42)  # the points' height, of the outline's height
KEEP = 8  # best columns kept per half and pair of rows
REFINE = 4  # layouts refined in the image, per frame
DISTINCT = 0.02  # of the width: layouts refined differ by at least this at a corner
# A layout closer than this to the best at every corner is the same place fitted twice, no
# rival: on the board photos and their variants (`benchmarks/real.py --variants`) such
# twins lay 2.0-2.6% from the best (the best within 1.1% of the truth on each), layouts of
# other places 3.2% or more (2026-12-06).
SAME_PLACE = 0.03
BAR_RANGE = (0.0, 0.16)  # the bar's width, of the surface's
SWEEP = 0.06  # of the width: how far each side is swept along its normal
MIN_SCORE = 2.0  # a layout scoring less is not taken for the points
STRAIGHTEN = 0.1  # of the width: how far each end of a base side may move to the clearest line
SHEAR = 0.1  # of the outline's width: how far a half's bottom row may shift against its top
NEIGHBOUR_ROUNDS = 2  # times the best layout's neighbours a point off are tried
ALTERNATIVE = 0.75  # of the best's score: a layout elsewhere scoring so is an alternative


@dataclass(frozen=True)
class Layout:
    quad: FloatArray  # 4 x 2: the surface's corners, first side along the point bases
    bar: float  # the bar's width, of the surface's width
    tip: float  # the points' height, of the surface's height
    score: float


def gradients(image: Image, sigma: float = 1.0) -> Gradients:
    """The Lab image's x and y derivatives (per channel) after a light blur."""
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    lab = np.asarray(cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB), dtype=np.float32)
    gx = np.stack([cv2.Sobel(lab[..., c], cv2.CV_32F, 1, 0, ksize=3) / 8 for c in range(3)], -1)
    gy = np.stack([cv2.Sobel(lab[..., c], cv2.CV_32F, 0, 1, ksize=3) / 8 for c in range(3)], -1)
    return np.asarray(gx, np.float32), np.asarray(gy, np.float32)


def _segments(bar: float, tip: float) -> tuple[FloatArray, int]:
    """The canonical layout's lines (S x 2 ends x (u, v)): 48 triangle edges, the bar's
    and the ends' 4 lines, the 2 base lines, then 8 phantom edges beyond the ends (and 8
    within the bar where it is wide enough to hold a point); and the number of
    triangle edges."""
    p = (1 - bar) / 12
    segs: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for x0 in (0.0, (1 + bar) / 2):
        for k in range(6):
            a = x0 + k * p
            for base, top in ((0.0, tip), (1.0, 1 - tip)):
                segs += [((a, base), (a + p / 2, top)), ((a + p, base), (a + p / 2, top))]
    for u in ((1 - bar) / 2, (1 + bar) / 2, 0.0, 1.0):
        segs.append(((u, 0.02), (u, 0.98)))
    for v in (0.0, 1.0):
        segs.append(((0.02, v), (0.98, v)))
    # phantom points one beyond each end (their edges kept off the end line); and, on a
    # bar wide enough to hold one, one beside each of its edges (a half a point along,
    # the bar a point wider, would show a point there)
    phantoms = [(-p, PHANTOM_INSET), (1.0, PHANTOM_INSET)]
    if bar >= p:
        phantoms += [((1 - bar) / 2, 0.0), ((1 + bar) / 2 - p, 0.0)]
    for a, inset in phantoms:
        for base, top in ((0.0, tip), (1.0, 1 - tip)):
            c = a + p / 2
            segs += [((a + inset * p, base), (c, top))]
            segs += [((a + p - inset * p, base), (c, top))]
    return np.array(segs, dtype=np.float64), 48


def _median(values: FloatArray) -> FloatArray:
    """The median along the last axis (of odd length: np.median's work, a third the time)."""
    middle = values.shape[-1] // 2
    return np.asarray(np.partition(values, middle, axis=-1)[..., middle])


def _contrast(grads: Gradients, pts: FloatArray, normal: FloatArray) -> FloatArray:
    """At samples along lines: the gradient across the line (along `normal`, unit, its
    shape broadcast to the samples') less the larger of its two flanks'. `pts` (3 x ... x 2,
    image px) are the samples on the lines and OFFSET to either side; the colour channels'
    steps count together (the root of their squares' sum)."""
    gx, gy = grads
    h, w = gx.shape[:2]
    xi = np.clip(np.round(pts[..., 0]), 0, w - 1).astype(np.intp)
    at = np.clip(np.round(pts[..., 1]), 0, h - 1).astype(np.intp)
    at *= w
    at += xi  # the flat index: one gather of each pixel's three channels
    nx, ny = normal[..., 0, None], normal[..., 1, None]
    sx, sy = gx.reshape(-1, 3).take(at, axis=0), gy.reshape(-1, 3).take(at, axis=0)
    across = np.sqrt(((sx * nx + sy * ny) ** 2).sum(-1))
    return np.asarray(across[0] - np.maximum(across[1], across[2]))


def _homographies(quads: FloatArray) -> FloatArray:
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return np.stack(
        [cv2.getPerspectiveTransform(src, q.astype(np.float32)).astype(np.float64) for q in quads]
    )


def _apply(hs: FloatArray, pts: FloatArray) -> FloatArray:
    flat = pts.reshape(-1, 2)
    hom = np.concatenate([flat, np.ones((len(flat), 1))], 1)
    out = hom[None] @ hs.transpose(0, 2, 1)  # (einsum's loop takes 15 times as long)
    return np.asarray((out[..., :2] / out[..., 2:3]).reshape((len(hs), *pts.shape)))


def scores(grads: Gradients, quads: FloatArray, bar: float, tip: float) -> FloatArray:
    """The layout's score for each quad (Q x 4 x 2, first side along the point bases)."""
    ridge, tri = _ridges_along(grads, quads, bar, tip)
    phantoms = np.clip(ridge[:, tri + 6 :], 0, None)
    phantom = phantoms[:, :8].mean(1)  # beyond the ends
    if phantoms.shape[1] > 8:  # and within the bar
        phantom += phantoms[:, 8:].mean(1)
    lines = ridge[:, tri : tri + 6].mean(1)
    return np.asarray(ridge[:, :tri].mean(1) + lines - phantom)


def triangle_edges(grads: Gradients, layout: Layout) -> float:
    """How clearly the layout's triangle edges show (the mean of their ridges, the first
    term of `scores`): near nothing where the points have soft or bowed sides (teardrops),
    or where the layout lies elsewhere than the points."""
    ridge, tri = _ridges_along(grads, layout.quad[None], layout.bar, layout.tip)
    return float(ridge[0, :tri].mean())


def _ridges_along(
    grads: Gradients, quads: FloatArray, bar: float, tip: float
) -> tuple[FloatArray, int]:
    """Each quad's ridge along each of the layout's lines (Q x S, `_segments`' order) and
    the number of triangle edges."""
    segs, tri = _segments(bar, tip)
    s0, s1 = segs[:, 0], segs[:, 1]
    d = (s1 - s0) / np.linalg.norm(s1 - s0, axis=1, keepdims=True)
    n = np.stack([-d[:, 1], d[:, 0]], -1)
    on = s0[:, None] + (s1 - s0)[:, None] * FRACTIONS[None, :, None]
    pts = np.stack([on, on + OFFSET * n[:, None], on - OFFSET * n[:, None]], 0)
    img = _apply(_homographies(quads), pts)  # Q x 3 x S x F x 2
    direction = img[:, 0, :, -1] - img[:, 0, :, 0]
    direction /= np.linalg.norm(direction, axis=-1, keepdims=True) + 1e-9
    normal = np.stack([-direction[..., 1], direction[..., 0]], -1)[:, :, None]  # Q x S x 1 x 2
    contrast = _contrast(grads, img.swapaxes(0, 1), normal)  # Q x S x F
    ridge = _median(contrast)
    # the base lines: where the points' own colour meets a frame of it, no step shows
    ridge[:, tri + 4 : tri + 6] = np.quantile(contrast[:, tri + 4 : tri + 6], BASE_QUANTILE, -1)
    return ridge, tri


def _comb() -> FloatArray:
    """Column coefficients (of the point width, from the half's outer end, inwards) of a
    half-row's 12 edges and 2 phantom edges at each sample: base + f (tip - base)."""
    base: list[float] = []
    top: list[float] = []
    for k in range(6):
        base += [k, k + 1]
        top += [k + 0.5, k + 0.5]
    base += [-1 + PHANTOM_INSET, -PHANTOM_INSET]
    top += [-0.5, -0.5]
    b, t = np.array(base, float), np.array(top, float)
    return np.asarray(b[:, None] + FRACTIONS[None, :] * (t - b)[:, None])  # 14 x F


def _ridges(rect: Image, offset_x: int, offset_y: int) -> tuple[FloatArray, FloatArray]:
    """Ridges of the x-gradient (upright lines) and the y-gradient (level lines) in the
    rectified image."""
    gx, gy = gradients(rect)
    out = []
    for g, offset, axis in ((gx, offset_x, 1), (gy, offset_y, 0)):
        mag = np.sqrt((g**2).sum(-1))
        side = np.maximum(np.roll(mag, offset, axis=axis), np.roll(mag, -offset, axis=axis))
        out.append(np.asarray(mag - side, np.float64))
    return out[0], out[1]


def _half_scores(
    ridge: FloatArray,
    ends: FloatArray,
    widths: FloatArray,
    rows: list[FloatArray],
    sign: float,
) -> FloatArray:
    """Score of each (outer end, point width) of one half (ends x widths): the mean over
    its rows' 12 edges each, less its phantom edges. `rows`: each row's sample rows (F);
    sign +1 for the left half (inwards is +x), -1 for the right."""
    coef = _comb()
    h, w = ridge.shape
    total = np.zeros((len(ends), len(widths)))
    for ys in rows:
        xs = ends[:, None, None, None] + sign * widths[None, :, None, None] * coef[None, None]
        xi = np.clip(np.round(xs), 0, w - 1).astype(np.intp)
        yi = np.clip(np.round(ys), 0, h - 1).astype(np.intp)[None, None, None, :]
        med = _median(ridge.ravel().take(yi * w + xi))  # E x W x 14
        total += med[..., :12].mean(-1) - np.clip(med[..., 12:], 0, None).mean(-1)
    return total / len(rows)


def _top_cells(grid: FloatArray, count: int) -> list[tuple[int, int]]:
    """The best cells of a score grid, each the best within a few cells around it."""
    peak = cv2.dilate(grid.astype(np.float32), np.ones((5, 3), np.uint8))
    ii, jj = np.nonzero(grid >= peak)
    order = np.argsort(-grid[ii, jj])[:count]
    return [(int(ii[k]), int(jj[k])) for k in order]


def line_contrasts(
    grads: Gradients,
    starts: FloatArray,
    ends: FloatArray,
    fractions: FloatArray,
    offset: float | FloatArray,
) -> FloatArray:
    """Along each line from `starts` to `ends` (L x 2 each), at `fractions` of its length,
    the contrast across it (`_contrast`: its flanks `offset` px either side, a number or
    one per line): L x F."""
    on = starts[:, None] + (ends - starts)[:, None] * fractions[None, :, None]  # L x F x 2
    along = (ends - starts) / np.linalg.norm(ends - starts, axis=1, keepdims=True)
    across_n = np.stack([-along[:, 1], along[:, 0]], -1)
    off = np.reshape(offset, (-1, 1, 1)) * across_n[:, None]
    pts = np.stack([on, on + off, on - off], 0)
    return _contrast(grads, pts, across_n[:, None])


def rivals(refined: list[Layout], best: Layout) -> tuple[float, tuple[Layout, ...]]:
    """Of the layouts refined, the best score of a rival to `best` (elsewhere: `_rival`),
    and the places scoring at least ALTERNATIVE of the best, DISTINCT from it and from each
    other, the best first."""
    # a rival is a layout elsewhere; one that differs only by a side moved along its
    # normal (a frame's parallel edge) was weighed against the best by its own sweep
    others = [r.score for r in refined if _rival(r.quad, best.quad)]
    alternatives: list[Layout] = []
    for layout in sorted(refined, key=lambda layout: -layout.score):
        if layout.score < ALTERNATIVE * best.score:
            break
        if not any(near(layout.quad, a.quad, DISTINCT) for a in [best, *alternatives]):
            alternatives.append(layout)
    return max(others, default=0.0), tuple(alternatives)


def straighten(
    grads: Gradients,
    quad: FloatArray,
    sides: tuple[int, ...],
    reach: float = STRAIGHTEN,
    step: float = 0.004,
) -> FloatArray:
    """The quad with each of `sides` moved to the clearest straight line near it (its ends
    each within `reach` of the width along its normal, in steps of `step`): the outline's
    sides along the bases may be skewed where the board's edge met a table of its colour,
    and the search takes the base lines level in the outline's rectified image."""
    width = max(float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4))
    shifts = np.arange(-reach, reach + 1e-9, step) * width
    d0, d1 = (m.ravel() for m in np.meshgrid(shifts, shifts))
    f = np.linspace(0.1, 0.9, 48)
    lines = [(quad[i], quad[(i + 1) % 4] - quad[i]) for i in range(4)]
    for i in sides:
        a, b = quad[i], quad[(i + 1) % 4]
        normal = np.array([a[1] - b[1], b[0] - a[0]]) / np.linalg.norm(b - a)
        starts = a[None] + d0[:, None] * normal
        ends = b[None] + d1[:, None] * normal
        contrast = line_contrasts(grads, starts, ends, f, OFFSET * width)
        k = int(np.argmax(_median(contrast[:, :-1])))
        lines[i] = (starts[k], ends[k] - starts[k])
    corners = []
    for i in range(4):
        (c1, u1), (c2, u2) = lines[i - 1], lines[i]
        jac = np.column_stack([u1, -u2])
        if abs(np.linalg.det(jac)) < 1e-9:
            return quad
        corners.append(c1 + u1 * np.linalg.solve(jac, c2 - c1)[0])
    return np.array(corners)


def rectified(
    image: NDArray[Any], outline: FloatArray, across: int = RECT_WIDTH
) -> tuple[NDArray[Any], FloatArray, int, int]:
    """`image` rectified by the outline (MARGIN beyond each side), `across` pixels across
    it: the rectified image, its pixels' homography into `image`, and the outline's width
    and height there (nu, nv). Rectified pixel (x, y) is canonical ((x / nu) - MARGIN,
    (y / nv) - MARGIN)."""
    side_u = (np.linalg.norm(outline[1] - outline[0]) + np.linalg.norm(outline[2] - outline[3])) / 2
    side_v = (np.linalg.norm(outline[3] - outline[0]) + np.linalg.norm(outline[2] - outline[1])) / 2
    nu, nv = across, round(across * side_v / side_u)
    span_u, span_v = round(nu * (1 + 2 * MARGIN)), round(nv * (1 + 2 * MARGIN))
    to_canon = np.array([[1 / nu, 0, -MARGIN], [0, 1 / nv, -MARGIN], [0, 0, 1]])
    rect_to_img = _homographies(outline[None])[0] @ to_canon
    rect = cv2.warpPerspective(
        image,
        rect_to_img,
        (span_u, span_v),
        flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(rect, image.dtype), rect_to_img, nu, nv


def halves_bar(left: float, right: float, pl: float, pr: float) -> float | None:
    """The bar's width between a left half from `left` with points `pl` wide and a right
    half to `right` with points `pr` wide (rectified px), or None where the two make no
    layout: their points' widths differ by more than 6%, or the bar is not in BAR_RANGE."""
    bar = (right - 6 * pr) - (left + 6 * pl)
    width = right - left
    if abs(pl - pr) > 0.06 * max(pl, pr):
        return None
    if not BAR_RANGE[0] * width <= bar <= BAR_RANGE[1] * width:
        return None
    return float(bar)


def _search_rectified(small: Image, outline: FloatArray) -> list[tuple[float, FloatArray]]:
    """Candidate surfaces (score in the rectified image, quad in `small`) for the outline
    with its first side taken along the point bases."""
    rect, rect_to_img, nu, nv = rectified(small, outline)
    span_v, span_u = rect.shape[:2]
    offset = max(2, round(OFFSET * nu))
    ridge, level = _ridges(rect, offset, offset)
    m_u, m_v = MARGIN * nu, MARGIN * nv
    # a level line a pixel or two off level in the rectified image counts all along
    level = cv2.dilate(level.astype(np.float32), np.ones((5, 1), np.uint8)).astype(np.float64)
    interior = level[:, int(m_u + 0.02 * nu) : int(span_u - m_u - 0.02 * nu)]
    row_line = np.quantile(interior[:, :: max(1, interior.shape[1] // 48)], BASE_QUANTILE, 1)
    ends = np.arange(END_RANGE[0] * nu, END_RANGE[1] * nu, 1.0) + m_u
    right_ends = span_u - 1 - ends
    widths = np.arange(POINT_RANGE[0] * nu, POINT_RANGE[1] * nu, POINT_STEP)
    # each row's candidate base lines: on a grid, each moved to the clearest level line
    # within half a step of it
    grid = np.arange(ROW_RANGE[0], ROW_RANGE[1] + 1e-9, ROW_STEP) * nv + m_v
    half_step = ROW_STEP * nv / 2
    row_starts: list[list[float]] = [[], []]
    for row in (0, 1):
        for y in grid:
            near = np.arange(int(np.ceil(y - half_step)), int(np.floor(y + half_step)) + 1)
            ys = np.clip(near if row == 0 else span_v - 1 - near, 0, span_v - 1)
            row_starts[row].append(float(ys[int(np.argmax(row_line[ys]))]))
    results: list[tuple[float, FloatArray]] = []

    def half(side: int, row: int, base: float, height: float) -> FloatArray:
        ys = base + FRACTIONS * height if row == 0 else base - FRACTIONS * height
        if side == 0:
            return _half_scores(ridge, ends, widths, [ys], 1.0)
        return _half_scores(ridge, right_ends, widths, [ys], -1.0)

    # each candidate row's height: the best with the columns free; the best rows kept
    kept: list[list[tuple[float, float, tuple[FloatArray, FloatArray]]]] = [[], []]
    for row in (0, 1):
        found = []
        for base in row_starts[row]:
            for height in HEIGHTS:
                grids = (half(0, row, base, height * nv), half(1, row, base, height * nv))
                tri = float(grids[0].max() + grids[1].max()) / 2
                found.append((tri + row_line[int(base)] / 3, base, grids))
        found.sort(key=lambda f: -f[0])
        kept[row] = found[:ROWS]
    upright = cv2.dilate(ridge.astype(np.float32), np.ones((1, 5), np.uint8))
    # a half's end line and bar line may lean (the outline's own lean): its bottom row
    # shifted by k pixels against its top; each column's median upright ridge along
    # such lines
    shears = np.arange(-round(SHEAR * nu), round(SHEAR * nu) + 1)
    ys = np.arange(int(m_v + 0.1 * nv), int(span_v - m_v - 0.1 * nv))
    lean = np.round(shears[:, None] * (ys - m_v)[None] / nv).astype(np.intp)  # K x Y
    xs = np.clip(np.arange(span_u)[None, None] + lean[..., None], 0, span_u - 1)
    columns = np.median(upright[ys[None, :, None], xs], axis=1)  # K x span_u
    pad = len(shears) // 2
    for _, top_v, top_grids in kept[0]:
        for _, bottom_v, bottom_grids in kept[1]:
            if bottom_v - top_v < MIN_HEIGHT * nv:
                continue
            lines = (row_line[int(top_v)] + row_line[int(bottom_v)]) / 6
            halves = []
            for s, end_grid, sign in ((0, ends, 1.0), (1, right_ends, -1.0)):
                # the bottom row's grid at the end k pixels right of the top row's
                bottom = np.pad(bottom_grids[s], ((pad, pad), (0, 0)), constant_values=-np.inf)
                index = np.arange(len(end_grid))[None] + pad + sign * shears[:, None]
                grid = (top_grids[s][None] + bottom[index.astype(np.intp)]) / 2  # K x E x W
                outer = np.clip(np.round(end_grid), 0, span_u - 1).astype(np.intp)
                inner = end_grid[:, None] + sign * 6 * widths[None, :]
                inner_i = np.clip(np.round(inner), 0, span_u - 1).astype(np.intp)
                grid = grid + (columns[:, outer][..., None] + columns[:, inner_i]) / 3
                k_best = np.argmax(grid, axis=0)
                best = np.take_along_axis(grid, k_best[None], 0)[0]
                cells = _top_cells(np.where(np.isfinite(best), best, -1e9), KEEP)
                lean = shears[k_best]
                halves.append([(float(best[i, j]), i, j, int(lean[i, j])) for i, j in cells])
            for sl, il, jl, kl in halves[0]:
                for sr, ir, jr, kr in halves[1]:
                    left, right = ends[il], right_ends[ir]
                    if halves_bar(left, right, widths[jl], widths[jr]) is None:
                        continue
                    rect_quad = np.array(
                        [
                            [left, top_v],
                            [right, top_v],
                            [right + kr, bottom_v],
                            [left + kl, bottom_v],
                        ]
                    )
                    quad = _apply(rect_to_img[None], rect_quad)[0]
                    results.append(((sl + sr) / 2 + lines, quad))
    return results


def _descend(grads: Gradients, layout: Layout, sweep: bool = True) -> Layout:
    """Coordinate descent on the corners, the bar's width and the points' height; with
    `sweep`, each side first swept along its normal to the best place within SWEEP."""
    quad, bar, tip = layout.quad.copy(), layout.bar, layout.tip
    width = float(np.linalg.norm(quad[1] - quad[0]))
    current = float(scores(grads, quad[None], bar, tip)[0])
    # each side swept along its normal first: parallel lines (a frame's edges) lie further
    # apart than the corners' steps reach
    shifts = np.arange(-SWEEP, SWEEP + 1e-9, 0.005) * width
    for _ in range(2 if sweep else 0):
        for i in range(4):
            a, b = quad[i], quad[(i + 1) % 4]
            along = (b - a) / np.linalg.norm(b - a)
            normal = np.array([-along[1], along[0]])
            moved = np.repeat(quad[None], len(shifts), axis=0)
            moved[:, i] += shifts[:, None] * normal
            moved[:, (i + 1) % 4] += shifts[:, None] * normal
            swept = scores(grads, moved, bar, tip)
            k = int(np.argmax(swept))
            if swept[k] > current + 1e-6:
                current, quad = float(swept[k]), moved[k]

    def corners_moved(quad: FloatArray, step: float) -> list[FloatArray]:
        moves = []
        for i in range(4):
            for j in range(2):
                for sign in (-1.0, 1.0):
                    q = quad.copy()
                    q[i, j] += sign * step * width
                    moves.append(q)
        return moves

    return descend(
        lambda quads, b, t: scores(grads, quads, b, t),
        Layout(quad, bar, tip, current),
        (0.005, 0.0025, 0.00125),
        corners_moved,
        (0.0, 0.2),
    )


def descend(
    score: Callable[[FloatArray, float, float], FloatArray],
    layout: Layout,
    steps: tuple[float, ...],
    moved: Callable[[FloatArray, float], list[FloatArray]],
    bars: tuple[float, float],
) -> Layout:
    """Coordinate descent from `layout` (its score already `score`'s): at each of `steps`
    (of the width), the quad moved each way `moved` gives, the bar's width a step either
    way (within `bars`) and the points' height two, the best taken while it improves."""
    quad, bar, tip, current = layout.quad, layout.bar, layout.tip, layout.score
    for step in steps:
        improved = True
        while improved:
            improved = False
            moves = moved(quad, step)
            found = [float(v) for v in score(np.stack(moves), bar, tip)]
            options = [(q, bar, tip) for q in moves]
            for db in (-step, step):
                b = float(np.clip(bar + db, *bars))
                options.append((quad, b, tip))
                found.append(float(score(quad[None], b, tip)[0]))
            for dt in (-2 * step, 2 * step):
                t = float(np.clip(tip + dt, 0.25, 0.48))
                options.append((quad, bar, t))
                found.append(float(score(quad[None], bar, t)[0]))
            k = int(np.argmax(found))
            if found[k] > current + 1e-6:
                current = float(found[k])
                quad, bar, tip = options[k]
                improved = True
    return Layout(quad, bar, tip, current)


def best_at(grads: Gradients, quad: FloatArray) -> Layout:
    """The best layout on a given surface: both axes, a few bar widths and heights."""
    return max(
        (best_at_axis(grads, np.roll(quad, shift, axis=0)) for shift in (0, 1)),
        key=lambda layout: layout.score,
    )


@dataclass(frozen=True)
class Fit:
    best: Layout  # the best layout found
    at_start: float  # the best score of a layout refined from the starts (0 if none given)
    runner_up: float  # the best score of a layout elsewhere (DISTINCT from the best)
    from_start: bool  # the best was refined from a start (not found by the search)
    # other places the layout fits at least ALTERNATIVE as well as the best, DISTINCT from it
    # and from each other, the best first: for the starting position to decide between
    alternatives: tuple[Layout, ...] = ()
    # how clearly the best layout's triangle edges show (`triangle_edges`; 0 where the
    # points were placed otherwise, `calibration.layout_colour`)
    edges: float = 0.0


def fit(small: Image, frames: list[FloatArray], starts: list[FloatArray]) -> Fit | None:
    """The surface whose points' layout fits best (in `small`'s pixels), searched within
    each frame (the board's outline) and refined from each start (a surface found
    otherwise); None if no layout scores at least MIN_SCORE."""
    grads = gradients(small)
    from_starts = [
        _descend(grads, best_at_axis(grads, np.roll(quad, shift, axis=0)), sweep=False)
        for quad in starts
        for shift in (0, 1)
    ]
    at_start = max((layout.score for layout in from_starts), default=0.0)
    found: list[Layout] = []
    for frame in frames:
        candidates: list[tuple[float, FloatArray]] = []
        for shift in (0, 1):
            rolled = np.roll(frame, shift, axis=0)
            candidates += _search_rectified(small, straighten(grads, rolled, (0, 2)))
        found += _refined(grads, candidates)
    if found:
        # searched again in the image rectified by the best layout: the outline's lean
        # (a side cut where the board met a table of its colour) is gone there
        lead = max(found, key=lambda layout: layout.score)
        found += _refined(grads, _search_rectified(small, lead.quad))
    refined = from_starts + found
    if not refined:
        return None
    k = max(range(len(refined)), key=lambda i: refined[i].score)
    best = refined[k]
    if best.score < MIN_SCORE:
        return None
    # The layout is periodic: where the points at an end lie under checkers and the frame
    # is the surface's colour (or a point colour is), the layout a point along, or a point
    # short or long at one end, is a best of its own that the descent does not reach.
    for _ in range(NEIGHBOUR_ROUNDS):
        moved = [_descend(grads, n, sweep=False) for n in _neighbours(grads, best)]
        refined += moved
        j = max(range(len(moved)), key=lambda i: moved[i].score)
        if moved[j].score <= best.score + 1e-6:
            break
        best, k = moved[j], len(refined) - len(moved) + j
    runner_up, alternatives = rivals(refined, best)
    return Fit(
        best,
        at_start,
        runner_up,
        k < len(from_starts),
        alternatives,
        triangle_edges(grads, best),
    )


def _neighbours(grads: Gradients, layout: Layout) -> list[Layout]:
    """The layout moved a point along, and with one end moved out or in by a point (the
    bar's width or the points' taking up the change), at the layout's height."""
    h = _homographies(layout.quad[None])[0]
    p = (1 - layout.bar) / 12
    moves: list[tuple[float, float, float]] = []  # the new ends (canonical u) and bar
    for step in (-p, p):
        moves.append((step, 1.0 + step, layout.bar))
        for u0, u1 in ((-step, 1.0), (0.0, 1.0 + step)):
            width = u1 - u0
            moves += [(u0, u1, layout.bar / width), (u0, u1, (width - 12 * p) / width)]
    out = []
    for u0, u1, bar in moves:
        if not BAR_RANGE[0] <= bar <= BAR_RANGE[1]:
            continue
        canon = np.array([[u0, 0.0], [u1, 0.0], [u1, 1.0], [u0, 1.0]])
        quad = _apply(h[None], canon)[0]
        out.append(
            Layout(quad, bar, layout.tip, float(scores(grads, quad[None], bar, layout.tip)[0]))
        )
    return out


def _refined(grads: Gradients, candidates: list[tuple[float, FloatArray]]) -> list[Layout]:
    """The best REFINE candidates of the search that differ by DISTINCT, refined."""
    candidates = sorted(candidates, key=lambda c: -c[0])
    chosen: list[Layout] = []
    for _, quad in candidates:
        if any(near(quad, c.quad, DISTINCT) for c in chosen):
            continue
        chosen.append(best_at_axis(grads, quad))
        if len(chosen) == REFINE:
            break
    return [_descend(grads, layout) for layout in chosen]


def _rival(other: FloatArray, best: FloatArray) -> bool:
    """Whether `other` places the surface elsewhere than `best`: more than SAME_PLACE away
    at a corner, and more than DISTINCT not only at the two ends of one side."""
    dist = np.linalg.norm(best[:, None] - other[None], axis=2).min(1)
    width = float(np.linalg.norm(best[1] - best[0]))
    if dist.max() <= SAME_PLACE * width:
        return False  # the same place fitted twice
    far = np.nonzero(dist > DISTINCT * width)[0]
    if len(far) == 2 and (far[1] - far[0]) % 2 == 1:
        return False  # a side moved: the best's sweep along its normal weighed that
    return len(far) > 0


def near(a: FloatArray, b: FloatArray, tolerance: float) -> bool:
    """The two quads' corners pair up within `tolerance` of a's width, in any order."""
    dist = np.linalg.norm(a[:, None] - b[None], axis=2)
    width = float(np.linalg.norm(a[1] - a[0]))
    return bool(max(dist.min(0).max(), dist.min(1).max()) <= tolerance * width)


def best_at_axis(grads: Gradients, quad: FloatArray) -> Layout:
    """The best bar width and height for a quad whose first side runs along the bases."""
    best: Layout | None = None
    for bar in (0.04, 0.07, 0.1):
        for tip in (0.36, 0.41, 0.46):
            s = float(scores(grads, quad[None], bar, tip)[0])
            if best is None or s > best.score:
                best = Layout(quad, bar, tip, s)
    assert best is not None
    return best
