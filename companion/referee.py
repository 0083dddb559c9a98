"""The referee: what the camera sees, frame by frame, in; the game's events out.

The referee never reads pixels. Each frame arrives as an `Observation`: its number, its
time and vision's `vision.reading.Reading` of it, unchanged: whether something moves over
the board (a hand: the frame is not read), the dice read (`vision.die.DieReading`s, judged
by `companion.rules.roll.roll_verdict`) and the checkers read (`vision.reading.BoardSeen`).
A reading counts once it has *settled*: the same dice and board in `settle` still frames
in a row.

From settled readings and the match (`companion.rules.match.Match`, which knows
whose turn it is and what is allowed) it decides:

- opening roll: one die in each player's right-hand section; equal dice are
  rolled again (`reroll`, reason `tie`), a broken roll too (`reroll` with the
  reasons of `companion.rules.roll.roll_verdict`, the referee's verdict); dice the
  camera cannot read are no reason to roll again: the referee asks for them by hand
  (`needs_fix`);
- roll: two dice in the roller's right-hand section, flat, off the checkers
  (unless the director allows dice on checkers) -> `roll`; otherwise `reroll`
  with the reasons, and the next roll counts only after those dice are picked up;
- a roll by the other player while the mover's dice still lie on the board is void
  (`reroll`, reason `early`); what of the mover's still lies just as it lay when the other
  player throws again is a thing at rest, and that throw is judged;
- the play, once the dice are picked up (`dice_picked_up`): every legal play's
  resulting position is scored against the board read, point by point, each point
  weighed by the reader's confidence in it (`companion.explain`); the best is the
  `play` when it explains the reading clearly better than the next (the event says
  how well: `fit`, with `check` where the margin is thin). A reading no legal result
  comes close to is an `illegal_play` only where it is a play the mover could have
  made and was read surely where it differs (the match then waits for the opponent
  to accept it by rolling, or reject it). A reading that decides nothing asks for a
  look by hand (`needs_fix`) and each further look adds to the evidence; once the
  opponent rolls, the play is decided on what was seen (the best explanation);
- never lost: the board is compared with the position the referee believes at every
  look; the same sure difference over several looks, across plays, is the referee's
  mistake, not the reader's, and it takes the board as read (`correction`, recorded
  in the match log, never an edit) where that is a position the game can be in;
- a turn the camera missed (a roll misread and called back, but played): when the
  checkers move while a roll is awaited and exactly one roll explains the new
  position by a legal play, the roll and play are recorded marked `inferred`; a throw
  called back only for how its dice lay (read cocked or on a checker, `LIE_REASONS`)
  and played anyway is recorded with the roll read;
- a roll thrown again before its play (a cocked die read flat: the players saw it): the
  dice picked up with the board unchanged and a new pair thrown in the mover's section
  calls the roll back (`reroll`, `thrown_again`); so a play is not taken while the board
  shows the roll unplayed as well;
- `game_over` and `match_over` as the match reports them. Cube actions and
  resignations are not seen by the camera: `act()` takes them from the page or the
  cube unit's buttons.

Every decision goes through `apply`, which may be the match itself or the match
store (so that each event is saved before it is shown).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.explain import (
    ExplainSettings,
    Fit,
    WeighedBoard,
    best_fit,
    plausible_correction,
    plausible_play,
    shifted,
    weigh,
)
from companion.rules.match import Action, Match, MatchError, Phase
from companion.rules.position import Color, Play, Position
from companion.rules.roll import roll_verdict
from vision.die import DieReading
from vision.reading import MOVING, Reading
from vision.reading import BoardSeen as BoardSeen  # the referee's board, read by vision

Event = dict[str, Any]


@dataclass(frozen=True)
class Observation:
    """What the referee is told of one camera frame: its number, its time in seconds and
    vision's reading of it (`vision.reading.Reading`, one type from camera to referee)."""

    frame: int
    t: float
    reading: Reading = MOVING

    @property
    def moving(self) -> bool:
        return self.reading.moving

    @property
    def dice(self) -> tuple[DieReading, ...]:
        return self.reading.dice

    @property
    def board(self) -> BoardSeen | None:
        return self.reading.board


@dataclass
class _Settled:
    dice: tuple[tuple[Any, ...], ...]
    board: BoardSeen | None
    raw_dice: Sequence[DieReading] = field(default_factory=tuple)


_NO_LOOK = _Settled((), None)  # a play taken on a look already looked at


def _dice_key(dice: Sequence[DieReading]) -> tuple[tuple[Any, ...], ...]:
    return tuple(sorted((str(d.section), d.value or 0, d.flat, d.on_checker) for d in dice))


REST_LOOKS = 20  # settled looks a thing at rest is remembered unread (a few turns)
# The reasons a throw is called back for that concern only how its dice lie, their values
# read: a reader's state is the least sure thing it reads on dice it was not taught (a flat
# die seen aslant shows its sides as a cocked one does), and players who see a die flat
# play the roll (`Referee._lie`).
LIE_REASONS = frozenset({"cocked", "on_checker"})


@dataclass(frozen=True)
class _Resting:
    """A thing at rest read as a die (`Referee._at_rest`): as read, at the mean of its
    readings' places (a reader's centre wanders); the looks it was read in, and the looks
    since it was last read."""

    die: DieReading
    reads: int = 1
    unseen: int = 0

    def read(self, again: DieReading) -> _Resting:
        (x, y), (u, v), n = self.die.center_px, again.center_px, self.reads
        place = ((x * n + u) / (n + 1), (y * n + v) / (n + 1))
        return _Resting(replace(self.die, center_px=place), n + 1, 0)


def _among(die: DieReading, dice: Sequence[DieReading], within: float) -> bool:
    """Whether `die` is one of `dice` lying still: the same face, its centre within
    `within` pixels of one's."""
    return any(
        d.value == die.value
        and math.hypot(d.center_px[0] - die.center_px[0], d.center_px[1] - die.center_px[1])
        <= within
        for d in dice
    )


@dataclass(frozen=True)
class WatchSettings:
    """How the referee watches the frames: the `Referee`'s defaults, as settings."""

    settle: int = 4  # still frames in a row showing the same dice and board: a settled look
    board_min: float = 0.5  # a board read less surely than this does not count
    fix_after: int = 30  # still frames an unusable reading lasts before it is asked by hand
    rest_px: float = 6.0  # a die read this near (px) where one lay, its face alike: lying still

    def __post_init__(self) -> None:  # a settings file's slip, named
        if self.settle < 1:
            raise ValueError(f"settle must be 1 or more, got {self.settle!r}")
        if self.rest_px < 0:
            raise ValueError(f"rest_px must be 0 or more, got {self.rest_px!r}")
        if self.fix_after < 0:
            raise ValueError(f"fix_after must be 0 or more, got {self.fix_after!r}")
        if not 0 <= self.board_min <= 1:
            raise ValueError(f"board_min must be from 0 to 1, got {self.board_min!r}")


Turn = tuple[tuple[int, int], Position, tuple[int, int]]


def _likelier(dice: tuple[int, int]) -> tuple[bool, tuple[int, int]]:
    """Sorts rolls likeliest first: a double is half as likely as a roll of two faces (and
    among equals, the lowest first)."""
    return dice[0] == dice[1], dice


