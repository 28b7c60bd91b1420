"""How a game ends: the last round's scoring, or an immediate victory (III-A-2, XX-A-4).

Two extension points of a ruleset (``confrontation.scenarios`` contributes its own):

- a **scoring hook**, ``hook(state) -> (state, events)``, runs when the game ends (after
  the last round, or at once after an immediate victory): it may set ``state.scores`` and
  ``state.winner`` and tell what it scored (``ObjectiveScored``…);
- a **watch**, ``watch(state, events) -> (reason, winner) | None``, looks at every step's
  new events: a result ends the game at once (Execution: "declared the winner immediately").

:func:`finish` ends a game: scoring hooks, then :class:`~.events.GameEnded` with the scores
and the winner. Without hooks the scores stay as they are and there is no winner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from confrontation.engine.events import Event, GameEnded
from confrontation.engine.frozen import evolve
from confrontation.engine.registry import Transition
from confrontation.engine.ruleset import rules_of
from confrontation.engine.state import GameState, Phase

ScoringHook = Callable[[GameState], Transition]
Watch = Callable[[GameState, Sequence[Event]], tuple[str, int | None] | None]


def finish(state: GameState, reason: str, winner: int | None = None) -> Transition:
    """End the game: the scoring hooks, then ``GameEnded`` (``winner`` unless a hook set one)."""
    state = evolve(state, phase=Phase.OVER, pending=None, winner=winner)
    events: list[Event] = []
    for hook in rules_of(state).scoring.values():
        state, scored = hook(state)
        events.extend(scored)
    events.append(GameEnded(reason, state.scores, state.winner))
    return state, events


def watched(
    state: GameState, events: Sequence[Event], watches: Mapping[str, Watch] | None = None
) -> Transition | None:
    """The game's end if a watch sees an immediate victory in ``events``, else None
    (``watches``: the state's rules' watches, when the caller has them at hand)."""
    for watch in (rules_of(state).watches if watches is None else watches).values():
        seen = watch(state, events)
        if seen is not None:
            reason, winner = seen
            return finish(state, reason, winner)
    return None
