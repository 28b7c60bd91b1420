"""Lines of sight and range for units (``# Field of vision and line of sigth``,
``# Measuring Distance``, ``# Unit Ranged Attack``).

What to call:

- :func:`sees` / :func:`sees_unit` / :func:`marksmen_who_see`: a fighter's line of sight on
  an enemy fighter / on any fighter of a unit; the marksmen of a salvo who may shoot
  (``# Unit Ranged Attack > Choice of the target and the marksmen``). 360° field of vision;
  2D terrain: a line from base to base crossing no obstacle (the geometry package's
  :func:`~confrontation.geometry.line_of_sight` with the viewer turned toward its target).
- :func:`range_distance`: leader to leader, edge to edge (``# Measuring Distance``);
  :func:`range_band`: the band (difficulty) of that distance on the tape, a base partly
  within a band being in the shorter one; ``bands`` are the tape's (limit in cm, difficulty)
  pairs, which c4-rules keeps as data (the integrator passes them).
- :func:`can_target`: the target unit may be shot at (not engaged, one fighter seen).

Sections (docs/rules-index.toml): C4-FIELD-OF-VISION-AND-LINE-OF-SIGHT, C4-MEASURING-DISTANCE,
C4-MEASURING-THE-RANGE, C4-CHOICE-OF-THE-TARGET-AND-THE-MARKSMEN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from confrontation.c4.formation import Member, gap, member_base
from confrontation.geometry import Barrier, Scenery, line_of_sight


def _barriers(scenery: Sequence[Scenery], others: Sequence[Member]) -> list[Barrier]:
    out = [Barrier(s.footprint, s.height) for s in scenery]
    out += [Barrier.of_base(member_base(m)) for m in others]
    return out


def sees(
    viewer: Member,
    target: Member,
    *,
    scenery: Sequence[Scenery] = (),
    others: Sequence[Member] = (),
) -> bool:
    """``# Field of vision and line of sigth``: does ``viewer`` see any part of
    ``target``? All miniatures see 360° (the viewer is turned toward the target); the
    barriers are the ``scenery`` and the fighters ``others`` (ruling: the bases of units
    other than the viewer's and the target's), each by its size class as the geometry
    package rules (flat scenery hides nothing)."""
    src = member_base(viewer).facing_point(target.x, target.y)
    dst = member_base(target)
    return line_of_sight(src, dst, _barriers(scenery, others)).any


def sees_unit(
    viewer: Member,
    targets: Sequence[Member],
    *,
    scenery: Sequence[Scenery] = (),
    others: Sequence[Member] = (),
) -> bool:
    """Does ``viewer`` see at least one fighter of the unit ``targets``?"""
    return any(sees(viewer, t, scenery=scenery, others=others) for t in targets)


def marksmen_who_see(
    marksmen: Sequence[Member],
    targets: Sequence[Member],
    *,
    scenery: Sequence[Scenery] = (),
    others: Sequence[Member] = (),
) -> tuple[str, ...]:
    """``# Unit Ranged Attack > Choice of the target and the marksmen``: only the marksmen
    who can see a fighter of the targeted unit can shoot (their ids, in order)."""
    return tuple(m.id for m in marksmen if sees_unit(m, targets, scenery=scenery, others=others))


def can_target(
    shooters: Sequence[Member],
    targets: Sequence[Member],
    *,
    scenery: Sequence[Scenery] = (),
    others: Sequence[Member] = (),
) -> bool:
    """``# Unit Ranged Attack > Choice of the target and the marksmen``: an engaged unit
    (ruling: one with any fighter engaged) cannot be targeted; the unit must see at least
    one fighter of it."""
    if not targets or any(t.engaged for t in targets):
        return False
    return bool(marksmen_who_see(shooters, targets, scenery=scenery, others=others))


def range_distance(leader: Member, target_leader: Member) -> float:
    """``# Measuring Distance`` / ``# Unit Ranged Attack > Measuring the range``: from the
    edge of the leader's base to the edge of the enemy leader's base (0 if touching)."""
    return max(gap(leader, target_leader), 0.0)


def range_band(distance: float, bands: Sequence[tuple[float, int]]) -> int | None:
    """``# Unit Ranged Attack > Measuring the range``: the difficulty of the band holding
    ``distance``; ``bands`` are (farthest cm, difficulty) pairs, nearest band first. A base
    partly within a band is in the shorter of the two (``# Measuring Distance``), so a
    distance exactly on a limit is in the shorter band. None: beyond the last band.
    ValueError: limits negative or not growing."""
    last = -math.inf
    for limit, _ in bands:
        if limit < 0 or limit <= last:
            raise ValueError(f"range bands must be positive and grow: {limit} after {last}")
        last = limit
    for limit, difficulty in bands:
        if distance <= limit + 1e-9:
            return difficulty
    return None
