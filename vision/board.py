"""Reading the checkers: a calibrated camera frame to the contract's position arrays.

The frame is first warped to the board's own top-down view (`s` pixels per
millimetre, lens distortion removed with the same maps), so that every checker is a
circle of one known size and every point is an upright strip. Then, per point:

1. Edges: colour gradient magnitude above a threshold, from the channel that changes
   most (a red checker on a red point still differs from it in another channel, and
   its rim and shadow are dark in all of them).
2. Circles: one convolution of the edge map with a ring of the checker's radius gives,
   at every pixel, the share of a circle there that lies on edges. A checker no other
   one covers scores near 1; a covered one, or the gap between two, far lower. Along
   each point's axis (and a little to either side, for checkers off the axis) the
   local maxima above `circle_min` are the fully visible checkers.
3. Count: checkers lie in a row from the edge and, past a row's worth, are stacked on
   top, each across two below it (`stack_layout`, the convention the renderer and the
   README describe). Each count 0-15 predicts where its fully visible checkers lie;
   the count whose prediction matches the circles found is the reading.
4. Colour: the colour inside every circle found (Lab, median over its middle), split in
   two groups over the whole board (`vision.board_colours`): white's are the lighter
   group (CONTRACTS.md §1), whatever the two colours are. Checkers on the bar are their
   colour's, whichever half of the bar they lie in.

A calibration that learned this board from the starting position (its `appearance`
block, `vision.board_learn`) gives the checkers' size and the two colours from the
first frame on: the group like white's learned colour is white's, light or dark, and a
frame with one colour left is read against the colours learned.

A checker is a rim found all round with one even colour on some ring inside it; a rim
found all round (`rim_sure`) may have a logo, a dished top or marbling inside.

A second opinion (`vision.board_net`): a small network counts the checkers on each
place's strip of the board view. Where it and the rings disagree the place is unsure;
where the network is sure, or the rings were unsure already, or it counts fewer, its
count is read.

Each point's confidence is the least of: how clearly its circles clear the threshold
(and its non-circles stay below it), how well the positions fit the count, and how
clearly its colour is one of the two. The board's confidence is the least of its
points'. Borne-off checkers are not looked for in the trays: each side's off count is
15 less its checkers on the board (more than 15 seen gives confidence 0).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from vision.board_colours import (
    LabView,
    checker_colours,
    known_centres,
    split_colours,
)
from vision.board_found import FoundChecks
from vision.board_layout import (
    MAX_CHECKERS,
    MAX_ROW,
    PATTERNS,
    ROW,
    ring_kernel,
    stack_layout,
    visible_positions,
)
from vision.board_net import StripCounter
from vision.board_opinion import SecondOpinion
from vision.board_paint import SMOOTH_SIGMA, _smoothed_again, paint_over
from vision.board_reading import BoardReading, Found, Place, PlaceReading, counts_check
from vision.board_settings import BoardSettings
from vision.errors import ImageError

__all__ = ["PATTERNS", "ROW", "BoardReader", "BoardReading", "BoardSettings", "PlaceReading"]
__all__ += ["stack_layout", "visible_positions"]  # where checkers lie: vision.board_layout
__all__ += ["paint_over"]  # dice painted out of the view: vision.board_paint

Image = NDArray[np.uint8]
FloatImage = NDArray[np.float32]
RING_ANGLES = 48  # samples round a ring (`BoardReader.oriented`); even
MAP_STEPS = 1 << 16  # the ring kernel's weights, and so the circle map, in steps of 1/this


class BoardReader(FoundChecks, SecondOpinion):
    """Reads positions from frames of one calibrated camera; the warp maps are built once."""

    def __init__(self, geo: BoardGeometry, settings: BoardSettings | None = None) -> None:
        self.geo = geo
        self.s = settings or BoardSettings()
        s = self.s.px_per_mm
        # A margin round the surface, so that rings round the checkers at its edges see
        # the frame beyond them rather than the image's border.
        self.m = m = self.s.margin_mm
        self.size = (round((geo.width_mm + 2 * m) * s), round((geo.height_mm + 2 * m) * s))
        w, h = self.size
        xs, ys = np.meshgrid((np.arange(w) + 0.5) / s - m, (np.arange(h) + 0.5) / s - m)
        raw = geo.mm_to_px(np.stack([xs.ravel(), ys.ravel()], axis=1))
        # In OpenCV's fixed-point form (1/32 px): remapped a quarter faster than floats.
        self.maps = cv2.convertMaps(
            raw[:, 0].reshape(h, w).astype(np.float32),
            raw[:, 1].reshape(h, w).astype(np.float32),
            cv2.CV_16SC2,
        )
        self.places = self._places()
        self._use_share(self.s.checker_share)
        self.counter = StripCounter(geo, s, m) if self.s.net_check else None
        # Checkers' size is this board's: settled on the first frame that shows enough.
        self.size_settled = False
        self.colour_centres: NDArray[np.float64] | None = None
        # ... or learned at calibration, with the two colours and which is white's.
        look = geo.cal.appearance
        self.learned = look is not None
        if look is not None:
            self.keep_size(look.diameter_of_point, look.pitch_of_point)
            self.colour_centres = known_centres(
                look.white.lab + look.white.coloured_lab, look.black.lab + look.black.coloured_lab
            )

    def keep_size(self, share: float, pitch: float | None = None) -> None:
        """Read checkers `share` of a point's width across, `pitch` of it apart in a row,
        from now on: their size settled, not measured again (`_settle_size`)."""
        self._use_share(share, pitch)
        self.size_settled = True

    def _use_share(self, share: float, pitch: float | None = None) -> None:
        """Read checkers `share` of a point's width across, lying `pitch` of it apart in a
        row (their size, unless measured)."""
        self.d_mm = self.geo.point_width_mm * share
        self.pitch_mm = self.geo.point_width_mm * (pitch or share)
        # The edge map is dilated by a pixel: one ring of the middle size finds every size.
        # Its weights in whole steps of 1/MAP_STEPS (each moved by under 8e-6): on the 0/1
        # edge map the correlation is then a whole number of steps (`circle_map`).
        kernel = ring_kernel(self.d_mm / 2 * self.s.px_per_mm)
        self.kernel = np.rint(kernel * np.float32(MAP_STEPS)) * np.float32(1 / MAP_STEPS)
        self._ring_spectrum = self._spectrum(self.kernel)
        self._grids = self._profile_grids()
        # Rows as long as the points allow (five at least: the README's layout).
        half = self.geo.height_mm / 2
        longest = max(ROW, min(MAX_ROW, math.floor(half / self.pitch_mm + 0.05)))
        self.patterns = [
            (k, visible_positions(k, row))
            for row in range(ROW, longest + 1)
            for k in range(MAX_CHECKERS + 1)
        ]

    def _settle_size(
        self, edges: FloatImage, gx: FloatImage, gy: FloatImage, smooth: Image, lab: LabView
    ) -> None:
        """The checkers' size on this board, from the spacing of neighbours in a row: the
        median step between circles found one after the other along a point (touching
        checkers lie a diameter apart; a checker on top lies half one from those below).
        Adopted where it differs clearly from the size assumed; kept once a frame shows
        `size_evidence` neighbours."""
        cmap = self.circle_map(edges)
        steps = []
        for f in self._all_circles(cmap, gx, gy, smooth, lab):
            steps += [b - a for a, b in itertools.pairwise(f.along_d) if 0.6 < b - a < 1.25]
        if len(steps) < self.s.size_evidence:
            return
        self.size_settled = True
        pitch = self.pitch_mm * float(np.median(steps)) / self.geo.point_width_mm
        pitch = max(self.s.checker_share_min, min(1.0, pitch))
        if abs(pitch - self.s.checker_share) > self.s.size_change_min:
            # Checkers as far apart as that are no larger than it: a smaller ring for
            # smaller ones; larger steps are gaps, or a calibration's height a little off.
            self._use_share(min(self.s.checker_share, pitch), pitch)

    def _places(self) -> list[Place]:
        geo, out = self.geo, []
        half = geo.height_mm / 2
        for n in range(1, 25):
            r = geo.point_rect(n)
            top = r.y0 == 0
            out.append(
                Place(
                    str(n),
                    (r.x0 + r.x1) / 2,
                    0.0 if top else geo.height_mm,
                    1 if top else -1,
                    half,
                )
            )
        out.append(Place("bar-white", geo.width_mm / 2, half, 1, half))
        out.append(Place("bar-black", geo.width_mm / 2, half, -1, half))
        return out

    # --- stages -------------------------------------------------------------------------
    def rectify(self, image: Image) -> Image:
        if image.ndim != 3 or image.shape[2] != 3:
            raise ImageError("expected a colour image")
        iw, ih = self.geo.cal.image_size
        if (image.shape[1], image.shape[0]) != (iw, ih):
            raise ImageError(
                f"image is {image.shape[1]}x{image.shape[0]} but the calibration is for {iw}x{ih}"
            )
        out = cv2.remap(image, *self.maps, cv2.INTER_LINEAR)
        return np.asarray(out, dtype=np.uint8)

    def edges(self, view: Image) -> tuple[FloatImage, FloatImage, FloatImage]:
        """The gradient (x, y) of the channel that changes most, per pixel; and the edge map."""
        smooth = cv2.GaussianBlur(view, (0, 0), 0.8)
        channels = cv2.split(smooth)
        gx = [cv2.Sobel(c, cv2.CV_32F, 1, 0, ksize=3) for c in channels]
        gy = [cv2.Sobel(c, cv2.CV_32F, 0, 1, ksize=3) for c in channels]
        # The first channel's, replaced where a later one's is strictly larger (in OpenCV's
        # own operations: a third of the time of numpy's, the same values).
        bx, by = gx[0], gy[0]
        bm = cv2.add(cv2.multiply(bx, bx), cv2.multiply(by, by))
        for c in (1, 2):
            mag2 = cv2.add(cv2.multiply(gx[c], gx[c]), cv2.multiply(gy[c], gy[c]))
            more = cv2.compare(mag2, bm, cv2.CMP_GT)
            for best, this in ((bx, gx[c]), (by, gy[c]), (bm, mag2)):
                cv2.copyTo(this, more, best)
        strong = (bm > self.s.edge_min**2).view(np.uint8)
        edges = cv2.dilate(strong, np.ones((3, 3), np.uint8)).astype(np.float32)
        return np.asarray(bx, np.float32), np.asarray(by, np.float32), np.asarray(edges, np.float32)

    def _spectrum(self, kernel: FloatImage) -> FloatImage:
        """The kernel's spectrum (OpenCV's packed real DFT) at the size `circle_map`
        transforms the board view at, turned half a turn: the transform's product is a
        convolution, `filter2D`'s a correlation."""
        w, h = self.size
        kh, kw = kernel.shape
        size = (cv2.getOptimalDFTSize(h + kh - 1), cv2.getOptimalDFTSize(w + kw - 1))
        padded = np.zeros(size, np.float32)
        padded[:kh, :kw] = cv2.flip(kernel, -1)
        return np.asarray(cv2.dft(padded, nonzeroRows=kh), np.float32)

    def circle_map(self, edges: FloatImage) -> FloatImage:
        """At each pixel: how much of a checker-sized ring centred there lies on edges.

        The correlation `cv2.filter2D(edges, CV_64F, self.kernel, borderType=BORDER_CONSTANT)`
        computes, exactly (see below), by the transform with the kernel's spectrum made once per
        checker size: filter2D transforms its kernel again on every call (4 of its 11 ms
        on a 1920x1080 frame's view)."""
        h, w = edges.shape
        kh = self.kernel.shape[0]
        dh, dw = self._ring_spectrum.shape
        padded = cv2.copyMakeBorder(edges, 0, dh - h, 0, dw - w, cv2.BORDER_CONSTANT, value=0)
        # Whole transforms both ways: OpenCV's `nonzeroRows` (rows known zero, or rows not
        # needed) leaves its fast path, 4.5 and 5.2 ms against 1.2 and 1.5 ms at this size.
        product = cv2.mulSpectrums(cv2.dft(padded), self._ring_spectrum, 0)
        c = kh // 2
        full = cv2.idft(product, flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
        # The kernel's weights are whole steps of 1/MAP_STEPS and the edges 0 or 1, so the
        # correlation is a whole number of steps: rounded to it, the map is exact. The
        # transform's own rounding (under 0.03 of a step on rendered boards' views) differs
        # between OpenCV's paths and builds; left in, it decided between places a ring fits
        # exactly as well (test10's bar turned on it when the transforms were made whole).
        out = np.rint(full[c : c + h, c : c + w] * np.float32(MAP_STEPS))
        out *= np.float32(1 / MAP_STEPS)
        return np.ascontiguousarray(out, dtype=np.float32)

    def _profile_grids(self) -> list[tuple[list[int], NDArray[np.intp], NDArray[np.float64]]]:
        """Where each place's ring profile is read (`profiles`), built once per checker size:
        per group of places searched equally wide, their indices, the flat index in the
        board view of every (place, step along, offset across) and the x (mm) of each
        offset."""
        s = self.s.px_per_mm
        w, h = self.size
        groups: dict[
            tuple[int, int], tuple[list[int], list[NDArray[np.intp]], list[NDArray[np.float64]]]
        ] = {}
        for n, place in enumerate(self.places):
            steps = np.arange(0, place.length_mm * s) / s  # mm along
            lateral = self.s.lateral_share * self.geo.point_width_mm
            if place.name.startswith("bar"):
                # A checker wider than the bar hangs over its sides, one way or the other.
                lateral += max(0.0, (self.d_mm - self.geo.cal.bar_width_mm) / 2)
            offsets = np.arange(-lateral, lateral + 1e-9, 1 / s)
            xs = place.x_mm + offsets
            ys = place.origin_mm + place.sign * steps
            ix = np.clip(np.rint((xs + self.m) * s - 0.5).astype(np.intp), 0, w - 1)
            iy = np.clip(np.rint((ys + self.m) * s - 0.5).astype(np.intp), 0, h - 1)
            names, flat, across = groups.setdefault((len(steps), len(offsets)), ([], [], []))
            names.append(n)
            flat.append(iy[:, None] * w + ix[None, :])
            across.append(xs)
        return [
            (names, np.stack(flat), np.stack(across)) for names, flat, across in groups.values()
        ]

    def profiles(self, cmap: FloatImage) -> list[tuple[NDArray[np.float64], NDArray[np.float64]]]:
        """Along each place's axis (and a little to either side, for checkers off it), per
        pixel step from its origin: the best circle score, and the x (mm) of it."""
        out: list[tuple[NDArray[np.float64], NDArray[np.float64]]] = [
            (np.empty(0), np.empty(0)) for _ in self.places
        ]
        flat_map = cmap.ravel()
        for names, flat, across in self._grids:
            grid = flat_map[flat]  # places x steps x offsets
            best = grid.argmax(axis=2)
            score = np.take_along_axis(grid, best[..., None], axis=2)[..., 0].astype(np.float64)
            xs = np.take_along_axis(across, best, axis=1)
            for k, n in enumerate(names):
                out[n] = (score[k], xs[k])
        return out

    def _candidates(self, scores: list[NDArray[np.float64]]) -> list[list[int]]:
        """Per profile, its local maxima (over 0.15 checker either way) that may be checkers.

        A flat top gives a run of neighbouring maxima: each run of them a few pixels long
        gives its middle.
        """
        gap = max(1, round(0.15 * self.d_mm * self.s.px_per_mm))
        rows = np.stack(scores).astype(np.float32)  # every profile is as long
        peak = cv2.dilate(rows, np.ones((1, 2 * gap + 1), np.uint8))
        out = []
        for row, top in zip(rows, peak, strict=True):
            runs: list[list[int]] = []
            for i in np.flatnonzero((row >= top) & (row >= self.s.candidate_min)):
                if runs and i - runs[-1][-1] <= 2 and i - runs[-1][0] <= gap:
                    runs[-1].append(int(i))
                else:
                    runs.append([int(i)])
            out.append([run[len(run) // 2] for run in runs])
        return out

    def oriented(
        self, gx: FloatImage, gy: FloatImage, smooth: Image, centres: NDArray[np.float64]
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The share of a ring round each centre (px) whose edge faces the centre.

        An edge counts where the gradient is strong and points along the radius (within
        about 20 degrees): a checker's rim does all round, the sides of a point's triangle
        or a board edge only where they happen to touch the ring. The centre is refined
        by up to 2 px and the radius over the sizes tried. The score is the lesser of that
        share and the share of a ring inside the rim within `inside_spread` of its median
        colour. Returns scores and centres.
        """
        s = self.s.px_per_mm
        t = np.linspace(0, 2 * np.pi, RING_ANGLES, endpoint=False)
        cos, sin = np.cos(t), np.sin(t)
        cos32, sin32 = cos.astype(np.float32), sin.astype(np.float32)  # the gradients' own
        radii = np.array([self.d_mm / 2 * f * s for f in self.s.radius_scales])
        rr = (
            radii[None, None, :, None, None] + np.array([-1.0, 0.0, 1.0])[None, None, None, :, None]
        )
        h, w = gx.shape
        # Each gradient sample's x and y side by side (one complex number), gathered by flat
        # index in one go: one memory access, not one per array.
        flat_g = cv2.merge([gx, gy]).view(np.complex64).ravel()

        def shares(
            points: NDArray[np.float64], shifts: NDArray[np.float64], rr: NDArray[np.float64]
        ) -> NDArray[np.float64]:
            """Per point x shift x radius: the share of the ring on edges facing the centre.
            (Shifts of an even number of whole pixels are added to the ring's pixels found
            round the point: the same pixels as rounding each shifted ring, rounding half to
            even, at a ninth of the work.)"""
            even = bool((shifts % 2 == 0).all())
            at = points[:, None, :] + (np.zeros((1, 2)) if even else shifts[None])
            ix = np.rint(at[..., 0, None, None, None] + rr * cos).astype(np.intp)
            iy = np.rint(at[..., 1, None, None, None] + rr * sin).astype(np.intp)
            steps = (shifts if even else np.zeros_like(shifts)).astype(np.intp)
            # Each shifted ring's flat index is the ring's plus the shift's: one addition over
            # all of them. Rings that reach past the view's edge (few: the view has a margin)
            # are clipped to it instead, pixel by pixel.
            dx, dy = steps[:, 0], steps[:, 1]
            flat = (iy * w + ix) + (dy * w + dx)[None, :, None, None, None]
            lo_x, hi_x = ix.min(axis=(1, 2, 3, 4)), ix.max(axis=(1, 2, 3, 4))
            lo_y, hi_y = iy.min(axis=(1, 2, 3, 4)), iy.max(axis=(1, 2, 3, 4))
            out = (lo_x + dx.min() < 0) | (hi_x + dx.max() > w - 1)
            out |= (lo_y + dy.min() < 0) | (hi_y + dy.max() > h - 1)
            if out.any():
                cx = np.clip(ix[out] + dx[None, :, None, None, None], 0, w - 1)
                cy = np.clip(iy[out] + dy[None, :, None, None, None], 0, h - 1)
                flat[out] = cy * w + cx
            g = flat_g.take(flat)
            sx, sy = g.real, g.imag
            # Strong (the radial part over edge_min) and facing (its square over facing_min
            # of the whole's): the radial part's square over the larger of the two bounds,
            # in place (a few hundred thousand samples: each pass counts).
            bound = sx * sx
            bound += sy * sy
            bound *= np.float32(self.s.facing_min)
            np.maximum(bound, np.float32(self.s.edge_min) ** 2, out=bound)
            radial = sx * cos32
            radial += sy * sin32
            radial *= radial
            ok = radial > bound
            return np.asarray(ok.any(axis=-2).mean(axis=-1), np.float64)

        # The best centre within 2 px either way, with the middle size (a thin ring on the
        # coarse steps, one 3 px thick on the last); then the best size there.
        refined = centres.astype(np.float64)
        around = np.array([(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], np.float64)
        for k, step in enumerate(self.s.refine_steps):
            last = k == len(self.s.refine_steps) - 1
            ring = rr[:, :, 1:2] if last else rr[:, :, 1:2, 1:2]
            shifts = step * around
            flat = shares(refined, shifts, ring).reshape(len(centres), -1)  # centres x shifts
            refined = refined + shifts[flat.argmax(axis=1)]
        scores = shares(refined, around[4:5], rr).reshape(len(centres), -1).max(axis=1)
        # Inside the rim a checker is one colour all round; the streaks of a wooden point, or
        # the triangle and the cloth beside it, are not.
        inner = np.array(self.s.inside_radii)[None, :, None] * radii[1]  # 1 x rings x 1
        ix = np.clip(np.rint(refined[:, 0:1, None] + inner * cos).astype(np.intp), 0, w - 1)
        iy = np.clip(np.rint(refined[:, 1:2, None] + inner * sin).astype(np.intp), 0, h - 1)
        at = 3 * (iy * w + ix)
        flat_bgr = smooth.ravel()
        channels = [flat_bgr.take(at + c) for c in range(3)]  # each centres x rings x angles
        grey = np.stack(channels, axis=2)  # ... x 3 x angles, 8 bits
        colours = grey.astype(np.float32)
        # The median over the angles (an even number): the mean of the middle two, found on
        # the 8-bit values (np.median's value, in two thirds of its time).
        half = RING_ANGLES // 2
        middle = np.partition(grey, (half - 1, half), axis=3)[..., half - 1 : half + 1]
        middle = middle.astype(np.float32)
        centre = (middle[..., :1] + middle[..., 1:]) * np.float32(0.5)
        near = np.abs(colours - centre).max(axis=2) <= self.s.inside_spread
        uniform = near.mean(axis=2).max(axis=1)
        patterned = (scores >= self.s.rim_sure) & (uniform >= self.s.inside_min)
        return np.where(patterned, scores, np.minimum(scores, uniform)).astype(np.float64), refined

    def smooth_lab(self, view: Image) -> tuple[Image, LabView]:
        """The board view smoothed, and in OpenCV Lab: what checkers' colours are read in."""
        smooth = np.asarray(cv2.GaussianBlur(view, (0, 0), SMOOTH_SIGMA), np.uint8)
        return smooth, LabView(smooth)

    def colours_at(self, lab: LabView, centres: NDArray[np.float64]) -> list[tuple[float, ...]]:
        """The colour (`checker_colours`) of checkers centred at `centres` (px in the board
        view, n x 2), each from a grid over its middle, all at once."""
        inner = max(1, round(self.d_mm * self.s.px_per_mm * self.s.colour_share / 2))
        grid = np.arange(-inner, inner + 1, 2)
        gx, gy = np.meshgrid(grid, grid)
        at = np.rint(centres).astype(np.intp).reshape(-1, 2)
        ix = np.clip(at[:, 0:1] + gx.ravel(), 0, lab.shape[1] - 1)
        iy = np.clip(at[:, 1:2] + gy.ravel(), 0, lab.shape[0] - 1)
        return checker_colours(lab[iy, ix])

    def to_view(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Board millimetres to pixels of the board view."""
        s = self.s.px_per_mm
        return (x_mm + self.m) * s - 0.5, (y_mm + self.m) * s - 0.5

    def _all_circles(
        self, cmap: FloatImage, gx: FloatImage, gy: FloatImage, smooth: Image, lab: LabView
    ) -> list[Found]:
        """The fully visible checkers along every place, nearest the origin first (the
        candidates of all places judged in one go: one call's overhead, not 26)."""
        s = self.s.px_per_mm
        owner: list[int] = []
        rows: list[tuple[float, float]] = []
        profiles = self.profiles(cmap)
        peaks = self._candidates([score for score, _ in profiles])
        for n, (place, (_, xs), at) in enumerate(zip(self.places, profiles, peaks, strict=True)):
            for i in at:
                owner.append(n)
                y_mm = place.origin_mm + place.sign * i / s  # a pixel step each
                rows.append(((xs[i] + self.m) * s - 0.5, (y_mm + self.m) * s - 0.5))
        found = [Found(place) for place in self.places]
        if not rows:
            return found
        scores, refined = self.oriented(gx, gy, smooth, np.array(rows))
        taken: list[list[float]] = [[] for _ in self.places]  # along, mm
        kept: list[int] = []
        apart = 0.7 * min(self.d_mm, self.pitch_mm)
        # Every centre in mm and every score as Python floats at once: the loop below runs
        # over a few hundred candidates.
        at_mm: list[list[float]] = ((refined + 0.5) / s - self.m).tolist()
        score_of: list[float] = scores.tolist()
        for k in np.argsort(-scores, kind="stable").tolist():
            f = found[owner[k]]
            (x, y), score = at_mm[k], score_of[k]
            along = abs(y - f.place.origin_mm)
            if any(abs(along - a) < apart for a in taken[owner[k]]):
                continue  # the same checker, found again a little further on
            if score < self.s.circle_min:
                f.best_other = max(f.best_other, score)
                continue
            taken[owner[k]].append(along)
            f.circles.append((x, y, score))
            kept.append(k)
        colours = self.colours_at(lab, refined[kept])
        for k, colour in zip(kept, colours, strict=True):
            found[owner[k]].colours.append(colour)
        for f, along_mm in zip(found, taken, strict=True):
            # No two lie closer than `apart`: any sort gives this order.
            order = sorted(range(len(along_mm)), key=along_mm.__getitem__)
            f.circles = [f.circles[i] for i in order]
            f.colours = [f.colours[i] for i in order]
            f.along_d = [along_mm[i] / self.pitch_mm for i in order]
        return found

    def read(self, image: Image, paint: Sequence[tuple[float, float, float]] = ()) -> BoardReading:
        """The checkers of `image`. `paint`: discs (centre x, y and radius, board mm) of
        things that are no checkers (the dice: `vision.frame.FrameReader.board_of`),
        painted over from what lies round them (`paint_over`) in the board view before
        the checkers' colours and the network's counts are read there; the rings are
        found on the view as it is (a checker a die rests on keeps its rim)."""
        t0 = time.perf_counter()
        view = self.rectify(image)
        gx, gy, edges = self.edges(view)
        smooth, lab = self.smooth_lab(view)
        if not self.size_settled:
            self._settle_size(edges, gx, gy, smooth, lab)
        smooth_rings = smooth
        if paint:
            s = self.s.px_per_mm
            discs = [(*self.to_view(x, y), r * s) for x, y, r in paint]
            view = paint_over(view, discs)
            smooth = _smoothed_again(smooth, view, discs)
            lab = LabView(smooth)
        cmap = self.circle_map(edges)
        found = self._all_circles(cmap, gx, gy, smooth_rings, lab)
        found = self._bar_together(self._opposite_once(found))
        odds = None
        if self.counter is not None:  # from the view smoothed above: one blur the fewer
            odds = self.counter.odds(view, (smooth, SMOOTH_SIGMA))
        # The checkers the network will count where the rings saw none are split with the
        # rest: a board whose dark checkers only the network sees shows both colours.
        colours = [c for f in found for c in f.colours] + self._unseen_colours(found, odds, lab)
        split = split_colours(
            np.array(colours, np.float64).reshape(-1, 6),
            self.s.colour_gap_min,
            self.colour_centres,
            self.learned,
        )
        if split.centres is not None and split.confidence >= 1.0:
            # This board's two colours, for frames that show one colour only (late in a
            # bear-off): a gold checker alone is still black's.
            self.colour_centres = split.centres
        white, black = [0] * 26, [0] * 26
        places_out = []
        colour_sure: dict[str, float] = {}  # per place: the colour's part of its confidence
        soft = self.s.circle_soft
        k = 0
        for f in found:
            place = f.place
            n = len(f.circles)
            is_white, sure = split.white[k : k + n], split.sure[k : k + n]
            k += n
            # How clearly the circles clear the threshold, and everything else stays under it.
            clear = [min(1.0, (c[2] - self.s.circle_min) / soft) for c in f.circles]
            clear.append(min(1.0, (self.s.circle_min - f.best_other) / soft))
            if place.name == "bar":
                # Checkers on the bar lie anywhere along it, each one its colour's, whichever
                # half of the bar it lies in.
                n_white = int(is_white.sum())
                for owner, count in (("white", n_white), ("black", n - n_white)):
                    mine = sure[is_white == (owner == "white")]
                    mine_sure = float(mine.min()) if len(mine) else 1.0
                    colour_sure[f"bar-{owner}"] = min(mine_sure, split.confidence if count else 1)
                    conf = min(min(clear), colour_sure[f"bar-{owner}"])
                    circles = [
                        c
                        for c, w in zip(f.circles, is_white, strict=True)
                        if w == (owner == "white")
                    ]
                    (white if owner == "white" else black)[25] += count
                    places_out.append(
                        PlaceReading(
                            f"bar-{owner}", owner if count else None, count, max(0.0, conf), circles
                        )
                    )
                continue
            count, fit_conf = self._count(f.along_d)
            color = None
            color_conf = 1.0
            if count:
                color = "white" if is_white.mean() >= 0.5 else "black"
                color_conf = min(split.confidence, float(sure.min()))
                if is_white.any() and not is_white.all():
                    color_conf = 0.0  # both colours on one point: something is misread
            conf = max(0.0, min(min(clear), fit_conf, color_conf))
            colour_sure[place.name] = color_conf
            if color == "white":
                white[int(place.name)] += count
            elif color == "black":
                black[25 - int(place.name)] += count
            places_out.append(PlaceReading(place.name, color, count, conf, f.circles))
        unexplained, areas = self._surface_check(lab, found, places_out, odds)
        if odds is not None:
            self._second_opinion(
                odds, lab, split, places_out, (white, black), colour_sure, unexplained
            )
        self._at_most_fifteen(found, places_out, white, black)
        counts_check(
            places_out, white, black, areas, unexplained, self.s.unsure_count, self.s.net_sure
        )
        confidence = min(p.confidence for p in places_out)
        for side in (white, black):
            on_board = sum(side[1:])
            if on_board > MAX_CHECKERS:
                confidence = 0.0
            side[0] = max(0, MAX_CHECKERS - on_board)
        elapsed = (time.perf_counter() - t0) * 1000
        return BoardReading(white, black, confidence, places_out, elapsed)

    def _unseen_colours(
        self, found: list[Found], odds: NDArray[np.float64] | None, lab: LabView
    ) -> list[tuple[float, ...]]:
        """The colours where the network's count will be read over rings that saw no
        checker (`_second_opinion`): at the first checker's place of each such point, and
        of each half of the bar where no ring saw a checker on it."""
        if odds is None:
            return []
        counts, sure = odds.argmax(axis=1), odds.max(axis=1) >= self.s.net_sure
        by_name = {f.place.name: f for f in found}
        places = [k for k in range(24) if counts[k] and sure[k] and not by_name[str(k + 1)].circles]
        on_bar = self._bar_unseen([c[1] for c in by_name["bar"].circles], odds)
        places += [k for k, n in zip((24, 25), on_bar, strict=True) if n]
        return [self._first_slot_colour(k, lab) for k in places]

    def checkers(self, reading: BoardReading) -> list[tuple[float, float, str | None]]:
        """Where each checker of a reading lies (board mm) and whose it is: the rings found
        that it counts (`PlaceReading.rings`), and where a place holds more checkers than
        rings were found (those the network counted, ones that lie on one of their
        colour's points), the layout's places for its count (`stack_layout`) that no ring
        found lies over."""
        out: list[tuple[float, float, str | None]] = []
        places = {p.name: p for p in self.places}
        for p in reading.places:
            rings = [(c[0], c[1], p.color) for c in p.rings()]
            out += rings
            if p.count <= len(rings):
                continue
            place = places[p.place]
            for _, along in stack_layout(p.count, ROW):
                y = place.origin_mm + place.sign * along * self.pitch_mm
                if all(math.dist((place.x_mm, y), r[:2]) >= self.d_mm / 2 for r in rings):
                    out.append((place.x_mm, y, p.color))
        return out

    def slot_at(self, k: int, slot: int = 0) -> tuple[float, float]:
        """Where (board view px) the `slot`-th checker (0 the first) of a row along
        `self.places[k]` lies, the row touching its edge at this board's pitch."""
        place = self.places[k]
        return self.to_view(place.x_mm, place.origin_mm + place.sign * (slot + 0.5) * self.pitch_mm)

    def _first_slot_colour(self, k: int, lab: LabView) -> tuple[float, ...]:
        """The colour (`checker_colours`) where the first checker along `self.places[k]`
        lies."""
        return self.colours_at(lab, np.array([self.slot_at(k)], np.float64))[0]
