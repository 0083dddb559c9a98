"""The referee on rendered game videos: every event right, the .mat imported, real-time speed.

    .venv/bin/python benchmarks/referee.py [--games 5] [--seed 100] [--workers 2] [--no-floors]
        [--models DIR]

Each game is a whole random game (`sim.films.film_game`) filmed at 1920x1080,
30 fps, Motion JPEG: opening roll (ties rolled again), about one roll in seven first
thrown cocked or into the wrong section, hits, bar entries, the bear-off; the first game
has an illegal play at its 5th turn. The video is written and read back frame by frame
through the referee exactly as `bgcompanion referee` does (one process per game).

Measured per game and in total: events that differ from the truth (type, player, dice,
play, reasons, winner and points; the two lists aligned as `diff` would, so that one
missed event counts once; a turn the referee inferred from the checkers after a misread
roll counts as right when roll and play are, and is counted apart), whether GNU Backgammon imports
the match's .mat with the right score, and the frames per second the referee keeps up
with (video decoding included; a still frame like the last one read is not read again).
Targets (issue 6): every play and roll right; the .mat imported; >= 30 fps.

    .venv/bin/python benchmarks/referee.py --styles wide [--games 5] [--seed 100]

The same on boards of `sim.WIDE_STYLES` (issues 27 and 28: checker sets, boards, bars,
hinges, shadows and light the networks never saw), each calibrated as a user would: the
calibration's look learnt on a frame of the starting position (`vision.board_learn`,
which records the board's own die-like marks too). No floors there: it measures.

    .venv/bin/python benchmarks/referee.py --sides [--games 5] [--styles wide]

The same games with their cocked dice drawn as a camera above sees them (`sim.Scene.
dice_sides`: the top face foreshortened beside the side the lean turns up, with its pips),
which the dice readers read flat for the most part: the roll stands and the players throw
again (docs/referee.md, "A roll thrown again before its play"). No floors: it measures.

    .venv/bin/python benchmarks/referee.py --noise [--games 40] [--seed 100]

Under reading noise (issue 32): the same kind of games, told to the referee as readers
making mistakes on purpose would (`companion.film_readings.film_observations`, no video):
each still scene's board read with a share of its places a checker off (with full
confidence: the worst kind of mistake) and half that share of places unread, and
separately with dice misread, and with things at rest read as dice (two a game, each
lying still from a scene drawn at random, on the board or its frame: the doubling cube, a
clock's button or a print read as a die; `Noise.rest`; in one row every die's centre read
about 1.5 px off, `Noise.jitter`; in one the things not read in a fifth of the looks,
`Noise.flicker`), and with a share of the dice never read where they lie
(`Noise.missed`: 3% and 10%, and 3% together with places misread or with things at
rest), and with 1% and 3% of the dice misread with the confidences a real reader gives
(`Noise.unsure_wrong`, `unsure_right`: nine in ten misread dice and one in four read
right below 0.9; the other dice-misread rows read every die with full confidence, the
worst kind), the 1% also with 2% of places misread, and with 3% and 10% of flat dice
read cocked (`Noise.cocked`) or of dice found but not read (`Noise.faceless`), in every
look of their throw, the players playing on, and with half and all of the cocked dice read
flat (`Noise.blind`; all also with 2% of places misread), the players throwing again.
Printed per noise rate: events
right (corrections and requests for a hand fix not counted as events, and counted
apart), games lost (the game's end missing, or its winner, result or points wrong),
plays flagged to be checked. Targets: with 2% of point counts wrong, >= 99% of events
right and no game lost; with 10%, no game lost.

Then the floors (`FLOORS`, `NOISE_FLOORS`) of the default runs: exits 1 if a figure fell
below where it stood.
"""

from __future__ import annotations

import argparse
import difflib
import json
import multiprocessing
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

# A benchmark named after a package would shadow it: this folder goes last on the path
# (its own helpers, benchmarks/benchkit.py, stay importable).
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

from benchkit import Floor, add_models, check, use_models

from calibration.geometry import BoardGeometry
from companion.film_readings import Noise, film_observations
from companion.follow import Follower, follow, video_frames
from companion.referee import Referee
from companion.rules.errors import RulesError
from companion.rules.mat import export_mat
from companion.rules.match import Match, MatchRules, Phase
from sim import START, film_game, render, write_video
from vision.board_learn import learn_appearance
from vision.frame import FrameReader

