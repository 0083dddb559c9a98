"""What the renderer's tests share: `scripts/dicenet_data.py`, `dicenet_pastes.py` and
`dicenet_solid.py` loaded as modules, and the renderer's dice tables put back as they were
after each test that registers dice in them."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from sim import DICE_CLEAR, DICE_STYLES


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        name, Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dicenet_data = _script("dicenet_data")
dicenet_pastes = _script("dicenet_pastes")  # what the training pastes (cv2 and numpy only)
dicenet_solid = _script("dicenet_solid")  # dice drawn as solid cubes, pasted too


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
