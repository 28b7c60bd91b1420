"""Shared test configuration."""

import os

import pytest
from hypothesis import settings

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
