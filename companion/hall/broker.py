"""A Mosquitto broker for a hall: its configuration, and running it (for tests and tools).

`write_config` makes a folder the broker runs from: `mosquitto.conf` (one listener,
no anonymous clients, persistence so that queued messages survive a restart), a
password file made with `mosquitto_passwd`, an ACL (table `<id>` may write only under
`bgcompanion/table/<id>/`, the hall may only read), and one credentials file per table
and one for the hall (`USER:PASSWORD`, readable by their owner only).
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from companion.hall.wire import PREFIX, check_table_id

HALL_USER = "hall"


class BrokerError(RuntimeError):
    """Mosquitto is missing, or would not start."""


def find_tool(name: str) -> str:
    """`mosquitto` or `mosquitto_passwd` (Debian puts the broker in /usr/sbin)."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/usr/local/sbin")
    if found is None:
        raise BrokerError(
            f"{name} not found: install Debian's mosquitto package "
            "(scripts/install-system.sh does, as root)"
        )
    return found


def table_user(table: str) -> str:
    return f"table-{table}"


@dataclass(frozen=True)
class BrokerFolder:
    folder: Path
    port: int
    config: Path
    hall_credentials: Path

    def table_credentials(self, table: str) -> Path:
        return self.folder / f"{table_user(table)}.cred"


def write_config(
    folder: str | Path, tables: list[str], port: int = 1883, host: str = "0.0.0.0"
) -> BrokerFolder:
    """The broker's folder for these tables (new passwords each time it is written)."""
    root = Path(folder).resolve()
    root.mkdir(parents=True, exist_ok=True)
    (root / "data").mkdir(exist_ok=True)
    tables = [check_table_id(t) for t in tables]
    passwords = {HALL_USER: secrets.token_urlsafe(18)}
    passwords |= {table_user(t): secrets.token_urlsafe(18) for t in tables}
    passwd = root / "passwd"
    passwd.write_text("".join(f"{u}:{p}\n" for u, p in passwords.items()))
    os.chmod(passwd, 0o600)
    # hashes the file in place (plain USER:PASSWORD lines in, USER:$7$... out)
    run = subprocess.run(
        [find_tool("mosquitto_passwd"), "-U", str(passwd)], capture_output=True, text=True
    )
    if run.returncode != 0:
        raise BrokerError(f"mosquitto_passwd: {run.stderr.strip() or run.stdout.strip()}")
    acl = [f"user {HALL_USER}", f"topic read {PREFIX.split('/')[0]}/#", ""]
    for t in tables:
        acl += [f"user {table_user(t)}", f"topic write {PREFIX}/{t}/#", ""]
    (root / "acl").write_text("\n".join(acl))
    config = root / "mosquitto.conf"
    config.write_text(
        "\n".join(
            [
                "# bgcompanion hall broker (written by `bgcompanion hall-setup`)",
                f"listener {port} {host}",
                "allow_anonymous false",
                # as root, mosquitto would become user `mosquitto` and lose these files
                f"user {pwd.getpwuid(os.getuid()).pw_name}",
                f"password_file {passwd}",
                f"acl_file {root / 'acl'}",
                "persistence true",
                f"persistence_location {root / 'data'}/",
                "autosave_interval 5",
                "max_queued_messages 100000",
                "max_inflight_messages 100",
                "log_dest stderr",
                "log_type error",
                "log_type warning",
                "",
            ]
        )
    )
    for user, password in passwords.items():
        cred = root / f"{user}.cred"
        cred.write_text(f"{user}:{password}\n")
        os.chmod(cred, 0o600)
    return BrokerFolder(root, port, config, root / f"{HALL_USER}.cred")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """A mosquitto process on a folder made by `write_config`: start, stop, restart."""

    def __init__(self, folder: BrokerFolder) -> None:
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None
        self.binary = find_tool("mosquitto")

    def start(self, timeout_s: float = 10.0) -> None:
        log = open(self.folder.folder / "mosquitto.log", "ab")  # noqa: SIM115 (the child's)
        self.proc = subprocess.Popen(
            [self.binary, "-c", str(self.folder.config)], stdout=log, stderr=log
        )
        log.close()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise BrokerError(f"mosquitto exited at start: {self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.folder.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerError(f"mosquitto did not listen within {timeout_s} s: {self.log_tail()}")

    def stop(self, timeout_s: float = 10.0) -> None:
        """A clean stop (SIGTERM: the broker saves its sessions and queued messages)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout_s)

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def log_tail(self) -> str:
        try:
            text = (self.folder.folder / "mosquitto.log").read_text(errors="replace")
        except OSError:
            return "(no log)"
        return " | ".join(text.strip().splitlines()[-3:]) or "(empty log)"
