"""The web tests' fixtures: for the browser tests (``-m browser``), the server and the page
(``browser_support``; imported only when a test asks for them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

VIEWPORT = {"width": 1400, "height": 900}
"""A browser page's size; a test module sets its own ``VIEWPORT`` (and ``ACCEPT_DOWNLOADS``)
to change the page it is given."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The web server on a free local port, its games in a temporary store."""
    from browser_support import live_server

    with live_server(tmp_path / "games.db") as base:
        yield base


@pytest.fixture
def page(request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page of Debian's Chromium (failing the test if it is missing)."""
    from browser_support import CHROMIUM, browser_page

    if not CHROMIUM.exists():
        pytest.fail("Debian's Chromium is missing: `make test-browser` installs it")
    viewport = getattr(request.module, "VIEWPORT", VIEWPORT)
    downloads = getattr(request.module, "ACCEPT_DOWNLOADS", False)
    options = {"accept_downloads": True} if downloads else {}
    with browser_page(viewport, **options) as opened:
        yield opened
