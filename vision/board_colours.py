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
    lab = np.asarray(lab, np.float64)
    x = _weighted(lab)
    odd = _unlike_both(x, lab[:, 0], gap_min)
    if not odd.any():
        return _split(lab, x, gap_min, known, by_known)
    # Colours unlike both sets (rings found on a sleeve, a cup): the sets are split
    # without them, and each is given to the nearer set's centre, unsure.
    inner = _split(lab[~odd], x[~odd], gap_min, known, by_known)
    white, sure = np.zeros(n, bool), np.zeros(n)
    white[~odd], sure[~odd] = inner.white, inner.sure
    if inner.centres is not None:
        near = np.linalg.norm(x[odd][:, None, :] - inner.centres[None], axis=2)
        white[odd] = near.argmin(axis=1) == 0
    else:
        white[odd] = bool(inner.white.mean() >= 0.5)
    return ColourSplit(white, sure, inner.confidence, inner.centres)


def _means(
    x: NDArray[np.float64], centres: NDArray[np.float64]
) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """k-means of `x` from `centres` (k x d), up to `ROUNDS` rounds or until a group is
    left empty: each colour's group and the centres. Once a round leaves every group as
    it was, the rounds after it would repeat it exactly: they are not run."""
    group = np.linalg.norm(x[:, None, :] - centres[None], axis=2).argmin(axis=1)
    for _ in range(ROUNDS):
        if len(np.unique(group)) < len(centres):
            break
        centres = np.stack([x[group == k].mean(axis=0) for k in range(len(centres))])
        before, group = group, np.linalg.norm(x[:, None, :] - centres[None], axis=2).argmin(axis=1)
        if np.array_equal(group, before):
            break
    return group, centres


def _farthest_pair(x: NDArray[np.float64], lightness: NDArray[np.float64]) -> NDArray[np.float64]:
    """Two starting centres: the darkest colour and the one farthest from it."""
    a = x[int(np.argmin(lightness))]
    return np.stack([a, x[int(np.argmax(np.linalg.norm(x - a, axis=1)))]])


def _unlike_both(
    x: NDArray[np.float64], lightness: NDArray[np.float64], gap_min: float
) -> NDArray[np.bool_]:
    """Which of the (weighted) colours `x` are unlike both checker sets. They are put in
    three groups: 2-means, then either group split in two by 2-means again and the
    three refined by 3-means, whichever three lie tighter round their centres. A group
    farther from each of the other two than those two lie apart (at least `gap_min`: two
    sets), and no larger than either, is unlike both. 2-means alone gives such a group one
    of the two: a ring found on a purple sleeve over a board took one group by itself,
    the cream and dark checkers the other, read as one colour, surely; four on a green
    sleeve did so on an ivory and brown board (`benchmarks/occlusion.py`). Of two such
    groups, the one whose removal leaves the sets farthest apart."""
    none = np.zeros(len(x), bool)
    if len(x) < 4:
        return none
    two, _ = _means(x, _farthest_pair(x, lightness))
    best: tuple[float, NDArray[np.intp], NDArray[np.float64]] | None = None
    for g in (0, 1):
        mine = two == g
        if mine.sum() < 2 or mine.all():
            continue
        sub, sub_centres = _means(x[mine], _farthest_pair(x[mine], lightness[mine]))
        if len(np.unique(sub)) < 2:
            continue
        group, centres = _means(x, np.concatenate([x[~mine].mean(axis=0)[None], sub_centres]))
        if len(np.unique(group)) < 3:
            continue
        spread = float((np.linalg.norm(x - centres[group], axis=1) ** 2).sum())
        if best is None or spread < best[0]:
            best = (spread, group, centres)
    if best is None:
        return none
    _, group, centres = best
    sizes = np.bincount(group, minlength=3)
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    odd, apart = -1, 0.0
    for k in range(3):
        i, j = (m for m in range(3) if m != k)
        if (
            min(d[k, i], d[k, j]) > d[i, j] >= gap_min
            and sizes[k] <= min(sizes[i], sizes[j])
            and d[i, j] > apart
        ):
            odd, apart = k, float(d[i, j])
    return group == odd if odd >= 0 else none


def _split(
    lab: NDArray[np.float64],
    x: NDArray[np.float64],
    gap_min: float,
    known: NDArray[np.float64] | None,
    by_known: bool,
) -> ColourSplit:
    """`split_colours` of colours all like one of the two sets (`x`: `lab` weighted)."""
    n = len(lab)
    # Start from the darkest checker and the one farthest from it.
    _, centres = _means(x, _farthest_pair(x, lab[:, 0]))
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


def colour_where_none_found(
    lab: NDArray[np.float64], gap_min: float, known: NDArray[np.float64] | None
) -> ColourSplit:
    """Whose set each colour is (n x 3k, as `split_colours` takes them) where no ring was
    found (the first checker's place of a count only the strip network gives): the
    nearer of the board's two sets (`known`, weighted; without them as `split_colours`
    reads one colour), and how sure: how much nearer it is, and how near at all. A
    colour on the line between the two is sure (0.5) to 3/8 of the way across; one as
    far off to the side is as unsure. There no ring vouches for a checker: the mustard
    of a sleeve over a point, the grey of a white checker in an arm's shadow, lay 2/3 to
    3/4 of the gap from the nearer set and far farther from the other, and were read as
    that set's, surely (`benchmarks/occlusion.py`). A checker a ring found keeps
    `split_colours`'s sureness: sets spread wide (marbled gold, one in shade) lie that far
    from their centre too."""
    lab = np.asarray(lab, np.float64)
    if known is None:
        return split_colours(lab, gap_min)
    x = _weighted(lab)
    one = _nearest_of(x, known, gap_min)
    near = np.linalg.norm(x - known[np.where(one.white, 0, 1)], axis=1)
    gap = float(np.linalg.norm(known[0] - known[1]))
    sure = np.clip(np.minimum(one.sure, 2.0 - 4.0 * near / gap), 0.0, 1.0)
    return ColourSplit(one.white, sure, one.confidence)
