"""The dependency direction of ARCHITECTURE.md, checked by importing in a clean subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def loaded_modules(module: str) -> set[str]:
    code = f"import json, sys; import {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def test_rules_import_only_the_standard_library() -> None:
    modules = loaded_modules("companion.rules")
    stdlib = set(sys.stdlib_module_names)
    foreign = {
        m
        for m in modules
        if m.split(".")[0] not in stdlib
        and not m.startswith("companion.rules")
        and m not in {"companion", "__main__", "_distutils_hack", "sitecustomize", "usercustomize"}
        and not m.startswith("_")
    }
    assert foreign == set()
    assert not any(
        m.startswith("companion.") and not m.startswith("companion.rules") for m in modules
    )


@pytest.mark.parametrize(
    "module",
    [
        "vision",
        "vision.overlay",
        "vision.board",
        "vision.motion",
        "calibration",
        "calibration.refine",
        "calibration.orient",
        "calibration.lens",
        "calibration.overlay",
        "calibration.detect",
        "calibration.markers",
        "calibration.imageio",
        "calibration.jsonin",
    ],
)
def test_vision_and_calibration_never_import_companion_flask_or_serial(module: str) -> None:
    modules = loaded_modules(module)
    for forbidden in ("companion", "flask", "serial"):
        assert not any(m == forbidden or m.startswith(forbidden + ".") for m in modules)


@pytest.mark.parametrize(
    "module",
    [
        "vision",
        "vision.board",
        "vision.dice",
        "vision.dicenet",
        "vision.evaluate",
        "vision.overlay",
        "vision.motion",
        "calibration",
        "calibration.layout",
    ],
)
def test_vision_and_calibration_never_import_the_renderer(module: str) -> None:
    """The readers are measured against `sim`'s scenes: they must not share its code."""
    assert not any(m == "sim" or m.startswith("sim.") for m in loaded_modules(module))


@pytest.mark.parametrize("module", ["sim", "sim.scene", "sim.renderer", "sim.rolls", "sim.films"])
def test_the_renderer_never_imports_the_readers(module: str) -> None:
    """`sim` draws what `vision` reads: it stands on calibration and the rules alone, so a
    reader's assumption cannot leak into the labels it is tested against."""
    modules = loaded_modules(module)
    for forbidden in ("vision", "flask", "serial", "onnxruntime"):
        assert not any(m == forbidden or m.startswith(forbidden + ".") for m in modules), forbidden
    beyond_rules = {
        m for m in modules if m.startswith("companion.") and not m.startswith("companion.rules")
    }
    assert beyond_rules == set()


@pytest.mark.parametrize(
    "module",
    [
        "calibration.refine",
        "calibration.orient",
        "calibration.lens",
        "calibration.detect",
        "calibration.markers",
    ],
)
def test_calibration_does_not_import_vision(module: str) -> None:
    assert not any(m == "vision" or m.startswith("vision.") for m in loaded_modules(module))


@pytest.mark.parametrize("module", ["companion.link.protocol", "companion.link.codes"])
def test_link_protocol_is_pure(module: str) -> None:
    """Encode/parse needs no serial port, no vision and no web framework."""
    modules = loaded_modules(module)
    for forbidden in ("serial", "vision", "flask", "cv2", "threading"):
        assert not any(m == forbidden or m.startswith(forbidden + ".") for m in modules), forbidden


def test_the_page_never_opens_the_serial_port_or_the_camera_itself() -> None:
    """companion.web reads the session's state; the link and the frames live elsewhere."""
    modules = loaded_modules("companion.web")
    assert "flask" in modules
    assert not any(m == "serial" or m.startswith(("serial.", "companion.link")) for m in modules)
    assert "companion.demo" not in modules and "companion.cli_run" not in modules


def test_the_bounded_json_reader_is_standard_library_only() -> None:
    """companion.store reads its payloads with it: no NumPy or OpenCV at its start-up."""
    modules = loaded_modules("calibration.jsonin")
    assert not any(m.split(".")[0] in ("numpy", "cv2") for m in modules)