def _stuck(position: Position, dice: tuple[int, int]) -> bool:
    """Whether the roll `dice` has no play from `position` (its one legal play is empty)."""
    return all(not p.steps for p in position.legal_plays(dice))


def _best_result(
    reading: WeighedBoard, turns: Sequence[Turn], against: float
) -> tuple[Position, float, dict[tuple[int, int], str], float]:
    """The legal result of `turns` (each a key, the position played from and the dice)
    that `reading` shows best: the result, its cost, the keys with a play of it (each with
    that play), and by how much it beats the next result or `against` (the cost of what
    else could explain the reading), whichever is nearer."""
    found: dict[Position, dict[tuple[int, int], str]] = {}
    for key, position, dice in turns:
        for play in position.legal_plays(dice):
            found.setdefault(play.result, {}).setdefault(key, str(play))
    # cheapest first; among equals, the first found (the index: positions are not ordered)
    ranked = sorted((reading.cost(result), n, result) for n, result in enumerate(found))
    cost, _, best = ranked[0]
    runner_up = min([against, *(c for c, _, _ in ranked[1:2])])
    return best, cost, found[best], runner_up - cost


def _seen_all_off(reading: WeighedBoard, result: Position, mover: Color) -> bool:
    """Whether `reading` shows none of the mover's checkers on the board (points and bar),
    surely wherever `result` has some."""
    seen, weights, want = (
        (reading.white, reading.white_w, result.white)
        if mover == Color.WHITE
        else (reading.black, reading.black_w, result.black)
    )
    return not any(seen[1:]) and all(weights[i] >= 1.0 for i in range(1, 26) if want[i])


def _opening_turn(white: int, black: int) -> Turn:
    """The opening of white's die and black's (not a tie) as a turn: its key, the start
    with the higher die's player on roll, and the roll played."""
    first = Color.WHITE if white > black else Color.BLACK
    return (white, black), Position.start(first), (max(white, black), min(white, black))


