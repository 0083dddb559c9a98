"""Where the starting position's thirty checkers place the playing surface (issue 27).

`calibrate` finds the surface by its frame's inner edge and its points' layout. On an
open case whose trays are lined as the surface is, with points whose edges do not show,
both can settle a tray or a point along: the starting position then reads nowhere, and
the place written was only the orientation's guess. The thirty checkers of the start are
set at known places whatever the board looks like: on each side four points, the two at
the ends of the surface and the fifth and seventh from one end (the 8 and 6 points and
their opposites), in rows from the long edge. So, round corners roughly right, they say
where the surface lies:

1. The frame is warped to the board seen from above by those corners, with a wide
   margin round it (`MARGIN_SHARE` of its width), and the checkers in it are found as the
   reader finds them (rings round a rim, one even colour inside: `BoardReader.oriented`),
   anywhere in the view, at a few sizes (`SHARES`; the size with the most is taken).
2. Across the board: the checkers' columns are those four points' middles; the line
   from the surface's millimetres to the view's that puts most checkers on them (either
   way round: white's home at either end) is searched, then fitted to them by least
   squares, on each long side apart (the corners may be a little aslant).
3. Along the points: each side's rows start at its edge, their first checker a radius in
   from it (players lay the rows against the frame); a line through the first checkers
   of its columns, moved out by a radius, is that edge.

The result is only a proposal: `companion.cli.calibrate` snaps it onto the colour steps
nearby (`calibration.detect.snap_to_edges`) and takes it only where the starting
position reads on it and its checkers say no edge lies off.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from calibration.schema import Calibration, CalibrationError
from vision.board import BoardReader
from vision.board_settings import BoardSettings

FloatArray = NDArray[np.float64]

MARGIN_SHARE = 0.15  # of the surface's width: the view round it searched for checkers
SHARES = (0.94, 0.84, 0.74)  # checker sizes tried, of a point's width
# The columns of the starting position, counted 0-11 from the left end of the surface
# (white's home on the right; 5, 3, 5 and 2 checkers on either side); with white's home on
# the left they lie mirrored.
COLUMNS = (0, 4, 6, 11)
NEAR_COLUMN = 0.3  # of a point's width: a checker this close to a column's middle is in it
FIT_STEPS = 60  # steps of the scale searched across the board, 0.8-1.25
MIN_CHECKERS = 20  # fewer found in the columns: no proposal
ROUNDS = 2  # searched again round the corners proposed


def start_surface(image: NDArray[np.uint8], cal: Calibration) -> FloatArray | None:
    """The surface's corners (image pixels, in `cal`'s order: its far left, far right,
    near right, near left) where the starting position's checkers place it, found round
    `cal`'s corners; None where the frame shows no such checkers there."""
    corners: FloatArray | None = None
    for _ in range(ROUNDS):
        found = _once(image, cal)
        if found is None:
            return corners
        try:
            cal = replace(cal, corners_px=tuple((float(x), float(y)) for x, y in found))  # type: ignore[arg-type]
        except CalibrationError:  # outside the image, or no quadrilateral: no proposal
            return None
        corners = found
    return corners


def _once(image: NDArray[np.uint8], cal: Calibration) -> FloatArray | None:
    geo = BoardGeometry(replace(cal, appearance=None))
    margin = min(100.0, MARGIN_SHARE * geo.width_mm)
    reader = BoardReader(geo, BoardSettings(margin_mm=margin, net_check=False))
    view = reader.rectify(image)
    gx, gy, edges = reader.edges(view)
    smooth, _ = reader.smooth_lab(view)
    best: tuple[FloatArray, float] | None = None
    for share in SHARES:
        reader.keep_size(share)
        circles = _circles(reader, edges, gx, gy, smooth)
        if best is None or len(circles) > len(best[0]):
            best = (circles, reader.d_mm)
    assert best is not None
    circles, d_mm = best
    if len(circles) < MIN_CHECKERS:
        return None
    quad = _surface(circles, _diameter(circles, d_mm), geo)
    if quad is None:
        return None
    return np.asarray(geo.mm_to_px(quad), np.float64)


def _circles(
    reader: BoardReader,
    edges: NDArray[np.float32],
    gx: NDArray[np.float32],
    gy: NDArray[np.float32],
    smooth: NDArray[np.uint8],
) -> FloatArray:
    """The centres (board mm) of the checkers of the reader's size anywhere in its view:
    the circle map's local maxima over `candidate_min`, scored as the reader scores its
    checkers (at least `circle_min`), none closer than 0.7 of a diameter to a better one."""
    s, m = reader.s.px_per_mm, reader.m
    cmap = reader.circle_map(edges)
    radius = max(1, round(0.35 * reader.d_mm * s))
    peak = cv2.dilate(cmap, np.ones((2 * radius + 1, 2 * radius + 1), np.uint8))
    ys, xs = np.nonzero((cmap >= peak) & (cmap >= reader.s.candidate_min))
    if not len(xs):
        return np.zeros((0, 2))
    scores, refined = reader.oriented(gx, gy, smooth, np.stack([xs, ys], axis=1).astype(float))
    kept: list[FloatArray] = []
    apart = 0.7 * reader.d_mm * s
    for k in np.argsort(-scores, kind="stable"):
        if scores[k] < reader.s.circle_min:
            break
        if all(np.hypot(*(refined[k] - c)) >= apart for c in kept):
            kept.append(refined[k])
    if not kept:
        return np.zeros((0, 2))
    return (np.array(kept) + 0.5) / s - m


