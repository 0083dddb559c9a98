"""The page in a real browser (Debian's headless Chromium, driven through chromedriver),
against `bgcompanion run` on its embedded demo, as a newcomer would start it.

The demo game advances on the page; a reroll shows; the PIN guards the controls; a
double and a take change the cube on the page and on the emulated cube unit. And on a
film with a die out of the picture, a roll inferred with others possible shows them.
Screenshots of these states are saved in test-artifacts/ (or $BG_ARTIFACTS).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
PIN = "2468"
ARTIFACTS = Path(os.environ.get("BG_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def served(*args: str) -> Iterator[str]:
    """`bgcompanion run` with `args` (none: the embedded demo), its page's address."""
    port = free_port()
    command = [sys.executable, "-m", "companion.cli", "run", "--port", str(port), "--pin", PIN]
    proc = subprocess.Popen(
        [*command, "--seconds", "600", "--quiet", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    header = [proc.stdout.readline() for _ in range(2)]
    if f"http://127.0.0.1:{port}/" not in header[0] or PIN not in header[1]:
        proc.kill()
        out, _ = proc.communicate(timeout=20)
        pytest.fail(f"the companion did not start: {header} {out}")
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
        assert "Traceback" not in out, out


@pytest.fixture(scope="module")
def demo() -> Iterator[str]:
    with served() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    for path in (CHROMIUM, CHROMEDRIVER):
        assert Path(path).exists(), (
            f"{path} missing: `make test` installs chromium and chromium-driver"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(what: Callable[[], Any], timeout: float, step: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = what()
        except WebDriverException:
            value = None
        if value:
            return value
        time.sleep(step)
    return None


def text_of(driver: webdriver.Chrome, element_id: str) -> str:
    """An element's text; the page redraws parts of itself on every update, so a found
    element may be replaced before it is read: read it again then."""
    for _ in range(50):
        try:
            return str(driver.find_element(By.ID, element_id).text)
        except WebDriverException:
            time.sleep(0.02)
    raise AssertionError(f"#{element_id} could not be read")


def page_state(driver: webdriver.Chrome) -> dict[str, Any]:
    state: dict[str, Any] = driver.execute_script("return fetch('api/state').then(r => r.json())")
    return state


def test_the_demo_game_advances_and_a_reroll_shows(demo: str, browser: webdriver.Chrome) -> None:
    browser.get(demo)
    assert wait_for(lambda: browser.execute_script("return window.bgFirstRender"), 5)
    assert browser.find_elements(By.CSS_SELECTOR, "#board polygon.point")  # the SVG board
    first = int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-version") or 0)
    # a reroll is called, in big letters, with its reason
    reroll = wait_for(
        lambda: "reroll" in (browser.find_element(By.ID, "verdict").get_attribute("class") or ""),
        150,
    )
    assert reroll, "no reroll shown in 150 s of the demo"
    assert wait_for(lambda: "REROLL" in text_of(browser, "verdict"), 2)
    browser.save_screenshot(str(ARTIFACTS / "reroll.png"))
    # the game advanced: plays are on the page, the board changed, live (no reload)
    assert wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#history li")) >= 2, 60), (
        "no play recorded"
    )
    body = browser.find_element(By.TAG_NAME, "body")
    assert int(body.get_attribute("data-version") or 0) > first
    assert browser.find_elements(By.CSS_SELECTOR, "#checkers circle.checker.white")
    assert "camera" in text_of(browser, "health")
    assert wait_for(
        lambda: browser.execute_script(
            "const i = document.getElementById('camera'); return i.complete && i.naturalWidth"
        ),
        5,
    ), "no camera view"
    browser.save_screenshot(str(ARTIFACTS / "playing.png"))
    # on a phone: one column, nothing wider than the screen, the verdict before the lists
    browser.set_window_size(390, 844)
    time.sleep(0.5)
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1"
    )
    board = browser.find_element(By.ID, "board").rect
    assert board["width"] <= 390 and board["width"] > 300
    browser.save_screenshot(str(ARTIFACTS / "phone.png"))
    browser.set_window_size(1400, 1100)


def test_the_pin_guards_the_controls(demo: str, browser: webdriver.Chrome) -> None:
    browser.get(demo)
    assert not browser.find_element(By.ID, "controls").is_displayed()
    status = browser.execute_script(
        "return fetch('api/action', {method: 'POST', headers: {'Content-Type': "
        "'application/json', 'X-CSRF-Token': document.querySelector('meta[name=csrf-token]')"
        ".content}, body: JSON.stringify({type: 'resign', level: 1})}).then(r => r.status)"
    )
    assert status == 401
    browser.find_element(By.ID, "pin").send_keys("0000")
    browser.find_element(By.CSS_SELECTOR, "#login-form button").click()
    assert wait_for(lambda: "wrong PIN" in text_of(browser, "message"), 5)
    assert not browser.find_element(By.ID, "controls").is_displayed()
    browser.save_screenshot(str(ARTIFACTS / "watching.png"))
    browser.find_element(By.ID, "pin").clear()
    browser.find_element(By.ID, "pin").send_keys(PIN)
    browser.find_element(By.CSS_SELECTOR, "#login-form button").click()
    assert wait_for(lambda: browser.find_element(By.ID, "controls").is_displayed(), 5)


def test_a_double_and_take_change_the_cube_on_the_page_and_the_unit(
    demo: str, browser: webdriver.Chrome
) -> None:
    # logged in by the test before (the same browser session)
    assert browser.find_element(By.ID, "controls").is_displayed()
    double = browser.find_element(By.CSS_SELECTOR, "button[data-action=double]")
    offered = None
    for _ in range(40):  # the demo rolls soon after each play: catch a turn before it
        if not wait_for(lambda: double.is_enabled(), 30, step=0.02):
            break
        double.click()
        offered = wait_for(lambda: page_state(browser)["match"]["cube"]["offered"], 1.0)
        if offered:
            break
    assert offered, "could not double in the demo"
    state = page_state(browser)
    taker = state["match"]["acting"]
    assert wait_for(lambda: "doubles to 2" in text_of(browser, "cube"), 5)
    browser.save_screenshot(str(ARTIFACTS / "double-offered.png"))
    time.sleep(1.0)  # the film waits while the cube is decided
    assert page_state(browser)["match"]["cube"]["offered"]
    browser.find_element(By.CSS_SELECTOR, "button[data-action=take]").click()
    assert wait_for(lambda: text_of(browser, "cube-value") == "2", 5)
    owner = text_of(browser, "cube-owner")
    assert taker in owner.lower() or state["names"][taker] in owner, owner
    score = state["match"]["score"]
    expected = f"{score['white']:>2}{2:>4}{score['black']:>2}"
    # (while the double was offered the unit blinked the same 2, with the offer LED lit)
    unit = wait_for(
        lambda: (
            (u := page_state(browser)["unit"])
            and u["display"] == expected
            and f"owner_{taker}" in u["leds"]
            and "offer" not in u["leds"]
            and u
        ),
        5,
    )
    assert unit, f"the emulated unit does not show {expected!r}: {page_state(browser)['unit']}"
    browser.save_screenshot(str(ARTIFACTS / "cube-taken.png"))
    # the demo goes on after the take
    version = page_state(browser)["version"]
    assert wait_for(lambda: page_state(browser)["version"] > version + 2, 20)


def test_a_roll_inferred_with_others_possible_is_shown_to_be_checked(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    """A film whose turn 3 has a die out of the picture: black's play 6/5 6/3 is 3-1 or 1-1.
    The page's log shows the roll recorded, inferred, and the other to check."""
    film = tmp_path / "film"
    args = ["--seed", "39", "--max-turns", "4", "--hide-die", "3", "--size", "1280x720"]
    made = subprocess.run(
        [sys.executable, "-m", "companion.cli", "film-game", str(film), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    video, cal = str(film / "game.avi"), str(film / "game.cal.json")
    with served("--video", video, "--calibration", cal) as url:
        browser.get(url)

        def flagged() -> str | None:
            lines = text_of(browser, "log").splitlines()
            return next((line for line in lines if "(or " in line), None)

        line = wait_for(flagged, 90)
    assert line is not None
    assert "roll 3-1" in line and "(inferred)" in line and "(or 1-1: check it)" in line
    browser.save_screenshot(str(ARTIFACTS / "inferred-roll.png"))
