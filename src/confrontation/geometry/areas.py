"""Areas of effect on the table (II-C-1, II-C-2, II-F-2): which fighters a circle touches.

An area of effect is a radius around a point (a marker, a point of impact) or around the
base of a fighter (II-C-1). Distances are edge to edge, as everywhere (measure.py): a base
partially within the radius is within it. The rules of the effect itself (its radius, range,
duration) are in :mod:`confrontation.rules.effects`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from shapely.geometry import Point, Polygon

from confrontation.geometry.bases import Base
from confrontation.geometry.measure import distance, point_distance, wholly_within, within

XY = tuple[float, float]
Centre = Base | XY
_EPS = 1e-9


def reach(source: Base, target: Centre) -> float:
    """II-C-2: the distance a range is compared with: from the edge of the base of the
    fighter generating the effect to the point, or to the edge of the target's base."""
    if isinstance(target, Base):
        return distance(source, target)
    return point_distance(source, *target)


def touches(centre: Centre, radius: float, base: Base) -> bool:
    """II-C-1: is ``base`` in the area of ``radius`` cm around ``centre`` (a point or a
    fighter's base)? Partially within counts."""
    if radius < 0:
        raise ValueError(f"a radius is never negative, not {radius}")
    if isinstance(centre, Base):
        return within(centre, base, radius)
    return point_distance(base, *centre) <= radius + _EPS


def area_shape(centre: Centre, radius: float, quad_segs: int = 64) -> Polygon:
    """The area as a polygon (for drawing, and for wholly-within around a base).

    A radius below a micron is read as 0: GEOS cannot buffer by a subnormal distance."""
    if radius < 1e-4:
        radius = 0.0
    if isinstance(centre, Base):
        if centre.shape == "round":
            return Point(centre.x, centre.y).buffer(centre.radius + radius, quad_segs=quad_segs)
        return centre.polygon.buffer(radius, quad_segs=quad_segs)
    return Point(*centre).buffer(radius, quad_segs=quad_segs)


def wholly_inside(centre: Centre, radius: float, base: Base) -> bool:
    """Is the whole of ``base`` inside the area (for effects that say "wholly within")?

    Exact around a point or a round base; around a square base the area is a polygon of 64
    segments a quarter (under 1e-4 of the radius inside the true curve)."""
    if isinstance(centre, Base) and centre.shape == "square":
        return wholly_within(base, area_shape(centre, radius))
    cx, cy = (centre.x, centre.y) if isinstance(centre, Base) else centre
    r = radius + (centre.radius if isinstance(centre, Base) else 0.0)
    if base.shape == "round":
        return math.hypot(base.x - cx, base.y - cy) + base.radius <= r + _EPS
    return all(math.hypot(x - cx, y - cy) <= r + _EPS for x, y in base.corners())


def fighters_in_area(
    centre: Centre,
    radius: float,
    fighters: Mapping[str, Base],
    *,
    level: int | None = None,
    wholly: bool = False,
) -> list[str]:
    """II-C-1: the ids of the fighters the area touches (``wholly``: wholly inside it), in the
    order of ``fighters``. II-F-2: ``level`` is the altitude level of the fighter generating
    the effect, whose effect reaches only that level; None for an effect that says it
    reaches both levels. A fighter that is the centre of the area is in it (distance 0)."""
    test = wholly_inside if wholly else touches
    return [
        fid
        for fid, base in fighters.items()
        if (level is None or base.level == level) and test(centre, radius, base)
    ]


def marker_in_contact(source: Base, toward: XY, marker_radius: float = 0.0) -> XY:
    """II-C-2, 'Range: contact': where the centre of a marker of ``marker_radius`` cm goes so
    that it touches ``source``'s base on the side facing the point ``toward``."""
    if source.shape == "round":
        dx, dy = toward[0] - source.x, toward[1] - source.y
        n = math.hypot(dx, dy)
        if n < _EPS:
            raise ValueError("the marker's direction is the centre of the base")
        k = (source.radius + marker_radius) / n
        return (source.x + dx * k, source.y + dy * k)
    poly = source.polygon
    if poly.covers(Point(*toward)):
        raise ValueError("the marker's direction is inside the base")
    edge = poly.exterior.interpolate(poly.exterior.project(Point(*toward)))
    ex, ey = float(edge.x), float(edge.y)
    dx, dy = toward[0] - ex, toward[1] - ey
    n = math.hypot(dx, dy)
    return (ex + dx / n * marker_radius, ey + dy / n * marker_radius)
