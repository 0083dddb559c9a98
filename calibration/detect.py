"""Find the playing surface in a camera frame without markers.

1. The board against the table: GrabCut, seeded with the image's border as
   table, separates the board (frame, surface, checkers) from the table, whatever
   its colours; the largest region's outline, fitted with four lines, is the
   board's outer edge (or, where the frame is table-coloured, the surface's).
2. The frame's inner edge: along many lines across each side, walk in from the
   outline through the frame's colour to where it ends; a robust fit per side
   (a gentle curve where lens distortion bends it) and the sides' intersections
   give the surface's corners. Starts just outside the outline are tried too;
   the surface is the candidate with one even colour all round just outside it
   (the frame) and a clear step to the inside. On an open case that edge runs round
   the trays too: each short end is moved in behind a tray's rail, a full-height run
   of the frame's colour near it (`_behind_rails`).
3. The points' layout (`calibration.layout_fit`), searched within the outline and
   refined from that inner edge: where the two agree, the layout's sides are taken
   (fitted along their whole length and to the points); where they differ (a tray the
   surface's colour beside the points, dark trays in an open case), the layout wins if
   it is the edge's own (refined from it) or fits clearly better; either way only if no
   other layout fits about as well. The other places the layout fits nearly as well come
   with the answer (`Detection.alternatives`), or with the refusal where it fits several
   about as well (`AmbiguousBoard.candidates`): `calibrate` lets the starting position
   choose between them. Where no triangle edge shows at the layout's best place
   (`POINTS_SEEN`: soft or bowed points, teardrops), the points are placed by their
   colours instead (`calibration.layout_colour`), within the frame's inner edge, the same
   way: the best place, or the places they fit about as well. On a board cut by the
   picture's edge (searched within its outline where no inner edge was found) the places
   the colours fit are only named, first, in the refusal.
4. Sub-pixel at full resolution: each side's colour step located at half height
   along its normal, fitted again robustly.

A board cut by the picture's edge (`_cut`: a stream's frame cut at the top, a case wider
than the picture) has one side of its outline on the picture's edge, so each step that
trusts the outline or the frame's edge there is weaker, and `find_board` asks more:

| step | whole board | cut board |
|---|---|---|
| outline too oblique | refused | not judged; the surface found is |
| trays behind their rails | ends moved in | not moved: the edge's side may be off |
| the points' layout | wins as in 3 | taken only where the frame's edge agrees |
| the colours' places | taken where the layout's differ | only named, first, in the refusal |
| the surface in view | the colours' place checked (`_in_view`) | every place checked |

Where a cut board's surface is not taken, the refusal (`AmbiguousBoard`) names the places
found for `calibrate`'s starting position to choose between.

Corners come back clockwise in the image; which long side is white's and where
white's home is are decided by `calibration.orient`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import layout_colour, layout_fit
from calibration.geometry import clockwise
from calibration.refine import _intersect_sides, _robust_fit, _strip
from calibration.schema import CalibrationError

FloatArray = NDArray[np.float64]
Image = NDArray[np.uint8]
Lab = NDArray[np.float32]
SideFit = tuple[FloatArray, FloatArray, FloatArray, FloatArray]  # a, u, n, offset curve

WORK_SIZE = 800  # the longer image side while searching
BORDER = 0.01  # of the image: taken as table by GrabCut (a board closer is not in view)
DARK = 12.0  # mean L* (0-100) below this: too dark to find anything
MIN_AREA = 0.08  # of the image: a smaller region is not a board in view
MAX_OBLIQUE = 1.35  # longest / shortest of two opposite sides
# outward shifts of the outline (of the board's width) to walk in from: the outline may
# be the frame's outer edge, the surface's edge, or off where the table looks like the board
WALK_STARTS = tuple(k * 0.015 for k in range(-4, 7))
SAMPLES = 64  # lines across each side while walking
GRABCUT_ROUNDS = 3
HALF_BOARD = 0.25  # regions at least this share of the largest belong to the board too
FRAME_COLOUR = 14.0  # Lab distance within which two sides' outside bands are one frame
SAME = 0.015  # of the width: the frame's inner edge and the points' layout agree within this
CLEARLY_BETTER = 1.5  # a layout elsewhere must score this much more than one at that edge
# The points' best layout's triangle edges (`layout_fit.triangle_edges`) at least this, or
# the points are placed by their colours (`layout_colour`). Measured 2026-12-06: 4.8-23.5
# where the best layout lay within 1% of the truth (the six real photos but dices6, 16
# rendered open cases, 16 with teardrop points), below 2.7 on all but 2 of the 15 more
# than 1% off (dices6: -0.4).
POINTS_SEEN = 3.0
UNAMBIGUOUS = 1.15  # and this much more than the best layout elsewhere than itself
# A tray's rail across the frame's inner edge (`_behind_rails`), in the surface's view
# RAIL_VIEW columns long: columns frame-coloured on at least RAIL_SHARE of the height, in a
# run at most RAIL_WIDTH of the length wide, starting within RAIL_REACH of an end (the
# rendered cases' trays 40-65 mm and rails 8-20 mm, `sim.with_trays`: a rail 1-3% of the
# case's inside, starting 6-10% from its end; dices6's and test2's alike).
RAIL_VIEW = 400
RAIL_SHARE = 0.85
RAIL_WIDTH = 0.08
RAIL_REACH = (0.03, 0.35)
RAIL_CLEAR = 0.1  # of the length beyond a rail: more than a point's width
RAIL_GAP = 0.01  # of the length: columns off the frame's colour within a rail
EDGE_CLEAR = 0.02  # of the surface's width: its corners at least this far inside the image
NOT_IN_VIEW = (
    "the playing surface found reaches the picture's edge: the board is not fully in view, "
    "or trays or rails beside it were taken for the surface; move the camera up or back "
    "until some frame or table shows beyond the playing surface on every side"
)
CUT_UNSURE = (
    "the board is not fully in view, and where it runs off the picture its playing surface "
    "could not be told for sure: move the camera up or back until some table shows on every "
    "side"
)
BY_COLOUR = (
    "found the board, but its points show no straight edges, and their colours fit two "
    "places or more about as well: trays or a frame the colour of the surface?"
)
OBLIQUE = (
    "the board looks too oblique: mount the camera above the board's middle, within about "
    "15 degrees of vertical"
)


class BoardNotFound(CalibrationError):
    """The board could not be found; the message says why and what to do."""


class AmbiguousBoard(BoardNotFound):
    """The points' layout fits two places or more about as well: `candidates` (full
    resolution, clockwise, the best fit first), for the starting position to decide."""

    def __init__(self, message: str, candidates: tuple[FloatArray, ...]) -> None:
        super().__init__(message)
        self.candidates = candidates


@dataclass(frozen=True)
class Detection:
    corners: FloatArray  # 4 x 2, full-resolution pixels of the raw image, clockwise
    outline: FloatArray  # the board's outer outline found first, same frame
    score: float  # how clearly a frame-coloured band surrounds the surface (or, where the
    # points' layout placed it, how clearly their edges show: `layout_fit.scores`)
    # Other places the points' layout fits nearly as well (`layout_fit.ALTERNATIVE`), the
    # best first, same frame: where the starting position does not read on `corners`, it
    # may on one of them (a layout a point along, where the points at an end lie under
    # checkers and the frame is the surface's colour).
    alternatives: tuple[FloatArray, ...] = ()


def _lab(image: Image) -> Lab:
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2LAB), dtype=np.float32)


def _side(quad: FloatArray, i: int) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """Side i of a clockwise quad: start, unit direction, inward normal, length."""
    a, b = quad[i], quad[(i + 1) % 4]
    length = float(np.linalg.norm(b - a))
    u = (b - a) / length
    n = np.array([-u[1], u[0]])
    if np.dot(quad.mean(axis=0) - (a + b) / 2, n) < 0:
        n = -n
    return a, u, n, length


def _width(quad: FloatArray) -> float:
    return max(float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4))


def _board_region(small: Image) -> NDArray[np.uint8]:
    """The board's pixels: GrabCut with the image border as table (at half size: the
    outline needs no detail, and the graph cut's time grows fast with the pixels)."""
    full_h, full_w = small.shape[:2]
    small = np.asarray(
        cv2.resize(small, (full_w // 2, full_h // 2), interpolation=cv2.INTER_AREA), np.uint8
    )
    h, w = small.shape[:2]
    m = max(2, int(BORDER * max(h, w)))
    mask = np.zeros((h, w), np.uint8)
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    cv2.setRNGSeed(1)  # GrabCut's colour models start from k-means: keep it repeatable
    cv2.grabCut(
        small, mask, (m, m, w - 2 * m, h - 2 * m), bgd, fgd, GRABCUT_ROUNDS, cv2.GC_INIT_WITH_RECT
    )
    board = ((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8)
    board = cv2.morphologyEx(board, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(board)
    if count < 2:
        return np.zeros_like(board)
    # The board, and its other half where a table-coloured frame and bar split it in two
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = 1 + np.nonzero(areas >= HALF_BOARD * areas.max())[0]
    region = np.asarray(np.isin(labels, keep), dtype=np.uint8)
    return np.asarray(
        cv2.resize(region, (full_w, full_h), interpolation=cv2.INTER_NEAREST), np.uint8
    )


def _outline(region: NDArray[np.uint8]) -> FloatArray:
    """Four lines fitted to the region's outline, intersected; BoardNotFound if not 4-sided."""
    h, w = region.shape
    if region.sum() < MIN_AREA * h * w:
        raise BoardNotFound(
            "no board found: is the whole board in view, filling a good part of the image?"
        )
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = np.concatenate(contours)
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in np.linspace(0.01, 0.1, 30):
        poly = cv2.approxPolyDP(hull, float(eps) * perimeter, True)
        if len(poly) == 4:
            break
    else:
        raise BoardNotFound("no four-sided board outline found: is the whole board in view?")
    quad = clockwise(poly.reshape(4, 2).astype(np.float64))
    points = contour.reshape(-1, 2).astype(np.float64)
    lines = []
    for i in range(4):  # refit each side to the outline points along its middle
        a, u, n, length = _side(quad, i)
        s, d = (points - a) @ u, (points - a) @ n
        near = points[(s > 0.1 * length) & (s < 0.9 * length) & (np.abs(d) < 0.02 * length)]
        if len(near) < 10:
            lines.append((a, u))
            continue
        centre = near.mean(axis=0)
        direction = np.linalg.svd(near - centre)[2][0]
        lines.append((centre, direction))
    corners = []
    for i in range(4):
        (c1, u1), (c2, u2) = lines[i - 1], lines[i]
        jac = np.column_stack([u1, -u2])
        if abs(np.linalg.det(jac)) < 1e-9:
            raise BoardNotFound("no four-sided board outline found: is the whole board in view?")
        corners.append(c1 + u1 * np.linalg.solve(jac, c2 - c1)[0])
    return clockwise(np.array(corners))


def _frames(region: NDArray[np.uint8], outline: FloatArray) -> list[FloatArray]:
    """Where the points' layout is searched: within the outline, and within the region's
    upright bounding box where that lies elsewhere. The region loses the parts of a case
    that look like the table (a black case and black points on a dark cloth, a dark rail
    at the picture's edge), and the outline's four sides then lean into the surface, a
    corner of it outside the search's reach. The box holds whatever is left of the
    region, however its sides lean; a camera above a board is seldom turned far. On the
    board photos turned half round, scaled, compressed, blurred or exposed otherwise
    (`benchmarks/real.py --variants`), the layout searched within the outline alone
    missed test1's surface on six of nine (3-8% off, or refused), within both on one
    (refused as ambiguous, its place named first; 2026-12-06)."""
    ys, xs = np.nonzero(region)
    box = np.array(
        [[xs.min(), ys.min()], [xs.max(), ys.min()], [xs.max(), ys.max()], [xs.min(), ys.max()]],
        np.float64,
    )
    if layout_fit.near(box, outline, layout_fit.DISTINCT):
        return [outline]
    return [outline, box]


def _cut(region: NDArray[np.uint8]) -> bool:
    """Whether the board runs off the image (its region reaches GrabCut's border band): a
    stream's frame cut at the top, a case wider than the picture. Its outline's side there
    is the image's edge, not the board's."""
    h, w = region.shape
    margin = int(BORDER * max(h, w)) + 2
    ys, xs = np.nonzero(region)
    return bool(
        xs.min() < margin or ys.min() < margin or xs.max() >= w - margin or ys.max() >= h - margin
    )


def _in_view(corners: FloatArray, shape: tuple[int, ...]) -> bool:
    """Whether the surface's corners lie at least EDGE_CLEAR of its width inside the image:
    its edge is seen with some frame beyond it (the sub-pixel step, `_precise`, looks 1.2%
    of the width out)."""
    h, w = shape[:2]
    clear = EDGE_CLEAR * _width(corners)
    xs, ys = corners[:, 0], corners[:, 1]
    return bool(
        xs.min() >= clear
        and ys.min() >= clear
        and xs.max() <= w - 1 - clear
        and ys.max() <= h - 1 - clear
    )


def _too_oblique(quad: FloatArray) -> bool:
    sides = [float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
    return (
        max(sides[0], sides[2]) / min(sides[0], sides[2]) > MAX_OBLIQUE
        or max(sides[1], sides[3]) / min(sides[1], sides[3]) > MAX_OBLIQUE
    )


def _walk_in(lab: Lab, quad: FloatArray) -> list[SideFit | None]:
    """From an outline on or just outside the frame, each side's inner frame edge (None for a
    side where no edge runs along it)."""
    board_w = _width(quad)
    fits: list[SideFit | None] = []
    offsets = np.arange(-0.01 * board_w, 0.16 * board_w, 0.5)
    f0, f1 = np.searchsorted(offsets, [0.004 * board_w, 0.012 * board_w])
    for i in range(4):
        a, u, n, length = _side(quad, i)
        ts = np.linspace(0.06, 0.94, SAMPLES) * length
        strip = _strip(lab, a, u, n, ts, offsets)  # offsets x ts x 3
        frame = np.median(strip[f0:f1], axis=0)  # each line's own frame colour (light varies)
        dist = np.linalg.norm(strip - frame[None], axis=2)
        threshold = max(12.0, 4 * (1.5 * float(np.median(dist[f0:f1])) + 2.0))
        t_list, o_list = [], []
        for j in range(SAMPLES):
            col = dist[:, j]
            above = col[f1:] > threshold
            runs = np.convolve(above.astype(np.int32), np.ones(4, np.int32), "valid")
            first = np.nonzero(runs == 4)[0]
            if not len(first):
                continue
            k = f1 + int(first[0])  # the first of four samples off the frame colour
            half = float(np.median(col[k : k + 6])) / 2
            m = k
            while m > f0 and col[m] > half:
                m -= 1
            lo, hi = col[m], col[m + 1]
            frac = (half - lo) / (hi - lo) if hi != lo else 0.0
            t_list.append(ts[j])
            o_list.append(offsets[m] + frac * (offsets[1] - offsets[0]))
        keep = _consensus(np.array(t_list), np.array(o_list), 0.01 * board_w)
        if keep is None:  # no edge along most of the side (the bar, checkers lie beyond)
            fits.append(None)
            continue
        fits.append((a, u, n, _robust_fit(np.array(t_list)[keep], np.array(o_list)[keep])))
    return fits


def _consensus(t: FloatArray, o: FloatArray, tolerance: float) -> NDArray[np.bool_] | None:
    """The points on the line through most of them (the outline may be tilted against the
    edge), or None when fewer than a quarter of the side's lines agree."""
    if len(t) < SAMPLES // 4:
        return None
    best: NDArray[np.bool_] | None = None
    for i in range(len(t)):  # deterministic: every pair a few lines apart
        for j in range(i + 3, len(t), 5):
            slope = (o[j] - o[i]) / (t[j] - t[i])
            inliers = np.abs(o - (o[i] + slope * (t - t[i]))) < tolerance
            if best is None or inliers.sum() > best.sum():
                best = inliers
    if best is None or best.sum() < SAMPLES // 4:
        return None
    return best


def _side_score(
    lab: Lab, fit: SideFit, length: float, board_w: float, scale: float
) -> tuple[float, FloatArray]:
    """A frame just outside the side (one even colour) and a clear step to the inside, in
    units of `scale` (the image's own contrast: `_contrast_scale`)."""
    a, u, n, coef = fit
    ts = np.linspace(0.05, 0.95, 48) * length
    curve = np.asarray(np.polyval(coef, ts), dtype=np.float64)
    outside = _strip(lab, a, u, n, ts, -np.linspace(0.004, 0.018, 5) * board_w, curve)
    inside = _strip(lab, a, u, n, ts, np.linspace(0.004, 0.012, 3) * board_w, curve)
    uneven = np.linalg.norm(outside - np.median(outside.reshape(-1, 3), axis=0), axis=2)
    step = np.linalg.norm(inside.mean(axis=0) - outside.mean(axis=0), axis=1)
    colour = np.asarray(np.median(outside.reshape(-1, 3), axis=0), dtype=np.float64)
    return (float(np.median(step)) - 2 * float(np.mean(uneven))) / scale, colour


def _contrast_scale(lab: Lab) -> float:
    """The image's contrast, that side scores are measured in: the channels' mean spread."""
    return float(np.std(lab.reshape(-1, 3), axis=0).mean()) + 1e-3


def _colour_distance(a: NDArray[np.floating], b: FloatArray) -> NDArray[np.float64]:
    """Lab distance (over the last axis: one colour, or an image's) with lightness
    half-weighted: light falls off across a board."""
    d = np.asarray(a, np.float64) - b
    return np.asarray(np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2))


def _precise(lab: Lab, quad: FloatArray, samples: int = 160, step: float = 0.25) -> FloatArray:
    """Each side's colour step at half height, within 1.2% of the board's width; fitted."""
    board_w = _width(quad)
    offsets = np.arange(-0.012 * board_w, 0.012 * board_w, step)
    fifth = len(offsets) // 5
    fits: list[SideFit] = []
    for i in range(4):
        a, u, n, length = _side(quad, i)
        ts = np.linspace(0.015, 0.985, samples) * length
        strip = _strip(lab, a, u, n, ts, offsets)
        frame = np.median(strip[:fifth], axis=0)
        dist = np.linalg.norm(strip - frame[None], axis=2)
        t_list, o_list = [], []
        for j in range(samples):
            col = dist[:, j]
            near, far = float(np.median(col[:fifth])), float(np.median(col[-fifth:]))
            if far - near < 8:
                continue
            above = np.nonzero(col > (near + far) / 2)[0]
            if not len(above) or above[0] == 0:
                continue
            m = int(above[0])
            lo, hi = col[m - 1], col[m]
            frac = ((near + far) / 2 - lo) / (hi - lo) if hi != lo else 0.0
            t_list.append(ts[j])
            o_list.append(offsets[m - 1] + frac * step)
        if len(t_list) < samples // 4:
            return quad
        fits.append((a, u, n, _robust_fit(np.array(t_list), np.array(o_list))))
    return _intersect_sides(fits)


def snap_to_edges(image: Image, corners: FloatArray) -> FloatArray:
    """`corners` (image pixels, any order) moved onto the colour step each side crosses
    within 1.2% of the board's width (as `find_board` places its corners); clockwise."""
    return clockwise(_precise(image.astype(np.float32), clockwise(np.asarray(corners, np.float64))))


def _frame_surface(lab: Lab, outline: FloatArray) -> tuple[FloatArray, float, FloatArray]:
    """The surface inside the frame's inner edge (in `lab`'s pixels), its score and the
    frame's colour; BoardNotFound where no frame-coloured band runs all round."""
    board_w = _width(outline)
    centre = outline.mean(axis=0)
    radius = float(np.linalg.norm(outline - centre, axis=1).mean())
    # Each side's candidate edges from every start, with the colour just outside them.
    candidates: list[list[tuple[float, FloatArray, SideFit]]] = [[], [], [], []]
    scale = _contrast_scale(lab)
    for shift in WALK_STARTS:  # the outline may sit on the frame's outer edge, or inside it
        start = centre + (outline - centre) * (1 + shift * board_w / radius)
        for i, fit in enumerate(_walk_in(lab, start)):
            if fit is not None:
                score, colour = _side_score(lab, fit, _side(start, i)[3], board_w, scale)
                candidates[i].append((score, colour, fit))
    # The frame is one colour all round: the colour found outside an edge on all four sides.
    best_frame: tuple[int, float, list[SideFit], FloatArray] | None = None
    for side in candidates:
        for _, colour, _ in side:
            chosen = []
            for other in candidates:
                near = [c for c in other if _colour_distance(c[1], colour) < FRAME_COLOUR]
                if near:
                    chosen.append(max(near, key=lambda c: c[0]))
            key = (len(chosen), sum(c[0] for c in chosen))
            if best_frame is None or key > best_frame[:2]:
                best_frame = (key[0], key[1], [c[2] for c in chosen], colour)
    inner = None
    if best_frame is not None and best_frame[0] == 4:
        inner = _intersect_sides(best_frame[2])
    if inner is None or not cv2.isContourConvex(inner.astype(np.float32)):
        raise BoardNotFound(
            "found the board but not the edge of its playing surface: is the frame in view "
            "all round, and evenly lit?"
        )
    assert best_frame is not None
    return inner, best_frame[1], best_frame[3]


def _rail_end(share: NDArray[np.float64], width: int) -> int:
    """Where the surface starts behind a tray's rail at the start of `share` (each column's
    share of frame-coloured pixels, from one end of the rectified surface): the first column
    past the first run of rail columns (`RAIL_SHARE`) within `RAIL_REACH`, if it is at most
    `RAIL_WIDTH` wide and the tray before it and `RAIL_CLEAR` of the surface after it hold
    no other such column and are mostly not the frame's colour; 0 where no rail is found.
    The points of a frame-coloured set (dark points on a dark wood) peak too, but a point's
    width along: such a run has another beside it."""
    lo, hi = round(RAIL_REACH[0] * width), round(RAIL_REACH[1] * width)
    rail = np.nonzero(share[lo:hi] >= RAIL_SHARE)[0]
    if not len(rail):
        return 0
    start = lo + int(rail[0])
    end, gap = start, max(1, round(RAIL_GAP * width))
    while end < len(share) and (share[end : end + gap + 1] >= RAIL_SHARE).any():
        end += 1  # the rail, seen aslant or through its shadow, dips a column or two
    tray = share[round(0.01 * width) : start]
    beyond = share[end : end + round(RAIL_CLEAR * width)]
    clear = all(
        len(part) and part.max() < RAIL_SHARE and np.median(part) < 0.5 for part in (tray, beyond)
    )
    return end if clear and end - start <= RAIL_WIDTH * width else 0


def _behind_rails(lab: Lab, quad: FloatArray, frame: FloatArray) -> FloatArray:
    """`quad` (the frame's inner edge, `lab`'s pixels) with each short end moved in behind a
    tray's rail where one shows: an open case's trays lie beyond the surface's ends, lined as
    the surface is, each behind a rail of the frame's material running the surface's whole
    height. The frame's inner edge runs round the trays too, and the points' layout, where
    their edges are soft, fits there as well as on the surface (on 100 rendered open cases
    with soft points, `benchmarks/calibrate.py --trays --soft-points`, 38 surfaces were
    found 2-15% off and 13 refused, mostly so). A rail is told by its columns (across the
    surface, in its rectified view) being the frame's colour (`FRAME_COLOUR`) nearly all
    along, where the tray before it and the surface after it mostly are not: the points,
    the checkers and the bar never span the surface's height at an end."""
    quad = clockwise(np.asarray(quad, np.float64))
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    across, along = sides[0] + sides[2], sides[1] + sides[3]
    ordered = quad if across >= along else np.roll(quad, -1, axis=0)  # long side first
    view, to_image, nu, nv = layout_fit.rectified(lab, ordered, RAIL_VIEW)
    x0, y0 = round(layout_fit.MARGIN * nu), layout_fit.MARGIN * nv  # the surface's corner
    near = _colour_distance(view, frame) < FRAME_COLOUR
    rows = near[round(y0 + 0.04 * nv) : round(y0 + 0.96 * nv), x0 : x0 + nu]
    share = rows.mean(axis=0).astype(np.float64)
    start, end = _rail_end(share, nu), nu - _rail_end(share[::-1], nu)
    if start == 0 and end == nu:
        return quad
    ends = np.array([[start, 0], [end, 0], [end, nv], [start, nv]], np.float64)
    ends += np.array([x0, y0])
    back = cv2.perspectiveTransform(ends[None], to_image)[0]
    return clockwise(back.astype(np.float64))


def _ambiguous(found: layout_fit.Fit) -> bool:
    """Whether another layout elsewhere fits about as well as the best."""
    return found.best.score < UNAMBIGUOUS * found.runner_up


def _beats_edge(found: layout_fit.Fit) -> bool:
    """Whether the best layout fits clearly better than the one refined from the frame's
    inner edge."""
    return found.best.score >= CLEARLY_BETTER * found.at_start


def _layout_wins(found: layout_fit.Fit, inner: FloatArray | None, shape: tuple[int, ...]) -> bool:
    """Whether the points' layout replaces the frame's inner edge (None: none found)."""
    best = found.best
    h, w = shape[:2]
    margin = BORDER * max(h, w)
    quad = best.quad
    limit = np.array([w, h]) - margin
    if (quad < margin).any() or (quad >= limit).any():
        return False  # the surface is cut by the image's edge
    if _ambiguous(found):
        return False  # another layout elsewhere fits about as well
    if inner is None:
        return True
    if layout_fit.near(inner, quad, layout_fit.SAME_PLACE):
        # the same surface: the layout's sides are fitted along their whole length and
        # to the points, where the frame's edge walk may be pulled by a checker or shadow
        # (test10 blurred, small or over-exposed: one of its sides leant by a shadow and a
        # checker, 1.1-2.9% off, the layout 0.6-0.8%; `benchmarks/real.py --variants`)
        return True
    return found.from_start or _beats_edge(found)


def _layout_elsewhere(found: layout_fit.Fit) -> bool:
    """Whether the points' layout, though it did not win, says the frame's inner edge is
    not the surface: layouts elsewhere fit about as well as each other (none unambiguous)
    and clearly better than the layout refined from that edge. Taking the frame's edge
    then put an open case's corners 12% of the board's width off (`board_real_dev`'s
    test2: its trays are the surface's colour, inside the frame); better a refusal."""
    return _ambiguous(found) and not found.from_start and _beats_edge(found)


def find_board(image: Image) -> Detection:
    """The playing surface's corners in `image`, or BoardNotFound saying why and what to do."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise BoardNotFound("expected an 8-bit colour image")
    full_h, full_w = image.shape[:2]
    scale = WORK_SIZE / max(full_h, full_w)
    small = np.asarray(
        cv2.resize(
            image, (round(full_w * scale), round(full_h * scale)), interpolation=cv2.INTER_AREA
        ),
        dtype=np.uint8,
    )
    lab = _lab(small)
    if float(lab[..., 0].mean()) * 100 / 255 < DARK:
        raise BoardNotFound("the image is too dark: light the table or open the camera's exposure")
    region = _board_region(small)
    outline = _outline(region)
    # A board running off the image (a stream's frame cut at the top, an open case wider
    # than the picture) is searched all the same: what must be in view is the playing
    # surface, with some frame beyond it, judged on the surface found. Its outline's slant
    # says nothing then (one side is the image's edge): the surface's is judged instead.
    cut = _cut(region)
    if not cut and _too_oblique(outline):
        raise BoardNotFound(OBLIQUE)
    # The frame's inner edge, then the points' layout, searched within the outline and
    # refined from that edge: where they agree, or differ and the layout is the edge's own
    # (refined from it) or fits clearly better, the layout wins if it is unambiguous.
    inner: FloatArray | None = None
    score = 0.0
    failure: BoardNotFound | None = None
    try:
        inner, score, frame = _frame_surface(lab, outline)
        if not cut:
            # An open case's trays behind their rails are no surface. Not on a cut board:
            # there the side at the picture's edge may be off, and the ends moved in then
            # agree with the layout refined from them (`--cut --trays --soft-points`'s
            # board 21, 6.4% off, taken; refused and placed by the start before).
            inner = _behind_rails(lab, inner, frame)
    except BoardNotFound as e:
        failure = e
    found = layout_fit.fit(small, _frames(region, outline), [] if inner is None else [inner])
    # the sub-pixel step in BGR, not Lab: blur blends the two sides' camera values linearly,
    # and Lab's lightness curve would pull the half-way point towards the darker side
    bgr = image.astype(np.float32)
    # A board cut by the picture's edge may have no frame's edge found: its colours are
    # then searched within its outline (one side of it the picture's edge).
    area = inner if inner is not None or not cut else outline
    by_colour: tuple[FloatArray, ...] = ()
    if area is not None and not _points_seen(found):
        # No triangle edge shows where the points' layout fits best (teardrops, soft
        # points): where their colours place them elsewhere than the edges do, and fit
        # the edges' place clearly worse (not among the places they fit nearly as well,
        # `layout_fit.ALTERNATIVE`), the surface lies there, if in view with some frame
        # beyond it (`_by_colour`). On a board cut by the picture's edge the colours'
        # places are only offered, first, with the edges' (below): there no triangle edge
        # may show because the edges' layout is off, not the points soft, and the colours
        # then fit best a place in view a point or more off (a surface 1% of its width
        # from the picture's edge was so taken, 10% off).
        colour = layout_colour.fit(small, area, () if found is None else (found.best,))
        if colour is not None and not (
            found is not None
            and any(
                layout_fit.near(layout.quad, found.best.quad, layout_fit.DISTINCT)
                for layout in (colour.best, *colour.alternatives)
            )
        ):
            if not cut:
                return _by_colour(image, bgr, colour, scale, outline)
            by_colour = _surfaces(bgr, colour, scale)
    wins = found is not None and _layout_wins(found, inner, small.shape[:2])
    if cut and (
        inner is None or found is None or not layout_fit.near(inner, found.best.quad, SAME)
    ):
        # Cut by the image's edge, the outline is no help: only a surface on which the
        # frame's inner edge and the points' layout agree is taken; else the places the
        # colours and the layout fit are named, for the starting position to decide
        # between. On 100 rendered open cases with soft points, each cut at one side,
        # `calibrate` so wrote corners within 1% on 73, refused 18 (the layout's places
        # alone: 61 and 32; 2026-12-06, benchmarks/calibrate.py --cut --trays --soft-points).
        edges = () if found is None else _surfaces(bgr, found, scale)
        places = by_colour + tuple(
            quad
            for quad in edges
            if not any(layout_fit.near(quad, c, layout_fit.DISTINCT) for c in by_colour)
        )
        if not places:
            raise BoardNotFound(CUT_UNSURE)
        raise AmbiguousBoard(CUT_UNSURE, places)
    if found is not None and wins:
        inner, score = clockwise(found.best.quad), found.best.score
    elif found is not None and inner is not None and _layout_elsewhere(found):
        raise AmbiguousBoard(
            "found the board, but its points fit two places about as well: trays or a frame "
            "the colour of the surface?",
            _surfaces(bgr, found, scale),
        )
    if inner is None:
        assert failure is not None
        if found is not None:  # the layout fits, but two places or more about as well
            raise AmbiguousBoard(str(failure), _surfaces(bgr, found, scale))
        raise failure
    if cut and not _in_view(inner / scale, image.shape):
        if by_colour:  # the case, trays and all, taken for the surface: the colours' places
            raise AmbiguousBoard(NOT_IN_VIEW, by_colour)
        raise BoardNotFound(NOT_IN_VIEW)
    if cut and _too_oblique(inner):
        raise BoardNotFound(OBLIQUE)
    corners = clockwise(_precise(bgr, inner / scale))
    others: tuple[FloatArray, ...] = ()
    if found is not None:  # where the layout won, its best is `corners` already
        others = _elsewhere(bgr, found, scale, corners, best=not wins)
    return Detection(corners, outline / scale, score, others)


def _points_seen(found: layout_fit.Fit | None) -> bool:
    """Whether the triangle edges of the points' best layout show (`POINTS_SEEN`)."""
    return found is not None and found.edges >= POINTS_SEEN


def _by_colour(
    image: Image,
    bgr: NDArray[np.float32],
    found: layout_fit.Fit,
    scale: float,
    outline: FloatArray,
) -> Detection:
    """The surface where the points' colours place it (`layout_colour`): the best place if
    no other fits about as well, else AmbiguousBoard with the places it fits (for the
    starting position to decide between)."""
    if _ambiguous(found):
        raise AmbiguousBoard(BY_COLOUR, _surfaces(bgr, found, scale))
    corners = clockwise(_precise(bgr, found.best.quad / scale))
    if not _in_view(corners, image.shape):
        raise BoardNotFound(NOT_IN_VIEW)
    if _too_oblique(corners):
        raise BoardNotFound(OBLIQUE)
    others = _elsewhere(bgr, found, scale, corners, best=False)
    return Detection(corners, outline / scale, found.best.score, others)


def _elsewhere(
    bgr: NDArray[np.float32],
    found: layout_fit.Fit,
    scale: float,
    corners: FloatArray,
    best: bool,
) -> tuple[FloatArray, ...]:
    """The fit's surfaces (`_surfaces`) other than `corners` (DISTINCT from them)."""
    return tuple(
        quad
        for quad in _surfaces(bgr, found, scale, best)
        if not layout_fit.near(quad, corners, layout_fit.DISTINCT)
    )


def _surfaces(
    bgr: NDArray[np.float32], found: layout_fit.Fit, scale: float, best: bool = True
) -> tuple[FloatArray, ...]:
    """The surfaces of the fit's best layout (unless not `best`) and its alternatives at
    full resolution (`bgr`: the image in floats; clockwise, each side's step located as
    `_precise` does), leaving out any too oblique or not in view."""
    out = []
    for layout in [found.best, *found.alternatives] if best else found.alternatives:
        quad = layout.quad / scale
        if _too_oblique(quad) or not _in_view(quad, bgr.shape):
            continue
        out.append(clockwise(_precise(bgr, quad)))
    return tuple(out)
