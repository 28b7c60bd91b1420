"""Disengagement (V-C): by agility (an Initiative test) or by force (a Strength test), the
difficulty 4 + 2 per enemy in contact, the Defense counter on failure, and exact odds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from confrontation.dice import RaiseDecision, RaisePolicy, Roller, TestResult, p_success, roll_test

__all__ = [
    "DisengageMethod",
    "DisengageOutcome",
    "Enemy",
    "can_try_disengaging",
    "disengage_difficulty",
    "disengage_value",
    "p_disengage",
    "roll_disengage",
]


class DisengageMethod(Enum):
    """V-C: the two ways out of a melee."""

    AGILITY = "agility"
    """An Initiative test."""
    FORCE = "force"
    """A Strength test, less the highest enemy Strength; only for a bigger fighter."""


@dataclass(frozen=True, slots=True)
class Enemy:
    """An enemy in contact with the fighter's base: his Size and current Strength."""

    size: int
    strength: int


def can_try_disengaging(
    enemies_in_contact: int, max_enemies: int, attacked_this_phase: bool
) -> bool:
    """V-C conditions: in contact with at least one enemy at the beginning of his activation,
    not charged or engaged in the current activation phase, and not in contact with the most
    enemies his size allows (``max_enemies``, II-E-3)."""
    return 0 < enemies_in_contact < max_enemies and not attacked_this_phase


def disengage_difficulty(enemies_in_contact: int) -> int:
    """V-C: 4 + 2 per enemy in contact with the fighter's base (both methods)."""
    if enemies_in_contact < 1:
        raise ValueError("disengaging needs at least one enemy in contact")
    return 4 + 2 * enemies_in_contact


def disengage_value(
    method: DisengageMethod,
    initiative: int,
    strength: int,
    size: int,
    enemies: Sequence[Enemy],
) -> int | None:
    """The characteristic value the test uses, or None when the method is impossible (V-C).

    Agility: the current INI. Force: only when the fighter's Size exceeds each enemy's; the
    current STR less the highest enemy STR; impossible when that falls to 0 or below
    (docs/rulings.md, V-C).
    """
    if not enemies:
        raise ValueError("disengaging needs at least one enemy in contact")
    if method is DisengageMethod.AGILITY:
        return initiative
    if not all(size > enemy.size for enemy in enemies):
        return None
    value = strength - max(enemy.strength for enemy in enemies)
    return value if value > 0 else None


@dataclass(frozen=True, slots=True)
class DisengageOutcome:
    """A disengagement attempt (V-C).

    On success the fighter may walk or engage with MOV x 1; on failure he gets a Defense
    counter: all his combat dice go to defence in every combat of this round.
    """

    method: DisengageMethod
    difficulty: int
    value: int
    test: TestResult

    @property
    def success(self) -> bool:
        return self.test.succeeds(self.difficulty)

    @property
    def defense_counter(self) -> bool:
        """V-C: a failure puts the Defense counter next to the fighter."""
        return not self.success


def roll_disengage(
    roller: Roller,
    method: DisengageMethod,
    initiative: int,
    strength: int,
    size: int,
    enemies: Sequence[Enemy],
    *,
    dice: int = 1,
    decide: RaiseDecision = RaisePolicy.OPTIMAL,
) -> DisengageOutcome:
    """Roll a disengagement test (V-C); raises ValueError when the method is impossible."""
    value = disengage_value(method, initiative, strength, size, enemies)
    if value is None:
        raise ValueError("disengagement in force is impossible here (V-C)")
    difficulty = disengage_difficulty(len(enemies))
    test = roll_test(roller, value, dice, difficulty=difficulty, decide=decide)
    return DisengageOutcome(method, difficulty, value, test)


def p_disengage(
    method: DisengageMethod,
    initiative: int,
    strength: int,
    size: int,
    enemies: Sequence[Enemy],
    *,
    dice: int = 1,
) -> Fraction:
    """P(the disengagement succeeds) with optimal raises; 0 when the method is impossible."""
    value = disengage_value(method, initiative, strength, size, enemies)
    if value is None:
        return Fraction(0)
    return p_success(value, disengage_difficulty(len(enemies)), dice)
