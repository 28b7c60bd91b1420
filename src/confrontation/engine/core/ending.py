"""How a game ends: the last round's scoring, or an immediate victory (III-A-2, XX-A-4).

Two extension points of a ruleset (``confrontation.scenarios`` contributes its own):

- a **scoring hook**, ``hook(state) -> (state, events)``, runs when the game ends (after
  the last round, or at once after an immediate victory): it may set ``state.scores`` and
  ``state.winner`` and tell what it scored (``ObjectiveScored``…);
- a **watch**, ``watch(state, events) -> Ending | None``, looks at every step's new events:
  an :class:`~.outcome.Ending` (termination, winner, detail) ends the game at once
  (Execution: "declared the winner immediately").

:func:`finish` ends a game: scoring hooks, then :class:`~.events.GameEnded` recording the
:class:`~.outcome.Outcome` (termination, winner, scores). Without hooks the scores stay as they
are and there is no winner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from confrontation.engine.core.events import Event, GameEnded
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.outcome import Ending, Outcome, Termination
from confrontation.engine.core.registry import Transition
from confrontation.engine.core.ruleset import rules_of
from confrontation.engine.core.state import GameState, Phase

ScoringHook = Callable[[GameState], Transition]
Watch = Callable[[GameState, Sequence[Event]], Ending | None]


def finish(
    state: GameState, termination: Termination, winner: int | None = None, detail: str = ""
) -> Transition:
    """End the game: the scoring hooks, then ``GameEnded`` with the :class:`Outcome`
    (``winner`` unless a hook set one)."""
    state = evolve(state, phase=Phase.OVER, pending=None, winner=winner)
    events: list[Event] = []
    for hook in rules_of(state).scoring.values():
        state, scored = hook(state)
        events.extend(scored)
    events.append(GameEnded.of(Outcome(termination, state.winner, state.scores, detail)))
    return state, events


def watched(
    state: GameState, events: Sequence[Event], watches: Mapping[str, Watch] | None = None
) -> Transition | None:
    """The game's end if a watch sees an immediate victory in ``events``, else None
    (``watches``: the state's rules' watches, when the caller has them at hand)."""
    for watch in (rules_of(state).watches if watches is None else watches).values():
        seen = watch(state, events)
        if seen is not None:
            return finish(state, seen.termination, seen.winner, seen.detail)
    return None
