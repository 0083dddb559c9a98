"""Candidate networks measured in place of the shipped ones (`vision.networks.use_models`,
the benchmarks' `--models DIR`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import vision.networks
from vision.errors import VisionError
from vision.networks import MODELS, run_network, use_models


@pytest.fixture
def shipped_after() -> Iterator[None]:
    yield
    use_models(None)


def _reader_input() -> np.ndarray:
    """One reader's square (the detector, a candidate below, takes one view at a time)."""
    return np.random.default_rng(0).uniform(-0.5, 0.5, (1, 3, 72, 72)).astype(np.float32)


def test_a_candidate_network_runs_instead_of_the_shipped_one_of_its_name(
    tmp_path: Path, shipped_after: None
) -> None:
    x = _reader_input()
    assert run_network("dice_reader.onnx", x).shape == (1, 12)  # the shipped reader's outputs
    # A candidate under the reader's name: here the detector, whose outputs are a heat map.
    shutil.copy(MODELS / "dice_detector.onnx", tmp_path / "dice_reader.onnx")
    use_models(tmp_path)
    assert run_network("dice_reader.onnx", x).shape == (1, 3, 9, 9)
    # a network the folder lacks stays the shipped one
    assert run_network("checker_count.onnx", _strips()).shape[0] == 1
    use_models(None)
    assert run_network("dice_reader.onnx", x).shape == (1, 12)


def _strips() -> np.ndarray:
    session = vision.networks.load_network("checker_count.onnx")
    shape = [d if isinstance(d, int) else 1 for d in session.get_inputs()[0].shape]
    return np.zeros(shape, np.float32)


def test_the_same_networks_copied_read_the_same(tmp_path: Path, shipped_after: None) -> None:
    shutil.copy(MODELS / "dice_reader.onnx", tmp_path)
    x = _reader_input()
    shipped = run_network("dice_reader.onnx", x)
    use_models(tmp_path)
    assert np.array_equal(run_network("dice_reader.onnx", x), shipped)


def test_a_folder_without_networks_is_a_one_line_error(tmp_path: Path) -> None:
    for folder in (tmp_path, tmp_path / "missing"):
        with pytest.raises(VisionError, match="no folder of networks"):
            use_models(folder)
    assert vision.networks.CANDIDATES is None
