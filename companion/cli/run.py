"""`bgcompanion run`: the companion at the table, in one process.

Frames (a camera, a video file, or with no source the embedded demo) go through the
vision and the referee into the match file; the cube unit shows the match and its
buttons act on it; the page shows it all and takes the controls (with the PIN printed
here). With no arguments it runs the embedded demo: a recorded match, its
calibration, the cube unit emulator and a fresh match file.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import secrets
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from calibration.schema import load
from companion.cli.common import UsageError, add_settings_option, load_settings
from companion.cube_session import LinkNews
from companion.hall.wire import WireError, check_table_id, load_credentials, parse_broker
from companion.link.client import CubeLink
from companion.link.emulator import Emulator
from companion.rules.match import MatchRules


def add_parsers(sub: Any) -> None:
    r = sub.add_parser(
        "run",
        help="the companion: camera -> referee -> match file -> cube unit and web page",
        description=(
            "Follow a game from a camera (--camera N) or a video (--video FILE) of a calibrated "
            "board, keep the match in a match file, drive the cube display unit and serve the "
            "page on http://HOST:PORT. With neither --camera nor --video: the embedded demo "
            "(a recorded match, its calibration, the cube unit emulator, a fresh match file)."
        ),
    )
    src = r.add_mutually_exclusive_group()
    src.add_argument("--camera", type=int, help="read camera N live")
    src.add_argument("--video", help="play a video file as if it were the camera")
    r.add_argument("--calibration", help="the board's calibration file (needed with a camera)")
    add_settings_option(r)
    r.add_argument(
        "--cube",
        default=None,
        help="the cube unit: a serial PORT, auto (find one), emulator, or none "
        "(default: emulator for the demo, auto otherwise)",
    )
    length = r.add_mutually_exclusive_group()
    length.add_argument("--match-length", type=int, help="points (default 7; the demo's: 5)")
    length.add_argument("--money", action="store_true", help="a money session")
    r.add_argument("--no-crawford", action="store_true", help="play without the Crawford rule")
    r.add_argument("--jacoby", action="store_true", help="money: the Jacoby rule")
    r.add_argument("--beavers", action="store_true", help="money: beavers allowed")
    r.add_argument("--auto-doubles", type=int, default=0, help="money: automatic doubles a game")
    r.add_argument(
        "--dice-on-checker",
        choices=["reroll", "allowed"],
        default="reroll",
        help="a die resting on a checker: roll again (default) or it stands",
    )
    r.add_argument("--white", default="White", help="white's name")
    r.add_argument("--black", default="Black", help="black's name")
    r.add_argument(
        "--tournament",
        action="store_true",
        help="tournament mode: no legal plays shown; illegal plays called only with --call-illegal",
    )
    r.add_argument(
        "--call-illegal",
        action="store_true",
        help="tournament mode: both players agreed to have illegal plays called",
    )
    r.add_argument("--host", default="127.0.0.1", help="address to serve the page on")
    r.add_argument("--port", type=int, default=8000, help="port of the page (default 8000)")
    r.add_argument("--db", help="the match file (default: bgcompanion.db; the demo: a fresh one)")
    r.add_argument("--resume", action="store_true", help="go on with the file's unfinished match")
    r.add_argument("--pin", help="the controls' PIN (default: 4 random digits)")
    r.add_argument("--speed", type=float, default=1.0, help="the demo film's speed (default 1)")
    r.add_argument("--seconds", type=float, default=0, help="stop after this long (0: never)")
    r.add_argument("--quiet", action="store_true", help="do not print the events")
    r.add_argument("--json", action="store_true", help="print the events as JSON lines")
    add_run_options(r)
    r.set_defaults(func=cmd_run)


def _rules(args: argparse.Namespace, default_length: int) -> Any:
    length = 0 if args.money else args.match_length
    return MatchRules(
        length=default_length if length is None else length,
        crawford=not args.no_crawford,
        jacoby=args.jacoby,
        beavers=args.beavers,
        auto_doubles=args.auto_doubles,
        dice_on_checker=args.dice_on_checker,
        white=args.white,
        black=args.black,
        tournament=args.tournament,
        call_illegal=not args.tournament or args.call_illegal,
    )


def cmd_run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: the readers (OpenCV, ONNX Runtime) and Flask kept out of other commands' start-up
    from companion.session import Session, return_memory_promptly
    from companion.web import create_app, make_page_server

    return_memory_promptly()

    demo = args.camera is None and args.video is None
    if args.video is not None and not Path(args.video).is_file():
        raise UsageError(f"{args.video}: no such video file")
    if args.speed <= 0 or args.speed > 10:
        raise UsageError("--speed: a factor above 0, at most 10")
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port}: expected 1-65535")
    pin = args.pin if args.pin is not None else f"{secrets.randbelow(10000):04d}"
    if not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise UsageError("--pin: 4 to 12 digits")
    hall = hall_config(args)
    settings = load_settings(args.settings)

    recording = None
    if demo:
        # local: the demo film's player (OpenCV, the renderer) only for the demo
        from companion.demo import Recording, demo_calibration

        recording = Recording.load()
        calibration = load(args.calibration) if args.calibration else demo_calibration()
        rules = _rules(args, recording.match_length)
        db = Path(args.db or Path(tempfile.mkdtemp(prefix="bgcompanion-demo-")) / "demo.db")
        cube = args.cube or "emulator"
    else:
        if not args.calibration:
            raise UsageError("--calibration FILE is needed to follow a camera or a video")
        calibration = load(args.calibration)
        rules = _rules(args, 7)
        db = Path(args.db or "bgcompanion.db")
        cube = args.cube or "auto"
    session = Session(
        db, rules, calibration=calibration, resume=args.resume, pin=pin, settings=settings
    )
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    app = create_app(session)
    try:
        server = make_page_server(args.host, args.port, app)  # one thread for all live pages
    except OSError as e:
        session.close()
        raise UsageError(f"cannot serve the page on {args.host}:{args.port}: {e}") from None
    threads: list[threading.Thread] = []

    def tell(line: str) -> None:
        stdout.write(f"bgcompanion: {line}\n")
        stdout.flush()

    stop_cube, cube_text, cube_news = _start_cube(cube, session, threads, tell)

    if recording is not None:
        # local: the demo film's player (OpenCV, the renderer) only for the demo
        from companion.demo import FilmPlayer, session_cue

        player = FilmPlayer(recording, session_cue(session), session.stop, args.speed)
        source = f"the demo film ({recording.size[0]}x{recording.size[1]})"
        frames = player.frames()
    else:
        # local: as companion.session above, OpenCV out of the other commands' start-up
        from companion.follow import video_frames

        source = f"camera {args.camera}" if args.camera is not None else str(args.video)
        frames = _paced(video_frames(args.camera if args.camera is not None else args.video))
    camera = threading.Thread(
        target=session.run_camera, args=(frames, source, True), daemon=True, name="camera"
    )
    threads += [camera, threading.Thread(target=server.serve_forever, daemon=True, name="web")]

    shown = "0.0.0.0" if args.host == "0.0.0.0" else args.host
    say = _printer(args, stdout, session)
    stdout.write(
        f"bgcompanion: the page is on http://{shown}:{args.port}/\n"
        f"  controls PIN: {pin}  (anyone who opens the page can watch; changing anything "
        "needs the PIN)\n"
        f"  match file: {db} (match {session.match_id}: "
        f"{'money' if not rules.length else str(rules.length) + ' points'})\n"
        f"  camera: {source}\n"
        f"  cube unit: {cube_text}\n"
    )
    stdout.flush()
    session.listeners.append(say)
    publisher, hall_news = start_publisher(hall, session, args)
    if hall is not None:
        tell(f"publishing to the hall at {hall[0]} as table {hall[1]}")
    for t in threads:
        t.start()
    deadline = time.monotonic() + args.seconds if args.seconds else None
    told = None
    video_running = args.video is not None
    try:
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.2)
            cube_news()  # one line when the cube unit goes missing, one when it is back
            line = hall_news()
            if line:
                tell(line)
            problem = session.health.camera_error
            if problem and problem != told:
                told = problem
                stdout.write(f"bgcompanion: camera: {problem} (the page stays up)\n")
                stdout.flush()
            if video_running and not camera.is_alive():
                video_running = False
                stdout.write("bgcompanion: the video has ended; the page stays up (Ctrl-C)\n")
                stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        session.stop.set()
        server.shutdown()
        camera.join(timeout=5)  # a reading in progress finishes before the file closes
        stop_cube()
        if publisher is not None:
            publisher.close()  # it reads the match file: before the file closes
        session.close()
    stdout.write(f"bgcompanion: stopped; the match is in {db}\n")
    return 0


def _paced(frames: Any) -> Any:
    """A video file's frames at the pace they were filmed, as a camera gives them."""
    start = time.monotonic()
    for index, t, image in frames:
        delay = start + t - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        yield index, t, image


