"""Fixtures: a cube unit, either the real firmware in simavr or the emulator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import pytest

from companion.link.emulator import Emulator
from companion.link.simunit import SimUnit


class Unit(Protocol):
    port: str

    def display(self) -> str: ...
    def leds(self) -> set[str]: ...
    def wait_display(self, text: str, timeout: float = 2.0) -> bool: ...
    def press(self, player: str, button: str) -> None: ...
    def reset(self) -> None: ...


@pytest.fixture(params=["firmware", "emulator"])
def unit(request: pytest.FixtureRequest) -> Iterator[Unit]:
    """The same checks run against the firmware in simavr and against the emulator."""
    made: SimUnit | Emulator = SimUnit() if request.param == "firmware" else Emulator()
    with made:
        yield made


@pytest.fixture
def firmware() -> Iterator[SimUnit]:
    with SimUnit() as sim:
        yield sim
