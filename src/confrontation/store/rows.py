"""Reading a ``games`` row defensively: a store edited by hand (or by another program) may
hold anything in any column, and one bad row must be told in one line without taking the
others down (``games list``, ``games show``, ``play --resume``).

The row is selected with its dates and JSON columns as plain text (:func:`raw_columns`), so
no database driver parses them and fails for the whole query; :func:`parse_row` checks each
value and gives the summary and set-up, or a :class:`BadRow` naming the column.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, String, Text, type_coerce

from confrontation.store.records import (
    FINISHED,
    STATUSES,
    ArmyCopy,
    GameSetup,
    GameSummary,
    Outcome,
)
from confrontation.store.schema import GameRow

MAX_PLAYERS = 6  # XX-F: two to six players
BIGGEST = 2**63 - 1


class BadRow(ValueError):
    """A column of a ``games`` row holds what no game wrote: ``str()`` names it."""


def raw_columns() -> list[ColumnElement[Any]]:
    """Every column of ``games``, dates and JSON as text (parsed by :func:`parse_row`)."""
    table = GameRow.__table__
    columns: list[ColumnElement[Any]] = []
    for column in table.columns:
        kind = type(column.type).__name__
        if kind == "DateTime":
            columns.append(type_coerce(column, String).label(column.name))
        elif kind == "JSON":
            columns.append(type_coerce(column, Text).label(column.name))
        else:
            columns.append(column)
    return columns


def _json(row: Mapping[Any, Any], name: str) -> Any:
    value = row[name]
    if isinstance(value, str | bytes):
        try:
            return json.loads(value)
        except ValueError:
            raise BadRow(f"{name}: not JSON") from None
    return value  # a driver that parses JSON itself (PostgreSQL)


def _date(row: Mapping[Any, Any], name: str) -> datetime:
    value = row[name]
    if isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        raise BadRow(f"{name}: not a date ({str(value)[:40]!r})") from None


def _whole(value: Any, name: str, low: int = 0, high: int = BIGGEST) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRow(f"{name}: expected a whole number from {low} to {high}")
    return value


def _numbers(
    value: Any, name: str, players: int, *, low: int = -BIGGEST, optional: bool = False
) -> tuple[int, ...] | None:
    if value is None and optional:
        return None
    if not isinstance(value, list) or len(value) != players:
        raise BadRow(f"{name}: expected a list of {players} whole numbers (one per player)")
    return tuple(_whole(item, name, low) for item in value)


def parse_row(row: Mapping[Any, Any]) -> tuple[GameSummary, GameSetup]:
    """The summary and set-up of a ``games`` row read with :func:`raw_columns`; a
    :class:`BadRow` naming the first column that holds what no game wrote."""
    game_id = _whole(row["id"], "id", 1)
    status = row["status"]
    if status not in STATUSES:
        raise BadRow(f"status: {str(status)[:40]!r} is not one of {', '.join(STATUSES)}")
    scenario = row["scenario"]
    if not isinstance(scenario, str) or not scenario:
        raise BadRow("scenario: expected a name")
    seed = _whole(row["seed"], "seed")
    agents = _json(row, "agents")
    if (
        not isinstance(agents, list)
        or not 2 <= len(agents) <= MAX_PLAYERS
        or not all(isinstance(a, str) and a for a in agents)
    ):
        raise BadRow(f"agents: expected 2 to {MAX_PLAYERS} agent names")
    players = len(agents)
    armies = _json(row, "armies")
    if not isinstance(armies, list) or len(armies) != players:
        raise BadRow(f"armies: expected one army per player ({players})")
    for army in armies:
        if not isinstance(army, dict) or not isinstance(army.get("name"), str):
            raise BadRow("armies: expected tables with a 'name'")
        for key in ("file", "source"):
            if army.get(key) is not None and not isinstance(army[key], str):
                raise BadRow(f"armies: '{key}' must be text")
    options = _json(row, "options")
    if options is not None and not isinstance(options, dict):
        raise BadRow("options: expected a table")
    events = _whole(row["events_count"], "events_count")
    outcome = None
    vp, losses = _json(row, "vp"), _json(row, "losses")
    if status == FINISHED:
        if vp is None or losses is None:
            raise BadRow("vp, losses: a finished game has its result")
        winner = row["winner"]
        if winner is not None:
            _whole(winner, "winner", 0, players - 1)
        scores = _numbers(vp, "vp", players)
        lost = _numbers(losses, "losses", players, low=0)
        assert scores is not None and lost is not None
        outcome = Outcome(
            winner,
            scores,
            lost,
            _whole(row["rounds"] if row["rounds"] is not None else 0, "rounds"),
            tp=_numbers(_json(row, "tp"), "tp", players, optional=True),
            ga=_numbers(_json(row, "ga"), "ga", players, optional=True),
        )
    summary = GameSummary(
        id=game_id,
        created=_date(row, "created"),
        updated=_date(row, "updated"),
        scenario=scenario,
        seed=seed,
        agents=tuple(agents),
        armies=tuple(str(army["name"]) for army in armies),
        status=status,
        outcome=outcome,
        events=events,
    )
    setup = GameSetup(
        scenario=scenario,
        seed=seed,
        agents=tuple(agents),
        armies=tuple(ArmyCopy.from_data(army) for army in armies),
        options=dict(options or {}),
    )
    return summary, setup
