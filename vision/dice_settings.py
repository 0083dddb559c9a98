"""The dice reader's named settings (`vision.dicenet`, `vision.dice`): one frozen value.

The defaults are the tuned values; `companion/settings.toml` lists them in its `[dice]`
section (a test keeps the two equal). `bgcompanion run` and `referee` take them from
`--settings FILE` (its `[dice]` section); `read-dice` and `evaluate-dice` from
`--config FILE`, a file of one section: `[dice]`, or `[net]` (its older name).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from vision.settings import SettingsError, check_limits, from_table, nearest, read_toml, toml_table

SECTIONS = ("dice", "net")  # the sections a --config file may give them in (one of)


@dataclass(frozen=True)
class DiceSettings:
    # The dice are read by two small networks (vision/dicenet.py, vision/models/*.onnx;
    # trained by scripts/train_dicenet.py), with a calibration or without. The scales and
    # sizes the networks were trained at (change them only with networks trained so):
    detect_px_per_mm: float = 1.0  # the board seen from above at this scale for the detector
    margin_mm: float = 60.0  # ... with this margin round the playing surface
    read_px_per_mm: float = 2.0  # the reader's square: this scale ...
    read_px: int = 72  # ... and this many pixels wide
    read_shift_px: float = 10.0  # its die's centre comes out as an offset in these units
    # What counts:
    # A heat-map peak this strong marks a place to read: the detector proposes, the reader
    # decides (`present_min`). 0.3 lost white 1s on light points (the detector's odds
    # 0.26-0.46 on the referee's rendered games, the reader's over 0.99); at 0.2 the webcam
    # photos (not trained on) 87.6% right against 87.1%, 30 dice missed against 37, no
    # phantom die more, the board photos the same; at 0.1, 2 phantom dice more.
    detect_min: float = 0.2
    # On a board, weaker marks from these odds up are read too, and a die is taken from
    # one only where the reader is sure of it: present, and its value, at odds of
    # `weak_sure` or more (`vision.dicenet.find_dice`). A white die on a light point of a
    # black board, a case the networks were not trained on, was marked at 0.17-0.2 and
    # read at 1.0: missed, it was a false reroll call (`dice_count`) in the referee's wide
    # game 2. Measured 2026-11-29: at 0.1 with the reader's usual bars, the wide rolls'
    # phantom dice went 14 -> 99 and their false rerolls 4 -> 15 of 80; with `weak_sure`
    # 0.99 no die, phantom die or verdict changed on the wide, left-out, learnt and
    # default rolls.
    detect_weak: float = 0.1
    weak_sure: float = 0.99
    # At most this many marks (the strongest) are read: a bound on a frame's time, not a
    # filter. Checkers with letters, numbers or highlights are marked too (the reader
    # rejects them), up to 33 marks a frame on the wide styles, 2-4 on the default boards.
    # At 12 (until 2026-11-29) a die marked weaker than a dozen checkers went unread: the
    # wide rolls (not trained on) 92.35% right with 43 dice missed, 99.29% and 4 at 40
    # (phantom dice 71 -> 132: more checkers read, a red-black's highlight as a 1 most).
    marks_max: int = 40
    again_mm: float = 2.5  # a die further than this from its mark is read again there
    present_min: float = 0.5  # a die is there where the reader says so with these odds
    apart_mm: float = 10.0  # dice read closer than this are one (the surer kept)
    # A mark is a die only where the reader reads a face on it: its value's odds (read
    # turned, `read_turns`) at least this. A checker's print or highlight, the cube's
    # number, a rim can look like a die's presence to the reader but shows it no face:
    # such a mark is no die (not an "unreadable" one, which made phantom dice and reroll
    # calls). Measured 2026-11-28, shipped networks: no die of 519 found on 280 rolls of
    # the wide styles (not trained on) read below 0.77, 284 phantom dice of them below 0.6
    # (213); phantom dice 284 -> 71 there, board photos 1 -> 0 and the cube no longer a
    # die, webcam photos 17 -> 3, phone photos 5 -> 3, every die right as before.
    value_min: float = 0.6
    # Each die found is read again in its square turned by 1, 2 and 3 quarter turns, up to
    # this many readings in all (1: once), and its value's odds are their geometric mean.
    read_turns: int = 4
    # ... except a die on a board already read with its value's odds at least this high in
    # its first square: there the turns never changed a value (none of 79 rendered dice
    # read so, nor of 3 on the board photos) and a frame of sure dice is read in a third
    # less time. 1.0 reads every die turned.
    turns_below: float = 0.99
    # On a board each die's state (flat, cocked, on a checker) is also read by a second
    # reader whose square is turned so that the camera's foot lies straight down in it
    # (`vision.dicenet.facing`), taught on dice drawn as cubes seen from the camera
    # (`dice_state.onnx`), and its odds are the geometric mean of the two readers'. A flat
    # die seen aslant shows its sides towards the camera's foot, a cocked one wherever it
    # leans: only a reader that knows where the camera is can tell them apart. Measured
    # 2026-12-06 against the reader alone: board photos (not trained on) 0 flat dice
    # called cocked (2: dices6's black 6s); wide rolls read as frames (not trained on) 4
    # invalid rolls accepted and no false reroll (6, 1.2%), read alone 4 and 18.8% (9,
    # 20.0%); solid rolls 12.5% false rerolls (15.0%), 19 invalid rolls accepted as
    # before; default rolls 2 invalid rolls accepted (1: a black die drawn cocked as a
    # squashed top face with no side showing, which the second reader never saw). False:
    # the reader's state alone.
    state_facing: bool = True
    # A die read over a checker on a frame is a mark of the checkers themselves (a
    # highlight, logo or number) where the same spot of a nearby bare checker of its colour
    # correlates with it at least this much at every size (`vision.frame.checker_marks`).
    # 1.0: never so. Measured 2026-11-29 on the wide rendered rolls (280, seed 2026): the
    # phantom dice over a checker correlate 0.75 or more, every die truly on or beside a
    # checker 0.38 or less (the default rolls 0.23, the styles left out of the networks'
    # training 0.35); 0.55 lies in the middle of that gap. Phantom dice there 134 -> 14
    # (the rest: the bar's hinges), false reroll calls 15 -> 4 of 80 valid rolls; on the
    # styles left out 8 -> 0 and 2 -> 1 of 23; no die right lost, no invalid roll more
    # accepted, the default rolls and the board photos as they were. The same bound judges
    # a die read where `calibrate` learned a die-like mark of the board (a hinge, a print:
    # `vision.frame.board_marks`): there the last 14 phantom dice went, all hinges.
    bare_alike: float = 0.55
    # A die is none where the spot mirroring it about the board's middle (across the line
    # between the two sides, across the bar, or both) looks the same at every size, flipped,
    # as a checker's peers must (`vision.frame.mirror_marks`): a board is built symmetric
    # (hinges on the bar, prints on the surface), and dice thrown land anywhere. For boards
    # whose marks `calibrate` did not learn (a calibration made without the starting
    # position, or before the marks were learned). 1.0: never so. Measured 2026-11-29 on the
    # wide rendered rolls (280, seed 2026), read as frames, boards not learnt: the phantom
    # dice left (14, all hinges on the bar) correlate 0.96 or more with their mirror spot,
    # every die right 0.58 or less (one of the two highest, 0.57, a cocked die on a light
    # point, its mirror that point empty); on the
    # board photos every die and cube 0.39 or less, and dices6's hinges, checkers beside
    # them, 0.30-0.38. 0.77 lies in the middle of that gap.
    mirror_alike: float = 0.77
    # On a frame the checkers are read with each die read painted out over this radius
    # (board mm; `vision.board.paint_over`; 0: never): their colours and the board
    # network's counts, not their rings. 19 mm dice reach 13.4 mm from their centre.
    # Measured 2026-11-29 (painted in the camera frame, rings read there too): boards exact
    # on the wide rolls (280, seed 2026) at 9, 11 and 14 mm 272, 277 and 279 (none 269);
    # with the rings found on the frame unpainted, 280 at 14 mm.
    paint_mm: float = 14.0
    # A plain photo (no calibration) is searched at a ladder of scales
    # (vision.dicenet.plain_scales):
    plain_die_px: float = 16.0  # each scale makes dice this wide, as on a board at detect_px_per_mm
    plain_side_min_px: float = 12.0  # the smallest die looked for (photo px) ...
    plain_pixels_max: int = 2_500_000  # ... unless the photo scaled so has more pixels
    plain_fill_max: float = 3.0  # the largest die: this many fit across the shorter side
    # Each scale this many times the next. 1.25 since 2026-11-29 (1.5 before): a die lies
    # nearer the size the networks were taught at one scale or another, and its face is read
    # at more of them. Measured on the real plain photos with 1.5 / 1.33 / 1.25 / 1.2 /
    # 1.12: webcam (not trained on) 91.2 / 93.2 / 93.3 / 93.8 / 94.0% right, 8 / 8 / 12 /
    # 31 / 18 phantom dice; phone (trained on) 96.2 / 96.8 / 97.1 / 97.5 / 97.5%; a
    # 12-megapixel photo 417 / 585 / 717 / 809 / 1,220 ms on one core (target 1 s): the
    # finest with time to spare.
    plain_step: float = 1.25
    plain_places_max: int = 200  # at most this many places (the most strongly marked) are read
    plain_apart: float = 0.6  # dice closer than this share of the larger's side are one
    # Dice in one photo are of about one size: a die read more than this many times larger or
    # smaller than the surest die is something else (two checkers side by side look like a 2
    # at the scale where they are a die's size). Each size is known only to the scale it was
    # found at (`plain_step`, 1.25), and one photo's dice differ either in size (a mixed set
    # of 12 to 19 mm dice, 1.6 times) or by a slant's foreshortening (one set, 1.3), hardly
    # both: 1.6 x 1.25 = 2. (3 before 2026-11-29: a ladder 1.5 apart and all three taken
    # together. Derived again after a halved rendered photo of dice 12 px wide, with the
    # ladder 1.25 apart and 3, read two checkers side by side, at 2.4 times the dice's size,
    # as a 2. Real plain photos with 2 against 3: webcam 1,118 dice right against 1,119,
    # 36 wrong against 37, 9 phantom dice against 12; phone the same; tiled the same dice
    # right, 14 phantom dice against 15.)
    plain_sizes_apart: float = 2.0

    def __post_init__(self) -> None:
        check_limits(self, LIMITS)


LIMITS = {  # what the reader can work with (a size of 0 divides by it, a step of 1 never ends)
    "detect_px_per_mm": (0.1, 10.0),
    "margin_mm": (0.0, 1000.0),
    "read_px_per_mm": (0.1, 20.0),
    "read_px": (8, 1024),
    "read_shift_px": (0.0, 1000.0),
    "detect_min": (0.0, 1.0),
    "detect_weak": (0.0, 1.0),
    "weak_sure": (0.0, 1.0),
    "marks_max": (0, 1000),
    "again_mm": (0.0, 1000.0),
    "present_min": (0.0, 1.0),
    "apart_mm": (0.0, 1000.0),
    "value_min": (0.0, 1.0),
    "read_turns": (1, 4),
    "turns_below": (0.0, 1.0),
    "bare_alike": (-1.0, 1.0),
    "mirror_alike": (-1.0, 1.0),
    "paint_mm": (0.0, 100.0),
    "plain_die_px": (1.0, 1024.0),
    "plain_side_min_px": (1.0, 100_000.0),
    "plain_pixels_max": (1, 100_000_000),
    "plain_fill_max": (0.5, 1000.0),
    "plain_step": (1.05, 100.0),
    "plain_places_max": (0, 1000),
    "plain_apart": (0.0, 10.0),
    "plain_sizes_apart": (1.0, 100.0),
}


def load_dice_settings(path: str | Path | None = None) -> DiceSettings:
    """The defaults, overridden by the `--config` file at `path` when given: one section,
    `[dice]` or `[net]`. SettingsError (one line) for a file that cannot be read, is not
    TOML, or names a section or key that does not exist or a value the reader cannot use."""
    if path is None:
        return DiceSettings()
    doc = read_toml(path)
    known = ", ".join(f"[{s}]" for s in SECTIONS)
    for section, table in doc.items():
        if section not in SECTIONS:
            raise SettingsError(
                f"{path}: unknown section [{section}]{nearest(section, SECTIONS)} "
                f"(sections: {known})"
            )
        if not isinstance(table, dict):
            raise SettingsError(f"{path}: {section} must be a section [{section}], not a value")
    if len(doc) > 1:
        raise SettingsError(f"{path}: give the dice settings once, in [dice] or [net], not both")
    if not doc:
        return DiceSettings()
    ((section, table),) = doc.items()
    return from_table(DiceSettings, table, f"{path} [{section}]")


def dice_settings_text(settings: DiceSettings) -> str:
    """The settings as a `--config` file (its `[dice]` section): written next to the
    results they produced."""
    return toml_table("dice", settings)