class Referee:
    """Feeds observations in order; each call returns the events it decided."""

    def __init__(
        self,
        match: Callable[[], Match],
        apply: Callable[[Action], list[Action]],
        settle: int = WatchSettings.settle,
        board_min: float = WatchSettings.board_min,
        fix_after: int = WatchSettings.fix_after,
        rest_px: float = WatchSettings.rest_px,
        explain: ExplainSettings | None = None,
    ) -> None:
        self.match = match
        self.apply = apply
        self.settle = settle
        self.board_min = board_min
        self.fix_after = fix_after  # still frames an unreadable reading lasts before asking
        self.rest_px = rest_px
        self.explain = explain or ExplainSettings()
        self._evidence: list[float] = []  # each legal result's summed cost over the looks
        self._stay = 0.0  # ... and the position before the play's
        self._looks = 0  # looks at the board since the dice were picked up
        # A sure difference between the board and the position believed, looked at in turn:
        # (colour, index) -> (checkers, looks in a row, the believed positions it was seen on)
        self._drift: dict[tuple[str, int], tuple[int, int, frozenset[int]]] = {}
        self._believed = 0  # counts the positions the referee has believed in turn
        # An illegal play called on one look: the legal play that came nearest, and the
        # board as read, until another look confirms it or shows the legal play after all.
        self._illegal: tuple[Play, Position] | None = None
        self._unexplained = 0  # plays in a row that no legal result explained well
        # The last look's reading with the frame its still settled at, and the last
        # reading of an earlier still (`_still_look`): a still looked at twice is one look.
        self._still: tuple[int, WeighedBoard] | None = None
        self._still_before: WeighedBoard | None = None
        self._fix: tuple[int, Event] | None = None  # since which frame, and the request
        self._last: tuple[Any, ...] | None = None
        self._count = 0
        self._frame = 0
        self._settled: _Settled | None = None
        self._await_clear = False  # a broken roll's dice must be picked up first
        self._early = False  # the other player's dice are on the board too
        # The mover's dice read when an early throw was first called back this turn: a
        # die still lying just so when the other player throws again is a thing at rest.
        self._early_left: tuple[DieReading, ...] = ()
        self._picked_up = False  # the mover picked the dice up: the play is to be read
        # Things read as dice that lie at rest, no throw's (`_at_rest`): the doubling cube,
        # a clock's button or a print read as a die, a die left aside; never decided on.
        self._resting: list[_Resting] = []
        self._seen: tuple[DieReading, ...] = ()  # the dice of the last settled look, all
        self._clear_before = True  # the look before it showed no die but things at rest
        self._thrown: tuple[DieReading, ...] = ()  # the dice of the last throw decided ...
        self._accepted = False  # ... and whether they stood as the roll
        self._real: tuple[DieReading, ...] = ()  # ... less what was found no die of it
        # The roll a throw called back showed once things at rest among its dice were
        # known (`_without_rest`): the roll a turn the camera missed was played with.
        self._hint: tuple[int, int] | None = None
        # The one die read of a throw called back for that alone (a die short, the other
        # missed: a small dark die on a dark point): its face is in the roll played, and
        # in the opening its section says whose die it is.
        self._lone: DieReading | None = None
        # The call back of a throw a die short (`dice_count`, one die found), made only if
        # the same player throws again before the turn is seen played (`_one_die`).
        self._short: tuple[Event, DieReading] | None = None
        # The roll read of a throw called back only for how its dice lay (`LIE_REASONS`:
        # read cocked, or on a checker), until another throw is judged: the players may
        # see the dice flat and play it (a reader's false call), and a turn the camera
        # then missed is looked for with that roll first (`_missed_turn`).
        self._lie: tuple[int, int] | None = None  # in the opening: (white's, black's)
        # The dice of the roll standing, as read (their confidence says which may be
        # misread: `_misread_roll`), until its play is recorded.
        self._rolled: tuple[DieReading, ...] = ()

    @classmethod
    def for_match(cls, match: Match, **kw: Any) -> Referee:
        return cls(lambda: match, match.apply, **kw)

    # --- frames ---------------------------------------------------------------------------
    def feed(self, obs: Observation) -> list[Event]:
        if obs.moving:
            self._last, self._count = None, 0
            return []
        board_key = (
            (obs.board.white, obs.board.black, obs.board.confidence >= self.board_min)
            if obs.board
            else None
        )
        key = (_dice_key(obs.dice), board_key)
        if key == self._last:
            self._count += 1
        else:
            self._last, self._count = key, 1
        if self._count != self.settle:
            return self._ask_now(obs) if self._count > self.settle else []
        dice = self._at_rest(obs.dice)
        settled = _Settled(_dice_key(dice), obs.board, dice)
        changed = self._settled is None or (
            settled.dice != self._settled.dice
            or (settled.board and self._settled.board and settled.board != self._settled.board)
            or (settled.board is not None) != (self._settled.board is not None)
        )
        self._settled = settled
        if not changed:
            return []
        self._fix = None
        self._frame = obs.frame
        return [{"frame": obs.frame, "t": round(obs.t, 3), **e} for e in self._decide(settled)]

    def _at_rest(self, dice: Sequence[DieReading]) -> tuple[DieReading, ...]:
        """The dice of a settled look less the things at rest among them.

        A throw's dice come together and go together. A die read where it lay at the
        last look, with its face, while two dice or more came (a throw landed beside it)
        or went (the dice beside it were picked up) is no die of a throw: the doubling
        cube or a clock's button read as a die, a die left aside. Not so the roll's own dice
        (the mover's, still on the board when the other player throws early) nor, as
        others go, a broken throw's (picked up one by one), unless a pair of it went and
        it was one die more than a pair. Things at rest are never decided on while they
        lie there: a thing that first shows on a bare board is judged as a throw once (a
        die short: a reroll called), and no more once a throw lands beside it.
        """
        seen, self._seen = self._seen, tuple(dice)
        was = self._rest
        # each thing at rest read again where it lay, and one not read for REST_LOOKS
        # looks forgotten (taken away; a thing read in some looks only, its reading weak,
        # is still known when it shows again)
        kept = []
        for r in self._resting:
            again = [d for d in dice if _among(d, [r.die], self.rest_px)]
            if again:
                kept.append(r.read(again[0]))
            elif r.unseen < REST_LOOKS:
                kept.append(replace(r, unseen=r.unseen + 1))
        self._resting = kept
        stayed = [d for d in dice if _among(d, seen, self.rest_px)]
        # a throw brings a pair and a pick-up takes one: one die read anew is as often the
        # same die read a little elsewhere (or a weak reading back) as a die come or gone
        came = sum(not _among(d, seen, self.rest_px) for d in dice) >= 2
        went = sum(not _among(d, dice, self.rest_px) for d in seen) >= 2
        # a pair of a throw of more dice picked up: what is left of it was no die of it
        pair_went = sum(not _among(t, dice, self.rest_px) for t in self._thrown) >= 2
        for d in stayed:
            if _among(d, self._rest, self.rest_px):
                continue
            thrown = _among(d, self._thrown, self.rest_px)
            if (came and not (thrown and self._accepted)) or (
                went and (not thrown or (pair_went and len(self._thrown) > 2))
            ):
                self._resting.append(_Resting(d))
        self._judge_again(dice)
        # the look before showed only things at rest (then or now), none of the throw
        known = [*was, *self._rest]
        self._clear_before = all(
            _among(d, known, self.rest_px) and not _among(d, self._thrown, self.rest_px)
            for d in seen
        )
        if not any(_among(t, dice, self.rest_px) for t in self._thrown):
            self._thrown = ()  # picked up, every one
        return tuple(d for d in dice if not _among(d, self._rest, self.rest_px))

    @property
    def _rest(self) -> list[DieReading]:
        """The things at rest, as read (`_Resting`)."""
        return [r.die for r in self._resting]

    def _judge_again(self, dice: Sequence[DieReading]) -> None:
        """A throw called back with more than a pair of dice read: what of it is now at
        rest, or went while a pair of it stayed (a thing read once, with the throw), was
        no die of it; the rest is kept to judge the throw again (`_without_rest`)."""
        if self._accepted or len(self._thrown) <= 2:
            return
        real = [t for t in self._thrown if not _among(t, self._rest, self.rest_px)]
        stayed = [t for t in real if _among(t, dice, self.rest_px)]
        if len(stayed) >= 2:
            real = stayed
        if len(real) < len(self._thrown):
            self._real = tuple(real)

    def _decided(self, dice: Sequence[DieReading], accepted: bool) -> None:
        """Remembers a throw's dice as decided (`_at_rest`)."""
        self._thrown, self._accepted = tuple(dice), accepted
        self._real = ()
        self._hint = None
        self._lone = None
        self._lie = None

    def _without_rest(self, match: Match) -> tuple[int, int] | None:
        """The roll the throw called back stood as without the things that were no dice
        of it (`_judge_again`); None if none was found among its dice, or if it did not
        stand so either."""
        if match.phase != Phase.ROLL or not self._real:
            return None
        allowed = match.rules.dice_on_checker == "allowed"
        roll, ok, _ = roll_verdict(self._real, str(match.on_roll), True, allowed, refereeing=True)
        return roll if ok else None

    def _ask(self, player: Color | None, why: str) -> list[Event]:
        """A reading the referee cannot use: ask for it by hand if it lasts `fix_after` frames.

        Another look often settles it (a shadow moves, the camera refocuses), so the
        request waits; a new settled reading withdraws it.
        """
        request = {"type": "needs_fix", "player": str(player) if player else None, "why": why}
        self._fix = (self._frame, request)
        return []

    def _ask_now(self, obs: Observation) -> list[Event]:
        if self._fix is None or obs.frame - self._fix[0] < self.fix_after:
            return []
        request = self._fix[1]
        self._fix = (1 << 62, request)  # asked: once per settled reading
        return [{"frame": obs.frame, "t": round(obs.t, 3), **request}]

    # --- cube and resignations, from outside ------------------------------------------------
    def act(self, action: Action, frame: int = 0, t: float = 0.0) -> list[Event]:
        """An action from outside: a cube action or resignation (the page, the unit's
        buttons), or a roll or play entered by hand where the camera could not decide.

        After a take the player rolls: what lies on the board is looked at afresh, so
        dice thrown while the cube was being decided count. A roll or play entered by
        hand ends what the referee was waiting for.
        """
        events = [{"frame": frame, "t": round(t, 3), **e} for e in self._apply(action)]
        kind = action.get("type")
        self._fix = None
        if kind == "take":
            self._last, self._count, self._settled = None, 0, None
        elif kind in ("play", "illegal_play", "accept", "reject", "opening", "roll"):
            self._turn_done()
            self._await_clear = False
            if kind in ("opening", "roll"):  # the dice on the board are the roll entered
                self._decided(self._settled.raw_dice if self._settled else (), True)
        return events

    def reset(self) -> None:
        """Forget what was waited for (after an undo or a new match): the next settled
        reading is decided against the match as it is then."""
        self._turn_done()
        self._await_clear = False
        self._fix = None

    # --- decisions --------------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        done = self.apply(action)
        out: list[Event] = []
        for e in done:
            kind = e.get("type")
            if kind == "opening":
                if e.get("again"):
                    out.append({"type": "reroll", "player": None, "reasons": ["tie"]})
                else:
                    first = e["first"]
                    dice = (
                        [e["white"], e["black"]] if first == "white" else [e["black"], e["white"]]
                    )
                    out.append({"type": "opening_roll", "player": str(first), "dice": dice})
            elif kind == "play":
                out.append({"type": "play", "player": str(e["player"]), "play": e["play"]})
                if "fit" in e:
                    out[-1]["fit"] = e["fit"]
            elif kind == "illegal_play":
                out.append(
                    {"type": "illegal_play", "player": str(e["player"]), "position": e["position"]}
                )
            elif kind == "game_over":
                out.append(
                    {
                        "type": "game_over",
                        "winner": str(e["winner"]),
                        "points": e["points"],
                        "result": e.get("result"),
                    }
                )
            elif kind == "match_over":
                out.append({"type": "match_over", "winner": str(e["winner"]), "score": e["score"]})
            elif kind == "roll":
                out.append({"type": "roll", "player": str(e["player"]), "dice": e["dice"]})
            elif kind == "reroll":
                continue  # said already, with the reasons seen
            else:
                out.append({k: (str(v) if isinstance(v, Color) else v) for k, v in e.items()})
        return out

    def _decide(self, s: _Settled) -> list[Event]:
        match = self.match()
        if match.phase == Phase.MATCH_OVER:
            return []
        n_dice = len(s.dice)
        if self._await_clear:
            # A broken throw's dice must be picked up first (the board clear of all but
            # things at rest), unless what was judged as one was all things at rest
            # (read as dice on a bare board, a throw then landing beside them): what
            # came is the next throw.
            phantom = bool(self._thrown) and all(
                _among(t, self._rest, self.rest_px) for t in self._thrown
            )
            if n_dice and not phantom and not self._clear_before:
                return []
            self._await_clear = False
            self._hint = self._without_rest(match)
        if match.phase == Phase.OPENING:
            return self._opening(s) if n_dice else self._missed_opening(s)
        if match.phase == Phase.ILLEGAL and self._illegal is not None:
            events = self._recheck_illegal(s)
            if events:
                match = self.match()
                return events + (self._roll(s, match) if n_dice else [])
        if match.phase in (Phase.ROLL, Phase.ILLEGAL):
            return self._roll(s, match) if n_dice else self._missed_turn(s, match)
        if match.phase == Phase.MOVE:
            return self._move(s, match)
        return []  # a double or resignation is pending: the page or the unit answers it

    def _opening(self, s: _Settled) -> list[Event]:
        sections = {d.section for d in s.raw_dice}
        called_back = self._lone is not None or self._lie is not None
        if called_back and len(s.raw_dice) >= 2 and len(sections) == 1:
            # A pair on one side after an opening throw called back for a die short (or
            # with a die unreadable, or only for how its dice lay): the next player's
            # roll, if the checkers show the opening played.
            events = self._missed_opening(s)
            if events:
                match = self.match()
                return events + (self._throw(s, match) if match.phase == Phase.ROLL else [])
        # an opening throw a die short before, thrown again: called back now (`_one_die`)
        return self._called_short() + self._judge_opening(s)

    def _judge_opening(self, s: _Settled) -> list[Event]:
        roll, ok, reasons = roll_verdict(s.raw_dice, "opening", refereeing=True)
        self._decided(s.raw_dice, ok and roll is not None)
        if reasons == ["unreadable"]:
            return self._unreadable(None, s.raw_dice)
        by_section = {str(d.section): d.value for d in s.raw_dice}
        if not ok or roll is None:
            self._await_clear = True
            if reasons == ["dice_count"] and len(s.raw_dice) == 1:  # flat, in a section
                return self._one_die(None, s.raw_dice[0])
            white, black = by_section.get("right"), by_section.get("left")
            if set(reasons) <= LIE_REASONS and white and black and white != black:
                self._lie = (white, black)
            return [{"type": "reroll", "player": None, "reasons": reasons}]
        events = self._apply(
            {"type": "opening", "white": by_section["right"], "black": by_section["left"]}
        )
        if self.match().phase == Phase.OPENING:  # a tie: pick them up and roll again
            self._await_clear = True
            self._decided(s.raw_dice, False)
        return events

    def _missed_opening(self, s: _Settled) -> list[Event]:
        """An opening throw called back for a die short (the other missed), then played.

        The die read is its side's die: each value of the other die makes an opening roll
        and says who plays first. The opening is recorded (`inferred`) where one of those
        rolls' plays explains the checkers as read, as any play is read. So too an opening
        throw called back only for how its dice lay (`_lie`), its two dice read: its one
        roll."""
        die = self._lone
        reading = self._reading(s)
        if reading is None:
            return []
        if self._lie is not None:
            turns = [_opening_turn(*self._lie)]
        elif die is None or die.value is None or die.section not in ("left", "right"):
            return []  # a die on the bar is neither player's
        else:
            turns = self._opening_turns(die)
        start = Position.start()
        stay = reading.cost(start)
        x = self.explain
        if stay < x.margin_min:
            return []
        _, cost, rolls, margin = _best_result(reading, turns, stay)
        if cost > 0.5 or margin < x.margin_min:
            return []
        (white, black), *others = sorted(rolls)
        self._await_clear = False
        return self._inferred(
            {"type": "opening", "white": white, "black": black},
            rolls[(white, black)],
            [sorted(r, reverse=True) for r in others],  # as `dice`: the first player's first
        )

    @staticmethod
    def _opening_turns(die: DieReading) -> list[Turn]:
        """The openings a throw with `die` read in its section can be: (white's die,
        black's), the start with the first player on roll, the roll played."""
        assert die.value is not None
        turns = []
        for other in range(1, 7):
            if other == die.value:
                continue  # a tie is thrown again, never played
            white, black = (die.value, other) if die.section == "right" else (other, die.value)
            turns.append(_opening_turn(white, black))
        return turns

    def _inferred(self, throw: Action, play: str, others: list[list[int]]) -> list[Event]:
        """Records a turn the camera missed, read from its play: `throw` (the roll or the
        opening), the pick-up and `play`, each marked `inferred`, with `others`, the rolls
        that have that play too (`alternatives`)."""
        events = [{**e, "inferred": True} for e in self._apply(throw)]
        if others and events:
            events[0]["alternatives"] = others
        mover = str(self.match().on_roll)
        events.append({"type": "dice_picked_up", "player": mover, "inferred": True})
        played = self._apply({"type": "play", "play": play})
        if played:
            played[0] = {**played[0], "inferred": True}
        self._turn_done()
        self._believed += 1
        return events + played

    def _roll(self, s: _Settled, match: Match) -> list[Event]:
        events = self._look(s, match) if match.phase == Phase.ROLL else []
        if events:
            match = self.match()
        elif match.phase == Phase.ROLL and self._theirs(s, match):
            # A pair thrown on the other player's side while the checkers show the
            # mover's turn played: the mover's turn the camera missed is over (a die of
            # it never read, a throw called back), and this is the other player's throw.
            events = self._missed_turn(s, match, ended=True)
            if events:
                match = self.match()
        return events + self._throw(s, match)

    @staticmethod
    def _theirs(s: _Settled, match: Match) -> bool:
        """Whether two dice or more were thrown, all on the side of the player not on roll."""
        other_side = "left" if match.on_roll == Color.WHITE else "right"
        return len(s.raw_dice) >= 2 and all(d.section == other_side for d in s.raw_dice)

    def _throw(self, s: _Settled, match: Match) -> list[Event]:
        return self._called_short() + self._judge_throw(s, match)

    def _called_short(self) -> list[Event]:
        """A throw a die short before (`_one_die`), not seen played, as a throw comes: it
        was thrown again, so its die not found was off the board (or the players took it
        for so), and it is called back now. Unless its one die lies where it lay as this
        throw landed beside it (`_at_rest`): then that was no throw but a thing at rest
        read as a die (the cube's face, a clock's button), and nothing is called."""
        short, self._short = self._short, None
        if short is None or _among(short[1], self._rest, self.rest_px):
            return []
        return [short[0]]

    def _judge_throw(self, s: _Settled, match: Match) -> list[Event]:
        roller = match.on_roll if match.phase == Phase.ROLL else match.on_roll.opponent
        allowed = match.rules.dice_on_checker == "allowed"
        roll, ok, reasons = roll_verdict(s.raw_dice, str(roller), True, allowed, refereeing=True)
        self._decided(s.raw_dice, ok and roll is not None)
        if reasons == ["unreadable"]:
            return self._unreadable(roller, s.raw_dice)
        if not ok or roll is None:
            self._await_clear = True
            if roll is not None:
                # A broken roll still counts as the throw (no double after it): on record
                # as the roll and its reroll.
                self.apply({"type": "roll", "dice": list(roll)})
                self.apply({"type": "reroll", "reasons": reasons})
                if set(reasons) <= LIE_REASONS:
                    self._lie = (roll[0], roll[1])
            elif match.phase == Phase.ILLEGAL:
                # A throw a die short is a throw too: the illegal play before it stands.
                self.apply({"type": "accept"})
            if reasons == ["dice_count"] and len(s.raw_dice) == 1:
                return self._one_die(roller, s.raw_dice[0])
            return [{"type": "reroll", "player": str(roller), "reasons": reasons}]
        events = self._apply({"type": "roll", "dice": list(roll)})
        self._rolled = tuple(s.raw_dice)
        return events

    def _missed_turn(self, s: _Settled, match: Match, ended: bool = False) -> list[Event]:
        """Checkers moved while a roll was awaited: a turn the camera missed.

        When a misread roll was called back (or the dice were never seen), the player
        still played it. If one legal result explains the checkers as read, surely and
        clearly better than the board as it was (and than any other result), that turn is
        recorded, marked `inferred`, instead of losing the thread. Where no throw was seen,
        the result must be one roll's alone or the board changed by two checkers or more.
        A throw seen (`ended`: the other player's, on their side, so the mover's turn is
        over; or the mover's, a die short, `_lone`) lets the play be read as any play is.
        Where the throw was called back for a thing at rest read with it (`_hint`), that
        roll is the one looked for, its play read as any play is (or none, if it has none).
        Where several rolls have the play, the likeliest is recorded and the others are
        named with it (`alternatives`). Where the throw was called back only for how its
        dice lay (`_lie`: read cocked, or on a checker), the roll read is looked for first,
        its play read as any play is; a turn it leaves without a play only once the other
        player throws (until then the board as it was is the mover's throw picked up to
        be thrown again).
        """
        if match.phase != Phase.ROLL:
            return []
        events = [] if ended else self._look(s, match)
        if events:
            return events
        reading = self._reading(s)
        if reading is None:
            return []
        position = match.position
        stay = reading.cost(position)
        # A throw called back for a thing at rest read with it: its own roll is the one
        # looked for (another that explains the board as well does not make it unsure).
        every = [(hi, lo) for hi in range(1, 7) for lo in range(1, hi + 1)]
        half = self._lone.value if self._lone is not None else None
        if half is not None:  # a throw called back for a die short: the one read
            every = [r for r in every if half in r]
        x = self.explain
        # A throw was seen: the other player's (`ended`), or the mover's with one die read
        # (`_lone`). The turn was played, and its play is read as any play is.
        thrown = ended or half is not None
        least = x.margin_min if thrown else x.check_margin
        blocked = self._hint is not None and _stuck(position, self._hint)
        lie = self._lie if self._hint is None else None
        lie_stuck = lie is not None and _stuck(position, lie)
        if lie is not None and (ended if lie_stuck else stay >= x.margin_min):
            best, cost, rolls, margin = _best_result(reading, [(lie, position, lie)], stay)
            # Until the other player throws, the mover may be throwing again (the call was
            # right): the play must then explain the board as one read without a throw does,
            # unless it ends the game (no next throw will show the turn over).
            sure = ended or best.winner() is not None
            close, apart = (x.close_max, x.margin_min) if sure else (0.5, x.check_margin)
            if lie_stuck or (cost <= close and margin >= apart):
                return self._inferred({"type": "roll", "dice": list(lie)}, rolls[lie], [])
        if self._hint is not None and not blocked and least > stay >= x.margin_min:
            # The throw's roll is known and its play bears the last checkers off: the
            # board then stays as it is (no next throw will show the turn over), one
            # checker from the board before where the last was borne off alone.
            best, cost, rolls, margin = _best_result(
                reading, [(self._hint, position, self._hint)], stay
            )
            if best.winner() is not None and cost <= 0.5 and margin >= x.margin_min:
                return self._inferred(
                    {"type": "roll", "dice": list(self._hint)}, rolls[self._hint], []
                )
        if stay < least and not blocked:
            seen = not self._hint and ended and half is not None
            stuck = [r for r in every if _stuck(position, r)] if seen else []
            if stuck:
                # The mover threw (a die short) and some roll with the die read has no play
                # (on the bar against a closed board): his turn was over, the board as it
                # was, when the other player threw; his roll was one of those.
                dice, *others = sorted(stuck, key=_likelier)
                return self._inferred(
                    {"type": "roll", "dice": list(dice)}, "", [list(r) for r in others]
                )
            return []  # the board as it was explains the reading well enough
        best, cost, rolls, margin = _best_result(
            reading, [(r, position, r) for r in ([self._hint] if self._hint else every)], stay
        )
        if self._hint:  # the roll is known: its play is read as any play is (or it has none)
            unclear = not blocked and (cost > x.close_max or margin < x.margin_min)
        else:
            # Without a throw seen, a roll alone explaining the board is evidence of its
            # own; where several rolls have that play, the board must have changed by
            # more than one checker's misreading (a place read one short, another over),
            # unless that play ends the game: its board then stays as it is, with no
            # next throw to show the turn over (two checkers at least were borne off), and
            # it is read as any play is (the result one checker short is one checker off).
            # A throw seen: the play is read as any play is, a place misread allowed
            # (`close_max`; until 2026-12-07 half a checker, as without a throw: with 2%
            # of places misread half the turns of throws a die short were lost).
            ends = best.winner() is not None
            close = x.close_max if thrown else 0.5
            unclear = cost > close or margin < (x.margin_min if ends else least)
            if len(rolls) > 1 and not thrown and not ends:
                unclear = unclear or stay - cost < 2 * x.check_margin
        if unclear:
            return []
        # Several rolls can have the same play (6-2 and 2-2 both play 24/22 13/7; bearing
        # off from the low points): the board is sure, the roll is not. The likeliest is
        # recorded (a double is half as likely as a roll of two faces) and the others are
        # named with it, for the players to check.
        dice, *others = sorted(rolls, key=_likelier)
        return self._inferred(
            {"type": "roll", "dice": list(dice)}, rolls[dice], [list(r) for r in others]
        )

    def _one_die(self, roller: Color | None, die: DieReading) -> list[Event]:
        """One die found of a throw, flat in the roller's section (`roller` None: of the
        opening throw, in a section). The other may be off the board, out of the picture
        (a reroll), or on it where the camera does not read it (a small dark die on a dark
        point: most often, issue 28). No rule calls the throw back for a die the camera
        did not find: the players, who see the die, say which. If they play, the turn is
        read from the checkers with this die's face (`_lone`, `_missed_turn`); if the same
        player throws again first, the throw was called back (`dice_count`, then:
        `_short`). Meanwhile the roll is asked for by hand if the table stays so. (Until
        2026-12-07, seventh session, the throw was called back at once: a false reroll
        called for every die the camera missed.) The caller has judged it as any throw
        called back (the dice to be picked up first, an illegal play before it accepted)."""
        self._lone = die
        player = str(roller) if roller is not None else None
        self._short = ({"type": "reroll", "player": player, "reasons": ["dice_count"]}, die)
        return self._ask(roller, "one die of the throw not found")

    def _unreadable(self, roller: Color | None, dice: Sequence[DieReading]) -> list[Event]:
        """Dice the camera cannot read are no reason to roll again: ask for them by hand.
        Players who see them may play on instead: where one die of the two was read, its
        face is in the roll played and, in the opening, its section says whose die it is,
        as for a throw a die short (`_lone`, `_missed_turn`, `_missed_opening`)."""
        read = [d for d in dice if d.value is not None]
        if len(dice) == 2 and len(read) == 1:
            self._lone = read[0]
        return self._ask(roller, "dice unreadable")

    def _move(self, s: _Settled, match: Match) -> list[Event]:
        mover = match.on_roll
        other_side = "left" if mover == Color.WHITE else "right"
        events: list[Event] = []
        # On the other player's side a thing that cannot be read is taken for no die (a
        # gap between two checkers can look like a face): it makes no early roll, and
        # the mover's dice are picked up without it.
        dice = [d for d in s.dice if d[1] or d[0] != other_side]
        theirs = [d for d in dice if d[0] == other_side]
        # An early throw is a pair on the other player's side: one thing there is not.
        if len(dice) > 2 and len(theirs) >= 2:
            if self._early:
                return events
            left = self._left_through_early(s, other_side)
            if not left:
                self._early = True
                events.append(
                    {"type": "reroll", "player": str(mover.opponent), "reasons": ["early"]}
                )
                return events
            # What the mover left lay unmoved through an early throw called back and the
            # next: no die of the roll (the players pick a die left up when an early throw
            # is called), but a thing at rest read as one, taken for a die of the throw
            # because it showed just before it (a die of the throw missed). Without this
            # every throw of the other player was called early, to the game's end.
            # The roll's dice are then gone, and the pair is the next throw (`theirs_next`).
            self._resting += [_Resting(d) for d in left]
            self._thrown = ()
            kept = tuple(d for d in s.raw_dice if not _among(d, left, self.rest_px))
            s = _Settled(_dice_key(kept), s.board, kept)
            dice = theirs
        if self._early and len(dice) <= 2:
            self._early = False
            if dice:
                return events  # the early roll was taken back; the mover's dice are still there
        # None of the roll's dice lies where it fell, and what is read is no pair: the
        # mover picked them up, and a thing not yet known to be at rest showed as he did.
        # Or it is a pair on the other player's side: the mover's dice went unseen (a look
        # that changed no die's face), and this is the next throw.
        lone = not self._thrown and len(dice) < 2
        theirs_next = not self._thrown and len(dice) >= 2 and len(theirs) == len(dice)
        if dice and not self._picked_up and not lone and not theirs_next:
            # the mover is still playing, unless he threw again
            return events + self._thrown_again(s, match, picked_up=False)
        if lone and not self._picked_up:
            # What showed in the look the roll's dice went in is no die of the next throw
            # either: a throw's dice come together (with one of them missed, the thing
            # beside it made a pair, and the roll read stood with the thing in it). A die
            # showing in a later look may be the next throw's, its pair missed.
            self._resting += [_Resting(d) for d in s.raw_dice if d.value is not None]
        if not self._picked_up:
            self._picked_up = True
            events.append({"type": "dice_picked_up", "player": str(mover)})
        if not dice or lone:
            return events + self._read_play(s, match)
        again = self._thrown_again(s, match, picked_up=True)
        if again:
            return events + again
        # Dice again after the mover's were picked up: the next roll is on the board, so
        # the play is decided on what was seen, and the roll is read after it.
        events += self._read_play(s, match, forced=True)
        match = self.match()
        if match.phase in (Phase.ROLL, Phase.ILLEGAL):
            events += self._throw(s, match)
        return events

    def _left_through_early(self, s: _Settled, other_side: str) -> tuple[DieReading, ...]:
        """The mover's dice of this look where an early throw was called back before and
        each lies as it lay then (its face, within `rest_px`): a second early throw with
        the mover's dice unmoved. Empty at the first early throw (remembered for the next)
        and where any of them moved or went."""
        mine = tuple(d for d in s.raw_dice if d.section != other_side)
        before, self._early_left = self._early_left, mine
        if not mine or not before:
            return ()
        if len(mine) != len(before) or not all(_among(d, before, self.rest_px) for d in mine):
            return ()
        return mine

    def _thrown_again(self, s: _Settled, match: Match, picked_up: bool) -> list[Event]:
        """The roll standing thrown again, unplayed: the players saw it broken where the
        camera did not (a cocked die read flat: a reader taught on drawn dice reads most
        cocked dice a camera sees so, docs/dice.md), and the mover threw again.

        Taken so where two dice read lie in the mover's section (in the opening, one in
        each player's), the board shows the position before the roll unchanged
        (`_unplayed`: over the looks since the pick-up and this one, every play of the roll
        at least `margin_min` worse), and the dice were picked up in between
        (`picked_up`) or lie elsewhere with other faces up (thrown, not pushed aside).
        The roll is called back (`reroll`, `thrown_again`, `inferred`) and the new throw
        judged as any throw. Otherwise nothing.
        """
        thrown = s.raw_dice
        if len(thrown) != 2 or any(d.value is None for d in thrown) or match.dice is None:
            return []
        own = "right" if match.on_roll == Color.WHITE else "left"
        want = ["left", "right"] if match.opening_dice else [own, own]
        if sorted(str(d.section) for d in thrown) != want:
            return []
        if not picked_up:
            before = self._thrown
            faces = sorted(d.value or 0 for d in thrown)
            near = 2 * self.rest_px
            if faces == sorted(d.value or 0 for d in before) or any(
                math.dist(d.center_px, b.center_px) <= near for d in thrown for b in before
            ):
                return []
        reading = self._reading(s)
        plays = list(match.position.legal_plays(match.dice))
        if reading is None or not self._unplayed(match.position, plays, reading):
            return []
        player = None if match.opening_dice else str(match.on_roll)
        self.apply({"type": "reroll", "reasons": ["thrown_again"]})
        self._turn_done()
        events: list[Event] = [
            {"type": "reroll", "player": player, "reasons": ["thrown_again"], "inferred": True}
        ]
        match = self.match()
        if match.phase == Phase.OPENING:
            return events + self._opening(s)
        return events + self._throw(s, match)

    def _unplayed(
        self,
        position: Position,
        plays: Sequence[Play],
        reading: WeighedBoard | None = None,
        margin: float | None = None,
    ) -> bool:
        """Whether the board shows `position`, the one before the roll standing whose legal
        `plays` these are, unplayed, over the looks since the pick-up and `reading` (None:
        already among them): within `close_max` a look, and every play worse by `margin`
        at least (`margin_min` by default; 0: as well explained as by any play). Never for
        a roll with no play: its empty play is the board unchanged (recorded at the
        pick-up; the mover throwing again after it is judged as the other player's throw)."""
        if all(not p.steps for p in plays):
            return False
        stay, costs, looks = self._stay, list(self._evidence), self._looks
        if len(costs) != len(plays):
            stay, costs, looks = 0.0, [0.0] * len(plays), 0
        if reading is not None:
            stay += reading.cost(position)
            costs = [c + reading.cost(p.result) for c, p in zip(costs, plays, strict=True)]
            looks += 1
        x = self.explain
        margin = x.margin_min if margin is None else margin
        return looks > 0 and stay <= x.close_max * looks and all(c >= stay + margin for c in costs)

    def _reading(self, s: _Settled) -> WeighedBoard | None:
        board = s.board
        if board is None or (not board.places and board.confidence < self.board_min):
            return None
        return weigh(board.white, board.black, board.places, board.confidence, self.explain)

    def _read_play(self, s: _Settled, match: Match, forced: bool = False) -> list[Event]:
        """The play, as the legal result that best explains every look since the pick-up.

        Taken when it beats the next by `margin_min` and explains the board (within
        `accept_max`); a reading no legal result comes close to is an illegal play where
        it is a play the mover could have made, read surely where it differs from the
        best; otherwise another look is awaited. `forced` (the next roll is on the
        board): the best explanation is taken, flagged to be checked.
        """
        mover = match.on_roll
        assert match.dice is not None
        plays = list(match.position.legal_plays(match.dice))
        if len(self._evidence) != len(plays):
            self._evidence, self._stay, self._looks = [0.0] * len(plays), 0.0, 0
        reading = self._reading(s)
        if reading is not None:
            for i, play in enumerate(plays):
                self._evidence[i] += reading.cost(play.result)
            self._stay += reading.cost(match.position)
            self._looks += 1
            if not forced:
                self._still_look(reading)
        fit = self._fit()
        x = self.explain
        if fit is not None:
            mean = fit.cost / self._looks
            if reading is not None and mean > 0:
                misread = self._misread_roll(reading, match, plays, forced=forced)
                if misread is None:
                    # A die read unsure, or a place misread: one look cannot tell them
                    # apart by a checker. The next look (another still) decides.
                    return self._ask(mover, "the board shows no one play clearly")
                if not misread and forced and mean > x.close_max:
                    # The other player has thrown (the play stands, whatever it was) and
                    # no play of the roll read explains the board: a die read surely may
                    # be the one misread (the board then shows a play of the roll with
                    # that face changed), rather than a play taken that the board
                    # contradicts and the game going on from a position it is not in.
                    misread = self._misread_roll(reading, match, plays, sure_too=True) or []
                if misread:
                    return misread
            clear = fit.margin >= x.margin_min
            best = plays[fit.index]
            ends = best.result.winner() is not None
            # Not taken, nor an illegal play called, while the board shows the roll
            # unplayed as well as played (a play bearing one checker off differs from it at
            # one place only, and a place misread can make up another): the mover may throw
            # again, a broken throw the camera took for a roll (`_thrown_again`). But a
            # play that ends the game is taken: no throw may follow it to decide.
            unplayed = (
                not forced
                and reading is not None
                and not ends
                and self._unplayed(match.position, plays, margin=0.0)
            )
            if (
                not forced
                and reading is not None
                and not ends
                and _seen_all_off(reading, best.result, mover)
            ):
                # The board shows the mover's last checker off, surely, and the roll read
                # does not end the game: a die misread (its play would end the game) or a
                # place misread, alike on one look. The other player's throw says the game
                # goes on (the play is then taken, `forced`); where none comes the game is
                # over, and a hand fix is asked for. (Taken at once, the game was never over:
                # seed 738 at 1% of dice and 2% of places misread, white's last 2-2 read
                # 3-2, 1/off(2) one checker off the board.)
                return self._ask(mover, "the board shows the game over, the roll read does not")
            if clear and mean <= x.close_max and not unplayed:
                return self._play(best, fit, s, match)
            if mean > x.close_max and reading is not None:
                mended = self._mended_play(reading, match, best)
                if mended:
                    return mended
            observed = reading.position if reading is not None else None
            if (
                mean > x.close_max
                and not unplayed
                and reading is not None
                and observed is not None
                and plausible_play(match.position, observed, mover)
                and reading.sure_where(observed, best.result)
                and not self._repeated(reading, best.result)
            ):
                return self._call_illegal(observed, mover, best)
            # A noisy reading that one play still explains clearly better than any other
            # (a lone legal play has no other to beat: it waits for a closer look). On a
            # board it does not explain, a checker of margin is within the noise: it is
            # taken before another look only by a margin no glance is asked for.
            noisy_but_clear = (
                clear
                and fit.margin >= x.check_margin
                and mean <= x.accept_max
                and len(plays) > 1
                and not unplayed
            )
            if forced or noisy_but_clear:
                # forced on a board the play does not explain: flagged to be checked
                check = forced and mean > x.close_max
                return self._play(best, fit, s, match, check=check)
        elif forced:
            # Nothing seen to go by: the game goes on with a play to be checked, and the
            # board corrects the position at the next sure looks.
            return self._play(plays[0], None, s, match)
        if reading is None:
            return self._ask(mover, "board unreadable")
        return self._ask(mover, "the board shows no one play clearly")

    def _misread_roll(
        self,
        reading: WeighedBoard,
        match: Match,
        plays: Sequence[Play],
        sure_too: bool = False,
        forced: bool = True,
    ) -> list[Event] | None:
        """A die of the roll read unsure (below `die_sure`; `sure_too`: any die, where the
        look before bears out the play found too) may be misread. Where a roll
        with its face changed has a legal play that explains the board (within half a
        checker) better by `margin_min` than every play of the roll read and than any
        other result, the dice are corrected (a `correction` with the dice as the board
        says they fell) and that play is recorded, to be checked: not an illegal play
        called, nor a play of the roll read that misses the board by a checker. Several
        rolls with that play: the likeliest, the others named in the correction's note.
        Never the opening roll's dice (they said who plays first). `sure_too` asks of the
        look before that it explained that play (within `close_max`) or preferred it to every
        play of the roll read by `margin_min`. None (not `forced`: the
        play does not stand yet) where that play wins by less than `check_margin`: by one
        checker on one look a place misread looks as a die misread does, and another look
        decides."""
        thrown = self._rolled
        if match.dice is None or match.opening_dice or len(thrown) != 2:
            return []
        faces = [d.value or 0 for d in thrown]
        if sorted(faces) != sorted(match.dice):
            return []
        x = self.explain
        rolls: set[tuple[int, int]] = set()
        for i, die in enumerate(thrown):
            if sure_too or die.confidence < x.die_sure:
                other = faces[1 - i]
                rolls |= {(max(v, other), min(v, other)) for v in range(1, 7) if v != die.value}
        rolls.discard((max(match.dice), min(match.dice)))
        if not rolls:
            return []
        position = match.position
        # beating every play of the roll read, as every other result, by `margin_min`
        read = min(reading.cost(p.result) for p in plays)
        turns = [(r, position, r) for r in sorted(rolls)]
        best, cost, keys, margin = _best_result(reading, turns, read)
        if cost > 0.5 or margin < x.margin_min:
            return []
        if margin < x.check_margin and not forced:
            # By one checker on one look: a place misread makes that too (the checker
            # borne off read where it was, seed 114 at 1% of dice unsure and 2% of places
            # misread). Not decided until another look.
            return None
        if sure_too:
            # A die read surely is changed only where the look before explained that
            # play too, or preferred it to every play of the roll read by `margin_min`: a
            # place misread on one look can make the board show another roll's play, but
            # two looks alike in that are two (seed 708 at 1% of dice and 2% of places
            # misread: the pick-up's still read four places wrong, 3/off two checkers off
            # and the roll read's only play five; the game ended early). (Only a look not
            # forced is remembered: never this one.)
            previous = None if self._still is None else self._still[1]
            if previous is None:
                return []
            before = previous.cost(best)
            if before > x.close_max and before + x.margin_min > min(
                previous.cost(p.result) for p in plays
            ):
                return []
        dice, *others = sorted(keys, key=_likelier)
        note = f"dice read {match.dice[0]}-{match.dice[1]}: the board shows a play of "
        note += f"{dice[0]}-{dice[1]}" + "".join(f" (or {a}-{b})" for a, b in others)
        events = self._apply({"type": "correction", "dice": list(dice), "note": note})
        if not events:
            return []
        self._looks = 1
        after = self.match()
        play = next(p for p in after.position.legal_plays(dice) if p.result == best)
        fit = Fit(0, cost, margin)
        return events + self._play(play, fit, _NO_LOOK, after, check=True)

    def _fit(self) -> Fit | None:
        return best_fit(self._evidence) if self._looks else None

    def _play(
        self, play: Play, fit: Fit | None, s: _Settled, match: Match, check: bool = False
    ) -> list[Event]:
        """Records `play` with how well the board showed it (`fit`); `check`: to be checked
        by eye whatever the fit."""
        action: Action = {"type": "play", "play": str(play)}
        explained = fit is not None and fit.cost / self._looks <= self.explain.close_max
        self._unexplained = 0 if explained else self._unexplained + 1
        if fit is None:
            action["fit"] = {"cost": None, "margin": None, "check": True}
        else:
            margin = round(fit.margin, 2) if fit.margin != float("inf") else None
            check = check or (margin is not None and margin < self.explain.check_margin)
            action["fit"] = {
                "cost": round(fit.cost / self._looks, 2),
                "margin": margin,
                "check": check,
            }
        self._turn_done()
        events = self._apply(action)
        self._believed += 1
        after = self.match()
        if after.phase == Phase.ROLL:
            events += self._look(s, after)
        return events

    def _mended_play(self, reading: WeighedBoard, match: Match, best: Play) -> list[Event]:
        """The play read from the position believed once mended where the board differed
        from it at the last look and still differs, the same way, after the best play
        from it: the referee's mistake shown twice. Taken (the correction, then the
        play) when a legal play from there explains the reading clearly."""
        same = self._repeated(reading, best.result)
        if not same:
            return []
        believed = match.position
        mended = shifted(believed, same)
        if mended is None or not plausible_correction(believed, mended) or match.dice is None:
            return []
        plays = list(mended.legal_plays(match.dice))
        fit = best_fit([reading.cost(p.result) for p in plays])
        x = self.explain
        if fit is None or fit.cost > x.close_max or fit.margin < x.margin_min:
            return []
        events = self._correct(mended)
        if not events:
            return []
        self._looks = 1
        return events + self._play(plays[fit.index], fit, _NO_LOOK, self.match())

    def _repeated(self, reading: WeighedBoard, result: Position) -> dict[tuple[str, int], int]:
        """Where the reading differs from `result` as the board already differed from the
        position believed at the last look, and in the same way: the referee's own mistake
        showing again, not the mover's play."""
        now = reading.residual(result)
        return {key: d for key, (d, _, _) in self._drift.items() if now.get(key) == d}

    def _call_illegal(self, observed: Position, mover: Color, nearest: Play) -> list[Event]:
        try:
            events = self._apply({"type": "illegal_play", "position": observed.to_json()})
        except MatchError as e:
            return self._ask(mover, str(e))
        self._turn_done()
        self._believed += 1
        self._drift = {}
        self._illegal = (nearest, observed)
        return events

    def _recheck_illegal(self, s: _Settled) -> list[Event]:
        """The next look after an illegal play was called: where the board as read then
        and the nearest legal play differ, the board now shows the legal play, surely
        read: it was a misread, not an illegal play. The referee rejects the illegal
        play and records the legal one (a misread board stays a misread board, never a
        position the game goes on from)."""
        reading = self._reading(s)
        if reading is None or self._illegal is None:
            return []
        nearest, observed = self._illegal
        self._illegal = None
        legal = nearest.result
        differ = [
            (color, i)
            for color, a, b in (
                ("white", observed.white, legal.white),
                ("black", observed.black, legal.black),
            )
            for i in range(1, 26)
            if a[i] != b[i]
        ]
        if differ and reading.shows(legal, differ):
            events = self._apply({"type": "reject"})
            action: Action = {"type": "play", "play": str(nearest)}
            action["fit"] = {"cost": round(reading.cost(legal), 2), "margin": None, "check": True}
            events += self._apply(action)
            self._believed += 1
            return events
        return []

    def _look(self, s: _Settled, match: Match) -> list[Event]:
        """A look at the board while the referee knows what it should show: a sure
        difference seen on several looks in a row, across positions believed in turn,
        is the referee's own mistake (a play taken wrongly): it takes the board as read
        (`correction`) where that is a position the game can be in."""
        reading = self._reading(s)
        if reading is None:
            return []
        previous = self._still_look(reading)
        believed = match.position
        if self._unexplained >= self.explain.resync_lost and reading.sure_everywhere:
            seen = reading.position
            # Lost for plays in a row: the board read surely, alike on two stills (the
            # hands between them), is taken whole.
            if (
                seen is not None
                and previous is not None
                and (previous.white, previous.black) == (reading.white, reading.black)
                and plausible_correction(believed, seen)
            ):
                return self._correct(seen)
        drift: dict[tuple[str, int], tuple[int, int, frozenset[int]]] = {}
        for key, delta in reading.residual(believed).items():
            was = self._drift.get(key)
            if was is not None and was[0] == delta:
                drift[key] = (delta, was[1] + 1, was[2] | {self._believed})
            else:
                drift[key] = (delta, 1, frozenset({self._believed}))
        self._drift = drift
        x = self.explain
        lasting = {
            key: d
            for key, (d, looks, seen_on) in drift.items()
            if looks >= x.resync_readings and len(seen_on) >= x.resync_plays
        }
        if not lasting:
            return []
        corrected = shifted(believed, lasting)
        if corrected is None or not plausible_correction(believed, corrected):
            return []
        return self._correct(corrected)

    def _still_look(self, reading: WeighedBoard) -> WeighedBoard | None:
        """Remembers `reading` as this still's (the frame it settled at); returns the last
        reading of an earlier still. One still is looked at twice at times (a play taken,
        then the board looked at as the next turn's): its reading twice is one reading, and
        a board misread alike twice so is no board seen twice (counts 5%, seed 703: a still
        read with white's checker on the bar as one on its 20-point, its two looks alike,
        was taken whole, and the game was lost)."""
        if self._still is not None and self._still[0] != self._frame:
            self._still_before = self._still[1]
        self._still = (self._frame, reading)
        return self._still_before

    def _correct(self, position: Position) -> list[Event]:
        """Takes `position` for the board: a correction event in the match log."""
        try:
            events = self._apply(
                {
                    "type": "correction",
                    "position": position.to_json(),
                    "note": "re-synchronised from the board",
                }
            )
        except MatchError:
            return []
        self._drift = {}
        self._unexplained = 0
        self._believed += 1
        return events

    def _turn_done(self) -> None:
        self._hint = self._lone = self._lie = None
        self._short = None
        self._rolled = ()
        self._illegal = None
        self._picked_up = False
        self._early = False
        self._early_left = ()
        self._evidence, self._stay, self._looks = [], 0.0, 0
