"""The table in a real browser: Playwright drives Debian's Chromium (``make test-browser``;
deselected from ``make test``). A game against the AI is started from the page, deployed by
clicking the table, played on by clicks to its end with a reload in the middle; a hot-seat
game and a seat link that sees only its own player's question. Screenshots of the main
screens go to docs/web/."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Page, sync_playwright

from confrontation.web.app import create_app

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).parents[2] / "docs" / "web"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The web server on a free local port, its games in a temporary store."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        create_app(str(tmp_path / "games.db")), host="127.0.0.1", port=port, log_level="warning"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def page() -> Iterator[Page]:
    if not CHROMIUM.exists():
        pytest.fail("Debian's Chromium is missing: `make test-browser` installs it")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        yield context.new_page()
        browser.close()


def settled(page: Page, after: int | None = None) -> str:
    """Wait until the page waits for this seat's answer or the game is over (and, with
    ``after``, the turn has moved past it): the status."""
    page.wait_for_function(
        """after => {
            const game = document.getElementById('game');
            const status = game.dataset.status;
            const moved = after === null || Number(game.dataset.turn) > after;
            return moved && (status === 'your-turn' || status === 'over');
        }""",
        arg=after,
        timeout=120_000,
    )
    return str(page.locator("#game").get_attribute("data-status"))


def turn(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-turn") or 0)


def click_the_table(page: Page) -> None:
    """Click the board a little off one of the marked places: the nearest is taken."""
    spot = page.locator("#board .spot").nth(1).bounding_box()
    assert spot is not None
    page.mouse.click(spot["x"] + spot["width"] / 2 + 2, spot["y"] + spot["height"] / 2 + 1)


def answer(page: Page) -> None:
    """Answer the question on the page: a place by clicking the table, else the first
    option's button."""
    before = turn(page)
    if page.locator("#board .spot").count():
        click_the_table(page)
    else:
        page.locator("#question .option").first.click()
    settled(page, after=before)


def test_a_game_against_the_ai_by_clicks(server: str, page: Page) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    page.select_option("#seat1", "person")
    page.select_option("#seat2", "greedy")
    page.fill("#seed", "3")
    page.fill("#rounds", "2")
    page.screenshot(path=SHOTS / "start.png", full_page=True)
    page.click("#start")
    page.wait_for_url("**/games/*?seat=*")
    settled(page)

    deployed = reloaded = hovered = False
    answers = 0
    while page.locator("#game").get_attribute("data-status") != "over":
        prompt = page.locator("#prompt").inner_text()
        if "where do you deploy" in prompt and not deployed:
            page.screenshot(path=SHOTS / "deployment.png", full_page=True)
            on_table = page.locator("#board g.fighter").count()
            answer(page)
            assert page.locator("#board g.fighter").count() > on_table  # he stands there
            deployed = True
            continue
        if deployed and not hovered and "Round 1" in page.locator("#status").inner_text():
            page.locator("#board g.fighter").first.hover()
            page.wait_for_selector("#card:not([hidden])")
            assert "MOV" in page.locator("#card").inner_text()
            page.screenshot(path=SHOTS / "game.png", full_page=True)
            hovered = True
        if answers == 40 and not reloaded:
            before = (turn(page), prompt)
            page.reload()
            settled(page)
            assert (turn(page), page.locator("#prompt").inner_text()) == before
            reloaded = True
        answer(page)
        answers += 1
    assert deployed and reloaded and hovered
    assert "The game is over" in page.locator("#status").inner_text()
    assert page.locator("#log li").count() > 50
    page.screenshot(path=SHOTS / "over.png", full_page=True)


def test_hot_seat_and_a_seat_link_that_sees_only_its_own(server: str, page: Page) -> None:
    page.goto(server + "/")
    page.select_option("#seat1", "person")
    page.select_option("#seat2", "person")
    page.click("#start")
    page.wait_for_selector("#hotseat")
    links = page.locator(".seat-link")
    second_link = server + str(links.nth(1).get_attribute("href"))
    page.click("#hotseat")
    settled(page)
    for _ in range(40):  # both players answer on one screen, till both sequences are set
        if page.locator(".player .sequence").count() == 2:
            break
        answer(page)
    assert page.locator(".player .sequence").count() == 2  # the hot-seat page sees both
    asked = page.locator("#prompt").inner_text()
    player = 1 if asked.startswith("Player 1") else 2
    other = page.context.new_page()
    other.goto(second_link)
    other.wait_for_selector("#question p, #question h3")
    if player == 1:  # Player 2's page shows no options for Player 1's question
        assert other.locator("#question .option").count() == 0
        assert "Player 1 (person) is to answer" in other.locator("#question").inner_text()
    else:
        assert other.locator("#prompt").inner_text() == asked
    assert other.locator(".player.yours").count() == 1
    assert other.locator(".player.p1 .sequence").count() == 1  # his own sequence
    assert other.locator(".player.p0 .sequence").count() == 0  # not Player 1's
