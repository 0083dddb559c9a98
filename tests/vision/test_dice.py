"""The dice reader: pips to values, the verdict's rules, the config, real photos."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from calibration.geometry import BoardGeometry
from sim import START, STYLES, Die, Look, Scene, render
from tests.conftest import SHARED
from tests.vision.rolls import NET, PIPS, READERS
from vision.config import Config, load_config
from vision.dice import REASONS, DieReading, Face, Pip, group_dice, read_dice, verdict
from vision.errors import ConfigError
from vision.evaluate import evaluate

REAL = SHARED / "data" / "dice_real_dev"
CFG = NET


def rendered_roll(value: int, style: str, **kw: object) -> tuple[object, BoardGeometry]:
    dice = (
        Die(value, 400, 150, angle_deg=20, style=style),
        Die(7 - value, 450, 300, angle_deg=70, style=style),
    )
    r = render(Scene(white=START, black=START, dice=dice, image_size=(1920, 1080), **kw))  # type: ignore[arg-type]
    assert r.calibration is not None
    return r, BoardGeometry(r.calibration)


@READERS
@pytest.mark.parametrize("style", ["white", "red", "black", "translucent"])
@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_every_face_is_read_on_a_clean_rendered_board(value: int, style: str, cfg: Config) -> None:
    r, geo = rendered_roll(value, style, look=Look())
    result = read_dice(cfg, r.image, geo, "white")  # type: ignore[attr-defined]
    assert sorted(d.value for d in result.dice) == sorted([value, 7 - value])
    assert result.roll == tuple(sorted([value, 7 - value], reverse=True))
    assert result.valid and result.reasons == []
    assert all(d.section == "right" and d.flat for d in result.dice)


@pytest.mark.parametrize(("board", "value"), [("classic", 1), ("blue", 6), ("tournament", 3)])
def test_the_pip_reader_finds_a_translucent_die_missed_in_grey_on_the_darkest_channel(
    board: str, value: int
) -> None:
    # Translucent dice, blurred and compressed: in grey one die's light pips are too faint
    # to read; on the darkest colour channel they stand out.
    look = Look(blur=1.6 if value != 3 else 2.0, noise=4, jpeg=70 if value != 3 else 60)
    dice = (
        Die(value, 400, 150, angle_deg=20, style="translucent"),
        Die(7 - value, 450, 300, angle_deg=70, style="translucent"),
    )
    style = next(s for s in STYLES if s.name == board)
    scene = Scene(style=style, white=START, black=START, dice=dice, image_size=(1920, 1080))
    r = render(replace(scene, look=look))
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    result = read_dice(PIPS, r.image, geo, "white")
    assert sorted(d.value for d in result.dice) == sorted([value, 7 - value])
    assert result.valid
    grey_only = copy.deepcopy(PIPS)
    grey_only["read"]["darkest_again"] = 0
    assert len(read_dice(grey_only, r.image, geo, "white").dice) == 1


@READERS
def test_dice_in_the_roller_s_left_section_are_a_wrong_section_for_white_not_black(
    cfg: Config,
) -> None:
    r, geo = rendered_roll(3, "white", look=Look())
    assert read_dice(cfg, r.image, geo, "black").reasons == ["wrong_section"]  # type: ignore[attr-defined]
    assert read_dice(cfg, r.image, geo, "opening").reasons == ["wrong_section"]  # type: ignore[attr-defined]


def die(value: int | None = 3, section: str | None = "right", **kw: object) -> DieReading:
    return DieReading(value, 1.0, (0.0, 0.0), section=section, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dice", "roller", "reasons"),
    [
        ([die(5), die(3)], "white", []),
        ([die(5, "left"), die(3, "left")], "black", []),
        ([die(5, "left"), die(3, "right")], "opening", []),
        ([die(5, "right"), die(3, "right")], "opening", ["wrong_section"]),
        ([die(5), die(3, "left")], "white", ["wrong_section"]),
        ([die(5), die(3, flat=False)], "white", ["cocked"]),
        ([die(5), die(3, on_checker=True)], "white", ["on_checker"]),
        ([die(5), die(3, "off")], "white", ["off_board"]),
        ([die(5)], "white", ["dice_count"]),
        ([die(5), die(3), die(2)], "white", ["dice_count"]),
        ([die(5), die(None)], "white", ["unreadable"]),
        ([die(5, "bar"), die(3)], "white", ["wrong_section"]),
    ],
)
def test_the_verdict_follows_the_rules(
    dice: list[DieReading], roller: str, reasons: list[str]
) -> None:
    roll, valid, got = verdict(dice, roller, calibrated=True)
    assert got == reasons and valid == (not reasons)
    assert set(got) <= set(REASONS)
    if len(dice) == 2 and None not in (d.value for d in dice):
        assert roll == (5, 3)


def test_without_a_calibration_sections_and_checkers_are_not_judged() -> None:
    _, valid, reasons = verdict([die(5, None, on_checker=True), die(3, None)], "white", False)
    assert valid and reasons == []


def test_a_config_file_overrides_defaults_and_rejects_unknown_names(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text("[pips]\ncontrast_min = 55\n")
    assert load_config(good)["pips"]["contrast_min"] == 55
    assert load_config(good)["faces"] == CFG["faces"]
    for text, message in [
        ("[pips]\ncontrast_mni = 5\n", "unknown key pips.contrast_mni"),
        ("[pip]\nx = 1\n", "unknown section [pip]"),
        ('[pips]\ncontrast_min = "high"\n', "must be a number"),
        ("[pips\n", "not valid TOML"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
            load_config(bad)


@pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/dice_real_dev is not beside the repo")
def test_real_photos_are_mostly_read_and_wrong_values_are_rare(tmp_path: Path) -> None:
    # The first 60 photos of the real development set, read without a calibration.
    (tmp_path / "images").symlink_to(REAL / "images")
    lines = (REAL / "labels.jsonl").read_text().splitlines()[:60]
    (tmp_path / "labels.jsonl").write_text("\n".join(lines) + "\n")
    m = evaluate(CFG, tmp_path)
    assert m.dice >= 150
    assert m.right / m.dice >= 0.9
    assert m.wrong / m.dice <= 0.02


def test_read_dice_rejects_what_is_not_an_image() -> None:
    from vision.errors import ImageError

    with pytest.raises(ImageError):
        read_dice(CFG, None)  # type: ignore[arg-type]


def test_a_calibrated_frame_is_grey_over_the_board_and_its_margin_only() -> None:
    import cv2
    import numpy as np

    from vision.dice import board_crop, board_gray
    from vision.errors import ImageError

    r = render(Scene(white=START, black=START, image_size=(1920, 1080)))
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    x0, y0, x1, y1 = board_crop(geo, r.image.shape)
    assert 0 < x1 - x0 < 1920 and 0 < y1 - y0 < 1080  # the board is a part of the frame
    gray = board_gray(r.image, geo)
    whole = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
    assert np.array_equal(gray[y0:y1, x0:x1], whole[y0:y1, x0:x1])
    gray[y0:y1, x0:x1] = 0
    assert not gray.any() and whole[:y0].any()  # black beyond, where the frame is not
    assert board_gray(whole, geo) is whole  # a grey frame is itself
    with pytest.raises(ImageError):
        board_gray(np.zeros((4, 4, 2), np.uint8), geo)


def test_a_frame_converted_in_parts_is_grey_where_asked_as_converted_whole() -> None:
    import numpy as np

    from vision.dice import GrayParts, board_crop, board_gray

    r = render(Scene(white=START, black=START, image_size=(1920, 1080)))
    assert r.calibration is not None
    geo = BoardGeometry(r.calibration)
    x0, y0 = board_crop(geo, r.image.shape)[:2]
    for darkest in (False, True):
        whole = board_gray(r.image, geo, darkest)
        parts = GrayParts(r.image, geo, darkest)
        assert not parts.gray.any()  # nothing converted before it is asked for
        box = (x0 + 301.5, y0 + 97.2, x0 + 450.0, y0 + 260.9)
        gray = parts.over(box)
        # At least the box (whole tiles round it), just as the whole conversion has it.
        bx0, by0, bx1, by1 = 301 + x0, 97 + y0, 451 + x0, 261 + y0
        assert np.array_equal(gray[by0:by1, bx0:bx1], whole[by0:by1, bx0:bx1])
        done = gray.copy()
        assert 0 < np.count_nonzero(done) < np.count_nonzero(whole) / 10  # a part only
        assert parts.over((x0 + 310, y0 + 100, x0 + 320, y0 + 110)) is gray
        assert np.array_equal(gray, done)  # asked again: nothing more converted
        # Asked beyond the frame and the board's margin: all of it, never past it.
        assert np.array_equal(parts.over((-50.0, -50.0, 5000.0, 5000.0)), whole)
    grey = whole[:, :].copy()
    assert GrayParts(grey, geo).over((0, 0, 10, 10)) is grey  # a grey frame is itself


def test_pip_blobs_are_labelled_as_opencv_labels_them() -> None:
    import cv2
    import numpy as np

    from vision.dice import components

    mask = (np.random.default_rng(5).random((240, 320)) > 0.7).astype(np.uint8)
    got = components(mask)
    want = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert got[0] == want[0] > 100
    assert all(np.array_equal(a, b) for a, b in zip(got[1:], want[1:], strict=True))


def test_a_face_s_level_is_the_median_of_its_grey_levels() -> None:
    import numpy as np

    from vision.dice import _median

    rng = np.random.default_rng(6)
    for n in (1, 2, 3, 64, 4096):  # odd and even counts
        for _ in range(20):
            levels = rng.integers(0, 256, n).astype(np.float32)
            assert _median(levels) == float(np.median(levels))
    smooth = rng.random(99).astype(np.float32) * 255  # not whole levels: numpy's own
    assert _median(smooth) == float(np.median(smooth))


def _read_near(name: str, box: tuple[int, int, int, int, int]) -> list[Any]:
    """The dice read without a calibration near a labelled die of a real photo."""
    import cv2

    entry = next(
        json.loads(line)
        for line in (REAL / "labels.jsonl").read_text().splitlines()
        if json.loads(line)["path"] == f"images/{name}"
    )
    assert list(box) in entry["boxes"]  # the labelled die (boxes hold its pips)
    x, y, w, h, _ = box
    result = read_dice(CFG, cv2.imread(str(REAL / "images" / name)), None, None)
    return [
        d
        for d in result.dice
        if abs(d.center_px[0] - (x + w / 2)) < w and abs(d.center_px[1] - (y + h / 2)) < h
    ]


@pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/dice_real_dev is not beside the repo")
@pytest.mark.parametrize(
    ("name", "box"),
    [("Train_four_15.jpg", (282, 201, 39, 27, 4)), ("Train_six_42.jpg", (462, 182, 49, 48, 6))],
)
def test_a_blurred_die_s_lone_pip_is_no_1(name: str, box: tuple[int, int, int, int, int]) -> None:
    # Motion-blurred dice: one pip passes as a pip, the others are smeared. Read as a 1 with
    # full confidence before; the face round a lone pip must be clear of dark spots too.
    near = _read_near(name, box)
    assert all(d.value in (None, box[4]) for d in near), [d.to_json() for d in near]


@pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/dice_real_dev is not beside the repo")
@pytest.mark.parametrize(
    ("name", "box"),
    [
        # 2s whose pips were not linked, read as two 1s on one die with full confidence:
        # a blurred pip's halo darkens the line between them out to the face ring ...
        ("Valid_valid_9.jpg", (397, 117, 45, 27, 2)),
        ("Train_two_23.jpg", (246, 319, 42, 18, 2)),
        # ... or their shapes differ a little more than two pips of one face may.
        ("Train_six_56.jpg", (336, 322, 28, 29, 2)),
        # A blurred 6 whose lower row ran into one streak with its blur, read as a 3 with
        # high confidence: pips are now cut at 0.3 of the strongest response nearby.
        ("Train_six_43.jpg", (336, 270, 45, 42, 6)),
        # A 4 whose even region runs on over a side face of its shade, with pips: read
        # again boxed from its corner pips.
        ("Train_four_25.jpg", (272, 202, 41, 42, 4)),
        # A 3 with a side face's blurred pips linked to it (half its pips' contrast) ...
        ("Train_three_16.jpg", (270, 317, 31, 38, 3)),
        # ... or a side face's pip linked by one link across the edge between the faces.
        ("Train_three_24.jpg", (351, 158, 39, 30, 3)),
        ("Train_three_19.jpg", (317, 279, 24, 40, 3)),
        # A 4 and a 5 touching corner to corner, linked into one face of nine pips:
        # parted into the two patterns.
        ("Valid_valid_76.jpg", (143, 94, 46, 40, 4)),
        ("Valid_valid_76.jpg", (189, 152, 42, 41, 5)),
        # A blurred 6 whose rows each ran into one blob: parted into pips where the
        # response dips between them.
        ("Train_six_44.jpg", (375, 103, 47, 45, 6)),
        ("Train_six_44.jpg", (502, 322, 44, 44, 6)),
        # A 6 beside a side face's blurred pip, which passes for a round 1 of half its
        # contrast: a die's top stands out at least half as much as its clearest face.
        ("Train_six_47.jpg", (271, 184, 36, 39, 6)),
        # A 1's pip merged with a side face's pip of another shade into a 2: two groups
        # merge only where their faces' shades are close.
        ("Train_dice_19.jpg", (270, 241, 23, 29, 1)),
        ("Valid_valid_3.jpg", (398, 127, 23, 19, 1)),
        # 1s seen at a slant of about 45 degrees, their side faces (a 5, a 2, a 4) rounder
        # than the top and read as it: the top is above them and lit brighter.
        ("Train_dice_46.jpg", (368, 90, 16, 11, 1)),
        ("Train_dice_46.jpg", (252, 145, 17, 11, 1)),
        ("Train_dice_20.jpg", (68, 151, 15, 11, 1)),
        # A top linked with its side face into six pips of no pattern (a 2 and a 4, a 1
        # and a 5), read as nothing: parted into the two faces.
        ("Train_two_29.jpg", (195, 106, 43, 19, 2)),
        ("Train_dice_42.jpg", (443, 91, 35, 17, 1)),
        # ... or a 6 with four pips of its side face's 5 (the fifth not linked), its side
        # face's pips far less round than its own.
        ("Train_six_30.jpg", (273, 69, 51, 39, 6)),
        # A 1 two pip diameters from the photo's bottom edge.
        ("Train_dice_37.jpg", (311, 448, 34, 31, 1)),
    ],
)
def test_real_dice_that_were_misread_read_right(
    name: str, box: tuple[int, int, int, int, int]
) -> None:
    near = _read_near(name, box)
    assert [d.value for d in near] == [box[4]], [d.to_json() for d in near]


@pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/dice_real_dev is not beside the repo")
def _face(x: float, y: float, value: int, level: float, stretch: float) -> Face:
    """A face of `value` pips at (x, y), its face `level` grey, its pips `stretch` times as
    wide as high (foreshortened)."""
    xx, yy = stretch**2 / (1 + stretch**2), 1 / (1 + stretch**2)
    pips = [Pip(x, y, 4.0, True, level, 150.0, (xx, 0.0, yy))]
    return Face(pips * value, value, 1.0, x, y, level)


def test_a_die_s_top_is_its_roundest_face_unless_one_above_it_is_lit_brighter() -> None:
    top, side = _face(100, 100, 1, 200, 1.5), _face(100, 130, 5, 170, 1.35)
    # The side face, below the top and darker, is the rounder: the top is chosen.
    assert group_dice(CFG, [top, side])[0].value == 1
    never = copy.deepcopy(CFG)
    never["faces"]["top_round_band"] = 1.0  # a less round face is never the top
    assert group_dice(never, [top, side])[0].value == 5
    # Not when the rounder face is the brighter, or lies above the other, or the other is
    # far less round.
    assert group_dice(CFG, [top, _face(100, 130, 5, 205, 1.35)])[0].value == 5
    assert group_dice(CFG, [top, _face(100, 70, 5, 170, 1.35)])[0].value == 5
    assert group_dice(CFG, [_face(100, 100, 1, 200, 2.2), side])[0].value == 5


@pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/dice_real_dev is not beside the repo")
def test_a_face_on_two_shades_is_read_without_high_confidence() -> None:
    # A 1's pip on the top face and a pip of the side face beside it, in two shades 0.14
    # of their contrast apart, link as a 2. Its confidence is cut as the shades differ,
    # so it is not a high-confidence value (a wrong one may not be).
    near = _read_near("Train_dice_19.jpg", (270, 241, 23, 29, 1))
    assert near
    assert all(d.value in (None, 1) or d.confidence < 0.9 for d in near), [
        d.to_json() for d in near
    ]


@pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/dice_real_dev is not beside the repo")
def test_two_pips_off_an_even_face_are_no_2(monkeypatch: pytest.MonkeyPatch) -> None:
    # A blurred 4 of which two pips link: across the diagonal between them the face is
    # not even (the other two pips lie there, too smeared to pass), so they are no 2.
    import vision.dice

    box = (241, 89, 37, 32, 4)
    assert all(d.value in (None, 4) for d in _read_near("Train_four_50.jpg", box))
    monkeypatch.setattr(vision.dice, "_two_is_face", lambda *args: True)
    assert [d.value for d in _read_near("Train_four_50.jpg", box)] == [2]


def _blurred_six() -> Any:
    """A white die's 6 on grey, its rows blurred sideways (a die still rolling) so that
    each row's three pips run into one blob at the usual cut."""
    import cv2
    import numpy as np

    img = np.full((240, 320, 3), 140, np.uint8)
    cv2.rectangle(img, (125, 85), (195, 155), (225, 225, 225), -1)
    for row in (-1, 1):
        for col in (-1, 0, 1):
            cv2.circle(img, (160 + col * 14, 120 + row * 14), 5, (30, 30, 30), -1, cv2.LINE_AA)
    smear = np.zeros((9, 9), np.float32)
    smear[4, :] = 1 / 9
    return cv2.GaussianBlur(cv2.filter2D(img, -1, smear), (0, 0), 1.0)


