"""A plain-text board, as seen from white's seat with white's home on the right.

White is `O` and moves from the top right (its 24 point) round to the bottom
right (its 1 point); black is `X`. Points are numbered from white's side.
"""

from __future__ import annotations

from companion.rules.position import BAR, BLACK, OFF, WHITE, Position

_ROWS = 5


def _stack(position: Position, point: int) -> tuple[str, int]:
    """(symbol, count) on white's point `point`."""
    w, b = position.white[point], position.black[25 - point]
    if w:
        return "O", w
    if b:
        return "X", b
    return " ", 0


def _cell(symbol: str, count: int, row: int) -> str:
    if count > _ROWS and row == _ROWS - 1:
        return f"{count:>2} "
    return f" {symbol} " if count > row else "   "


def draw_board(position: Position) -> str:
    top = list(range(13, 19)), list(range(19, 25))
    bottom = list(range(12, 6, -1)), list(range(6, 0, -1))

    def numbers(halves: tuple[list[int], list[int]]) -> str:
        left, right = ("".join(f"{p:>3}" for p in half) for half in halves)
        return f" {left}     {right}"

    def row(halves: tuple[list[int], list[int]], r: int, bar: str) -> str:
        left, right = ("".join(_cell(*_stack(position, p), r) for p in half) for half in halves)
        return f"|{left}|{bar}|{right}|"

    edge = "+" + "-" * 18 + "+---+" + "-" * 18 + "+"
    lines = [numbers(top), edge]
    black_bar, white_bar = position.black[BAR], position.white[BAR]
    for r in range(_ROWS):
        lines.append(row(top, r, f"X{black_bar:>2}" if r == 0 and black_bar else "   "))
    lines.append("|" + " " * 18 + "|BAR|" + " " * 18 + "|")
    for r in reversed(range(_ROWS)):
        lines.append(row(bottom, r, f"O{white_bar:>2}" if r == 0 and white_bar else "   "))
    lines += [edge, numbers(bottom)]
    for color, mark in ((WHITE, "O"), (BLACK, "X")):
        board = position.side(color)
        lines.append(
            f"{color.value.capitalize():5} ({mark}): pips {position.pip_count(color):3}  "
            f"off {board[OFF]:2}  bar {board[BAR]}"
        )
    lines.append(f"{position.turn.value} to move")
    return "\n".join(lines)
