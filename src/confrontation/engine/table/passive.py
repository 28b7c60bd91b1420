"""Passive individuals on the table (XX-E-6): the 15 cm leash.

"Au terme de leur déplacement, ils doivent se trouver à 15cm ou moins d'un combattant ami,
sauf s'ils sont en déroute." — "Si l'un d'eux se trouve à plus de 15cm de tout défenseur au
moment de son activation, il ne peut pas être déplacé (sauf s'il est en déroute)."

A friendly fighter is one of the defender's own fighters (another passive individual is not
one: docs/rulings.md "XX-E-6"), alive on the table; distances are edge to edge (V-A).
"""

from __future__ import annotations

from confrontation.engine.core.state import GameState
from confrontation.engine.table.field import Field, base_of, field_of
from confrontation.geometry.bases import Base
from confrontation.geometry.measure import within

LEASH_CM = 15.0
"""XX-E-6: "à 15cm ou moins d'un combattant ami"."""


def leashed(state: GameState, fighter_id: str) -> bool:
    """A passive individual bound by the leash (not routed)."""
    fighter = state.fighter(fighter_id)
    return fighter.passive and not fighter.routed


def near_a_defender(state: GameState, fighter_id: str, base: Base, here: Field | None) -> bool:
    """Would ``fighter_id`` standing at ``base`` be within 15 cm of a fighter of his own side
    who is no passive individual?"""
    me = state.fighter(fighter_id)
    for other in state.fighters:
        if other.player != me.player or other.passive or not other.in_play:
            continue
        there = here.base(other.id) if here is not None else base_of(state, other)
        if within(base, there, LEASH_CM):
            return True
    return False


def tethered(state: GameState, fighter_id: str) -> bool:
    """XX-E-6: a passive individual (not routed) more than 15 cm from every defender now: he
    cannot be moved in this activation (measured when he is activated)."""
    if not leashed(state, fighter_id) or not state.fighter(fighter_id).in_play:
        return False
    here = field_of(state) if state.battleground is not None else None
    if here is None:
        return False
    return not near_a_defender(state, fighter_id, here.base(fighter_id), here)
