"""Assaults (V-B-3): charge or engage, charge penalties, rotating charged fighters,
redirecting a failed assault. Pure arithmetic on powers, distances and the referee's answers.

Power (I-C): small and normal size 1, large 2, very large 2 + X (Enormous/X); the caller
passes current Power values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from itertools import combinations

from confrontation.rules.characteristics import Characteristic, Modifiers
from confrontation.rules.movement import MovementTable, default_movement_table

__all__ = [
    "AssaultKind",
    "AssaultMove",
    "Charge",
    "RedirectChoice",
    "assault_kind",
    "assault_move",
    "charge_modifiers",
    "charge_pressure",
    "may_rotate_charged",
    "penalised_fighters",
    "redirect_options",
    "redirected_kind",
    "rotatable_sets",
]


class AssaultKind(Enum):
    """V-B-3: a charge (target seen at the start, fighter free) or an engagement."""

    CHARGE = "charge"
    ENGAGE = "engage"


def assault_kind(free_of_enemy: bool, sees_target: bool) -> AssaultKind:
    """V-B-3 conditions: a fighter free of any enemy who sees his target at the beginning of
    his activation (even partially) charges; otherwise he can only engage (an engagement
    from contact needs a disengagement first, V-C)."""
    return AssaultKind.CHARGE if free_of_enemy and sees_target else AssaultKind.ENGAGE


@dataclass(frozen=True, slots=True)
class AssaultMove:
    """Where an assault ends (V-B-3): ``moved`` cm towards the target; ``contact`` when it
    reaches the target's base."""

    moved: float
    contact: bool


def assault_move(distance: float, potential: float) -> AssaultMove:
    """V-B-3 "Movement during an assault": ``distance`` is measured from the sight to the
    target's base by the movement rules (V-A). Within the potential the fighter is placed in
    contact; otherwise he moves his whole potential towards the target."""
    if distance < 0 or potential < 0:
        raise ValueError("distances and potentials are never negative")
    if distance <= potential:
        return AssaultMove(distance, True)
    return AssaultMove(potential, False)


# --- charge penalties ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Charge:
    """One charge that reached its targets: who charged whom, with what Power, in which round.

    ``targets`` maps each fighter charged (contacted by this charge) to his Power. Only
    charges count (an engagement is not a charge, V-B-3; a redirected charge that remains a
    charge counts).
    """

    round: int
    charger: str
    power: int
    targets: Mapping[str, int]

    def __post_init__(self) -> None:
        if self.power < 0 or any(p < 1 for p in self.targets.values()):
            raise ValueError("a charger's Power is >= 0 and a target's Power >= 1")
        if not self.targets:
            raise ValueError("a charge has at least one target")


def charge_pressure(charges: Iterable[Charge], fighter: str, round: int) -> Fraction:
    """The Power brought against ``fighter`` by this round's charges (V-B-3).

    A charger on one target brings his whole Power. A charger on several targets is set
    against their cumulative Power (example H/I: Power 1 on two fighters of Power 1 gives no
    penalty, Power 2 does), so he brings each target the share of his Power in proportion to
    that target's Power (docs/rulings.md, V-B-3). Chargers add up.
    """
    total = Fraction(0)
    for charge in charges:
        if charge.round != round or fighter not in charge.targets:
            continue
        pool = sum(charge.targets.values())
        total += Fraction(charge.power * charge.targets[fighter], pool)
    return total


def penalised_fighters(charges: Iterable[Charge], round: int) -> frozenset[str]:
    """The fighters who suffer charge penalties (and get the "charged" marker) this round:
    those whose charge pressure equals or exceeds their own Power (V-B-3)."""
    this_round = [c for c in charges if c.round == round]
    powers: dict[str, int] = {}
    for charge in this_round:
        powers.update(charge.targets)
    return frozenset(
        name for name, power in powers.items() if charge_pressure(this_round, name, round) >= power
    )


def charge_modifiers(
    characteristic: Characteristic, charged: bool, table: MovementTable | None = None
) -> Modifiers:
    """The charge penalty on ``characteristic`` (V-B-3: -1 INI, ATT, DEF and AIM until the end
    of the round), as :class:`Modifiers` to add to the fighter's other effects."""
    table = table or default_movement_table()
    if charged and characteristic in table.charge_penalised:
        return Modifiers(penalties=table.charge_malus)
    return Modifiers()


# --- rotating charged fighters ------------------------------------------------------------


def may_rotate_charged(
    charger_power: int,
    moved: Sequence[tuple[int, bool]],
    *,
    square_base: bool = True,
    battlefield_unchanged: bool = True,
) -> bool:
    """V-B-3 "Charging several enemies": may a charger on a square base turn the fighters he
    charges? ``moved`` lists (Power, free of contact) of the fighters to turn. Only fighters
    free of contact move, nothing else on the battlefield changes (the geometry's answer),
    and their total Power is at most the charger's."""
    if not square_base or not battlefield_unchanged:
        return False
    if not all(free for _, free in moved):
        return False
    return sum(power for power, _ in moved) <= charger_power


def rotatable_sets(
    charger_power: int, charged: Mapping[str, tuple[int, bool]]
) -> list[frozenset[str]]:
    """Every non-empty set of charged fighters the charger may turn (V-B-3), smallest first.

    ``charged`` maps a fighter to (Power, free of contact)."""
    names = sorted(charged)
    sets: list[frozenset[str]] = []
    for size in range(1, len(names) + 1):
        for group in combinations(names, size):
            if may_rotate_charged(charger_power, [charged[n] for n in group]):
                sets.append(frozenset(group))
    return sets


# --- redirecting a failed assault ---------------------------------------------------------


class RedirectChoice(Enum):
    """V-B-3 "Redirect an assault": the three choices when the target is gone."""

    REDIRECT = "redirect"
    STAY = "stay"
    RUN = "run"


def redirect_options(potential: float, moved: float) -> dict[RedirectChoice, float]:
    """The choices of a fighter whose assault failed (target fled or died), each with the
    movement left (V-B-3): redirect the assault, stay where he is, or turn the assault into
    a run, both with what remains of his movement potential."""
    if moved < 0 or moved > potential:
        raise ValueError(f"moved {moved} cm of a potential of {potential} cm")
    left = potential - moved
    return {RedirectChoice.REDIRECT: left, RedirectChoice.STAY: 0.0, RedirectChoice.RUN: left}


def redirected_kind(original: AssaultKind, sees_new_target: bool) -> AssaultKind:
    """V-B-3: a redirected charge remains a charge in all respects if the fighter sees his new
    target from where he redirects; otherwise it is an engagement (docs/rulings.md)."""
    if original is AssaultKind.CHARGE and sees_new_target:
        return AssaultKind.CHARGE
    return AssaultKind.ENGAGE
