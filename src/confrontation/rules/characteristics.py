"""Characteristics and their current values (II-A-4), wound penalties (II-B-4, II-B-5).

The *current value* of a characteristic is its reference-card value with the game effects
of the moment applied in the order of II-A-4: a replacement first, then the maluses
(situational penalties and the wound penalties of II-B-4), then the bonuses. Only two
bounds exist: Movement never goes below 0 and Resistance never below 1. Every division
rounds up (:func:`half_up`, :func:`divide_up`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = [
    "KILLED_AT",
    "WOUND_PENALISED",
    "Characteristic",
    "HealthState",
    "Modifiers",
    "current_value",
    "divide_up",
    "half_up",
    "wound_penalty",
]

KILLED_AT = 4
"""A fighter absorbs 4 wound levels; the fourth kills him (II-B-2)."""


class Characteristic(Enum):
    """The characteristics of a reference card (I-C), by their rulebook abbreviations."""

    MOV = "MOV"
    INI = "INI"
    ATT = "ATT"
    STR = "STR"
    DEF = "DEF"
    RES = "RES"
    AIM = "AIM"
    AIM_STR = "AIM STR"
    """The Strength of a shooting weapon (a property of the weapon, I-C)."""
    COURAGE = "COU"
    FEAR = "FEAR"
    DIS = "DIS"
    POW = "POW"
    CREATION = "CREATION"
    """Faith aspect of Creation (I-C, FAITH)."""
    ALTERATION = "ALTERATION"
    """Faith aspect of Alteration (I-C, FAITH)."""
    DESTRUCTION = "DESTRUCTION"
    """Faith aspect of Destruction (I-C, FAITH)."""

    # Members are singletons compared by identity: the identity hash keeps lookups keyed by a
    # characteristic (every current value, II-A-4) cheap; Enum's own hashes the name.
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, key: str) -> Characteristic:
        """The characteristic named ``key`` (abbreviation or member name, any case)."""
        wanted = key.strip().upper()
        for member in cls:
            if wanted in (member.value, member.name):
                return member
        known = ", ".join(member.value for member in cls)
        raise ValueError(f"unknown characteristic {key!r} (expected one of {known})")


FAITH_ASPECTS: frozenset[Characteristic] = frozenset(
    {Characteristic.CREATION, Characteristic.ALTERATION, Characteristic.DESTRUCTION}
)

# II-B-4: "Initiative, Attack, Defense, Fire, Strength, Power, and Faith" (each Faith aspect;
# AIM STR belongs to the weapon, not the fighter: see docs/rulings.md).
WOUND_PENALISED: frozenset[Characteristic] = frozenset(
    {
        Characteristic.INI,
        Characteristic.ATT,
        Characteristic.DEF,
        Characteristic.AIM,
        Characteristic.STR,
        Characteristic.POW,
    }
    | FAITH_ASPECTS
)

_MINIMUM: dict[Characteristic, int] = {Characteristic.MOV: 0, Characteristic.RES: 1}  # II-A-4

# The same two tables keyed by the members' values: a plain Enum hashes through a Python
# ``__hash__``, a str does not (``current_value`` is called ~15,000 times a game).
_PENALISED_VALUES: frozenset[str] = frozenset(c._value_ for c in WOUND_PENALISED)
_MINIMUM_BY_VALUE: dict[str, int] = {c._value_: m for c, m in _MINIMUM.items()}


def divide_up(value: int, divisor: int) -> int:
    """``value / divisor`` rounded to the higher integer (II-A-4)."""
    if divisor <= 0:
        raise ValueError(f"a divisor must be positive, not {divisor}")
    return -((-value) // divisor)


def half_up(value: int) -> int:
    """Half of ``value``, rounded to the higher integer (II-A-4): 5 → 3, -5 → -2."""
    return divide_up(value, 2)


@dataclass(frozen=True, slots=True)
class HealthState:
    """Wound levels received (0-4, II-B-2) and the temporary Stunned state (II-B-5)."""

    wound_levels: int = 0
    stunned: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.wound_levels <= KILLED_AT:
            raise ValueError(f"wound levels must be 0-{KILLED_AT}, not {self.wound_levels}")

    @property
    def killed(self) -> bool:
        """Four wound levels: the fighter is dead (II-B-2)."""
        return self.wound_levels >= KILLED_AT

    @property
    def name(self) -> str:
        """The health state as the rulebook names it (II-B-2)."""
        return ("healthy", "light wound", "serious wound", "critical wound", "killed")[
            self.wound_levels
        ]

    def end_of_round(self) -> HealthState:
        """The state after the round ends: Stunned is gone, wounds stay (II-B-5)."""
        return HealthState(self.wound_levels, False) if self.stunned else self


def wound_penalty(health: HealthState) -> int:
    """The malus of II-B-4: 1 per wound level, plus 1 while Stunned (cumulative)."""
    return health.wound_levels + (1 if health.stunned else 0)


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Game effects on one characteristic (II-A-4).

    ``replacement`` replaces the reference value; ``penalties`` (a malus, given as a
    non-negative amount to subtract) and ``bonuses`` (a non-negative amount to add) are the
    totals of the maluses and bonuses applying at this moment.
    """

    replacement: int | None = None
    penalties: int = 0
    bonuses: int = 0

    def __post_init__(self) -> None:
        if self.penalties < 0:
            raise ValueError(f"penalties are an amount to subtract (>= 0), not {self.penalties}")
        if self.bonuses < 0:
            raise ValueError(f"bonuses are an amount to add (>= 0), not {self.bonuses}")

    def __add__(self, other: Modifiers) -> Modifiers:
        """Both sets of effects at once (two different replacements cannot combine)."""
        if (
            self.replacement is not None
            and other.replacement is not None
            and self.replacement != other.replacement
        ):
            raise ValueError(
                f"two replacements of the same value ({self.replacement} and "
                f"{other.replacement}): the caller must decide which applies"
            )
        replacement = self.replacement if self.replacement is not None else other.replacement
        return Modifiers(
            replacement, self.penalties + other.penalties, self.bonuses + other.bonuses
        )


NO_MODIFIERS = Modifiers()
HEALTHY = HealthState()


def current_value(
    characteristic: Characteristic,
    reference: int,
    modifiers: Modifiers = NO_MODIFIERS,
    health: HealthState = HEALTHY,
) -> int:
    """The current value of ``characteristic`` (II-A-4), wound penalties included (II-B-4).

    Order: replacement, then maluses (``modifiers.penalties`` and the wound penalty when
    the characteristic suffers it), then bonuses; finally MOV >= 0 and RES >= 1.
    """
    key = characteristic._value_
    value = reference if modifiers.replacement is None else modifiers.replacement
    value -= modifiers.penalties
    if key in _PENALISED_VALUES:
        value -= health.wound_levels + (1 if health.stunned else 0)  # wound_penalty
    value += modifiers.bonuses
    minimum = _MINIMUM_BY_VALUE.get(key)
    if minimum is not None and value < minimum:
        return minimum
    return value
