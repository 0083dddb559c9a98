"""The strip network's second opinion on each place's count (`vision.board_net`), and how
the checker reader weighs it against the rings' count (`vision.board`)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision.networks
from calibration.geometry import BoardGeometry
from sim import START, STYLES, WIDE_STYLES, Scene, random_scene, render
from vision.board import BoardReader, BoardReading, BoardSettings
from vision.board_colours import ColourSplit
from vision.board_net import PLACES, STRIP_H, STRIP_W, StripCounter
from vision.board_surface import unexplained_areas as real_areas
from vision.errors import VisionError

# Styles the network was never trained on (scripts/checkernet_data.py's HELD_OUT).
HELD_OUT = [s for s in STYLES if s.name in ("cork", "leather")]
DARK_LIGHTNESS = 25.0  # L* (0-100) between a black checker's and a red one's


def _counts(white: list[int] | tuple[int, ...], black: list[int] | tuple[int, ...]) -> list[int]:
    """Per place as the strips run: points 1-24 (white's numbering), each side's bar."""
    return [white[n] + black[25 - n] for n in range(1, 25)] + [white[25], black[25]]


def _scene(style_index: int, white: tuple[int, ...], black: tuple[int, ...]) -> Scene:
    base = random_scene(random.Random(40 + style_index))
    return replace(base, style=HELD_OUT[style_index], white=white, black=black)


@pytest.mark.parametrize("style_index", [0, 1])
def test_the_network_counts_every_place_on_a_style_it_never_saw(style_index: int) -> None:
    white = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2)
    black = (0, 0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1)
    r = render(_scene(style_index, white, black))
    assert r.calibration is not None
    reader = BoardReader(BoardGeometry(r.calibration))
    counter = StripCounter(reader.geo, reader.s.px_per_mm, reader.m)
    view = reader.rectify(r.image)
    assert counter.strips(view).shape == (PLACES, STRIP_H, STRIP_W, 3)
    odds = counter.odds(view)
    assert odds.shape == (PLACES, 16) and np.allclose(odds.sum(axis=1), 1.0)
    assert odds.argmax(axis=1).tolist() == _counts(white, black)


def test_strips_from_the_readers_smoothed_view_are_the_strips_of_the_view() -> None:
    r = render(_scene(0, START, START))
    assert r.calibration is not None
    reader = BoardReader(BoardGeometry(r.calibration))
    counter = StripCounter(reader.geo, reader.s.px_per_mm, reader.m)
    view = reader.rectify(r.image)
    own = counter.strips(view).astype(int)
    for done in (0.6, 1.0, counter.sigma):  # blurred on to the strips' sigma, or as it is
        smoothed = cv2.GaussianBlur(view, (0, 0), done)
        assert np.abs(counter.strips(view, (smoothed, done)).astype(int) - own).max() <= 2
    # A view smoother than the strips' own is not used: the view is smoothed afresh.
    much = cv2.GaussianBlur(view, (0, 0), 3 * counter.sigma)
    assert np.array_equal(counter.strips(view, (much, 3 * counter.sigma)), own)


def _reader_and_view(settings: BoardSettings | None = None) -> tuple[BoardReader, np.ndarray]:
    r = render(_scene(0, START, START))
    assert r.calibration is not None
    return BoardReader(BoardGeometry(r.calibration), settings), r.image


def _odds_saying(counts: dict[int, tuple[int, float]]) -> np.ndarray:
    """Odds for the starting position, except places (strip index) that say (count, odds)."""
    odds = np.zeros((PLACES, 16))
    for k, n in enumerate(_counts(START, START)):
        odds[k, n] = 1.0
    for k, (n, p) in counts.items():
        odds[k] = (1 - p) / 15
        odds[k, n] = p
    return odds


def test_a_network_that_disagrees_with_a_sure_ring_count_makes_the_point_unsure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reader, image = _reader_and_view()
    sure = reader.read(image)
    assert sure.white == list(START) and sure.confidence >= 0.5
    # The network says one checker on the bare 3 point, at odds short of sure: the rings
    # were sure, their count stands, but the point is not trusted any more.
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: _odds_saying({2: (1, 0.8)}))
    reading = reader.read(image)
    assert reading.white == list(START) and reading.black == list(START)
    by = {p.place: p for p in reading.places}
    assert by["3"].confidence <= reader.s.net_disagree
    assert reading.confidence <= reader.s.net_disagree
    # Fewer than the rings found (4 on white's 6 point, strip 5), short of sure: the
    # network's count is read, unsure (on styles the reader never saw, where it so
    # differed from rings sure of theirs it was right every time: rings find round things
    # that are not checkers, an arched point's end, a logo).
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: _odds_saying({5: (4, 0.8)}))
    reading = reader.read(image)
    by = {p.place: p for p in reading.places}
    assert reading.white[6] == 4 and by["6"].color == "white"
    assert by["6"].confidence <= reader.s.net_disagree
    # Six there, short of an opinion: not read, but the rings' five are no longer sure (on
    # the wide styles the rings read piles a checker short at up to 0.88 on their own).
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: _odds_saying({5: (6, 0.45)}))
    reading = reader.read(image)
    by = {p.place: p for p in reading.places}
    assert reading.white[6] == 5 and by["6"].confidence <= reader.s.net_disagree


def test_a_sure_network_count_is_read_over_sure_rings_sure_only_of_fewer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Sure against sure: on styles the reader never saw, the network was the one right
    # every time they so differed (a ring "found" in an arched point's end, wood grain
    # closing it), so its count is read, in the colour of the checkers the rings found.
    # Of more checkers than the rings found, it is not trusted; of fewer, it is as sure as
    # the network, while its side's total holds (`counts_check`): here the network's
    # phantom on 3 is in doubt, so white's 15 prove nothing and 6 is unsure too.
    reader, image = _reader_and_view()
    monkeypatch.setattr(
        StripCounter, "odds", lambda self, view, *_: _odds_saying({5: (4, 0.99), 2: (1, 0.99)})
    )
    reading = reader.read(image)
    assert reading.white[6] == 4 and reading.white[3] + reading.black[22] == 1
    by = {p.place: p for p in reading.places}
    assert by["6"].color == "white" and by["6"].confidence <= reader.s.net_disagree
    assert by["3"].count == 1 and by["3"].confidence <= reader.s.net_disagree
    import vision.board

    with monkeypatch.context() as m:  # the second opinion alone, without the counts check
        m.setattr(vision.board, "counts_check", lambda *args: None)
        alone = {p.place: p for p in reader.read(image).places}
    assert alone["6"].count == 4 and alone["6"].confidence >= reader.s.net_sure
    assert alone["3"].count == 1 and alone["3"].confidence <= reader.s.net_disagree
    # A sure network that says a point the rings found checkers on is bare empties it;
    # white is then short with checkers outside its home board: unsure.
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: _odds_saying({5: (0, 0.99)}))
    reading = reader.read(image)
    by = {p.place: p for p in reading.places}
    assert reading.white[6] == 0 and reading.white[0] == 5
    assert by["6"].color is None and by["6"].confidence <= reader.s.net_disagree


def _read_with_odds(
    monkeypatch: pytest.MonkeyPatch, counts: dict[int, tuple[int, float]]
) -> tuple[BoardReader, BoardReading, dict[str, Any]]:
    """The starting position read with the network saying `counts` (`_odds_saying`): the
    reader, its reading and the reading's places by name."""
    reader, image = _reader_and_view()
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: _odds_saying(counts))
    reading = reader.read(image)
    return reader, reading, {p.place: p for p in reading.places}


