"""The cube unit's serial protocol as values: encode what the host sends, parse
what the unit sends. Pure: no serial port, no threads (see firmware/PROTOCOL.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.link.codes import BANNER_PREFIX, BUTTONS, CODES, ERRORS, LINE_MAX, error_text


class ProtocolError(ValueError):
    """A line from the unit that is not part of the protocol, or a bad value to send.
    `code` is the unit's error:N for the same value, where it has one."""

    def __init__(self, message: str, code: int = 0) -> None:
        super().__init__(message)
        self.code = code


OWNERS = ("c", "w", "b")
OFFERS = ("-", "w", "b")
FLAGS = ("-", "c", "p")


@dataclass(frozen=True)
class DisplayState:
    """What the unit should show: the host's truth, sent whole with SHOW."""

    cube: int = 1
    owner: str = "c"  # c centre, w, b
    offer: str = "-"  # -, or the player who doubled
    score_white: int = 0
    score_black: int = 0
    length: int = 0  # 0: money session
    flag: str = "-"  # - , c (Crawford game), p (post-Crawford)

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem:
            raise ProtocolError(problem[1], problem[0])

    def problem(self) -> tuple[int, str] | None:
        """Why the unit would refuse this state: its error:N and the reason, or None.
        The checks and their order are the firmware's (proto.c, cmd_show)."""
        if self.cube < 1 or self.cube > 4096 or self.cube & (self.cube - 1):
            return CODES["BAD_CUBE"], f"cube {self.cube}: not a power of two from 1 to 4096"
        if self.owner not in OWNERS or self.offer not in OFFERS:
            return CODES["BAD_OWNER"], (
                f"owner {self.owner!r} / offer {self.offer!r}: expected c/w/b and -/w/b"
            )
        if self.offer != "-" and self.owner not in ("c", self.offer):
            return CODES["BAD_OWNER"], f"{self.offer} doubles but {self.owner} owns the cube"
        if self.offer != "-" and self.cube == 4096:
            return CODES["BAD_CUBE"], "no redouble beyond 4096"
        for name, v in (("white", self.score_white), ("black", self.score_black)):
            if not 0 <= v <= 99 or (self.length and v > self.length):
                return CODES["BAD_SCORE"], f"{name} score {v} out of range for length {self.length}"
        if not 0 <= self.length <= 99:
            return CODES["BAD_NUMBER"], f"match length {self.length} out of range 0-99"
        if self.flag not in FLAGS:
            return CODES["BAD_FLAG"], f"flag {self.flag!r}: expected -, c or p"
        if self.flag != "-" and not self.length:
            return CODES["BAD_FLAG"], "Crawford flags exist only in a match"
        if self.flag == "c" and (self.cube != 1 or self.offer != "-"):
            return CODES["BAD_FLAG"], "no cube action in the Crawford game"
        return None

    def line(self) -> str:
        return (
            f"SHOW {self.cube} {self.owner} {self.offer} {self.score_white} "
            f"{self.score_black} {self.length} {self.flag}"
        )

    @classmethod
    def from_summary(cls, summary: dict[str, Any]) -> DisplayState:
        """The display for a match state as `Match.summary()` gives it."""
        cube = summary["cube"]
        owner = {"white": "w", "black": "b", None: "c"}[cube["owner"]]
        offer = "-"
        if cube["offered"]:
            # the player who doubled is the one who is not to act
            offer = "b" if summary["acting"] == "white" else "w"
        flag = "c" if summary["crawford"] else "p" if summary["post_crawford"] else "-"
        return cls(
            cube=min(cube["value"], 4096),
            owner=owner,
            offer=offer,
            score_white=min(summary["score"]["white"], 99),
            score_black=min(summary["score"]["black"], 99),
            length=summary["length"] or 0,
            flag=flag,
        )


# --- what the unit sends ----------------------------------------------------


@dataclass(frozen=True)
class Ok:
    pass


@dataclass(frozen=True)
class Error:
    code: int

    @property
    def text(self) -> str:
        return error_text(self.code)


@dataclass(frozen=True)
class Banner:
    version: str
    protocol: int
    reset: str
    boot: int


@dataclass(frozen=True)
class ButtonPress:
    boot: int
    seq: int
    player: str  # w or b
    button: str  # double, take, pass


@dataclass(frozen=True)
class StateReport:
    fields: dict[str, str]


@dataclass(frozen=True)
class SyncReply:
    token: int


