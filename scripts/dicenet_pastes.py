"""What the renderer does not draw, pasted onto the dice networks' training squares and views.

- Real dice (`RealDice`): cut from labelled photos (the format of
  shared/data/dice_real_dev and shared/data/dice_real_topdown_dev: `boxes` of
  `[x, y, w, h, value]`), turned at random, scaled to a die of 12-19 mm and pasted with
  a soft rounded-square edge and a shadow falling any way. They teach the reader real
  dice: their materials, pips, blur and the cameras that took them.
- Things that are not dice (`not_a_die`): doubling cubes with their numbers, checkers
  with rims, logos, letters and highlights, hinges with screws, clocks, score cards,
  printed letters, keys and tiles (rounded squares a die's size with letters or signs).
  Drawn at random sizes, colours and turns; taught as "no die here".

Used by scripts/train_dicenet.py (`--real`, `--not-dice`). The photos are read where
they lie (never copied into the repository).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Alpha = NDArray[np.float32]
CUT = 64  # px: each real die is kept as a square this wide (the face and a rim round it)
RIM = 1.3  # the square is this many faces wide


class RealDice:
    """Real dice's faces cut from labelled photos: `faces` (N x CUT x CUT x 3, BGR) and
    `values` (N). `face_scale` turns a label box's longer side into the die's face side
    (the webcam set's boxes enclose the pips only: about 1.15; boxes round the face: 1)."""

    def __init__(self, folder: Path, face_scale: float, oblique: bool = False) -> None:
        self.oblique = oblique  # photographed at a slant: side faces show on flat dice
        faces, values = [], []
        for line in (folder / "labels.jsonl").read_text().splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            odd = set(entry.get("nonstandard_box_idx", []))
            image = cv2.imread(str(folder / entry["path"]), cv2.IMREAD_COLOR)
            if image is None:
                raise SystemExit(f"{folder / entry['path']}: not an image")
            sides = [max(w, h) for x, y, w, h, v in entry["boxes"] if v >= 4]
            usual = float(np.median(sides)) if sides else None
            for k, (x, y, w, h, v) in enumerate(entry["boxes"]):
                if k in odd:
                    continue
                side = max(w, h) if v >= 4 or usual is None else max(max(w, h), usual)
                half = side * face_scale * RIM / 2
                cx, cy = x + w / 2, y + h / 2
                m = np.array(
                    [
                        [CUT / (2 * half), 0, CUT / 2 - cx * CUT / (2 * half)],
                        [0, CUT / (2 * half), CUT / 2 - cy * CUT / (2 * half)],
                    ],
                    np.float64,
                )
                how = cv2.INTER_AREA if 2 * half > CUT else cv2.INTER_LINEAR
                cut = cv2.warpAffine(image, m, (CUT, CUT), flags=how, borderMode=cv2.BORDER_REFLECT)
                faces.append(cut)
                values.append(int(v))
        self.faces = np.stack(faces).astype(np.uint8)
        self.values = np.array(values, np.int64)
        print(f"real dice from {folder}: {len(values)}", flush=True)

    def __len__(self) -> int:
        return len(self.values)

    def sample(self, rng: np.random.Generator, side_px: float) -> tuple[Image, Alpha, int]:
        """A die `side_px` wide (its face), turned at random: the patch, its alpha, value."""
        k = int(rng.integers(len(self.values)))
        size = math.ceil(side_px * RIM) + 2
        angle = float(rng.uniform(0, 360))
        scale = size / CUT
        m = cv2.getRotationMatrix2D((CUT / 2 - 0.5, CUT / 2 - 0.5), angle, scale)
        m[:, 2] += (size - CUT) / 2
        patch = cv2.warpAffine(
            self.faces[k], m, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
        )
        alpha = _rounded_square(size, side_px * rng.uniform(1.0, 1.08), angle, side_px * 0.15)
        return np.asarray(patch, np.uint8), alpha, int(self.values[k])


def _rounded_square(size: int, side: float, angle: float, radius: float) -> Alpha:
    """Alpha (0-1) of a square `side` wide with rounded corners, turned `angle` degrees,
    centred in a `size` square, its edge softened over a pixel."""
    big = 4
    canvas = np.zeros((size * big, size * big), np.uint8)
    c = size * big / 2
    half = side * big / 2
    r = min(radius * big, half)
    rect = ((c, c), (2 * (half - r), 2 * (half - r)), angle)
    pts = cv2.boxPoints(rect)
    cv2.fillConvexPoly(canvas, np.round(pts).astype(np.int32), 255)
    for p in pts:
        cv2.circle(canvas, (round(p[0]), round(p[1])), round(r), 255, -1)
    inner = cv2.boxPoints(((c, c), (2 * half, 2 * (half - r)), angle))
    cv2.fillConvexPoly(canvas, np.round(inner).astype(np.int32), 255)
    inner = cv2.boxPoints(((c, c), (2 * (half - r), 2 * half), angle))
    cv2.fillConvexPoly(canvas, np.round(inner).astype(np.int32), 255)
    small = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.float32) / 255.0


