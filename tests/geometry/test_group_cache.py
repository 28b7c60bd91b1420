"""The merged-and-eroded groups of touching obstacles kept across battlefields
(``paths._eroded_group``) equal the groups merged from scratch, and so do the paths of the
plain search that uses them (hypothesis, random layouts, a fighter moved between two
questions)."""

from __future__ import annotations

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import paths
from confrontation.geometry.bases import Base
from confrontation.geometry.paths import _eroded_union, _inflated, _search
from confrontation.geometry.scenery import Scenery


def _from_scratch() -> None:
    paths._GROUPS.clear()


@pytest.mark.rule("V-A")
@settings(max_examples=40, deadline=None)
@given(fighters(n_max=10), scenery(), st.sampled_from([2.5, 3.0, 4.0]), st.data())
def test_kept_groups_equal_groups_from_scratch(
    placed: dict[str, Base], elements: tuple[Scenery, ...], width: float, data: st.DataObject
) -> None:
    shapes = [b.polygon for b in placed.values()] + [s.footprint for s in elements]
    pieces = [_inflated(o, width / 2.0) for o in shapes]
    first = _eroded_union(pieces)  # fills the cache
    # a fighter moves: the other groups come from the cache
    ids = list(placed)
    moved = data.draw(st.sampled_from(ids))
    dx, dy = data.draw(st.floats(-3, 3)), data.draw(st.floats(-3, 3))
    after = {i: (b.moved(b.x + dx, b.y + dy) if i == moved else b) for i, b in placed.items()}
    shapes2 = [b.polygon for b in after.values()] + [s.footprint for s in elements]
    pieces2 = [_inflated(o, width / 2.0) for o in shapes2]
    kept = _eroded_union(pieces2)
    again = _eroded_union(pieces)
    _from_scratch()
    assert shapely.equals_exact(again, _eroded_union(pieces), 0.0)
    _from_scratch()
    assert shapely.equals_exact(kept, _eroded_union(pieces2), 0.0)
    assert shapely.equals_exact(first, again, 0.0)
    # the plain search gives the same path with the kept groups as from scratch
    start = after[ids[0]].sight
    goal = after[ids[-1]]
    rest = [after[i].polygon for i in ids[1:-1]] + [s.footprint for s in elements]
    warm = _search(start, goal, rest, width, table=TABLE.area)
    _from_scratch()
    cold = _search(start, goal, rest, width, table=TABLE.area)
    assert (warm is None) == (cold is None)
    if warm is not None and cold is not None:
        assert warm.points == cold.points


def test_a_group_is_kept_only_for_the_same_shapes() -> None:
    """Two touching discs are merged once; the same discs again come from the cache, and
    other discs (even at the same place) are merged afresh."""
    a, b = shapely.Point(0, 0).buffer(1.0), shapely.Point(1.5, 0).buffer(1.0)
    first = paths._eroded_group([a, b])
    assert paths._eroded_group([a, b]) is first
    c = shapely.Point(0, 0).buffer(1.0)
    other = paths._eroded_group([c, b])
    assert other is not first
    assert shapely.equals_exact(other, first, 0.0)
