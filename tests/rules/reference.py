"""A deliberately naive legal-play generator, written independently of companion.rules.position.

It tries every order of the dice and every checker, with no pruning and no
canonical ordering, so that the fast generator can be checked against it.
"""

from __future__ import annotations

from itertools import permutations

Board = tuple[int, ...]


def _can_move(me: list[int], opp: list[int], src: int, die: int) -> int | None:
    """Destination of one checker from src with die (0 = off), or None."""
    if me[src] == 0:
        return None
    if me[25] > 0 and src != 25:
        return None
    dst = src - die
    if dst >= 1:
        return dst if opp[25 - dst] < 2 else None
    if any(me[i] for i in range(7, 26)):
        return None
    if dst == 0:
        return 0
    return 0 if not any(me[i] for i in range(src + 1, 7)) else None


def _walk(me: list[int], opp: list[int], dice: list[int], used: list[int], out: list) -> None:
    if dice:
        die = dice[0]
        moved = False
        for src in range(25, 0, -1):
            dst = _can_move(me, opp, src, die)
            if dst is None:
                continue
            moved = True
            m, o = list(me), list(opp)
            m[src] -= 1
            m[dst] += 1
            if dst and o[25 - dst] == 1:
                o[25 - dst] = 0
                o[25] += 1
            _walk(m, o, dice[1:], [*used, die], out)
        if moved:
            return
    out.append((tuple(me), tuple(opp), tuple(used)))


def reference_plays(
    mover: Board, other: Board, dice: tuple[int, int]
) -> tuple[set[tuple[Board, Board]], int]:
    """Every legal resulting (mover, other) pair, and how many dice they use, by brute force."""
    d1, d2 = dice
    orders = [[d1] * 4] if d1 == d2 else [list(p) for p in permutations((d1, d2))]
    leaves: list = []
    for order in orders:
        _walk(list(mover), list(other), order, [], leaves)
    most = max(len(used) for _, _, used in leaves)
    best = [leaf for leaf in leaves if len(leaf[2]) == most]
    if d1 != d2 and most == 1:
        larger = [leaf for leaf in best if leaf[2][0] == max(d1, d2)]
        best = larger or best
    return {(m, o) for m, o, _ in best}, most