def test_rings_blind_to_a_colour_on_this_frame_leave_its_likely_checkers_to_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Points 3 and 5 are bare in the starting position and the same triangle colour: where
    # the network surely counts a checker on 3 that no ring saw, the rings are blind to
    # that colour, and its likely checker on 5 is read too, unsure.
    reader, _, by = _read_with_odds(monkeypatch, {2: (1, 0.99), 4: (1, 0.7)})
    assert by["3"].count == 1 and by["5"].count == 1
    assert by["5"].color == by["3"].color
    assert by["5"].confidence <= reader.s.net_disagree
    # Without the sure one, nothing shows the rings blind: their bare reading stands.
    _, _, by = _read_with_odds(monkeypatch, {4: (1, 0.7)})
    assert by["5"].count == 0 and by["5"].confidence <= reader.s.net_disagree
    # Their bare reading says nothing even where the network's likeliest count is short of
    # an opinion: it stands (the network is not heard), but unsure, not a sure bare point.
    reader, _, by = _read_with_odds(monkeypatch, {2: (1, 0.99), 4: (1, 0.45)})
    assert by["5"].count == 0 and by["5"].confidence <= reader.s.net_disagree
    # Without the sure one, the network short of an opinion is not heard: bare, as the
    # rings read it; but its likeliest count is another, so not surely bare.
    _, _, by = _read_with_odds(monkeypatch, {4: (1, 0.45)})
    assert by["5"].count == 0 and by["5"].confidence <= reader.s.net_disagree


