"""Sub-pixel refinement of the playing surface's corners from a nearby start.

Used to check whether the camera or the board has moved since calibration
(`bgcompanion calibrate --check`), and later by automatic board finding. From
corners within about 1% of the truth it finds the inner frame edge of each side
(the frame is one colour along the side, the triangle bases and checkers just
inside are not), walks in from the frame to the sub-pixel point where the colour
leaves it, fits each side robustly (a gentle curve where lens distortion bends
it) and intersects neighbouring sides.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.board_view import locate
from calibration.geometry import BoardGeometry
from calibration.schema import Calibration, CalibrationError

FloatArray = NDArray[np.float64]
Image = NDArray[np.uint8]


def _lab(image: Image) -> NDArray[np.float32]:
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)


def _sample_points(
    a: FloatArray,
    u: FloatArray,
    n: FloatArray,
    ts: FloatArray,
    offsets: FloatArray,
    curve: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Where `_strip` samples a side: x and y (px), each offsets x ts."""
    normal = offsets[:, None] + (0.0 if curve is None else curve[None, :])
    return a[0] + u[0] * ts[None, :] + n[0] * normal, a[1] + u[1] * ts[None, :] + n[1] * normal


def _strip(
    lab: NDArray[np.float32],
    a: FloatArray,
    u: FloatArray,
    n: FloatArray,
    ts: FloatArray,
    offsets: FloatArray,
    curve: FloatArray | None = None,
) -> NDArray[np.float32]:
    """Samples along a side (ts: pixels from a) at each normal offset: offsets x ts x 3.
    With `curve` (one offset per ts), the offsets are taken from that curve, not the line."""
    xs, ys = _sample_points(a, u, n, ts, offsets, curve)
    return np.asarray(
        cv2.remap(
            lab,
            xs.astype(np.float32),
            ys.astype(np.float32),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        ),
        dtype=np.float32,
    )


BLUR_SIGMA = 0.7  # px: the Lab image is smoothed so before it is sampled
BLUR_REACH = 5  # px: further than the blur's kernel (7 px wide) and the sampling reach


def _side_lab(
    image: Image, a: FloatArray, u: FloatArray, n: FloatArray, ts: FloatArray, offsets: FloatArray
) -> tuple[NDArray[np.float32], FloatArray]:
    """The image in Lab, smoothed, over the rectangle that a side's samples (`_strip`'s)
    and the blur round them reach, cut at the image's edges; and that rectangle's top left
    corner (px). At those samples, what the whole frame so made gives, within float
    rounding (the blur reaches BLUR_REACH px at most; cut at the image's edge, the
    rectangle's edge is the frame's; the samples' coordinates, smaller numbers, round
    otherwise in float32: corners found within 4e-5 px of the whole frame's), for a band
    of the frame's memory: a 1920x1080 frame in Lab is 25 MB, and the companion checks
    for drift every few seconds."""
    h, w = image.shape[:2]
    xs, ys = _sample_points(a, u, n, ts, offsets)
    x0 = int(np.clip(np.floor(xs.min()) - BLUR_REACH, 0, w - 1))
    x1 = int(np.clip(np.ceil(xs.max()) + BLUR_REACH + 1, x0 + 1, w))
    y0 = int(np.clip(np.floor(ys.min()) - BLUR_REACH, 0, h - 1))
    y1 = int(np.clip(np.ceil(ys.max()) + BLUR_REACH + 1, y0 + 1, h))
    lab = _lab(np.ascontiguousarray(image[y0:y1, x0:x1]))
    cv2.GaussianBlur(lab, (0, 0), BLUR_SIGMA, dst=lab)  # in place: one float copy less
    return lab, np.array([x0, y0], np.float64)


