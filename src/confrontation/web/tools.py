"""The table's tools: the ruler (distances between points and bases, I-B), the line of sight
between two fighters (II-D-3), and where a click sends a moving fighter — the listed place
taken, the path the engine will use (V-A), or why the point is refused."""

from __future__ import annotations

import math
from typing import Any

from confrontation.engine.actions.shared import action_of
from confrontation.engine.core.kinds import QuestionKind as K
from confrontation.engine.core.questions import Place, Question
from confrontation.engine.core.registry import EngineError
from confrontation.engine.core.state import GameState
from confrontation.engine.table.field import field_of, movement, pass_through
from confrontation.geometry.bases import Base
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
