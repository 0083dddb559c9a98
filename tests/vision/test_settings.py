"""Typed settings from TOML tables: overrides, unknown keys, wrong types, unreadable files."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from vision.board_settings import BoardSettings
from vision.errors import VisionError
from vision.motion import MotionSettings
from vision.settings import SettingsError, from_table, read_toml, toml_table


@dataclass(frozen=True)
class Sample:
    level: float = 1.0
    count: int = 3
    on: bool = False
    name: str = "x"
    pair: tuple[float, float] = (1.0, 2.0)
    steps: tuple[float, ...] = (4.0, 2.0)


def test_a_table_overrides_the_keys_it_names_and_the_rest_keep_their_defaults() -> None:
    s = from_table(Sample, {"level": 2, "steps": [3, 1.5, 0.5], "on": True}, "f.toml [s]")
    assert s == Sample(level=2.0, on=True, steps=(3.0, 1.5, 0.5))
    assert isinstance(s.level, float) and isinstance(s.steps, tuple)
    assert from_table(MotionSettings, {}, "f.toml [motion]") == MotionSettings()


def test_settings_written_as_toml_read_back_equal() -> None:
    odd = Sample(level=0.1 + 0.2, count=-7, on=True, name='a "b"\\ \u00e9\n\x7f', steps=(1e-9,))
    for settings in (Sample(), odd, BoardSettings()):
        text = toml_table("s", settings)
        assert text.startswith("[s]\n") and text.endswith("\n")
        assert from_table(type(settings), tomllib.loads(text)["s"], "f.toml [s]") == settings


def test_an_unknown_key_is_named_with_its_section_file_and_the_nearest_known_name() -> None:
    with pytest.raises(SettingsError) as e:
        from_table(BoardSettings, {"edge_mn": 40.0}, "my.toml [board]")
    assert str(e.value) == "my.toml [board]: unknown key 'edge_mn' (did you mean 'edge_min'?)"
    with pytest.raises(SettingsError) as e:
        from_table(BoardSettings, {"zzz": 1}, "my.toml [board]")
    assert str(e.value) == "my.toml [board]: unknown key 'zzz'"  # nothing close: no guess
    assert isinstance(e.value, VisionError) and isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"level": "0.5"}, "w: level must be a number, got '0.5'"),
        ({"level": True}, "w: level must be a number, got true"),
        ({"level": float("nan")}, "w: level must be a number of at most 1e+09, got nan"),
        ({"level": 1e300}, "w: level must be a number of at most 1e+09"),
        ({"level": {"a": 1}}, "w: level must be a number, got a table"),
        ({"count": 2.5}, "w: count must be a whole number, got 2.5"),
        ({"count": False}, "w: count must be a whole number, got false"),
        ({"on": 1}, "w: on must be true or false, got 1"),
        ({"name": 3}, "w: name must be a string, got 3"),
        ({"pair": [1.0]}, "w: pair must be a list of 2 items, got 1: [1.0]"),
        ({"pair": 1.0}, "w: pair must be a list, got 1.0"),
        ({"steps": []}, "w: steps must be a list of at least one item, got []"),
        ({"steps": [1.0, "2"]}, "w: steps[1] must be a number, got '2'"),
    ],
)
def test_a_value_of_the_wrong_type_is_named_with_the_type_expected(
    table: dict[str, object], message: str
) -> None:
    with pytest.raises(SettingsError) as e:
        from_table(Sample, table, "w")
    assert str(e.value).startswith(message)
    assert "\n" not in str(e.value)


def test_a_long_value_is_cut_short_in_the_message() -> None:
    with pytest.raises(SettingsError) as e:
        from_table(Sample, {"level": "x" * 1000}, "w")
    assert len(str(e.value)) < 100


def test_a_missing_unreadable_or_malformed_file_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"nothing\.toml: no such settings file$"):
        read_toml(tmp_path / "nothing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\nedge_min = 1\n")
    with pytest.raises(SettingsError, match=r"bad\.toml: not valid TOML \(.*line 1"):
        read_toml(bad)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe[board]")
    with pytest.raises(SettingsError, match=r"binary\.toml: cannot read"):
        read_toml(binary)
    with pytest.raises(SettingsError, match="cannot read"):
        read_toml(tmp_path)  # a folder
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000)
    with pytest.raises(SettingsError, match="not valid TOML"):
        read_toml(deep)
    good = tmp_path / "good.toml"
    good.write_text("[motion]\nlevel = 10\n")
    assert read_toml(good) == {"motion": {"level": 10}}


@pytest.mark.parametrize(
    ("cls", "table", "message"),
    [
        (BoardSettings, {"px_per_mm": 0}, "px_per_mm must be from 0.25 to 6, got 0.0"),
        (BoardSettings, {"px_per_mm": 1e6}, "px_per_mm must be from 0.25 to 6, got 1000000.0"),
        (BoardSettings, {"radius_scales": [1.0, -1.0]}, "radius_scales must be from 0.5 to 2"),
        (BoardSettings, {"radius_scales": [1.0]}, "radius_scales must list 2 sizes or more"),
        (BoardSettings, {"fit_tolerance": 0.0}, "fit_tolerance must be from 0.01 to 10"),
        (BoardSettings, {"edge_min": -1.0}, "edge_min must be from 0 to 1e+09, got -1.0"),
        (MotionSettings, {"width": 0}, "width must be from 16 to 4096, got 0"),
        (MotionSettings, {"share": 2.0}, "share must be from 0 to 1, got 2.0"),
    ],
)
def test_a_value_the_stage_cannot_work_with_is_refused_naming_its_limits(
    cls: type[object], table: dict[str, object], message: str
) -> None:
    """Before it divides by zero or asks for a picture of a billion pixels."""
    with pytest.raises(SettingsError) as e:
        from_table(cls, table, "my.toml [s]")
    assert str(e.value).startswith(f"my.toml [s]: {message}")
    with pytest.raises(ValueError, match=re.escape(message.split(",")[0])):
        cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in table.items()})