def test_a_bare_point_without_a_circle_is_only_as_sure_as_the_network_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Point 5 is bare and no ring saw anything there. The network agrees it is bare, but
    # only at 0.7: no circle is no proof (a dark checker on a dark point), so the bare
    # reading is no surer than that.
    _, _, by = _read_with_odds(monkeypatch, {4: (0, 0.7)})
    assert by["5"].count == 0 and not by["5"].circles
    assert 0.5 < by["5"].confidence <= 0.7
    # The network sure of it: sure.
    _, _, sure = _read_with_odds(monkeypatch, {4: (0, 0.99)})
    assert sure["5"].count == 0 and sure["5"].confidence > 0.9
    # Checkers the rings did find (white's 6 point) are not held to the network's odds
    # where it agrees only likely.
    _, _, likely = _read_with_odds(monkeypatch, {5: (5, 0.7)})
    assert likely["6"].count == 5 and likely["6"].circles
    assert likely["6"].confidence > 0.7


def test_a_half_of_the_bar_the_network_finds_likely_is_read_where_the_rings_are_blind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The network surely counts a checker no ring saw on point 2, whose first checker
    # would lie on a spot of black's colour (as the bar's does): the rings are blind to
    # black, so its likely count of two on black's half of the bar is read, unsure.
    reader, reading, by = _read_with_odds(monkeypatch, {1: (1, 0.99), 25: (2, 0.87)})
    assert reading.black[25] == 2 and by["bar-black"].confidence <= reader.s.net_disagree
    # Nothing shows the rings blind: a bar half short of sure is not read.
    _, reading, _ = _read_with_odds(monkeypatch, {25: (2, 0.87)})
    assert reading.black[25] == 0 and reading.confidence <= reader.s.net_disagree


def _odd_surface_on_six(monkeypatch: pytest.MonkeyPatch, also: tuple[str, ...] = ()) -> None:
    """The surface check told that white's 6 point (and the points `also`) shows a large
    unexplained area."""
    import vision.board_found

    def odd_six(*args: object, **kwargs: object) -> dict[str, float]:
        out = real_areas(*args, **kwargs)  # type: ignore[arg-type]
        for name in ("6", *also):
            out[name] = 1e6
        return out

    monkeypatch.setattr(vision.board_found, "unexplained_areas", odd_six)


def test_a_sure_network_count_replaces_an_unsure_ring_count_in_the_checkers_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reader, image = _reader_and_view()
    real_odds = StripCounter.odds
    # The rings see white's 6 point, but are made unsure of it by its surface.
    _odd_surface_on_six(monkeypatch)
    unsure = reader.read(image)
    assert next(p for p in unsure.places if p.place == "6").confidence < 0.5
    assert unsure.white == list(START)  # the network agrees: nothing to replace
    # Now the network says 4 there, surely: the unsure ring count gives way, white's still.
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: _odds_saying({5: (4, 0.99)}))
    reading = reader.read(image)
    assert reading.white[6] == 4 and reading.white[0] == 1 and reading.black == list(START)
    # White is now a checker short with checkers outside its home board: the counts check
    # makes the place the miss may lie in unsure, however sure the network.
    assert next(p for p in reading.places if p.place == "6").confidence <= reader.s.unsure_count
    # Without that check, the network's sureness is the place's.
    import vision.board

    with monkeypatch.context() as m:
        m.setattr(vision.board, "counts_check", lambda *args: None)
        alone = reader.read(image)
    assert alone.white == reading.white
    assert next(p for p in alone.places if p.place == "6").confidence > reader.s.net_disagree
    # The odd surface spreading over the 5 point too is a thing wider than a point (a cup,
    # a card, a clock), no checkers: the network never saw one and counts checkers under
    # it. Its count is read, unsure.
    _odd_surface_on_six(monkeypatch, also=("5",))
    reading = reader.read(image)
    assert reading.white[6] == 4 and reading.white[0] == 1 and reading.black == list(START)
    assert next(p for p in reading.places if p.place == "6").confidence <= reader.s.net_disagree
    _odd_surface_on_six(monkeypatch)
    # Short of sure, its count is still the likelier of two unsure ones: read, unsure.
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: _odds_saying({5: (4, 0.7)}))
    reading = reader.read(image)
    assert reading.white[6] == 4 and reading.black == list(START)
    assert next(p for p in reading.places if p.place == "6").confidence <= reader.s.net_disagree
    monkeypatch.setattr(StripCounter, "odds", real_odds)


