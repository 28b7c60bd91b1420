"""Altitude levels (II-F): which level a fighter is at and what may reach across levels.

The geometry applies the level to contact, sight and paths (II-F-1); this module holds the
rules that are not geometry: the level a fighter is at (II-F) and whether a game effect or an
interaction reaches a fighter at another level (II-F-2).
"""

from __future__ import annotations

from enum import Enum, IntEnum

__all__ = [
    "Interaction",
    "Level",
    "affects_level",
    "altitude_level",
    "interaction_allowed",
]


class Level(IntEnum):
    """II-F: the two altitude levels."""

    GROUND = 0  # on the ground or on a scenery element
    AIR = 1  # flying (Flight/X) or raised by a game effect


def altitude_level(*, flying: bool = False, raised_by_effect: bool = False) -> Level:
    """II-F: level 1 for a fighter making a move in flight or put there by a game effect
    (spell, miracle, ability); level 0 for every other miniature, on the ground or on a
    scenery element (standing on a hill or a roof is still level 0)."""
    return Level.AIR if flying or raised_by_effect else Level.GROUND


def affects_level(source_level: int, target_level: int, *, both_levels: bool = False) -> bool:
    """II-F-2: unless its text says otherwise (``both_levels``), a game effect only affects
    the level of the fighter generating it."""
    for level in (source_level, target_level):
        if level not in (Level.GROUND, Level.AIR):
            raise ValueError(f"altitude level is 0 or 1, not {level!r} (II-F)")
    return both_levels or source_level == target_level


class Interaction(Enum):
    """What one fighter may do to another (II-F-1, II-F-2)."""

    CONTACT = "contact"  # contact, hence charges, engagements and close combat (II-E)
    SIGHT = "sight"  # line of sight (II-D)
    SHOT = "shot"  # a shot (VI)
    EFFECT = "effect"  # a game effect: spell, miracle, ability (II-C)


def interaction_allowed(
    kind: Interaction, a_level: int, b_level: int, *, both_levels: bool = False
) -> bool:
    """May a fighter at ``a_level`` do ``kind`` to one at ``b_level``?

    Within one level everything is allowed. Across levels (II-F-1, II-F-2; ruling in
    docs/rulings.md, the Flight/X ability of chapter XII is not in the documents): sight
    always (II-F-1: barriers at level 0 don't even block it); shots, with the altitude
    modifier of VI-A-3; never contact (II-F-1: contact only applies between fighters at
    level 1, and at level 0 between fighters at level 0); a game effect only if its text
    says it reaches both levels (``both_levels``, II-F-2).
    """
    if a_level == b_level:
        affects_level(a_level, b_level)  # validates the levels
        return True
    if kind is Interaction.EFFECT:
        return affects_level(a_level, b_level, both_levels=both_levels)
    affects_level(a_level, b_level, both_levels=True)  # validates the levels
    return kind in (Interaction.SIGHT, Interaction.SHOT)