def _surface(circles: FloatArray, d_mm: float, geo: BoardGeometry) -> FloatArray | None:
    """The surface's corners in the view's millimetres, from the checkers found there
    (`circles`), or None where they do not stand in the start's columns."""
    width, pw = geo.width_mm, geo.point_width_mm
    middles = np.array([c * pw + pw / 2 + (geo.bar_width_mm if c >= 6 else 0.0) for c in COLUMNS])
    # Across: the line x_view = a * x + b (both ways round) that puts most checkers on the
    # columns' middles, within NEAR_COLUMN of a point.
    xs = circles[:, 0]
    scales = np.linspace(0.8, 1.25, FIT_STEPS)
    shifts = np.arange(-0.25 * width, 0.25 * width, 0.1 * pw)
    best: tuple[int, FloatArray, FloatArray] | None = None
    for columns in (middles, width - middles[::-1]):
        at = scales[:, None, None] * columns[None, None, :] + shifts[None, :, None]
        near = np.abs(xs[None, None, :, None] - at[..., None, :]).min(axis=3) < NEAR_COLUMN * pw
        hits = near.sum(axis=2)
        k = np.unravel_index(int(hits.argmax()), hits.shape)
        if best is None or hits[k] > best[0]:
            best = (int(hits[k]), scales[k[0]] * columns + shifts[k[1]], columns)
    assert best is not None
    hits, placed, truth = best
    if hits < MIN_CHECKERS:
        return None
    middle = _middle(circles)
    sides = []
    for top in (True, False):
        fit = _side(circles[(circles[:, 1] < middle) == top], placed, truth, d_mm, pw, top)
        if fit is None:
            return None
        sides.append(fit)
    corners = []
    for x, (a, b, (slope, intercept)) in (
        (0.0, sides[0]),
        (width, sides[0]),
        (width, sides[1]),
        (0.0, sides[1]),
    ):
        u = a * x + b
        corners.append((u, slope * u + intercept))
    return np.array(corners, np.float64)


def _diameter(circles: FloatArray, ring_mm: float) -> float:
    """The checkers' diameter (mm): the median step between neighbours in a row (touching
    checkers lie a diameter apart), where two or more such steps show; else the ring's."""
    steps = []
    for c in circles:
        gaps = np.hypot(*(circles - c).T)
        steps += [g for g in gaps if 0.8 * ring_mm < g < 1.3 * ring_mm]
    return float(np.median(steps)) if len(steps) >= 4 else ring_mm


def _middle(circles: FloatArray) -> float:
    """The view's y between the two long sides' checkers: the middle of the largest gap
    between the checkers' y in the middle half of their spread."""
    ys = np.sort(circles[:, 1])
    lo, hi = ys[0], ys[-1]
    inner = ys[(ys > lo + 0.2 * (hi - lo)) & (ys < hi - 0.2 * (hi - lo))]
    pts = np.concatenate([[lo + 0.2 * (hi - lo)], inner, [hi - 0.2 * (hi - lo)]])
    gaps = np.diff(pts)
    k = int(gaps.argmax())
    return float((pts[k] + pts[k + 1]) / 2)


def _side(
    side: FloatArray,
    placed: FloatArray,
    truth: FloatArray,
    d_mm: float,
    pw: float,
    top: bool,
) -> tuple[float, float, tuple[float, float]] | None:
    """One long side: the line x_view = a * x + b fitted to its checkers in the columns,
    and its edge (y_view = slope * x_view + intercept) a radius beyond the first checker
    of each column; None with fewer than two columns found."""
    xs_view, xs_true, firsts = [], [], []
    for view_x, true_x in zip(placed, truth, strict=True):
        col = side[np.abs(side[:, 0] - view_x) < NEAR_COLUMN * pw]
        if not len(col):
            continue
        xs_view += col[:, 0].tolist()
        xs_true += [true_x] * len(col)
        first = col[col[:, 1].argmin()] if top else col[col[:, 1].argmax()]
        firsts.append(first)
    if len(firsts) < 2:
        return None
    a, b = np.polyfit(np.array(xs_true), np.array(xs_view), 1)
    f = np.array(firsts)
    # A column whose first checkers were not found (a dark checker on a dark point) starts
    # farther in: only those starting within half a checker of the outermost say where the
    # edge lies (rows start at it), aslant only where two or more do.
    outermost = f[:, 1].min() if top else f[:, 1].max()
    f = f[np.abs(f[:, 1] - outermost) <= d_mm / 2]
    slope, intercept = np.polyfit(f[:, 0], f[:, 1], 1) if len(f) >= 2 else (0.0, f[0, 1])
    out = -1.0 if top else 1.0  # the edge lies beyond the first checkers, away from the middle
    # a radius along the side's normal, in y mostly
    intercept += out * (d_mm / 2) * float(np.hypot(1.0, slope))
    return float(a), float(b), (float(slope), float(intercept))
