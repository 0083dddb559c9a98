"""A real Mosquitto for the hall's tests: a generated config (password file made with
mosquitto_passwd, an ACL per table) on a free port, started and stopped per test.

A machine without mosquitto fails these tests with a message saying so (the project's
install puts it there: scripts/install-system.sh); it never skips them quietly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.hall.broker import BrokerError, BrokerFolder, Mosquitto, free_port, write_config
from companion.hall.wire import Broker, Credentials, load_credentials

TABLES = ["1", "2", "3", "12"]


@pytest.fixture
def broker_folder(tmp_path: Path) -> BrokerFolder:
    try:
        return write_config(tmp_path / "broker", TABLES, port=free_port(), host="127.0.0.1")
    except BrokerError as e:
        pytest.fail(f"the hall's tests need Mosquitto: {e}")


@pytest.fixture
def mosquitto(broker_folder: BrokerFolder) -> Iterator[Mosquitto]:
    try:
        m = Mosquitto(broker_folder)
        m.start()
    except BrokerError as e:
        pytest.fail(f"the hall's tests need Mosquitto: {e}")
    yield m
    m.stop()


@pytest.fixture
def address(broker_folder: BrokerFolder) -> Broker:
    return Broker("127.0.0.1", broker_folder.port)


def credentials(folder: BrokerFolder, table: str | None) -> Credentials:
    """A table's credentials (None: the hall's)."""
    path = folder.hall_credentials if table is None else folder.table_credentials(table)
    found = load_credentials(path, {})
    assert found is not None
    return found


def wait_for(
    check: Callable[[], bool], timeout: float, what: str, detail: Callable[[], str] | None = None
) -> None:
    """Every wait in these tests is bounded: a failure says what did not happen (and
    `detail`, what there was instead)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"not within {timeout} s: {what}" + (f" ({detail()})" if detail else "")
            )
        time.sleep(0.02)
