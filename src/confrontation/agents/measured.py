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
from fractions import Fraction

from confrontation.agents.assess import charge_reach, gap, in_range
from confrontation.engine.core.questions import Announce, Choice, Shoot
from confrontation.engine.core.state import GameState
from confrontation.engine.table.field import current, field_of, has_field, pass_through
from confrontation.rules.characteristics import Characteristic
from confrontation.rules.shooting import shot_distribution

ASSAULTS = frozenset({"charge", "engage"})
"""The announced actions that must reach their target (V-B-3)."""


@dataclass(frozen=True)
class Measured:
    """The facts of one option: ``distance`` (cm: straight for a shot, along the V-A path for
    an assault), ``reaches`` (within range or reach), and for a shot the exact chances to hit
    and to wound (``None`` for an assault)."""

    distance: float
    reaches: bool
    hit: Fraction | None = None
    wound: Fraction | None = None

    def text(self) -> str:
        """``24.5 cm, hit 58 %, wound 31 %`` / ``12.0 cm along the path, out of reach``."""
        if self.hit is None:
            where = f"{self.distance:.1f} cm along the path"
            return where if self.reaches else f"{where}, out of reach"
        if not self.reaches:
            return f"{self.distance:.1f} cm, out of range"
        assert self.wound is not None
        return f"{self.distance:.1f} cm, hit {_pct(self.hit)}, wound {_pct(self.wound)}"


def measure(state: GameState, choice: Choice) -> Measured | None:
    """The facts of ``choice`` if it is a shot or an assault on a fighter, else None."""
    if not has_field(state):
        return None
    if isinstance(choice, Shoot):
        return _shot(state, choice)
    if isinstance(choice, Announce) and choice.action in ASSAULTS and choice.target:
        if choice.target.startswith("scenery:"):
            return None
        return _assault(state, choice)
    return None


def _shot(state: GameState, choice: Shoot) -> Measured:
    from confrontation.engine.actions.shooting import difficulty_of

    distance = gap(state, choice.fighter, choice.target)
    if not in_range(state, choice.fighter, choice.target):
        return Measured(distance, False, Fraction(0), Fraction(0))
    shooter, target = state.fighter(choice.fighter), state.fighter(choice.target)
    profile = state.profile(shooter.profile)
    difficulty = difficulty_of(state, choice.fighter, choice.target)
    if difficulty is None or profile.aim_str is None:
        return Measured(distance, False, Fraction(0), Fraction(0))
    outcome = shot_distribution(
        current(state, shooter, Characteristic.AIM),
        difficulty.total,
        profile.aim_str,
        max(current(state, target, Characteristic.RES), 0),
        unmoving=choice.still,
    )
    hit = 1 - outcome[None]
    wound = sum(
        (p for result, p in outcome.items() if result is not None and result.levels > 0),
        Fraction(0),
    )
    return Measured(distance, True, hit, wound)


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


def _pct(p: Fraction) -> str:
    return f"{float(p):.0%}".replace("%", " %")


__all__ = ["ASSAULTS", "Measured", "measure"]
