"""The benchmarks run as documented: each starts (none shadows a package), `make bench`
runs every one, and a broken floor fails the run."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if p.name != "benchkit.py")

sys.path.append(str(BENCH))  # last: as the benchmarks themselves put it
from benchkit import Floor, check  # noqa: E402


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_benchmark_starts_as_its_docstring_says(script: str) -> None:
    # `python benchmarks/dice.py` once raised ModuleNotFoundError: a file in the folder
    # named after a package shadowed it. --help imports everything the benchmark needs.
    text = (BENCH / script).read_text()
    assert f"benchmarks/{script}" in text.split('"""')[1]  # the command is documented
    out = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "usage:" in out.stdout


def test_make_bench_runs_every_benchmark() -> None:
    recipe = (ROOT / "Makefile").read_text().split("\nbench:")[1].split("\n\n")[0]
    run = set(re.findall(r"benchmarks/(\w+\.py)", recipe))
    assert run == set(SCRIPTS)


def test_a_broken_floor_fails_and_says_which() -> None:
    floors = [
        Floor("right", "right", at_least=0.9),
        Floor("phantoms", "phantoms", at_most=2),
        Floor("wrong", "wrong", at_most=0),
    ]
    out = io.StringIO()
    assert check({"right": 0.95, "phantoms": 2, "wrong": 0}, floors, out) == 0
    assert "floors: 3/3 hold" in out.getvalue()
    out = io.StringIO()
    assert check({"right": 0.85, "phantoms": 3}, floors, out) == 1
    lines = out.getvalue().splitlines()
    assert "floor right: 0.85 (>= 0.9) BROKEN" in lines[0]
    assert "floor phantoms: 3 (<= 2) BROKEN" in lines[1]
    assert "floor wrong: missing (<= 0) BROKEN" in lines[2]  # a figure not measured
    assert lines[-1] == "floors: 0/3 hold"


def test_plain_photos_are_tiled_into_mosaics_with_their_boxes(tmp_path: Path) -> None:
    from real import write_mosaics  # here: it loads the readers and their networks

    src = tmp_path / "src"
    (src / "images").mkdir(parents=True)
    lines = []
    for k in range(5):  # four make one 2x2 mosaic, the fifth is left over
        w, h = (40, 30) if k != 1 else (80, 60)  # the second twice as large
        photo = np.full((h, w, 3), 50 * k, np.uint8)
        cv2.imwrite(str(src / "images" / f"{k}.png"), photo)
        entry = {"path": f"images/{k}.png", "boxes": [[w / 2, h / 2, w / 4, h / 4, k + 1]]}
        if k == 2:
            entry["nonstandard_box_idx"] = [0]
        lines.append(json.dumps(entry))
    (src / "labels.jsonl").write_text("\n".join(lines) + "\n")
    out = write_mosaics(src, tmp_path / "out", 2)
    (label,) = [json.loads(line) for line in (out / "labels.jsonl").read_text().splitlines()]
    mosaic = cv2.imread(str(out / label["path"]))
    assert mosaic.shape == (60, 80, 3)
    assert label["boxes"] == [
        [20, 15, 10, 7.5, 1],
        [60, 15, 10, 7.5, 2],  # the large photo's box halved with it, then moved right
        [20, 45, 10, 7.5, 3],
        [60, 45, 10, 7.5, 4],
    ]
    assert label["nonstandard_box_idx"] == [2]
    assert mosaic[45, 60].tolist() == [150, 150, 150]  # the fourth photo, bottom right


def test_a_board_photos_variants_move_its_labels_with_its_pixels(tmp_path: Path) -> None:
    # `real.py --variants`: each variant's labels must still point at what they named, or
    # its figures measure the labels, not the readers.
    from real import VARIANTS, write_variant  # here: it loads the readers and their networks

    (tmp_path / "images").mkdir()
    photo = np.full((60, 80, 3), 40, np.uint8)
    photo[10:16, 50:56] = (0, 0, 255)  # a red die at (52.5, 12.5)
    photo[40:46, 12:18] = (255, 0, 0)  # a blue cube at (14.5, 42.5)
    cv2.imwrite(str(tmp_path / "images" / "a.jpg"), photo)
    corners = [[5.0, 5.0], [74.0, 5.0], [74.0, 54.0], [5.0, 54.0]]
    entry = {
        "image": "images/a.jpg",
        "board": {"corners_px": corners, "width_mm": 530, "height_mm": 400},
        "dice": [{"value": 3, "center_px": [52.5, 12.5]}],
        "cube": {"value": 2, "center_px": [14.5, 42.5]},
    }
    for name in VARIANTS:
        out = write_variant(tmp_path, [entry], name, tmp_path / name)
        (label,) = [json.loads(x) for x in (out / "labels.jsonl").read_text().splitlines()]
        image = cv2.imread(str(out / label["image"]))
        assert label["image"] == "a.png"  # lossless: the change alone is measured
        x, y = (round(v) for v in label["dice"][0]["center_px"])
        b, g, r = (int(c) for c in image[y, x])
        assert r > 100 and r > b + 60, (name, (x, y), (b, g, r))
        x, y = (round(v) for v in label["cube"]["center_px"])
        b, g, r = (int(c) for c in image[y, x])
        assert b > 100 and b > r + 40, (name, (x, y), (b, g, r))
        h, w = image.shape[:2]
        for cx, cy in label["board"]["corners_px"]:
            assert 0 <= cx < w and 0 <= cy < h
    turned = json.loads((tmp_path / "turned" / "labels.jsonl").read_text())
    assert turned["board"]["corners_px"][0] == [74.0, 54.0]  # the same corner, turned round
    assert entry["dice"][0]["center_px"] == [52.5, 12.5]  # the labels given are not changed


