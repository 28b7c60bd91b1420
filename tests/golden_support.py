"""Golden playthroughs: seeded whole games recorded as files (tests/golden/).

:func:`games` reads the manifest ``tests/golden/games.toml``; :func:`play` plays one of its
games with the engine as it is; :func:`recorded` reads the stored record; :func:`divergence`
says where two event logs part (the first differing event), so that a change that alters a
golden game can say how.
"""

from __future__ import annotations

import gzip
import io
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from confrontation.agents.spec import parse_agent_spec
from confrontation.engine.events import Event
from confrontation.engine.record import event_line, read_log, write_log
from confrontation.sim.game import GameConfig, play_game

GOLDEN = Path(__file__).parent / "golden"
MANIFEST = GOLDEN / "games.toml"


@dataclass(frozen=True)
class GoldenGame:
    """One entry of the manifest."""

    name: str
    config: GameConfig

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.jsonl.gz"


def games() -> list[GoldenGame]:
    """The golden games of the manifest, in its order."""
    with MANIFEST.open("rb") as stream:
        data = tomllib.load(stream)
    result = []
    for row in data["game"]:
        specs = [parse_agent_spec(text) for text in row["agents"]]
        config = GameConfig(
            scenario=row["scenario"],
            armies=(row["armies"][0], row["armies"][1]),
            agents=(specs[0][0], specs[1][0]),
            agent_options=(dict(specs[0][1]), dict(specs[1][1])),
            seed=int(row["seed"]),
            rounds=row.get("rounds"),
        )
        result.append(GoldenGame(row["name"], config))
    return result


def play(game: GoldenGame) -> list[Event]:
    """The game's event log, played now."""
    return list(play_game(game.config).events)


def recorded(game: GoldenGame) -> list[Event]:
    """The stored event log."""
    with gzip.open(game.path, "rt", encoding="utf-8") as stream:
        return read_log(stream)


def write(game: GoldenGame, events: Sequence[Event]) -> None:
    """Store ``events`` as the game's record (gzip with a fixed mtime: same log, same bytes)."""
    text = io.StringIO()
    write_log(events, text)
    with game.path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(text.getvalue().encode("utf-8"))


def divergence(old: Sequence[Event], new: Sequence[Event]) -> str | None:
    """Where ``new`` parts from ``old``: ``None`` when they are equal."""
    for index, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return f"event {index + 1}: was {event_line(a)[:300]}\n  now {event_line(b)[:300]}"
    if len(old) != len(new):
        return f"the logs have {len(old)} and {len(new)} events (equal up to the shorter)"
    return None
