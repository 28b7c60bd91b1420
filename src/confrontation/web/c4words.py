"""A C4 unit's walk or run named in words on the browser's buttons (the point stays clickable
on the table): "walk 10 cm towards Player 2's Spearmen of the Lion", "run 20 cm to the hill",
"walk 10 cm north-east, towards the enemy".

The words, in this order: an enemy unit whose leader lies straight ahead (the menu's moves
towards an enemy, ``c4.actions.options``); a scenario's zone or an element of scenery the
destination lies in ("to"), or one within :data:`NEAR` cm of it ("towards"), not one the leader
already stands in or near (a unit in its deployment area walking about in it); else the compass
point on the map as the page draws it (north up) and whether it closes on the enemy's fighters
or leaves them.
"""

from __future__ import annotations

import math

from shapely.geometry import Point, Polygon

from confrontation.c4.actions import enemies
from confrontation.c4.choices import UnitAction
from confrontation.c4.narrate import unit_name
from confrontation.c4.state import C4State

NEAR = 5.0
"""A destination this close (cm) to a zone or an element of scenery is "towards" it."""
AHEAD = 0.002
"""A move this close in bearing (radians) to an enemy leader is a move "towards" his unit: the
menu's moves at an enemy (their points rounded to 0.001 cm); a compass point a degree off is
named by its compass point."""
COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")


def _place_name(name: str) -> str:
    words = name.replace("_", " ").replace("-", " ").strip()
    if words.lower().startswith("the ") or "'s " in words:
        return words
    return f"the {words}"


def _places(state: C4State) -> list[tuple[str, Polygon]]:
    places = [(z.name, Polygon(z.outline)) for z in (state.battle.zones if state.battle else ())]
    places += [(p.name, Polygon(p.outline)) for p in state.scenery]
    return [(n, shape) for n, shape in places if len(shape.exterior.coords) >= 4]


def compass(state: C4State, choice: UnitAction) -> str:
    """The compass point (north up, as the map is drawn) from the unit's leader to the
    destination."""
    leader = state.fighter(state.unit(choice.unit).leader)
    bearing = math.atan2(choice.y - leader.y, choice.x - leader.x)
    return COMPASS[round(bearing / (math.pi / 4)) % 8]


def move_words(state: C4State, choice: UnitAction) -> str | None:
    """The walk or run ``choice`` in words (None: not a walk or a run, or no move)."""
    if choice.action not in ("walk", "run"):
        return None
    unit = state.unit(choice.unit)
    leader = state.fighter(unit.leader)
    dx, dy = choice.x - leader.x, choice.y - leader.y
    far = math.hypot(dx, dy)
    if far < 0.05:
        return None
    head = f"{choice.action} {far:.0f} cm"
    bearing = math.atan2(dy, dx)
    for foe in enemies(state, unit):
        if not state.members(foe.id):
            continue
        their = state.fighter(foe.leader)
        towards = math.atan2(their.y - leader.y, their.x - leader.x)
        off = abs((bearing - towards + math.pi) % (2 * math.pi) - math.pi)
        if off <= AHEAD:
            return f"{head} towards {unit_name(foe.id)}"
    spot, here = Point(choice.x, choice.y), Point(leader.x, leader.y)
    places = [(n, s) for n, s in _places(state) if s.distance(here) > NEAR]  # not where it is
    inside = [(n, s) for n, s in places if s.contains(spot)]
    if inside:
        name = min(inside, key=lambda ns: ns[1].area)[0]
        return f"{head} to {_place_name(name)}"
    near = [(s.distance(spot), n) for n, s in places if s.distance(spot) <= NEAR]
    if near:
        return f"{head} towards {_place_name(min(near)[1])}"
    point = compass(state, choice)
    foes = [f for f in state.fighters if state.unit(f.unit).owner != unit.owner]
    if not foes:
        return f"{head} {point}"
    cx = sum(f.x for f in foes) / len(foes)
    cy = sum(f.y for f in foes) / len(foes)
    before = math.hypot(cx - leader.x, cy - leader.y)
    after = math.hypot(cx - choice.x, cy - choice.y)
    if after < before - far / 2:
        return f"{head} {point}, towards the enemy"
    if after > before + far / 2:
        return f"{head} {point}, away from the enemy"
    return f"{head} {point}"
