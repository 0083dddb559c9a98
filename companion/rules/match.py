"""Match and money play: the cube, scoring, the Crawford rule, irregularities.

A `Match` is a state machine driven by actions (plain dicts, the same ones the
match record stores as events). `apply()` checks an action against the rules,
changes the state and returns the events it led to (the action, then
`game_over` / `match_over` where it ended a game or the match). Nothing here
touches storage; `companion.store` folds stored events through this class.

Rules, following the standard rules as GNU Backgammon applies them:
- The cube starts centred at 1 (the physical cube shows 64). A player may
  double only at the start of his own turn, before rolling, when the cube is
  centred or his; a take gives the taker the cube; a pass pays the value before
  the double; there is no limit on redoubles.
- Results: single, gammon, backgammon times the cube. Resignations for 1, 2 or
  3 times the cube.
- Match play: no doubling in the Crawford game (the first game after a player
  first reaches match length - 1); the match ends when a player reaches the
  length. Money play: a session of games with a running total.
- Options (money play only, as in GNU Backgammon): automatic doubles (equal
  opening dice turn the cube to 2 in the centre, up to a limit per game),
  beavers (the taker redoubles at once and keeps the cube), the Jacoby rule
  (gammons count single while the cube is centred, which is how GNU Backgammon
  reads "unless the cube was turned"; an automatic double leaves it centred).
- Irregularities: a reroll after cocked or misplaced dice counts as having
  rolled (no double afterwards), an early roll (before the opponent picked up
  his dice) is void; an illegal play stands until the opponent accepts it or
  requires a legal play, and counts as accepted when he rolls or doubles.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from companion.rules.errors import RulesError
from companion.rules.game import OpeningRoll, ResultType, game_result
from companion.rules.ids import GameState, MatchInfo
from companion.rules.notation import parse_play
from companion.rules.position import BLACK, WHITE, Color, Position, check_dice

Action = dict[str, Any]


class MatchError(RulesError):
    """An action the rules do not allow now; the message says why."""


class Phase(StrEnum):
    OPENING = "opening"  # waiting for the opening roll (one die each)
    ROLL = "roll"  # the player on roll may double, resign or roll
    MOVE = "move"  # the dice are rolled: the player on roll plays
    ILLEGAL = "illegal"  # an illegal play awaits the opponent's accept or reject
    DOUBLED = "doubled"  # the opponent of the doubler takes, drops (or beavers)
    BEAVERED = "beavered"  # the original doubler takes or drops the beaver
    RESIGNED = "resigned"  # the opponent accepts or rejects a resignation
    MATCH_OVER = "match_over"


REROLL_KEEPS_DOUBLE = {"early"}  # a void early roll was never this turn's roll


@dataclass(frozen=True)
class MatchRules:
    """What the players agreed at the start. `length` 0 is a money session."""

    length: int = 0
    jacoby: bool = False
    beavers: bool = False
    auto_doubles: int = 0  # automatic doubles allowed per game, 0 = none
    crawford: bool = True
    dice_on_checker: str = "reroll"  # or "allowed": the director's choice
    # Tournament mode (the companion's page): no legal plays shown to the players, and
    # illegal plays called only if both players agreed to it at the start.
    tournament: bool = False
    call_illegal: bool = True
    white: str = "White"
    black: str = "Black"

    def __post_init__(self) -> None:
        if not isinstance(self.length, int) or not 0 <= self.length <= 64:
            raise MatchError(f"match length must be 0 (money) to 64, got {self.length!r}")
        if self.length and (self.jacoby or self.beavers or self.auto_doubles):
            raise MatchError("the Jacoby rule, beavers and automatic doubles are for money play")
        if not 0 <= self.auto_doubles <= 10:
            raise MatchError("automatic doubles: allow 0 to 10 per game")
        if self.dice_on_checker not in ("reroll", "allowed"):
            raise MatchError("dice on a checker must be 'reroll' or 'allowed'")
        for name in (self.white, self.black):
            if not name or ":" in name or "\n" in name or len(name) > 30:
                raise MatchError(f"player name {name!r}: 1-30 characters, no ':'")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> MatchRules:
        known = {k: v for k, v in obj.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass
class GameRecord:
    """One game as it happened, for the score sheet and .mat export."""

    number: int
    score_white: int
    score_black: int
    crawford: bool
    slots: list[tuple[Color, str]] = field(default_factory=list)  # .mat columns, in order
    winner: Color | None = None
    points: int = 0
    how: str = ""  # single, gammon, backgammon, drop, resign


def mat_play(steps: tuple[tuple[int, int, bool], ...]) -> str:
    """A play as the .mat format writes it: one step per die, 25 = bar, 0 = off."""
    return " ".join(f"{src}/{dst}{'*' if hit else ''}" for src, dst, hit in steps)


def _diff_steps(before: Position, after: Position, mover: Color) -> str:
    """Steps that turn `before` into `after` for an accepted illegal play (.mat needs moves)."""
    old, new = before.side(mover), after.side(mover)
    sources = [p for p in range(25, 0, -1) for _ in range(max(0, old[p] - new[p]))]
    targets = [p for p in range(24, -1, -1) for _ in range(max(0, new[p] - old[p]))]
    theirs_old, theirs_new = before.side(mover.opponent), after.side(mover.opponent)
    parts = []
    for src, dst in zip(sources, targets, strict=False):
        hit = dst > 0 and theirs_old[25 - dst] == 1 and theirs_new[25 - dst] == 0
        parts.append(f"{src}/{dst}{'*' if hit else ''}")
    return " ".join(parts)


class Match:
    """The state of a match or money session, changed only through `apply()`."""

    def __init__(self, rules: MatchRules) -> None:
        self.rules = rules
        self.score = {WHITE: 0, BLACK: 0}
        self.games: list[GameRecord] = []
        self.post_crawford = False
        self.winner: Color | None = None
        self._new_game()

    # --- state ---------------------------------------------------------------
    def _new_game(self) -> None:
        length = self.rules.length
        at_brink = [c for c in (WHITE, BLACK) if self.score[c] == length - 1] if length else []
        crawford = self.rules.crawford and not self.post_crawford and len(at_brink) == 1
        if self.games and self.games[-1].crawford:
            self.post_crawford = True
            crawford = False
        self.games.append(
            GameRecord(len(self.games) + 1, self.score[WHITE], self.score[BLACK], crawford)
        )
        self.phase = Phase.OPENING
        self.position = Position.start()
        self.dice: tuple[int, int] | None = None
        self.cube = 1
        self.cube_owner: Color | None = None
        self.may_double = True
        self.pending: Color | None = None  # who doubled, beavered or resigned
        self.resign_level = 0
        self.resumed_phase = Phase.ROLL
        self.auto_doubles_used = 0
        self.illegal_from: Position | None = None
        self.opening_dice = False  # the dice out are the opening roll's

    @property
    def over(self) -> bool:
        return self.phase == Phase.MATCH_OVER

    @property
    def game(self) -> GameRecord:
        return self.games[-1]

    @property
    def crawford(self) -> bool:
        return self.game.crawford

    @property
    def on_roll(self) -> Color:
        return self.position.turn

    @property
    def acting(self) -> Color | None:
        """Who must act now (None while waiting for the opening roll or after the match)."""
        if self.phase in (Phase.OPENING, Phase.MATCH_OVER):
            return None
        if self.phase in (Phase.DOUBLED, Phase.RESIGNED, Phase.ILLEGAL, Phase.BEAVERED):
            assert self.pending is not None
            return self.pending.opponent
        return self.on_roll

    def can_double(self) -> str | None:
        """None if the player to act may double now, else the reason he may not."""
        if self.phase == Phase.ILLEGAL:
            # The opponent of an illegal play may double to start his turn (accepting it).
            assert self.pending is not None
            return self._double_reason(self.pending.opponent, fresh=True)
        if self.phase != Phase.ROLL:
            return f"a double is offered only before rolling ({self._situation()})"
        return self._double_reason(self.on_roll, fresh=self.may_double)

    def _double_reason(self, roller: Color, fresh: bool) -> str | None:
        if self.crawford:
            return "no doubling in the Crawford game"
        if self.cube_owner not in (None, roller):
            return f"{self.cube_owner} owns the cube"
        if not fresh:
            return f"{roller} has already rolled this turn (a reroll counts as a roll)"
        return None

    def allowed(self) -> list[str]:
        """The actions allowed now, by name."""
        p = self.phase
        if p == Phase.OPENING:
            return ["opening"]
        if p == Phase.ROLL:
            doubling = ["double"] if self.can_double() is None else []
            return ["roll", *doubling, "resign", "correction"]
        if p == Phase.MOVE:
            return ["play", "illegal_play", "reroll", "resign", "correction"]
        if p == Phase.ILLEGAL:
            return ["accept", "reject", "roll", *(["double"] if self.can_double() is None else [])]
        if p == Phase.DOUBLED:
            return ["take", "drop", *(["beaver"] if self.rules.beavers else [])]
        if p == Phase.BEAVERED:
            return ["take", "drop"]
        if p == Phase.RESIGNED:
            return ["accept", "reject"]
        return []

    def game_value(self, kind: ResultType) -> int:
        """Points a result is worth now, with the Jacoby rule."""
        multiplier = int(kind)
        if self.rules.jacoby and not self.rules.length and self.cube_owner is None:
            multiplier = 1
        return multiplier * self.cube

    # --- actions ----------------------------------------------------------------
    def apply(self, action: Action, trusted: bool = False) -> list[Action]:
        """Carries out one action; returns it (completed) and the events it caused.

        `trusted` replays an action that was checked when it was first applied:
        a play's stored resulting position is used without parsing its text.
        """
        kind = action.get("type")
        handler = getattr(self, f"_do_{kind}", None) if isinstance(kind, str) else None
        if handler is None or not isinstance(kind, str):
            raise MatchError(f"unknown action {kind!r}")
        if self.phase == Phase.MATCH_OVER:
            raise MatchError("the match is over")
        if kind not in self.allowed():
            if kind == "double":
                raise MatchError(f"cannot double: {self.can_double()}")
            whom = f" ({self.acting} to act)" if self.acting else ""
            raise MatchError(f"cannot {kind.replace('_', ' ')} now: {self._situation()}{whom}")
        events: list[Action] = []
        done: Action = handler(dict(action), trusted, events)
        return [done, *events]

    def _situation(self) -> str:
        return {
            Phase.OPENING: "waiting for the opening roll",
            Phase.ROLL: f"{self.on_roll} is to roll",
            Phase.MOVE: f"{self.on_roll} is to play {self._dice_text()}",
            Phase.ILLEGAL: "an illegal play awaits accept or reject",
            Phase.DOUBLED: f"{self.pending} has doubled",
            Phase.BEAVERED: f"{self.pending} has beavered",
            Phase.RESIGNED: f"{self.pending} has offered to resign",
            Phase.MATCH_OVER: "the match is over",
        }[self.phase]

    def _dice_text(self) -> str:
        return f"{self.dice[0]}{self.dice[1]}" if self.dice else "--"

    def _do_opening(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        try:
            roll = OpeningRoll(int(a["white"]), int(a["black"]))
        except (KeyError, TypeError, ValueError) as e:
            raise MatchError(f"opening roll: give white's die and black's die ({e})") from None
        if roll.first is None:
            if self.rules.auto_doubles > self.auto_doubles_used:
                self.auto_doubles_used += 1
                self.cube *= 2
            return {"type": "opening", "white": roll.white, "black": roll.black, "again": True}
        assert roll.dice is not None
        self.position = Position.start(roll.first)
        self.dice = roll.dice
        self.phase = Phase.MOVE
        self.may_double = False
        self.opening_dice = True
        return {"type": "opening", "white": roll.white, "black": roll.black, "first": roll.first}

    def _accept_pending_illegal(self) -> None:
        """An illegal play counts as accepted once the opponent rolls or doubles."""
        if self.phase == Phase.ILLEGAL:
            self._do_accept({}, True, [])

    def _do_roll(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        dice = check_dice(a.get("dice", ()))  # before anything changes
        self._accept_pending_illegal()
        self.dice = dice
        self.phase = Phase.MOVE
        self.may_double = False
        return {"type": "roll", "player": self.on_roll, "dice": list(dice)}

    def _do_reroll(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        reasons = [str(r) for r in a.get("reasons", [])]
        self.dice = None
        if self.opening_dice:
            # A void opening roll is rolled again as an opening roll: one die each.
            self.opening_dice = False
            self.phase = Phase.OPENING
            return {"type": "reroll", "player": None, "reasons": reasons, "opening": True}
        self.phase = Phase.ROLL
        # Cocked or misplaced dice still count as a throw: no double after it.
        self.may_double = bool(reasons) and set(reasons) <= REROLL_KEEPS_DOUBLE
        return {"type": "reroll", "player": self.on_roll, "reasons": reasons}

    def _do_play(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        assert self.dice is not None
        mover = self.on_roll
        text = str(a.get("play", ""))
        if trusted and "position" in a:
            result = Position.from_json(a["position"], mover.opponent)
            steps = str(a.get("steps", text))
        else:
            play = parse_play(self.position, self.dice, text)
            result, text, steps = play.result, str(play), mat_play(play.steps)
        done = {
            "type": "play",
            "player": mover,
            "dice": list(self.dice),
            "play": text,
            "steps": steps,
            "position": result.to_json(),
        }
        fit = _play_fit(a.get("fit"))
        if fit is not None:
            done["fit"] = fit  # how well the camera's reading explained the play
        self.game.slots.append((mover, f"{self._dice_text()}: {steps}".rstrip()))
        self._after_play(result, events)
        return done

    def _after_play(self, result: Position, events: list[Action]) -> None:
        self.opening_dice = False
        self.position = result
        self.dice = None
        self.may_double = True
        self.phase = Phase.ROLL
        outcome = game_result(result)
        if outcome is not None:
            self._end_game(
                outcome.winner, self.game_value(outcome.kind), outcome.kind.name.lower(), events
            )

    def _do_illegal_play(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        if "position" not in a:
            raise MatchError("an illegal play needs the position as it was left")
        observed = Position.from_json(a["position"], self.on_roll.opponent)
        problems = observed.status()
        if problems:
            raise MatchError(f"the position left is impossible: {problems[0]}")
        self.illegal_from = self.position
        self.pending = self.on_roll
        self.position = observed.with_turn(self.on_roll)  # still the mover's turn until accepted
        self.phase = Phase.ILLEGAL
        return {
            "type": "illegal_play",
            "player": self.pending,
            "dice": list(self.dice or ()),
            "play": str(a.get("play", "")),
            "position": observed.to_json(),
        }

    def _do_accept(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        if self.phase == Phase.RESIGNED:
            assert self.pending is not None
            level = ResultType(self.resign_level)
            self._end_game(self.pending.opponent, self.game_value(level), "resign", events)
            return {"type": "accept", "what": "resign"}
        assert self.pending is not None and self.illegal_from is not None and self.dice
        mover = self.pending
        steps = _diff_steps(self.illegal_from, self.position, mover)
        self.game.slots.append((mover, f"{self._dice_text()}: {steps}".rstrip()))
        self.pending = None
        self.illegal_from = None
        self._after_play(self.position.with_turn(mover.opponent), events)
        return {"type": "accept", "what": "illegal_play"}

    def _do_reject(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        if self.phase == Phase.RESIGNED:
            self.phase = self.resumed_phase
            self.pending = None
            return {"type": "reject", "what": "resign"}
        assert self.illegal_from is not None
        self.position = self.illegal_from  # the player must make a legal play instead
        self.illegal_from = None
        self.pending = None
        self.phase = Phase.MOVE
        return {"type": "reject", "what": "illegal_play"}

    def _do_double(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        self._accept_pending_illegal()
        reason = self.can_double()
        if reason is not None:
            raise MatchError(f"cannot double: {reason}")
        self.pending = self.on_roll
        self.phase = Phase.DOUBLED
        self.game.slots.append((self.pending, f" Doubles => {self.cube * 2}"))
        return {"type": "double", "player": self.pending, "cube": self.cube * 2}

    def _do_beaver(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        assert self.pending is not None
        beaverer = self.pending.opponent
        self.cube *= 2  # the double is taken...
        self.cube_owner = beaverer
        self.pending = beaverer  # ...and redoubled at once, the cube kept
        self.phase = Phase.BEAVERED
        self.game.slots.append((beaverer, f" Beavers => {self.cube * 2}"))
        return {"type": "beaver", "player": beaverer, "cube": self.cube * 2}

    def _do_take(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        assert self.pending is not None
        taker = self.pending.opponent
        self.cube *= 2
        # A take gives the taker the cube; after a beaver the beaverer keeps it.
        self.cube_owner = taker if self.phase == Phase.DOUBLED else self.pending
        self.pending = None
        self.phase = Phase.ROLL
        self.may_double = False
        self.game.slots.append((taker, " Takes"))
        return {"type": "take", "player": taker, "cube": self.cube}

    def _do_drop(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        assert self.pending is not None
        dropper = self.pending.opponent
        self.game.slots.append((dropper, " Drops"))
        # A pass pays what was at stake before the (re)double.
        self._end_game(self.pending, self.cube, "drop", events)
        return {"type": "drop", "player": dropper, "cube": self.cube}

    def _do_resign(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        """Either player may offer to resign during play (default: the player on roll)."""
        level = a.get("level")
        if level not in (1, 2, 3):
            raise MatchError("resign 1 (single), 2 (gammon) or 3 (backgammon)")
        try:
            player = Color(a.get("player") or self.on_roll)
        except ValueError:
            raise MatchError(
                f"resign: player must be white or black, not {a.get('player')!r}"
            ) from None
        self.resumed_phase = self.phase
        self.pending = player
        self.resign_level = level
        self.phase = Phase.RESIGNED
        return {
            "type": "resign",
            "player": self.pending,
            "level": level,
            "points": self.game_value(ResultType(level)),
        }

    def _end_game(self, winner: Color, points: int, how: str, events: list[Action]) -> None:
        game = self.game
        game.winner, game.points, game.how = winner, points, how
        self.score[winner] += points
        events.append(
            {
                "type": "game_over",
                "winner": winner,
                "points": points,
                "result": how,
                "score": {"white": self.score[WHITE], "black": self.score[BLACK]},
            }
        )
        if self.rules.length and self.score[winner] >= self.rules.length:
            self.winner = winner
            self.phase = Phase.MATCH_OVER
            events.append(
                {
                    "type": "match_over",
                    "winner": winner,
                    "score": {"white": self.score[WHITE], "black": self.score[BLACK]},
                }
            )
            return
        self._new_game()

    def _do_correction(self, a: Action, trusted: bool, events: list[Action]) -> Action:
        """Sets the board and, while the dice are out, the dice, by hand.

        For a board the camera misread or players who moved a checker by mistake, and
        for a roll misread (the dice as they really fell; not the opening roll's, which
        decided who plays first). The side on roll stays the same.
        """
        dice = None
        if "dice" in a:
            if self.phase != Phase.MOVE or self.opening_dice:
                raise MatchError("the dice can be corrected only while a roll is to be played")
            dice = check_dice(a["dice"])
        if "position" not in a and dice is None:
            raise MatchError("a correction needs the position as it should be")
        position = (
            Position.from_json(a["position"], self.on_roll) if "position" in a else self.position
        )
        problems = position.status()
        if problems:
            raise MatchError(f"the corrected position is impossible: {problems[0]}")
        if position.winner() is not None:
            raise MatchError("a correction cannot end the game; play the last checkers off")
        self.position = position
        done: Action = {
            "type": "correction",
            "player": self.on_roll,
            "position": position.to_json(),
            "note": str(a.get("note", "")),
        }
        if dice is not None:
            self.dice = dice
            done["dice"] = list(dice)
        return done

    def summary(self) -> dict[str, Any]:
        """The state as plain data (for `show --json` and the web page)."""
        return {
            "length": self.rules.length,
            "money": not self.rules.length,
            "score": {"white": self.score[WHITE], "black": self.score[BLACK]},
            "game": self.game.number,
            "crawford": self.crawford,
            "post_crawford": self.post_crawford,
            "phase": self.phase.value,
            "turn": self.on_roll.value,
            "acting": self.acting.value if self.acting else None,
            "dice": list(self.dice) if self.dice else None,
            "cube": {
                "value": self.cube,
                "owner": self.cube_owner.value if self.cube_owner else None,
                "offered": self.phase in (Phase.DOUBLED, Phase.BEAVERED),
            },
            "resign_offered": self.resign_level if self.phase == Phase.RESIGNED else 0,
            "position": self.position.to_json(),
            "pips": {
                "white": self.position.pip_count(WHITE),
                "black": self.position.pip_count(BLACK),
            },
            "allowed": self.allowed(),
            "winner": self.winner.value if self.winner else None,
            "rules": self.rules.to_json(),
        }


def _play_fit(fit: Any) -> dict[str, Any] | None:
    """A play's `fit` note from the referee (cost and margin in checkers, whether the
    players should glance at it), kept only in that shape."""
    if not isinstance(fit, dict):
        return None
    out: dict[str, Any] = {}
    for key in ("cost", "margin"):
        v = fit.get(key)
        out[key] = float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None
    out["check"] = fit.get("check") is True
    return out


def match_info(match: Match) -> MatchInfo:
    """The match state as GNU Backgammon Match ID / XGID fields."""
    phase = match.phase
    return MatchInfo(
        match_length=match.rules.length,
        score_white=match.score[WHITE],
        score_black=match.score[BLACK],
        cube_value=match.cube,
        cube_owner=match.cube_owner,
        on_roll=match.on_roll,
        to_act=match.acting if match.acting not in (None, match.on_roll) else None,
        dice=match.dice,
        crawford=match.crawford,
        double_offered=phase in (Phase.DOUBLED, Phase.BEAVERED),
        resign=match.resign_level if phase == Phase.RESIGNED else 0,
        game_state=GameState.OVER if phase == Phase.MATCH_OVER else GameState.PLAYING,
        jacoby=match.rules.jacoby,
        beavers=match.rules.beavers,
    )
