"""The dice networks' training scenes (`scripts/dicenet_data.py`): what `--wide` draws."""

from __future__ import annotations

import random

import pytest

from sim import DICE_STYLES, WIDE_STYLES, random_roll_scene
from tests.sim.conftest import dicenet_data
from vision.board_net import HELD_OUT_WIDE

pytestmark = pytest.mark.usefixtures("dice_tables_as_shipped")


def test_wide_training_scenes_never_draw_the_styles_held_out_to_measure_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide = {s.name for s in WIDE_STYLES}
    monkeypatch.setattr(dicenet_data, "WIDE_SHARE", 1.0)
    names = [dicenet_data.training_scene(random.Random(k)).style.name for k in range(40)]
    assert set(names) <= wide - set(HELD_OUT_WIDE)
    assert len(set(names)) >= 5  # the others all drawn
    monkeypatch.setattr(dicenet_data, "WIDE_SHARE", 0.0)
    names = [dicenet_data.training_scene(random.Random(k)).style.name for k in range(40)]
    assert not set(names) & wide


def test_wide_training_scenes_may_draw_the_wide_designs_in_colours_at_random(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dicenet_data, "WIDE_SHARE", 1.0)
    monkeypatch.setattr(dicenet_data, "RANDOM_DESIGNS", True)
    styles = [dicenet_data.training_scene(random.Random(k)).style for k in range(60)]
    assert not {s.name for s in styles} & set(HELD_OUT_WIDE)
    drawn = [s for s in styles if s.name.startswith("random")]
    assert 15 <= len(drawn) <= 45  # about half
    assert {s.design for s in drawn} == set(dicenet_data.DESIGNS)
    logos = [s.logo for s in drawn if s.design == "logo"]
    assert logos and all(len(g) == 1 for g in logos)


def test_a_roll_is_drawn_the_same_after_dice_of_random_colours_were_registered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The dice benchmark's rolls are drawn from the renderer's own dice styles: a style a
    # training script registered before (`random_dice_style`) changes none of them.
    def rolls() -> list[object]:
        return [random_roll_scene(random.Random(k), "valid", (640, 360)) for k in range(8)]

    before = rolls()
    monkeypatch.setitem(DICE_STYLES, "random1", ((10, 200, 30), (240, 240, 240)))
    monkeypatch.setitem(DICE_STYLES, "random2", ((200, 20, 130), (20, 20, 20)))
    assert rolls() == before


def test_training_scenes_draw_cocked_dice_with_their_sides_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not any(dicenet_data.training_scene(random.Random(k)).dice_sides for k in range(5))
    monkeypatch.setattr(dicenet_data, "SIDES", True)
    assert all(dicenet_data.training_scene(random.Random(k)).dice_sides for k in range(5))


def test_a_training_scenes_squares_say_which_hold_a_cocked_die_drawn_with_its_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # scripts/train_dicenet.py teaches such a die's state only with --sides-state: each
    # square round a cocked die drawn with the side it turns up says so, and no other.
    cocked = dicenet_data.STATES.index("cocked")
    for sides in (True, False):
        monkeypatch.setattr(dicenet_data, "SIDES", sides)
        data = next(
            d
            for k in range(100, 160)
            if cocked in (d := dicenet_data.scene_data(k))["state"]
            and any(v and s != cocked for v, s in zip(d["value"], d["state"], strict=True))
        )
        rows = list(zip(data["sides"], data["value"], data["state"], strict=True))
        assert {m for m, v, s in rows if v and s == cocked} == {int(sides)}
        assert not any(m for m, v, s in rows if not (v and s == cocked))
