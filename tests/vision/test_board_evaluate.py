"""evaluate-board: the checker reader measured over a labelled folder of board photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from sim import START, Scene, render
from tests.conftest import SHARED
from tests.test_cli import run
from vision.evaluate import evaluate_board

REAL = SHARED / "data" / "board_real_dev"


def _write_set(folder: Path, scenes: list[tuple[str, Scene, dict[str, list[int]]]]) -> None:
    """A labelled folder in board_real_dev's format: each scene's image and its label (the
    given position, which may differ from the scene's to make a known mistake)."""
    (folder / "images").mkdir(parents=True)
    lines = []
    for name, scene, position in scenes:
        r = render(scene)
        assert r.calibration is not None and r.calibration.camera is None
        cv2.imwrite(str(folder / "images" / f"{name}.png"), r.image)
        board = r.calibration.to_json()["board"]
        lines.append(
            json.dumps({"image": f"images/{name}.png", "board": board, "position": position})
        )
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("board_set")
    start = Scene(white=START, black=START)
    wrong_label = list(START)
    wrong_label[6], wrong_label[8] = 4, 4  # one checker moved from white's 6 to its 8
    _write_set(
        folder,
        [
            ("start", start, {"white": list(START), "black": list(START)}),
            ("mislabelled", start, {"white": wrong_label, "black": list(START)}),
        ],
    )
    return folder


def test_a_right_board_is_exact_and_a_mislabelled_one_names_its_wrong_points(
    labelled: Path, tmp_path: Path
) -> None:
    m = evaluate_board(labelled, overlays=tmp_path / "overlays")
    assert [p.exact for p in m.photos] == [True, False]
    assert m.photos[1].wrong == [("6", "W5", "W4"), ("8", "W3", "W4")]
    assert m.places_right == 2 * 25 - 2
    # Only the photo read wrong gets an overlay.
    assert [p.name for p in (tmp_path / "overlays").iterdir()] == ["mislabelled.png"]


def test_evaluate_board_command_prints_figures_and_json(labelled: Path) -> None:
    text = run("evaluate-board", str(labelled))
    assert text.returncode == 0, text.stderr
    assert "boards exact: 1/2" in text.stdout
    assert "6 read W5 (truth W4)" in text.stdout
    doc = json.loads(run("evaluate-board", str(labelled), "--json").stdout)
    assert doc["boards"] == 2 and doc["boards_exact"] == 1
    assert doc["places_wrong"] == 2 and doc["places_right"] == 48


def test_evaluate_board_on_a_folder_without_labels_is_one_line(tmp_path: Path) -> None:
    out = run("evaluate-board", str(tmp_path))
    assert out.returncode != 0
    assert "no labels.jsonl" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.skipif(not (REAL / "labels.jsonl").is_file(), reason="shared/ is not beside the repo")
def test_real_board_photos_are_evaluated_without_error() -> None:
    m = evaluate_board(REAL)
    assert len(m.photos) == 6
    assert all(p.places == 25 for p in m.photos)
    # How many are right is benchmarks/real.py's, with its floors; here: every board read
    # wrong says so.
    assert all(p.exact or p.confidence < 0.5 for p in m.photos)
