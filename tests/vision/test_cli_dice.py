"""`bgcompanion read-dice` and `evaluate-dice` as a user runs them (CONTRACTS.md §4)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from calibration.geometry import BoardGeometry
from sim import START, Die, Look, Scene, nth_roll, render
from tests.test_cli import run
from vision.dice import read_dice
from vision.dice_settings import DiceSettings


def write_roll(tmp_path: Path) -> tuple[Path, Path]:
    dice = (Die(6, 400, 150, angle_deg=20), Die(2, 450, 300, angle_deg=70))
    r = render(Scene(white=START, black=START, dice=dice, look=Look(), image_size=(1920, 1080)))
    assert r.calibration is not None
    image, cal = tmp_path / "roll.png", tmp_path / "roll.cal.json"
    cv2.imwrite(str(image), r.image)
    r.calibration.save(cal)
    return image, cal


def test_read_dice_json_has_the_contract_fields(tmp_path: Path) -> None:
    image, cal = write_roll(tmp_path)
    result = run("read-dice", str(image), "--calibration", str(cal), "--roller", "white", "--json")
    out = json.loads(result.stdout)
    assert result.returncode == 0
    assert out["roll"] == [6, 2] and out["valid"] is True and out["reasons"] == []
    assert set(out) >= {"dice", "roll", "valid", "reasons", "elapsed_ms"}
    for d in out["dice"]:
        assert set(d) >= {"value", "center_px", "flat", "section", "on_checker"}
        assert d["section"] == "right"


def test_batch_reads_every_line_and_reports_bad_ones_in_place(tmp_path: Path) -> None:
    image, cal = write_roll(tmp_path)
    lines = [
        json.dumps({"image": str(image), "calibration": str(cal), "roller": "black"}),
        "not json",
        json.dumps({"image": str(tmp_path / "missing.png"), "calibration": None, "roller": None}),
        json.dumps({"image": str(image), "calibration": None, "roller": "white"}),
    ]
    result = run("read-dice", "--batch", stdin="\n".join(lines) + "\n")
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert result.returncode == 0 and len(out) == 4
    assert out[0]["reasons"] == ["wrong_section"] and out[0]["roll"] == [6, 2]
    assert "malformed JSON" in out[1]["error"]
    assert "no such image" in out[2]["error"]
    # Without a calibration no section is known and only these reasons can be judged.
    # (Whether the roll stands is the dice reader's accuracy, measured by benchmarks/dice.py:
    # searching the whole frame, it can take a dark checker's bevelled rim for a die.)
    assert out[3]["dice"] and all(d["section"] is None for d in out[3]["dice"])
    assert set(out[3]["reasons"]) <= {"cocked", "dice_count", "unreadable"}


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not a png")
    result = run("read-dice", str(junk))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "not an image" in result.stderr
    image, _ = write_roll(tmp_path)
    small = tmp_path / "cal.json"
    r = render(Scene(image_size=(640, 360)))
    assert r.calibration is not None
    r.calibration.save(small)
    result = run("read-dice", str(image), "--calibration", str(small))
    assert result.returncode == 2
    assert "calibration is for 640x360" in result.stderr


def test_evaluate_dice_writes_metrics_confusion_and_config(tmp_path: Path) -> None:
    from sim import write_roll_set

    write_roll_set(tmp_path / "set", 3, seed=5, image_size=(1280, 720))
    result = run("evaluate-dice", str(tmp_path / "set"), "-o", str(tmp_path / "rep"))
    assert result.returncode == 0
    files = {p.name for p in (tmp_path / "rep").iterdir()}
    assert files == {"metrics.json", "confusion.csv", "confusion.png", "config.toml"}
    metrics = json.loads((tmp_path / "rep" / "metrics.json").read_text())
    assert metrics["images"] == 3 and metrics["verdicts"] == 3
    csv_rows = (tmp_path / "rep" / "confusion.csv").read_text().splitlines()
    assert len(csv_rows) == 7
    # The confusion matrix accounts for every labelled die.
    assert sum(int(c) for row in csv_rows[1:] for c in row.split(",")[1:]) == metrics["dice"]
    assert "value_min" in (tmp_path / "rep" / "config.toml").read_text()


def test_a_set_with_backgrounds_is_read_from_its_frames_alone(tmp_path: Path) -> None:
    from sim import write_roll_set

    # A label's `background` (the board before the throw) is not needed: the frames are
    # read alone, the background not even opened. `--backgrounds` is refused.
    write_roll_set(tmp_path / "set", 2, seed=5, image_size=(1280, 720), backgrounds=True)
    labels = (tmp_path / "set" / "labels.jsonl").read_text()
    assert labels.count('"background": "roll_0001.board.png"') == 1
    (tmp_path / "set" / "roll_0001.board.png").unlink()
    result = run("evaluate-dice", str(tmp_path / "set"), "-o", str(tmp_path / "r"))
    assert result.returncode == 0, result.stderr
    metrics = json.loads((tmp_path / "r" / "metrics.json").read_text())
    assert metrics["images"] == 2 and metrics["dice"] == 4
    result = run("evaluate-dice", str(tmp_path / "set"), "--backgrounds", "-o", str(tmp_path / "x"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "unrecognized arguments: --backgrounds" in result.stderr
    assert not (tmp_path / "x").exists()


def test_a_cocked_die_is_read_from_the_frame_alone_and_background_is_refused(
    tmp_path: Path,
) -> None:
    from sim import film_game

    # A still of the referee benchmark's first game: a cocked 2 whose pips lie by its short
    # top's edge and its shadow, beside a flat 6, thrown by black. (The retired pip reader
    # missed the 2 in the frame alone and needed the board before the throw,
    # `--background`; the networks read the frame alone.)
    film = film_game(100, (1920, 1080), length=7, illegal_at=5)
    before, thrown = film.shots[389].scene, film.shots[391].scene
    assert not before.dice and [d.state for d in thrown.dice] == ["flat", "cocked"]
    r = render(thrown)
    assert r.calibration is not None
    image, back, cal = tmp_path / "roll.jpg", tmp_path / "before.jpg", tmp_path / "roll.cal.json"
    cv2.imwrite(str(image), r.image)
    cv2.imwrite(str(back), render(before).image)
    r.calibration.save(cal)
    args = ("read-dice", str(image), "--calibration", str(cal), "--roller", "black", "--json")
    result = run(*args)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["reasons"] == ["cocked"] and out["roll"] == [6, 2] and out["valid"] is False
    assert sorted(d["flat"] for d in out["dice"]) == [False, True]
    assert all(d["section"] == "left" for d in out["dice"])
    # --background is no option any more: one line, exit 2, nothing read.
    bad = run(*args, "--background", str(back))
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1
    assert "unrecognized arguments: --background" in bad.stderr


def test_a_calibrated_image_is_read_with_its_checkers_as_referee_reads_a_frame(
    tmp_path: Path,
) -> None:
    # The dice benchmark's wide roll 119 (seed 2026): shiny red and black checkers whose
    # highlights the dice reader alone takes for two cocked 1s; a valid roll of two dice.
    scene, roller, reasons = nth_roll(119, 2026, "wide")
    assert scene.style.name == "red-black" and reasons == []
    r = render(scene)
    assert r.calibration is not None
    image, cal = tmp_path / "roll.png", tmp_path / "roll.cal.json"
    cv2.imwrite(str(image), r.image)
    r.calibration.save(cal)
    alone = read_dice(DiceSettings(), r.image, BoardGeometry(r.calibration)).dice
    assert len(alone) == 4
    result = run("read-dice", str(image), "--calibration", str(cal), "--roller", roller, "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert sorted(out["roll"]) == sorted(d.value for d in scene.dice)
    assert out["valid"] is True and len(out["dice"]) == 2
