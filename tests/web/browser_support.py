"""The browser tests' shared pieces (tests/conftest.py makes the fixtures of them): the web
server on a free local port, Debian's Chromium driven by Playwright, and waiting for a game
page to settle."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Page, sync_playwright

from confrontation.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).parents[2] / "docs" / "web"
"""Where the screenshots of the main screens go."""


@contextlib.contextmanager
def live_server(store: Path) -> Iterator[str]:
    """The web server on a free local port, its games in the store ``store``: its base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        create_app(str(store)), host="127.0.0.1", port=port, log_level="warning"
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


@contextlib.contextmanager
def browser_page(viewport: dict[str, int], **context: Any) -> Iterator[Page]:
    """A page of a headless Chromium of ``viewport``'s size (``context``: more of the
    browser context's options, e.g. ``accept_downloads``)."""
    if not CHROMIUM.exists():
        raise RuntimeError("Debian's Chromium is missing: `make test-browser` installs it")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser.new_context(viewport=viewport, **context).new_page()  # type: ignore[arg-type]
        browser.close()


def turn(page: Page) -> int:
    """The game page's turn (answers given so far)."""
    return int(page.locator("#game").get_attribute("data-turn") or 0)


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
