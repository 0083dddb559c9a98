"""Shared test settings: deterministic hypothesis runs, paths to fixtures and shared/."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
# shared/ lies beside the checkout (CI clones the repo with shared/ next to it).
SHARED = Path(os.environ.get("BGCOMPANION_SHARED", ROOT.parent / "shared"))

settings.register_profile(
    "default",
    derandomize=True,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
settings.register_profile("thorough", deadline=None, max_examples=2000, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