def test_blurred_pips_run_together_are_parted_where_the_response_dips() -> None:
    img = _blurred_six()
    assert [d.value for d in read_dice(CFG, img).dice] == [6]
    never = copy.deepcopy(CFG)
    never["pips"]["split_diameters_max"] = 0.0  # blobs too large for a pip stay no pips
    assert [d.value for d in read_dice(never, img).dice] == []


def _touching_dice() -> Any:
    """A 4 and a 5, white on grey, touching corner to corner with no shadow between."""
    import cv2
    import numpy as np

    img = np.full((240, 320, 3), 140, np.uint8)
    cv2.rectangle(img, (95, 75), (156, 136), (225, 225, 225), -1)
    cv2.rectangle(img, (154, 134), (215, 195), (225, 225, 225), -1)
    corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    for cx, cy, pips in ((125, 105, corners), (185, 165, [*corners, (0, 0)])):
        for dx, dy in pips:
            cv2.circle(img, (cx + 15 * dx, cy + 15 * dy), 5, (30, 30, 30), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (0, 0), 1.0)


def test_two_dice_touching_without_a_shadow_are_parted_into_two_faces() -> None:
    img = _touching_dice()
    got = sorted((d.value, round(d.center_px[0])) for d in read_dice(CFG, img).dice)
    assert got == [(4, 125), (5, 185)]
    never = copy.deepcopy(CFG)
    never["faces"]["split_min"] = 99.0  # the nine pips link into one face of no pattern
    assert [d.value for d in read_dice(never, img).dice] == [None]


