"""The engine's extension points: question handlers and phase drivers.

- A **handler** answers for one kind of pending question: the legal choices, how a choice
  changes the state, and how the question reads to a person. Phases, actions and
  plug-ins register theirs with :func:`register_handler`.
- A **phase driver** moves the game on while nothing is pending: it either sets the next
  pending question or die, or moves to another phase. :func:`register_phase` replaces one
  (the combat phase of chapter VII plugs in this way).

Registration happens at import time; tests that add temporary entries use the
:class:`Registration` returned, as a context manager, to remove them again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from confrontation.engine.events import Event
from confrontation.engine.questions import Choice, Question
from confrontation.engine.state import GameState, Phase

Transition = tuple[GameState, list[Event]]
"""A new state and the events that led to it."""

K = TypeVar("K")
V = TypeVar("V")


class EngineError(RuntimeError):
    """The engine was asked to do something the rules or its own state forbid."""


class IllegalChoice(EngineError):
    """``step`` was given a choice that ``legal`` does not list."""


@dataclass(frozen=True)
class Handler:
    """Everything the engine needs to ask one kind of question.

    ``legal(state)`` lists the choices; ``apply(state, choice)`` returns the new state and
    its events (the pending question is already cleared; ``apply`` may set the next one);
    ``describe(state, choices)`` builds the :class:`Question` people see;
    ``subject(state)`` names the player a die is rolled for (chance steps only).

    ``free(state, choice)``, when set, judges an answer ``legal`` does not list: None
    accepts it, a sentence says why not. It serves questions whose answers are continuous,
    where ``legal`` lists a finite set of sensible answers for agents and a person may give
    any other valid one (a facing of any angle after a walk or a run, V-B-1/V-B-2); the
    question says so in :attr:`~.questions.Question.free`. Player questions only, never dice.
    """

    kind: str
    legal: Callable[[GameState], list[Choice]]
    apply: Callable[[GameState, Choice], Transition]
    describe: Callable[[GameState, Sequence[Choice]], Question]
    subject: Callable[[GameState], int | None] | None = None
    free: Callable[[GameState, Choice], str | None] | None = None


GENERATION = [0]
"""Bumped by every registration and undo: caches of legal choices (``state.scratch``) are
valid for one generation of the registries only."""


class Registration(Generic[K, V]):
    """A registry entry; ``with register_...(...):`` removes it again on exit."""

    def __init__(self, table: dict[K, V], key: K, previous: V | None) -> None:
        self._table = table
        self._key = key
        self._previous = previous
        GENERATION[0] += 1

    def undo(self) -> None:
        """Restore what the key held before this registration."""
        GENERATION[0] += 1
        if self._previous is None:
            self._table.pop(self._key, None)
        else:
            self._table[self._key] = self._previous

    def __enter__(self) -> Registration[K, V]:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.undo()


HANDLERS: dict[str, Handler] = {}
PhaseDriver = Callable[[GameState], Transition]
DRIVERS: dict[Phase, PhaseDriver] = {}


def register_handler(handler: Handler) -> Registration[str, Handler]:
    """Make ``handler`` answer for questions of its ``kind``."""
    previous = HANDLERS.get(handler.kind)
    HANDLERS[handler.kind] = handler
    return Registration(HANDLERS, handler.kind, previous)


def register_phase(phase: Phase, driver: PhaseDriver) -> Registration[Phase, PhaseDriver]:
    """Make ``driver`` run ``phase`` (replacing the current driver)."""
    previous = DRIVERS.get(phase)
    DRIVERS[phase] = driver
    return Registration(DRIVERS, phase, previous)


def handler_for(kind: str) -> Handler:
    """The handler of a pending question's kind."""
    try:
        return HANDLERS[kind]
    except KeyError:
        raise EngineError(f"no handler is registered for questions of kind {kind!r}") from None
