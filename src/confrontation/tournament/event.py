"""A tournament file (TOML, docs/tournaments.md): the event's format and its players.

The format is the points limit every list is checked against (I-D), the scenario of each
round (its number of rounds) and the ruleset; each player names his army list (a file,
relative to the tournament file, or a bundled army id) and the agent that plays for him when
the program plays his games (``tournament play``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from confrontation.agents.spec import AgentSpecError, parse_agent_spec
from confrontation.armylists.load import (
    LoadError,
    bundled_army_files,
    find_line,
    load_army,
    parse_model,
    read_toml,
)
from confrontation.armylists.validate import Report, Violation, validate
from confrontation.engine.core.ruleset import known_rulesets
from confrontation.scenarios.base import resolve
from confrontation.sim.game import DEFAULT_RULES

MAX_PLAYERS = 256
"""The most players an event takes (a guard against absurd files)."""
MAX_ROUNDS = 20


class _Player(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str = Field(min_length=1, max_length=100)
    list: str = Field(min_length=1, max_length=1000)
    agent: str = Field(default="greedy", min_length=1, max_length=200)


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str = Field(min_length=1, max_length=200)
    points: int = Field(ge=1, le=100_000)
    scenarios: list[str] = Field(min_length=1, max_length=MAX_ROUNDS)
    rules: str = DEFAULT_RULES
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    bye_vp: int = Field(default=1, ge=0, le=100)
    players: list[_Player] = Field(min_length=2, max_length=MAX_PLAYERS)


@dataclass(frozen=True)
class Player:
    """A registered player: his name, his list (a path or a bundled army id) and the agent
    that plays his games when the program plays them."""

    name: str
    army: str
    agent: str = "greedy"


@dataclass(frozen=True)
class Format:
    """The event's format: points limit (I-D), one scenario per round, the ruleset; the VP a
    bye counts as won by (against 0, scored on the XX-A-4 table)."""

    points: int
    scenarios: tuple[str, ...]
    rules: str = DEFAULT_RULES
    bye_vp: int = 1

    @property
    def rounds(self) -> int:
        return len(self.scenarios)


@dataclass(frozen=True)
class Event:
    """A tournament as its file describes it."""

    name: str
    format: Format
    players: tuple[Player, ...]
    seed: int = 0


def _bundled_ids() -> dict[str, Path]:
    return {path.stem: path for path in bundled_army_files()}


def army_path(army: str, base: Path | None = None) -> Path:
    """The file of an army: a bundled army id, else a path (relative to ``base``)."""
    bundled = _bundled_ids()
    if army in bundled:
        return bundled[army]
    path = Path(army)
    if base is not None and not path.is_absolute():
        path = base / path
    return path


def load_event(path: Path) -> Event:
    """Read a tournament file; a bad one is a one-line :class:`LoadError` naming the line and
    the key. Lists are resolved against the file's folder (not read: :func:`check_lists`)."""
    path = Path(path)
    text, data = read_toml(path)
    spec = parse_model(_File, path, text, data)
    if spec.rules not in known_rulesets():
        raise LoadError(
            path,
            f"no rules named {spec.rules!r} (choose from: {', '.join(known_rulesets())})",
            line=find_line(text, ["rules"]),
            key="rules",
        )
    scenarios = []
    for index, name in enumerate(spec.scenarios):
        scenarios.append(_scenario(path, text, index, name))
    seen: set[str] = set()
    players = []
    for index, entry in enumerate(spec.players):
        key = entry.name.strip().casefold()
        if not key or key in seen:
            what = "is blank" if not key else "appears twice"
            raise LoadError(
                path,
                f"the player name {entry.name!r} {what}",
                line=find_line(text, ["players", index, "name"]),
                key=f"players[{index + 1}].name",
            )
        seen.add(key)
        try:
            agent, _ = parse_agent_spec(entry.agent)
        except AgentSpecError as error:
            agent, problem = "", str(error)
        else:
            problem = "a person plays his own games" if agent.lower() == "human" else ""
        if problem:
            raise LoadError(
                path,
                f"agent: {problem}",
                line=find_line(text, ["players", index, "agent"]),
                key=f"players[{index + 1}].agent",
            )
        bundled = entry.list in _bundled_ids()
        army = entry.list if bundled else str(army_path(entry.list, path.parent))
        players.append(Player(entry.name.strip(), army, entry.agent))
    form = Format(spec.points, tuple(scenarios), spec.rules, spec.bye_vp)
    return Event(spec.name, form, tuple(players), spec.seed)


def _scenario(path: Path, text: str, index: int, name: str) -> str:
    """A round's scenario, checked: a bundled id stays one, a file is made absolute (relative
    to the tournament file)."""
    base, colon, variation = name.partition(":")
    if base.endswith(".toml") and not Path(base).is_absolute():
        name = str(path.parent / base) + colon + variation
    try:
        resolve(name)
    except LoadError as error:
        message = error.message if str(error.file) == "--scenario" else str(error)
        raise LoadError(
            path,
            f"round {index + 1}: {message}",
            line=find_line(text, ["scenarios"]),
            key=f"scenarios[{index + 1}]",
        ) from None
    except (OSError, ValueError) as error:
        raise LoadError(
            path,
            f"round {index + 1}: cannot read the scenario {name!r} ({error})",
            line=find_line(text, ["scenarios"]),
            key=f"scenarios[{index + 1}]",
        ) from None
    return name


@dataclass(frozen=True)
class ListCheck:
    """One player's list against the event's format: the report (None: unreadable) or the
    reason it could not be read."""

    player: Player
    report: Report | None
    error: str = ""

    @property
    def valid(self) -> bool:
        return self.report is not None and self.report.valid


def check_list(player: Player, form: Format) -> ListCheck:
    """Validate ``player``'s list (I-D) against the event's points limit, whatever points the
    file itself declares."""
    try:
        army = load_army(army_path(player.army))
    except LoadError as error:
        return ListCheck(player, None, str(error))
    except OSError as error:  # a directory, a device…
        return ListCheck(player, None, f"{player.army}: cannot read ({error.strerror})")
    declared = army.points
    report = validate(dataclasses.replace(army, points=form.points))
    if declared != form.points:
        report.notes.insert(
            0,
            Violation(
                "I-D", f"the file declares {declared} AP; checked against the event's {form.points}"
            ),
        )
    return ListCheck(player, report)


def check_lists(event: Event) -> list[ListCheck]:
    """Every player's list against the event's format (one report for all)."""
    return [check_list(player, event.format) for player in event.players]
