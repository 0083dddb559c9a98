"""Typed settings from TOML: a section of a file becomes one frozen dataclass.

Every stage keeps its named thresholds in a frozen dataclass whose defaults are the
tuned values (`vision.board_settings.BoardSettings`, `vision.motion.MotionSettings`,
...). A user's file overrides some of them; a key it names must exist (a typo would
otherwise be ignored and the run would silently use the default) and hold a value of
the field's type. Every error is one line naming the file, the section and the key.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import tomllib
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from calibration.jsonin import read_text
from vision.errors import ConfigError

T = TypeVar("T")

MAX_ABS = 1e9  # no threshold of ours is anywhere near; a larger number is a slip


class SettingsError(ConfigError):
    """A settings file that cannot be read, names a key or section that does not exist,
    or gives a value of the wrong type; the message is one line."""


def read_toml(path: str | Path) -> dict[str, Any]:
    """The document of the TOML file at `path`; SettingsError (one line) if it cannot be
    read or is not valid TOML."""
    try:
        return tomllib.loads(read_text(path))
    except FileNotFoundError:
        raise SettingsError(f"{path}: no such settings file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SettingsError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"{path}: not valid TOML ({e})") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise SettingsError(f"{path}: not valid TOML (nested too deeply)") from None
    except ValueError as e:  # int() of a number of over 4,300 digits
        raise SettingsError(f"{path}: not valid TOML ({str(e)[:60]})") from None


def nearest(name: str, known: typing.Iterable[str]) -> str:
    """' (did you mean X?)' for the known name closest to `name`, or '' if none is close."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def from_table(cls: type[T], table: Mapping[str, Any], where: str) -> T:
    """`cls` (a dataclass) with the defaults overridden by `table`'s keys. `where` names
    the table in errors, e.g. 'my.toml [board]'."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    types_ = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in fields:
            raise SettingsError(f"{where}: unknown key {key!r}{nearest(key, fields)}")
        values[key] = _check(value, types_[key], f"{where}: {key}")
    try:
        return cls(**values)
    except ValueError as e:  # a value outside its limits (`check_limits`)
        raise SettingsError(f"{where}: {e}") from None


def check_limits(
    settings: object,
    limits: Mapping[str, tuple[float, float]],
    others: tuple[float, float] = (0.0, MAX_ABS),
) -> None:
    """ValueError naming the first number of `settings` (a dataclass; each item of a tuple
    field) outside its `limits`, or outside `others` for a field not listed there: for a
    stage's `__post_init__`, so that a value that makes no sense is refused before it
    divides by zero or asks for a picture of a billion pixels."""
    for f in dataclasses.fields(settings):  # type: ignore[arg-type]
        low, high = limits.get(f.name, others)
        value = getattr(settings, f.name)
        for v in value if isinstance(value, tuple) else (value,):
            if isinstance(v, int | float) and not isinstance(v, bool) and not low <= v <= high:
                raise ValueError(f"{f.name} must be from {low:g} to {high:g}, got {v!r}")


def toml_table(section: str, settings: object) -> str:
    """`settings` (a dataclass of numbers, booleans, strings and tuples of them) as the
    TOML section [`section`] that `from_table` reads back equal."""
    lines = [f"[{section}]"]
    for f in dataclasses.fields(settings):  # type: ignore[arg-type]
        lines.append(f"{f.name} = {_toml_value(getattr(settings, f.name))}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)  # a float's repr reads back the same float, and stays a float
    if isinstance(value, str):
        # a TOML basic string: JSON's escapes are TOML's (TOML also escapes DEL)
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"settings of type {type(value)!r} are not supported")  # our mistake


def _check(value: Any, kind: Any, what: str) -> Any:
    """`value` as a `kind` (float, int, bool, str, or a tuple of them); SettingsError else."""
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettingsError(f"{what} must be a number, got {_shown(value)}")
        if not math.isfinite(value) or abs(value) > MAX_ABS:
            raise SettingsError(f"{what} must be a number of at most {MAX_ABS:g}, got {value!r}")
        return float(value)
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"{what} must be a whole number, got {_shown(value)}")
        if abs(value) > MAX_ABS:
            raise SettingsError(f"{what} must be a number of at most {MAX_ABS:g}, got {value!r}")
        return value
    if kind is bool:
        if not isinstance(value, bool):
            raise SettingsError(f"{what} must be true or false, got {_shown(value)}")
        return value
    if kind is str:
        if not isinstance(value, str):
            raise SettingsError(f"{what} must be a string, got {_shown(value)}")
        return value
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        any_length = len(args) == 2 and args[1] is Ellipsis
        if not isinstance(value, list):
            raise SettingsError(f"{what} must be a list, got {_shown(value)}")
        if any_length and not value:
            raise SettingsError(f"{what} must be a list of at least one item, got []")
        if not any_length and len(value) != len(args):
            raise SettingsError(
                f"{what} must be a list of {len(args)} items, got {len(value)}: {_shown(value)}"
            )
        items = [args[0]] * len(value) if any_length else list(args)
        return tuple(
            _check(v, k, f"{what}[{i}]") for i, (v, k) in enumerate(zip(value, items, strict=True))
        )
    raise TypeError(f"{what}: settings of type {kind!r} are not supported")  # our mistake


def _shown(value: Any) -> str:
    """The value as the user wrote it, roughly, and never more than a line's worth."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, dict):
        text = "a table"
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
