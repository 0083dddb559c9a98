"""Every stage's settings in one frozen value, read from one TOML file (`--settings`).

Each section of the file overrides one stage's defaults:

    [board]    the checker reader (vision.board_settings.BoardSettings)
    [dice]     the dice reader (vision.dice_settings.DiceSettings)
    [motion]   the motion gate (vision.motion.MotionSettings)
    [referee]  reading a play (companion.explain.ExplainSettings)
    [watch]    how the referee watches the frames (companion.referee.WatchSettings)

`companion/settings.toml` lists every key with its default (a test keeps the two
equal). A section or key that does not exist is an error naming it, never ignored.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.explain import ExplainSettings
from companion.referee import WatchSettings
from vision.board_settings import BoardSettings
from vision.dice_settings import DiceSettings
from vision.motion import MotionSettings
from vision.settings import SettingsError, from_table, nearest, read_toml

DEFAULT_PATH = Path(__file__).with_name("settings.toml")


@dataclass(frozen=True)
class Settings:
    board: BoardSettings = field(default_factory=BoardSettings)
    dice: DiceSettings = field(default_factory=DiceSettings)
    motion: MotionSettings = field(default_factory=MotionSettings)
    referee: ExplainSettings = field(default_factory=ExplainSettings)
    watch: WatchSettings = field(default_factory=WatchSettings)

    def referee_options(self) -> dict[str, Any]:
        """The `companion.referee.Referee` keyword arguments these settings give."""
        return {**dataclasses.asdict(self.watch), "explain": self.referee}


SECTIONS: dict[str, type[Any]] = {  # the file's sections: Settings' fields
    "board": BoardSettings,
    "dice": DiceSettings,
    "motion": MotionSettings,
    "referee": ExplainSettings,
    "watch": WatchSettings,
}


def from_document(doc: dict[str, Any], path: str | Path) -> Settings:
    """The settings a TOML document gives; `path` names the file in errors."""
    parts: dict[str, Any] = {}
    for section, table in doc.items():
        if section not in SECTIONS:
            known = ", ".join(f"[{s}]" for s in SECTIONS)
            raise SettingsError(
                f"{path}: unknown section [{section}]{nearest(section, SECTIONS)} "
                f"(sections: {known})"
            )
        if not isinstance(table, dict):
            raise SettingsError(f"{path}: {section} must be a section [{section}], not a value")
        parts[section] = from_table(SECTIONS[section], table, f"{path} [{section}]")
    return Settings(**parts)


def load(path: str | Path | None = None) -> Settings:
    """The defaults, overridden by the file at `path` when given; SettingsError (one line)
    for a file that cannot be read, is not TOML, or names what does not exist."""
    if path is None:
        return Settings()
    return from_document(read_toml(path), path)
