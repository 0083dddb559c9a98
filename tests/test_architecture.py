"""The dependency direction of ARCHITECTURE.md, checked by importing in a clean subprocess."""

from __future__ import annotations

import ast
import fnmatch
import json
import subprocess
import sys
import tomllib
from collections.abc import Collection, Mapping
from pathlib import Path

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
        "vision.frame",
        "vision.settings",
        "calibration",
        "calibration.refine",
        "calibration.board_view",
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
        "calibration.board_view",
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
    assert "companion.demo" not in modules
    assert not any(m == "companion.cli" or m.startswith("companion.cli.") for m in modules)


@pytest.mark.parametrize("module", ["vision.die", "vision.reading"])
def test_the_die_and_reading_types_are_standard_library_only(module: str) -> None:
    """vision.die and vision.reading: the referee, its films and the page's state use them
    without loading the dice networks, OpenCV or NumPy."""
    modules = loaded_modules(module)
    assert not any(m.split(".")[0] in ("numpy", "cv2", "onnxruntime", "companion") for m in modules)


def test_the_bounded_json_reader_is_standard_library_only() -> None:
    """companion.store reads its payloads with it: no NumPy or OpenCV at its start-up."""
    modules = loaded_modules("calibration.jsonin")
    assert not any(m.split(".")[0] in ("numpy", "cv2") for m in modules)


@pytest.mark.parametrize(
    "module",
    ["companion.web", "companion.web.views", "companion.web.streams", "companion.table"],
)
def test_the_page_knows_the_table_by_its_interface_only(module: str) -> None:
    """The page reads a `companion.table.Table`: importing it loads no camera, no dice
    network, no reader and no serial port (nor NumPy, which only they need)."""
    modules = loaded_modules(module)
    for forbidden in ("cv2", "onnxruntime", "vision", "serial", "numpy", "sim", "calibration"):
        assert not any(m == forbidden or m.startswith(forbidden + ".") for m in modules), forbidden
    assert "companion.session" not in modules and "companion.follow" not in modules


# --- import cycles --------------------------------------------------------------
# Read from the source with `ast`, so that every import counts: module-level,
# inside a function (a local import that dodges a cycle at start-up is still one),
# and under `if TYPE_CHECKING:`. An import of `a.b.c` is an edge to `a.b.c` only,
# not to the packages `a` and `a.b` that Python also runs on the way.

ROOT = Path(__file__).resolve().parent.parent


def project_modules() -> dict[str, Path]:
    """Every module of the packages pyproject.toml installs (companion, vision, ...)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["packages"]["find"]["include"]
    modules: dict[str, Path] = {}
    for top in sorted(ROOT.iterdir()):
        if not (top / "__init__.py").is_file():
            continue
        if not any(fnmatch.fnmatchcase(top.name, p) for p in patterns):
            continue
        for path in top.rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported(module: str, path: Path, known: Collection[str]) -> set[str]:
    """The project modules that `module` imports anywhere in its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                # `from companion import cli_hall` imports a module; `from x import name`, x.
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m in known and m != module}


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {m: imported(m, path, modules) for m, path in modules.items()}


def cycles(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules, as a path a -> ... -> a."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(m: str) -> None:  # Tarjan's algorithm
        index[m] = low[m] = len(index)
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            group = set()
            while True:
                n = stack.pop()
                group.add(n)
                if n == m:
                    break
            if len(group) > 1:
                groups.append(group)

    for m in sorted(graph):
        if m not in index:
            visit(m)
    found = []
    for group in groups:
        start = min(group)
        # The shortest way back to `start` within the group names the cycle.
        paths = {start: [start]}
        frontier = [start]
        while frontier and start not in [n for f in frontier for n in graph[f]]:
            nxt = []
            for f in frontier:
                for n in sorted(graph[f]):
                    if n in group and n not in paths:
                        paths[n] = [*paths[f], n]
                        nxt.append(n)
            frontier = nxt
        last = next(f for f in frontier if start in graph[f])
        found.append([*paths[last], start])
    return sorted(found)


def test_the_cycle_finder_names_a_cycle_and_passes_a_tree() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_the_import_graph_sees_function_level_and_relative_imports(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from . import sibling\nfrom .sub import name\n\ndef f():\n    import pkg.other\n",
        encoding="utf-8",
    )
    known = {"pkg.m", "pkg.sibling", "pkg.sub", "pkg.other"}
    assert imported("pkg.m", source, known) == {"pkg.sibling", "pkg.sub", "pkg.other"}


def test_the_rules_import_each_other_without_a_cycle() -> None:
    """companion.rules has no cycle at all."""
    graph = import_graph()
    rules = {m: {n for n in e if n.startswith("companion.rules")} for m, e in graph.items()}
    rules = {m: e for m, e in rules.items() if m.startswith("companion.rules")}
    assert len(rules) > 5
    assert cycles(rules) == []
    # The bottom of the rules: the position and its legal plays stand on the errors alone.
    assert rules["companion.rules.position"] == {"companion.rules.errors"}


def test_no_import_cycle() -> None:
    """None at all, none excused: the command line's (companion/cli.py and its command
    groups importing each other) went with the package companion/cli/."""
    graph = import_graph()
    found = [" -> ".join(c) for c in cycles(graph)]
    assert not found, f"import cycles (one path through each group): {found}"


# --- the command line's layers --------------------------------------------------
# companion.cli.entry builds the parser from the command modules; each command module
# stands on companion.cli.common (and packages outside the command line) alone; common
# stands on none of them. The package itself and `python -m companion.cli` sit on top.
CLI_TOP = {"companion.cli", "companion.cli.__main__", "companion.cli.entry"}


def test_the_command_modules_import_only_the_common_helpers() -> None:
    graph = import_graph()
    cli = {m for m in graph if m == "companion.cli" or m.startswith("companion.cli.")}
    commands = cli - CLI_TOP - {"companion.cli.common"}
    assert {"companion.cli.match", "companion.cli.run", "companion.cli.hall"} <= commands
    wrong = {
        m: sorted(n for n in graph[m] if n in cli and n != "companion.cli.common")
        for m in sorted(commands)
    }
    assert {m: e for m, e in wrong.items() if e} == {}
    assert {n for n in graph["companion.cli.common"] if n in cli} == set()
    # ... and no module outside the command line imports it.
    outside = {m: sorted(e & cli) for m, e in graph.items() if m not in cli and e & cli}
    assert outside == {}


def test_the_command_modules_have_no_import_that_dodges_a_cycle() -> None:
    """An import inside a function in companion/cli/ is there to keep a heavy package
    (OpenCV, ONNX Runtime, the vision package, Flask, paho) out of the start-up of the
    commands that do not need it, and says so on the line above; a project module's
    light import sits at the top of the module."""
    modules = project_modules()
    unexplained = []
    for module, path in sorted(modules.items()):
        if module != "companion.cli" and not module.startswith("companion.cli."):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines), str(path))
        imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
        in_an_import = {i for n in imports for i in range(n.lineno, (n.end_lineno or 0) + 1)}
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    continue
                # The line above its group of imports (blank lines between them allowed).
                above = node.lineno - 1
                while above in in_an_import or not lines[above - 1].strip():
                    above -= 1
                if not lines[above - 1].strip().startswith("# local:"):
                    unexplained.append(f"{path.name}:{node.lineno}")
    assert unexplained == []
