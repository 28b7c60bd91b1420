"""The door a game offers its players, and the one loop that plays a game through it.

A game — Confédé's (``engine.step``) or C4's (``c4.step``) — is played the same way: start
it, then while it is not over either roll the pending die or ask the pending player's agent
(who sees only his view of the state) and step with his answer. :class:`Door` names the
functions a game gives that loop; :func:`run` and :func:`play` are the loop. Each game keeps
its own ``run`` (a :class:`Door` of its functions passed here), so its callers do not change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from confrontation.dice import Roller
from confrontation.engine.core.collector import fewer_collections
from confrontation.engine.core.events import Event
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.registry import EngineError

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)


class Waiting(Protocol):
    """What a game waits for: ``player`` None is a die."""

    @property
    def player(self) -> int | None: ...


class HasPending(Protocol):
    """A state that says what it waits for (both games' states do)."""

    @property
    def pending(self) -> Waiting | None: ...


def pending_of(state: HasPending) -> Waiting | None:
    """``state.pending``: the :attr:`Door.pending` of a state that has one."""
    return state.pending


class Player(Protocol[S_contra]):
    """Anything that answers a game's questions from its view of the state."""

    def choose(self, state: S_contra, question: Question, legal: Sequence[Choice]) -> Choice: ...


@dataclass(frozen=True)
class Door(Generic[S]):
    """The functions of one game that :func:`run` plays it with."""

    is_over: Callable[[S], bool]
    pending: Callable[[S], Waiting | None]
    """What the state waits for (None: nothing — not started, or over)."""
    start: Callable[[S], tuple[S, list[Event]]]
    ask: Callable[[S, object], tuple[Question, Sequence[Choice]]]
    """The pending question and its choices as ``agent`` (the second argument) reads them."""
    view: Callable[[S, int], S]
    """The state as a player knows it (his secrets only)."""
    step: Callable[[S, Choice], tuple[S, list[Event]]]
    roll: Callable[[S, Roller], tuple[S, list[Event]]]
    game_roller: Callable[[S], Roller]
    """The game's own die stream, resumed where the state left it."""


def play(
    door: Door[S],
    state: S,
    agents: Mapping[int, Player[S]] | Sequence[Player[S]],
    dice: Roller,
    *,
    max_steps: int | None = None,
    until: Callable[[S], bool] | None = None,
    events: list[Event] | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> S:
    """Play a started game on until it is over, ``max_steps`` answers and dice have passed,
    or ``until(state)`` holds: agents answer from their player's view, ``dice`` rolls. What
    happens is added to ``events`` and shown to ``on_event``."""
    steps = 0
    with fewer_collections():  # a game's many short-lived objects: collector.py
        while not door.is_over(state) and (max_steps is None or steps < max_steps):
            if until is not None and until(state):
                break
            pending = door.pending(state)
            if pending is None:
                raise EngineError("the game is neither over nor waiting for anything")
            if pending.player is None:
                state, happened = door.roll(state, dice)
            else:
                agent = agents[pending.player]
                asked, choices = door.ask(state, agent)
                choice = agent.choose(door.view(state, pending.player), asked, choices)
                state, happened = door.step(state, choice)
            if on_event is not None:
                for event in happened:
                    on_event(event)
            if events is not None:
                events.extend(happened)
            steps += 1
    return state


def run(
    door: Door[S],
    state: S,
    agents: Mapping[int, Player[S]] | Sequence[Player[S]],
    roller: Roller | None = None,
    max_steps: int | None = None,
) -> tuple[S, list[Event]]:
    """Start the game if it has not started, then :func:`play` it on (or ``max_steps``);
    without a ``roller`` the game's seeded stream is used. The state and every event."""
    events: list[Event] = []
    if door.pending(state) is None and not door.is_over(state):
        state, started = door.start(state)
        events.extend(started)
    dice = roller if roller is not None else door.game_roller(state)
    state = play(door, state, agents, dice, max_steps=max_steps, events=events)
    return state, events