def refine(
    image: Image,
    quad: FloatArray,
    reach: tuple[float, float] = (0.02, 0.02),
    samples: int = 80,
    precise: bool = True,
) -> FloatArray:
    """Corners from each side's inner frame edge, found in two steps, then intersected.

    Coarse: outside the surface the frame is one colour along the side; just
    inside, the triangle bases (and checkers) alternate. The edge is near the
    offset where the colour variance along the side jumps, found per quarter of
    the side so that a side a degree off still gets a straight estimate.
    Precise: sample by sample, walk from the frame inwards to where the colour
    first leaves the frame's colour; the edge is where it is half-way to the
    colour inside (sub-pixel). A robust line (or gentle curve, for lens
    distortion) through those points; samples on a point whose colour matches
    the frame are dropped as outliers.
    """
    centre = quad.mean(axis=0)
    longest = max(float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4))
    margin, band = max(3.0, 0.007 * longest), max(3.0, 0.01 * longest)
    offsets = np.arange(
        -max(4.0, reach[0] * longest), max(4.0, reach[1] * longest) + margin + band, 0.5
    )
    fits = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        u = along / length
        n = np.array([-u[1], u[0]])
        if np.dot((a + b) / 2 - centre, n) < 0:
            n = -n  # outwards
        ts = np.linspace(0.06, 0.94, samples) * length
        lab, corner = _side_lab(image, a, u, n, ts, offsets)
        strip = _strip(lab, a - corner, u, n, ts, offsets)
        within = offsets <= max(4.0, reach[1] * longest)
        win = max(2, min(int(0.008 * longest / 0.5), int(within.sum()) // 4))
        quarter_t, quarter_e = [], []
        for q in range(4):
            part = strip[within, q * samples // 4 : (q + 1) * samples // 4]
            var = part.var(axis=1).mean(axis=1)
            jumps = np.array(
                [
                    var[k - win : k].mean() - var[k : k + win].mean()
                    for k in range(win, len(var) - win)
                ]
            )
            quarter_t.append(float(ts[(2 * q + 1) * samples // 8]))
            quarter_e.append(float(offsets[win + int(np.argmax(jumps))]))
        e_arr, qt = np.array(quarter_e), np.array(quarter_t)
        good = np.abs(e_arr - np.median(e_arr)) <= max(3.0, 0.006 * longest)
        edge_line = (
            np.polyfit(qt[good], e_arr[good], 1)
            if good.sum() >= 2
            else np.array([0.0, float(np.median(e_arr))])
        )
        if not precise:
            fits.append((a, u, n, np.array([0.0, *edge_line])))
            continue
        fits.append((a, u, n, _walk_fit(strip, offsets, ts, edge_line, longest, margin, band)))
    return _intersect_sides(fits)


def _walk_fit(
    strip: NDArray[np.float32],
    offsets: FloatArray,
    ts: FloatArray,
    edge_line: FloatArray,
    longest: float,
    margin: float,
    band: float,
) -> FloatArray:
    """Edge offsets along a side by walking in from the frame, then a robust fit."""
    step = offsets[1] - offsets[0]
    expected = np.polyval(edge_line, ts)
    starts = np.searchsorted(offsets, expected + margin)
    ends = np.searchsorted(offsets, expected + margin + band)
    samples = strip.shape[1]
    frame_px = [strip[starts[j] : ends[j], j] for j in range(samples) if ends[j] - starts[j] >= 2]
    if len(frame_px) < samples // 4:
        return np.array([0.0, *edge_line])
    frame = np.median(np.concatenate(frame_px), axis=0)
    dist = np.linalg.norm(strip - frame[None, None, :], axis=2)  # offsets x samples
    outside = np.concatenate(
        [dist[starts[j] : ends[j], j] for j in range(samples) if ends[j] - starts[j] >= 2]
    )
    noise = float(np.median(np.abs(outside - np.median(outside)))) * 1.48 + 1.0
    threshold = max(10.0, 5 * noise)
    t_list, o_list = [], []
    for j in range(samples):
        col = dist[:, j]
        start = min(int(starts[j]), len(offsets) - 1)
        stop = max(0, int(np.searchsorted(offsets, expected[j] - 0.02 * longest)))
        k = start
        while k > stop and col[k] < threshold:
            k -= 1
        if k <= stop or k >= start:
            continue
        half = col[max(stop, k - int(2 / step))] / 2  # half-way to the colour a little inside
        m = start
        while m > stop and col[m] < half:
            m -= 1
        if m >= start or m <= stop:
            continue
        lo, hi = col[m + 1], col[m]  # col[m + 1] < half <= col[m]
        frac = (half - lo) / (hi - lo) if hi != lo else 0.0
        t_list.append(ts[j])
        o_list.append(offsets[m + 1] - frac * step)
    if len(t_list) < samples // 4:
        return np.array([0.0, *edge_line])
    return _robust_fit(np.array(t_list), np.array(o_list))


def _robust_fit(t: FloatArray, o: FloatArray) -> FloatArray:
    """Edge offset as a function of position along a side: a line, or a quadratic where
    lens distortion visibly bends the side. Outliers (checker rims, dice) are dropped."""
    keep = np.ones(len(t), bool)
    coef = np.zeros(3)
    for _ in range(5):
        line = np.polyfit(t[keep], o[keep], 1)
        curve = np.polyfit(t[keep], o[keep], 2)
        rms_line = float(np.sqrt(np.mean((np.polyval(line, t[keep]) - o[keep]) ** 2)))
        rms_curve = float(np.sqrt(np.mean((np.polyval(curve, t[keep]) - o[keep]) ** 2)))
        coef = curve if rms_curve < 0.8 * rms_line and rms_line > 0.35 else np.array([0.0, *line])
        resid = np.abs(np.polyval(coef, t) - o)
        cutoff = max(0.6, 2.5 * float(np.median(resid[keep])))
        new_keep = resid < cutoff
        if new_keep.sum() < 8 or (new_keep == keep).all():
            break
        keep = new_keep
    return coef


def _curve_point(
    fit: tuple[FloatArray, FloatArray, FloatArray, FloatArray], s: float
) -> FloatArray:
    a, u, n, coef = fit
    return np.asarray(a + u * s + n * float(np.polyval(coef, s)), dtype=np.float64)


def _curve_intersection(
    f1: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    f2: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    guess: FloatArray,
) -> FloatArray:
    """Where two fitted side curves meet (Newton on their parameters)."""
    s1 = float(np.dot(guess - f1[0], f1[1]))
    s2 = float(np.dot(guess - f2[0], f2[1]))
    for _ in range(20):
        p1, p2 = _curve_point(f1, s1), _curve_point(f2, s2)
        eps = 1e-3
        d1 = (_curve_point(f1, s1 + eps) - p1) / eps
        d2 = (_curve_point(f2, s2 + eps) - p2) / eps
        jac = np.column_stack([d1, -d2])
        if abs(np.linalg.det(jac)) < 1e-9:
            break
        step = np.linalg.solve(jac, p2 - p1)
        s1, s2 = s1 + float(step[0]), s2 + float(step[1])
        if np.abs(step).max() < 1e-4:
            break
    return (_curve_point(f1, s1) + _curve_point(f2, s2)) / 2


def _intersect_sides(
    fits: list[tuple[FloatArray, FloatArray, FloatArray, FloatArray]],
) -> FloatArray:
    """The corners where neighbouring fitted sides meet (side i starts at corner i)."""
    corners = []
    for i in range(4):
        start, _, normal, coef = fits[i]
        guess = start + normal * float(np.polyval(coef, 0.0))
        corners.append(_curve_intersection(fits[i - 1], fits[i], guess))
    return np.array(corners, dtype=np.float64)


def polish(image: Image, corners: FloatArray) -> FloatArray:
    """The surface's corners to sub-pixel, from corners within about 1% of them: two passes."""
    return refine(image, refine(image, corners, reach=(0.015, 0.015)), reach=(0.008, 0.008))


# How far (of the board's width) the surface must lie from where a calibration puts it
# before the drift check calls the camera or board moved. The reader reads every rendered
# board exactly with its calibration shifted up to 1.5% of the width (58 of 60 at 2%, 19 at
# 3%: benchmarks/drift.py's notes), and a calibration `calibrate` writes lies within 0.5%
# of the surface on 285 to 300 of 300 rendered boards. Measured by the recorded view, an
# unmoved board lies within 0.4% of its calibration (every rendered board, the real photos
# 0.25% at most); by the surface's edges, within 1.0% on the default boards but up to 1.6%
# on other boards' styles and 1.2% on the real photos. At 0.5% (the tolerance until
# 2026-12-06, by the edges alone) the check called a quarter of the rendered frames nothing
# had moved on "moved", and 10 of 16 checks of the real photos against their own corners.
MOVED_SHARE = 0.01


def check_drift(
    image: Image, cal: Calibration, tolerance: float = MOVED_SHARE
) -> dict[str, object]:
    """How far the playing surface's corners are from where `cal` puts them, in this image.

    Where `cal` recorded the board's view (`calibrate` does), the later frame's view is
    matched against it (`calibration.board_view.locate`); else the surface's edges are
    found again round the corners (`polish`, `method` "edges"). Returns the corners found,
    the largest move in pixels and as a share of the board's width, and whether that
    exceeds `tolerance` (MOVED_SHARE, 1%, by default). Where the recorded view matches
    nowhere in this frame's (`matched` false: the board moved further than the search
    reaches, or is covered, or the light went out), it is called moved, with the edges'
    figures.
    """
    return measure_drift(image, cal, tolerance)[0]


def measure_drift(
    image: Image, cal: Calibration, tolerance: float = MOVED_SHARE
) -> tuple[dict[str, object], Calibration | None]:
    """`check_drift`'s report, and `cal` with its corners where the recorded view placed
    the board (its view kept: the reference still), or None where it has no view or the
    view matched nowhere."""
    size = (image.shape[1], image.shape[0])
    if size != cal.image_size:
        raise CalibrationError(
            f"the image is {size[0]}x{size[1]} but the calibration was made for "
            f"{cal.image_size[0]}x{cal.image_size[1]}"
        )
    geo = BoardGeometry(cal)
    w, h = cal.width_mm, cal.height_mm
    corners_mm = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    expected = geo.mm_to_px(corners_mm)
    width = float(np.linalg.norm(expected[1] - expected[0]))
    report: dict[str, object] = {"method": "edges"}
    now = None
    if cal.view is not None:
        now = locate(cal, image)
        report = {"method": "view", "matched": now is not None}
        if now is not None:
            report["view_alike"] = round(now[1].alike, 4)
    found = polish(image, expected) if now is None else BoardGeometry(now[0]).mm_to_px(corners_mm)
    moves = np.linalg.norm(found - expected, axis=1)
    share = float(moves.max()) / width
    report = report | {
        "corners_px": found.round(2).tolist(),
        "max_drift_px": round(float(moves.max()), 2),
        "drift_of_width": round(share, 5),
        "moved": share > tolerance or report.get("matched") is False,
        "tolerance_of_width": tolerance,
    }
    return report, None if now is None else now[0]
