"""What a point shows beyond the checkers read on it: the board's own surface, or not.

A checker whose rim cannot be found (a dark checker on a dark triangle, one under an arm,
a pile seen at a slant) leaves no circle, and the point would read as surely empty. But
where it lies the point does not look like the board: points of one colour look alike
when empty, so each point's surface beyond its checkers is compared, place by place
along it, with the median of the other points of its colour (alternate points share a
colour: CONTRACTS.md §1 numbers them round the board). The area that differs, where it
is as large as a good part of a checker, makes the point unsure; a die is too small.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board_colours import LabView

Colours = NDArray[np.float32]  # weighted Lab samples (`_sampled`)

LIGHTNESS_WEIGHT = 0.5  # light falls off across a board: lightness counts half
WEIGHTS = np.array([LIGHTNESS_WEIGHT * 100 / 255, 1.0, 1.0], np.float32)  # OpenCV's 8-bit Lab
MIN_REFERENCES = 3  # points of a colour that must show their surface at a spot to judge it
COLUMNS = 9  # samples across a point, over 0.8 of its width
FINE = 2  # the reference sampled this many times as densely across: moves of half a step
FAR = 100.0  # a distance (weighted Lab) that counts as wholly unlike, in choosing a move


@dataclass(frozen=True)
class Strip:
    """One point's axis in board millimetres, from its edge along `sign`."""

    name: str
    x_mm: float
    origin_mm: float
    sign: int
    length_mm: float
    colour: int  # which of the two triangle colours (point number parity)
    covered_mm: float  # from the edge: the checkers read there cover up to this
    # ... and those only the strip network counts (`vision.board_net`) up to this: left out
    # of the other points' reference, not of this point's own check
    hidden_mm: float = 0.0


def unexplained_areas(
    lab: NDArray[np.uint8] | LabView,
    strips: Sequence[Strip],
    circles_mm: NDArray[np.float64],
    d_mm: float,
    point_width_mm: float,
    to_px: tuple[float, float],
    step_mm: float,
    tolerance: float,
) -> dict[str, float]:
    """Per point: the area (mm^2) beyond its checkers that looks unlike its colour's points.

    `lab` is the board view in OpenCV Lab; `to_px` = (pixels per mm, margin mm) maps board
    millimetres to it; `circles_mm` (n x 2) are every checker found, whose discs are
    left out wherever they lie.
    """
    if not strips:
        return {}
    length = min(st.length_mm for st in strips)
    along = np.arange(step_mm / 2, length, step_mm)
    across = np.linspace(-0.4, 0.4, COLUMNS) * point_width_mm
    # The reference is made a step wider every way than the samples judged, and sampled
    # `FINE` times as densely across: a move of it (`_nearest`) then finds a reference for
    # every sample, and moves by a fraction of a step across.
    step_across = float(across[1] - across[0])
    along = np.concatenate([[along[0] - step_mm], along, [along[-1] + step_mm]])
    coarse = np.concatenate([[across[0] - step_across], across, [across[-1] + step_across]])
    across = np.interp(np.arange(FINE * (COLUMNS + 1) + 1) / FINE, np.arange(COLUMNS + 2), coarse)
    xs = (
        np.array([st.x_mm for st in strips])[:, None, None]
        + across[None, None, :]
        + 0 * along[None, :, None]
    )
    ys = (
        np.array([st.origin_mm for st in strips])[:, None, None]
        + np.array([st.sign for st in strips])[:, None, None] * along[None, :, None]
        + 0 * across[None, None, :]
    )
    px, off_checkers = _sampled(lab, xs, ys, circles_mm, d_mm, to_px)  # strips x along x across
    free = along[None, :, None] >= np.array([st.covered_mm for st in strips])[:, None, None]
    free = free & off_checkers
    hidden = np.array([st.hidden_mm for st in strips])[:, None, None]
    shown = free & (along[None, :, None] >= hidden)  # what the reference is made of
    inner = (slice(None), slice(1, -1), slice(FINE, -FINE, FINE))  # the samples judged
    colours = np.array([st.colour for st in strips])
    cell = step_mm * step_across
    out: dict[str, float] = {}
    for colour in np.unique(colours):
        mine = np.flatnonzero(colours == colour)
        ref, enough = _median(px[mine], shown[mine])
        judged = free[mine][inner] & enough[inner[1:]]
        dist = _nearest(px[mine][inner], ref, judged)
        odd = judged & (dist > tolerance)
        for i, n in zip(mine, odd.sum(axis=(1, 2)), strict=True):
            out[strips[int(i)].name] = float(n) * cell
    return out


