"""The commands: `run --hall` options checked before anything opens, `hall-setup` writing a
broker's folder, a live table's session published, and `bgcompanion hall` serving the
page over a real broker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.run import start_publisher
from companion.hall.broker import BrokerFolder, Mosquitto, free_port
from companion.hall.hall import Hall, HallListener
from companion.hall.wire import Broker
from companion.rules.match import MatchRules
from companion.session import Session
from tests.hall.conftest import credentials, wait_for


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hall", "mqtt://h:1883"], "--hall needs --table"),
        (["--table", "12"], "go with --hall"),
        (["--hall", "mqtt://u:p@h:1883", "--table", "1"], "not the URL"),
        (["--hall", "http://h", "--table", "1"], "mqtt://HOST:PORT"),
        (["--hall", "mqtt://h", "--table", "a/b"], "table id"),
        (["--hall", "mqtt://h", "--table", "1", "--hall-credentials", "/no/such"], "credentials"),
    ],
)
def test_run_refuses_bad_hall_options_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["run", "--db", str(tmp_path / "x.db"), "--cube", "none", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "x.db").exists()  # refused before anything opened


def test_hall_setup_writes_a_broker_folder_with_a_login_per_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hall-setup", str(tmp_path / "b"), "--tables", "1-3,A7", "--port", "1999"]) == 0
    out = capsys.readouterr().out
    assert "mosquitto -c" in out
    acl = (tmp_path / "b" / "acl").read_text()
    assert "user table-A7\ntopic write bgcompanion/table/A7/#" in acl
    assert "user hall\ntopic read bgcompanion/#" in acl
    conf = (tmp_path / "b" / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and "listener 1999 0.0.0.0" in conf
    cred = (tmp_path / "b" / "table-2.cred").read_text()
    assert (
        cred.startswith("table-2:")
        and oct(os.stat(tmp_path / "b" / "table-2.cred").st_mode)[-3:] == "600"
    )
    passwd = (tmp_path / "b" / "passwd").read_text()
    assert cred.split(":", 1)[1].strip() not in passwd  # hashed by mosquitto_passwd
    assert main(["hall-setup", str(tmp_path / "c"), "--tables", "1,1"]) == 2


def test_a_live_table_publishes_its_state_and_events(
    mosquitto: Mosquitto, broker_folder: BrokerFolder, address: Broker, tmp_path: Path
) -> None:
    hall = Hall()
    listener = HallListener(hall, address, credentials(broker_folder, None))
    listener.start()
    session = Session(tmp_path / "m.db", MatchRules(length=5, white="Ann", black="Bob"))
    config = (address, "12", credentials(broker_folder, "12"))
    publisher, news = start_publisher(config, session, "http://10.0.0.12:8000/")
    try:
        session.act({"type": "opening", "white": 5, "black": 3})
        wait_for(lambda: len(hall.event_ids("12")) == 2, 10, "the match and its opening roll")

        def card() -> dict[str, object]:
            return next(c for c in hall.view()["tables"] if c["table"] == "12")

        wait_for(lambda: card()["phase"] == "move", 10, "the state after the opening roll")
        c = card()
        assert c["names"] == {"white": "Ann", "black": "Bob"} and c["turn"] == "white"
        assert c["dice"] == [5, 3] and c["page"] == "http://10.0.0.12:8000/"
        assert c["position_id"] == "4HPwATDgc/ABMA" and c["length"] == 5
        with session.lock:  # the referee asks for a hand fix: the hall sees it
            session.fix = {"type": "needs_fix", "why": "the board is unreadable"}
        session._bump()
        wait_for(lambda: bool(card()["alerts"]), 10, "the fix asked for")
        assert card()["alerts"][0]["text"] == "needs a fix: the board is unreadable"
        assert news() == f"hall {address}: connected"
    finally:
        publisher.close()
        session.close()
        listener.close()


def test_the_hall_command_serves_the_tables_live(
    mosquitto: Mosquitto, broker_folder: BrokerFolder, address: Broker, tmp_path: Path
) -> None:
    port = free_port()
    hall = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "hall",
            "--broker",
            str(address),
            "--credentials",
            str(broker_folder.hall_credentials),
            "--port",
            str(port),
            "--pin",
            "2468",
            "--seconds",
            "20",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    session = Session(tmp_path / "m.db", MatchRules(length=3))
    publisher, _ = start_publisher((address, "3", credentials(broker_folder, "3")), session, None)
    try:

        def state() -> dict[str, object]:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                doc: dict[str, object] = json.load(r)
                return doc

        def ready() -> bool:
            try:
                return len(state()["tables"]) == 1  # type: ignore[arg-type]
            except OSError:
                return False

        wait_for(ready, 15, "the hall page with table 3")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/stream", timeout=5) as r:
            assert r.headers["Content-Type"].startswith("text/event-stream")
            lines = [r.readline() for _ in range(6)]  # retry, blank, id, event, data
        data = [json.loads(line[6:]) for line in lines if line.startswith(b"data: ")]
        assert [c["table"] for c in data[0]["tables"]] == ["3"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
            assert b"The hall" in r.read()
    finally:
        publisher.close()
        session.close()
        hall.terminate()
        out, err = hall.communicate(timeout=10)
    assert "director's PIN: 2468" in out, err


def test_a_machine_without_mosquitto_is_told_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import shutil

    from companion.hall.broker import BrokerError, find_tool, write_config

    monkeypatch.setattr(shutil, "which", lambda *a, **k: None)
    with pytest.raises(BrokerError, match="install Debian's mosquitto package"):
        find_tool("mosquitto")
    with pytest.raises(BrokerError, match="mosquitto_passwd not found"):
        write_config(tmp_path / "b", ["1"])