def test_a_sure_network_agreeing_with_an_unsure_fit_makes_it_sure_but_not_an_odd_surface(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_count = BoardReader._count
    # Every pile's fit made doubtful (as where two counts explain the circles about as well).
    monkeypatch.setattr(
        BoardReader, "_count", lambda self, along: (real_count(self, along)[0], 0.3)
    )
    alone, image = _reader_and_view(BoardSettings(net_check=False))
    assert alone.read(image).confidence < 0.5
    reader, _ = _reader_and_view()
    reading = reader.read(image)
    assert reading.white == list(START) and reading.confidence >= 0.5
    # A surface unlike the board's (an arm over the point) is not the network's to clear.
    _odd_surface_on_six(monkeypatch)
    reading = reader.read(image)
    assert reading.white == list(START) and reading.confidence < 0.5
    assert reading.least_sure(1)[0].place == "6"


def test_with_net_check_off_the_network_is_never_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vision.networks, "MODELS", tmp_path)  # no network there
    vision.networks.load_network.cache_clear()
    try:
        reader, image = _reader_and_view(BoardSettings(net_check=False))
        assert reader.read(image).white == list(START)
        reader, image = _reader_and_view()
        with pytest.raises(VisionError, match=r"checker_count\.onnx: no such network"):
            reader.read(image)
    finally:
        vision.networks.load_network.cache_clear()


def test_the_bar_is_compared_by_its_total_and_recounted_only_where_the_rings_saw_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reader, image = _reader_and_view()
    # The network sees a checker in white's half of the bare bar: the rings saw nothing
    # there, so its count is read (whose: the colour where it lies).
    says = _odds_saying({24: (1, 0.95)})
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: says)
    reading = reader.read(image)
    assert reading.white[25] + reading.black[25] == 1
    assert reading.white[1:25] == list(START)[1:25] and reading.black[1:25] == list(START)[1:25]


def _without_dark_circles(monkeypatch: pytest.MonkeyPatch, places: set[str] | None) -> None:
    """The rings made blind to dark checkers (L* below DARK_LIGHTNESS) at `places`
    (`Found` place names; None: everywhere)."""
    real_circles = BoardReader._all_circles

    def blind(self: BoardReader, *args: Any) -> Any:
        found = real_circles(self, *args)
        for f in found:
            if places is not None and f.place.name not in places:
                continue
            keep = [k for k, colour in enumerate(f.colours) if colour[0] > DARK_LIGHTNESS]
            f.keep(keep)
        return found

    monkeypatch.setattr(BoardReader, "_all_circles", blind)


def test_a_sure_count_over_rings_proved_blind_by_another_place_is_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The rings blind to black's checkers on white's 1 point (black's 24) only, and sure
    # the point is bare (its surface like the board's: dark checkers on a dark point): the
    # network surely counts them there, but nothing else shows the rings blind to black, so
    # its count is read, unsure (one network phantom cannot prove itself).
    import vision.board_found

    def surface_as_the_boards() -> None:
        monkeypatch.setattr(vision.board_found, "unexplained_areas", lambda *a, **k: {})
        monkeypatch.setattr(vision.board_found, "bar_unexplained", lambda *a, **k: 0.0)

    surface_as_the_boards()
    _without_dark_circles(monkeypatch, {"1"})
    reader, reading, by = _read_with_odds(monkeypatch, {})
    assert reading.black == list(START) and not by["1"].circles
    assert by["1"].confidence <= reader.s.net_disagree
    monkeypatch.undo()
    # Blind to them everywhere: each of black's points proves the rings blind for the
    # others, and the network's sure counts are read as sure.
    surface_as_the_boards()
    _without_dark_circles(monkeypatch, None)
    reader, reading, by = _read_with_odds(monkeypatch, {})
    black_points = [str(25 - n) for n in range(1, 25) if START[n]]
    assert reading.white == list(START) and reading.black == list(START)
    assert all(not by[p].circles for p in black_points)
    assert all(by[p].confidence > reader.s.net_disagree for p in black_points)


def _on_the_bar() -> tuple[tuple[int, ...], tuple[int, ...], Any]:
    """A position with two white checkers and one black on the bar, and its render (a
    held-out style)."""
    white = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)
    black = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1)
    r = render(_scene(0, white, black))
    assert r.calibration is not None
    return white, black, r