def test_the_board_benchmark_reads_several_seeds_in_one_run() -> None:
    # `--seed` takes several seeds: each seed's boards as that seed alone draws them, one
    # line per seed, then the figures over all of them.
    def run(*seeds: str) -> str:
        args = ["--boards", "2", "--workers", "1", "--alone", "0", "--no-floors", "--seed"]
        out = subprocess.run(
            [sys.executable, str(BENCH / "board.py"), *args, *seeds],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout

    both = run("5", "6")
    assert "boards: 4 (seeds 5 6, default styles)" in both
    per_seed = [int(m) for m in re.findall(r"^  seed [56]: boards right (\d)/2$", both, re.M)]
    assert len(per_seed) == 2
    (total,) = re.findall(r"^whole boards right: (\d)/4 ", both, re.M)
    assert sum(per_seed) == int(total)
    # The places of seed 6's boards read alone add up with seed 5's to the run's.
    places = [re.findall(r"^places right: (\d+)/(\d+) ", run(s), re.M)[0] for s in ("5", "6")]
    (together,) = re.findall(r"^places right: (\d+)/(\d+) ", both, re.M)
    assert sum(int(p[0]) for p in places) == int(together[0])
    assert sum(int(p[1]) for p in places) == int(together[1]) == 104


def test_the_dice_benchmark_sets_apart_the_rolls_on_styles_the_networks_never_saw(
    tmp_path: Path,
) -> None:
    # `--styles wide`: rolls on the wide board styles, and again those on the styles the
    # dice networks' training never drew (its leave-out figure), read in place.
    from dice import held_out_rolls  # here: it loads the readers and their networks

    from sim import WIDE_STYLES, write_roll_set
    from vision.board_net import HELD_OUT_WIDE

    write_roll_set(tmp_path, 12, seed=5, image_size=(320, 180), family="wide")
    entries = [json.loads(x) for x in (tmp_path / "labels.jsonl").read_text().splitlines()]
    assert {e["style"] for e in entries} <= {s.name for s in WIDE_STYLES}
    held = held_out_rolls(tmp_path)
    assert held is not None
    kept = [json.loads(x) for x in (held / "labels.jsonl").read_text().splitlines()]
    assert [e["style"] for e in kept] == [
        e["style"] for e in entries if e["style"] in HELD_OUT_WIDE
    ]
    assert kept and all((held / e["path"]).is_file() for e in kept)
    assert all((held / e["calibration"]).is_file() for e in kept)


def test_the_dice_benchmark_learns_each_board_from_its_roll_before_the_dice(
    tmp_path: Path,
) -> None:
    # The rolls read with each board learnt as `calibrate` learns it: from the roll's frame
    # before the dice, which shows the starting position; one scene of the set is `nth_roll`.
    from dice import learnt_rolls  # here: it loads the readers and their networks

    from calibration.schema import load
    from sim import nth_roll, write_roll_set

    write_roll_set(tmp_path, 3, seed=5, backgrounds=True)
    entries = [json.loads(x) for x in (tmp_path / "labels.jsonl").read_text().splitlines()]
    for k, entry in enumerate(entries):
        scene, roller, reasons = nth_roll(k, seed=5)
        assert (entry["style"], entry["roller"], entry["reasons"]) == (
            scene.style.name,
            roller,
            reasons,
        )
        assert [d["value"] for d in entry["dice"]] == [d.value for d in scene.dice]
    learnt, missed = learnt_rolls(tmp_path)
    assert missed == 0
    kept = [json.loads(x) for x in (learnt / "labels.jsonl").read_text().splitlines()]
    assert [(learnt / e["path"]).resolve() for e in kept] == [
        (tmp_path / e["path"]).resolve() for e in entries
    ]
    for e in kept:
        assert load(learnt / e["calibration"]).appearance is not None
