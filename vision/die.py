"""One die as read: the die type from the camera to the page (standard library only).

`vision.dice` reads them; the referee judges them through the rules
(`companion.rules.roll.DieShown`, which a `DieReading` is); `to_json` is the die of
`read-dice`'s JSON (CONTRACTS.md §4) and of the page's state. Light to import: the
referee's films and tests build dice without loading the networks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DieReading:
    """A die: its top face (None: unreadable), how sure the reader is of it, its centre
    in the camera frame (px), whether it lies flat, its section ("left", "right", "bar",
    "off"; None without a calibration) and whether it rests on a checker."""

    value: int | None
    confidence: float
    center_px: tuple[float, float]
    flat: bool = True
    section: str | None = None
    on_checker: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "confidence": round(self.confidence, 3),
            "center_px": [round(self.center_px[0], 1), round(self.center_px[1], 1)],
            "flat": self.flat,
            "section": self.section,
            "on_checker": self.on_checker,
        }
