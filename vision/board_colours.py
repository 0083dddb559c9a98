"""The two checker colours of a board, found on the board itself.

Boards come with white and black checkers, but also red and black, gold and white,
ivory and brown, marbled ones, rimmed ones, ones with logos. Rather than expect light
and dark, the colours inside every checker found are split in two groups in Lab
(2-means); white's are the lighter group (CONTRACTS.md §1: white has the light
checkers). Each checker's confidence is how clearly it lies nearer its own group's
centre than the other's. A board whose colours were learned at calibration
(`vision.board_learn`) names the groups by those colours instead: white's may be the
darker set there.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

LIGHTNESS_WEIGHT = 0.6  # light falls off across a board: lightness counts less than hue
ROUNDS = 10
# One colour on a board never seen with two: light or dark says little when checkers
# come in any colours (gold is light and black's), so the reading asks to be checked.
ONE_COLOUR_SURE = 0.45
COLOURED_SHARE = 25.0  # percent of a checker's middle taken as its most coloured part


class LabView:
    """A (smoothed) BGR board view in OpenCV Lab, converted only where it is looked at: a
    reading samples a few thousand of its pixels, and converting all of a 1920x1080
    frame's view took 3 ms. `view[iy, ix]` gives what `cv2.cvtColor(bgr,
    COLOR_BGR2LAB)[iy, ix]` gives (the conversion is pixel by pixel)."""

    def __init__(self, bgr: NDArray[np.uint8]) -> None:
        self.bgr = bgr
        self.shape = bgr.shape

    def __getitem__(self, at: tuple[NDArray[np.intp], NDArray[np.intp]]) -> NDArray[np.uint8]:
        px = self.bgr[at]
        if not px.size:
            return np.asarray(px, np.uint8)
        lab = cv2.cvtColor(np.ascontiguousarray(px.reshape(-1, 1, 3)), cv2.COLOR_BGR2LAB)
        return np.asarray(lab, np.uint8).reshape(px.shape)


@dataclass(frozen=True)
class ColourSplit:
    """Which group each checker's colour is in, and how sure."""

    white: NDArray[np.bool_]  # per checker: in white's group
    sure: NDArray[np.float64]  # per checker, 0-1
    confidence: float  # of the split as a whole: the groups' separation, 0-1
    centres: NDArray[np.float64] | None = None  # white's and black's (weighted), if two


def checker_colours(samples: NDArray[np.uint8]) -> list[tuple[float, ...]]:
    """Each checker's colour from OpenCV Lab samples of its middle (checkers x samples x
    3): the median (L* 0-100, a*, b*) of all its samples and of its most coloured quarter.
    Marbled and printed tops mix two colours; their most coloured part is the checker's
    own, where a plain top's median already is.
    """
    if not samples.size:
        return []
    px = samples.astype(np.float64) - np.array([0.0, 128.0, 128.0])
    px[..., 0] *= 100 / 255
    chroma = np.hypot(px[..., 1], px[..., 2])
    cut = np.percentile(chroma, 100 - COLOURED_SHARE, axis=1, keepdims=True)
    whole = np.median(px, axis=1)
    # The most coloured samples' median, each channel alone (numpy's nanmedian, by sorting
    # the rest past them: the same values in a third of the time). Never empty: the cut
    # is one of the samples.
    chosen = chroma >= cut
    coloured = np.where(chosen[..., None], px, np.inf)
    coloured.sort(axis=1)
    n = chosen.sum(axis=1)
    middle = [
        np.take_along_axis(coloured, np.broadcast_to(at[:, None, None], (len(n), 1, 3)), axis=1)
        for at in ((n - 1) // 2, n // 2)
    ]
    part = (middle[0] + middle[1])[:, 0] / 2
    return [tuple(row) for row in np.concatenate([whole, part], axis=1).tolist()]


def _weighted(lab: NDArray[np.float64]) -> NDArray[np.float64]:
    w = np.tile([LIGHTNESS_WEIGHT, 1.0, 1.0], lab.shape[1] // 3)
    return np.asarray(lab * w / np.sqrt(lab.shape[1] // 3), np.float64)


def known_centres(white: tuple[float, ...], black: tuple[float, ...]) -> NDArray[np.float64]:
    """White's and black's colours (as `checker_colours` gives them) as `split_colours`
    takes them for `known`."""
    return _weighted(np.array([white, black], np.float64))


def split_colours(
    lab: NDArray[np.float64],
    gap_min: float,
    known: NDArray[np.float64] | None = None,
    by_known: bool = False,
) -> ColourSplit:
    """The checkers' colours (n x 3k: k Lab triples each, L* 0-100, a*, b*, as
    `checker_colour` gives) in two groups, lighter (first L*) = white; with `by_known`,
    the group nearer `known`'s first centre (white's, learned for this board) = white.

    Groups nearer each other than `gap_min` (weighted Lab) are one colour: then, with
    `known` centres (white's and black's, from an earlier split of this board), each
    checker is the nearer one's; without, all are white or all black by lightness
    against mid-grey, and unsure.
    """
    n = len(lab)
    if n == 0:
        return ColourSplit(np.zeros(0, bool), np.zeros(0), 1.0)
    x = _weighted(np.asarray(lab, np.float64))
    # Start from the darkest checker and the one farthest from it.
    a = x[int(np.argmin(lab[:, 0]))]
    b = x[int(np.argmax(np.linalg.norm(x - a, axis=1)))]
    centres = np.stack([a, b])
    group = np.zeros(n, int)
    for _ in range(ROUNDS):
        dist = np.linalg.norm(x[:, None, :] - centres[None, :, :], axis=2)
        group = dist.argmin(axis=1)
        if (group == 0).all() or (group == 1).all():
            break
        centres = np.stack([x[group == k].mean(axis=0) for k in (0, 1)])
    dist = np.linalg.norm(x[:, None, :] - centres[None, :, :], axis=2)
    group = dist.argmin(axis=1)
    gap = float(np.linalg.norm(centres[0] - centres[1]))
    if gap < gap_min or (group == 0).all() or (group == 1).all():
        if known is not None:
            return _nearest_of(x, known, gap_min)
        m = float(np.median(lab[:, 0]))
        sure = min(ONE_COLOUR_SURE, abs(m - 50.0) / 25.0)
        return ColourSplit(np.full(n, m >= 50.0), np.full(n, sure), sure)
    whites = int(np.argmax([lab[group == k, 0].mean() for k in (0, 1)]))  # the lighter
    if by_known and known is not None:
        straight = np.linalg.norm(centres - known, axis=1).sum()
        crossed = np.linalg.norm(centres - known[::-1], axis=1).sum()
        whites = 0 if straight <= crossed else 1  # the one like white's, light or dark
    near = dist[np.arange(n), group]
    far = dist[np.arange(n), 1 - group]
    sure = np.clip(2.0 * (far - near) / gap, 0.0, 1.0)
    confidence = min(1.0, gap / (1.5 * gap_min))
    return ColourSplit(group == whites, sure, confidence, centres[[whites, 1 - whites]])


def _nearest_of(x: NDArray[np.float64], known: NDArray[np.float64], gap_min: float) -> ColourSplit:
    """Each checker (weighted) given to the nearer of two known centres, white's first."""
    n = len(x)
    dist = np.linalg.norm(x[:, None, :] - known[None, :, :], axis=2)
    group = dist.argmin(axis=1)
    gap = float(np.linalg.norm(known[0] - known[1]))
    near = dist[np.arange(n), group]
    far = dist[np.arange(n), 1 - group]
    sure = np.clip(2.0 * (far - near) / gap, 0.0, 1.0)
    return ColourSplit(group == 0, sure, min(1.0, gap / (1.5 * gap_min)))