def _key(mark: str) -> Any:
    """A laptop key: a dark square on grey with a light mark ("disc": a round spot)."""
    import cv2
    import numpy as np

    img = np.full((200, 200, 3), 120, np.uint8)
    cv2.rectangle(img, (60, 60), (140, 140), (30, 30, 30), -1)
    if mark == "disc":
        cv2.circle(img, (100, 100), 9, (230, 230, 230), -1, cv2.LINE_AA)
    else:
        font = cv2.FONT_HERSHEY_SIMPLEX
        cv2.putText(img, mark, (85, 112), font, 0.9, (230, 230, 230), 3, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (0, 0), 1.0)


@pytest.mark.parametrize("mark", ["fn", "x"])
def test_a_letter_on_a_dark_key_is_no_black_die_showing_1(mark: str) -> None:
    # A lone light spot on an even dark square passes for a black die's 1 unless the spot
    # must be a filled disc (the real photos' laptop keys: 89 -> 67 extra dice).
    assert read_dice(CFG, _key(mark)).dice == []
    assert [d.value for d in read_dice(CFG, _key("disc")).dice] == [1]
    never = copy.deepcopy(CFG)
    never["faces"]["single_fill"] = 0.0
    assert [d.value for d in read_dice(never, _key(mark)).dice] == [1]


