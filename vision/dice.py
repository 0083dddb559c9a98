"""Dice: find every die in a frame, read its top face, judge how it lies and the roll.

The reader starts from the pips, because they are what every die has in common
whatever its colour: small round blobs that stand out of an even face. A pip is
a blob of the morphological top-hat (dark pips on light dice) or its opposite
(light pips on red or black dice) whose surrounding ring is even.

Without a calibration (a photo of dice) pips join into a face when they are alike
(size, foreshortening, face brightness) and the straight line between them stays on
the face; a face is read only if its pips make one of the six patterns
(point-symmetric about the centre, with a centre pip exactly for 1, 3 and 5). Faces of
one die (the top and visible sides) join into a die whose top is its least
foreshortened face.

With a calibration the pip size is known and each die is read from its whole top
face (`read_calibrated`): pips near each other seed a die; the face is fitted to the
edges round them (`fit_face`) or boxed from the pips (`pip_box`); the face, warped to
a square, is read from its pip-sized spots (`read_face`). A cocked die shows its pips
squeezed on the board (`pattern_aspect`); a die on a checker has a checker's rim round
it (`under_checker`); its centre gives the section.

Every threshold is named in `vision/dice.toml`.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry, Color
from vision import dicenet
from vision.config import Config
from vision.errors import ImageError

Image = NDArray[np.uint8]
Floats = NDArray[np.float64]
REASONS = ("cocked", "wrong_section", "on_checker", "off_board", "dice_count", "unreadable")


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    r: float
    dark: bool  # dark pip on a light face
    face: float  # grey level of the face around it
    contrast: float
    shape: tuple[float, float, float]  # normalised second moments (xx, xy, yy)


@dataclass
class Face:
    pips: list[Pip]
    value: int | None
    confidence: float
    x: float
    y: float
    level: float


@dataclass
class DieReading:
    value: int | None
    confidence: float
    center_px: tuple[float, float]
    flat: bool = True
    section: str | None = None
    on_checker: bool = False
    aspect: float | None = None  # short / long side of the top face
    size_mm: float | None = None
    faces: list[Face] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "confidence": round(self.confidence, 3),
            "center_px": [round(self.center_px[0], 1), round(self.center_px[1], 1)],
            "flat": self.flat,
            "section": self.section,
            "on_checker": self.on_checker,
        }


@dataclass
class DiceResult:
    dice: list[DieReading]
    roll: tuple[int, int] | None
    valid: bool
    reasons: list[str]
    elapsed_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": [d.to_json() for d in self.dice],
            "roll": list(self.roll) if self.roll else None,
            "valid": self.valid,
            "reasons": self.reasons,
            "elapsed_ms": round(self.elapsed_ms, 2),
        }


# --- pips ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _least_levels(least: float, share: float) -> NDArray[np.uint8] | None:
    """For each peak level v, the least whole level above both `least` and v * `share`;
    None where some is above 255."""
    levels = [max(math.floor(least), math.floor(v * share)) + 1 for v in range(256)]
    return np.array(levels, np.uint8) if max(levels) <= 255 else None


def components(mask: NDArray[Any]) -> tuple[int, NDArray[Any], NDArray[Any], NDArray[Any]]:
    """cv2.connectedComponentsWithStats, 8-connected, by Grana's algorithm: the same
    labels and stats as OpenCV's default, in a half to a third of its time on pip masks."""
    n, lab, stats, cent = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    return int(n), np.asarray(lab), np.asarray(stats), np.asarray(cent)


