"""Seams through which rules above the engine follow the fighters' moves and the game's events
(the scenarios' tokens, XX-D): entries of the rules value's extension tables
(``rules.extension(table, name, hook)``), read here so that the phases need not know who
fills them. Every table may stay empty: the engine then behaves as if it did not exist.

- :data:`MOVE_END` — ``hook(state, fighter, how) -> (state, events)`` when a fighter ends a
  move: ``how`` is the movement action (walk, run, cover, charge, engage) or ``"pursuit"``
  (VII-C-6). A hook may set a question (``state.pending``); its handler then carries the game on
  (an action under way: ``engine.actions.shared.finish`` again; a pursuit: nothing, the combat
  phase resumes). Called once more after the answer, a hook finds nothing left to do.
- :data:`MOVE_SPOT` — ``check(state, fighter, base) -> str | None``: why ``fighter`` may not
  end a walk, run, move under cover or free pursuit move with his base at ``base`` (None: he
  may). Contact placements of assaults are the geometry's (V-B-3) and are not checked.
- :data:`MOVE_GOALS` — ``goals(state, fighter) -> [(label, x, y)]``: points of the table a
  walk, run, move under cover or pursuit may end with the centre of the base on (the
  candidate destinations are a finite list: these are added to it, first).
- :data:`REACTION` — ``react(state, events) -> (state, events)`` after every answer, die
  and phase driver, given the events they produced: to follow what happened at once (a
  carrier killed or routed drops his tokens, XX-D-3). A reaction never sets a question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from confrontation.engine.core.events import Event
from confrontation.engine.core.registry import Transition
from confrontation.engine.core.ruleset import Ruleset, rules_of
from confrontation.engine.core.state import GameState

if TYPE_CHECKING:
    from confrontation.geometry.bases import Base

MOVE_END = "move-end"
MOVE_SPOT = "move-spot"
MOVE_GOALS = "move-goals"
REACTION = "reaction"

MoveEnd = Callable[[GameState, str, str], Transition]
MoveSpot = Callable[[GameState, str, "Base"], str | None]
MoveGoals = Callable[[GameState, str], Sequence[tuple[str, float, float]]]
Reaction = Callable[[GameState, Sequence[Event]], Transition]


def move_ended(state: GameState, fighter: str, how: str) -> Transition:
    """Run the :data:`MOVE_END` hooks for ``fighter``, stopping at the first question."""
    hooks = rules_of(state).extensions.get(MOVE_END)
    events: list[Event] = []
    if not hooks:
        return state, events
    for hook in hooks.values():
        state, happened = hook(state, fighter, how)
        events.extend(happened)
        if state.pending is not None:
            break
    return state, events


def spot_refusal(state: GameState, fighter: str, base: Base) -> str | None:
    """Why the :data:`MOVE_SPOT` checks refuse ``base`` as the end of ``fighter``'s move."""
    checks = rules_of(state).extensions.get(MOVE_SPOT)
    if not checks:
        return None
    for check in checks.values():
        refused: str | None = check(state, fighter, base)
        if refused is not None:
            return refused
    return None


def has_spot_checks(state: GameState) -> bool:
    """Some :data:`MOVE_SPOT` check is registered."""
    return bool(rules_of(state).extensions.get(MOVE_SPOT))


def move_goals(state: GameState, fighter: str) -> list[tuple[str, float, float]]:
    """The :data:`MOVE_GOALS` points for ``fighter``, in the order the hooks give them."""
    hooks = rules_of(state).extensions.get(MOVE_GOALS)
    if not hooks:
        return []
    return [goal for hook in hooks.values() for goal in hook(state, fighter)]


def reactions(rules: Ruleset) -> tuple[Reaction, ...]:
    """The :data:`REACTION` hooks of ``rules`` (``step`` looks them up once per call)."""
    hooks = rules.extensions.get(REACTION)
    return tuple(hooks.values()) if hooks else ()


def react(
    state: GameState, events: Sequence[Event], hooks: Sequence[Reaction] | None = None
) -> Transition:
    """Run the :data:`REACTION` hooks (``hooks``: the state's rules', when at hand) on
    ``events`` (a state's new events)."""
    out: list[Event] = []
    for hook in reactions(rules_of(state)) if hooks is None else hooks:
        state, happened = hook(state, events)
        out.extend(happened)
    return state, out
