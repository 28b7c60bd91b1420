"""Pursuit moves on a real table (VII-C-6), the combat phase's default pursuit finder.

At the end of a combat whose every enemy was killed, a survivor may make one pursuit move a
round of MOV/2 cm rounded up (:func:`~confrontation.rules.combat.pursuit_distance`, the
``reach`` the combat phase passes in), which may **engage** (not charge: no charge penalty,
no charge bonus) an enemy in range (VII-C-6 a). He needs no disengagement (b). The distance
is measured as for an assault (V-B-3): along the most direct legal path of his sight (V-A,
:meth:`~confrontation.engine.table.field.Field.path`) to the edge of the enemy's base; he is then
placed in contact, the sight on the enemy's base, by
:func:`~confrontation.geometry.nearest_contact_position` (fighters already touching the enemy
may be pushed slightly, II-E-1).

:func:`table_pursuits` offers: staying in place (a move of 0 cm that keeps the contacts he
has, docs/rulings.md), one move into contact with each enemy within reach, and a few free
moves (walk-like destinations within reach that touch no enemy). With no table it is the
engine's :func:`~confrontation.engine.combat.phase.stay_in_place`. The ``confede`` ruleset
uses it (:func:`contribute`).
"""

from __future__ import annotations

import math

import numpy as np

from confrontation.engine.combat.phase import (
    contact_graph,
    stay_in_place,
)
from confrontation.engine.combat.questions import Pursue
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import GameState
from confrontation.engine.table.contact_limits import is_full, placement_filter
from confrontation.engine.table.field import (
    Field,
    field_of,
    has_field,
    iter_destinations,
    movement,
    on_area,
    pass_through,
)
from confrontation.geometry.bases import Base
from confrontation.geometry.contact import ContactPlacement, in_contact, outer_radius
from confrontation.geometry.measure import beyond

__all__ = ["FREE_MOVES", "pursuit_placement", "table_pursuits", "within_reach"]

FREE_MOVES = 4
"""How many free destinations (moves that engage nobody) a pursuer is offered."""

_EPS = 1e-6


def _placement_ok(here: Field, base: Base, within_mov: bool) -> bool:
    """On the table and on no scenery he may not stand on: a landform of his size only at
    the end of a move of at most MOV x 1 (``within_mov``; V-A, docs/rulings.md "V-A —
    ending a movement on a landform")."""
    if not on_area(here.table.area, base.polygon):
        return False
    blocked = here.blocked_for(base.size, within_mov)
    return all(base.polygon.intersection(shape).area <= 1e-4 for shape in blocked)


def pursuit_placement(
    state: GameState, fighter: str, enemy: str, reach: float
) -> tuple[ContactPlacement, float] | None:
    """VII-C-6 a / V-B-3: where ``fighter`` ends a pursuit move engaging ``enemy`` and how
    far his sight travels (cm), or None when the enemy is out of reach or no place in contact
    is free, or it would put somebody past his contact limit (II-E-3)."""
    here = field_of(state)
    if state.fighter(fighter).altitude != state.fighter(enemy).altitude:
        return None  # II-F-1: contact only within a level
    if beyond(here.base(fighter), here.base(enemy), reach + _EPS):
        return None  # no path is shorter than the straight line: out of reach
    if is_full(state, here, enemy, leaving=(fighter,)):
        return None  # II-E-3: he may take no more enemies
    through = pass_through(state, here, fighter)
    # V-A, CLARIFICATIONS §9: a pursuit of at most MOV x 1 crosses landforms of his size
    mov = movement(state, state.fighter(fighter))
    path = here.move_path(fighter, enemy, through, mov=mov, reach=reach + _EPS)
    if path is None or path.length > reach + _EPS:
        return None
    within = placement_filter(state, here, fighter, enemy)  # II-E-3
    placement = here.contact_position(fighter, enemy, reference=path.end, accept=within)
    if placement is None:
        return None
    travelled = path.length
    if math.dist(placement.base.sight, path.end) > 0.01:
        # The nearest free place is not where the path meets the base: measure to it.
        to = here.move_path(fighter, placement.base.sight, through, mov=mov, reach=reach + _EPS)
        if to is None or to.length > reach + _EPS:
            return None
        travelled = to.length
    if not _placement_ok(here, placement.base, travelled <= mov + _EPS):
        return None
    return placement, travelled