def _candidates(
    cfg: Config,
    gray: Image,
    d_max: float,
    dark: bool,
    scale: float,
    share: float,
    bars: list[dict[str, Any]] | None = None,
    splits: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Pip-like blobs (x, y, r, value, dark, shape). Blobs a pip wide and about three
    long (a cocked or blurred 6's column of pips run together) go to `bars`, if given,
    as three candidates along each; else blobs too large for a pip go to `splits`, if
    given, as the pips they part into (`_split_blob`)."""
    p = cfg["pips"]
    k = int(d_max * p["kernel_diameters"]) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    op = cv2.MORPH_BLACKHAT if dark else cv2.MORPH_TOPHAT
    hat = cv2.morphologyEx(gray, op, kernel)
    # Half the local peak: pips a few pixels apart stay separate blobs even when blurred.
    peak = cv2.dilate(hat, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k // 2 | 1, k // 2 | 1)))
    # hat > tophat_min and hat > peak * share, for whole grey levels: hat at least the least
    # level above both, looked up by peak.
    least = _least_levels(float(p["tophat_min"]), share)
    if least is not None:
        mask = cv2.compare(hat, cv2.LUT(peak, least), cv2.CMP_GE)
    else:  # thresholds no grey level passes
        mask = ((hat > p["tophat_min"]) & (hat > peak * share)).astype(np.uint8)
    n, lab, stats, cent = components(mask)
    out = []
    big = d_max * p["blob_diameters_max"]
    for j in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[j])
        if a < p["area_min_px"]:
            continue
        sub = lab[y : y + h, x : x + w] == j
        if w > big or h > big:
            if bars is not None and max(w, h) < p["bar_diameters_max"] * big:
                bars.extend(_bar(cfg, gray, sub, x, y, big, dark))
            elif splits is not None and max(w, h) < p["split_diameters_max"] * big:
                splits += _split_blob(
                    cfg, gray, hat[y : y + h, x : x + w], sub, x, y, big, dark, scale
                )
            continue
        blob = _blob(cfg, gray, sub, x, y, a, dark, scale, (cent[j][0], cent[j][1]))
        if blob is not None:
            out.append(blob)
    return out


def _blob(
    cfg: Config,
    gray: Image,
    sub: NDArray[np.bool_],
    x: int,
    y: int,
    area: int,
    dark: bool,
    scale: float,
    centre: tuple[float, float] | None = None,
) -> dict[str, Any] | None:
    """The candidate of a blob (mask `sub` at x, y of `area` pixels; its `centre` in the
    image where known), or None where it fills too little of its box."""
    h, w = sub.shape
    if area / (w * h) < cfg["pips"]["fill_min"]:
        return None
    values = gray[y : y + h, x : x + w][sub]
    m = cv2.moments(sub.astype(np.uint8), True)
    cxx, cxy, cyy = m["mu20"] / area, m["mu11"] / area, m["mu02"] / area
    det = math.sqrt(max(cxx * cyy - cxy * cxy, 1e-9))
    if centre is None:
        centre = (x + m["m10"] / area, y + m["m01"] / area)
    return {
        "x": centre[0] * scale,
        "y": centre[1] * scale,
        "r": math.sqrt(area / math.pi) * scale,
        "value": float(values.min() if dark else values.max()),
        "dark": dark,
        "shape": (cxx / det, cxy / det, cyy / det),
    }


def _split_blob(
    cfg: Config,
    gray: Image,
    hat: NDArray[Any],
    sub: NDArray[np.bool_],
    x: int,
    y: int,
    big: float,
    dark: bool,
    scale: float,
) -> list[dict[str, Any]]:
    """A blob too large for a pip (mask `sub` at x, y; `hat` its top-hat) cut at higher
    shares of its own peak (`pips.split_share_*`), at the first that parts it into two or
    more blobs each small enough for a pip: blurred pips a few pixels apart, run together
    at the usual cut, part where the response dips between them."""
    p = cfg["pips"]
    inside = np.where(sub, hat, 0)
    top = float(inside.max())
    for share in np.arange(
        p["split_share_min"], p["split_share_max"] + 1e-9, p["split_share_step"]
    ):
        part = (inside >= share * top).astype(np.uint8)
        n, lab, stats, _ = components(part)
        if n < 3 or np.any(stats[1:, 2:4] > big):
            continue
        # Each pip is the part of the blob nearer its peak than any other's: its shape
        # and size as at the usual cut, not rounded and shrunk by the higher one.
        _, near = cv2.distanceTransformWithLabels(
            1 - part, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP
        )
        ids = np.zeros(int(near.max()) + 1, np.int32)
        ids[near[part > 0]] = lab[part > 0]
        cells = np.where(sub, ids[near], 0)
        out = []
        for k in range(1, n):
            cell = cells == k
            area = int(np.count_nonzero(cell))
            if area < p["area_min_px"]:
                continue
            ys, xs = np.nonzero(cell)
            bx, by = int(xs.min()), int(ys.min())
            cell = cell[by : int(ys.max()) + 1, bx : int(xs.max()) + 1]
            if max(cell.shape) > big:
                continue
            blob = _blob(cfg, gray, cell, x + bx, y + by, area, dark, scale)
            if blob is not None:
                out.append(blob)
        return out
    return []


def _bar(
    cfg: Config, gray: Image, sub: NDArray[np.bool_], x: int, y: int, big: float, dark: bool
) -> list[dict[str, Any]]:
    """A blob (mask `sub` at x, y) that is a pip wide and about three long, straight and
    filled: three pips in a row run together, as three candidates along it; else none."""
    p = cfg["pips"]
    m = cv2.moments(sub.astype(np.uint8), True)
    a = m["m00"]
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / a
    (low, high), vecs = np.linalg.eigh(cov)
    width, length = 4 * math.sqrt(max(low, 0.0)), 4 * math.sqrt(max(high, 0.0))
    if not p["bar_width_min"] * big <= width <= big:
        return []
    if not p["bar_length_min"] <= length / width <= p["bar_length_max"]:
        return []
    if a < p["bar_fill_min"] * math.pi / 4 * width * length:
        return []  # not a filled bar: a corner, a crossing of lines
    cx, cy = x + m["m10"] / a, y + m["m01"] / a
    ux, uy = vecs[:, 1]
    step = (length - width) / 2
    values = gray[y : y + sub.shape[0], x : x + sub.shape[1]][sub]
    return [
        {
            "x": cx + k * step * ux,
            "y": cy + k * step * uy,
            "r": width / 2,
            "value": float(values.min() if dark else values.max()),
            "dark": dark,
            "shape": (1.0, 0.0, 1.0),  # each taken for a round pip
            "bar": (cx, cy),
        }
        for k in (-1, 0, 1)
    ]


_RING_ANGLES = np.linspace(0, 2 * np.pi, 24, endpoint=False)


def _circle(x: float, y: float, radius: float) -> NDArray[np.float64]:
    """24 points (N x 2) on a circle around (x, y)."""
    return np.stack([x + radius * np.cos(_RING_ANGLES), y + radius * np.sin(_RING_ANGLES)], 1)


def _row_percentiles(
    sorted_rows: NDArray[np.float64], counts: NDArray[np.intp], q: float
) -> NDArray[np.float64]:
    """Each row's `q` percentile (as np.percentile's linear method) of its first `counts`
    values, the rows sorted ascending."""
    idx = q / 100 * (counts - 1)
    lo = np.floor(idx).astype(np.intp)
    hi = np.minimum(lo + 1, counts - 1)
    rows = np.arange(len(sorted_rows))
    a, b = sorted_rows[rows, lo], sorted_rows[rows, hi]
    return np.asarray(a + (b - a) * (idx - lo), np.float64)


def _ring_check(
    cfg: Config,
    gray: Image,
    cands: list[dict[str, Any]],
    spread_max: float,
    first: int | None = None,
) -> list[Pip]:
    """Keep candidates that sit on an even face clearly brighter (darker) than the pip
    (the ring's 10-90% spread at most `spread_max` of the contrast). The face ring is two
    circles of samples round each; samples near another candidate are left out. Given
    `first`, only the first so many candidates are checked (the rest only hide samples)."""
    p = cfg["pips"]
    if not cands:
        return []
    hgt, wid = gray.shape
    xy = np.array([[c["x"], c["y"]] for c in cands], np.float64)
    radii = np.array([c["r"] for c in cands], np.float64)
    values = np.array([c["value"] for c in cands], np.float64)
    dark = np.array([c["dark"] for c in cands], bool)
    cos, sin = np.cos(_RING_ANGLES), np.sin(_RING_ANGLES)
    pips = []
    step = 128  # candidates at a time: pairs of samples and candidates grow as their square
    end = len(cands) if first is None else first
    for s0 in range(0, end, step):
        sl = slice(s0, min(s0 + step, end))
        rr = np.concatenate(
            [
                np.repeat((p["ring_inner"] * radii[sl] + 1)[:, None], len(cos), 1),
                np.repeat((p["ring_outer"] * radii[sl] + 1)[:, None], len(cos), 1),
            ],
            1,
        )  # n x 48
        px = xy[sl, 0, None] + rr * np.concatenate([cos, cos])
        py = xy[sl, 1, None] + rr * np.concatenate([sin, sin])
        # Candidates near each (not itself), and the samples they cover.
        d = np.abs(xy[sl, None, :] - xy[None, :, :]).max(axis=2)  # n x N
        near = d < 4 * radii[sl, None] + radii[None, :]
        near[np.arange(len(px)), np.arange(s0, s0 + len(px))] = False
        keep = np.ones(px.shape, bool)
        ii, jj = np.nonzero(near)
        if len(ii):
            dist = np.hypot(px[ii] - xy[jj, 0, None], py[ii] - xy[jj, 1, None])
            covered = np.zeros(px.shape, np.intp)
            np.add.at(covered, ii, dist <= radii[jj, None] * p["ring_exclude"] + 1)
            keep = covered == 0
        counts = keep.sum(axis=1)
        xs = np.clip(px.astype(int), 0, wid - 1)
        ys = np.clip(py.astype(int), 0, hgt - 1)
        ring = gray[ys, xs].astype(np.float64)
        ring = np.sort(np.where(keep, ring, 1e9), axis=1)  # left out: sorted last
        ok = counts >= p["ring_min_samples"]
        safe = np.maximum(counts, 1)
        face = _row_percentiles(ring, safe, 50)
        spread = _row_percentiles(ring, safe, 90) - _row_percentiles(ring, safe, 10)
        v = values[sl]
        contrast = np.where(dark[sl], face - v, v - face)
        ok &= (contrast >= p["contrast_min"]) & (spread <= spread_max * contrast)
        for k in np.flatnonzero(ok):
            c = cands[s0 + k]
            pips.append(
                Pip(
                    c["x"],
                    c["y"],
                    c["r"],
                    c["dark"],
                    float(face[k]),
                    float(contrast[k]),
                    c["shape"],
                )
            )
    return pips


def find_pips(
    cfg: Config, gray: Image, d_max: float | None = None, bars: list[Pip] | None = None
) -> list[Pip]:
    """Every pip in a grey image; without `d_max` (pixels) at several scales. With
    `bars`, the pips of bars (three pips run together, `_bar`) are put there."""
    p = cfg["pips"]
    levels: list[tuple[Image, float]] = [(gray, 1.0)]
    calibrated = d_max is not None
    share = p["peak_share_calibrated"] if calibrated else p["peak_share"]
    spread_max = p["ring_spread_max_calibrated"] if calibrated else p["ring_spread_max"]
    if d_max is None:
        d_max = p["diameter_max_px"]
        level, scale = gray, 1.0
        while min(level.shape) >= p["pyramid_min_side"]:
            level, scale = np.asarray(cv2.pyrDown(level), dtype=np.uint8), scale * 2
            levels.append((level, scale))
    cands: list[dict[str, Any]] = []
    bar_cands: list[dict[str, Any]] | None = [] if bars is not None else None
    # Without bars, blobs too large for a pip are parted into pips (`_split_blob`).
    splits: list[dict[str, Any]] | None = [] if bars is None else None
    for level, scale in levels:
        for dark in (True, False):
            found = _candidates(cfg, level, d_max, dark, scale, share, bar_cands, splits)
            _add_new(cands, found)
    if bars is not None and bar_cands:
        bars.extend(_bar_pips(cfg, gray, bar_cands))
    pips = _ring_check(cfg, gray, cands, spread_max)
    if splits:
        # Parted blobs' pips are checked after the others, so that none of them (the face
        # between a white die's pips parts into light blobs too) hides a pip's ring.
        parted: list[dict[str, Any]] = []
        _add_new(parted, splits, cands)
        pips += _ring_check(cfg, gray, parted + cands, spread_max, len(parted))
    return pips


def _add_new(
    cands: list[dict[str, Any]],
    found: list[dict[str, Any]],
    seen: list[dict[str, Any]] | None = None,
) -> None:
    """`found` added to `cands`, each only where no candidate in either list or in
    `seen` already covers it: a pip found at a finer level (or first) wins over the same
    pip seen again."""
    kept = np.array([[o["x"], o["y"], o["r"]] for o in cands + (seen or [])]).reshape(-1, 3)
    for c in found:
        near = np.hypot(kept[:, 0] - c["x"], kept[:, 1] - c["y"])
        if np.all(near > np.maximum(kept[:, 2], c["r"])):
            cands.append(c)
            kept = np.vstack([kept, [c["x"], c["y"], c["r"]]])


def _bar_pips(cfg: Config, gray: Image, cands: list[dict[str, Any]]) -> list[Pip]:
    """The pips of bars that pass the face-ring check: each on its own, or (with
    `pips.bar_whole`) a bar's three together where two of them pass (one end may lie by
    the face's edge, a side face or a shadow)."""
    p = cfg["pips"]
    passed = _ring_check(cfg, gray, cands, p["bar_ring_spread_max"])
    if not p["bar_whole"]:
        return passed
    by_place = {(q.x, q.y): q for q in passed}
    out: list[Pip] = []
    for bar in {c["bar"] for c in cands}:
        mine = [
            by_place[k] for c in cands if c["bar"] == bar and (k := (c["x"], c["y"])) in by_place
        ]
        if len(mine) < 2:
            continue
        face = float(np.mean([q.face for q in mine]))
        contrast = float(np.mean([q.contrast for q in mine]))
        ref = mine[0]
        out += [
            Pip(c["x"], c["y"], c["r"], c["dark"], face, contrast, ref.shape)
            for c in cands
            if c["bar"] == bar
        ]
    return out


# --- faces --------------------------------------------------------------------------


def _linked(
    cfg: Config,
    gray: Image,
    a: Pip,
    b: Pip,
    others: NDArray[np.float64],
    enlarged: bool = False,
    merging: bool = False,
) -> bool:
    """Whether two pips can be on one face; `others` holds every pip's x, y and r
    (N x 3). `merging` (two groups that together make a pattern) compares their shapes
    less, their faces' shades more, and checks the line between them only beyond the
    face ring round each pip."""
    f = cfg["faces"]
    d = math.hypot(a.x - b.x, a.y - b.y)
    rm = (a.r + b.r) / 2
    if a.dark != b.dark or d > f["link_max"] * 2 * rm or d < f["link_min"] * rm:
        return False
    if max(a.r, b.r) > f["size_ratio_max"] * min(a.r, b.r):
        return False
    if max(a.contrast, b.contrast) > f["contrast_ratio_max"] * min(a.contrast, b.contrast):
        return False
    sa, sb = a.shape, b.shape
    # In an enlarged image a pip's moments are mostly interpolation: compare shapes less.
    shape_max = f["shape_diff_max_enlarged"] if enlarged else f["shape_diff_max"]
    if merging:
        shape_max = max(shape_max, f["merge_shape_diff_max"])
    if (
        math.sqrt((sa[0] - sb[0]) ** 2 + 2 * (sa[1] - sb[1]) ** 2 + (sa[2] - sb[2]) ** 2)
        > shape_max
    ):
        return False
    con = min(a.contrast, b.contrast)
    face_max = f["merge_face_diff_max"] if merging else f["face_diff_max"]
    if abs(a.face - b.face) > face_max * con:
        return False
    sign = 1.0 if a.dark else -1.0
    limit = min(sign * a.face, sign * b.face) - f["line_dip_max"] * con
    n = max(4, int(d))
    ts = np.linspace(0, 1, n)
    xs, ys = a.x + ts * (b.x - a.x), a.y + ts * (b.y - a.y)
    keep = np.ones(n, bool)
    mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
    near = (np.abs(others[:, 0] - mx) < d + 2 * others[:, 2]) & (
        np.abs(others[:, 1] - my) < d + 2 * others[:, 2]
    )
    clear = f["merge_clear"] if merging else 1.5
    for px, py, pr in others[near]:
        keep &= np.hypot(xs - px, ys - py) >= clear * pr
    hgt, wid = gray.shape
    xi = np.clip(np.round(xs[keep]).astype(int), 0, wid - 1)
    yi = np.clip(np.round(ys[keep]).astype(int), 0, hgt - 1)
    return bool(np.all(sign * gray[yi, xi].astype(np.float64) >= limit))


def _pattern(cfg: Config, pts: NDArray[np.float64]) -> tuple[int | None, float]:
    """The value of a pip pattern, or None if it is none of the six; and a confidence."""
    n = len(pts)
    if n == 1:
        return 1, 1.0
    if n > 6:
        return None, 0.0
    tol = cfg["faces"]["symmetry_tolerance"]
    c = pts.mean(axis=0)
    dist = np.linalg.norm(pts - c, axis=1)
    span = float(dist.mean())
    worst = 0.0
    for p in pts:  # every pip has a partner mirrored through the centre
        worst = max(worst, float(np.min(np.linalg.norm(pts - (2 * c - p), axis=1))) / span)
    central = int(np.sum(dist < tol * span))
    if central != (1 if n in (3, 5) else 0):
        return None, 0.0
    if n == 3:  # the three lie on a line
        v = pts - c
        off_line = abs(v[0, 0] * v[2, 1] - v[0, 1] * v[2, 0]) / max(span * span, 1e-9)
        worst = max(worst, off_line)
    if worst > tol:
        return None, 0.0
    return n, 1.0 - worst / tol * 0.5


def _single_is_face(cfg: Config, gray: Image, pip: Pip) -> bool:
    """A lone pip is a face of 1 only if an even face surrounds it well beyond the pip
    (as far as the picture goes), nothing like another pip lies near it, and it is a
    filled disc."""
    f = cfg["faces"]
    hgt, wid = gray.shape
    # By the picture's edge (a die partly out of it) the ring is drawn as far as it goes.
    edge = min(pip.x, pip.y, wid - 1 - pip.x, hgt - 1 - pip.y)
    radius = min(f["single_ring"] * pip.r + 1, edge)
    if radius < f["single_ring_min"] * pip.r:
        return False
    pts = _circle(pip.x, pip.y, radius)
    ring = gray[pts[:, 1].astype(int), pts[:, 0].astype(int)].astype(np.float64)
    near = np.abs(ring - pip.face) <= f["single_ring_tolerance"] * pip.contrast
    if near.mean() < f["single_ring_share"]:
        return False
    # Nothing like another pip near it either: a blurred 4's or 6's other pips, too
    # smeared to pass as pips, lie a few pip radii away.
    reach = f["single_clear"] * pip.r
    x0, y0 = max(0, int(pip.x - reach)), max(0, int(pip.y - reach))
    x1, y1 = min(wid, int(pip.x + reach) + 1), min(hgt, int(pip.y + reach) + 1)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dist = np.hypot(xx - pip.x, yy - pip.y)
    annulus = (dist >= f["single_ring_inner"] * pip.r) & (dist <= reach)
    values = gray[y0:y1, x0:x1][annulus].astype(np.float64)
    sign = 1.0 if pip.dark else -1.0
    dark = sign * (pip.face - values) >= f["single_spot"] * pip.contrast
    if dark.mean() > f["single_spot_share"]:
        return False
    # And the pip itself is a filled disc (seen at a slant, an ellipse): a key's letter
    # on a laptop is no 1.
    inside = sign * (pip.face - gray[y0:y1, x0:x1].astype(np.float64)) >= pip.contrast / 2
    at = (int(pip.y) - y0, int(pip.x) - x0)
    if not inside[at]:
        return False
    _, lab = cv2.connectedComponents(inside.astype(np.uint8), connectivity=8)
    blob = lab == lab[at]
    m = cv2.moments(blob.astype(np.uint8), True)
    det = (m["mu20"] * m["mu02"] - m["mu11"] ** 2) / m["m00"] ** 2
    # A filled ellipse's area is 4 pi sqrt(det) of its second moments.
    return bool(m["m00"] >= f["single_fill"] * 4 * math.pi * math.sqrt(max(det, 1e-9)))


def _two_is_face(cfg: Config, gray: Image, a: Pip, b: Pip) -> bool:
    """Two pips are a 2 only if the face is even across the diagonal they lie on: the
    other corners' places and beyond them towards the face's corners (two pips of a
    blurred 4, whose other two are too smeared to pass as pips, are no 2)."""
    f = cfg["faces"]
    mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
    wx, wy = -(b.y - a.y) / 2, (b.x - a.x) / 2  # half the pips' distance, turned 90 degrees
    reach = f["two_reach"]
    ts = np.linspace(-reach, reach, 9)
    xs, ys = np.round(mx + ts * wx).astype(int), np.round(my + ts * wy).astype(int)
    hgt, wid = gray.shape
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= wid or ys.max() >= hgt:
        return False
    face, contrast = (a.face + b.face) / 2, min(a.contrast, b.contrast)
    values = gray[ys, xs].astype(np.float64)
    return bool(np.all(np.abs(values - face) <= f["single_ring_tolerance"] * contrast))


def _close_pairs(xy: NDArray[np.float64], reach: NDArray[np.float64]) -> list[tuple[int, int]]:
    """The pairs i < j of points (N x 2) at most reach[i] + reach[j] apart."""
    out: list[tuple[int, int]] = []
    step = 512  # rows at a time: the distances grow as the square of the points
    for s0 in range(0, len(xy), step):
        d = np.hypot(
            xy[s0 : s0 + step, None, 0] - xy[None, :, 0],
            xy[s0 : s0 + step, None, 1] - xy[None, :, 1],
        )
        ii, jj = np.nonzero(d <= reach[s0 : s0 + step, None] + reach[None, :])
        ii = ii + s0
        out += [(int(i), int(j)) for i, j in zip(ii, jj, strict=True) if i < j]
    return out


def _joined(
    n: int, linked: Callable[[int, int], bool], pairs: list[tuple[int, int]] | None = None
) -> list[list[int]]:
    """Indices 0..n-1 in groups: single linkage of the pairs `linked` says go together,
    of `pairs` (i < j, in order) where only those can be, else of every pair."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(n), 2) if pairs is None else pairs:
        if linked(i, j):
            parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def pip_groups(
    cfg: Config, gray: Image, pips: list[Pip], enlarged: bool = False
) -> list[list[Pip]]:
    """Pips joined when they could be on one face (`_linked`), whatever pattern they make;
    then two groups joined where together they make a pattern and a pip of one links to
    a pip of the other with their shapes compared less and the line between them checked
    only beyond the face ring (`faces.merge_*`; a blurred pip's halo reaches that far):
    a 2's pips read alone are two 1s, which no die shows. Two pips off an even face
    (`_two_is_face`) are two groups; a stray pip leaves a group (`_without_stray`)."""
    # Pips further apart than faces.link_max of their mean diameter never link.
    xyr = np.array([[q.x, q.y, q.r] for q in pips], np.float64).reshape(-1, 3)
    pairs = _close_pairs(xyr[:, :2], xyr[:, 2] * cfg["faces"]["link_max"])
    links = _joined(
        len(pips), lambda i, j: _linked(cfg, gray, pips[i], pips[j], xyr, enlarged), pairs
    )
    groups = [[pips[i] for i in g] for g in links]
    reach = 2 * cfg["faces"]["link_max"]
    joined = True
    while joined:
        joined = False
        # Only groups whose pips may lie that close: each group's reach from its centre.
        centres = np.array([[np.mean([q.x for q in g]), np.mean([q.y for q in g])] for g in groups])
        spans = np.array(
            [
                max(math.hypot(q.x - c[0], q.y - c[1]) + reach * q.r for q in g)
                for g, c in zip(groups, centres, strict=True)
            ]
        )
        for i, j in _close_pairs(centres.reshape(-1, 2), spans):
            union = groups[i] + groups[j]
            if len(union) > 6:
                continue
            ra, rb = max(q.r for q in groups[i]), max(q.r for q in groups[j])
            if not any(
                math.hypot(a.x - b.x, a.y - b.y) < reach * max(ra, rb)
                for a in groups[i]
                for b in groups[j]
            ):
                continue
            if _pattern(cfg, np.array([[q.x, q.y] for q in union]))[0] is None:
                continue
            if len(union) == 2 and not _two_is_face(cfg, gray, *union):
                continue
            if any(
                _linked(cfg, gray, a, b, xyr, enlarged, merging=True)
                for a in groups[i]
                for b in groups[j]
            ):
                groups[i] = union
                del groups[j]
                joined = True
                break
    # Two pips linked on no even face are two lone pips.
    out: list[list[Pip]] = []
    for g in groups:
        if len(g) == 2 and not _two_is_face(cfg, gray, *g):
            out += [[q] for q in g]
        else:
            for part in _without_stray(cfg, gray, g, xyr, enlarged):
                out += _split_two(cfg, gray, part)
    return out


def _split_two(cfg: Config, gray: Image, group: list[Pip]) -> list[list[Pip]]:
    """A group of `faces.split_min` to `split_max` pips that makes no pattern, as the
    two patterns a straight line parts it into (two dice
    touching where their faces meet without a shadow between them link across, and so
    do a die's top and side face seen at a slant: a 2 and a 4 as six pips), the pair
    read with the most confidence. Failing that, a pattern of `split_side_top_min` pips
    or more and the rest, each pip of which is `split_side_round` times less round than
    any of the pattern's (a side face, some of its pips not linked: a 6 and four pips of
    a 5). Else the group as it is."""
    f = cfg["faces"]
    pts = np.array([[q.x, q.y] for q in group])
    n = len(group)
    if not f["split_min"] <= n <= f["split_max"] or _pattern(cfg, pts)[0] is not None:
        return [group]
    best: tuple[float, list[int]] | None = None
    side_best: tuple[float, list[int]] | None = None
    seen: set[frozenset[int]] = set()
    for i, j in itertools.combinations(range(n), 2):
        d = pts[j] - pts[i]
        side = d[0] * (pts[:, 1] - pts[i, 1]) - d[1] * (pts[:, 0] - pts[i, 0]) > 0
        for si, sj in itertools.product((False, True), repeat=2):
            side[i], side[j] = si, sj
            part = frozenset(np.flatnonzero(side).tolist())
            if not 0 < len(part) < n or part in seen:
                continue
            seen.add(part)
            seen.add(frozenset(range(n)) - part)
            a, b = sorted(part), sorted(set(range(n)) - part)
            ca, cb = _part_face(cfg, gray, group, pts, a), _part_face(cfg, gray, group, pts, b)
            score = min(ca, cb)
            if score > 0 and (best is None or score > best[0]):
                best = (score, a)
            # A face and a side face's pips beside it (more foreshortened: fewer than its
            # value, or some not linked).
            for top, rest, c in ((a, b, ca), (b, a, cb)):
                if c > 0 and len(top) >= f["split_side_top_min"] and len(rest) >= 2 and not score:
                    rt = max(_pip_roundness(group[k]) for k in top)
                    rr = min(_pip_roundness(group[k]) for k in rest)
                    if rr >= f["split_side_round"] * rt and (side_best is None or c > side_best[0]):
                        side_best = (c, top)
    best = best or side_best
    if best is None:
        return [group]
    return [[group[k] for k in best[1]], [group[k] for k in range(n) if k not in best[1]]]


def _without_stray(
    cfg: Config, gray: Image, group: list[Pip], xyr: NDArray[np.float64], enlarged: bool
) -> list[list[Pip]]:
    """A group of 4 to 7 pips that makes no pattern, less the one pip linked to it by a
    single link whose leaving makes a pattern of at least 3 (a side face's pip linked
    across the edge between two faces of one shade); else the group as it is."""
    pts = np.array([[q.x, q.y] for q in group])
    if not 4 <= len(group) <= 7 or _pattern(cfg, pts)[0] is not None:
        return [group]
    n = len(group)

    def links(i: int) -> int:
        return sum(
            _linked(cfg, gray, group[i], group[k], xyr, enlarged) for k in range(n) if k != i
        )

    strays = [
        i
        for i in range(n)
        if _pattern(cfg, np.delete(pts, i, axis=0))[0] is not None and links(i) == 1
    ]
    if len(strays) != 1:
        return [group]
    i = strays[0]
    return [group[:i] + group[i + 1 :], [group[i]]]


def _part_face(
    cfg: Config, gray: Image, group: list[Pip], pts: NDArray[np.float64], idx: list[int]
) -> float:
    """The confidence of the pattern the pips `idx` of `group` (at `pts`) make as a face
    of their own, or 0 where they make none (a lone pip or two on no even face)."""
    value, conf = _pattern(cfg, pts[idx])
    if value is None:
        return 0.0
    if len(idx) == 1 and not _single_is_face(cfg, gray, group[idx[0]]):
        return 0.0
    if len(idx) == 2 and not _two_is_face(cfg, gray, group[idx[0]], group[idx[1]]):
        return 0.0
    return conf


def find_faces(cfg: Config, gray: Image, pips: list[Pip], enlarged: bool = False) -> list[Face]:
    faces = []
    for group in pip_groups(cfg, gray, pips, enlarged):
        if len(group) == 1 and not _single_is_face(cfg, gray, group[0]):
            continue
        pts = np.array([[p.x, p.y] for p in group])
        value, conf = _pattern(cfg, pts)
        contrast = min(p.contrast for p in group)
        conf *= min(1.0, contrast / (2 * cfg["pips"]["contrast_min"]))
        # Pips round which the face differs in shade may lie on two faces of a die.
        shades = [p.face for p in group]
        differ = (max(shades) - min(shades)) / (contrast * cfg["faces"]["face_diff_max"])
        conf *= 1.0 - cfg["faces"]["shade_penalty"] * min(1.0, differ)
        cx, cy = pts.mean(axis=0)
        faces.append(Face(group, value, conf, float(cx), float(cy), float(np.mean(shades))))
    return faces


def _roundness(face: Face) -> float:
    """How far its pips are from circles (1 = round): side faces are more foreshortened."""
    return float(np.mean([_pip_roundness(p) for p in face.pips]))


def _pip_roundness(p: Pip) -> float:
    """Its long axis over its short one (1 = round)."""
    xx, xy, yy = p.shape
    half_tr, disc = (xx + yy) / 2, math.sqrt(max(((xx - yy) / 2) ** 2 + xy * xy, 0.0))
    return math.sqrt((half_tr + disc) / max(half_tr - disc, 1e-6))


def group_dice(cfg: Config, faces: list[Face]) -> list[DieReading]:
    """Faces close together are one die (`faces.die_join`); its top is chosen by
    `_top_face`."""
    join = cfg["faces"]["die_join"]
    groups: list[list[Face]] = []
    for face in sorted(faces, key=lambda f: (_roundness(f), -len(f.pips))):
        for group in groups:
            r = max(p.r for p in group[0].pips + face.pips)
            if math.hypot(face.x - group[0].x, face.y - group[0].y) < join * r:
                group.append(face)
                break
        else:
            groups.append([face])
    dice = []
    for group in groups:
        top = _top_face(cfg, group)
        rest = [f for f in group if f is not top]
        dice.append(DieReading(top.value, top.confidence, (top.x, top.y), faces=[top, *rest]))
    return dice


def _top_face(cfg: Config, faces: list[Face]) -> Face:
    """A die's top among its faces (the roundest first): the least foreshortened face
    among those whose pips stand out at least `faces.top_contrast_share` as much as its
    clearest face's (a side face's faint blurred pip can look rounder than the top's).

    But seen at a slant from about 45 degrees a side face facing the camera is as round as
    the top, or rounder. Then the top tells itself by where it lies and its light: a face
    above it in the picture (the camera upright, looking down at a table) that is lit
    brighter (room light falls from above) and at most `top_round_band` times less round
    is the top instead.
    """
    f = cfg["faces"]
    contrast = [min(p.contrast for p in face.pips) for face in faces]
    clear = [
        face
        for face, c in zip(faces, contrast, strict=True)
        if c >= f["top_contrast_share"] * max(contrast)
    ]
    top = clear[0]
    for _ in clear:  # each step moves up the picture: no face is chosen twice
        for face in clear:
            dist = math.hypot(face.x - top.x, face.y - top.y)
            if (
                face is not top
                and (top.y - face.y) >= f["top_above_min"] * dist
                and top.level <= f["top_level_share"] * face.level
                and _roundness(face) <= f["top_round_band"] * _roundness(top)
            ):
                top = face
                break
        else:
            break
    return top


# --- reading a die by its face ---------------------------------------------------------

# The nine places a pip can take on a face (row, column in thirds), and the patterns of
# each value in both of a square's orientations.
_C, _TL, _TR, _BL, _BR, _ML, _MR, _TM, _BM = (4, 0, 2, 6, 8, 3, 5, 1, 7)
_FACE_PATTERNS: tuple[tuple[int, frozenset[int]], ...] = (
    (1, frozenset({_C})),
    (2, frozenset({_TL, _BR})),
    (2, frozenset({_TR, _BL})),
    (3, frozenset({_TL, _C, _BR})),
    (3, frozenset({_TR, _C, _BL})),
    (4, frozenset({_TL, _TR, _BL, _BR})),
    (5, frozenset({_TL, _TR, _BL, _BR, _C})),
    (6, frozenset({_TL, _TR, _BL, _BR, _ML, _MR})),
    (6, frozenset({_TL, _TR, _BL, _BR, _TM, _BM})),
)
_PATCH = 36  # side of the rectified face, px
# Each value's pips' mean distance from their centre on a die, a quarter of the side in
# from its edges (shares of the side): corners sqrt(2) / 4 out, the middle row's 1 / 4.
_SPREAD = {2: 2**0.5 / 4, 3: 2**0.5 / 6, 4: 2**0.5 / 4, 5: 2**0.5 / 5, 6: (2 * 2**0.5 + 1) / 12}
_NO_PIPS = np.zeros((0, 2))


def face_patch(gray: Image, box: NDArray[np.float64]) -> NDArray[np.float32]:
    """The face inside `box` (4 corners in order round it) warped to a _PATCH square."""
    canon = np.array([[0, 0], [_PATCH, 0], [0, _PATCH]], np.float32)
    corners = np.array([box[0], box[1], box[3]], np.float32)
    m = cv2.getAffineTransform(canon, corners)
    patch = cv2.warpAffine(
        gray,
        m,
        (_PATCH, _PATCH),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(patch, dtype=np.float32)


def _pip_shaped(cfg: Config, resp: NDArray[np.float32], x: int, y: int) -> bool:
    """Whether the spot peaking at (x, y) of a rectified face is a pip's size: the blob
    where it stands above half its peak, near it."""
    r = cfg["read"]
    h = int(r["pip_diameter_max"] * _PATCH)
    x0, y0 = max(0, x - h), max(0, y - h)
    win = resp[y0 : y + h + 1, x0 : x + h + 1]
    x, y = x - x0, y - y0
    mask = (win >= 0.5 * win[y, x]).astype(np.uint8)
    _, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    label = lab[y, x]
    area = int(stats[label, cv2.CC_STAT_AREA])
    low = math.pi * (r["pip_diameter_min"] * _PATCH / 2) ** 2
    high = math.pi * (r["pip_diameter_max"] * _PATCH / 2) ** 2
    return bool(low <= area <= high)


def _pip_reach(cfg: Config, resp: NDArray[np.float32], x: int, y: int, top: float) -> int:
    """How far (px of a rectified face) a lone pip peaking at (x, y) reaches: `pip_clear`
    of the side; with `lone_reach`, as far as its mean contrast round it stays above
    `uneven_max` of the strongest, up to `pip_diameter_max` / 2 (a small die's pip blurs
    wide)."""
    r = cfg["read"]
    reach = int(r["pip_clear"] * _PATCH)
    if not r["lone_reach"]:
        return reach
    ys, xs = np.indices(resp.shape)
    rings = np.hypot(xs - x, ys - y).astype(np.int32).ravel()
    mean = np.bincount(rings, weights=resp.ravel()) / np.maximum(np.bincount(rings), 1)
    cap = min(int(r["pip_diameter_max"] * _PATCH / 2), len(mean) - 1)
    while reach < cap and mean[reach] >= r["uneven_max"] * top:
        reach += 1
    return reach


def _median(values: NDArray[np.float32]) -> float:
    """np.median of an image's values; from their histogram where they are whole grey
    levels (a face patch's), in a fraction of the time."""
    levels = values.astype(np.uint8)
    if not np.array_equal(levels, values):
        return float(np.median(values))
    counts = np.cumsum(np.bincount(levels.ravel(), minlength=256))
    n = values.size
    # The values ranked (n - 1) // 2 and n // 2 (counted from 0): the middle one or two.
    lo = int(np.searchsorted(counts, (n - 1) // 2, side="right"))
    hi = int(np.searchsorted(counts, n // 2, side="right"))
    return (lo + hi) / 2


def read_face(
    cfg: Config, patch: NDArray[np.float32], dark: bool
) -> tuple[int | None, float, bool, NDArray[np.float64]]:
    """The value a rectified face shows, its confidence, whether it has pips at all, and
    where they are (N x 2, in shares of the face's sides).

    Pips are the local peaks of contrast to the face's level inside the face; those at
    least `peak_share` of the strongest count, and must make one of the six patterns
    (`_pattern`) centred on the face. The confidence falls when the weakest pip is not
    clearly above the strongest peak left out.
    """
    r = cfg["read"]
    level = _median(patch)
    resp = (level - patch) if dark else (patch - level)
    resp = np.asarray(cv2.GaussianBlur(resp, (0, 0), r["smooth"] * _PATCH), np.float32)
    k = int(r["peak_apart"] * _PATCH) | 1
    peak = cv2.dilate(resp, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    edge = int(r["inner_margin"] * _PATCH)
    inner = np.zeros(resp.shape, bool)
    inner[edge : _PATCH - edge, edge : _PATCH - edge] = True
    ys, xs = np.nonzero((resp >= peak) & inner & (resp > 0))
    if not len(xs):
        return None, 0.0, False, _NO_PIPS
    values = resp[ys, xs]
    top = float(values.max())
    if top < r["contrast_min"]:
        return None, 0.0, False, _NO_PIPS
    on = values >= r["peak_share"] * top
    if not all(_pip_shaped(cfg, resp, int(x), int(y)) for x, y in zip(xs[on], ys[on], strict=True)):
        return None, 0.0, False, _NO_PIPS  # streaks and corners, not pips
    pts = np.stack([xs[on], ys[on]], 1).astype(np.float64) / _PATCH
    value, conf = _pattern(cfg, pts)
    if value is None:
        return None, 0.0, True, _NO_PIPS
    if value == 1:
        # A lone spot is a 1 only on an even face: a light gap between checkers is not.
        px, py = int(xs[on][0]), int(ys[on][0])
        rest = np.zeros(resp.shape, np.uint8)
        cv2.circle(rest, (_PATCH // 2, _PATCH // 2), int(r["even_reach"] * _PATCH), 1, -1)
        cv2.circle(rest, (px, py), _pip_reach(cfg, resp, px, py, top), 0, -1)
        if np.percentile(np.abs(resp[rest > 0]), 90) > r["uneven_max"] * top:
            return None, 0.0, False, _NO_PIPS
    if np.linalg.norm(pts.mean(axis=0) - 0.5) > r["centre_off_max"]:
        return None, 0.0, True, _NO_PIPS
    if value in (2, 3):
        # A 2's or 3's pips lie along the face's diagonal; along a side they are part of a 6.
        d = np.abs(pts.max(axis=0) - pts.min(axis=0))
        if d.min() < r["diagonal_min"] * d.max():
            return None, 0.0, True, _NO_PIPS
    left_out = float(values[~on].max()) if (~on).any() else 0.0
    margin = (float(values[on].min()) - left_out) / top
    conf *= min(1.0, max(0.0, margin / r["margin_full"]))
    if value > 1:
        # Pips bunched in the middle of their box disagree with it about the die's size:
        # the box may be turned or shifted off the die, and pips left out.
        spread = float(np.linalg.norm(pts - pts.mean(axis=0), axis=1).mean()) / _SPREAD[value]
        conf *= min(1.0, max(0.0, 1.0 - (r["spread_full"] - spread) * r["spread_fall"]))
    return value, conf, True, pts


def _max_channel_gradient(win: NDArray[Any]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Sobel x and y of the channel that changes most at each pixel."""
    gx = cv2.Sobel(win, cv2.CV_32F, 1, 0, ksize=3).reshape(win.shape)
    gy = cv2.Sobel(win, cv2.CV_32F, 0, 1, ksize=3).reshape(win.shape)
    n = win.shape[2]
    if n == 1:
        return np.asarray(gx[..., 0], np.float32), np.asarray(gy[..., 0], np.float32)
    mag = gx * gx + gy * gy
    if n == 3:
        # As argmax (the first of equals), in a fraction of its time.
        m0, m1, m2 = mag[..., 0], mag[..., 1], mag[..., 2]
        two = (m2 > np.maximum(m0, m1)).view(np.uint8)
        best = np.maximum((m1 > m0).view(np.uint8), two + two)
    else:
        best = mag.argmax(axis=2)
    # Gathered by flat index (np.where among the channels takes twice as long).
    at = best + np.arange(0, best.size * n, n).reshape(best.shape)
    return (
        np.asarray(np.take(gx.ravel(), at), np.float32),
        np.asarray(np.take(gy.ravel(), at), np.float32),
    )


def _edge_pair(
    cfg: Config, profile: NDArray[np.float64], lo: float, hi: float, width: tuple[float, float]
) -> tuple[int, int, float] | None:
    """The face's two edges on a profile across it: a peak below `lo` and one above `hi`
    (the pips' extent), `width` (min, max) apart, both at least `edge_share` of the
    strongest; the strongest such pair, narrower pairs favoured (`edge_inward`). Returns
    them and the weaker one's strength as a share of the stronger."""
    r = cfg["read"]
    p = np.asarray(profile, np.float64)
    mid = p[1:-1]
    peaks = np.flatnonzero((mid >= p[:-2]) & (mid >= p[2:]) & (mid > 0)) + 1
    left, right = peaks[peaks < lo], peaks[peaks > hi]
    if not len(left) or not len(right):
        return None
    top = float(max(p[left].max(), p[right].max()))
    # Every pair at once, a (left) by b (right), both in order: of equal scores the
    # first, as a loop over them would find it.
    pa, pb = p[left][:, None], p[right][None, :]
    apart = right[None, :] - left[:, None]
    fits = (width[0] <= apart) & (apart <= width[1]) & (np.minimum(pa, pb) >= r["edge_share"] * top)
    # The strongest pair; of nearly as strong ones the innermost (a cocked die's top ends
    # where its side begins).
    score = np.where(fits, pa + pb - r["edge_inward"] * top * apart / width[1], -np.inf)
    i, k = np.unravel_index(int(score.argmax()), score.shape)
    if not score[i, k] > 0.0:
        return None
    a, b = float(pa[i, 0]), float(pb[0, k])
    return int(left[i]), int(right[k]), min(a, b) / max(a, b)


def _same_kind(cfg: Config, a: Pip, b: Pip) -> bool:
    """Whether two pips may seed one die: both dark or both light, on faces whose levels
    differ by less than `read.seed_face_diff` of their contrast."""
    return a.dark == b.dark and abs(a.face - b.face) <= cfg["read"]["seed_face_diff"] * min(
        a.contrast, b.contrast
    )


def seed_groups(cfg: Config, pips: list[Pip], side_px: float) -> list[list[Pip]]:
    """Pips close enough to share a die's face (single linkage), of one kind and face level."""
    reach = cfg["read"]["seed_link"] * side_px

    def linked(i: int, k: int) -> bool:
        a, b = pips[i], pips[k]
        return math.hypot(a.x - b.x, a.y - b.y) <= reach and _same_kind(cfg, a, b)

    # Only pairs at most `reach` apart are tried.
    xy = np.array([[q.x, q.y] for q in pips], np.float64).reshape(-1, 2)
    pairs = _close_pairs(xy, np.full(len(pips), reach / 2))
    return [[pips[i] for i in g] for g in _joined(len(pips), linked, pairs)]


def fit_face(
    cfg: Config, image: Image, pips: list[Pip], side_px: float, clear_sides: float | None = None
) -> tuple[NDArray[np.float64], float] | None:
    """The top face round a group of pips (image px, 4 corners in order), from its edges.

    `side_px` is a die's usual side there. The face's turn is where the edges round the
    pips agree (their gradients' angle times four: round pips cancel out); turned
    upright, each pair of the face's sides is the strongest pair of straight edges
    either side of the pips, narrower pairs favoured (`_edge_pair`).
    Returns the corners and the weaker side's edge strength as a share of the strongest.
    """
    r = cfg["read"]
    zoom = max(1.0, r["face_px"] / side_px)
    half = r["reach_sides"] * side_px * r["side_max"]
    cx = float(np.mean([p.x for p in pips]))
    cy = float(np.mean([p.y for p in pips]))
    hgt, wid = image.shape[:2]
    x0, y0 = max(0, int(cx - half)), max(0, int(cy - half))
    x1, y1 = min(wid, int(cx + half) + 1), min(hgt, int(cy + half) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    win = cv2.resize(image[y0:y1, x0:x1], None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR)
    win = np.asarray(cv2.GaussianBlur(win, (0, 0), r["edge_smooth"]), np.float32)
    win = win.reshape(win.shape[0], win.shape[1], -1)
    side = side_px * zoom
    c = ((cx - x0) * zoom, (cy - y0) * zoom)
    h, w = win.shape[:2]
    # The face's sides (and its shadow's) are where most edge lies round the pips, at
    # about half a side from them; the pips themselves are masked out.
    reach = int(r["turn_outer"] * side) + 2
    sx0, sy0 = max(0, int(c[0]) - reach), max(0, int(c[1]) - reach)
    sx1, sy1 = min(w, int(c[0]) + reach + 1), min(h, int(c[1]) + reach + 1)
    # The gradient there only (a 3 x 3 Sobel needs a pixel more each way).
    ex0, ey0 = max(0, sx0 - 1), max(0, sy0 - 1)
    ex1, ey1 = min(w, sx1 + 1), min(h, sy1 + 1)
    gx, gy = _max_channel_gradient(np.ascontiguousarray(win[ey0:ey1, ex0:ex1]))
    gx = gx[sy0 - ey0 : sy1 - ey0, sx0 - ex0 : sx1 - ex0]
    gy = gy[sy0 - ey0 : sy1 - ey0, sx0 - ex0 : sx1 - ex0]
    across = np.arange(sx0, sx1, dtype=np.float32)
    down = np.arange(sy0, sy1, dtype=np.float32)

    def dist2(x: float, y: float) -> NDArray[np.float32]:
        """The squared distance of each pixel there from (x, y)."""
        return np.asarray(((across - x) ** 2)[None, :] + ((down - y) ** 2)[:, None], np.float32)

    d2 = dist2(*c)
    ring = (d2 >= (r["turn_inner"] * side) ** 2) & (d2 <= (r["turn_outer"] * side) ** 2)
    for p in pips:
        ring &= dist2((p.x - x0) * zoom, (p.y - y0) * zoom) > (2.0 * p.r * zoom + 2) ** 2
    # Only the ring's pixels count.
    sgx, sgy = gx[ring], gy[ring]
    weight = np.sqrt(sgx * sgx + sgy * sgy)
    angle4 = np.mod(4 * np.arctan2(sgy, sgx), 2 * np.pi)
    bins = 72
    hist = np.bincount(
        (angle4 * bins / (2 * np.pi)).astype(np.intp) % bins,
        weights=weight,
        minlength=bins,
    )
    hist = hist + np.roll(hist, 1) + np.roll(hist, -1)  # circular smoothing
    peak = (int(hist.argmax()) + 0.5) * 2 * np.pi / bins
    near_peak = np.abs(np.mod(angle4 - peak + np.pi, 2 * np.pi) - np.pi) < np.pi / 6
    wsel = weight * near_peak
    turn = (
        peak
        + math.atan2(
            float((wsel * np.sin(angle4 - peak)).sum()), float((wsel * np.cos(angle4 - peak)).sum())
        )
    ) / 4
    # Turn the window so that the face's sides run along its axes.
    rot = cv2.getRotationMatrix2D(c, math.degrees(turn), 1.0)
    upright = cv2.warpAffine(
        win, rot, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    upright = upright.reshape(h, w, -1)
    ux, uy = _max_channel_gradient(upright)
    ax, ay = np.abs(ux), np.abs(uy)
    local = np.array([((p.x - x0) * zoom, (p.y - y0) * zoom, 1.0) for p in pips]) @ rot.T
    px0, px1 = local[:, 0].min(), local[:, 0].max()
    py0, py1 = local[:, 1].min(), local[:, 1].max()
    clear = (r["pip_clear"] if clear_sides is None else clear_sides) * side
    width = (r["side_min"] * side, r["side_max"] * side)
    band = r["band"] * side

    def rows(a: float, b: float) -> slice:
        return slice(max(0, int(a)), min(h, int(b) + 1))

    def cols(a: float, b: float) -> slice:
        return slice(max(0, int(a)), min(w, int(b) + 1))

    # Across: rows about the pips; down: columns between the sides found; across again.
    mid_y = (py0 + py1) / 2
    xs = _edge_pair(
        cfg, ax[rows(mid_y - band, mid_y + band)].sum(axis=0), px0 - clear, px1 + clear, width
    )
    if xs is None:
        return None
    inset = 0.1 * (xs[1] - xs[0])
    ys = _edge_pair(
        cfg, ay[:, cols(xs[0] + inset, xs[1] - inset)].sum(axis=1), py0 - clear, py1 + clear, width
    )
    if ys is None:
        return None
    inset = 0.1 * (ys[1] - ys[0])
    xs = _edge_pair(
        cfg, ax[rows(ys[0] + inset, ys[1] - inset)].sum(axis=0), px0 - clear, px1 + clear, width
    )
    if xs is None:
        return None
    corners = (
        np.array([[xs[0], ys[0]], [xs[1], ys[0]], [xs[1], ys[1]], [xs[0], ys[1]]], np.float64) + 0.5
    )  # an edge's peak lies between two pixels
    back = cv2.invertAffineTransform(rot)
    pts = np.asarray(np.hstack([corners, np.ones((4, 1))]) @ back.T, np.float64)
    return pts / zoom + np.array([x0, y0], np.float64), min(xs[2], ys[2])


def px_per_mm(geo: BoardGeometry, x: float, y: float) -> float:
    """The camera image's scale (px per board mm) at an image point."""
    mx, my = geo.px_to_mm(np.array([[x, y]], np.float64))[0]
    pts = geo.mm_to_px([(mx, my), (mx + 10, my), (mx, my + 10)])
    return float(np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[0])) / 20


_RIM_ANGLES = np.linspace(0, 2 * np.pi, 48, endpoint=False)


def checker_reach_mm(cfg: Config, geo: BoardGeometry) -> float:
    """How far from a die (board mm) `under_checker` looks: the farthest rim it tries."""
    j = cfg["judge"]
    return float((j["checker_offset_max"] + 1) * j["checker_share_max"] * geo.point_width_mm / 2)


@functools.lru_cache(maxsize=16)
def _rims(
    share_min: float, share_max: float, offset_max: float, step: float, point_width: float
) -> tuple[Floats, Floats, Floats, Floats]:
    """`under_checker`'s circles round a die at (0, 0) (board mm): the centres tried
    (C), and the rims' points (R x A) round a centre."""
    radii = np.linspace(share_min * point_width / 2, share_max * point_width / 2, 4)
    reach = offset_max * radii[-1]
    steps = np.arange(-reach, reach + 1e-9, step)
    ox, oy = np.meshgrid(steps, steps)
    keep = np.hypot(ox, oy) <= reach
    cos, sin = radii[:, None] * np.cos(_RIM_ANGLES), radii[:, None] * np.sin(_RIM_ANGLES)
    return ox[keep], oy[keep], cos, sin


def under_checker(cfg: Config, gray: Image, geo: BoardGeometry, x: float, y: float) -> bool:
    """Whether the die at image point (x, y) stands on a checker: a checker's rim round it.

    Checker-sized circles (board mm) whose disc holds the die are tried; one counts when
    edges facing its centre line most of its rim. Size alone cannot tell: a checker
    raises a die a few millimetres, about half a percent nearer a camera a metre away.
    """
    j = cfg["judge"]
    cx, cy = geo.px_to_mm(np.array([[x, y]], np.float64))[0]
    ox, oy, cos, sin = _rims(
        j["checker_share_min"],
        j["checker_share_max"],
        j["checker_offset_max"],
        j["checker_step_mm"],
        geo.point_width_mm,
    )
    mx, my = cx + ox, cy + oy  # the centres tried (C, mm)
    # Each centre's rims (C x R x A), mapped by the map round the die (as a homography:
    # the exact one, lens and all, takes most of the time over so many points). Each of
    # its three sums is the centre's part plus the rim point's, added once.
    h = geo.local_homography(cx, cy, checker_reach_mm(cfg, geo))

    def part(row: int) -> tuple[Floats, Floats]:
        """Row `row` of the homography at the centres (C x 1 x 1) and along the rims (R x A),
        in single precision (a ten-thousandth of a pixel here; twice as fast)."""
        at_centre = h[row, 0] * mx + h[row, 1] * my + h[row, 2]
        along = h[row, 0] * cos + h[row, 1] * sin
        return at_centre.astype(np.float32)[:, None, None], along.astype(np.float32)

    (cu, ru), (cv_, rv), (cw, rw) = part(0), part(1), part(2)
    w = 1.0 / (cw + rw)
    px, py = (cu + ru) * w, (cv_ + rv) * w
    hgt, wid = gray.shape
    x0, y0 = int(max(0, px.min() - 3)), int(max(0, py.min() - 3))
    x1, y1 = int(min(wid, px.max() + 4)), int(min(hgt, py.max() + 4))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return False
    win = cv2.GaussianBlur(gray[y0:y1, x0:x1], (0, 0), 0.8)
    # Whole numbers held exactly in single precision (a window is far below 2^24 px).
    ix = np.clip(np.rint(px - x0), 0, x1 - x0 - 1)
    iy = np.clip(np.rint(py - y0), 0, y1 - y0 - 1)
    at = (iy * (x1 - x0) + ix).astype(np.intp)
    gx = cv2.Sobel(win, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(win, cv2.CV_32F, 0, 1, ksize=3)
    # An edge facing a rim's centre is at least rim_edge_min strong (below): a rim with
    # too few such points is no checker's, whatever their direction (most dice lie on
    # none, and this is soon told). A hair lower, for rounding.
    need = j["rim_share_min"] * len(_RIM_ANGLES)
    strong = (gx * gx + gy * gy > 0.999 * j["rim_edge_min"] ** 2).view(np.uint8)
    if np.count_nonzero(np.take(strong.ravel(), at), axis=-1).max() < need:
        return False
    sx = np.take(gx.ravel(), at)
    sy = np.take(gy.ravel(), at)
    # The radius's direction in the image, from the centre's image to the rim point.
    rx = px - cu / cw
    ry = py - cv_ / cw
    # The gradient along the radius (|s . r| / |r|) at least rim_edge_min, and within the
    # angle whose cos^2 is rim_facing_min of it; squared, so that nothing is divided.
    along = sx * rx + sy * ry
    along *= along
    r2 = rx * rx + ry * ry
    facing = (along > j["rim_edge_min"] ** 2 * r2) & (
        along > j["rim_facing_min"] * (sx * sx + sy * sy) * r2
    )
    return bool(np.count_nonzero(facing, axis=-1).max() >= need)


def _corner_pips(pts: NDArray[np.float64]) -> NDArray[np.float64]:
    """The four pips furthest from the pattern's centre (a 4's, 5's or 6's corners)."""
    return pts[np.argsort(-np.linalg.norm(pts - pts.mean(axis=0), axis=1))[:4]]


def _longest_span(pts: NDArray[np.float64]) -> NDArray[np.float64]:
    """The vector between the two pips furthest apart (a 2's or 3's diagonal)."""
    gaps = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    i, k = np.unravel_index(int(gaps.argmax()), gaps.shape)
    return np.asarray(pts[k] - pts[i], np.float64)


def pip_box(cfg: Config, pips: list[Pip]) -> NDArray[np.float64] | None:
    """A face's box from its pips alone, when they make a 2 to 6 (a dark die on a dark
    board shows little edge): the corner pips of a 4-6 or the diagonal of a 2 or 3, widened
    by the usual spacing of pips on a face."""
    pts = np.array([[p.x, p.y] for p in pips], np.float64)
    value, _ = _pattern(cfg, pts)
    if value is None or value < 2:
        return None
    spread = cfg["read"]["pip_spread"]  # corner pips' distance apart / the face's side
    if value >= 4:
        (cx, cy), (w, h), angle = cv2.minAreaRect(_corner_pips(pts).astype(np.float32))
        rect = ((cx, cy), (w / spread, h / spread), angle)
    else:
        centre = pts.mean(axis=0)
        d = _longest_span(pts)
        side = float(np.linalg.norm(d)) / math.sqrt(2) / spread
        angle = math.degrees(math.atan2(d[1], d[0])) - 45
        rect = ((float(centre[0]), float(centre[1])), (side, side), angle)
    return np.asarray(cv2.boxPoints(rect), np.float64)


def column_boxes(cfg: Config, pips: list[Pip]) -> list[NDArray[np.float64]]:
    """Three pips in a row seen alone may be one column of a 6 (the other ran into a bar,
    or lies by a light point that spoils its rings): the two faces that column would
    bound, one either side of it (4 x 2 px each, in order round it)."""
    pts = np.array([[p.x, p.y] for p in pips], np.float64)
    if len(pts) != 3 or _pattern(cfg, pts)[0] != 3:
        return []
    d = _longest_span(pts)
    span = float(np.linalg.norm(d))
    if span <= 0:
        return []
    u = d / span
    n = np.array([-u[1], u[0]])
    side = span / cfg["read"]["pip_spread"]  # a 6's column runs corner pip to corner pip
    centre = pts.mean(axis=0)
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side / 2
    return [centre + way * n * span / 2 + corners @ np.stack([u, n]) for way in (1, -1)]


def _pips_inside(pips: list[Pip], box: NDArray[np.float64]) -> int:
    """How many of `pips` lie well inside `box` (distinct places only)."""
    contour = box.astype(np.float32).reshape(-1, 1, 2)
    side = float(np.linalg.norm(box[1] - box[0]))
    inside = [p for p in pips if cv2.pointPolygonTest(contour, (p.x, p.y), True) > 0.1 * side]
    places: list[Pip] = []
    for p in inside:
        if all(math.hypot(p.x - q.x, p.y - q.y) > 0.15 * side for q in places):
            places.append(p)
    return len(places)


def _turn_apart(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """Degrees between two boxes' turns, a quarter turn being none."""
    ta = math.degrees(math.atan2(a[1, 1] - a[0, 1], a[1, 0] - a[0, 0]))
    tb = math.degrees(math.atan2(b[1, 1] - b[0, 1], b[1, 0] - b[0, 0]))
    d = (ta - tb) % 90.0
    return min(d, 90.0 - d)


def pattern_aspect(value: int, pips_mm: NDArray[np.float64], box_mm: NDArray[np.float64]) -> float:
    """How foreshortened a face's pips lie on the board (1 = square, a cocked die's less).

    A tilted face's pips are squeezed across its tilt whatever box was fitted round them:
    the four corner pips of a 4, 5 or 6 make a square when the die is flat (the ratio of
    their spread's principal axes), the ends of a 2 or 3 a diagonal (its parts along the
    box's sides).
    """
    if value >= 4:
        far = _corner_pips(pips_mm)
        corners = far - far.mean(axis=0)
        low, high = np.linalg.eigvalsh(corners.T @ corners)
        return float(math.sqrt(max(low, 0.0) / max(high, 1e-9)))
    return _diagonal_aspect(pips_mm, box_mm)


def _diagonal_aspect(pips_mm: NDArray[np.float64], box_mm: NDArray[np.float64]) -> float:
    """The parts of the pips' longest span along the box's two sides, the less over the
    greater: 1 for a flat 2 or 3, less as the die is cocked."""
    d = _longest_span(pips_mm)
    u = box_mm[1] - box_mm[0]
    v = box_mm[3] - box_mm[0]
    du = abs(float(d @ u)) / max(float(np.linalg.norm(u)), 1e-9)
    dv = abs(float(d @ v)) / max(float(np.linalg.norm(v)), 1e-9)
    return min(du, dv) / max(du, dv, 1e-9)


def _face_level(work: Image, group: list[Pip]) -> float:
    """The face's shade between and round its pips (work px): the lighter part of what
    lies there for dark pips, the darker for light ones (a pip's own ring may take in a
    side face or a shadow)."""
    pts = np.array([[q.x, q.y] for q in group], np.float64)
    r = float(np.mean([q.r for q in group]))
    cx, cy = pts.mean(axis=0)
    reach = float(np.linalg.norm(pts - (cx, cy), axis=1).max()) + 2.5 * r
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    x1, y1 = min(work.shape[1], int(cx + reach) + 1), min(work.shape[0], int(cy + reach) + 1)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float64)
    near = np.hypot(xx - cx, yy - cy) <= reach
    for q in group:
        near &= np.hypot(xx - q.x, yy - q.y) > 1.6 * q.r
    values = work[y0:y1, x0:x1][near]
    if values.size < 8:
        return float(np.median([q.face for q in group]))
    return float(np.percentile(values, 80 if group[0].dark else 20))


def trim_box(
    cfg: Config,
    work: Image,
    box: NDArray[np.float64],
    level: float,
    dark: bool = True,
    lines: bool = False,
) -> NDArray[np.float64]:
    """The box cut down to the face where a band along its sides is not the face's shade
    (`level`, round its pips): a cocked die's side face, or a shadow, that the edges
    round it took in."""
    r = cfg["read"]
    patch = face_patch(work, box)
    spread = float(np.percentile(np.abs(patch - level), 98))
    tol = max(r["trim_tolerance_min"], r["trim_tolerance"] * spread)
    inner = slice(int(0.1 * _PATCH), int(0.9 * _PATCH))
    cuts = []
    # Each line across the face is its median, or (`lines`) taken as mostly face between
    # its pips: its lighter part for dark pips, its darker for light ones.
    q = (75 if dark else 25) if lines else 50
    for profile in (
        np.percentile(patch[inner], q, axis=0),
        np.percentile(patch[:, inner], q, axis=1),
    ):
        off = np.abs(profile - level) > tol
        lead = int(np.argmin(off)) if not off.all() else 0
        trail = int(np.argmin(off[::-1])) if not off.all() else 0
        cuts.append((lead, trail))
    (left, right), (top, bottom) = cuts
    least = r["trim_min"] * _PATCH
    if (
        max(left, right, top, bottom) < least
        or left + right > 0.6 * _PATCH
        or top + bottom > 0.6 * _PATCH
    ):
        return box
    u0, u1 = (left if left >= least else 0) / _PATCH, 1 - (right if right >= least else 0) / _PATCH
    v0, v1 = (top if top >= least else 0) / _PATCH, 1 - (bottom if bottom >= least else 0) / _PATCH
    eu, ev = box[1] - box[0], box[3] - box[0]
    return np.array(
        [box[0] + u * eu + v * ev for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))], np.float64
    )


def _read_box(
    cfg: Config,
    work: Image,
    geo: BoardGeometry,
    view: tuple[float, int, int],
    group: list[Pip],
    box: NDArray[np.float64],
    dark: bool = True,
) -> DieReading | None:
    """A die read from the face in `box` (work px), or None where that is no die's face:
    not die-sized on the board, or without pips. Its pips are as dark as `group`'s (as
    `dark` where no pip was seen)."""
    zoom, x0, y0 = view
    p, j = cfg["pips"], cfg["judge"]
    offset = np.array([x0, y0], np.float64)
    mm = geo.px_to_mm(box / zoom + offset)
    a = float(np.linalg.norm(mm[1] - mm[0]))
    b = float(np.linalg.norm(mm[2] - mm[1]))
    size = math.sqrt(a * b)
    if not p["die_mm_min"] * j["die_size_low"] <= size <= p["die_mm_max"] * j["die_size_high"]:
        return None
    patch = face_patch(work, box)
    value, conf, pips_seen, spots = read_face(cfg, patch, group[0].dark if group else dark)
    if not pips_seen:
        return None  # an even patch of board
    if conf < j["confidence_min"]:
        value = None
    if value is not None and _pips_inside(group, box) > value:
        value, conf = None, 0.0  # the face shows fewer pips than were found on it
    centre = box.mean(axis=0)
    level = float(np.mean([q.face for q in group])) if group else _median(patch)
    face = Face(list(group), value, conf, float(centre[0]), float(centre[1]), level)
    die = DieReading(value, conf, (float(centre[0]), float(centre[1])), faces=[face])
    die.aspect, die.size_mm = min(a, b) / max(a, b), size
    if value is not None and value > 1:
        to_image = (
            box[0] + np.outer(spots[:, 0], box[1] - box[0]) + np.outer(spots[:, 1], box[3] - box[0])
        )
        die.aspect = pattern_aspect(value, geo.px_to_mm(to_image / zoom + offset), mm)
    return die


def read_boxed(
    cfg: Config, gray: Image, geo: BoardGeometry, box: NDArray[np.float64], dark: bool
) -> DieReading | None:
    """A die read from a face boxed without its pips (`box`: 4 x 2 image px in order round
    it; pips `dark` or light), judged flat or cocked and on a checker or not; None where
    the box is no die's face or shows no pips."""
    view = (1.0, 0, 0)
    die = _read_box(cfg, gray, geo, view, [], box, dark)
    if die is not None and die.value is not None:
        _judge_calibrated(cfg, gray, geo, view, die)
        die.section = geo.section_px(*die.center_px)
    return die


def _read_centred(
    cfg: Config,
    work: Image,
    geo: BoardGeometry,
    view: tuple[float, int, int],
    group: list[Pip],
    fitted: NDArray[np.float64],
) -> DieReading | None:
    """A lone pip's die read from a box centred on it: a 1's pip is its face's centre.
    The edges fitted round it (image px) may be off on one side (no edge where a black
    die lies on a black point, a shadow's edge beyond it): each side's half is taken as
    the pip's distance from the nearer of its two edges, then from the farther; the
    first such box that reads a 1 is the die."""
    zoom, x0, y0 = view
    offset = np.array([x0, y0], np.float64)
    pip = np.array([group[0].x / zoom + x0, group[0].y / zoom + y0])
    u, v = fitted[1] - fitted[0], fitted[3] - fitted[0]
    lu, lv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if lu < 1 or lv < 1:
        return None
    u, v = u / lu, v / lv
    su, sv = float((pip - fitted[0]) @ u), float((pip - fitted[0]) @ v)
    halves_u = sorted((su, lu - su))
    halves_v = sorted((sv, lv - sv))
    for iu, iv in ((0, 0), (1, 0), (0, 1), (1, 1)):
        hu, hv = halves_u[iu], halves_v[iv]
        if hu <= 0 or hv <= 0:
            continue
        box = np.array(
            [
                pip - hu * u - hv * v,
                pip + hu * u - hv * v,
                pip + hu * u + hv * v,
                pip - hu * u + hv * v,
            ]
        )
        die = _read_box(cfg, work, geo, view, group, (box - offset) * zoom)
        if die is not None and die.value == 1:
            return die
    return None


def _read_group(
    cfg: Config,
    image: Image,
    work: Image,
    geo: BoardGeometry,
    view: tuple[float, int, int],
    group: list[Pip],
    from_pips: bool = True,
) -> tuple[DieReading | None, tuple[NDArray[np.float64], float] | None, float]:
    """The die that a group of seeds (work px) lie on, read from its face: boxed by its
    edges, trimmed, or (`from_pips`) boxed from its pips (see `read_calibrated`). Also
    the edges' fit and the image's scale there (px per mm)."""
    zoom, x0, y0 = view
    j, r = cfg["judge"], cfg["read"]
    offset = np.array([x0, y0], np.float64)
    cx, cy = np.mean([[q.x, q.y] for q in group], axis=0)
    scale = px_per_mm(geo, cx / zoom + x0, cy / zoom + y0)
    in_image = [replace(q, x=q.x / zoom + x0, y=q.y / zoom + y0, r=q.r / zoom) for q in group]
    fitted = fit_face(cfg, image, in_image, j["die_mm"] * scale)
    if fitted is None:
        # A cocked die's top is short across its tilt: its edge lies nearer its pips.
        fitted = fit_face(cfg, image, in_image, j["die_mm"] * scale, r["pip_clear_short"])
    die = None
    if fitted is not None:
        box = (fitted[0] - offset) * zoom
        die = _read_box(cfg, work, geo, view, group, box)
        # The edges may have taken in a cocked die's side face, or a shadow: where the
        # box reads nothing, or a 1's box is not square (a 1 is judged by its box).
        if (
            die is None
            or die.value is None
            or (die.value == 1 and (die.aspect or 1.0) < j["cocked_aspect_max"])
        ):
            # The face's shade: as its pips' rings saw it, else as seen between them.
            for lines in (False, True):
                level = (
                    _face_level(work, group) if lines else float(np.median([q.face for q in group]))
                )
                trimmed = trim_box(cfg, work, box, level, group[0].dark, lines)
                if trimmed is box:
                    continue
                again = _read_box(cfg, work, geo, view, group, trimmed)
                if (
                    again is not None
                    and again.value is not None
                    and (die is None or die.value is None or again.value == die.value)
                ):
                    die = again
                    break
    if (
        (die is None or die.value is None)
        and r["centred_box"]
        and fitted is not None
        and len(group) == 1
    ):
        die = _read_centred(cfg, work, geo, view, group, fitted[0]) or die
    if (die is None or die.value is None) and r["even_box"]:
        # The face as the even region of its shade round its pips: a cocked die's short
        # top beside its side face and its shadow, where the edges found no box that reads.
        face = Face(list(group), None, 0.0, float(cx), float(cy), _face_level(work, group))
        even = _face_box(cfg, work, face, r["even_grow"] * zoom)
        if even is not None:
            other = _read_box(cfg, work, geo, view, group, even)
            if other is not None and (other.value or 0) >= len(group):
                die = other
    if from_pips and (die is None or die.value is None):
        pips_box = pip_box(cfg, in_image)
        if pips_box is not None:
            other = _read_box(cfg, work, geo, view, group, (pips_box - offset) * zoom)
            # Boxed from its pips, a face must read as they are, and be a whole die's
            # size: two pips of a cocked 4, or of a 6, may make a small 2.
            if (
                other is not None
                and other.value == len(group)
                and (other.size_mm or 0.0) >= cfg["pips"]["die_mm_min"]
                and (fitted is None or _turn_apart(fitted[0], pips_box) <= r["turn_agree"])
            ):
                die = other
                if fitted is not None and die.value in (2, 3):
                    # A box from a diagonal is square by making: the edges' box tells
                    # how the face's sides run.
                    die.aspect = _diagonal_aspect(
                        geo.px_to_mm(np.array([[q.x, q.y] for q in in_image])),
                        geo.px_to_mm(fitted[0]),
                    )
    if from_pips and r["column_boxes"] and (die is None or die.value is None):
        for box in column_boxes(cfg, in_image):
            other = _read_box(cfg, work, geo, view, group, (box - offset) * zoom)
            if other is not None and other.value == 6:
                die = other
                break
    return die, fitted, scale


def _read_seeds(
    cfg: Config,
    image: Image,
    work: Image,
    geo: BoardGeometry,
    view: tuple[float, int, int],
    group: list[Pip],
    from_pips: bool = True,
) -> tuple[DieReading | None, tuple[NDArray[np.float64], float] | None, float]:
    """`_read_group`, and where that reads no value, again without each seed in turn:
    one seed may be no pip (a shadow's corner, a speck) and spoil the fit."""
    die, fitted, scale = _read_group(cfg, image, work, geo, view, group, from_pips)
    if (die is None or die.value is None) and 2 <= len(group) <= cfg["read"]["retry_seeds_max"]:
        for k in range(len(group)):
            fewer = group[:k] + group[k + 1 :]
            again = _read_group(cfg, image, work, geo, view, fewer, from_pips=False)
            # Read from the face's edges, every seed left a pip of it (a 6 whose middle
            # pips went unseen is no 4).
            if again[0] is not None and (again[0].value or 0) >= len(group) - 1:
                return again
    return die, fitted, scale


def _usual_side(
    cfg: Config, geo: BoardGeometry, work: Image, view: tuple[float, int, int]
) -> float:
    """A usual die's side (`judge.die_mm`) in work px, at the middle of the work image."""
    zoom, x0, y0 = view
    mid = px_per_mm(geo, work.shape[1] / zoom / 2 + x0, work.shape[0] / zoom / 2 + y0)
    return float(cfg["judge"]["die_mm"] * mid * zoom)


def _centres_apart(a: DieReading, b: DieReading) -> float:
    return math.hypot(a.center_px[0] - b.center_px[0], a.center_px[1] - b.center_px[1])


def _judge_calibrated(
    cfg: Config, gray: Image, geo: BoardGeometry, view: tuple[float, int, int], die: DieReading
) -> None:
    """Flat or cocked from the face's aspect; on a checker or not from the rims round it."""
    zoom, x0, y0 = view
    die.flat = die.aspect is None or die.aspect >= cfg["judge"]["cocked_aspect_max"]
    x, y = die.center_px
    die.on_checker = under_checker(cfg, gray, geo, x / zoom + x0, y / zoom + y0)


def read_calibrated(
    cfg: Config,
    image: Image,
    gray: Image,
    work: Image,
    pips: list[Pip],
    geo: BoardGeometry,
    view: tuple[float, int, int],
) -> list[DieReading]:
    """Dice on a calibrated board, found from their pips and read from their faces.

    Pips near each other seed a die. Its top face is fitted to the edges round them
    (`fit_face`), or, where that face reads no value, boxed from the pips themselves
    (`pip_box`); the value is read from the whole face (`read_face`), so a pip the finder
    missed is still counted. A face that reads no value is reported (unreadable) only
    when its edges make a clear square and more than one pip was seen on it. Seeds whose
    faces coincide are one die.
    """
    zoom = view[0]
    j, r = cfg["judge"], cfg["read"]
    dice: list[DieReading] = []
    side = _usual_side(cfg, geo, work, view)
    for group in seed_groups(cfg, pips, side):
        die, fitted, scale = _read_seeds(cfg, image, work, geo, view, group)
        if die is None:
            continue
        if die.value is None and (
            fitted is None or fitted[1] < r["unread_edges_min"] or len(group) < 2
        ):
            continue  # no pattern, and no clear die either (a gap between checkers, say)
        size = die.size_mm or j["die_mm"]
        same = [d for d in dice if _centres_apart(d, die) < r["same_face"] * size * scale * zoom]
        if same:
            kept = same[0]
            # Two readings of one die: a value over none, and of two values the greater
            # (a subset of its pips may make a smaller pattern; more pips than it has
            # are not seen).
            if die.value is not None and (kept.value is None or die.value > kept.value):
                kept.value, kept.confidence, kept.aspect = die.value, die.confidence, die.aspect
                kept.center_px, kept.size_mm = die.center_px, die.size_mm
            kept.faces[0].pips.extend(group)
            continue
        dice.append(die)
    dice = _lone_ones(cfg, image, work, pips, geo, view, side, dice)
    for die in dice:
        _judge_calibrated(cfg, gray, geo, view, die)
    return dice


def _lone_ones(
    cfg: Config,
    image: Image,
    work: Image,
    pips: list[Pip],
    geo: BoardGeometry,
    view: tuple[float, int, int],
    side: float,
    dice: list[DieReading],
) -> list[DieReading]:
    """`dice` with each 1 checked: a pip of its kind that no other die read took (but
    another 1), within
    `read.one_partner_reach` of the largest die's side, may be the other pip of a large
    die's 2 or 3, seeded apart from it (further apart than `seed_link` of a usual side).
    The two read together make that die where they read 2 or more; else the 1 is not
    sure (`read.one_partner_confidence`). `side` is a usual die's side (work px)."""
    r, f = cfg["read"], cfg["faces"]
    reach = r["one_partner_reach"] * cfg["pips"]["die_mm_max"] / cfg["judge"]["die_mm"] * side
    taken = {id(q) for d in dice if (d.value or 0) >= 2 for face in d.faces for q in face.pips}

    def alike(a: Pip, b: Pip) -> bool:
        return (
            _same_kind(cfg, a, b)
            and max(a.r, b.r) <= f["size_ratio_max"] * min(a.r, b.r)
            and max(a.contrast, b.contrast) <= f["contrast_ratio_max"] * min(a.contrast, b.contrast)
        )

    out = list(dice)
    for die in dice:
        if die.value != 1 or die not in out:
            continue
        own = die.faces[0].pips[:1]
        partners = [
            q
            for q in pips
            if id(q) not in taken
            and q is not own[0]
            and math.hypot(q.x - own[0].x, q.y - own[0].y) <= reach
            and alike(q, own[0])
        ]
        if not partners:
            continue
        again, _, _ = _read_seeds(cfg, image, work, geo, view, own + partners)
        if again is not None and (again.value or 0) >= 2:
            # The partners' own readings (no value, or 1s) were that die's too.
            ids = {id(q) for q in partners}
            out = [
                d
                for d in out
                if d is not die and not any(id(q) in ids for face in d.faces for q in face.pips)
            ]
            out.append(again)
        else:
            die.confidence *= r["one_partner_confidence"]
    return out


def read_bars(
    cfg: Config,
    image: Image,
    gray: Image,
    work: Image,
    bars: list[Pip],
    pips: list[Pip],
    dice: list[DieReading],
    geo: BoardGeometry,
    view: tuple[float, int, int],
) -> list[DieReading]:
    """6s whose columns of pips ran together into bars (a cocked die's, or a small blurred
    one's), found after the dice read from round pips and away from them. Bars seed a die
    apart from the pips read first: among them they would spoil good faces (a wood's
    streak, a point's tip make bars too). Here they seed with the `pips` no die was read
    from (a 6 with one column round, the other run into a bar). Only a 6 read from the
    face's edges is taken."""
    side = _usual_side(cfg, geo, work, view)
    free = [
        q
        for q in bars + (pips if cfg["read"]["bars_with_pips"] else [])
        if all(math.hypot(q.x - d.center_px[0], q.y - d.center_px[1]) > side for d in dice)
    ]
    ids = {id(q) for q in bars}
    found: list[DieReading] = []
    from_pips = bool(cfg["read"]["bars_from_pips"])
    for group in seed_groups(cfg, free, side):
        if len(group) < 4 or not any(id(q) in ids for q in group):
            continue  # one bar: no 6; no bar: pips read already (read_calibrated)
        die, _, _ = _read_seeds(cfg, image, work, geo, view, group, from_pips=from_pips)
        if die is None or die.value != 6:
            continue
        if any(_centres_apart(d, die) < cfg["read"]["same_face"] * side for d in found):
            continue
        _judge_calibrated(cfg, gray, geo, view, die)
        found.append(die)
    return found


# --- judging ------------------------------------------------------------------------


def _face_box(
    cfg: Config, gray: Image, face: Face, grow: float = 1.0
) -> NDArray[np.float64] | None:
    """The corners (4 x 2, px) of the even region around a face's pips, if it is closed;
    grown by `grow` px each way for the edge and the erosion that bound it."""
    r = float(np.mean([p.r for p in face.pips]))
    spread = max((math.hypot(p.x - face.x, p.y - face.y) for p in face.pips), default=0.0)
    # Wide enough for the whole face of a 1 turned 45 degrees (pips are about a 12th of it).
    half = int(max(cfg["judge"]["face_box_radii"] * r, 2.2 * spread + 3 * r)) + 2
    hgt, wid = gray.shape
    x0, y0 = max(0, int(face.x) - half), max(0, int(face.y) - half)
    x1, y1 = min(wid, int(face.x) + half + 1), min(hgt, int(face.y) + half + 1)
    roi = gray[y0:y1, x0:x1]
    j = cfg["judge"]
    contrast = min(p.contrast for p in face.pips)
    tol = max(j["face_tolerance_min"], j["face_tolerance"] * contrast)
    mask = (np.abs(roi.astype(np.float64) - face.level) <= tol).astype(np.uint8)
    edges = cv2.Canny(roi, j["edge_low"], j["edge_high"])
    mask[edges > 0] = 0
    for p in face.pips:
        cv2.circle(mask, (round(p.x - x0), round(p.y - y0)), round(p.r * 1.3), 1, -1)
    mask = np.asarray(cv2.erode(mask, np.ones((3, 3), np.uint8)), dtype=np.uint8)
    _, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    cx, cy = round(face.x - x0), round(face.y - y0)
    if not (0 <= cy < lab.shape[0] and 0 <= cx < lab.shape[1]):
        return None
    label = lab[cy, cx]
    if label == 0:
        # The centre of a 2/4/6 may sit on the eroded gap; take the largest label near it.
        window = lab[max(0, cy - 2) : cy + 3, max(0, cx - 2) : cx + 3]
        labels = window[window > 0]
        if not len(labels):
            return None
        label = int(np.bincount(labels).argmax())
    x, y, w, h, _ = stats[label]
    if x == 0 or y == 0 or x + w >= lab.shape[1] or y + h >= lab.shape[0]:
        return None  # leaked into a background of the same shade
    ys, xs = np.nonzero(lab == label)
    pts = np.stack([xs + x0, ys + y0], 1).astype(np.float32)
    box = cv2.boxPoints(cv2.minAreaRect(pts))
    centre = box.mean(axis=0)
    box = centre + (box - centre) * (1 + grow / max(1.0, float(np.linalg.norm(box[0] - centre))))
    return np.asarray(box, dtype=np.float64)


def judge_dice(cfg: Config, gray: Image, dice: list[DieReading]) -> None:
    """Without a calibration, in place: `flat` (a grossly foreshortened top face is
    cocked), values read with too little confidence dropped, and each value read again
    from its whole face (the even region round its pips, warped to a square): where the
    two disagree, or a 2's or 3's pips run along a side of the face (a 6's column alone
    makes a 3), the die is unreadable. A top face of `whole_read_min` pips or more that
    make no pattern takes the value its whole face shows, where that has more pips."""
    j = cfg["judge"]
    for die in dice:
        top = die.faces[0]
        box = _face_box(cfg, gray, top)
        die.aspect = None
        if box is not None:
            a = float(np.linalg.norm(box[1] - box[0]))
            b = float(np.linalg.norm(box[2] - box[1]))
            die.aspect = min(a, b) / max(a, b) if min(a, b) > 0 else None
        die.flat = die.aspect is None or die.aspect >= j["cocked_aspect_uncalibrated"]
        if die.confidence < j["confidence_min"]:
            die.value = None
        if box is None:
            continue
        dark = top.pips[0].dark
        if die.value is None and top.value is None and len(top.pips) >= j["whole_read_min"]:
            # Pips of no pattern, all on one even face: some of the face's pips were
            # missed (one by the face's edge, its ring spoilt): the face read whole.
            value, conf, _, _ = read_face(cfg, face_patch(gray, box), dark)
            if value is not None and _pips_inside(top.pips, box) == len(top.pips) < value:
                die.value, die.confidence = value, conf
            continue
        if die.value is None:
            continue
        again, _, _, _ = read_face(cfg, face_patch(gray, box), dark)
        if again is not None and again > die.value >= 4:
            # The even region may run on over a side face of the same shade, with more
            # pips: read again the face boxed from the corner pips (a 6 or a 5 whose
            # middle pips were missed still reads 6 or 5 there).
            from_pips = pip_box(cfg, top.pips)
            if from_pips is not None:
                again, _, _, _ = read_face(cfg, face_patch(gray, from_pips), dark)
        pts = np.array([[p.x, p.y] for p in top.pips])
        if (again is not None and again != die.value) or (
            die.value in (2, 3) and _diagonal_aspect(pts, box) < cfg["read"]["diagonal_min"]
        ):
            die.value, die.confidence = None, 0.0


def verdict(
    dice: list[DieReading], roller: str | None, calibrated: bool
) -> tuple[tuple[int, int] | None, bool, list[str]]:
    """The roll (high die first) and whether it stands, with the reasons it does not."""
    reasons: list[str] = []
    values = [d.value for d in dice]
    roll = None
    if len(dice) == 2 and None not in values:
        hi, lo = sorted((int(v) for v in values if v is not None), reverse=True)
        roll = (hi, lo)
    if any(v is None for v in values):
        reasons.append("unreadable")
    if len(dice) != 2:
        reasons.append("dice_count")
    if any(not d.flat for d in dice):
        reasons.append("cocked")
    if calibrated:
        if any(d.on_checker for d in dice):
            reasons.append("on_checker")
        if any(d.section == "off" for d in dice):
            reasons.append("off_board")
        on_board = [d for d in dice if d.section != "off"]
        if roller in ("white", "black"):
            want = "right" if roller == "white" else "left"
            if any(d.section != want for d in on_board):
                reasons.append("wrong_section")
        elif (
            roller == "opening"
            and len(on_board) == 2
            and sorted(str(d.section) for d in on_board) != ["left", "right"]
        ):
            reasons.append("wrong_section")
    ordered = [r for r in REASONS if r in reasons]
    return roll, not ordered, ordered


def _pip_diameter_max(cfg: Config, geo: BoardGeometry) -> float:
    """The largest pip diameter in pixels a die on this board can show."""
    p = cfg["pips"]
    return max(5.0, p["pip_fraction"] * p["die_mm_max"] * geo.px_per_mm_max * 1.2)


_GRAY = {3: cv2.COLOR_BGR2GRAY, 4: cv2.COLOR_BGRA2GRAY}  # by the number of channels


def to_gray(image: Image) -> Image:
    if image is None or not isinstance(image, np.ndarray) or image.size == 0:
        raise ImageError("not an image")
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] in _GRAY:
        return np.asarray(cv2.cvtColor(image, _GRAY[image.shape[2]]), dtype=np.uint8)
    raise ImageError(f"unexpected image shape {image.shape}")


@functools.lru_cache(maxsize=32)
def board_crop(geo: BoardGeometry, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The image box holding the board and a margin around it (dice thrown off the board)."""
    m = 60.0
    w, h = geo.width_mm, geo.height_mm
    box = geo.mm_to_px([(-m, -m), (w + m, -m), (w + m, h + m), (-m, h + m)])
    hgt, wid = shape[:2]
    x0, y0 = (
        min(max(0, int(v)), lim - 1) for v, lim in zip(box.min(axis=0), (wid, hgt), strict=True)
    )
    x1 = int(min(wid, max(x0 + 1, box[:, 0].max() + 1)))
    y1 = int(min(hgt, max(y0 + 1, box[:, 1].max() + 1)))
    return x0, y0, x1, y1


def _colour(image: Image) -> bool:
    """Whether `image` is a colour frame (BGR or BGRA) with pixels."""
    return (
        isinstance(image, np.ndarray)
        and image.ndim == 3
        and image.shape[2] in _GRAY
        and image.size > 0
    )


def board_gray(image: Image, geo: BoardGeometry, darkest: bool = False) -> Image:
    """`image` in grey (with `darkest`, its darkest colour channel) over the board and the
    margin round it (`board_crop`, where dice are looked for: a fraction of a camera's
    frame), black beyond."""
    if not _colour(image):
        return to_gray(image)  # a grey image is itself; anything else is no image
    x0, y0, x1, y1 = board_crop(geo, image.shape)
    out = np.zeros(image.shape[:2], np.uint8)
    _gray_into(image[y0:y1, x0:x1], out[y0:y1, x0:x1], darkest)
    return out


def _gray_into(inside: Image, there: Image, darkest: bool) -> None:
    """A colour image's grey (or darkest channel) written into `there`, pixel by pixel."""
    if darkest:
        b, g, r = cv2.split(inside[:, :, :3])
        cv2.min(cv2.min(b, g), r, dst=there)
    else:
        cv2.cvtColor(inside, _GRAY[inside.shape[2]], dst=there)


class GrayParts:
    """`board_gray` of one frame, converted only over the places asked for (`over`, in
    tiles; the rest stays black): a video's frame is read at the few places that changed,
    and converting its whole board took as long as reading them."""

    TILE = 64  # image px

    def __init__(self, image: Image, geo: BoardGeometry, darkest: bool = False) -> None:
        self._image = image
        self._darkest = darkest
        self._todo: NDArray[np.bool_] | None = None
        if not _colour(image):
            self.gray = board_gray(image, geo, darkest)  # grey already (or no image)
            return
        self._crop = board_crop(geo, image.shape)
        x0, y0, x1, y1 = self._crop
        self.gray = np.zeros(image.shape[:2], np.uint8)
        t = self.TILE
        self._todo = np.ones((-(-(y1 - y0) // t), -(-(x1 - x0) // t)), bool)

    def over(self, box: tuple[float, float, float, float]) -> Image:
        """The frame in grey, converted at least over `box` (x0, y0, x1, y1 image px)."""
        if self._todo is None:
            return self.gray
        cx0, cy0, cx1, cy1 = self._crop
        t = self.TILE
        rows, cols = self._todo.shape
        tx0, ty0 = max(0, int(box[0] - cx0) // t), max(0, int(box[1] - cy0) // t)
        tx1 = min(cols, -(-(math.ceil(box[2]) - cx0) // t))
        ty1 = min(rows, -(-(math.ceil(box[3]) - cy0) // t))
        if tx1 > tx0 and ty1 > ty0 and self._todo[ty0:ty1, tx0:tx1].any():
            # The tiles' whole rectangle at once: a tile converted again comes out the same.
            x0, y0 = cx0 + tx0 * t, cy0 + ty0 * t
            x1, y1 = min(cx1, cx0 + tx1 * t), min(cy1, cy0 + ty1 * t)
            _gray_into(self._image[y0:y1, x0:x1], self.gray[y0:y1, x0:x1], self._darkest)
            self._todo[ty0:ty1, tx0:tx1] = False
        return self.gray


def _larger_dice(cfg: Config, gray: Image, found: list[DieReading]) -> list[DieReading]:
    """The dice whose pips are too large for `find_pips` at any level it looked at (a close
    view: it halves a photo only while it is `pyramid_min_side` across), read at half
    that size, a quarter and so on while `larger_min_side` across at least, where no die
    was found (nearer than `larger_apart` of the largest pip's diameter at that size)."""
    p = cfg["pips"]
    level, scale = gray, 1.0
    while min(level.shape) >= p["pyramid_min_side"]:  # the levels find_pips looked at
        level, scale = np.asarray(cv2.pyrDown(level), np.uint8), scale * 2
    out: list[DieReading] = []
    while min(level.shape) >= 2 * p["larger_min_side"]:
        level, scale = np.asarray(cv2.pyrDown(level), np.uint8), scale * 2
        dice = group_dice(cfg, find_faces(cfg, level, find_pips(cfg, level)))
        judge_dice(cfg, level, dice)
        reach = scale * p["diameter_max_px"] * p["larger_apart"]
        for die in dice:
            x, y = die.center_px[0] * scale, die.center_px[1] * scale
            if all(math.hypot(x - d.center_px[0], y - d.center_px[1]) > reach for d in found + out):
                die.center_px = (x, y)
                die.faces = [_scaled(f, scale) for f in die.faces]
                out.append(die)
    return out


def _scaled(face: Face, scale: float) -> Face:
    """A face found in an image `scale` times smaller, in the full image's pixels."""
    pips = [replace(p, x=p.x * scale, y=p.y * scale, r=p.r * scale) for p in face.pips]
    return replace(face, pips=pips, x=face.x * scale, y=face.y * scale)


def _darkest_again(
    cfg: Config, image: Image, geo: BoardGeometry, found: list[DieReading]
) -> list[DieReading]:
    """A calibrated frame where fewer than two dice read a value, read again on its
    darkest colour channel (a translucent die's light pips stand out half as much again
    there): the dice read there that show 2 or more (`read.darkest_again_min`), flat,
    a die's side or more from any found (image px). On that channel a coloured board goes
    dark and the gaps between dark checkers stand out light, so lone spots (1s) and
    tilted faces read there do not count."""
    if sum(d.value is not None for d in found) >= 2 or not _colour(image):
        return []
    again = read_dice(cfg, image, geo, None, None, board_gray(image, geo, darkest=True)).dice
    die_mm = cfg["judge"]["die_mm"]
    return [
        d
        for d in again
        if d.value is not None
        and d.value >= cfg["read"]["darkest_again_min"]
        and d.flat
        and all(
            math.dist(d.center_px, e.center_px) > die_mm * px_per_mm(geo, *d.center_px)
            for e in found
        )
    ]


def net_dice(cfg: Config, image: Image, geo: BoardGeometry) -> list[DieReading]:
    """The dice the networks read on a calibrated colour frame (`vision.dicenet`)."""
    out = []
    for d in dicenet.find_dice(cfg, image, geo):
        (px,) = geo.mm_to_px([(d.x_mm, d.y_mm)])
        best = int(np.argmax(d.values))
        sure = float(d.values[best])
        state = dicenet.STATES[int(np.argmax(d.states))]
        out.append(
            DieReading(
                best + 1 if sure >= cfg["net"]["value_min"] else None,
                sure,
                (float(px[0]), float(px[1])),
                flat=state != "cocked",
                section=geo.section_mm(d.x_mm, d.y_mm),
                on_checker=state == "on_checker",
            )
        )
    return out


def plain_net_dice(cfg: Config, image: Image) -> list[DieReading]:
    """The dice the networks read on a plain colour photo (`vision.dicenet`)."""
    out = []
    for d in dicenet.find_dice_plain(cfg, image):
        best = int(np.argmax(d.values))
        sure = float(d.values[best])
        state = dicenet.STATES[int(np.argmax(d.states))]
        out.append(
            DieReading(
                best + 1 if sure >= cfg["net"]["value_min"] else None,
                sure,
                (d.x_px, d.y_px),
                flat=state != "cocked",
                on_checker=state == "on_checker",
            )
        )
    return out


def uses_net(cfg: Config, image: Image, geo: BoardGeometry | None) -> bool:
    """Whether the networks read this frame: a colour frame, `[net] use` on, and either a
    calibration or `[net] plain` on."""
    on = geo is not None or bool(cfg["net"]["plain"])
    return on and bool(cfg["net"]["use"]) and _colour(image)


def read_dice(
    cfg: Config,
    image: Image,
    geo: BoardGeometry | None = None,
    roller: Color | str | None = None,
    region: tuple[int, int, int, int] | None = None,
    gray: Image | None = None,
) -> DiceResult:
    """Everything about the dice in one frame.

    With a calibration only the board and a margin around it are searched (or, given
    `region` (x0, y0, x1, y1 in pixels), only that part of it), and when the board is
    imaged so small that pips are a few pixels across the crop is enlarged first (small
    pips lose their shape and contrast otherwise). `gray` is the image in grey, where
    the caller has it already (several regions of one frame).
    """
    start = time.perf_counter()
    whole = gray is None and region is None  # the whole frame, read here alone
    if whole and uses_net(cfg, image, geo):
        dice = net_dice(cfg, image, geo) if geo is not None else plain_net_dice(cfg, image)
        roll, valid, reasons = verdict(dice, roller, geo is not None)
        return DiceResult(dice, roll, valid, reasons, (time.perf_counter() - start) * 1000)
    if gray is None:
        gray = to_gray(image) if geo is None else board_gray(image, geo)
    x0 = y0 = 0
    zoom = 1.0
    d_max: float | None = None
    work = gray
    if geo is not None:
        d_max = _pip_diameter_max(cfg, geo)
        x0, y0, x1, y1 = board_crop(geo, gray.shape)
        if region is not None:
            x0, y0 = max(x0, region[0]), max(y0, region[1])
            x1, y1 = max(x0 + 1, min(x1, region[2])), max(y0 + 1, min(y1, region[3]))
        work = gray[y0:y1, x0:x1]
        if d_max < cfg["pips"]["zoom_below_px"]:
            zoom = cfg["pips"]["zoom"]
            work = np.asarray(
                cv2.resize(work, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR),
                dtype=np.uint8,
            )
            d_max *= zoom
    bars: list[Pip] | None = [] if geo is not None else None
    pips = find_pips(cfg, work, d_max, bars)
    if geo is not None and d_max is not None:
        # With a calibration a pip's size is known to within a factor.
        r_max = d_max / 2
        pips = [q for q in pips if q.r >= r_max * cfg["pips"]["calibrated_radius_min"]]
        dice = read_calibrated(cfg, image, gray, work, pips, geo, (zoom, x0, y0))
        dice += read_bars(cfg, image, gray, work, bars or [], pips, dice, geo, (zoom, x0, y0))
    else:
        dice = group_dice(cfg, find_faces(cfg, work, pips))
        judge_dice(cfg, work, dice)
        dice += _larger_dice(cfg, work, dice)
    for die in dice:
        x, y = die.center_px
        die.center_px = (x / zoom + x0, y / zoom + y0)
        if geo is not None:
            die.section = geo.section_px(*die.center_px)
    if geo is not None and whole and cfg["read"]["darkest_again"]:
        dice += _darkest_again(cfg, image, geo, dice)
    roll, valid, reasons = verdict(dice, roller, geo is not None)
    return DiceResult(dice, roll, valid, reasons, (time.perf_counter() - start) * 1000)
