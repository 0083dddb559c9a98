"""The dice reader's named settings (`[net]`: the dice networks'), read from one TOML file.

`vision/dice.toml` holds the defaults. A user's file overrides any of them and
must not name a key that does not exist: a typo would otherwise be ignored and
the run would silently use the default.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

from calibration.jsonin import read_text
from vision.errors import ConfigError

DEFAULT_PATH = Path(__file__).with_name("dice.toml")

Config = dict[str, dict[str, float]]


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text(path))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML ({e})") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise ConfigError(f"{path}: not valid TOML (nested too deeply)") from None
    except ValueError as e:  # int() of a number of over 4,300 digits
        raise ConfigError(f"{path}: not valid TOML ({str(e)[:60]})") from None


def load_config(path: str | Path | None = None) -> Config:
    """The defaults, overridden by the file at `path` when given."""
    base = _read(DEFAULT_PATH)
    config: Config = {s: {k: float(v) for k, v in keys.items()} for s, keys in base.items()}
    if path is None:
        return config
    user = _read(Path(path))
    for section, keys in user.items():
        if section not in config or not isinstance(keys, dict):
            known = ", ".join(f"[{name}]" for name in config)
            raise ConfigError(f"{path}: unknown section [{section}] (known: {known})")
        for key, value in keys.items():
            if key not in config[section]:
                raise ConfigError(f"{path}: unknown key {section}.{key}")
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or abs(value) > 1e9
            ):
                raise ConfigError(
                    f"{path}: {section}.{key} must be a number (|value| <= 1e9), got {value!r}"
                )
            config[section][key] = float(value)
    return config


def config_text(config: Config) -> str:
    """The config as TOML, to be written next to the results it produced."""
    lines = []
    for section, keys in config.items():
        lines.append(f"[{section}]")
        lines.extend(f"{k} = {v:g}" for k, v in keys.items())
        lines.append("")
    return "\n".join(lines)
