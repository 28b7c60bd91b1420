"""Plain records the store takes and gives: a game's set-up, its outcome, a saved game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from confrontation.engine.core.events import Event

RUNNING = "running"
FINISHED = "finished"
INTERRUPTED = "interrupted"
STATUSES = (RUNNING, FINISHED, INTERRUPTED)


@dataclass(frozen=True)
class ArmyCopy:
    """An army as it was played: its name, the file it came from and that file's text."""

    name: str
    file: str | None = None
    source: str | None = None

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name, "file": self.file, "source": self.source}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ArmyCopy:
        return cls(str(data["name"]), data.get("file"), data.get("source"))


@dataclass(frozen=True)
class GameSetup:
    """What the store keeps of a game's configuration: ``agents`` and ``armies`` per player,
    Player 1 first (two to six players, XX-F).

    ``options`` is whatever else (JSON-able) the game runner needs to continue the game
    after an interruption: round limit, agent options, scenario file text...
    """

    scenario: str
    seed: int
    agents: tuple[str, ...]
    armies: tuple[ArmyCopy, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` the winning player (0-based) or None (a draw), per player
    VP and losses (AP), Player 1 first; for a game of victory conditions or bonuses also the
    tournament points (``tp``, XX-A-4) and goal-averages (``ga``, XX-A-5), kept in the store
    too (None in games stored before them)."""

    winner: int | None
    vp: tuple[int, ...]
    losses: tuple[int, ...]
    rounds: int
    tp: tuple[int, ...] | None = None
    ga: tuple[int, ...] | None = None


@dataclass(frozen=True)
class GameSummary:
    """One line of ``games list``."""

    id: int
    created: datetime
    updated: datetime
    scenario: str
    seed: int
    agents: tuple[str, ...]
    armies: tuple[str, ...]
    status: str
    outcome: Outcome | None
    events: int


@dataclass(frozen=True)
class StoredGame:
    """A saved game: its summary, set-up and record (the events, in order)."""

    summary: GameSummary
    setup: GameSetup
    events: list[Event]

    @property
    def id(self) -> int:
        return self.summary.id

    @property
    def status(self) -> str:
        return self.summary.status
