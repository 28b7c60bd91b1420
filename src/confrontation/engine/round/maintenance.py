"""The maintenance phase (IV-D), in the order of the rulebook.

Rallying of the routed fighters (IV-D-1), mystic regeneration — the new Temporary Faith,
then mana recovery (IV-D-2) — then the maintenance of game effects (IV-D-3): 1) negative
effects, 2) passive abilities, 3) active abilities, 4) various effects, 5) resurrection and
reinforcements, 6) removal of various markers. The steps are data (``data/round.toml``).

Rally, faith, mana and the abilities belong to chapters the documents do not contain
(CLARIFICATIONS §5): they plug in as **hooks**, ``hook(state) -> (state, events)``,
added to a step of a ruleset (``rules.with_maintenance_hook(step, hook)``). A hook that needs
a player's answer or a die sets ``state.pending`` (with its own handler in the ruleset); the phase
resumes with the next hook once it is answered. Step 6 has a built-in hook: the Stunned
(II-B-5), charged (V-B-3) and Defense (V-C) markers are removed.
"""

from __future__ import annotations

from collections.abc import Callable

from confrontation.engine.core.ending import finish
from confrontation.engine.core.events import (
    Event,
    MaintenanceStepStarted,
    MarkersRemoved,
    PhaseEnded,
    PhaseStarted,
)
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.outcome import Termination
from confrontation.engine.core.registry import EngineError, Transition
from confrontation.engine.core.rounddata import load_round_data
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import Fighter, GameState, MaintenanceProgress, Phase

MaintenanceHook = Callable[[GameState], Transition]


def step_names() -> tuple[str, ...]:
    """The maintenance steps, in order."""
    return tuple(s.name for s in load_round_data().maintenance)


def _removed(fighter: Fighter) -> tuple[str, ...]:
    names = []
    if fighter.stunned:
        names.append("stunned")
    if fighter.charged:
        names.append("charged")
    if fighter.defence:
        names.append("defence")
    return tuple(names)


def remove_round_markers(state: GameState) -> Transition:
    """IV-D-3 6: remove the Stunned, charged and Defense markers."""
    events: list[Event] = []
    changed = []
    for fighter in state.fighters:
        names = _removed(fighter)
        if names:
            changed.append(evolve(fighter, stunned=False, charged=False, defence=False))
            events.append(MarkersRemoved(fighter.id, names))
    return state.with_fighters(*changed), events


BUILT_IN: dict[str, tuple[MaintenanceHook, ...]] = {"markers": (remove_round_markers,)}


def hooks_for(state: GameState, step: str) -> tuple[MaintenanceHook, ...]:
    """The hooks of a step: the ruleset's, then the built-in ones."""
    return rules_of(state).maintenance_hooks.get(step, ()) + BUILT_IN.get(step, ())


def drive(state: GameState) -> Transition:
    """Run the next maintenance hook, or move to the next step, round or the game's end."""
    progress = state.maintenance
    if progress is None:
        raise EngineError("the maintenance phase is not under way")
    steps = load_round_data().maintenance
    events: list[Event] = []
    if progress.step == 0 and progress.hook == 0:
        events.append(PhaseStarted(state.round, Phase.MAINTENANCE.value))
    while progress.step < len(steps):
        current = steps[progress.step]
        hooks = hooks_for(state, current.name)
        if progress.hook == 0:
            events.append(MaintenanceStepStarted(current.name, current.section))
        if progress.hook < len(hooks):
            hook = hooks[progress.hook]
            progress = evolve(progress, hook=progress.hook + 1)
            state = evolve(state, maintenance=progress)
            state, happened = hook(state)
            events.extend(happened)
            if state.pending is not None or state.phase is Phase.OVER:
                return state, events  # a question, or a hook ended the game (CP-SCENARIO-VICTORY)
            progress = state.maintenance or progress
            continue
        progress = MaintenanceProgress(step=progress.step + 1, hook=0)
        state = evolve(state, maintenance=progress)
    events.append(PhaseEnded(state.round, Phase.MAINTENANCE.value))
    if state.round >= state.rounds:  # III-A-2: the scenario's last round is over
        over, ended = finish(evolve(state, maintenance=None), Termination.ROUNDS_PLAYED)
        return over, events + ended
    next_round = evolve(
        state, round=state.round + 1, phase=Phase.STRATEGIC, maintenance=None, strategic=None
    )
    return next_round, events


def contribute(rules: RulesBuilder) -> None:
    """The maintenance phase's driver."""
    rules.phase(Phase.MAINTENANCE, drive)
