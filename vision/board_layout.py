"""Where checkers lie along a point, and the ring a checker's rim makes in the board view.

Checkers lie in a row from the point's edge; past a row's worth they are stacked on
top, each across two below it (the convention `calibration.layout` holds, shared with
the renderer). Each count then leaves its own pattern of fully visible checkers.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from calibration.layout import ROW, stack_layout

FloatImage = NDArray[np.float32]

MAX_CHECKERS = 15
MAX_ROW = 7  # the longest row along a point looked for

__all__ = [
    "MAX_CHECKERS",
    "MAX_ROW",
    "PATTERNS",
    "ROW",
    "ring_kernel",
    "stack_layout",
    "visible_positions",
]


def visible_positions(count: int, row: int) -> list[float]:
    """Where the fully visible checkers of `count` stacked checkers lie (diameters along)."""
    layout = stack_layout(count, row)
    return sorted(
        pos
        for layer, pos in layout
        if not any(up > layer and abs(p - pos) < 0.9 for up, p in layout)
    )


PATTERNS = [visible_positions(k, ROW) for k in range(MAX_CHECKERS + 1)]


def ring_kernel(radius: float, thickness: float = 0.0) -> FloatImage:
    """A ring of `radius` pixels (and at radius +- `thickness`), summing to 1."""
    size = 2 * math.ceil(radius + thickness + 2) + 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    rings = (radius - thickness, radius, radius + thickness) if thickness else (radius,)
    for rr in rings:
        n = max(32, round(2 * math.pi * rr))
        for k in range(n):
            t = 2 * math.pi * k / n
            x, y = c + rr * math.cos(t), c + rr * math.sin(t)
            x0, y0 = math.floor(x), math.floor(y)
            fx, fy = x - x0, y - y0
            kernel[y0, x0] += (1 - fx) * (1 - fy) / n
            kernel[y0, x0 + 1] += fx * (1 - fy) / n
            kernel[y0 + 1, x0] += (1 - fx) * fy / n
            kernel[y0 + 1, x0 + 1] += fx * fy / n
    return np.asarray(kernel / kernel.sum(), dtype=np.float32)
