"""Rebuilding a stored game from its record: the state at the end of each round, the final
state, and agents brought back to where the record stops (to continue an interrupted game).

Both walk the record with the engine's ``step`` exactly as
:func:`~confrontation.engine.record.replay` does, and check that the engine tells the same
story as the record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from confrontation.engine.core.events import (
    ChoiceMade,
    DieRolled,
    Event,
    GameEnded,
    GameStarted,
    RoundStarted,
)
from confrontation.engine.core.questions import DieFace
from confrontation.engine.core.registry import EngineError
from confrontation.engine.core.state import GameState
from confrontation.engine.core.views import redact
from confrontation.engine.record import ReplayMismatch
from confrontation.engine.step import Agent, question, start, step
from confrontation.scenarios.picture import table_svg
from confrontation.store.records import Outcome


class ResumeMismatch(EngineError):
    """An agent, asked again a question of the record, did not give the recorded answer."""


@dataclass(frozen=True)
class Snapshot:
    """The battlefield at the end of a round (``round`` 0: after the deployment)."""

    round: int
    state: GameState


def _first_difference(log: Sequence[Event], produced: Sequence[Event]) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(log, produced, strict=False)) if a != b),
        min(len(log), len(produced)),
    )
    got = produced[at] if at < len(produced) else "nothing"
    wanted = log[at] if at < len(log) else "nothing"
    return f"event {at + 1}: the record has {wanted!r}, the replay {got!r}"


def _check_prefix(log: Sequence[Event], produced: Sequence[Event]) -> None:
    """The record must be the start of what the engine produced (all of it once complete)."""
    if list(produced[: len(log)]) != list(log):
        raise ReplayMismatch(_first_difference(log, produced))


def _initial(log: Sequence[Event]) -> GameState:
    if not log or not isinstance(log[0], GameStarted):
        raise EngineError("a game record starts with a game_started event")
    return log[0].state


def replay_rounds(log: Sequence[Event]) -> tuple[GameState, list[Snapshot]]:
    """The final state of ``log`` and a snapshot at the end of every round played.

    A round's end is drawn when the next round begins (the maintenance phase moves nobody)
    or when the game ends; round 0 is the table after the deployment. Every event the engine
    produces must match the record (a record cut inside a step is accepted as a prefix).
    """
    state, produced = start(_initial(log))
    snapshots: list[Snapshot] = []

    def look(events: Sequence[Event], after: GameState) -> None:
        for event in events:
            if isinstance(event, RoundStarted):
                snapshots.append(Snapshot(event.round - 1, after))
            elif isinstance(event, GameEnded):
                snapshots.append(Snapshot(after.round, after))

    look(produced, state)
    for event in log[1:]:
        if isinstance(event, ChoiceMade):
            state, happened = step(state, event.choice)
        elif isinstance(event, DieRolled):
            state, happened = step(state, DieFace(event.face))
        else:
            continue
        produced.extend(happened)
        look(happened, state)
    _check_prefix(log, produced)
    return state, snapshots


def catch_up(
    log: Sequence[Event], agents: Mapping[int, Agent] | Sequence[Agent]
) -> tuple[GameState, list[Event]]:
    """The state where ``log`` stops, with every agent asked again each question it answered
    in the record, so that its own dice stream (a random or search agent's roller) stands
    where it stood: continuing with ``engine.step.run`` then plays the game an uninterrupted
    run would have played. Agents are deterministic, so each must give its recorded answer;
    a person at the terminal (the human agent) is not asked again.

    Returns the state and the events of the record's whole steps (the record, plus the end
    of a step the record was cut inside).
    """
    state, produced = start(_initial(log))
    for number, event in enumerate(log[1:], start=2):
        if isinstance(event, ChoiceMade):
            asked = question(state)
            if asked is None or asked.player != event.player:
                raise ResumeMismatch(f"event {number}: the record's answer was not asked for")
            agent = agents[asked.player]
            if not _asks_a_person(agent):
                choice = agent.choose(redact(state, asked.player), asked, asked.choices)
                if choice != event.choice:
                    raise ResumeMismatch(
                        f"event {number}: player {asked.player + 1}'s agent now answers "
                        f"{choice!r}, the record has {event.choice!r}"
                    )
            state, happened = step(state, event.choice)
        elif isinstance(event, DieRolled):
            state, happened = step(state, DieFace(event.face))
        else:
            continue
        produced.extend(happened)
    _check_prefix(log, produced)
    return state, produced


def _asks_a_person(agent: Agent) -> bool:
    """A person at the terminal is not asked the record's questions again (the human agent,
    or any agent marked ``interactive = True``)."""
    from confrontation.agents.human import HumanAgent

    return isinstance(agent, HumanAgent) or bool(getattr(agent, "interactive", False))


def battlefield_svg(state: GameState) -> str | None:
    """The table of ``state`` as SVG (None for a game without a table or scenery yet): the
    scenario's picture, :func:`confrontation.scenarios.picture.table_svg`."""
    return table_svg(state)


def outcome_problem(outcome: Outcome, final: GameState) -> str | None:
    """What of a stored result disagrees with the state its record replays to (one phrase),
    or None: the rounds, every player's losses (AP) and, when stored, tournament points
    (XX-A-4) and goal-average (XX-A-5). (Winner and VP: ``store.database.record_problem``.)"""
    from confrontation.scenarios.results import standings

    rows = standings(final)
    found: dict[str, tuple[object, object]] = {
        "rounds": (outcome.rounds, final.round),
        "losses": (outcome.losses, tuple(row.losses for row in rows)),
    }
    if outcome.tp is not None:
        found["tournament points"] = (outcome.tp, tuple(row.tp for row in rows))
    if outcome.ga is not None:
        found["goal-average"] = (outcome.ga, tuple(row.goal_average for row in rows))
    for name, (stored, replayed) in found.items():
        if stored != replayed:
            return f"the row's {name} {stored} are not the replayed game's {replayed}"
    return None
