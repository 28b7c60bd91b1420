"""Golden playthroughs: seeded whole games recorded as files (tests/golden/).

Each game is kept three ways: its event log (``<name>.jsonl.gz``), the log narrated in plain
English (``<name>.narration.txt.gz``) and the final result as ``play --json`` prints it
(``<name>.result.json``). :func:`games` reads the manifest ``tests/golden/games.toml``;
:func:`play` plays one of its games with the engine as it is; :func:`recorded` reads the
stored record; :func:`divergence` says where two event logs part (the first differing event),
so that a change that alters a golden game can say how.
"""

from __future__ import annotations

import gzip
import io
import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from confrontation.agents.spec import parse_agent_spec
from confrontation.engine.core.events import Event
from confrontation.engine.core.narrate import narrate
from confrontation.engine.record import event_line, read_log, write_log
from confrontation.sim.game import GameConfig, GameResult, play_game, result_document

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

    @property
    def narration_path(self) -> Path:
        return GOLDEN / f"{self.name}.narration.txt.gz"

    @property
    def result_path(self) -> Path:
        return GOLDEN / f"{self.name}.result.json"


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


def play(game: GoldenGame) -> GameResult:
    """The game, played now."""
    return play_game(game.config)


def narration(events: Sequence[Event]) -> str:
    """The log in plain English, one sentence a line."""
    return "".join(f"{line}\n" for line in narrate(events))


def result_text(result: GameResult) -> str:
    """The final result as ``confrontation play --json`` prints it."""
    return json.dumps(result_document(result), indent=2, ensure_ascii=False) + "\n"


def recorded(game: GoldenGame) -> list[Event]:
    """The stored event log."""
    with gzip.open(game.path, "rt", encoding="utf-8") as stream:
        return read_log(stream)


def recorded_narration(game: GoldenGame) -> str:
    with gzip.open(game.narration_path, "rt", encoding="utf-8") as stream:
        return stream.read()


def recorded_result(game: GoldenGame) -> str:
    return game.result_path.read_text(encoding="utf-8")


def _write_gzip(path: Path, text: str) -> None:
    """Gzip with a fixed mtime: the same text gives the same bytes."""
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(text.encode("utf-8"))


def write(game: GoldenGame, result: GameResult) -> None:
    """Store the game's record, narration and result."""
    text = io.StringIO()
    write_log(result.events, text)
    _write_gzip(game.path, text.getvalue())
    _write_gzip(game.narration_path, narration(result.events))
    game.result_path.write_text(result_text(result), encoding="utf-8")


def text_divergence(old: str, new: str) -> str | None:
    """The first line where two texts differ, or None."""
    a, b = old.splitlines(), new.splitlines()
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"line {index + 1}: was {x[:200]!r}, now {y[:200]!r}"
    if len(a) != len(b):
        return f"{len(a)} and {len(b)} lines (equal up to the shorter)"
    return None


def divergence(old: Sequence[Event], new: Sequence[Event]) -> str | None:
    """Where ``new`` parts from ``old``: ``None`` when they are equal."""
    for index, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return f"event {index + 1}: was {event_line(a)[:300]}\n  now {event_line(b)[:300]}"
    if len(old) != len(new):
        return f"the logs have {len(old)} and {len(new)} events (equal up to the shorter)"
    return None