def test_a_1_by_the_photo_s_edge_is_read() -> None:
    import cv2
    import numpy as np

    # A die showing 1, partly out of the photo: the even face round its pip is checked as
    # far as the photo goes (2.6 pip radii here, not 3).
    img = np.full((240, 320, 3), 140, np.uint8)
    cv2.rectangle(img, (120, 176), (200, 239), (225, 225, 225), -1)
    cv2.circle(img, (160, 216), 8, (30, 30, 30), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    assert [(d.value, round(d.center_px[1])) for d in read_dice(CFG, img).dice] == [(1, 216)]
    whole = copy.deepcopy(CFG)
    whole["faces"]["single_ring_min"] = 3.2  # the ring must lie wholly in the photo
    assert read_dice(whole, img).dice == []


def test_a_face_with_a_pip_missed_is_read_whole() -> None:
    import cv2
    import numpy as np

    # A 5 whose top-left pip is smudged into an oval the pip finder passes over: the four
    # pips found make no pattern, but all lie on one even face, read whole as a 5.
    img = np.full((240, 320, 3), (30, 60, 30), np.uint8)
    cv2.rectangle(img, (110, 70), (210, 170), (225, 225, 225), -1)
    for dx, dy in [(1, -1), (-1, 1), (1, 1), (0, 0)]:
        cv2.circle(img, (160 + 28 * dx, 120 + 28 * dy), 8, (30, 30, 30), -1, cv2.LINE_AA)
    cv2.ellipse(img, (132, 92), (9, 6), 0, 0, 360, (30, 30, 30), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 1.2)
    assert [d.value for d in read_dice(CFG, img).dice] == [5]
    never = copy.deepcopy(CFG)
    never["judge"]["whole_read_min"] = 99.0  # no face is read whole
    assert [d.value for d in read_dice(never, img).dice] == [None]


def test_a_close_view_s_large_pips_are_read_at_a_smaller_size() -> None:
    import cv2
    import numpy as np

    # A 5 filling most of a 640 x 480 photo: its pips 48 px across, three times the
    # largest looked for at full size (a photo this small is not halved for pips).
    img = np.full((480, 640, 3), 140, np.uint8)
    cv2.rectangle(img, (170, 90), (470, 390), (225, 225, 225), -1)
    for dx, dy in [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)]:
        cv2.circle(img, (320 + 80 * dx, 240 + 80 * dy), 24, (30, 30, 30), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 1.5)
    dice = read_dice(CFG, img).dice
    assert [(d.value, tuple(round(v) for v in d.center_px)) for d in dice] == [(5, (320, 240))]
    # Its faces are given in the photo's pixels too (the pips' radius 24, blurred).
    assert all(22 <= q.r <= 28 for q in dice[0].faces[0].pips), dice[0].faces[0].pips
    never = copy.deepcopy(CFG)
    never["pips"]["larger_min_side"] = 1e9  # read at full size only
    assert read_dice(never, img).dice == []


@pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/dice_real_dev is not beside the repo")
@pytest.mark.parametrize(
    ("name", "box"),
    [("Train_five_10.jpg", (302, 244, 46, 45, 5)), ("Train_six_1.jpg", (264, 219, 66, 63, 6))],
)
def test_a_real_die_seen_close_up_is_read(name: str, box: tuple[int, int, int, int, int]) -> None:
    import cv2

    # The die cut out of its photo and enlarged to 640 px across, as a close view.
    x, y, w, h, value = box
    img = cv2.imread(str(REAL / "images" / name))
    s = max(w, h) * 1.2
    x0, y0 = int(x + w / 2 - s), int(y + h / 2 - s)
    crop = img[y0 : int(y + h / 2 + s), x0 : int(x + w / 2 + s)]
    z = 640 / max(crop.shape[:2])
    close = cv2.resize(crop, None, fx=z, fy=z, interpolation=cv2.INTER_CUBIC)
    assert [d.value for d in read_dice(CFG, close).dice] == [value]


def test_close_pairs_are_every_pair_within_reach() -> None:
    # The pairs pips are linked from (a dense field of specks would try every pair).
    import itertools

    import numpy as np

    from vision.dice import _close_pairs

    rng = np.random.default_rng(5)
    xy = rng.uniform(0, 400, (700, 2))  # more than one block of rows
    reach = rng.uniform(2, 12, 700)
    want = [
        (i, j)
        for i, j in itertools.combinations(range(700), 2)
        if np.hypot(*(xy[i] - xy[j])) <= reach[i] + reach[j]
    ]
    assert len(want) > 100
    assert _close_pairs(xy, reach) == want
