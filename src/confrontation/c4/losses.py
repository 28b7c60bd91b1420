"""Removal of the losses (``# Unit Ranged Attack > Removal of the losses``): the order.

What to call: :func:`removal_order` (the target unit's fighters, those closest to the leader
of the unit of marksmen first) — the salvo (``c4/salvo.py``) distributes the damage points
along it. :func:`nearest_first` is the same order for any reference fighter (a combat's
losses, ruling).

Sections (docs/rules-index.toml): C4-REMOVAL-OF-THE-LOSSES.
"""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.c4.formation import Member, gap


def nearest_first(fighters: Sequence[Member], reference: Member) -> tuple[str, ...]:
    """The ids of ``fighters``, the closest (edge to edge) to ``reference`` first; equally
    close ones by id (ruling: the document gives no order; ids keep it reproducible)."""
    return tuple(m.id for m in sorted(fighters, key=lambda m: (gap(m, reference), m.id)))


def removal_order(targets: Sequence[Member], marksmen_leader: Member) -> tuple[str, ...]:
    """``# Unit Ranged Attack > Removal of the losses``: the fighters closest to the leader
    of the unit of marksmen are eliminated first."""
    return nearest_first(targets, marksmen_leader)