def _start_cube(
    cube: str, session: Any, threads: list[threading.Thread], tell: Callable[[str], None]
) -> tuple[Callable[[], None], str, Callable[[], None]]:
    """Starts the cube link (and the emulator when asked); returns what stops them, the
    unit's description, and what tells when the unit goes missing or comes back."""
    if cube == "none":
        session.health.cube = "none"
        return (lambda: None), "none", (lambda: None)

    emulator = None
    port = cube
    if cube == "emulator":
        emulator = Emulator()
        emulator.start()
        port = emulator.port
        session.unit = emulator
    link = CubeLink(port)
    link.start()
    threads.append(
        threading.Thread(
            target=session.run_cube,
            args=(link, lambda: _link_status(link)),
            daemon=True,
            name="cube",
        )
    )

    def stop() -> None:
        link.close()
        if emulator is not None:
            emulator.stop()

    return stop, ("the emulator on " + port if emulator else port), LinkNews(link, tell).check


def _link_status(link: Any) -> str:
    """The link's state for the health line, with the reason while it is not connected."""
    status = str(link.status.value)
    if status != "connected" and link.problems:
        why = str(link.problems[-1]).removeprefix("link: ").removeprefix("SerialException: ")
        return f"{status} ({why})"
    return status


def _printer(args: argparse.Namespace, stdout: TextIO, session: Any) -> Any:
    lock = threading.Lock()

    def say(events: list[dict[str, Any]]) -> None:
        if args.quiet:
            return
        with lock:
            for e in events:
                if args.json:
                    stdout.write(json.dumps(e) + "\n")
                    continue
                rest = ", ".join(
                    f"{k} {v}" for k, v in e.items() if k not in ("frame", "t", "type")
                )
                stdout.write(f"{e.get('t', 0):8.2f}s  {e['type']:<15} {rest}\n")
            stdout.flush()

    return say


