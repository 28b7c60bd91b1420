"""The table's tools: the ruler (distances between points and bases, I-B), the line of sight
between two fighters (II-D-3), where a click sends a moving fighter — the listed place
taken, the path the engine will use (V-A), or why the point is refused — and where a click
deploys a fighter (III-B-2), or why not."""

from __future__ import annotations

import math
from typing import Any

from confrontation.engine.actions.movement import turned
from confrontation.engine.actions.shared import action_of
from confrontation.engine.core.kinds import QuestionKind as K
from confrontation.engine.core.questions import Place, Question
from confrontation.engine.core.registry import EngineError
from confrontation.engine.core.state import GameState
from confrontation.engine.table.contact_limits import placement_problem
from confrontation.engine.table.field import (
    GRID_CM,
    base_of,
    deployment_zone,
    field_of,
    median_facing,
    movement,
    pass_through,
    scenery_of,
)
from confrontation.geometry.bases import Base, size_rank
from confrontation.geometry.measure import distance, point_distance

SNAP_CM = 3.0
"""A click within this many cm of a listed destination takes it (the base's centre)."""


def _base(state: GameState, ref: str) -> Base | None:
    """The base of the fighter in play named ``ref`` (None: no such fighter on the table)."""
    here = field_of(state)
    return here.base(ref) if ref in here.battlefield.fighters else None


def _point(ref: str) -> tuple[float, float] | None:
    parts = ref.split(",")
    if len(parts) != 2:
        return None
    try:
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        return None
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


def measure(state: GameState, a: str, b: str) -> dict[str, Any]:
    """The distance between ``a`` and ``b``, each a fighter in play (his base's edge, I-B)
    or a point ``"x,y"`` in cm; raises ValueError for anything else."""
    ends: list[Base | tuple[float, float]] = []
    for ref in (a, b):
        found: Base | tuple[float, float] | None = _base(state, ref) or _point(ref)
        if found is None:
            raise ValueError(f"{ref!r} is neither a fighter on the table nor a point 'x,y'")
        ends.append(found)
    one, two = ends
    if isinstance(one, Base) and isinstance(two, Base):
        cm, between = distance(one, two), "bases"
    elif isinstance(one, Base):
        assert isinstance(two, tuple)
        cm, between = point_distance(one, *two), "base and point"
    elif isinstance(two, Base):
        cm, between = point_distance(two, *one), "base and point"
    else:
        cm, between = math.dist(one, two), "points"
    return {"a": a, "b": b, "cm": round(cm, 2), "between": between}


def sight(state: GameState, a: str, b: str) -> dict[str, Any]:
    """II-D-3: what fighter ``a`` sees of fighter ``b`` (full, partial, none), as the engine
    decides it (his field of view, the fighters and scenery in between)."""
    here = field_of(state)
    for ref in (a, b):
        if ref not in here.battlefield.fighters:
            raise ValueError(f"{ref!r} is not a fighter on the table")
    seen = here.sight(a, b)
    word = {"SEES": "full", "PARTIAL": "partial", "NONE": "none"}[seen.name]
    return {"a": a, "b": b, "sight": word, "text": f"{a} {seen.value} {b} (II-D-3)"}


def destination(state: GameState, asked: Question, x: float, y: float) -> dict[str, Any]:
    """A click at (x, y) cm while a walk, run or move under cover asks where to (V-B): the
    listed place it takes (its centre within :data:`SNAP_CM`) with the path the engine uses
    to get there, or the reason the point is refused."""
    if asked.kind != K.DESTINATION:
        raise ValueError("no destination is being asked")
    action = action_of(state)
    here = field_of(state)
    mover = action.fighter
    template = here.base(mover)
    budget = max(movement(state, state.fighter(mover)) - action.moved, 0.0)
    through = pass_through(state, here, mover)
    places = [(i, o.choice) for i, o in enumerate(asked.options) if isinstance(o.choice, Place)]
    if not places:
        return {"index": None, "path": None, "refused": "he finds no room to move (V-B)"}
    index, place = min(places, key=lambda p: math.dist((p[1].x, p[1].y), (x, y)))
    near = math.dist((place.x, place.y), (x, y))

    def way(goal: tuple[float, float]) -> Any:
        return here.move_path(mover, goal, through, mov=budget, potential=action.potential)

    if near <= SNAP_CM:
        end = template.moved(place.x, place.y, place.facing)
        path = way(end.sight)
        points = [list(p) for p in path.points] if path is not None else None
        length = round(path.length, 2) if path is not None else None
        return {"index": index, "path": points, "length": length, "refused": None}
    # a point the engine does not list: say why, as the movement rules would
    heading = math.degrees(math.atan2(y - template.y, x - template.x)) % 360.0
    there = template.moved(x, y, heading)
    reason: str
    problem = here.spot_problem(mover, there, enemies_apart=True)
    path = None if problem is not None else way(there.sight)
    if problem is not None:
        reason = f"his base would be {problem} there"
    elif path is None:
        reason = "no way there for his base: scenery or fighters close it (V-A)"
    elif path.length > action.potential + 1e-6:
        reason = (
            f"{path.length:.1f} cm by the way he must take, beyond the {action.potential:g} cm "
            "of this move (V-A, V-B)"
        )
    else:
        reason = (
            f"not one of the {len(places)} places the engine offers (straight moves towards "
            f"the enemies, scenery, the centre and eight directions, V-A); the nearest is "
            f"{near:.1f} cm away"
        )
    points = [list(p) for p in path.points] if path is not None else None
    return {"index": None, "path": points, "nearest": index, "refused": reason}