def test_a_sure_bar_count_of_a_colour_proved_blind_and_seen_nowhere_on_the_bar_is_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.board_found

    # One black checker on the bar, two white: the rings blind to black everywhere. The
    # network, sure of every place, gives black's checker back, sure: the rings saw no black
    # checker on the bar and proved blind to black on its points.
    white, black, r = _on_the_bar()
    odds = np.full((PLACES, 16), 0.01 / 15)
    odds[np.arange(PLACES), _counts(white, black)] = 0.99
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: odds)
    # The surface (points and bar) as the board's: the network's rule alone is judged.
    monkeypatch.setattr(vision.board_found, "unexplained_areas", lambda *a, **k: {})
    monkeypatch.setattr(vision.board_found, "bar_unexplained", lambda *a, **k: 0.0)
    _without_dark_circles(monkeypatch, None)
    reader = BoardReader(BoardGeometry(r.calibration))
    reading = reader.read(r.image)
    by = {p.place: p for p in reading.places}
    assert reading.white == list(white) and reading.black == list(black)
    assert not by["bar-black"].circles and len(by["bar-white"].circles) == 2
    assert by["bar-black"].confidence > reader.s.net_disagree
    # A third white checker the network counts where the rings saw two white ones is
    # white's (a dark, marbled or logo'd one), but not sure: white was seen on the bar.
    odds[24, 3], odds[24, 2] = 0.99, 0.01 / 15
    reading = BoardReader(BoardGeometry(r.calibration)).read(r.image)
    assert reading.white[25] == 3
    by = {p.place: p for p in reading.places}
    assert by["bar-white"].confidence <= reader.s.net_disagree