def paste(
    canvas: Image,
    patch: Image,
    alpha: Alpha,
    cx: float,
    cy: float,
    rng: np.random.Generator,
    shadow: bool = True,
) -> None:
    """`patch` pasted on `canvas` (in place) centred at (cx, cy), with a soft shadow
    falling any way where `shadow`."""
    h, w = patch.shape[:2]
    x0, y0 = round(cx - w / 2), round(cy - h / 2)
    if shadow and rng.random() < 0.7:
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0.05, 0.25) * w
        blur = int(rng.integers(0, 3)) * 2 + 1
        sh = cv2.GaussianBlur(alpha, (blur, blur), 0) * rng.uniform(0.2, 0.6)
        _blend(
            canvas, np.zeros_like(patch), sh, x0 + int(d * math.cos(a)), y0 + int(d * math.sin(a))
        )
    _blend(canvas, patch, alpha, x0, y0)


def _blend(canvas: Image, patch: Image, alpha: Alpha, x0: int, y0: int) -> None:
    h, w = patch.shape[:2]
    H, W = canvas.shape[:2]
    sx0, sy0, sx1, sy1 = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if sx1 <= sx0 or sy1 <= sy0:
        return
    p = patch[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0].astype(np.float32)
    a = alpha[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0, None]
    c = canvas[sy0:sy1, sx0:sx1].astype(np.float32)
    canvas[sy0:sy1, sx0:sx1] = np.clip(c * (1 - a) + p * a, 0, 255).astype(np.uint8)


# --- things that are not dice ----------------------------------------------------------


def _colour(rng: np.random.Generator, lo: int = 0, hi: int = 255) -> tuple[int, int, int]:
    c = rng.integers(lo, hi + 1, 3)
    return (int(c[0]), int(c[1]), int(c[2]))


def _turned(patch: Image, alpha: Alpha, angle: float) -> tuple[Image, Alpha]:
    h, w = patch.shape[:2]
    side = math.ceil(math.hypot(h, w)) + 2
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += ((side - w) / 2, (side - h) / 2)
    p = cv2.warpAffine(patch, m, (side, side), flags=cv2.INTER_LINEAR)
    a = cv2.warpAffine(alpha, m, (side, side), flags=cv2.INTER_LINEAR)
    return np.asarray(p, np.uint8), np.asarray(a, np.float32)