def safe_destination(state: GameState, asked: Question, x: float, y: float) -> dict[str, Any]:
    """:func:`destination`, an engine error turned into a refusal."""
    try:
        return destination(state, asked, x, y)
    except EngineError as error:
        return {"index": None, "path": None, "refused": str(error)}


def deployment(state: GameState, asked: Question, x: float, y: float) -> dict[str, Any]:
    """A click at (x, y) cm while a fighter is deployed (III-B-2): the listed place it takes
    — the nearest, within a grid step of a point where his base may stand, within
    :data:`SNAP_CM` of any other — or the reason the point is refused: off the table, outside
    his deployment area (III-A-1: its lines are open), on another base, on scenery he cannot
    stand on or on scenario scenery (III-B-2, XX-A-3), a Scout within his MOV of scenario
    scenery (XX-A-3), someone past his contact limit (II-E-3)."""
    if asked.kind != K.DEPLOY or asked.player is None:
        raise ValueError("no deployment is being asked")
    places = [(i, o.choice) for i, o in enumerate(asked.options) if isinstance(o.choice, Place)]
    if not places:
        return {"index": None, "refused": "no room left in his deployment area (III-B-2)"}
    index, place = min(places, key=lambda p: math.dist((p[1].x, p[1].y), (x, y)))
    near = math.dist((place.x, place.y), (x, y))
    fighter = _deploying(state, asked)
    reason = _deploy_problem(state, fighter, x, y) if fighter is not None else None
    if near <= SNAP_CM or (reason is None and near <= GRID_CM):
        return {"index": index, "refused": None}
    if reason is None:
        reason = (
            f"not one of the {len(places)} places offered (a grid {GRID_CM:g} cm apart, "
            f"III-B-2); the nearest is {near:.1f} cm away"
        )
    return {"index": None, "nearest": index, "refused": reason}


def _deploying(state: GameState, asked: Question) -> str | None:
    """The fighter the deployment question places (the first of the activated cards' fighters
    not on the table yet, as the engine takes them)."""
    current = state.activation.current if state.activation is not None else None
    if current is None:
        return None
    for fighter_id in current.fighters:
        if fighter_id not in current.done and not state.fighter(fighter_id).on_table:
            return fighter_id
    return None


def _deploy_problem(state: GameState, fighter_id: str, x: float, y: float) -> str | None:
    """Why his base may not stand at (x, y) facing the median line (None: it may)."""
    fighter = state.fighter(fighter_id)
    here = field_of(state)
    base = base_of(state, fighter).moved(x, y, median_facing(state, fighter.player))
    shape = base.polygon
    ground = state.battleground
    if ground is None:
        return None
    if not (0 <= x <= ground.width and 0 <= y <= ground.height):
        return "off the table"
    zone = deployment_zone(state, fighter.player)
    if not zone.area.buffer(1e-6).covers(shape):
        minx, miny, maxx, maxy = (round(v, 1) for v in zone.area.bounds)
        return (
            f"his base would not be wholly inside his deployment area (x {minx:g}-{maxx:g}, "
            f"y {miny:g}-{maxy:g} cm; III-A-1: no base touches its lines)"
        )
    for other in here.ids():
        if here.base(other).polygon.intersection(shape).area > 1e-4:
            name = state.profile(state.fighter(other).profile).name
            return f"his base would overlap {name}'s ({other}, I-B)"
    rank = size_rank(base.size)
    for element in here.scenery:
        if (not element.passable or element.rank >= rank) and shape.intersects(element.footprint):
            return (
                f"his base would stand on {element.name}, which he cannot cross "
                "(impassable, or of his size or larger: III-B-2)"
            )
    profile = state.profile(fighter.profile)
    scout = any(a.split("/")[0].strip().casefold() == "scout" for a in profile.abilities)
    for piece in ground.scenery or ():
        if not piece.scenario:
            continue
        footprint = scenery_of(piece).footprint
        if shape.intersects(footprint):
            return f"his base would stand on scenario scenery ({piece.name}, XX-A-3)"
        if scout and float(shape.distance(footprint)) <= profile.mov:
            return (
                f"a Scout deploys farther than his MOV ({profile.mov:g} cm) from scenario "
                f"scenery ({piece.name}, XX-A-3)"
            )
    limit = placement_problem(state, here, {fighter_id: base})
    if limit is not None:
        return f"someone would be past his contact limit: {limit}"
    return None


def turned_place(state: GameState, asked: Question, place: Place, facing: float) -> Place:
    """``place``, an option of ``asked``, turned to ``facing`` as its question lets it be: a
    deployment's about the base's centre (III-B-2), a destination's about his sight (V-A,
    ``engine.actions.movement.turned``)."""
    if asked.kind == K.DEPLOY:
        return Place(place.x, place.y, facing)
    return turned(state, place, facing)
