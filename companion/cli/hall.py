"""`bgcompanion hall` (the director's page over the broker) and `bgcompanion hall-setup`
(a Mosquitto configuration with credentials and an ACL per table)."""

from __future__ import annotations

import argparse
import logging
import re
import secrets
import threading
import time
from typing import Any, TextIO

from companion.cli.common import UsageError
from companion.hall.broker import BrokerError, write_config
from companion.hall.hall import Hall, HallListener
from companion.hall.wire import WireError, load_credentials, parse_broker


def add_parsers(sub: Any) -> None:
    h = sub.add_parser(
        "hall",
        help="the tournament hall: every table live on one page, from the broker",
        description=(
            "Subscribe to every table on the broker and serve the director's page on "
            "http://HOST:PORT: the tables (those that need a person first), the results, "
            "live. Credentials: --credentials FILE (USER:PASSWORD) or the environment "
            "(BGCOMPANION_MQTT_USER, BGCOMPANION_MQTT_PASSWORD)."
        ),
    )
    h.add_argument("--broker", required=True, help="mqtt://HOST:PORT")
    h.add_argument("--credentials", help="a file holding USER:PASSWORD (the hall's)")
    h.add_argument("--host", default="127.0.0.1", help="address to serve the page on")
    h.add_argument("--port", type=int, default=8080, help="port of the page (default 8080)")
    h.add_argument("--pin", help="the director's PIN (default: 6 random digits)")
    h.add_argument(
        "--client-id",
        default="bgcompanion-hall",
        help="the hall's id at the broker: its session (events kept while away) goes with it",
    )
    h.add_argument("--seconds", type=float, default=0, help="stop after this long (0: never)")
    h.set_defaults(func=cmd_hall)

    s = sub.add_parser(
        "hall-setup",
        help="write a Mosquitto configuration for a hall: passwords and an ACL per table",
        description=(
            "Write FOLDER/mosquitto.conf, its password file and ACL, and one credentials "
            "file per table (table-ID.cred) and for the hall (hall.cred). Then run "
            "`mosquitto -c FOLDER/mosquitto.conf`."
        ),
    )
    s.add_argument("folder", help="where to write them")
    s.add_argument("--tables", required=True, help="table ids: 1-40, or 1,2,7, or A1,A2")
    s.add_argument("--port", type=int, default=1883, help="the broker's port (default 1883)")
    s.add_argument("--listen", default="0.0.0.0", help="the broker's address (default: all)")
    s.set_defaults(func=cmd_hall_setup)


def table_ids(text: str) -> list[str]:
    """`1-40`, `1,2,7` or `A1,B2` (ranges of numbers and single ids, comma-separated)."""
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        span = re.fullmatch(r"([0-9]{1,4})-([0-9]{1,4})", part)
        if span:
            lo, hi = int(span[1]), int(span[2])
            if lo > hi or hi - lo >= 1000:
                raise UsageError(f"--tables {part!r}: a range low-high of at most 1000")
            out += [str(n) for n in range(lo, hi + 1)]
        elif re.fullmatch(r"[A-Za-z0-9_-]{1,32}", part):
            out.append(part)
        else:
            raise UsageError(f"--tables {part[:40]!r}: table ids are letters, digits, - or _")
    if len(set(out)) != len(out):
        raise UsageError("--tables: a table is named twice")
    return out


def _port(value: int, what: str) -> int:
    if not 0 < value < 65536:
        raise UsageError(f"{what} {value}: expected 1-65535")
    return value


def cmd_hall_setup(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    tables = table_ids(args.tables)
    try:
        folder = write_config(args.folder, tables, _port(args.port, "--port"), args.listen)
    except (BrokerError, OSError) as e:
        raise UsageError(str(e)) from None
    stdout.write(
        f"bgcompanion: the broker's files are in {folder.folder}\n"
        f"  start it:   mosquitto -c {folder.config}\n"
        f"  the hall:   bgcompanion hall --broker mqtt://HOST:{folder.port} "
        f"--credentials {folder.hall_credentials}\n"
        f"  table {tables[0]}:   bgcompanion run ... --hall mqtt://HOST:{folder.port} "
        f"--table {tables[0]} --hall-credentials {folder.table_credentials(tables[0])}\n"
        f"  ({len(tables)} tables; give each table its own .cred file)\n"
    )
    return 0


def cmd_hall(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    # local: Flask stays out of the start-up of the other commands
    from companion.hall.web import create_hall_app, make_hall_server

    try:
        broker = parse_broker(args.broker)
        credentials = load_credentials(args.credentials)
    except WireError as e:
        raise UsageError(str(e)) from None
    _port(args.port, "--port")
    pin = args.pin if args.pin is not None else f"{secrets.randbelow(10**6):06d}"
    if not pin.isascii() or not pin.isdigit() or not 4 <= len(pin) <= 12:
        raise UsageError("--pin: 4 to 12 digits")
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", args.client_id):
        raise UsageError("--client-id: 1-64 letters, digits, - or _")

    hall = Hall()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = create_hall_app(hall, pin)
    try:
        server = make_hall_server(args.host, args.port, app)
    except OSError as e:
        raise UsageError(f"cannot serve the page on {args.host}:{args.port}: {e}") from None
    listener = HallListener(hall, broker, credentials, client_id=args.client_id)
    listener.start()
    web = threading.Thread(target=server.serve_forever, daemon=True, name="web")
    web.start()
    stdout.write(
        f"bgcompanion: the hall is on http://{args.host}:{args.port}/\n"
        f"  director's PIN: {pin}  (anyone may watch; acknowledging alerts needs the PIN)\n"
        f"  broker: {broker}{' as ' + credentials.username if credentials else ''}\n"
    )
    stdout.flush()
    deadline = time.monotonic() + args.seconds if args.seconds else None
    told = ""
    try:
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.2)
            if hall.status != told:
                told = hall.status
                stdout.write(f"bgcompanion: broker {told}\n")
                stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        hall.stop.set()
        listener.close()
        server.shutdown()
    stdout.write("bgcompanion: the hall has stopped\n")
    return 0