#: slack (cm) of :func:`within_reach`'s screen, beyond the rounding of a hypot
_SCREEN_SLACK_CM = 1e-6


def within_reach(state: GameState, fighter: str, enemies: list[str], reach: float) -> list[str]:
    """The ``enemies`` (in their order) that :func:`pursuit_placement` may place ``fighter``
    against with ``reach``: one numpy pass over their centres drops those whose centre is
    farther from his sight than ``reach`` and their outer radius (and the slack). Every
    point of a base lies within its outer radius of its centre, so the edge of a dropped one
    is farther than ``reach`` from the sight and :func:`pursuit_placement` would answer None
    at its straight-line test (``beyond``): the same moves, without asking of every enemy
    of a big army."""
    if len(enemies) < 8:
        return enemies
    here = field_of(state)
    sx, sy = here.base(fighter).sight
    bases = [here.base(e) for e in enemies]
    xs = np.fromiter((b.x for b in bases), float, len(bases))
    ys = np.fromiter((b.y for b in bases), float, len(bases))
    rs = np.fromiter((outer_radius(b) for b in bases), float, len(bases))
    limit = rs + (reach + _EPS + 2e-6 + _SCREEN_SLACK_CM)
    keep = np.hypot(xs - sx, ys - sy) <= limit
    return [enemies[k] for k in np.flatnonzero(keep).tolist()]


def _engaged_at(
    state: GameState, here: Field, fighter: str, base: Base, moved: dict[str, Base]
) -> tuple[str, ...]:
    """The enemies ``fighter`` touches once placed at ``base`` (II-E); ``moved``: the
    fighters pushed to make room (II-E-1), where they were pushed."""
    me = state.fighter(fighter).player
    return tuple(
        sorted(
            other
            for other in here.ids()
            if other != fighter
            and here.owners[other] != me
            and in_contact(base, moved.get(other, here.base(other)))
        )
    )


def _name(state: GameState, fighter: str) -> str:
    return f"{state.profile(state.fighter(fighter).profile).name} ({fighter})"


def table_pursuits(state: GameState, fighter: str, reach: int) -> list[Pursue]:
    """VII-C-6: the pursuit moves open to ``fighter`` with ``reach`` cm (MOV/2 rounded up)."""
    if not has_field(state) or not state.fighter(fighter).in_play:
        return stay_in_place(state, fighter, reach)
    here = field_of(state)
    graph = contact_graph(state)
    touching = tuple(sorted(graph[fighter])) if fighter in graph else ()
    moves = [Pursue(fighter, touching, "stay in place")]
    me = state.fighter(fighter).player
    enemies = sorted(i for i in here.ids() if here.owners[i] != me and i not in touching)
    for enemy in within_reach(state, fighter, enemies, float(reach)):
        found = pursuit_placement(state, fighter, enemy, reach)
        if found is None:
            continue
        placement, travelled = found
        # The pushed fighters (II-E-1) are indices into the field's others.
        others = [i for i in here.battlefield.fighters if i not in (fighter, enemy)]
        moved = {others[k]: b for k, b in placement.pushed}
        pushed = tuple((i, round(b.x, 4), round(b.y, 4)) for i, b in moved.items())
        engaged = _engaged_at(state, here, fighter, placement.base, moved)
        if enemy not in engaged:
            continue
        base = placement.base
        moves.append(
            Pursue(
                fighter,
                engaged,
                f"engage {_name(state, enemy)}",
                round(base.x, 4),
                round(base.y, 4),
                round(base.facing, 3),
                distance=round(travelled, 2),
                pushed=pushed,
            )
        )
    seen: set[str] = set()
    mov = movement(state, state.fighter(fighter))
    # the destinations are computed a few headings at a time, until enough are found
    spots = iter_destinations(state, fighter, float(reach), mov=mov, batch=FREE_MOVES)
    for spot in spots if FREE_MOVES > 0 else ():
        if spot.towards in seen or spot.distance <= 0.05:
            continue
        seen.add(spot.towards)
        moves.append(
            Pursue(
                fighter,
                (),
                f"move {spot.towards}",
                spot.x,
                spot.y,
                spot.facing,
                distance=spot.distance,
            )
        )
        if len(seen) >= FREE_MOVES:
            break
    return moves


def contribute(rules: RulesBuilder) -> None:
    """Pursuits on the table (VII-C-6)."""
    rules.pursuits(table_pursuits)
