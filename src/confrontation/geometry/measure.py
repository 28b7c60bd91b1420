"""Distances on the table, edge to edge (V-A, II-C-1, II-C-2), in cm.

Distances between bases are measured edge to edge and are 0 when the bases touch or
overlap. A base "partially within" a distance counts as within it: the shorter distance is
the one that counts (:func:`within`). Round bases are measured exactly (not as polygons).
Fighters at different altitude levels are measured on the table (horizontal distance).
"""

from __future__ import annotations

import math

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from confrontation.geometry.bases import Base


def _point_to_rect(b: Base, px: float, py: float) -> float:
    """Distance from a point to a (rotated) square base; 0 inside."""
    fx, fy = b.front
    dx, dy = px - b.x, py - b.y
    along = dx * fx + dy * fy  # depth axis
    across = -dx * fy + dy * fx  # width axis
    qx = max(abs(across) - b.width / 2.0, 0.0)
    qy = max(abs(along) - b.depth / 2.0, 0.0)
    return math.hypot(qx, qy)


def point_distance(b: Base, px: float, py: float) -> float:
    """Shortest distance from the edge of base ``b`` to the point (px, py)."""
    if b.shape == "round":
        return max(math.hypot(px - b.x, py - b.y) - b.radius, 0.0)
    return _point_to_rect(b, px, py)


def distance(a: Base, b: Base) -> float:
    """Edge-to-edge distance between two bases (0 if touching or overlapping)."""
    if a.shape == "round" and b.shape == "round":
        return max(math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius, 0.0)
    if a.shape == "round":
        return max(_point_to_rect(b, a.x, a.y) - a.radius, 0.0)
    if b.shape == "round":
        return max(_point_to_rect(a, b.x, b.y) - b.radius, 0.0)
    key = (a, b)
    found = _SQUARE_GAPS.get(key)
    if found is None:
        if len(_SQUARE_GAPS) >= _SQUARE_GAPS_SIZE:
            _SQUARE_GAPS.clear()
        found = _SQUARE_GAPS[key] = float(a.polygon.distance(b.polygon))
    return found


#: the distance between two square bases, kept per pair of base values (GEOS answers it;
#: the same pair is asked again and again while the two stand still)
_SQUARE_GAPS: dict[tuple[Base, Base], float] = {}
_SQUARE_GAPS_SIZE = 65536


def geometry_distance(b: Base, geom: BaseGeometry) -> float:
    """Edge-to-edge distance between a base and any shape (scenery footprint, zone)."""
    if b.shape == "round":
        return max(float(Point(b.x, b.y).distance(geom)) - b.radius, 0.0)
    return float(b.polygon.distance(geom))


def within(a: Base, b: Base, cm: float) -> bool:
    """Is ``b`` within ``cm`` of ``a``? Partially within counts (the shorter distance)."""
    return distance(a, b) <= cm + 1e-9


def wholly_within(b: Base, area: BaseGeometry) -> bool:
    """Is the whole base inside ``area`` (a zone, a deployment area)?"""
    return bool(area.buffer(1e-6).covers(b.polygon))


def beyond(mover: Base, target: Base, cm: float) -> bool:
    """Is ``target``'s base more than ``cm`` from ``mover``'s sight (with 1e-6 cm to spare
    for rounding)? Then every path of his sight to its edge (V-A, V-B-3) is longer than
    ``cm``: no path is shorter than the straight line, and a round base's polygon lies
    inside its circle."""
    sx, sy = mover.sight
    return point_distance(target, sx, sy) > cm + 1e-6
