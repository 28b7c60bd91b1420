"""The combat phase (IV-C): the seam for close combat (chapter VII, a later issue).

"All fighters in contact with an enemy fighter must fight in close combat during the
combat phase." Two extension points:

- the ruleset's **contact finder**: the function that lists the pairs of enemy fighters in
  base contact. Movement (bases, II-E) contributes it; without it fighters have no
  interpretable position and none is in contact (:func:`no_geometry`).
- the phase driver itself: the melee engine replaces :func:`drive` in the ruleset
  (``rules.phase(Phase.COMBAT, its_driver)``).

This default driver lets the phase pass when nobody is in contact, and refuses to guess
when somebody is (an :class:`~.registry.EngineError` naming chapter VII).
"""

from __future__ import annotations

from collections.abc import Callable

from confrontation.engine.core.events import PhaseEnded, PhaseStarted
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.registry import EngineError, Transition
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import CombatProgress, GameState, MaintenanceProgress, Phase

ContactFinder = Callable[[GameState], list[tuple[str, str]]]


def no_geometry(state: GameState) -> list[tuple[str, str]]:
    """Before the geometry package registers a contact finder: nobody is in contact."""
    return []


def fighters_in_contact(state: GameState) -> list[tuple[str, str]]:
    """Pairs of living enemy fighters in base contact."""
    return rules_of(state).contacts(state)


def drive(state: GameState) -> Transition:
    """IV-C with no melee engine: pass when nobody is in contact."""
    if state.combat is None:
        started = PhaseStarted(state.round, Phase.COMBAT.value)
        return evolve(state, combat=CombatProgress(started=True)), [started]
    if fighters_in_contact(state):
        raise EngineError("fighters are in contact but no melee engine (chapter VII) is registered")
    ended = PhaseEnded(state.round, Phase.COMBAT.value)
    return (
        evolve(state, phase=Phase.MAINTENANCE, combat=None, maintenance=MaintenanceProgress()),
        [ended],
    )


def contribute(rules: RulesBuilder) -> None:
    """The placeholder combat phase and contact finder (combat.phase, movement replace them)."""
    rules.phase(Phase.COMBAT, drive)
    rules.contacts(no_geometry)