def _text(
    img: Image,
    text: str,
    box: tuple[int, int, int, int],
    colour: tuple[int, int, int],
    rng: np.random.Generator,
) -> None:
    """`text` drawn to fill about the box (x, y, w, h)."""
    x, y, w, h = box
    font = int(rng.choice([0, 1, 2, 3, 4, 6, 7]))
    thick = max(1, round(h * rng.uniform(0.06, 0.14)))
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    s = min(w / max(tw, 1), h / max(th, 1))
    (tw, th), _ = cv2.getTextSize(text, font, s, thick)
    cv2.putText(
        img, text, (x + (w - tw) // 2, y + (h + th) // 2), font, s, colour, thick, cv2.LINE_AA
    )


def _cube(rng: np.random.Generator, ppm: float) -> tuple[Image, Alpha]:
    side = max(6, int(rng.uniform(17, 28) * ppm))
    face = _colour(rng, 150, 255) if rng.random() < 0.6 else _colour(rng)
    ink = (20, 20, 20) if sum(face) > 380 else _colour(rng, 180, 255)
    if rng.random() < 0.3:
        ink = _colour(rng)
    img = np.full((side, side, 3), face, np.uint8)
    m = int(side * 0.18)
    _text(
        img,
        str(int(rng.choice([2, 4, 8, 16, 32, 64]))),
        (m, m, side - 2 * m, side - 2 * m),
        ink,
        rng,
    )
    if rng.random() < 0.4:  # a side face showing
        band = int(side * rng.uniform(0.1, 0.3))
        side_img = (np.array(face, np.float32) * rng.uniform(0.5, 0.8)).astype(np.uint8)
        img = np.concatenate([img, np.full((band, side, 3), side_img, np.uint8)], 0)
    alpha = np.ones(img.shape[:2], np.float32)
    return _turned(img, alpha, float(rng.uniform(0, 360)))


def _checker(rng: np.random.Generator, ppm: float) -> tuple[Image, Alpha]:
    d = max(8, int(rng.uniform(10, 42) * ppm))  # as large as a checker, or as small as a die
    img = np.zeros((d, d, 3), np.uint8)
    alpha = np.zeros((d, d), np.uint8)
    c, r = d // 2, d // 2 - 1
    base = _colour(rng)
    cv2.circle(alpha, (c, c), r, 255, -1, cv2.LINE_AA)
    cv2.circle(img, (c, c), r, base, -1, cv2.LINE_AA)
    shade = tuple(int(v * rng.uniform(0.5, 0.9)) for v in base)
    light = tuple(min(255, int(v * 1.3) + 30) for v in base)
    cv2.circle(img, (c, c), int(r * rng.uniform(0.7, 0.9)), shade, max(1, d // 18), cv2.LINE_AA)
    kind = rng.random()
    mark = shade if rng.random() < 0.5 else light
    if kind < 0.3:  # letters or a number
        chars = "ABCDEFGHJKMNPRSTWXYZ0123456789"
        text = "".join(rng.choice(list(chars)) for _ in range(int(rng.integers(1, 4))))
        w = int(r * 1.1)
        _text(img, text, (c - w // 2, c - w // 3, w, 2 * w // 3), mark, rng)
    elif kind < 0.55:  # a logo of curves
        for _ in range(int(rng.integers(1, 4))):
            cv2.ellipse(
                img,
                (c + int(rng.integers(-r // 3, r // 3 + 1)), c),
                (int(r * rng.uniform(0.15, 0.5)), int(r * rng.uniform(0.1, 0.4))),
                float(rng.uniform(0, 180)),
                0,
                float(rng.uniform(90, 360)),
                mark,
                max(1, d // 20),
                cv2.LINE_AA,
            )
    elif kind < 0.75:  # marbled
        for _ in range(int(rng.integers(3, 9))):
            p = rng.integers(c - r // 2, c + r // 2 + 1, 4)
            cv2.line(
                img,
                (int(p[0]), int(p[1])),
                (int(p[2]), int(p[3])),
                mark,
                max(1, d // 16),
                cv2.LINE_AA,
            )
    elif kind < 0.9:  # a ring of small marks
        n = int(rng.integers(6, 13))
        for k in range(n):
            a = 2 * math.pi * k / n
            cv2.circle(
                img,
                (int(c + 0.6 * r * math.cos(a)), int(c + 0.6 * r * math.sin(a))),
                max(1, d // 20),
                mark,
                -1,
                cv2.LINE_AA,
            )
    if rng.random() < 0.6:  # a highlight
        a = rng.uniform(0, 2 * math.pi)
        cv2.ellipse(
            img,
            (int(c + 0.4 * r * math.cos(a)), int(c + 0.4 * r * math.sin(a))),
            (max(1, int(r * rng.uniform(0.1, 0.35))), max(1, int(r * rng.uniform(0.05, 0.15)))),
            math.degrees(a) + 90,
            0,
            360,
            (255, 255, 255),
            -1,
            cv2.LINE_AA,
        )
    return img, alpha.astype(np.float32) / 255.0


def _hinge(rng: np.random.Generator, ppm: float) -> tuple[Image, Alpha]:
    w, h = max(4, int(rng.uniform(8, 18) * ppm)), max(8, int(rng.uniform(25, 60) * ppm))
    g = np.linspace(rng.uniform(90, 160), rng.uniform(170, 250), w, dtype=np.float32)
    tint = np.array(_colour(rng, 200, 255), np.float32) / 255
    img = (g[None, :, None] * tint[None, None, :] * np.ones((h, 1, 1), np.float32)).astype(np.uint8)
    cv2.line(img, (0, h // 2), (w - 1, h // 2), (60, 60, 60), max(1, h // 40))
    for k in range(int(rng.integers(2, 5))):
        y = int(h * (k + 0.5) / 4)
        cv2.circle(img, (w // 2, y), max(1, w // 5), (40, 40, 40), -1, cv2.LINE_AA)
        cv2.circle(img, (w // 2, y), max(1, w // 12), (200, 200, 200), -1, cv2.LINE_AA)
    return _turned(
        img, np.ones((h, w), np.float32), float(rng.choice([0, 90, rng.uniform(0, 360)]))
    )


def _clock(rng: np.random.Generator, ppm: float) -> tuple[Image, Alpha]:
    w, h = max(12, int(rng.uniform(40, 90) * ppm)), max(8, int(rng.uniform(25, 50) * ppm))
    img = np.full((h, w, 3), _colour(rng, 0, 90), np.uint8)
    lcd = _colour(rng, 150, 230)
    cv2.rectangle(img, (w // 8, h // 4), (7 * w // 8, 3 * h // 4), lcd, -1)
    _text(
        img,
        f"{rng.integers(0, 10)}:{rng.integers(10, 60)}",
        (w // 8, h // 4, 3 * w // 4, h // 2),
        (30, 30, 30),
        rng,
    )
    for k in range(int(rng.integers(1, 4))):
        cv2.rectangle(
            img,
            (w // 6 + k * w // 4, 1),
            (w // 6 + k * w // 4 + w // 12, h // 8),
            (200, 200, 200),
            -1,
        )
    return _turned(img, np.ones((h, w), np.float32), float(rng.uniform(0, 360)))


def _card(rng: np.random.Generator, ppm: float) -> tuple[Image, Alpha]:
    w, h = max(10, int(rng.uniform(25, 60) * ppm)), max(10, int(rng.uniform(30, 70) * ppm))
    img = np.full((h, w, 3), _colour(rng, 200, 255), np.uint8)
    _text(
        img,
        str(int(rng.integers(0, 26))),
        (w // 6, h // 6, 2 * w // 3, 2 * h // 3),
        _colour(rng, 0, 80),
        rng,
    )
    return _turned(img, np.ones((h, w), np.float32), float(rng.uniform(0, 360)))


def _letters(rng: np.random.Generator, ppm: float) -> tuple[Image, Alpha]:
    w, h = max(10, int(rng.uniform(20, 80) * ppm)), max(6, int(rng.uniform(8, 25) * ppm))
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w, 3), np.uint8)
    text = "".join(
        rng.choice(list("abcdefghijklmnopqrstuvwxyz")) for _ in range(int(rng.integers(2, 8)))
    )
    _text(alpha, text, (0, 0, w, h), (255, 255, 255), rng)
    img[:] = _colour(rng)
    return _turned(img, alpha[:, :, 0].astype(np.float32) / 255, float(rng.uniform(0, 360)))


GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!?#%&*+-=<>/^~"


def _keys(rng: np.random.Generator, ppm: float) -> tuple[Image, Alpha]:
    """Keys, buttons or tiles: rounded squares about a die's size, in a grid, each with a
    mark that is no pip pattern (a letter, digit or sign, in a corner or the middle): a
    keyboard beside the dice, a clock's buttons, letter tiles. The shape of a die with
    the wrong marks: the reader must tell a die by its pips, not its outline."""
    side = max(6, int(rng.uniform(10, 20) * ppm))
    gap = max(1, int(side * rng.uniform(0.1, 0.35)))
    rows, cols = int(rng.integers(1, 4)), int(rng.integers(1, 5))
    h, w = rows * (side + gap) + gap, cols * (side + gap) + gap
    dark = rng.random() < 0.6
    cap = _colour(rng, 35, 80) if dark else _colour(rng, 170, 255)
    ink = _colour(rng, 190, 255) if dark else _colour(rng, 0, 80)
    # between the keys: a laptop's silver, or near black
    grey = int(rng.integers(130, 211))
    ground = (grey, grey, grey) if rng.random() < 0.5 else _colour(rng, 0, 15)
    img = np.full((h, w, 3), ground, np.uint8)
    alpha = np.ones((h, w), np.float32)
    for i in range(rows):
        for j in range(cols):
            x0, y0 = gap + j * (side + gap), gap + i * (side + gap)
            a = _rounded_square(side, side * 0.96, 0.0, side * rng.uniform(0.05, 0.25))
            tone = np.clip(np.array(cap, np.float32) * rng.uniform(0.9, 1.1), 0, 255)
            _blend(img, np.full((side, side, 3), tone, np.uint8), a, x0, y0)
            box = img[y0 : y0 + side, x0 : x0 + side]
            text = "".join(rng.choice(list(GLYPHS)) for _ in range(int(rng.integers(1, 3))))
            size = int(side * rng.uniform(0.25, 0.6))
            if rng.random() < 0.5:  # in the middle
                at = ((side - size) // 2, (side - size) // 2)
            else:  # in a corner, as on a keyboard
                at = (int(side * 0.12), int(side * 0.12))
            _text(box, text, (at[0], at[1], size, size), ink, rng)
    return _turned(img, alpha, float(rng.uniform(0, 360)))


MAKERS = (_cube, _cube, _checker, _checker, _checker, _hinge, _clock, _card, _letters, _keys)


def not_a_die(rng: np.random.Generator, ppm: float, cubes: bool = True) -> tuple[Image, Alpha]:
    """Something that is not a die at `ppm` px per mm: its patch and alpha (`cubes`: a
    doubling cube among them)."""
    makers = MAKERS if cubes else tuple(m for m in MAKERS if m is not _cube)
    return makers[int(rng.integers(len(makers)))](rng, ppm)
