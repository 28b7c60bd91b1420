"""The cached footprints of :class:`Base` are the very shapes built the plain way."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon

from confrontation.geometry.bases import ROUND_QUAD_SEGS, Base, base_table, size_rank

coords = st.floats(-50.0, 200.0, allow_nan=False)
facings = st.floats(-360.0, 360.0, allow_nan=False)
sizes = st.sampled_from([10.0, 20.0, 25.0, 30.0, 37.5, 40.0, 50.0, 60.0, 80.0])


def _plain_corners(b: Base) -> list[tuple[float, float]]:
    a = math.radians(b.facing)
    fx, fy = math.cos(a), math.sin(a)
    lx, ly = -fy, fx
    hw, hd = b.width / 2.0, b.depth / 2.0
    return [
        (b.x + fx * hd - lx * hw, b.y + fy * hd - ly * hw),
        (b.x + fx * hd + lx * hw, b.y + fy * hd + ly * hw),
        (b.x - fx * hd + lx * hw, b.y - fy * hd + ly * hw),
        (b.x - fx * hd - lx * hw, b.y - fy * hd - ly * hw),
    ]


@settings(max_examples=300, deadline=None)
@given(coords, coords, facings, sizes, sizes)
def test_square_footprint_is_the_plain_polygon(
    x: float, y: float, facing: float, w: float, d: float
) -> None:
    b = Base(x, y, facing, "square", w, d)
    assert b.corners() == _plain_corners(b)
    plain = Polygon(_plain_corners(b))
    assert shapely.get_coordinates(b.polygon).tolist() == shapely.get_coordinates(plain).tolist()


@settings(max_examples=300, deadline=None)
@given(coords, coords, sizes)
def test_round_footprint_is_the_buffered_point(x: float, y: float, w: float) -> None:
    b = Base(x, y, 90.0, "round", w, w)
    plain = Point(x, y).buffer(w / 20.0, quad_segs=ROUND_QUAD_SEGS)
    assert shapely.get_coordinates(b.polygon).tolist() == shapely.get_coordinates(plain).tolist()
    assert b.polygon.equals_exact(plain, 0.0)


def test_a_changed_base_has_its_own_footprint() -> None:
    a = Base(10.0, 10.0, 90.0, "square", 25.0, 25.0)
    moved = a.moved(10.5, 10.0)
    assert a.polygon.bounds != moved.polygon.bounds
    assert a.corners() != moved.corners()
    a.corners().append((0.0, 0.0))  # a caller's copy: the kept corners are untouched
    assert len(a.corners()) == 4


def test_size_rank_is_kept_and_an_unknown_size_still_refused() -> None:
    assert size_rank("normal") == size_rank("normal") == base_table().rank("normal")
    for _ in range(2):  # a refusal is not kept as an answer
        with pytest.raises(ValueError, match="unknown size"):
            size_rank("enormous-ish")
