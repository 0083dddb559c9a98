"""How checkers lie along a point: the convention the renderer draws and the reader expects.

Checkers lie in a row from the point's edge; past a row's worth they are stacked on
top, each across two below it. Both `sim` (which draws boards) and `vision` (which
reads them) take the convention from here, so that they cannot drift apart.
"""

from __future__ import annotations

ROW = 5  # checkers in a row along a point before the next ones are stacked on top


def stack_layout(count: int, row: int) -> list[tuple[int, float]]:
    """(layer, position along the point in checker diameters) of each of `count` checkers.

    A row of `row` from the edge (centres 0.5, 1.5, ...), then each layer on top of the
    one below, every checker across two below it.
    """
    return [(k // row, 0.5 + k % row + 0.5 * (k // row)) for k in range(count)]