# --- `bgcompanion run --hall`: the table's side -------------------------------------------
def add_run_options(r: Any) -> None:
    """The options `bgcompanion run` takes to publish its table to a hall."""
    r.add_argument("--hall", metavar="mqtt://HOST:PORT", help="publish this table to the hall")
    r.add_argument("--table", help="this table's id in the hall (1-32 letters, digits, - _)")
    r.add_argument(
        "--hall-credentials",
        metavar="FILE",
        help="USER:PASSWORD for the broker (default: BGCOMPANION_MQTT_USER / _PASSWORD)",
    )
    r.add_argument("--page-url", help="this table's page address, for the hall's link")


def hall_config(args: argparse.Namespace) -> tuple[Any, str, Any] | None:
    """(broker, table id, credentials) from `run`'s options, checked; None without --hall."""
    if args.hall is None:
        if args.table is not None or args.hall_credentials is not None:
            raise UsageError("--table and --hall-credentials go with --hall mqtt://HOST:PORT")
        return None
    if args.table is None:
        raise UsageError("--hall needs --table ID (this table's id in the hall)")
    if args.page_url is not None and not re.fullmatch(r"https?://[^\s]{1,190}", args.page_url):
        raise UsageError("--page-url: an http:// or https:// address")
    try:
        return (
            parse_broker(args.hall),
            check_table_id(args.table),
            load_credentials(args.hall_credentials),
        )
    except WireError as e:
        raise UsageError(str(e)) from None


def no_news() -> str | None:
    return None


def start_publisher(
    config: tuple[Any, str, Any] | None, session: Any, args: argparse.Namespace | str | None
) -> tuple[Any, Callable[[], str | None]]:
    """The table's publisher, started and told of every recorded event; returns it and
    what reports its connection's changes (one line each). `args`: `run`'s options (the
    page's address from --page-url, or from --host and --port), or the address itself.
    Without a hall: (None, no_news)."""
    # local: the MQTT client (paho) only for a table published to a hall
    from companion.hall.publish import Publisher, session_state

    if config is None:
        return None, no_news
    broker, table, credentials = config
    if isinstance(args, argparse.Namespace):
        page = args.page_url or page_url(args.host, args.port, broker.host)
    else:
        page = args
    publisher = Publisher(
        session.store.path, table, broker, credentials, lambda: session_state(session, page)
    )
    session.listeners.append(publisher.notify)
    publisher.start()
    told = [""]

    def news() -> str | None:
        status = str(publisher.status)
        if status == told[0] or status in ("not started", "connecting"):
            return None
        told[0] = status
        return f"hall {broker}: {status}"

    return publisher, news


def page_url(host: str, port: int, broker_host: str) -> str:
    """This table's page as the hall's machine may reach it: on all addresses, the one
    this machine uses towards the broker."""
    if host in ("0.0.0.0", "::", ""):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((broker_host, 9))  # no packet is sent: it picks the route
                host = str(s.getsockname()[0])
        except OSError:
            host = socket.gethostname()
    return f"http://{host}:{port}/"
