"""The board's view as calibrated, and how far a later frame's board lies from it.

`calibrate` records, in the calibration file's optional `view` block, the frame it
calibrated on warped to the board seen from straight above (grey, `PX_PER_MM`, with a
margin of `MARGIN_SHARE` of the width round the surface: the frame and what lies beside
it). The drift check (`calibration.refine.check_drift`: `calibrate --check`, `run`'s check
every few seconds) warps a later frame the same way, by the same calibration, and finds
the motion that carries the recorded view onto it (`register`). Nothing moved: the two
views lie on each other, whatever moved on the board. The camera or the board moved: the
board lies shifted, turned or scaled in the later view by as much as it moved.

This does not rest on finding the surface's edges again (which on real boards is no surer
than a point or a frame's bevel allows: up to 1.2% of the width on the development
photos), and it sees moves of any size up to `SEARCH` of the width (the edges' search
reaches about 2%: beyond, it settled on the next line and called a board moved by 8%
still in place on 7-14 of 100 rendered boards of each set).

The motion (`register`):
1. Coarse: each of `TILES` x `TILES` tiles of the recorded view, at half its resolution,
   is looked for in the later view within `SEARCH` of the width (normalised
   correlation); the similarity (turn, scale, shift) most tiles agree with (RANSAC)
   is taken. Tiles under a hand or a cup, or where checkers moved, disagree and drop out.
2. The points repeat along the board's width, so most tiles can agree on a motion a
   point or two off: the starts are the tiles' motion, the same `ALIASES` points along,
   and the whole view's best shift; the `REFINED` under which the two views differ least
   over the whole view (their mean difference) are refined.
3. Fine: the turn and shift that make the two views alike (OpenCV's ECC, which no change
   of the light's brightness or contrast affects), `ROBUST_PASSES` times on the pixels
   alike in both under the motion so far (those whose difference is within `ALIKE` times
   the median's), so that checkers moved, dice and hands do not pull it; then an affine
   motion (a camera raised, lowered or tilted scales the board) where it fits at least as
   well and stays within `SIMILAR` of a turn and a scale (a shear is a misfit). Of the
   refined starts, the one under which the views differ least is taken.

`locate` matches again from where each match put the corners, until they settle: the
place a moved board now has, as `calibrate --check -o` writes it and `run` follows it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from calibration.schema import BoardView, Calibration, CalibrationError

Image = NDArray[np.uint8]
FloatArray = NDArray[np.float64]

PX_PER_MM = 0.5  # the recorded view's resolution: a 530 mm board is 318 px wide with margins
MARGIN_SHARE = 0.1  # of the surface's width, round it: the frame and what lies beside it
TILES = 6  # tiles a side, matched on their own for the coarse motion
SEARCH = 0.12  # of the surface's width: the largest move looked for
MIN_TILES = 3  # tiles that must agree on the coarse motion
TILE_AGREE_PX = 2.0  # px at half resolution: a tile agrees with the motion within this
MIN_CONTRAST = 2.0  # grey levels (standard deviation): a tile plainer than this says nothing
ROBUST_PASSES = 3
ALIKE = 3.0  # of the median difference: pixels kept as alike in both views
SIMILAR = 0.02  # how far from a turn and a scale an affine motion may be (its shear)
FOLLOW_ROUNDS = 3  # matches made at most to place a moved board (`locate`)
ALIASES = (0, -1, 1, -2, 2)  # points along the tiles' motion tried as starts
REFINED = 2  # starts refined, the least unlike first
SETTLED = 0.001  # of the width: a match that moves the corners less ends them
_ECC_STOP = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 100, 1e-5)


def _grid(cal: Calibration, px_per_mm: float, margin_mm: float) -> NDArray[np.float32]:
    """The image pixel (x, y) of each pixel of the view (rows x columns x 2)."""
    w, h = cal.width_mm, cal.height_mm
    nx = round((w + 2 * margin_mm) * px_per_mm)
    ny = round((h + 2 * margin_mm) * px_per_mm)
    xs = (np.arange(nx) + 0.5) / px_per_mm - margin_mm
    ys = (np.arange(ny) + 0.5) / px_per_mm - margin_mm
    gx, gy = np.meshgrid(xs, ys)
    px = BoardGeometry(cal).mm_to_px(np.stack([gx.ravel(), gy.ravel()], axis=1))
    return px.astype(np.float32).reshape(ny, nx, 2)


def board_view(
    image: Image, cal: Calibration, px_per_mm: float = PX_PER_MM, margin_mm: float | None = None
) -> Image:
    """`image` (BGR or grey, of `cal`'s size) warped by `cal` to the board seen from above,
    grey, at `px_per_mm`, with `margin_mm` (MARGIN_SHARE of the width by default) round
    the surface; what lies outside the image is the nearest edge's."""
    size = (image.shape[1], image.shape[0])
    if size != cal.image_size:
        raise CalibrationError(
            f"the image is {size[0]}x{size[1]} but the calibration was made for "
            f"{cal.image_size[0]}x{cal.image_size[1]}"
        )
    margin = MARGIN_SHARE * cal.width_mm if margin_mm is None else margin_mm
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    grid = _grid(cal, px_per_mm, margin)
    out = cv2.remap(
        grey, grid[..., 0], grid[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(out, np.uint8)


def record(image: Image, cal: Calibration) -> BoardView:
    """The view block for `cal` from the frame it was made on."""
    margin = round(MARGIN_SHARE * cal.width_mm, 3)
    grey = board_view(image, cal, PX_PER_MM, margin)
    ok, png = cv2.imencode(".png", grey, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit grey image
        raise CalibrationError("the board's view could not be encoded")
    return BoardView(png=png.tobytes(), px_per_mm=PX_PER_MM, margin_mm=margin)


def recorded(cal: Calibration) -> Image:
    """The view `cal` recorded, decoded (CalibrationError where it is not the grey PNG of
    the size its scale and margin give)."""
    assert cal.view is not None
    grey = cv2.imdecode(np.frombuffer(cal.view.png, np.uint8), cv2.IMREAD_UNCHANGED)
    if grey is None or grey.ndim != 2 or grey.dtype != np.uint8:
        raise CalibrationError("view.grey_png: not a grey 8-bit PNG image")
    w, h = cal.view.size(cal.width_mm, cal.height_mm)
    if (grey.shape[1], grey.shape[0]) != (w, h):
        raise CalibrationError(
            f"view.grey_png: the image is {grey.shape[1]}x{grey.shape[0]}, the board's size, "
            f"margin and scale make it {w}x{h}"
        )
    return np.asarray(grey, np.uint8)


@dataclass(frozen=True)
class Motion:
    """Where the recorded view's pixels lie in the later view."""

    warp: FloatArray  # 3 x 3: x' ~ warp @ (x, y, 1)
    alike: float  # ECC's correlation of the two views over the pixels kept (-1..1)
    kept: float  # the share of the view's pixels alike in both views, those it rests on
    tiles: float  # the share of the tiles that agreed on the coarse motion


def _coarse(ref: NDArray[np.float32], cur: NDArray[np.float32]) -> tuple[FloatArray, float] | None:
    """The similarity most tiles agree with, at full resolution; and the share that agree."""
    a = cv2.resize(ref, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    b = cv2.resize(cur, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    height, width = a.shape
    reach = max(2, round(SEARCH * width / (1 + 2 * MARGIN_SHARE)))
    padded = cv2.copyMakeBorder(b, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    ys = np.linspace(0, height, TILES + 1).astype(int)
    xs = np.linspace(0, width, TILES + 1).astype(int)
    src, dst = [], []
    for i in range(TILES):
        for j in range(TILES):
            tile = a[ys[i] : ys[i + 1], xs[j] : xs[j + 1]]
            if float(tile.std()) < MIN_CONTRAST:
                continue
            window = padded[ys[i] : ys[i + 1] + 2 * reach, xs[j] : xs[j + 1] + 2 * reach]
            _, _, _, at = cv2.minMaxLoc(cv2.matchTemplate(window, tile, cv2.TM_CCOEFF_NORMED))
            middle = np.array([(xs[j] + xs[j + 1]) / 2, (ys[i] + ys[i + 1]) / 2])
            src.append(middle)
            dst.append(middle + np.array(at, np.float64) - reach)
    if len(src) < MIN_TILES:
        return None
    warp, inliers = cv2.estimateAffinePartial2D(
        np.array(src, np.float32),
        np.array(dst, np.float32),
        method=cv2.RANSAC,
        ransacReprojThreshold=TILE_AGREE_PX,
    )
    if warp is None or int(inliers.sum()) < MIN_TILES:
        return None
    full: FloatArray = np.asarray(warp, np.float64)
    full[:, 2] *= 2  # half resolution to full
    return full, float(inliers.mean())


def _ecc(
    ref: NDArray[np.float32],
    cur: NDArray[np.float32],
    warp: FloatArray,
    motion: int,
    mask: NDArray[np.uint8] | None = None,
) -> tuple[float, FloatArray]:
    everywhere = np.ones(ref.shape, np.uint8) if mask is None else mask
    alike, out = cv2.findTransformECC(
        ref, cur, warp.astype(np.float32), motion, _ECC_STOP, everywhere, 5
    )
    return float(alike), np.asarray(out, np.float64)


def _whole(ref: NDArray[np.float32], cur: NDArray[np.float32]) -> FloatArray:
    """The shift that best lays the recorded view's middle on the later view, at a quarter
    of its resolution, within SEARCH of the width (the whole board at once: the bar and
    the ends, which no point's repeating pattern imitates)."""
    a = cv2.resize(ref, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    b = cv2.resize(cur, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    reach = max(2, round(SEARCH * a.shape[1] / (1 + 2 * MARGIN_SHARE)))
    padded = cv2.copyMakeBorder(b, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    middle = a[reach:-reach, reach:-reach]
    _, _, _, at = cv2.minMaxLoc(cv2.matchTemplate(padded, middle, cv2.TM_CCOEFF_NORMED))
    shift = (np.array(at, np.float64) - reach) * 4
    return np.array([[1.0, 0.0, shift[0]], [0.0, 1.0, shift[1]]])


def _refined(
    a: NDArray[np.float32], b: NDArray[np.float32], warp: FloatArray
) -> tuple[FloatArray, float, NDArray[np.uint8]] | None:
    """From a coarse motion: the turn and shift fitted on the pixels alike in both views
    (then an affine motion where it fits as well and is near a turn and a scale), as a
    3 x 3 matrix; ECC's correlation; the pixels kept. None where ECC finds no fit."""
    warp = warp.copy()
    warp[:, :2] /= np.sqrt(abs(np.linalg.det(warp[:, :2])))  # a turn: ECC's Euclidean motion
    # the pixels alike under the motion so far, and again: checkers moved, dice, a hand or
    # a cup left out (the whole view's fit can follow a large hand)
    alike: float | None = None
    mask = _alike(a, b, warp)
    for _ in range(ROBUST_PASSES):
        try:
            alike, warp = _ecc(a, b, warp, cv2.MOTION_EUCLIDEAN, mask)
        except cv2.error:
            break  # the last motion stands
        mask = _alike(a, b, warp)
    if alike is None:
        return None  # the two views are not alike anywhere near the coarse motion
    try:
        affine_alike, affine = _ecc(a, b, warp, cv2.MOTION_AFFINE, mask)
    except cv2.error:
        pass
    else:
        lin = affine[:, :2]
        shear = max(abs(lin[0, 0] - lin[1, 1]), abs(lin[0, 1] + lin[1, 0]))
        if affine_alike >= alike - 0.005 and shear < SIMILAR:
            alike, warp = affine_alike, affine
    return np.vstack([warp, [0.0, 0.0, 1.0]]), alike, mask


def register(ref: Image, cur: Image, pitch_px: float | None = None) -> Motion | None:
    """The motion that carries `ref` (the recorded view) onto `cur` (a later frame's, of the
    same size); None where the two cannot be matched (the board is not where the view
    was, or covered).

    The board's points repeat every `pitch_px` along its width (the view's x): tiles among
    the points match as well a point or two along, and where most tiles lie among them
    their motion can be off by as much (on 2 of 200 rendered boards moved 8%, by two
    points). So the starts are the tiles' motion, the same a point and two points either
    way along, and the whole view's best shift; each is judged by how unlike the two views
    are under it, over the whole view (the mean difference: where the points lie on
    points but the bar and the ends do not, it is larger; a hand over the board counts
    alike for every start), and the two least unlike are refined; the refined motion under
    which the views are least unlike is taken."""
    a, b = ref.astype(np.float32), cur.astype(np.float32)
    coarse = _coarse(a, b)
    if coarse is None:
        return None
    warp, tiles = coarse
    starts = [_whole(a, b)]
    for k in ALIASES if pitch_px else (0,):
        moved = warp.copy()
        moved[0, 2] += k * (pitch_px or 0.0)
        starts.append(moved)
    ranked = sorted(starts, key=lambda w: _misfit(a, b, w))
    best: tuple[float, FloatArray, float, NDArray[np.uint8]] | None = None
    for start in ranked[:REFINED]:
        fit = _refined(a, b, start)
        if fit is None:
            continue
        misfit = _misfit(a, b, fit[0])
        if best is None or misfit < best[0]:
            best = (misfit, *fit)
    if best is None:
        return None
    return Motion(best[1], best[2], float(best[3].mean()), tiles)


def _difference(a: NDArray[np.float32], b: NDArray[np.float32], warp: FloatArray) -> FloatArray:
    """How unlike `a` is `b` carried back by `warp` (2 x 3 or 3 x 3), pixel by pixel: both
    standardised, their difference lightly blurred."""
    size = (a.shape[1], a.shape[0])
    flags = cv2.INTER_LINEAR + cv2.WARP_INVERSE_MAP
    if warp.shape[0] == 3:
        back = cv2.warpPerspective(b, warp, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    else:
        back = cv2.warpAffine(b, warp, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    za = (a - a.mean()) / (a.std() + 1e-6)
    zb = (back - back.mean()) / (back.std() + 1e-6)
    return np.asarray(cv2.GaussianBlur(np.abs(za - zb), (0, 0), 2), np.float64)


def _alike(a: NDArray[np.float32], b: NDArray[np.float32], warp: FloatArray) -> NDArray[np.uint8]:
    """The pixels of `a` that `b`, carried back by `warp`, shows alike."""
    diff = _difference(a, b, warp)
    # (two identical views differ by nothing anywhere: all of them kept)
    return np.asarray(diff <= max(ALIKE * float(np.median(diff)), 0.01), np.uint8)


def _misfit(a: NDArray[np.float32], b: NDArray[np.float32], warp: FloatArray) -> float:
    """The mean difference of the two views under `warp`."""
    return float(_difference(a, b, warp).mean())


def surface_now(cal: Calibration, image: Image) -> tuple[FloatArray, Motion] | None:
    """Where the surface's four corners lie in `image`, in `cal`'s board millimetres (its
    far left, far right, near right and near left corner), found by matching the view
    `cal` recorded (it must have one) against `image`'s; and the motion. None where the
    two views cannot be matched."""
    assert cal.view is not None
    ref = recorded(cal)
    s, m = cal.view.px_per_mm, cal.view.margin_mm
    pitch = (cal.width_mm - cal.bar_width_mm) / 12 * s  # a point's width, view px
    motion = register(ref, board_view(image, cal, s, m), pitch)
    if motion is None:
        return None
    w, h = cal.width_mm, cal.height_mm
    # the view's pixel k (column or row) is centred on (k + 0.5) / s - m mm
    at = (np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) + m) * s - 0.5
    moved = cv2.perspectiveTransform(at.reshape(-1, 1, 2), motion.warp).reshape(-1, 2)
    mm: FloatArray = np.asarray((moved + 0.5) / s - m, np.float64)
    return mm, motion


def locate(cal: Calibration, image: Image) -> tuple[Calibration, Motion] | None:
    """`cal` with its corners where the board now lies in `image`, found by matching the
    view `cal` recorded (it must have one, and keeps it); and the last match's motion.
    None where the views cannot be matched; CalibrationError where the board now lies
    outside the image.

    Matched again from the corners each match found (the recorded view stays the
    reference), up to `FOLLOW_ROUNDS` times, until a match moves them less than
    `SETTLED`: the first match of a large move is as good as the tiles' search allows (up
    to 1-2% of the width off at 8% on rendered boards), the next, from nearly in place, as
    good as an unmoved board's (within 0.5%)."""
    current, motion = cal, None
    width = float(np.linalg.norm(np.subtract(cal.corners_px[1], cal.corners_px[0])))
    for _ in range(FOLLOW_ROUNDS):
        now = surface_now(current, image)
        if now is None:
            break
        motion = now[1]
        # the corners in the calibration's own pixels: undistorted where it has a lens
        h = BoardGeometry(current).mm_to_px_h
        corners = cv2.perspectiveTransform(now[0].reshape(-1, 1, 2), h).reshape(-1, 2)
        step = float(np.abs(corners - np.array(current.corners_px)).max())
        (a, b), (c, d), (e, f), (g, k) = corners.tolist()
        current = replace(current, corners_px=((a, b), (c, d), (e, f), (g, k)))
        if step < SETTLED * width:
            break
    return None if motion is None else (current, motion)
