"""Dice in a video, read against the board as it looked before they were thrown.

With the dice networks (`vision.dicenet`: a calibrated colour frame, `[net] use = 1`) a
frame is read whole, as a still is: they take no gap between checkers for a die, and a
die of the colours it lies on (a black die on a black point) changes nothing where it
lies. `DiceWatch` still remembers the last frame without dice. What follows is how the
pip reader (`[net] use = 0`, or a grey frame) reads a video.

A camera over a table sees the same board for a long time, and dice thrown onto it
are what changed since it was last seen without them. `DiceWatch` keeps that dice-free
picture of the board (the last frame it read with no die on it) and reads a frame only
round the places that changed since, a fraction of the frame. A die-sized place that
changed where fewer than two dice are read is read again, with the reader's usual
pip checks (a lone pip's face boxed centred on it, its blur its own), on the frame's
darkest colour channel, where light pips on a translucent die's salmon face stand
out half as much again as in grey; a die read there counts only
where nearly its whole disc changed in colour and its face is no sliver. In each
frame it reads with one die on it, it looks again at every die-sized place that
changed and holds no die read: there the pip checks that keep gaps between checkers,
point tips and wood grain from passing for dice are relaxed (`[changed]` in
`vision/dice.toml`), since none of those change while the dice are thrown. A cocked
die whose pips lie by its short top's edge, its side face or its shadow is read
there, and a 1 whose face shows an edge on one side only; where no pip is found at
all, the face is boxed by what changed and read whole (a small die whose pips blurred
faint or together).

Only a roll whose partner die was read is completed so: beside no die (the dice picked
up while checkers were moved and restacked) or two, what changed is checkers. Places
larger than a die (a checker moved, a hand's shadow, the light changing) are
not read again: only the still reader judges them. The other way round, what the still
reader takes for a die where little changed since the board was seen without dice is
part of the board (a light gap between two black checkers reads as a 2, and checkers
shifted a few pixels round it change only part of it), unless most of the board
changed. Change is measured in grey and in colour: a red die on green felt hardly
changes the grey level, but it changes the colour of nearly its whole disc.
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import BoardGeometry
from vision.config import Config
from vision.dice import (
    DiceResult,
    DieReading,
    GrayParts,
    board_crop,
    checker_reach_mm,
    components,
    px_per_mm,
    read_boxed,
    read_dice,
    to_gray,
    uses_net,
    verdict,
)

Image = NDArray[np.uint8]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in image pixels
Box4 = NDArray[np.float64]  # a rectangle's 4 corners (x, y) in order round it, image pixels


def darkest_config(cfg: Config) -> Config:
    """The reader's thresholds on the darkest colour channel of a changed place: the
    usual pip checks, but a lone pip's blur is its own and its face may be boxed centred
    on it (`[changed]` lone_reach, centred_box: the edges take in a shadow there)."""
    out = copy.deepcopy(cfg)
    c = cfg["changed"]
    out["read"]["lone_reach"] = c["lone_reach"]
    out["read"]["centred_box"] = c["centred_box"]
    return out


def changed_config(cfg: Config) -> Config:
    """The reader's thresholds inside a changed place (`[changed]`): those on the
    darkest channel (`darkest_config`), with the pip checks relaxed too."""
    out = darkest_config(cfg)
    c = cfg["changed"]
    out["pips"]["ring_spread_max_calibrated"] = c["ring_spread_max"]
    out["pips"]["bar_ring_spread_max"] = c["bar_ring_spread_max"]
    out["pips"]["bar_whole"] = c["bar_whole"]
    out["read"]["even_box"] = c["even_box"]
    out["read"]["bars_from_pips"] = c["bars_from_pips"]
    return out


@dataclass
class _Small:
    """The board and a margin round it (`board_crop`), small."""

    image: Image  # a frame in grey, or where its grey level changed (1 = changed)
    scale: float  # full-size pixels per small pixel
    size: tuple[int, int]  # the full frame's height and width
    colour: Image | None = None  # the frame in colour, or where any colour channel changed
    origin: tuple[int, int] = (0, 0)  # the full-size pixel (x, y) at the small one (0, 0)


class Background:
    """The board as last seen without dice, small and grey; where a frame differs from it."""

    def __init__(self, cfg: Config, geo: BoardGeometry) -> None:
        self.cfg = cfg
        self.geo = geo
        self._board: _Small | None = None
        self._frame: Image | None = None  # that board at full size
        mid = geo.mm_to_px([(geo.width_mm / 2, geo.height_mm / 2)])[0]
        self.mid_per_mm = px_per_mm(geo, float(mid[0]), float(mid[1]))  # at the board's middle

    def _small(self, image: Image) -> _Small:
        """The board and a margin round it (a dice reader looks nowhere else: a fraction
        of the frame), shrunk as the whole frame would be to `[changed] width` pixels
        across, and blurred."""
        h, w = image.shape[:2]
        scale = w / int(self.cfg["changed"]["width"])
        # Cut at multiples of a whole scale, as the whole frame's pixels are grouped.
        step = max(1, int(scale))
        x0, y0, x1, y1 = board_crop(self.geo, image.shape)
        x0, y0 = x0 - x0 % step, y0 - y0 % step
        cw = max(1, round((x1 - x0) / scale))
        ch = max(1, round((y1 - y0) / scale))
        x1, y1 = min(w, x0 + math.ceil(cw * scale)), min(h, y0 + math.ceil(ch * scale))
        resized = cv2.resize(image[y0:y1, x0:x1], (cw, ch), interpolation=cv2.INTER_AREA)
        small: Image = np.asarray(cv2.GaussianBlur(resized, (0, 0), 1.0), np.uint8)
        if small.ndim == 3:
            grey: Image = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), np.uint8)
            return _Small(grey, scale, (h, w), small, (x0, y0))
        return _Small(small, scale, (h, w), None, (x0, y0))

    @property
    def known(self) -> bool:
        return self._board is not None

    def remember(self, image: Image) -> None:
        """This frame shows the board without dice."""
        self._board = self._small(image)
        self._frame = np.array(image, np.uint8, copy=True)

    def changed(self, image: Image) -> _Small | None:
        """Where `image` differs from the board without dice (small, 1 = changed), or None
        while that board is unknown or the frame is of another size."""
        if self._board is None:
            return None
        now = self._small(image)
        if now.size != self._board.size:
            return None
        level = self.cfg["changed"]["level"]
        diff = cv2.absdiff(now.image, self._board.image) > level
        colour = None
        if now.colour is not None and self._board.colour is not None:
            colour = _changed_by(now.colour, self._board.colour, level) | diff
        return _Small(
            diff.astype(np.uint8),
            now.scale,
            now.size,
            None if colour is None else colour.astype(np.uint8),
            now.origin,
        )

    def face_boxes(self, image: Image, place: Box, side: float) -> list[tuple[Box4, bool]]:
        """Boxes (4 x 2 image px, in order round each) of what changed in `place` since the
        board was seen without dice, split in two by shade (Otsu): the lighter part (a
        light die's face: dark pips) and the darker (a dark or red die's face, and its
        shadow: light pips). Each is the least rectangle round the largest such patch
        centred in `place`, its pips filled in; `side` is a usual die's side (image px)."""
        if self._frame is None or self._frame.shape != image.shape:
            return []
        c = self.cfg["changed"]
        pad = round(side)
        h, w = image.shape[:2]
        x0, y0 = max(0, place[0] - pad), max(0, place[1] - pad)
        x1, y1 = min(w, place[2] + pad), min(h, place[3] + pad)
        if x1 - x0 < 3 or y1 - y0 < 3:
            return []
        now, before = image[y0:y1, x0:x1], self._frame[y0:y1, x0:x1]
        moved = _changed_by(now, before, c["level"])
        if not moved.any():
            return []
        grey = to_gray(now)
        cut, _ = cv2.threshold(
            grey[moved].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
        )
        k = max(3, round(side * c["face_close"])) | 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        out: list[tuple[Box4, bool]] = []
        for light in (True, False):
            shade = (grey > cut) if light else (grey <= cut)
            part = cv2.morphologyEx(
                cv2.morphologyEx((moved & shade).astype(np.uint8), cv2.MORPH_CLOSE, disc),
                cv2.MORPH_OPEN,
                np.ones((3, 3), np.uint8),
            )
            n, lab, stats, cent = components(part)
            inside = [
                j
                for j in range(1, n)
                if place[0] <= cent[j][0] + x0 <= place[2]
                and place[1] <= cent[j][1] + y0 <= place[3]
            ]
            if not inside:
                continue
            j = max(inside, key=lambda j: int(stats[j, cv2.CC_STAT_AREA]))
            ys, xs = np.nonzero(lab == j)
            pts = np.stack([xs + x0, ys + y0], 1).astype(np.float32)
            corners = cv2.boxPoints(cv2.minAreaRect(pts)).astype(np.float64)
            out.append((corners, light))
        return out

    def changed_share(
        self, changed: _Small, x: float, y: float, radius: float, colour: bool = False
    ) -> float:
        """The share of the disc of `radius` (image px) round (x, y) whose grey level (with
        `colour`, any colour channel) changed."""
        s = changed.scale
        mask = changed.colour if colour and changed.colour is not None else changed.image
        h, w = mask.shape
        r = max(1.0, radius / s)
        cx, cy = (x - changed.origin[0]) / s, (y - changed.origin[1]) / s
        x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
        x1, y1 = min(w, int(cx + r) + 1), min(h, int(cy + r) + 1)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = np.hypot(xx - cx, yy - cy) <= r
        return float(mask[y0:y1, x0:x1][disc].mean()) if disc.any() else 0.0

    def regions(self, changed: _Small, across: float, share: float, pad: float) -> list[Box]:
        """Boxes (image px) that hold every place where the disc `across` image px wide
        round it changed by `share` at least, each padded by `pad` image px (a die lying
        there is whole inside, with room round it to find its pips); overlapping boxes are
        merged into one."""
        s = changed.scale
        # A red die on green felt hardly changes the grey level: its colour tells.
        mask = changed.colour if changed.colour is not None else changed.image
        h, w = mask.shape
        # A square of the disc's area stands in for it.
        k = max(1, round(across * math.sqrt(math.pi) / 2 / s))
        # On a coarser grid still a few cells across the square.
        f = max(1, k // 4)
        if f > 1:
            s *= f
            h, w = max(1, h // f), max(1, w // f)
            k = max(1, round(k / f))
        local = cv2.resize(mask * np.uint8(255), (w, h), interpolation=cv2.INTER_AREA)
        local = cv2.blur(local, (k, k))
        mask = (local >= share * 255).astype(np.uint8)
        n, _, stats, _ = components(mask)
        pad = pad / s + 1
        boxes = [
            [
                max(0.0, x - pad),
                max(0.0, y - pad),
                min(float(w), x + bw + pad),
                min(float(h), y + bh + pad),
            ]
            for x, y, bw, bh, _ in (stats[j] for j in range(1, n))
        ]
        while pair := next(
            (
                (i, j)
                for i in range(len(boxes))
                for j in range(i + 1, len(boxes))
                if _overlap(boxes[i], boxes[j])
            ),
            None,
        ):
            i, j = pair
            a, b = boxes[i], boxes.pop(j)
            boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
        ox, oy = changed.origin
        return [
            (
                ox + math.floor(b[0] * s),
                oy + math.floor(b[1] * s),
                ox + math.ceil(b[2] * s),
                oy + math.ceil(b[3] * s),
            )
            for b in boxes
        ]

    def places(self, image: Image, changed: _Small | None = None) -> list[Box]:
        """Die-sized places (image px) where `image` differs from the board without dice."""
        changed = changed or self.changed(image)
        if changed is None:
            return []
        c, p = self.cfg["changed"], self.cfg["pips"]
        s = changed.scale
        per_mm = self.mid_per_mm / s  # small px per mm
        k = max(1, round(c["close_mm"] * per_mm)) | 1
        mask = np.asarray(
            cv2.morphologyEx(
                changed.image if changed.colour is None else changed.colour,
                cv2.MORPH_CLOSE,
                np.ones((k, k), np.uint8),
            ),
            np.uint8,
        )
        n, _, stats, cent = components(mask)
        out: list[Box] = []
        ox, oy = changed.origin
        for j in range(1, n):
            x, y, w, h, area = (int(v) for v in stats[j])
            local = px_per_mm(self.geo, ox + cent[j][0] * s, oy + cent[j][1] * s) / s
            area_mm = area / (local * local)
            long_mm = max(w, h) / local
            if (
                not c["area_min"] * p["die_mm_min"] ** 2
                <= area_mm
                <= c["area_max"] * (p["die_mm_max"] ** 2)
            ):
                continue
            if long_mm > c["length_max"] * p["die_mm_max"]:
                continue
            out.append(
                (
                    ox + math.floor(x * s),
                    oy + math.floor(y * s),
                    ox + math.ceil((x + w) * s),
                    oy + math.ceil((y + h) * s),
                )
            )
        return out


def _changed_by(a: Image, b: Image, level: float) -> NDArray[np.bool_]:
    """Per pixel, whether two images of one shape differ by more than `level`: in grey,
    or in any colour channel (one range test over the channels: numpy's max over them
    takes 30 times as long)."""
    d = np.asarray(cv2.absdiff(a, b), np.uint8)
    most = min(255, max(0, math.floor(level)))  # whole grey levels: d > level is d > most
    if d.ndim == 2:
        return np.asarray(d > most)
    within = cv2.inRange(d, (0,) * d.shape[2], (most,) * d.shape[2])
    return np.asarray(within == 0)


def _overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes (x0, y0, x1, y1) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _middle(box: Box) -> tuple[float, float]:
    """A box's centre (image px)."""
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _inside(die: DieReading, box: Box, margin: float = 0.0) -> bool:
    x, y = die.center_px
    return box[0] - margin <= x <= box[2] + margin and box[1] - margin <= y <= box[3] + margin


class DiceWatch:
    """The dice of each frame read from a video of one calibrated board."""

    def __init__(self, cfg: Config, geo: BoardGeometry) -> None:
        self.cfg = cfg
        relaxed = changed_config(cfg)
        # Read as a whole frame is (enlarged where pips are small), then, failing that,
        # without enlarging: a small die's bars run together differently in each.
        self.relaxed = [relaxed]
        if relaxed["changed"]["unzoomed_again"]:
            self.relaxed.append(copy.deepcopy(relaxed))
            self.relaxed[-1]["pips"]["zoom_below_px"] = 0.0
        self.darkest_cfg = darkest_config(cfg)
        self.geo = geo
        self.background = Background(cfg, geo)

    def _largest(self, at: tuple[float, float]) -> float:
        """The largest die's side in image px at `at`."""
        return float(self.cfg["pips"]["die_mm_max"] * px_per_mm(self.geo, at[0], at[1]))

    def _side(self, at: tuple[float, float]) -> float:
        """A usual die's side in image px at `at`."""
        return self.cfg["judge"]["die_mm"] * px_per_mm(self.geo, at[0], at[1])

    def _around(self, box: Box, pad: float = 0.0) -> tuple[float, float, float, float]:
        """`box` grown by `pad` and by as far as a die read in it may be judged from:
        its side and the farthest checker rim tried round it (`under_checker`), with
        room to spare."""
        per_mm = px_per_mm(self.geo, *_middle(box))
        m = (
            pad
            + 1.5 * per_mm * (checker_reach_mm(self.cfg, self.geo) + self.cfg["pips"]["die_mm_max"])
            + 8
        )
        return box[0] - m, box[1] - m, box[2] + m, box[3] + m

    def _still(self, changed: _Small, die: DieReading) -> bool:
        """Whether a die read is part of the board: where its disc changed little since the
        board was seen without dice."""
        c = self.cfg["changed"]
        reach = self._side(die.center_px) * c["still_reach"]
        if self.background.changed_share(changed, *die.center_px, reach) >= c["still_share"]:
            return False
        # A die of the board's grey level (a red die on green felt, a black die on a dark
        # point) changed its colour, or its shade over nearly all its disc.
        share = self.background.changed_share(changed, *die.center_px, reach, colour=True)
        return share < c["still_colour_share"]

    def _read_changed(
        self, image: Image, gray: GrayParts, place: Box, side: float
    ) -> DieReading | None:
        """The die in a changed place whose pips the reader did not find (small, blurred,
        faint) or read no value from: its face boxed by what changed there
        (`Background.face_boxes`) and read as a whole. Where the lighter and the darker
        part read different values, neither counts."""
        usual = self._side(_middle(place))
        grey = gray.over(self._around(place, side))
        read = [
            die
            for box, light in self.background.face_boxes(image, place, usual)
            if (die := read_boxed(self.cfg, grey, self.geo, box, dark=light)) is not None
            and die.value is not None
            and _inside(die, place, side / 2)
        ]
        return read[0] if len({d.value for d in read}) == 1 else None

    def _read_darkest(
        self, image: Image, changed: _Small, places: list[Box], dice: list[DieReading]
    ) -> list[DieReading]:
        """Dice at die-sized places that changed where none was read, read again (with the
        reader's usual pip checks: `darkest_config`) on the frame's darkest colour
        channel: light pips on a coloured face (a translucent die's) stand out half as
        much again there as in grey.
        Only where nearly the whole disc of the die read changed in colour, and its face
        is no sliver: checkers shifted round a gap change a part of it, and there spots
        of the darkest channel can make a die, boxed as a sliver."""
        if image.ndim != 3:
            return []
        c = self.cfg["changed"]
        darkest: GrayParts | None = None
        found: list[DieReading] = []
        for box in places:
            side = self._largest(_middle(box))
            if any(_inside(d, box, side / 2) for d in dice + found):
                continue
            darkest = GrayParts(image, self.geo, darkest=True) if darkest is None else darkest
            pad = round(side)
            region = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
            dark = darkest.over(self._around(region))
            for die in read_dice(self.darkest_cfg, image, self.geo, None, region, dark).dice:
                if die.value is None or not _inside(die, box, side / 2):
                    continue
                reach = self._side(die.center_px) * c["still_reach"]
                share = self.background.changed_share(changed, *die.center_px, reach, True)
                if (
                    share >= c["darkest_share"]
                    and (die.aspect is None or die.aspect >= c["darkest_aspect_min"])
                    and not self._still(changed, die)
                ):
                    found.append(die)
                    break
        return found

    def read(self, image: Image) -> list[DieReading]:
        """The dice in this frame (as `read_dice` finds them, and in die-sized places
        changed since the board was last seen without dice). A frame with no die on it
        becomes that picture of the board."""
        return self.read_roll(image).dice

    def read_roll(self, image: Image, roller: str | None = None) -> DiceResult:
        """`read`, with the roll and its verdict for `roller` as `read_dice` gives them."""
        if uses_net(self.cfg, image, self.geo):
            # The networks read the whole board, as a still: a die of the board's colours
            # (a black die on a black point) changes nothing there, and they take no gap
            # for a die.
            result = read_dice(self.cfg, image, self.geo, roller)
            if not result.dice:
                self.background.remember(image)
            return result
        start = time.perf_counter()
        c = self.cfg["changed"]
        changed = self.background.changed(image)
        if changed is not None and changed.image.mean() > c["whole_max"]:
            changed = None  # most of the board changed (the light): the frame is read whole
        # The frame in grey, converted where it is read (all of it, read whole).
        gray = GrayParts(image, self.geo)
        if changed is None:
            whole = board_crop(self.geo, image.shape)
            dice = read_dice(self.cfg, image, self.geo, None, None, gray.over(whole)).dice
        else:
            # Only where the board changed can a die be (below): only there is it read.
            per_mm = self.background.mid_per_mm
            regions = self.background.regions(
                changed,
                2 * c["still_reach"] * self.cfg["judge"]["die_mm"] * per_mm,
                c["still_share"] * c["region_share"],
                c["region_pad"] * self.cfg["pips"]["die_mm_max"] * per_mm,
            )
            dice = [
                d
                for r in regions
                for d in read_dice(
                    self.cfg, image, self.geo, None, r, gray.over(self._around(r))
                ).dice
            ]
            # A die lies where the board changed since it was seen without dice: what reads
            # as one where nothing changed is part of the board (a light gap between two
            # dark checkers makes a 2). Unless most of the board changed (the light).
            dice = [d for d in dice if not self._still(changed, d)]
        # The die-sized places that changed, found once for the frame where needed.
        places: list[Box] | None = None
        if changed is not None and c["darkest_again"] and len(dice) < 2:
            places = self.background.places(image, changed)
            dice += self._read_darkest(image, changed, places, dice)
        # A roll whose partner die was read is completed there; beside no die (the dice
        # picked up, checkers moved) or two, what changed is checkers, not a die.
        unread = [d for d in dice if d.value is None] if c["face_from_change"] else []
        boxes: list[Box] = []
        if changed is not None and (len(dice) == 1 or unread):
            boxes = self.background.places(image, changed) if places is None else places
        # A die read without a value (its pips by a touching die, its side face or its
        # shadow) is read again from its face boxed by what changed round it.
        for die in unread:
            at = die.center_px
            side = self._largest(at)
            box = next((b for b in boxes if _inside(die, b, side / 2)), None)
            again = self._read_changed(image, gray, box, side) if box is not None else None
            if again is not None and math.dist(again.center_px, at) < side / 2:
                dice[dice.index(die)] = again
        for box in boxes if len(dice) == 1 else []:
            if len(dice) == 2:
                break
            side = self._largest(_middle(box))
            # What changed may be part of a die only (its pips and shadow, where the die is
            # the board's shade): its die lies within a side of it.
            if any(_inside(d, box, side / 2) for d in dice):
                continue  # its die was read
            pad = round(side)
            region = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
            near = gray.over(self._around(region))
            for cfg in self.relaxed:
                found = [
                    d
                    for d in read_dice(cfg, image, self.geo, None, region, near).dice
                    if d.value is not None and _inside(d, box, side / 2)
                ]
                # Only a die read counts: what cannot be read there may be a gap that
                # opened between checkers moved.
                if found:
                    dice.append(found[0])
                    break
            else:
                boxed = (
                    self._read_changed(image, gray, box, side) if c["face_from_change"] else None
                )
                if boxed is not None:
                    dice.append(boxed)
        if not dice:
            self.background.remember(image)
        roll, valid, reasons = verdict(dice, roller, True)
        return DiceResult(dice, roll, valid, reasons, (time.perf_counter() - start) * 1000)
