"""What the dice networks' training pastes as "no die here" (`scripts/dicenet_pastes.py`)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.sim.conftest import dicenet_pastes

PPM = 2.0  # the reader's px per mm (72 px over 36 mm)


@pytest.mark.parametrize("maker", dicenet_pastes.MAKERS, ids=lambda m: m.__name__)
def test_each_thing_that_is_no_die_comes_as_a_patch_and_its_alpha(maker: object) -> None:
    for seed in range(20):
        patch, alpha = maker(np.random.default_rng(seed), PPM)  # type: ignore[operator]
        assert patch.dtype == np.uint8 and patch.ndim == 3 and patch.shape[2] == 3
        assert alpha.shape == patch.shape[:2]
        assert float(alpha.min()) >= 0.0 and float(alpha.max()) <= 1.0
        assert float(alpha.max()) > 0.5  # something is drawn


def test_keys_are_rounded_squares_in_a_grid_each_with_a_mark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dicenet_pastes, "_turned", lambda img, alpha, angle: (img, alpha))
    for seed in range(20):
        rng = np.random.default_rng(seed)
        patch, alpha = dicenet_pastes._keys(rng, PPM)
        assert (alpha == 1.0).all()
        ground = patch[0, 0].astype(int)
        # Along the first row of keys, above their marks: caps (unlike the ground) with
        # gaps of the ground between them.
        rows = np.abs(patch.astype(int) - ground).sum(-1) > 40
        across = rows.any(axis=1)
        top = int(np.argmax(across))
        bottom = top + int(np.argmax(~across[top:]))
        line = rows[top + max(1, round(0.08 * (bottom - top)))]
        caps = np.count_nonzero(np.diff(line.astype(int)) == 1) + int(line[0])
        assert 1 <= caps <= 4
        side = bottom - top
        assert 10 * PPM * 0.9 <= side <= 20 * PPM  # about a die's size (12-19 mm)
        # the first cap holds a mark: pixels far from the cap's own colour
        left = int(np.argmax(line))
        cap = patch[top + 2 : bottom - 2, left + 2 : left + side - 2].astype(int).reshape(-1, 3)
        ink = np.abs(cap - np.median(cap, axis=0)).sum(-1) > 90
        assert ink.sum() >= 3
