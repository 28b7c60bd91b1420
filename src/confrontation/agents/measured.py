"""What a player who may measure at any time knows of a shot or an assault before he declares
it: the distance, whether it is within the weapon's range or the assault's reach, and the
chance of the shot (001 "Actions and measurement": measuring before declaring is forbidden by
default, allowed at any time when the players agree; the program's AI agents read exact
positions, so the person playing against them measures too — docs/rulings.md, IV-B-2).

:func:`measure` answers for the choices it knows (``Shoot``; ``Announce`` of a charge or an
engagement) and None for the others; the terminal player shows the facts beside each option
and leaves out what cannot reach.
"""

from __future__ import annotations

from dataclasses import dataclass

from confrontation.agents.advice import shot_advice
from confrontation.agents.assess import charge_reach, gap, in_range
from confrontation.engine.core.questions import Announce, Choice, Shoot
from confrontation.engine.core.state import GameState
from confrontation.engine.table.field import field_of, has_field, pass_through

ASSAULTS = frozenset({"charge", "engage"})
"""The announced actions that must reach their target (V-B-3)."""


@dataclass(frozen=True)
class Measured:
    """The facts of one option: ``distance`` (cm: edge to edge for a shot, along the V-A path
    for an assault), ``reaches`` (within the weapon's long range or the assault's reach) and,
    for a shot, its exact odds in words (:func:`confrontation.agents.advice.shot_advice`)."""

    distance: float
    reaches: bool
    odds: str = ""

    def text(self) -> str:
        """``24.5 cm; Shooting test (difficulty 7) 67 %; …`` / ``12.0 cm along the path``."""
        if not self.odds:
            where = f"{self.distance:.1f} cm along the path"
            return where if self.reaches else f"{where}, out of reach"
        return f"{self.distance:.1f} cm; {self.odds}"


def measure(state: GameState, choice: Choice) -> Measured | None:
    """The facts of ``choice`` if it is a shot or an assault on a fighter, else None."""
    if not has_field(state):
        return None
    if isinstance(choice, Shoot):
        advice = shot_advice(state, choice)
        odds = "" if advice is None else str(advice["text"])
        reaches = in_range(state, choice.fighter, choice.target)
        return Measured(gap(state, choice.fighter, choice.target), reaches, odds or "no odds")
    if isinstance(choice, Announce) and choice.action in ASSAULTS and choice.target:
        if choice.target.startswith("scenery:"):
            return None
        return _assault(state, choice)
    return None


def _assault(state: GameState, choice: Announce) -> Measured:
    assert choice.target is not None
    fighter = state.fighter(choice.fighter)
    reach = charge_reach(state, fighter)
    here = field_of(state)
    mov = state.profile(fighter.profile).mov
    through = pass_through(state, here, fighter.id)
    path = here.move_path(fighter.id, choice.target, through, mov=mov, potential=reach)
    if path is None:
        return Measured(gap(state, fighter.id, choice.target), False)
    return Measured(float(path.length), path.length <= reach)


__all__ = ["ASSAULTS", "Measured", "measure"]
