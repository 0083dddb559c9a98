"""JSON from outside the program, parsed with bounds: nesting depth and number size.

Python's json module recurses once per level of nesting (100,000 `[` is a
RecursionError) and turns a 5,000-digit number into a ValueError from `int()`.
Every JSON document the command line reads (requests on stdin, calibration and
lens files, labels) goes through `loads`, which refuses both with one line
(`BadJSON`). It lives in `calibration`, the lowest package, so that `vision`
and `companion` can use it too (ARCHITECTURE.md: dependencies point down).
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

MAX_TEXT_BYTES = 16 * 2**20  # a calibration, lens, labels or .mat file is kilobytes
MAX_DEPTH = 32  # no document of ours nests more than a few levels
MAX_NUMBER_CHARS = 40  # a float written in full ("-1.2345678901234567e-300") is 24
# A text without a digit run this long holds no integer longer than MAX_NUMBER_CHARS: it is
# parsed without a Python call per integer (a match record folds thousands of events).
_LONG_DIGITS = re.compile(f"[0-9]{{{MAX_NUMBER_CHARS + 1},}}")


class BadJSON(ValueError):
    """JSON text that is malformed or outside the bounds; the message is one line."""


def _int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise BadJSON(f"JSON number of {len(text)} digits (at most {MAX_NUMBER_CHARS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise BadJSON(f"JSON number of {len(text)} characters (at most {MAX_NUMBER_CHARS})")
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"JSON number {text} is too large")
    return value


def _constant(name: str) -> Any:
    raise BadJSON(f"{name} is not a JSON number")


def _depth(doc: Any) -> int:
    """How deeply `doc` nests (a scalar is 0), walked without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            level += 1
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                break
            stack.extend((v, level) for v in value)
    return deepest


# made once: json.loads with hooks builds a decoder per call
_DECODER = json.JSONDecoder(parse_float=_float, parse_constant=_constant)
_CHECK_INTS = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)


def read_text(path: str | Path, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of a regular file of at most `max_bytes`; OSError otherwise (a
    device such as /dev/zero or a named pipe would be read for ever), UnicodeDecodeError
    for text that is not UTF-8 (a leading byte-order mark is dropped)."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError("not a regular file")
    with open(path, "rb") as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise OSError(f"larger than {max_bytes // 2**20} MB")
    return data.decode("utf-8-sig")


def loads(text: str | bytes) -> Any:
    """The document in `text`; BadJSON (one line) when it is malformed, nests more than
    MAX_DEPTH levels, or holds a number longer than MAX_NUMBER_CHARS or NaN/Infinity."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadJSON(f"malformed JSON: not UTF-8 text (byte {e.start})") from None
    decoder = _CHECK_INTS if _LONG_DIGITS.search(text) else _DECODER
    try:
        doc = decoder.decode(text)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno} column {e.colno}" if e.lineno > 1 else f"column {e.colno}"
        raise BadJSON(f"malformed JSON: {e.msg} at {where}") from None
    except RecursionError:
        raise BadJSON(f"JSON nested more than {MAX_DEPTH} levels deep") from None
    # fewer opening brackets than the bound cannot nest deeper than it: no walk needed
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(doc) > MAX_DEPTH:
        raise BadJSON(f"JSON nested more than {MAX_DEPTH} levels deep")
    return doc
