"""The twelfth round's shortcuts in a path question's step 4 (V-A) give exactly what the plain
computation gives (hypothesis, random layouts): the meeting boxes found in plain arithmetic
are those of the m x m matrix (``paths._box_pairs``), ``_touching`` finds the pairs a plain
loop over every pair finds, and ``_blocker`` built from the kept parts (not split again from
the merged multipolygon, the near polygons made once) has the very shapes of the plain
route: ``_eroded_union``, ``_near_box``, the goal base merged with the near polygons."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import paths
from confrontation.geometry.bases import Base
from confrontation.geometry.scenery import Scenery

#: boxes on a coarse grid: edges often exactly equal (closed boxes touching)
_coord = st.integers(0, 12).map(float)


@st.composite
def _boxes(draw: st.DrawFn) -> list[tuple[float, float, float, float]]:
    out = []
    for _ in range(draw(st.integers(0, 30))):
        x, y = draw(_coord), draw(_coord)
        out.append((x, y, x + draw(_coord) / 3, y + draw(_coord) / 3))
    return out


@pytest.mark.rule("V-A")
@settings(max_examples=300, deadline=None)
@given(_boxes())
def test_the_meeting_boxes_in_plain_arithmetic_are_the_matrix_ones(
    boxes: list[tuple[float, float, float, float]],
) -> None:
    m = len(boxes)
    bx = np.array(boxes, dtype=float).reshape(m, 4)
    meet = (
        (bx[:, None, 0] <= bx[None, :, 2])
        & (bx[None, :, 0] <= bx[:, None, 2])
        & (bx[:, None, 1] <= bx[None, :, 3])
        & (bx[None, :, 1] <= bx[:, None, 3])
    )
    want_a, want_b = np.nonzero(np.triu(meet, 1))
    got_a, got_b = paths._box_pairs(boxes)
    assert got_a.tolist() == want_a.tolist()
    assert got_b.tolist() == want_b.tolist()


def _question(
    placed: dict[str, Base], elements: tuple[Scenery, ...], width: float, reach: float
) -> paths._Question | None:
    """The first fighter's question towards the last one, set up to step 3."""
    ids = list(placed)
    start, goal = placed[ids[0]].sight, placed[ids[-1]]
    rest = [placed[i].polygon for i in ids[1:-1]] + [s.footprint for s in elements]
    q = paths._Question(start, goal, reach)
    if not paths._near_ends(q, rest, width / 2.0):
        return None
    q.pieces.append(paths._framed(TABLE.area, width / 2.0))
    return q


def _plain_blocker(q: paths._Question) -> tuple[BaseGeometry, BaseGeometry, BaseGeometry]:
    """Step 4 as the eleventh round built it: others, the near others, the blocker."""
    assert q.target is not None
    others = paths._eroded_union(q.pieces)
    polys, near = paths._near_box(others, q.target.bounds)
    near_others = others if near.all() else shapely.multipolygons(polys[near])
    target = paths._eroded_target(q.target)
    if not len(polys) or near.all():
        return others, near_others, shapely.union(others, target)
    merged = shapely.union(shapely.multipolygons(polys[near]), target)
    out = np.concatenate((polys[~near], shapely.get_parts(np.array([merged], dtype=object))))
    return others, near_others, shapely.multipolygons(out)


@pytest.mark.rule("V-A")
@settings(max_examples=80, deadline=None)
@given(
    fighters(n_max=14),
    scenery(),
    st.sampled_from([2.5, 3.0, 4.0, 8.0]),
    st.sampled_from([float("inf"), 15.0, 40.0]),
)
def test_the_blocker_from_the_kept_parts_is_the_plain_one(
    placed: dict[str, Base], elements: tuple[Scenery, ...], width: float, reach: float
) -> None:
    q = _question(placed, elements, width, reach)
    if q is None:
        return
    # the pairs of touching pieces: those of a plain loop over every pair
    shapes = [p.shape for p in q.pieces]
    want = [
        (i, j)
        for i in range(len(shapes))
        for j in range(i + 1, len(shapes))
        if paths._boxes_meet(q.pieces[i].box, q.pieces[j].box) and shapes[i].intersects(shapes[j])
    ]
    a, b = paths._touching(q.pieces)
    assert list(zip(a.tolist(), b.tolist(), strict=True)) == want
    others, near_others, blocker = _plain_blocker(q)
    paths._blocker(q)
    assert q.others is not None and q.near_others is not None and q.blocker is not None
    assert shapely.equals_exact(q.others, others, 0.0)
    assert shapely.equals_exact(q.near_others, near_others, 0.0)
    assert shapely.equals_exact(q.blocker, blocker, 0.0)
    # and the same coordinates in the same order (what the goal set and the A* read)
    for got, plain in ((q.others, others), (q.near_others, near_others), (q.blocker, blocker)):
        assert np.array_equal(shapely.get_coordinates(got), shapely.get_coordinates(plain))


_xy = st.tuples(
    st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=True),
    st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=True),
)


@pytest.mark.rule("V-A")
@settings(max_examples=300, deadline=None)
@given(_xy, _xy)
def test_the_points_and_segments_without_wrappers_are_shapelys(
    a: tuple[float, float], b: tuple[float, float]
) -> None:
    """The start point and the straight segment (``paths._point``, ``paths._segment``) are
    the geometries ``Point`` and ``LineString`` make: the same type, the same coordinates."""
    assert type(paths._point(a)) is type(Point(a))
    assert (
        shapely.get_coordinates(paths._point(a)).tobytes()
        == shapely.get_coordinates(Point(a)).tobytes()
    )
    got, want = paths._segment(a, b), LineString([a, b])
    assert type(got) is type(want)
    assert shapely.get_coordinates(got).tobytes() == shapely.get_coordinates(want).tobytes()
    assert shapely.equals_exact(got, want, 0.0)