def test_a_half_of_the_bar_the_rings_saw_nothing_on_is_read_by_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two white checkers and one black on the bar, the rings blind to the black one (a
    # dark checker on a dark bar): the network, agreeing with the rings on white's half,
    # gives black's half its checker, in the colour where it lies; not sure (the rings
    # were sure the half was bare).
    white, black, r = _on_the_bar()
    reader = BoardReader(BoardGeometry(r.calibration))
    assert reader.read(r.image).black == list(black)  # seen, the rings count it
    _without_dark_circles(monkeypatch, {"bar-white", "bar-black"})
    reading = BoardReader(BoardGeometry(r.calibration)).read(r.image)
    by = {p.place: p for p in reading.places}
    assert not by["bar-black"].circles and len(by["bar-white"].circles) == 2
    assert reading.white == list(white) and reading.black == list(black)
    assert by["bar-black"].confidence <= reader.s.net_disagree
    # A network sure of both halves is read on both: three in white's half, where the rings
    # saw two white checkers (a third one dark, marbled or with a logo), are white's three.
    says = _counts(white, black)
    odds = np.full((PLACES, 16), 0.01 / 15)
    odds[np.arange(PLACES), says] = 0.99
    odds[24] = odds[0]
    odds[24, 3], odds[24, says[0]] = 0.99, 0.01 / 15
    monkeypatch.setattr(StripCounter, "odds", lambda self, view, *_: odds)
    reading = BoardReader(BoardGeometry(r.calibration)).read(r.image)
    assert reading.white[25] == 3 and reading.black[25] == 1
    assert reading.white[0] == 0 and reading.black[0] == 0
    assert reading.confidence <= reader.s.net_disagree
    # Short of sure on either half, it is not read: the rings' count stands, unsure.
    odds[25, says[25]] = 0.8
    reading = BoardReader(BoardGeometry(r.calibration)).read(r.image)
    assert reading.white[25] == 2 and reading.black[25] == 0
    assert reading.confidence <= reader.s.net_disagree


def test_a_half_of_the_bar_with_both_colours_is_not_recounted_by_the_network() -> None:
    # The network counts a half's checkers, not whose they are: with both colours seen in
    # one half, how many of each its count holds is unknown.
    r = render(_scene(0, START, START))
    assert r.calibration is not None
    reader = BoardReader(BoardGeometry(r.calibration))
    odds = np.zeros((PLACES, 16))
    odds[:, 0] = 1.0
    odds[24, 3] = odds[25, 1] = 0.99  # three in white's half, one in black's
    odds[24, 0] = odds[25, 0] = 0.01
    below = reader.geo.height_mm / 2 + 40  # in white's half (the strip runs downwards)
    above = reader.geo.height_mm / 2 - 40
    lab = reader.smooth_lab(reader.rectify(r.image))[1]
    split = ColourSplit(np.zeros(0, bool), np.zeros(0), 1.0, None)
    mixed = [(below, "white"), (below + 30, "black"), (above, "black")]
    assert reader._bar_network(mixed, odds, lab, split, set()) is None
    one_colour = [(below, "white"), (below + 30, "white"), (above, "black")]
    counted = ({"white": 3, "black": 1}, 1.0)
    assert reader._bar_network(one_colour, odds, lab, split, set()) == counted
    # Short of sure on a half where it counts otherwise than the rings saw (two where they
    # saw one): not read at all ...
    odds[25, 1], odds[25, 2] = 0.01, 0.6
    assert reader._bar_network(one_colour, odds, lab, split, set()) is None
    # ... even with the rings blind to that half's colour: they saw a checker there.
    assert reader._bar_network(one_colour, odds, lab, split, {"black"}) is None
    # Short of sure where it counts as the rings saw: that half is read as they saw it,
    # and the other half's sure count is not lost for it.
    odds[25, 1], odds[25, 2] = 0.6, 0.01
    assert reader._bar_network(one_colour, odds, lab, split, set()) == counted
    odds[25, 1] = 0.3  # whatever the odds: they bound the bar's confidence, not the count
    assert reader._bar_network(one_colour, odds, lab, split, set()) == counted


def test_checkers_only_the_network_sees_are_split_with_the_rest_by_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Red (white's, the lighter) and black checkers on a black board: the rings are made
    # blind to the black ones, so the colours they see are one, and a darkish one. The
    # network counts the black ones; their colours, where they lie, join the split, and
    # each side's checkers are read in its own colour.
    style = next(s for s in WIDE_STYLES if s.name == "red-black")
    scene = replace(random_scene(random.Random(3), family="wide"), style=style)
    r = render(scene)
    assert r.calibration is not None
    _without_dark_circles(monkeypatch, None)
    reading = BoardReader(BoardGeometry(r.calibration)).read(r.image)
    by = {p.place: p for p in reading.places}
    white_points = [n for n in range(1, 25) if START[n]]
    black_points = [25 - n for n in range(1, 25) if START[n]]
    assert all(not by[str(n)].circles for n in black_points)  # the rings saw none of them
    assert [by[str(n)].color for n in white_points] == ["white"] * len(white_points)
    assert [by[str(n)].color for n in black_points] == ["black"] * len(black_points)
    assert reading.white == list(START) and reading.black == list(START)


def test_places_under_one_thing_are_one_region_and_prove_nothing_for_each_other() -> None:
    from vision.board_opinion import unexplained_regions

    # A cup over points 4 to 6 (and across the bar to 7), a card over 19 and the 6 point
    # facing it: one region each; points 2 and 4, an explained point between, are two
    # (dark checkers no ring sees on dark points leave the light ones between explained).
    region = unexplained_regions({"4", "5", "6", "7", "19", "bar-white"})
    assert region[4] == region[5] == region[6] == region[7] == region[19] == 4
    region = unexplained_regions({"2", "4", "22"})
    assert region[2] != region[4] and region[22] != region[2] and region[22] != region[4]
    assert unexplained_regions({"3", "22"})[22] == 3  # facing across the middle
    assert unexplained_regions({"12", "13"})[13] == 12  # the board's two ends face too
