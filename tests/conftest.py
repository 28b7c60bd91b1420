"""Shared test configuration (and the browser tests' server and page, tests/web)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from playwright.sync_api import Page

# `make test` and CI run the same examples every time (a red CI run can be replayed exactly);
# HYPOTHESIS_PROFILE=explore draws new examples, as a developer hunting for bugs wants.
settings.register_profile("default", deadline=None, max_examples=100, derandomize=True)
settings.register_profile("explore", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _temporary_game_store(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game a test plays is stored in a temporary database, never the user's."""
    monkeypatch.setenv("CONFRONTATION_DB", str(tmp_path_factory.mktemp("store") / "games.db"))


VIEWPORT = {"width": 1400, "height": 900}
"""A browser page's size; a test module sets its own ``VIEWPORT`` (and ``ACCEPT_DOWNLOADS``)
to change the page it is given."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The web server on a free local port, its games in a temporary store (the browser tests,
    tests/web: ``browser_support``, imported only when a test asks for it)."""
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
