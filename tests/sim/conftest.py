"""What the renderer's tests share: `scripts/dicenet_data.py` loaded as a module, and the
renderer's dice tables put back as they were after each test that registers dice in them."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim import DICE_CLEAR, DICE_STYLES

_SPEC = importlib.util.spec_from_file_location(
    "dicenet_data", Path(__file__).resolve().parents[2] / "scripts" / "dicenet_data.py"
)
assert _SPEC is not None and _SPEC.loader is not None
dicenet_data = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(dicenet_data)


@pytest.fixture
def dice_tables_as_shipped() -> Iterator[None]:
    """The renderer's tables of dice styles (`DICE_STYLES`, `DICE_CLEAR`) as they were:
    training scenes register dice of random colours in them (`random_dice_style`), and
    other tests draw from them."""
    styles, clear = dict(DICE_STYLES), dict(DICE_CLEAR)
    yield
    DICE_STYLES.clear()
    DICE_STYLES.update(styles)
    DICE_CLEAR.clear()
    DICE_CLEAR.update(clear)