def _sampled(
    lab: NDArray[np.uint8] | LabView,
    xs_mm: NDArray[np.float64],
    ys_mm: NDArray[np.float64],
    circles_mm: NDArray[np.float64],
    d_mm: float,
    to_px: tuple[float, float],
) -> tuple[Colours, NDArray[np.bool_]]:
    """The view's colours at board spots (`xs_mm`, `ys_mm`, any shape alike), Lab with
    lightness weighted (`LIGHTNESS_WEIGHT`; in single precision, which the distances need
    no more than and which halves their time), and whether each spot lies off every
    checker found (`circles_mm`, n x 2: their discs, a little wider, drawn once and looked
    up like the colours)."""
    s, margin = to_px
    h, w = lab.shape[:2]
    ix = np.clip(np.rint((xs_mm + margin) * s - 0.5).astype(np.intp), 0, w - 1)
    iy = np.clip(np.rint((ys_mm + margin) * s - 0.5).astype(np.intp), 0, h - 1)
    px = lab[iy, ix].astype(np.float32) * WEIGHTS
    off = np.ones(ix.shape, bool)
    if len(circles_mm):
        discs = np.zeros((h, w), np.uint8)
        for x, y in (circles_mm + margin) * s - 0.5:
            cv2.circle(discs, (round(x), round(y)), round(0.55 * d_mm * s), 1, -1)
        off = discs[iy, ix] == 0
    return px, off


