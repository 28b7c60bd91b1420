"""The ninth round's shortcuts in a path question's setup give what the full GEOS work gives
(hypothesis, random layouts): the corner screen (``paths._maybe_blocked``) never lets through
a corner the blocker holds, the goal base merged only with the obstacles near it
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
    q.frame_free = paths._frame_free(TABLE.area, width / 2.0)
    paths._blocker(q)
    return q


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(fighters(n_max=10), scenery(), st.sampled_from([2.5, 3.0, 4.0]))
def test_the_corner_screen_lets_through_every_blocked_corner(
    placed: dict[str, Base], elements: tuple[Scenery, ...], width: float
) -> None:
    q = _question(placed, elements, width)
    if q is None:
        return
    inflated = q.pieces[: q.n_obstacles]
    if not inflated:
        return
    corners = np.vstack([c.corners for c in inflated])
    if not len(corners):
        return
    held = shapely.contains_xy(q.blocker, corners[:, 0], corners[:, 1])
    maybe = paths._maybe_blocked(q, inflated, corners)
    assert not (held & ~maybe).any()


def test_the_corner_screen_skips_lone_corners_and_keeps_those_near_the_edge() -> None:
    """A base alone in the middle of the table: none of its corners needs a GEOS test; one
    at the table's edge: those beyond the free rectangle do."""
    x1, y1 = TABLE.area.bounds[2:]
    middle = Base.of("normal", "square", x1 / 2, y1 / 2)
    edge = Base.of("normal", "square", 1.5, y1 / 2)
    for base, expected in ((middle, False), (edge, True)):
        q = paths._Question((10.0, 10.0), (20.0, 10.0), float("inf"))
        assert paths._near_ends(q, [base.polygon], 1.25)
        q.pieces.append(paths._framed(TABLE.area, 1.25))
        q.frame_free = paths._frame_free(TABLE.area, 1.25)
        paths._blocker(q)
        corners = q.pieces[0].corners
        assert bool(paths._maybe_blocked(q, q.pieces[:1], corners).any()) is expected


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
