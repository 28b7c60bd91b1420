"""The ninth round's shortcuts in a path question's setup give what the full GEOS work gives
(hypothesis, random layouts): the goal base merged only with the obstacles near it
(``paths._with_target``) is the same shape as the full union, and the goal set cut only by
the groups near the goal base (``_eroded_union``'s window) is the full one."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import paths
from confrontation.geometry.bases import Base
from confrontation.geometry.scenery import Scenery


def _question(
    placed: dict[str, Base], elements: tuple[Scenery, ...], width: float
) -> paths._Question | None:
    """The first fighter's question towards the last one, set up to step 4."""
    ids = list(placed)
    start, goal = placed[ids[0]].sight, placed[ids[-1]]
    rest = [placed[i].polygon for i in ids[1:-1]] + [s.footprint for s in elements]
    q = paths._Question(start, goal, float("inf"))
    if not paths._near_ends(q, rest, width / 2.0):
        return None
    q.pieces.append(paths._framed(TABLE.area, width / 2.0))
    paths._blocker(q)
    return q


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(fighters(n_max=10), scenery(), st.sampled_from([2.5, 3.0, 4.0]))
def test_the_target_merged_near_is_the_full_union(
    placed: dict[str, Base], elements: tuple[Scenery, ...], width: float
) -> None:
    q = _question(placed, elements, width)
    if q is None or q.others is None or q.target is None:
        return
    target = paths._eroded_target(q.target)
    full = shapely.union(q.others, target)
    polys, close = paths._near_box(q.others, q.target.bounds)
    near = paths._with_target(q.others, polys, close, target)
    assert near.symmetric_difference(full).area <= 1e-9
    # the same answers to the search's questions: corners inside, legs between them
    pts = shapely.get_coordinates(full)[::3]
    assert (
        shapely.contains_xy(near, pts[:, 0], pts[:, 1])
        == shapely.contains_xy(full, pts[:, 0], pts[:, 1])
    ).all()
    segs = shapely.linestrings(np.stack((pts[:-1], pts[1:]), axis=1)) if len(pts) > 1 else []
    assert (shapely.intersects(near, segs) == shapely.intersects(full, segs)).all()


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(fighters(n_max=10), scenery(), st.sampled_from([2.5, 3.0, 4.0]))
def test_the_goal_set_cut_by_the_groups_near_it_is_the_full_one(
    placed: dict[str, Base], elements: tuple[Scenery, ...], width: float
) -> None:
    ids = list(placed)
    target = placed[ids[-1]].polygon
    rest = [placed[i].polygon for i in ids[:-1]] + [s.footprint for s in elements]
    pieces = [paths._inflated(o, width / 2.0) for o in rest]
    pieces.append(paths._framed(TABLE.area, width / 2.0))
    full = paths._eroded_union(pieces)
    near = paths._eroded_union(pieces, target.bounds)
    ring = target.exterior
    cut_full = ring.difference(full) if not full.is_empty else ring
    cut_near = ring.difference(near) if not near.is_empty else ring
    assert shapely.equals_exact(cut_full, cut_near, 0.0) or (
        cut_full.is_empty and cut_near.is_empty
    )
