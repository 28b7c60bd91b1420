"""Hypothesis properties of the geometry layer."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from confrontation.geometry import (
    Base,
    Table,
    distance,
    in_contact,
    nearest_contact_position,
    shortest_path,
)
from confrontation.geometry.bases import Shape

coord = st.floats(5, 115, allow_nan=False)
ycoord = st.floats(5, 55, allow_nan=False)
angle = st.floats(0, 360, allow_nan=False)
size = st.sampled_from(["small", "normal", "large", "very-large"])
shape: st.SearchStrategy[Shape] = st.sampled_from(["square", "round"])


@st.composite
def bases(draw: st.DrawFn) -> Base:
    return Base.of(draw(size), draw(shape), draw(coord), draw(ycoord), draw(angle))


@st.composite
def touching_pair(draw: st.DrawFn) -> tuple[Base, Base]:
    """A base and another pushed against it along a random direction (often in contact)."""
    a = draw(bases())
    b = draw(bases())
    t = math.radians(draw(angle))
    ux, uy = math.cos(t), math.sin(t)
    lo, hi = 0.0, 20.0
    for _ in range(40):  # bisect the centre distance at which they just touch
        mid = (lo + hi) / 2
        if distance(a, b.moved(a.x + ux * mid, a.y + uy * mid)) > 0:
            hi = mid
        else:
            lo = mid
    return a, b.moved(a.x + ux * hi, a.y + uy * hi)


@given(bases(), bases())
def test_distance_symmetric_and_non_negative(a: Base, b: Base) -> None:
    d = distance(a, b)
    assert d >= 0
    assert math.isclose(d, distance(b, a), abs_tol=1e-9)


@given(touching_pair())
def test_contact_is_bilateral(pair: tuple[Base, Base]) -> None:
    a, b = pair
    assert in_contact(a, b) == in_contact(b, a)


@st.composite
def obstacles(draw: st.DrawFn) -> list[BaseGeometry]:
    n = draw(st.integers(0, 5))
    out: list[BaseGeometry] = []
    for _ in range(n):
        x, y = draw(st.floats(20, 100)), draw(st.floats(5, 55))
        w, h = draw(st.floats(0.5, 12)), draw(st.floats(0.5, 12))
        out.append(box(x, y, x + w, y + h))
    return out


@settings(max_examples=40)
@given(obstacles(), ycoord, ycoord, st.floats(2.5, 6))
def test_path_avoids_obstacles_and_is_no_shorter_than_straight(
    obs: list[BaseGeometry], y0: float, y1: float, width: float
) -> None:
    start, goal = (8.0, y0), (112.0, y1)
    path = shortest_path(start, goal, obs, width, table=Table().area)
    if path is None:
        return
    line = path.line()
    assert path.length >= math.dist(start, goal) - 1e-9
    assert path.points[0] == start and path.end == goal
    for o in obs:
        assert not line.intersects(o.buffer(-1e-3))
        # and keeps (almost) half a base of clearance, curves being polygons -- unless the
        # start or the goal itself is closer than that (then only that clearance is kept)
        ends = min(o.distance(Point(start)), o.distance(Point(goal)))
        assert line.distance(o) >= min(width / 2, ends) * 0.98 - 1e-3


@settings(max_examples=30)
@given(bases(), bases(), st.lists(bases(), max_size=6))
def test_placed_base_never_overlaps_another(mover: Base, target: Base, others: list[Base]) -> None:
    others = [o for o in others if distance(o, target) > 0]
    placed = nearest_contact_position(mover, target, others, table=Table().area)
    if placed is None:
        return
    p = placed.base
    assert in_contact(p, target)
    shrunk = p.polygon.buffer(-0.006)
    assert not shrunk.intersects(target.polygon)
    for o in others:
        assert not shrunk.intersects(o.polygon)
    assert Table().area.buffer(0.006).covers(p.polygon)
