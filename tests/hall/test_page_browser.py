"""The hall page in Debian's headless Chromium: the grid drawn from the state, the tables
that need a person at the top, a live update arriving, the director's PIN showing the
acknowledge buttons. A screenshot lands in test-artifacts/hall.png."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from companion.hall.broker import free_port
from companion.hall.hall import Hall
from companion.hall.web import create_hall_app, make_hall_server
from companion.hall.wire import event_message, state_message, topic

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
ARTIFACTS = Path(os.environ.get("BG_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))
PIN = "2468"


def state(hall: Hall, table: str, **fields: Any) -> None:
    doc = {
        "match": 1,
        "at": time.time(),
        "names": {"white": f"Ann {table}", "black": f"Bob {table}"},
        "score": {"white": 1, "black": 2},
        "length": 7,
        "cube": {"value": 2, "owner": "black", "offered": False},
        "health": {"cube_missing": False},
        "call": None,
        "fix": None,
        "phase": "roll",
        "turn": "white",
        "page": f"http://10.0.0.{table}:8000/",
        **fields,
    }
    hall.receive(topic(table, "state"), state_message(table, doc))


@pytest.fixture
def hall_page() -> Iterator[tuple[Hall, str]]:
    hall = Hall()
    for t in range(1, 9):
        state(hall, str(t))
    state(hall, "3", call={"type": "reroll", "reasons": ["cocked"]})
    state(hall, "7", health={"cube_missing": True})
    at = "2026-11-25T04:00:00.000Z"
    created = {"type": "match_created", "rules": {"white": "Cy", "black": "Di"}}
    over = {"type": "match_over", "winner": "black", "score": {"white": 4, "black": 7}}
    hall.receive(topic("8", "event"), event_message("8", 1, 0, "match_created", created, at))
    hall.receive(topic("8", "event"), event_message("8", 1, 1, "match_over", over, at))
    hall.receive("bgcompanion/table/5/junk", b"{}")
    port = free_port()
    server = make_hall_server("127.0.0.1", port, create_hall_app(hall, PIN))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield hall, f"http://127.0.0.1:{port}/"
    hall.stop.set()
    server.shutdown()


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    for path in (CHROMIUM, CHROMEDRIVER):
        assert Path(path).exists(), f"{path} missing: `make test` installs chromium"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def until(check: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the page did not change in time"
        time.sleep(0.1)


def test_the_hall_page_shows_the_tables_and_updates_live(
    hall_page: tuple[Hall, str], browser: webdriver.Chrome
) -> None:
    hall, url = hall_page
    browser.get(url)
    attention = browser.find_element(By.ID, "attention")
    until(lambda: len(attention.find_elements(By.CLASS_NAME, "card")) == 2)
    assert "reroll: cocked" in attention.text and "cube unit missing" in attention.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#tables .card")) == 6
    assert "Di" in browser.find_element(By.ID, "results").text  # table 8's winner
    assert "messages dropped: 1" in browser.find_element(By.ID, "dropped").text
    link = browser.find_element(By.LINK_TEXT, "Table 1")
    assert link.get_attribute("href") == "http://10.0.0.1:8000/"
    state(hall, "2", fix={"type": "needs_fix", "why": "the board is unreadable"})
    until(lambda: "needs a fix" in attention.text)
    assert browser.find_elements(By.CSS_SELECTOR, "#attention button") == []  # no PIN yet
    browser.find_element(By.ID, "pin").send_keys(PIN)
    browser.find_element(By.CSS_SELECTOR, "#login button").click()
    until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#attention button")) == 3)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "hall.png"))
    browser.find_elements(By.CSS_SELECTOR, "#attention button")[0].click()
    until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#attention .card")) == 2)
