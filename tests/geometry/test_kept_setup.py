"""The eleventh round's shortcuts in a path question's setup give what the full GEOS work
gives (hypothesis, random layouts): the straight answer's goal-set check inflates only the
obstacles that may touch the groups near the goal base (``paths._groups_meeting``), and
merges the same groups as ``_eroded_union`` of all of them."""

from __future__ import annotations

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import paths
from confrontation.geometry.bases import Base
from confrontation.geometry.scenery import Scenery

#: a table that is not a rectangle (a notch in one long edge): the frame has no free box
NOTCHED = Polygon([(0, 0), (120, 0), (120, 60), (70, 60), (60, 50), (50, 60), (0, 60)])


def _groups_of(
    pieces: list[paths._Inflated], window: tuple[float, float, float, float]
) -> list[int]:
    """The full computation: the members (indices) of the groups of touching pieces one of
    whose boxes meets ``window``."""
    a, b = paths._touching(pieces)
    group = list(range(len(pieces)))
    for i, j in zip(a.tolist(), b.tolist(), strict=True):
        gi, gj = group[i], group[j]
        if gi != gj:
            group = [min(gi, gj) if g in (gi, gj) else g for g in group]
    meeting = {group[i] for i, p in enumerate(pieces) if paths._boxes_meet(p.box, window)}
    return [i for i in range(len(pieces)) if group[i] in meeting]


@pytest.mark.rule("V-A")
@settings(max_examples=80, deadline=None)
@given(
    fighters(n_max=14),
    scenery(),
    st.sampled_from([2.5, 3.0, 4.0, 8.0]),
    st.booleans(),
    st.data(),
)
def test_the_groups_near_the_goal_base_are_those_of_all_the_pieces(
    placed: dict[str, Base],
    elements: tuple[Scenery, ...],
    width: float,
    notched: bool,
    data: st.DataObject,
) -> None:
    table: BaseGeometry = NOTCHED if notched else TABLE.area
    hw = width / 2.0
    goal = data.draw(st.sampled_from(list(placed)))
    window = placed[goal].polygon.bounds
    obstacles = [b.polygon for k, b in placed.items() if k != goal]
    obstacles += [s.footprint for s in elements]
    frame = paths._framed(table, hw)
    assert (frame.free is None) == notched
    pieces = [paths._inflated(o, hw) for o in obstacles] + [frame]
    want = [pieces[i] for i in _groups_of(pieces, window)]
    got = paths._groups_meeting(obstacles, hw, frame, window)
    assert [id(p) for p in got] == [id(p) for p in want]
    full = paths._eroded_union(pieces, window)
    assert shapely.equals_exact(paths._eroded_union(got, window), full, 0.0)


@pytest.mark.rule("V-A")
@settings(max_examples=40, deadline=None)
@given(fighters(n_max=6), scenery(), st.sampled_from([0.0, 0.7, 1.25, 2.0]))
def test_an_inflated_piece_erodes_and_finds_its_corners_as_the_full_computation(
    placed: dict[str, Base], elements: tuple[Scenery, ...], r: float
) -> None:
    """The erosion and the corners made when first asked for are those made at once."""
    shapes = [b.polygon for b in placed.values()] + [s.footprint for s in elements]
    for o in shapes:
        got = paths._inflated(o, r)
        g = paths._inflate(o, r)
        assert shapely.equals_exact(got.shape, g, 0.0)
        assert shapely.equals_exact(got.eroded, g.buffer(-paths.CLEAR_EPS), 0.0)
        assert got.corners.shape == paths._corners(g).shape
        assert (got.corners == paths._corners(g)).all()
        assert got.box == g.bounds
    frame = paths._framed(TABLE.area, r + 0.5)
    assert not len(frame.corners)
    assert shapely.equals_exact(
        frame.eroded, paths._frame(TABLE.area, r + 0.5).buffer(-paths.CLEAR_EPS), 0.0
    )
