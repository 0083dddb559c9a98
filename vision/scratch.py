"""Work arrays kept from one frame to the next.

A reading makes dozens of board-sized images (the board view, its blurs, gradients,
transforms). Made afresh each frame, the memory of each is handed back to the system
when it is freed and asked for again on the next frame, a page at a time: on a
1920x1080 frame's view that cost about 17 ms a reading, more than the arithmetic of
some stages. A reader of one camera keeps its work arrays instead: OpenCV writes into
an array given as `dst` when its size and type fit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray


class Scratch:
    """Named work arrays, made on first use and reused while their shape and type stay.

    An array from `get` holds what was last written into it: callers overwrite it. A
    reader's stages share one `Scratch`; what a stage returns from it is valid until the
    same stage runs again (the next frame)."""

    def __init__(self) -> None:
        self._arrays: dict[str, NDArray[Any]] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: DTypeLike) -> NDArray[Any]:
        """The work array `name`, of `shape` and `dtype` (its contents left as they were)."""
        a = self._arrays.get(name)
        if a is None or a.shape != shape or a.dtype != np.dtype(dtype):
            a = self._arrays[name] = np.empty(shape, dtype)
        return a
