"""The game record: the event log as JSON lines, and its replay.

One event per line (:func:`write_log`, :func:`read_log`). The first line is
:class:`~.events.GameStarted` with the initial state; the players' answers
(:class:`~.events.ChoiceMade`) and the dice (:class:`~.events.DieRolled`) are the inputs.
:func:`replay` feeds those inputs to ``step`` again — no random generator — and checks
that the engine tells the same story as the log. The initial state names the game's rules
(``state.rules``): reading and replaying a record loads them, so a record replays in a fresh
process with nothing imported by hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import IO

from confrontation.engine.core.events import (
    ChoiceMade,
    DieRolled,
    Event,
    GameStarted,
    event_from_data,
    event_to_data,
)
from confrontation.engine.core.questions import DieFace
from confrontation.engine.core.registry import EngineError
from confrontation.engine.core.ruleset import load, rules_named
from confrontation.engine.core.state import GameState
from confrontation.engine.step import start, step


class ReplayMismatch(EngineError):
    """Replaying a log produced different events than the log holds."""


def event_line(event: Event) -> str:
    """One event as one line of JSON (no newline)."""
    return json.dumps(event_to_data(event), separators=(",", ":"), ensure_ascii=False)


def write_log(events: Iterable[Event], out: IO[str]) -> None:
    """Write events as JSON lines."""
    for event in events:
        out.write(event_line(event))
        out.write("\n")


def read_log(lines: Iterable[str]) -> list[Event]:
    """Read events from JSON lines (blank lines are skipped); a bad line names its number.

    The rules the first event (``game_started``) names are loaded before it is decoded:
    their modules define the records of their plug-ins (a scenario's, its events)."""
    events: list[Event] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not events and data.get("kind") == GameStarted.kind:
                load(rules_named(data["state"]))
            event = event_from_data(data)
        except (ValueError, TypeError, KeyError, AttributeError, EngineError) as error:
            raise ValueError(f"game record line {number}: {error}") from None
        events.append(event)
    return events


def replay(log: Sequence[Event], check: bool = True) -> GameState:
    """The state at the end of ``log``, rebuilt from its initial state and inputs.

    With ``check`` every event the engine produces must equal the log's, in order.
    """
    if not log or not isinstance(log[0], GameStarted):
        raise EngineError("a game record starts with a game_started event")
    state, produced = start(log[0].state)
    for event in log[1:]:
        if isinstance(event, ChoiceMade):
            state, happened = step(state, event.choice)
            produced.extend(happened)
        elif isinstance(event, DieRolled):
            state, happened = step(state, DieFace(event.face))
            produced.extend(happened)
    if check and list(log) != produced:
        at = next(
            (i for i, (a, b) in enumerate(zip(log, produced, strict=False)) if a != b),
            min(len(log), len(produced)),
        )
        got = produced[at] if at < len(produced) else "nothing"
        wanted = log[at] if at < len(log) else "nothing"
        raise ReplayMismatch(f"event {at + 1}: the log has {wanted!r}, the replay {got!r}")
    return state
