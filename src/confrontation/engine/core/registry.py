"""The engine's extension points: question handlers and phase drivers.

- A **handler** answers for one kind of pending question: the legal choices, how a choice
  changes the state, and how the question reads to a person.
- A **phase driver** moves the game on while nothing is pending: it either sets the next
  pending question or die, or moves to another phase.

A game's rules (:class:`~.ruleset.Ruleset`) hold its handlers and drivers; phases, actions
and plug-ins contribute theirs to a ruleset (``contribute(rules)``), nothing is global.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from confrontation.engine.core.events import Event
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState

Transition = tuple[GameState, list[Event]]
"""A new state and the events that led to it."""


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

    ``kind`` is a :class:`~.kinds.QuestionKind` for the built-in rules; a plug-in may use a
    string of its own (the ruleset's table is keyed by the string either way).
    """

    kind: str
    legal: Callable[[GameState], Sequence[Choice]]
    apply: Callable[[GameState, Choice], Transition]
    describe: Callable[[GameState, Sequence[Choice]], Question]
    subject: Callable[[GameState], int | None] | None = None
    free: Callable[[GameState, Choice], str | None] | None = None


PhaseDriver = Callable[[GameState], Transition]
