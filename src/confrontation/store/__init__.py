"""Saved games: every game played, kept in SQL (SQLite by default) with its whole record."""

from confrontation.store.database import (
    ENV_VAR,
    Store,
    StoreError,
    as_url,
    data_dir,
    default_url,
    open_store,
)
from confrontation.store.records import (
    FINISHED,
    INTERRUPTED,
    RUNNING,
    ArmyCopy,
    GameSetup,
    GameSummary,
    Outcome,
    StoredGame,
)

__all__ = [
    "ENV_VAR",
    "FINISHED",
    "INTERRUPTED",
    "RUNNING",
    "ArmyCopy",
    "GameSetup",
    "GameSummary",
    "Outcome",
    "Store",
    "StoreError",
    "StoredGame",
    "as_url",
    "data_dir",
    "default_url",
    "open_store",
]