def _median(px: Colours, free: NDArray[np.bool_]) -> tuple[Colours, NDArray[np.bool_]]:
    """Per spot, the median over the points (axis 0) that show their surface there, each
    channel alone; and where enough do. (A point's own value is one of a dozen: an odd
    spot of its own barely moves the median.)"""
    values = np.where(free[..., None], px, np.inf)
    values.sort(axis=0)
    n = free.sum(axis=0)
    lower = np.clip((n - 1) // 2, 0, None)[None, ..., None]
    ref = np.take_along_axis(values, np.broadcast_to(lower, (1, *values.shape[1:])), axis=0)[0]
    return np.where(np.isfinite(ref), ref, np.nan), n >= MIN_REFERENCES + 1


def _nearest(px: Colours, ref: Colours, use: NDArray[np.bool_]) -> Colours:
    """Each sample's (points x along x across) distance to the reference, the reference
    moved by up to a step along (by whole steps) and across (by 1 / `FINE` of a step), one
    move per point: the one its `use`d samples fit best. `ref` reaches a step beyond the
    samples every way and is sampled `FINE` times as densely across (along + 2 x
    FINE * (across + 1) + 1), so that every move has a reference for every sample. (Until
    2026-12-01 it reached no further and moved by whole steps: a move left a column or row
    of samples without one, each counted far off, and a point a step or half a step across
    from its peers, as a calibration a compromise between a board's two halves leaves a
    half's points, kept its triangle's sides unexplained: board_real_dev's test1, eight
    bare points unsure.) A calibration a millimetre or two off moves a triangle's slanted
    side a long way along; it moves the whole point alike, so each spot may not pick its
    own move: a dark checker on a dark triangle would match the triangle a step inward on
    both sides of it."""
    a, c = px.shape[1:3]
    padded = np.ascontiguousarray(np.moveaxis(ref, -1, 0))  # each channel alone: contiguous
    span = FINE * (c - 1) + 1  # the reference's columns from a sample's first to its last
    channels = np.ascontiguousarray(np.moveaxis(px, -1, 0))
    # Every move at once (a few thousand samples each: one operation's overhead, not 45),
    # the channels' squares added in their order.
    moved = np.stack(
        [
            padded[:, da : da + a, dc : dc + span : FINE]
            for da, dc in itertools.product((0, 1, 2), range(2 * FINE + 1))
        ]
    )  # moves x channels x along x across
    diff = channels[None] - moved[:, :, None]  # moves x channels x points x along x across
    diff *= diff
    square = diff[:, 0] + diff[:, 1]
    square += diff[:, 2]
    dist = np.sqrt(square, out=square)  # moves x points x along x across
    # A sample whose moved reference no point shows (NaN: no distance is infinite) counts
    # as far off, so no move wins by leaving the point's odd spots out.
    cost = np.fmin(dist, FAR) * use[None]
    best = cost.sum(axis=(2, 3)).argmin(axis=0)  # per point
    out = dist[best, np.arange(len(best))]
    return np.where(np.isfinite(out), out, np.nan)


BAR_ACROSS = 0.35  # the bar sampled across this share of its width either side of its axis


def bar_unexplained(
    lab: NDArray[np.uint8] | LabView,
    bar_x_mm: tuple[float, float],
    length_mm: float,
    circles_mm: NDArray[np.float64],
    d_mm: float,
    to_px: tuple[float, float],
    step_mm: float,
    tolerance: float,
) -> float:
    """The bar's area (mm^2) beyond its checkers that looks unlike the bar.

    The bar has no peers of its colour to be compared with, as a point has. It is one
    surface along its length, and boards are made symmetric about their middle line: a
    spot is the bar's own where it looks like the bar's median along its length at that
    place across it (light falling off along it counts half), or like the spot mirrored
    across the middle, within a step (a hinge, a print: both made in pairs). A spot whose
    mirror lies under a checker found has only the median to go by. Whatever lies over
    the bar beyond that (a cup, a card, an arm, checkers no ring saw) is counted: checkers
    on the bar are their colour's whichever half they lie in, so the whole bar counts as
    one. `bar_x_mm` is its left and right side; `lab`, `to_px`, `circles_mm` as in
    `unexplained_areas`.
    """
    x0, x1 = bar_x_mm
    along = np.arange(step_mm / 2, length_mm, step_mm)
    across = (x0 + x1) / 2 + np.linspace(-BAR_ACROSS, BAR_ACROSS, COLUMNS) * (x1 - x0)
    xs, ys = np.meshgrid(across, along)  # along x across
    px, free = _sampled(lab, xs, ys, circles_mm, d_mm, to_px)
    if free.sum(axis=0).min() <= MIN_REFERENCES:
        return 0.0  # checkers all along the bar: nothing of it to judge by
    values = np.where(free[..., None], px, np.nan)
    ref = np.nanmedian(values, axis=0)  # per place across, each channel alone
    unlike = np.linalg.norm(px - ref[None], axis=-1) > tolerance
    # The mirror of each spot across the middle (samples run end to end, evenly: row i's
    # mirror is row n-1-i), and the rows a step either side of it: a calibration a
    # millimetre off moves the middle.
    mirror = px[::-1]
    mirror_free = free[::-1]
    pair = np.full(unlike.shape, False)
    for shift in (-1, 0, 1):
        m = np.roll(mirror, shift, axis=0)
        ok = np.roll(mirror_free, shift, axis=0)
        if shift == -1:
            ok[-1] = False
        elif shift == 1:
            ok[0] = False
        pair |= ok & (np.linalg.norm(px - m, axis=-1) <= tolerance)
    odd = free & unlike & ~pair
    return float(odd.sum()) * step_mm * float(across[1] - across[0])
