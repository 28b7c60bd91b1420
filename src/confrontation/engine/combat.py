"""The combat phase (IV-C): the seam for close combat (chapter VII, a later issue).

"All fighters in contact with an enemy fighter must fight in close combat during the
combat phase." Two extension points:

- :data:`CONTACTS`: the function that lists the pairs of enemy fighters in base contact.
  The geometry package (bases, II-E) registers it with :func:`register_contacts`. Until it
  does, fighters have no interpretable position and none is in contact.
- the phase driver itself: the melee engine replaces :func:`drive` with
  ``registry.register_phase(Phase.COMBAT, its_driver)``.

This default driver lets the phase pass when nobody is in contact, and refuses to guess
when somebody is (an :class:`~.registry.EngineError` naming chapter VII).
"""

from __future__ import annotations

from collections.abc import Callable

from confrontation.engine.events import PhaseEnded, PhaseStarted
from confrontation.engine.frozen import evolve
from confrontation.engine.registry import EngineError, Registration, Transition, register_phase
from confrontation.engine.state import CombatProgress, GameState, MaintenanceProgress, Phase

ContactFinder = Callable[[GameState], list[tuple[str, str]]]


def no_geometry(state: GameState) -> list[tuple[str, str]]:
    """Before the geometry package registers a contact finder: nobody is in contact."""
    return []


CONTACTS: dict[str, ContactFinder] = {"contacts": no_geometry}


def register_contacts(finder: ContactFinder) -> Registration[str, ContactFinder]:
    """Use ``finder`` to list the enemy fighters in base contact (II-E)."""
    previous = CONTACTS["contacts"]
    CONTACTS["contacts"] = finder
    return Registration(CONTACTS, "contacts", previous)


def fighters_in_contact(state: GameState) -> list[tuple[str, str]]:
    """Pairs of living enemy fighters in base contact."""
    return CONTACTS["contacts"](state)


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


register_phase(Phase.COMBAT, drive)
