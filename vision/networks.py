"""The project's small networks (`vision/models/*.onnx`), run by ONNX Runtime on one thread.

The dice detector and reader (`vision.dicenet`) and the strip counter of checkers
(`vision.board_net`) load them here, once per process.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from vision.errors import VisionError

MODELS = Path(__file__).with_name("models")
# A folder of candidate networks to measure (`use_models`, the benchmarks' `--models`): a
# network found there is run instead of the shipped one of the same name.
CANDIDATES: Path | None = None


def use_models(folder: str | Path | None) -> None:
    """Run the networks in `folder` instead of the shipped ones of the same names, those it
    lacks staying the shipped ones (None: the shipped ones only): a candidate measured by
    the benchmarks without copying it over `vision/models`. VisionError (one line) for a
    folder that does not exist or holds no network."""
    global CANDIDATES
    path = None if folder is None else Path(folder)
    if path is not None and (not path.is_dir() or not any(path.glob("*.onnx"))):
        raise VisionError(f"{path}: no folder of networks (*.onnx)")
    CANDIDATES = path
    load_network.cache_clear()


@functools.lru_cache(maxsize=8)
def load_network(name: str) -> Any:
    """The network in `MODELS/name` (or `CANDIDATES/name`, where `use_models` named a folder
    holding it) as an ONNX Runtime session on one thread (a session may
    be run from several threads at once). ONNX Runtime runs these networks 2.5-4 times as
    fast as OpenCV's dnn module. Run in 8 bits (ONNX Runtime's static quantization, per
    channel, calibrated on rendered scenes; tried 2026-11-28, not kept): the strip counter
    took 6.7 ms for 26 strips against 8.9 with the same readings, but the whole checker
    reading only 65.0 against 67.1 ms; the dice reader read the webcam photos with 25
    phantom dice and 4 sure wrong values (17 and 2 in float); the detector ran slower."""
    path = MODELS / name
    if CANDIDATES is not None and (CANDIDATES / name).is_file():
        path = CANDIDATES / name
    if not path.is_file():
        raise VisionError(f"{path}: no such network (its scripts/train_*.py writes it)")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3  # errors only
    opts.enable_mem_pattern = False
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception:  # ONNX Runtime's own exception types are not part of its API
        raise VisionError(f"{path}: not a network ONNX Runtime can run") from None


def run_network(name: str, x: NDArray[np.float32]) -> NDArray[np.float32]:
    """The network's first output for the batch `x`."""
    session = load_network(name)
    out = session.run(None, {session.get_inputs()[0].name: x})[0]
    return np.asarray(out, np.float32)


def softmax(x: NDArray[np.floating]) -> NDArray[np.floating]:
    """Logits to odds along the last axis, in `x`'s own precision."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return np.asarray(e / e.sum(axis=-1, keepdims=True), x.dtype)
