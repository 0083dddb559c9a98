"""Which edge is white's seat, and which side is white's home, from the starting position.

Given the playing surface's four corners in any order, try the 8 ways to name
them (4 rotations x white's home right or left). In the starting position 8 of
the 24 points hold checkers at their base (white's 24, 13, 8, 6 and black's,
which are white's 1, 12, 17, 19) and 16 show their bare triangle; white's
checkers are the lighter ones (CONTRACTS.md §1), unless told they are the darker
(`white_is="dark"`, a board whose white player has the dark set). The hypothesis under which
empty points look like their triangles, occupied ones do not, and the light
checkers stand on white's points is the orientation. A board that is not in
the starting position gives no clear winner, and the caller falls back to the
order given and the --white-home flag.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry, clockwise
from calibration.schema import Calibration, CalibrationError, Camera

WHITE_START = (24, 13, 8, 6)
BLACK_START = tuple(25 - p for p in WHITE_START)  # in white's numbering: 1, 12, 17, 19
MM_PER_PX = 2.0
OVERLAP = 7  # of the 8 slots least like their triangles, how many must be the start's


@dataclass(frozen=True)
class Orientation:
    corners: tuple[tuple[float, float], ...]  # far-left, far-right, near-right, near-left
    white_home: str
    score: float  # how well the best hypothesis explains the image
    margin: float  # its lead over the next best hypothesis
    starting_position: bool  # the 8 slots unlike their triangles are exactly the start's

    @property
    def confident(self) -> bool:
        return self.starting_position and self.margin >= 0.3


def _slot_colours(image: NDArray[np.uint8], geo: BoardGeometry) -> NDArray[np.float64]:
    """Mean Lab colour of the first checker slot (at the point's base) of white's points 1..24."""
    import cv2

    view = geo.rectify(image, mm_per_px=MM_PER_PX)
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float64)
    p = geo.point_width_mm
    colours = np.zeros(
        (24, 4)
    )  # mean L, a, b, and twice the spread of L (a checker's rim and rings)
    for n in range(1, 25):
        r = geo.point_rect(n)
        cx = (r.x0 + r.x1) / 2
        cy = r.y0 + 0.5 * p if r.y0 == 0 else r.y1 - 0.5 * p
        half = 0.28 * p
        x0, x1 = int((cx - half) / MM_PER_PX), int((cx + half) / MM_PER_PX)
        y0, y1 = int((cy - half) / MM_PER_PX), int((cy + half) / MM_PER_PX)
        patch = lab[y0:y1, x0:x1].reshape(-1, 3)
        colours[n - 1, :3] = patch.mean(axis=0)
        colours[n - 1, 3] = 2 * patch[:, 0].std()
    return colours


def _score(colours: NDArray[np.float64], white_is: str = "light") -> tuple[float, bool]:
    """How well the slots fit the starting position under one hypothesis (higher is better),
    and whether they fit it exactly; white's checkers the `white_is` ("light", "dark") set."""
    occupied = set(WHITE_START) | set(BLACK_START)
    empty = [n for n in range(1, 25) if n not in occupied]
    triangle = {
        parity: np.median([colours[n - 1] for n in empty if n % 2 == parity], axis=0)
        for parity in (0, 1)
    }
    off = {n: float(np.linalg.norm(colours[n - 1] - triangle[n % 2])) for n in range(1, 25)}
    off_empty = np.mean([off[n] for n in empty])
    off_occupied = np.mean([off[n] for n in occupied])
    spread = np.std(colours, axis=0).mean() + 1e-3
    light = np.mean([colours[n - 1][0] for n in WHITE_START])
    dark = np.mean([colours[n - 1][0] for n in BLACK_START])
    if white_is == "dark":  # white's set is the darker one: lightness counts the other way
        light, dark = dark, light
    # Occupied slots unlike their triangles, empty ones like them, white's checkers lighter.
    score = float((off_occupied - off_empty) / spread + np.clip((light - dark) / spread, -1.0, 1.0))
    most_unlike = set(sorted(off, key=lambda n: -off[n])[:8])
    exact = len(most_unlike & occupied) >= OVERLAP and light - dark > 0.5 * spread
    return score, exact


def orient(
    image: NDArray[np.uint8],
    corners: NDArray[np.float64] | list[tuple[float, float]],
    width_mm: float = 530.0,
    height_mm: float = 440.0,
    bar_width_mm: float = 50.0,
    camera: Camera | None = None,
    white_home: str | None = None,
    white_is: str = "light",
) -> Orientation:
    """The orientation of a board in the starting position, from its corners in any order;
    white's seat is that of the `white_is` ("light" or "dark") set."""
    pts = clockwise(np.asarray(corners, dtype=np.float64).reshape(4, 2))
    size = (image.shape[1], image.shape[0])
    results: list[tuple[float, tuple[tuple[float, float], ...], str, bool]] = []
    problem: CalibrationError | None = None
    for rotation in range(4):
        quad = tuple((float(x), float(y)) for x, y in np.roll(pts, -rotation, axis=0))
        for home in ("right", "left") if white_home is None else (white_home,):
            try:
                cal = Calibration(size, quad, width_mm, height_mm, bar_width_mm, home, camera)  # type: ignore[arg-type]
            except CalibrationError as e:
                problem = e
                continue
            score, exact = _score(_slot_colours(image, BoardGeometry(cal)), white_is)
            results.append((score, quad, home, exact))
    if not results:
        raise problem or CalibrationError("the corners do not make a board outline")
    results.sort(key=lambda r: -r[0])
    best = results[0]
    margin = best[0] - results[1][0] if len(results) > 1 else best[0]
    return Orientation(best[1], best[2], best[0], margin, best[3])
