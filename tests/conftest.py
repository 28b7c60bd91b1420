"""Shared test configuration."""

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None, max_examples=100)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _temporary_game_store(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game a test plays is stored in a temporary database, never the user's."""
    monkeypatch.setenv("CONFRONTATION_DB", str(tmp_path_factory.mktemp("store") / "games.db"))