LENGTH = 7


def differences(got: list[dict[str, Any]], truth: list[dict[str, Any]]) -> list[str]:
    """The events missing from `got` (-) or extra in it (+), the lists aligned."""
    skip = ("frame", "t", "inferred", "fit")
    a = [json.dumps({k: v for k, v in e.items() if k not in skip}) for e in got]
    b = [json.dumps(e) for e in truth]
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op != "equal":
            out += [f"+ {x}" for x in a[i1:i2]] + [f"- {x}" for x in b[j1:j2]]
    return out


def gnubg_score(mat: Path) -> str:
    gnubg = shutil.which("gnubg") or "/usr/games/gnubg"
    if not Path(gnubg).exists():
        return "gnubg not installed"
    out = subprocess.run(
        [gnubg, "-t", "-q"],
        input=f"import mat {mat}\nshow score\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.findall(r"The score \(after (\d+) games?\) is: (.+?) (\d+), (.+?) (\d+)", out.stdout)
    return " ".join(found[-1]) if found else "no score: " + out.stdout[-300:]


def run_game(job: tuple[int, int, str, bool]) -> dict[str, Any]:
    import cv2

    cv2.setNumThreads(1)
    k, seed, family, sides = job
    film = film_game(
        seed, (1920, 1080), length=LENGTH, illegal_at=5 if k == 0 else None, family=family
    )
    assert film.base is not None
    if sides:  # cocked dice drawn as a camera above sees them (shots sharing a scene still do)
        drawn = {id(shot.scene): replace(shot.scene, dice_sides=True) for shot in film.shots}
        film.shots = [replace(shot, scene=drawn[id(shot.scene)]) for shot in film.shots]
    cal = render(film.base).calibration
    assert cal is not None
    if family == "wide":  # calibrated as a user would: on the starting position, learnt
        start = replace(film.base, white=START, black=START, dice=())
        cal = replace(cal, appearance=learn_appearance(render(start).image, cal))
    with tempfile.TemporaryDirectory() as tmp:
        video = Path(tmp) / "game.avi"
        frames = write_video(film, video)
        match = Match(MatchRules(length=LENGTH))
        referee = Referee.for_match(match)
        follower = Follower(FrameReader(BoardGeometry(cal)))
        events: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        stats = follow(video_frames(str(video)), follower, referee, events.append)
        wall = time.perf_counter() - t0
        mat = Path(tmp) / "game.mat"
        mat.write_text(export_mat(match))
        score = gnubg_score(mat)
    wrong = differences(events, film.truth)
    kinds = [t["type"] for t in film.truth]
    plays = [t["play"] for t in film.truth if t["type"] == "play"]
    over = [t for t in film.truth if t["type"] == "game_over"]
    return {
        "game": k,
        "seed": seed,
        "frames": frames,
        "fps": stats.frames / wall,
        "read": stats.read,
        "events": len(film.truth),
        "wrong": wrong[:6],
        "n_wrong": sum(w.startswith("-") for w in wrong),
        "n_extra": sum(w.startswith("+") for w in wrong),
        "inferred": sum(bool(e.get("inferred")) for e in events if e["type"] == "play"),
        "again": sum(e.get("reasons") == ["thrown_again"] for e in events),
        "plays": kinds.count("play"),
        "rolls": kinds.count("roll") + kinds.count("opening_roll"),
        "rerolls": kinds.count("reroll"),
        "illegal": kinds.count("illegal_play"),
        "hits": sum("*" in p for p in plays),
        "bar": sum(p.startswith("bar/") or " bar/" in p for p in plays),
        "off": sum("/off" in p for p in plays),
        "result": over[0]["result"] if over else "unfinished",
        "mat": score,
        "truth_points": over[0]["points"] if over else 0,
    }


NOISES = [
    ("clean", Noise()),
    ("counts 2%", Noise(counts=0.02, unread=0.01)),
    ("counts 5%", Noise(counts=0.05, unread=0.025)),
    ("counts 10%", Noise(counts=0.10, unread=0.05)),
    ("dice 1%", Noise(dice=0.01)),
    ("dice 1% + counts 2%", Noise(counts=0.02, unread=0.01, dice=0.01)),
    ("2 things at rest", Noise(rest=2)),
    ("at rest + counts 2%", Noise(counts=0.02, unread=0.01, rest=2)),
    ("at rest, centres 1.5 px", Noise(rest=2, jitter=1.5)),
    ("at rest, 20% unread", Noise(rest=2, flicker=0.2)),
    ("dice missed 3%", Noise(missed=0.03)),
    ("dice missed 10%", Noise(missed=0.10)),
    ("missed 3% + counts 2%", Noise(missed=0.03, counts=0.02, unread=0.01)),
    ("missed 3% + at rest", Noise(missed=0.03, rest=2)),
    # Dice misread with the confidences a real reader gives (`Noise.unsure_wrong` and
    # `unsure_right`, as measured on the real photos)
    ("dice 1%, unsure", Noise(dice=0.01, unsure_wrong=0.9, unsure_right=0.25)),
    ("dice 3%, unsure", Noise(dice=0.03, unsure_wrong=0.9, unsure_right=0.25)),
    (
        "dice 1% unsure + counts 2%",
        Noise(dice=0.01, unsure_wrong=0.9, unsure_right=0.25, counts=0.02, unread=0.01),
    ),
    # Flat dice read cocked (a reader's false call, the same in every look of the throw: a
    # needless reroll called, the players playing the roll on;
    # last, so that each row above keeps its draws: a row's seed counts its place)
    ("dice read cocked 3%", Noise(cocked=0.03)),
    ("dice read cocked 10%", Noise(cocked=0.10)),
    # Dice found but not read (a value of None in every look of the throw: the dice asked
    # for by hand, the players playing on)
    ("dice unreadable 3%", Noise(faceless=0.03)),
    ("dice unreadable 10%", Noise(faceless=0.10)),
    # Cocked dice read flat (a reader that does not know a cocked die as a camera sees it:
    # the shipped one read 19 of 20 so, `benchmarks/dice.py --sides`): the roll accepted,
    # the players throwing again
    ("cocked read flat 50%", Noise(blind=0.5)),
    ("cocked read flat", Noise(blind=1.0)),
    ("cocked flat + counts 2%", Noise(blind=1.0, counts=0.02, unread=0.01)),
]


def run_noisy(job: tuple[int, int, int]) -> dict[str, Any]:
    """One game told to the referee with one of `NOISES`' mistakes."""
    k, seed, which = job
    film = film_game(seed, (1920, 1080), length=LENGTH, illegal_at=5 if k % 4 == 0 else None)
    match = Match(MatchRules(length=LENGTH))
    referee = Referee.for_match(match)
    events: list[dict[str, Any]] = []
    moves = [t for t in film.truth if t["type"] in ("play", "illegal_play")]
    last = None
    for obs in film_observations(film, NOISES[which][1], seed=seed * 7 + which):
        events.extend(referee.feed(obs))
        last = obs
    assert last is not None
    for k in range(1, 2 * referee.fix_after):  # the board stays on the table after the game
        events.extend(referee.feed(replace(last, frame=last.frame + k)))
        if events[-1:] and events[-1]["type"] == "needs_fix" and match.phase == Phase.MOVE:
            # The film is over: the move on the table is its last. Where the referee has
            # that move's player on roll, the players answer the request for a hand fix as
            # they see the table: the board as it was before that move, the dice it
            # played, then the move made. (Until 2026-12-07 they answered with the move
            # the referee's own count of plays pointed to, an earlier one wherever the
            # referee had lost a turn: a fix no player would give.)
            done = len(moves) - 1
            if moves[done]["player"] == match.on_roll:
                fix: dict[str, Any] = {}
                if match.position != film.before[done]:
                    fix["position"] = film.before[done].to_json()
                if match.dice is not None and sorted(match.dice) != sorted(film.rolls[done]):
                    fix["dice"] = list(film.rolls[done])
                move = {key: v for key, v in moves[done].items() if key != "player"}
                try:
                    if fix:
                        events.extend(referee.act({"type": "correction", **fix}))
                    events.extend(referee.act(move))
                except RulesError:
                    pass  # the referee lost count of the moves: the game is counted lost

    told = [e for e in events if e["type"] not in ("correction", "needs_fix")]
    wrong = differences(told, film.truth)
    end = [
        {key: e[key] for key in ("winner", "points", "result")}
        for e in told
        if e["type"] == "game_over"
    ][:1]  # the game's result (the film may go on past an end the referee saw early)
    truth_end = [
        {key: e[key] for key in ("winner", "points", "result")}
        for e in film.truth
        if e["type"] == "game_over"
    ]
    return {
        "which": which,
        "events": len(film.truth),
        "wrong": sum(w.startswith("-") for w in wrong),
        "extra": sum(w.startswith("+") for w in wrong),
        "lost": end != truth_end,
        "corrections": sum(e["type"] == "correction" for e in events),
        "fixes": sum(e["type"] == "needs_fix" for e in events),
        "checks": sum(bool(e.get("fit", {}).get("check")) for e in told if e["type"] == "play"),
        "plays": sum(e["type"] == "play" for e in told),
    }


# Floors (benchmarks/benchkit.py) of the default runs (5 games and 40 noisy games a row,
# seed 100): where the figures stood when set, not the targets (every event right since
# the dice detector's marks from odds of 0.2 are read: 13 missed and 8 extra before, a
# white 1 on a light point unmarked).
FLOORS = [
    Floor("events missed or wrong", "wrong", at_most=0),
    Floor("events extra", "extra", at_most=0),
]
NOISE_FLOORS = [
    Floor("games lost, counts or dice misread", "lost", at_most=0),
    # (0.9988 and 0.9882 until 2026-12-07: since a correction never bears off a checker
    # believed outside home, one game, seed 125, keeps a wrong correction two plays
    # longer, 2 and 1 events)
    Floor("events right, counts 2%", "counts 2%", at_least=0.9986),
    # (0.9881 until 2026-12-07, sixth session: a board is taken whole only where two stills
    # read it alike, and a play on a board it does not explain waits for another look
    # unless it wins by `check_margin`)
    Floor("events right, counts 10%", "counts 10%", at_least=0.9906),
    # Dice misread at full confidence (2026-12-07: 98.96% and 98.26% before a die read
    # surely was corrected by a play the other player's throw made stand, where no play
    # of the roll read explained the board and the look before showed it too; 98.37%
    # until the look before need only prefer it, seventh session)
    Floor("events right, dice 1%", "dice 1%", at_least=0.9908),
    Floor("events right, dice 1% + counts 2%", "dice 1% + counts 2%", at_least=0.9842),
    # Things at rest read as dice (2026-12-06: 44.19% and 32 of 40 games lost before the
    # referee knew them)
    Floor("events right, 2 things at rest", "2 things at rest", at_least=0.9993),
    Floor("games lost, things at rest", "lost at rest", at_most=0),
    # A die never read where it lies (2026-12-06: 94.92% before the die read was used to
    # narrow the roll inferred; 2026-12-07: 96.63% and 5 of 40 games lost before a turn
    # was read from the throw seen, the other player's or a die short, and a play that
    # several rolls have was taken with the likeliest, and an opening a die short from
    # its play; at 10%: 85.77% and 17 lost)
    # (98.65% and 95.89% until 2026-12-07, second session: a turn with no play after a
    # throw a die short was taken only where no roll with the die read had a play)
    Floor("events right, dice missed 3%", "dice missed 3%", at_least=0.9925),
    Floor("events right, dice missed 10%", "dice missed 10%", at_least=0.9729),  # 0.9552
    # until a correction never bore off a checker believed outside home (2026-12-07)
    Floor("games lost, dice missed", "lost missed", at_most=0),
    # Events told that the truth has not, mostly false calls back: a throw a die short is
    # called back only if thrown again (2026-12-07, seventh session: 268, 835 and 318
    # before, each such throw called back at once, `dice_count`)
    Floor("events extra, dice missed 3%", "extra, dice missed 3%", at_most=79),
    Floor("events extra, dice missed 10%", "extra, dice missed 10%", at_most=222),
    Floor("events extra, missed 3% + counts 2%", "extra, missed 3% + counts 2%", at_most=121),
    # ... with places misread too (90.94% and 7 lost before; 1 lost at 8c9576c: its last
    # play read unclearly after the referee had lost a turn, the players' hand fix then
    # answered for an earlier move; none since they answer for the move on the table,
    # 2026-12-07)
    # (96.00% until 2026-12-07: the play after a throw a die short then had to explain the
    # board within half a checker, a place misread not allowed; 98.21% until a turn with no
    # play was taken with the rolls that have none)
    Floor("events right, missed 3% + counts 2%", "missed 3% + counts 2%", at_least=0.9864),
    Floor("games lost, missed 3% + counts 2%", "lost missed and misread", at_most=0),
    # Dice misread with a real reader's confidences (2026-12-07: 98.65% and 94.17% before
    # a play that a die read unsure contradicts corrected that die, 56 and 173 illegal
    # plays called falsely; 99.32% and 96.47%, 8 and 14, after)
    Floor("events right, dice 1%, unsure", "dice 1%, unsure", at_least=0.9931),
    Floor("events right, dice 3%, unsure", "dice 3%, unsure", at_least=0.9646),
    # ... with places misread too (98.65% before; one game lost since, seed 114: a place
    # misread made a play of the roll with a die read unsure, but right, changed: see
    # docs/referee.md)
    Floor(
        "events right, dice 1% unsure + counts 2%", "dice 1% unsure + counts 2%", at_least=0.9910
    ),
    # (1 until 2026-12-07, sixth session: seed 114's, kept since a die read unsure is not
    # corrected by a margin of one checker on one look)
    Floor("games lost, dice 1% unsure + counts 2%", "lost unsure and misread", at_most=0),
    # Flat dice read cocked, the players playing on (2026-12-07: 97.23% and 92.14%, 1 and 3
    # of 40 games lost, before a throw called back only for how its dice lay was looked for
    # in the play that followed; its games lost count in "games lost, counts or dice
    # misread")
    Floor("events right, dice read cocked 3%", "dice read cocked 3%", at_least=0.9961),
    Floor("events right, dice read cocked 10%", "dice read cocked 10%", at_least=0.9925),
    # Dice found but not read, the players playing on (2026-12-07: 96.65% and 91.93%, 1 and
    # 5 of 40 games lost, before the die read of such a throw was used as a die short's)
    # (98.62% and 95.31% before a turn with no play was taken with the rolls that have
    # none, 2026-12-07, second session)
    Floor("events right, dice unreadable 3%", "dice unreadable 3%", at_least=0.9951),
    Floor("events right, dice unreadable 10%", "dice unreadable 10%", at_least=0.9770),
    # Cocked dice read flat, the players throwing again (2026-12-07, third session: 95.47%,
    # 90.26% and 87.51%, 0, 1 and 1 of 40 games lost, before a roll thrown again unplayed
    # was called back, `Referee._thrown_again`; its games lost count in "games lost, counts
    # or dice misread"). What is left wrong is mostly the `reroll` the camera could not
    # call: each such throw is told as its roll, the pick-up and a `thrown_again` reroll (3
    # extra); and a roll with no play thrown again (recorded at its pick-up: not called back)
    Floor("events right, cocked read flat 50%", "cocked read flat 50%", at_least=0.9857),
    Floor("events right, cocked read flat", "cocked read flat", at_least=0.9678),
    # (0.9650 until 2026-12-07, seventh session: a die read surely is corrected where the
    # look before preferred the corrected play by `margin_min` without explaining it. Seed
    # 119, a game already lost track of for several turns in both, then took a 3-2
    # correction where it had taken the board whole: 13 -> 19 events wrong, the result
    # right in both)
    Floor("events right, cocked flat + counts 2%", "cocked flat + counts 2%", at_least=0.9645),
]


def main_noise(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    jobs = [(k, args.seed + k, which) for which in range(len(NOISES)) for k in range(args.games)]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(run_noisy, jobs, chunksize=4)
    print(
        f"referee under reading noise: {args.games} games per row (seeds {args.seed}-"
        f"{args.seed + args.games - 1}, one 7-point match game each, every 4th with an "
        "illegal play); the counts' noise comes with half as many places unread"
    )
    figures: dict[str, float] = {
        "lost": 0,
        "lost at rest": 0,
        "lost missed": 0,
        "lost missed and misread": 0,
        "lost unsure and misread": 0,
    }
    for which, (name, noise) in enumerate(NOISES):
        rows = [r for r in results if r["which"] == which]
        events = sum(r["events"] for r in rows)
        wrong = sum(r["wrong"] for r in rows)
        figures[name] = (events - wrong) / events
        kind = (
            "lost at rest"
            if noise.rest
            else "lost missed and misread"
            if noise.missed and noise.counts
            else "lost missed"
            if noise.missed
            else "lost unsure and misread"
            if noise.unsure_wrong and noise.counts
            else "lost"
        )
        figures[kind] += sum(r["lost"] for r in rows)
        figures[f"extra, {name}"] = sum(r["extra"] for r in rows)
        print(
            f"{name:>20}: events right {100 * (events - wrong) / events:6.2f}% "
            f"({events - wrong} of {events}; {sum(r['extra'] for r in rows)} extra), "
            f"games lost {sum(r['lost'] for r in rows)} of {len(rows)}, "
            f"corrections {sum(r['corrections'] for r in rows)}, "
            f"hand fixes asked {sum(r['fixes'] for r in rows)}, "
            f"plays flagged to check {sum(r['checks'] for r in rows)} of "
            f"{sum(r['plays'] for r in rows)}"
        )
    print(
        "targets: counts 2% >= 99% of events right and no game lost; counts 10% no game "
        f"lost; {time.perf_counter() - t0:.0f} s"
    )
    if args.no_floors or (args.games, args.seed) != (40, 100):
        return 0
    return check(figures, NOISE_FLOORS)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--noise", action="store_true", help="reading noise, no video (issue 32)")
    ap.add_argument("--no-floors", action="store_true", help="print the figures only")
    ap.add_argument(
        "--styles",
        choices=("default", "wide"),
        default="default",
        help="the boards filmed: wide = styles the networks never saw, each calibrated "
        "(its look learnt) on its starting position",
    )
    ap.add_argument(
        "--sides",
        action="store_true",
        help="cocked dice drawn as a camera above sees them, their side turned up "
        "(sim.Scene.dice_sides): the readers read most of them flat; no floors",
    )
    add_models(ap)
    args = ap.parse_args()
    use_models(args.models)
    if args.noise:
        args.games = args.games or 40
        return main_noise(args)
    args.games = args.games or 5
    t0 = time.perf_counter()
    jobs = [(k, args.seed + k, args.styles, args.sides) for k in range(args.games)]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(run_game, jobs, chunksize=1)
    total_wrong = 0
    for r in results:
        total_wrong += r["n_wrong"]
        print(
            f"game {r['game']} (seed {r['seed']}): {r['frames']} frames, {r['events']} events "
            f"({r['rolls']} rolls, {r['rerolls']} rerolls, {r['plays']} plays, {r['hits']} hits, "
            f"{r['bar']} bar entries, {r['off']} bear-off plays, {r['illegal']} illegal), "
            f"{r['result']}; missed or wrong {r['n_wrong']}, extra {r['n_extra']}, "
            f"turns inferred from the play {r['inferred']}, rolls thrown again {r['again']}; "
            f"referee {r['fps']:.0f} fps "
            f"({r['read']} frames read in full); GNU Backgammon after import: {r['mat']} "
            f"(truth: {r['truth_points']} point(s))"
        )
        for line in r["wrong"]:
            print(f"    {line}")
    events = sum(r["events"] for r in results)
    fps = min(r["fps"] for r in results)
    print(
        f"games: {len(results)}, events: {events}, wrong: {total_wrong} (target 0); "
        f"slowest referee {fps:.0f} fps with {args.workers} games at once (target >= 30); "
        f"{time.perf_counter() - t0:.0f} s"
    )
    if args.no_floors or args.sides or (args.games, args.seed, args.styles) != (5, 100, "default"):
        return 0
    extra = sum(r["n_extra"] for r in results)
    return check({"wrong": total_wrong, "extra": extra}, FLOORS)


if __name__ == "__main__":
    sys.exit(main())