@dataclass(frozen=True)
class Info:
    text: str


Message = Ok | Error | Banner | ButtonPress | StateReport | SyncReply | Info

_BANNER = re.compile(
    rf"{BANNER_PREFIX} (\S+) proto:(\d+) reset:(power|external|brownout|watchdog) boot:(\d+)"
)
_BUTTON = re.compile(r"\[BTN (\d+) (\d+) ([wb]) (double|take|pass)\]")
_SYNC = re.compile(r"\[SYNC (\d+)\]")


def parse_line(text: str) -> Message:
    """One line from the unit (without its line ending)."""
    line = text.strip("\r\n")
    if line == "ok":
        return Ok()
    if line.startswith("error:"):
        code = line[6:]
        if code.isdigit() and int(code) in ERRORS:
            return Error(int(code))
        raise ProtocolError(f"unknown error code in {line!r}")
    if m := _BANNER.fullmatch(line):
        return Banner(m[1], int(m[2]), m[3], int(m[4]))
    if m := _BUTTON.fullmatch(line):
        if m[4] not in BUTTONS:  # pragma: no cover - the regex allows only these
            raise ProtocolError(line)
        return ButtonPress(int(m[1]), int(m[2]), m[3], m[4])
    if m := _SYNC.fullmatch(line):
        return SyncReply(int(m[1]))
    if line.startswith("<state ") and line.endswith(">"):
        fields = dict(f.split(":", 1) for f in line[7:-1].split() if ":" in f)
        return StateReport(fields)
    if line.startswith("[") and line.endswith("]") and line.split()[0] not in ("[BTN", "[SYNC"):
        return Info(line[1:-1])
    raise ProtocolError(f"not a line of the cube protocol: {line[:60]!r}")


def check_host_line(line: str) -> str:
    """A host line ready to send (newline added), or ProtocolError."""
    if "\n" in line or "\r" in line:
        raise ProtocolError("a host line holds no line breaks")
    if len(line) > LINE_MAX:
        raise ProtocolError(f"host line longer than {LINE_MAX} characters: {line[:20]!r}...")
    if any(not " " <= ch <= "~" for ch in line):
        raise ProtocolError(f"host line with a non-printable character: {line!r}")
    return line + "\n"


def seq_newer(seq: int, last: int) -> bool:
    """seq comes after last in the unit's wrapping numbering (1..65535)."""
    return last == 0 or 0 < (seq - last) % 65536 < 32768


# --- what the display shows (mirrors firmware/display.c) -------------------

SEGMENTS = {
    "0": 0x7E,
    "1": 0x30,
    "2": 0x6D,
    "3": 0x79,
    "4": 0x33,
    "5": 0x5B,
    "6": 0x5F,
    "7": 0x70,
    "8": 0x7F,
    "9": 0x7B,
    "-": 0x01,
    "C": 0x4E,
    "r": 0x05,
    "L": 0x0E,
    "o": 0x1D,
    "t": 0x0F,
    " ": 0x00,
}
_GLYPH_TEXT = {v: k for k, v in SEGMENTS.items()}  # S and 5 share 0x5B: read as 5


def segments_text(seg: list[int] | tuple[int, ...]) -> str:
    """Eight MAX7219 digit bytes (leftmost first) as text; '?' for an unknown glyph."""
    out = []
    for b in seg:
        out.append(_GLYPH_TEXT.get(b & 0x7F, "?"))
        if b & 0x80:
            out.append(".")
    return "".join(out)


def display_text(state: DisplayState | None, link_lost: bool = False, blink_on: bool = True) -> str:
    """The eight digits for a state, as `segments_text` reads them."""
    if link_lost:
        return "  Lo5t  "
    if state is None:
        return "--    --"
    cube = 64 if state.cube == 1 else state.cube
    if state.offer != "-":
        cube = state.cube * 2
    middle = f"{cube:>4}" if state.offer == "-" or blink_on else "    "
    if state.flag == "c":
        middle = "Cr" + middle[2:]
    return f"{state.score_white:>2}{middle}{state.score_black:>2}"[:8]


def display_leds(state: DisplayState | None, link_lost: bool = False) -> set[str]:
    """The LEDs lit: owner_white, centre, owner_black, offer, link."""
    if link_lost:
        return set()
    if state is None:
        return {"link"}
    owner = {"w": "owner_white", "b": "owner_black", "c": "centre"}[state.owner]
    return {"link", owner} | ({"offer"} if state.offer != "-" else set())
