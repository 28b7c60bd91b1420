"""A batch's checkpoint (``simulate --checkpoint FILE``): every finished game's result kept in
a file as it ends, so that an interrupted sweep (Ctrl-C, a closed terminal, a crash) goes on
where it stopped when the same command is run again.

The file is JSON lines. The first is the header: ``{"checkpoint": 1, "batch": KEY, "games":
N, "seed": S}``, where KEY (:func:`batch_key`) is the SHA-256 of everything that decides the
batch's games: each game's spec (index, seed, scenario, armies, agents and their options,
seats, rounds, rules), the armies' and scenario's contents as loaded (an army file edited
between two runs is another batch) and the engine's version. Then one line a finished game:
``{"index": I, "winner": W, "vp": [...], "losses": [...], "rounds": R, "tp": [...] | null,
"ga": [...] | null}`` (:class:`~confrontation.store.records.Outcome`, Player 1 first). Games
are played from their own seeds, so the games a second run plays are those the first would
have played: the figures are those of an uninterrupted batch.

A last line cut short (the process killed while writing it) is dropped and its game played
again; any other bad line, or the header of another batch, is a :class:`CheckpointError`
naming the file, the line and the field.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from confrontation import __version__
from confrontation.store.records import Outcome

FORMAT = 1
"""The checkpoint format written (the header's ``checkpoint``)."""


M = TypeVar("M", bound=BaseModel)


class CheckpointError(Exception):
    """A checkpoint file that cannot be used (one line: the file, the line, what is wrong)."""


class _Header(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    checkpoint: Literal[1]
    batch: str
    games: int
    seed: int


class _Game(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    index: int
    winner: int | None
    vp: list[int]
    losses: list[int]
    rounds: int
    tp: list[int] | None = None
    ga: list[int] | None = None


def batch_key(specs: Sequence[Any], contents: Sequence[str]) -> str:
    """The SHA-256 (hex) of the batch's game specs (``GameSpec``: their fields but
    ``keep_events``, which does not change a game), ``contents`` (the armies and scenario as
    loaded, in a fixed order) and the engine's version."""
    digest = hashlib.sha256(f"confrontation {__version__}\n".encode())
    for spec in specs:
        fields = {
            "index": spec.index,
            "seed": spec.seed,
            "scenario": spec.scenario,
            "armies": list(spec.armies),
            "agents": list(spec.agents),
            "seats": list(spec.seats),
            "rounds": spec.rounds,
            "agent_options": [dict(o) for o in spec.agent_options],
            "rules": spec.rules,
        }
        digest.update(json.dumps(fields, sort_keys=True, default=repr).encode())
        digest.update(b"\n")
    for text in contents:
        digest.update(hashlib.sha256(text.encode()).digest())
    return digest.hexdigest()


def batch_contents(specs: Sequence[Any], default_armies: Sequence[str]) -> list[str]:
    """The files that decide the batch's games besides its specs, as text for
    :func:`batch_key`: each army's list (a bundled one's too) and the profile libraries it
    names, and a scenario given as a file, in the order the specs first name them. A file
    that cannot be read counts by its name (the batch's own checks reject it first)."""
    from confrontation.armylists.load import LoadError, army_path

    texts: list[str] = []
    seen: set[str] = set()
    for spec in specs:
        names = [a or default_armies[p] for p, a in enumerate(spec.armies)]
        for name in names:
            if name in seen:
                continue
            seen.add(name)
            texts.append(f"army {name}")
            try:
                path = army_path(name)
                data = path.read_bytes()
                texts.append(data.decode("utf-8", "replace"))
                libraries = tomllib.loads(data.decode("utf-8")).get("profiles", [])
                for library in libraries if isinstance(libraries, list) else []:
                    texts.append((path.parent / str(library)).read_text("utf-8", "replace"))
            except (OSError, ValueError, LoadError) as error:
                texts.append(f"unreadable: {type(error).__name__}")
        scenario = spec.scenario
        if scenario is not None and scenario not in seen:
            seen.add(scenario)
            texts.append(f"scenario {scenario}")
            file = Path(scenario.partition(":")[0])
            try:
                if file.is_file():
                    texts.append(file.read_text("utf-8", "replace"))
            except (OSError, ValueError):
                texts.append("unreadable")
    return texts


def _where(path: Path, line: int) -> str:
    return f"{path}: line {line}"


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "the line"
    return f"{field}: {first['msg']}"


R = TypeVar("R")


@dataclass
class Checkpoint(Generic[R]):
    """The results a checkpoint file holds for one batch (``done``: game index → its result)
    and where its good lines end (``end``, in bytes: a line cut short after it is dropped)."""

    path: Path
    key: str
    games: int
    seed: int
    done: dict[int, R]
    end: int
    new: bool


def read_checkpoint(
    path: Path, key: str, games: int, players: int, seed: int
) -> Checkpoint[Outcome]:
    """The checkpoint of the batch ``key`` (``games`` games of ``players`` players) in
    ``path``: empty when the file does not exist or is empty; a :class:`CheckpointError`
    when it is another batch's or a line is bad."""
    return _read(
        path, key, games, seed, lambda where, value: _outcome(where, value, games, players)
    )


def _read(
    path: Path, key: str, games: int, seed: int, parse: Callable[[str, object], tuple[int, R]]
) -> Checkpoint[R]:
    """The lines of ``path`` read as :func:`read_checkpoint` says, each game's by ``parse``
    (its place in the file, for errors, and the JSON value → its index and result)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Checkpoint(path, key, games, seed, {}, 0, True)
    except IsADirectoryError:
        raise CheckpointError(f"{path}: a folder, not a checkpoint file") from None
    except OSError as error:
        raise CheckpointError(f"{path}: cannot be read ({error.strerror or error})") from None
    if not data.strip():
        return Checkpoint(path, key, games, seed, {}, 0, True)
    lines = data.split(b"\n")
    # a last line without its newline was cut short while written: dropped, played again
    complete = lines[:-1]
    done: dict[int, R] = {}
    end = 0
    for number, raw in enumerate(complete, start=1):
        end += len(raw) + 1
        if number > 1 and not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            what = "not a checkpoint of confrontation simulate" if number == 1 else "not JSON"
            raise CheckpointError(f"{_where(path, number)}: {what}") from None
        if number == 1:
            _check_header(path, value, key, games, seed)
            continue
        index, result = parse(_where(path, number), value)
        if done.get(index, result) != result:
            raise CheckpointError(
                f"{_where(path, number)}: index: game {index} is already in the file "
                "with another result"
            )
        done[index] = result
    if not complete:  # the header itself was cut short
        return Checkpoint(path, key, games, seed, {}, 0, True)
    return Checkpoint(path, key, games, seed, done, end, False)


def _check_header(path: Path, value: object, key: str, games: int, seed: int) -> None:
    if not isinstance(value, dict) or "checkpoint" not in value:
        raise CheckpointError(f"{_where(path, 1)}: not a checkpoint of confrontation simulate")
    try:
        header = _Header.model_validate(value)
    except ValidationError as error:
        raise CheckpointError(f"{_where(path, 1)}: {_problem(error)}") from None
    if header.batch != key:
        raise CheckpointError(
            f"{path}: the checkpoint of another batch (seed {header.seed}, {header.games} games; "
            "its games, armies, agents, options or engine differ): give another file or "
            "delete this one"
        )


def _validated(model: type[M], where: str, value: object) -> M:
    try:
        return model.model_validate(value)
    except ValidationError as error:
        raise CheckpointError(f"{where}: {_problem(error)}") from None


def _check_game(where: str, index: int, winner: int | None, games: int, players: int) -> None:
    if not 0 <= index < games:
        raise CheckpointError(f"{where}: index: {index} is not a game of this batch")
    if winner is not None and not 0 <= winner < players:
        raise CheckpointError(f"{where}: winner: {winner} is not a player of the game")


def _check_counts(where: str, game: BaseModel, names: Sequence[str], players: int) -> None:
    for name in names:
        values = getattr(game, name)
        if values is not None and len(values) != players:
            raise CheckpointError(f"{where}: {name}: {len(values)} values for {players} players")


def _outcome(where: str, value: object, games: int, players: int) -> tuple[int, Outcome]:
    game = _validated(_Game, where, value)
    _check_game(where, game.index, game.winner, games, players)
    _check_counts(where, game, ("vp", "losses", "tp", "ga"), players)
    if game.rounds < 1:
        raise CheckpointError(f"{where}: rounds: {game.rounds} (a game lasts one round or more)")
    return game.index, Outcome(
        game.winner,
        tuple(game.vp),
        tuple(game.losses),
        game.rounds,
        tp=tuple(game.tp) if game.tp is not None else None,
        ga=tuple(game.ga) if game.ga is not None else None,
    )


# --- C4 (``simulate --rules c4 --checkpoint``) ---------------------------------------------------


@dataclass(frozen=True)
class C4Game:
    """What ``simulate --rules c4`` counts of one game (players in the game's order): the
    winner (None: a draw), each player's fighters left and VP/CP, how a scenario game ended
    and its points' unit ("VP", "CP"; None and "" without a scenario)."""

    winner: int | None
    left: tuple[int, ...]
    scores: tuple[int, ...]
    ending: str | None = None
    unit: str = ""


class _C4Line(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    index: int
    winner: int | None
    left: list[int]
    scores: list[int]
    ending: str | None = None
    unit: Literal["", "VP", "CP"] = ""


def _c4_game(where: str, value: object, games: int) -> tuple[int, C4Game]:
    game = _validated(_C4Line, where, value)
    _check_game(where, game.index, game.winner, games, 2)
    _check_counts(where, game, ("left", "scores"), 2)
    if min(game.left) < 0:
        raise CheckpointError(f"{where}: left: {min(game.left)} fighters left")
    return game.index, C4Game(
        game.winner, tuple(game.left), tuple(game.scores), game.ending, game.unit
    )


def read_c4_checkpoint(path: Path, key: str, games: int, seed: int) -> Checkpoint[C4Game]:
    """:func:`read_checkpoint` for a batch of C4 games (two players)."""
    return _read(path, key, games, seed, lambda where, value: _c4_game(where, value, games))


def c4_batch_key(fields: dict[str, Any], files: Sequence[str]) -> str:
    """The key of a C4 batch: its settings (``fields``: companies, agents, seed, mode,
    rounds, scenario, games), the companies and scenario given as files, as they are now, and
    the engine's version."""
    digest = hashlib.sha256(f"confrontation {__version__} c4\n".encode())
    digest.update(json.dumps(fields, sort_keys=True, default=repr).encode())
    for name in files:
        digest.update(f"\n{name}\n".encode())
        try:
            file = Path(name.partition(":")[0])
            if file.is_file():
                digest.update(hashlib.sha256(file.read_bytes()).digest())
        except (OSError, ValueError):
            digest.update(b"unreadable")
    return digest.hexdigest()


class CheckpointWriter:
    """Appends each finished game's line to the checkpoint (flushed at once), after writing
    the header to a new file or dropping a last line cut short from an old one; ``done``:
    the games the file held (an earlier run's, not played again)."""

    def __init__(self, checkpoint: Checkpoint[Any]) -> None:
        self.path = checkpoint.path
        self.games = checkpoint.games
        self.done = dict(checkpoint.done)
        try:
            if checkpoint.new:
                self._file: IO[str] = checkpoint.path.open("w", encoding="utf-8")
                header = {
                    "checkpoint": FORMAT,
                    "batch": checkpoint.key,
                    "games": checkpoint.games,
                    "seed": checkpoint.seed,
                }
                self._write(header)
            else:
                with checkpoint.path.open("r+b") as old:
                    old.truncate(checkpoint.end)
                self._file = checkpoint.path.open("a", encoding="utf-8")
        except OSError as error:
            raise CheckpointError(self.cannot_write(error)) from None
        self.kept = len(checkpoint.done)

    def cannot_write(self, error: OSError) -> str:
        """The line of a checkpoint that cannot be written (a full disk, a folder...)."""
        return f"{self.path}: cannot be written ({error.strerror or error})"

    def interrupted(self) -> str:
        """The line of a batch stopped before its end: the games the file keeps."""
        return (
            f"interrupted: {self.kept} of the {self.games} games are kept in {self.path}; "
            "the same command plays the others"
        )

    def _write(self, value: dict[str, Any]) -> None:
        self._file.write(json.dumps(value, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, index: int, outcome: Outcome) -> None:
        """Keep game ``index``'s result."""
        self._write(
            {
                "index": index,
                "winner": outcome.winner,
                "vp": list(outcome.vp),
                "losses": list(outcome.losses),
                "rounds": outcome.rounds,
                "tp": list(outcome.tp) if outcome.tp is not None else None,
                "ga": list(outcome.ga) if outcome.ga is not None else None,
            }
        )
        self.kept += 1

    def add_c4(self, index: int, game: C4Game) -> None:
        """Keep C4 game ``index``'s counts."""
        self._write(
            {
                "index": index,
                "winner": game.winner,
                "left": list(game.left),
                "scores": list(game.scores),
                "ending": game.ending,
                "unit": game.unit,
            }
        )
        self.kept += 1

    def close(self) -> None:
        self._file.close()
