"""The tenth round's shortcuts of the path search (issue 22, paths7) give the very answers of
the full computation:

- a bounded search leaves out the corners whose lower bound (distance to the start plus
  distance to the goal set's box, ``paths._lower_bounds``) passes the bound: the bound must
  never exceed the true shortest way through the corner (checked corner by corner against
  GEOS, and shown to catch a bound that is not one), and the search's answers must be those
  of the search without the cut;
- a corner's goal legs are tested together in one GEOS call (``paths._GoalLegs.test``): each
  flag must be the single-leg test's (``_Question.clear``), and the answers those of the
  search testing each leg alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point
from test_exact_paths import TABLE, battle

from confrontation.geometry import Base, paths

Points = tuple[tuple[float, float], ...] | None
Bounds = Callable[[paths._Question, np.ndarray], np.ndarray]


def _question(
    mover: Base, goal: tuple[float, float] | Base, obstacles: list[shapely.Geometry]
) -> paths._Question | None:
    """Steps 3-5 of the search, unbounded; None when no goal can be reached."""
    q = paths._Question(mover.sight, goal, math.inf)
    if not paths._near_ends(q, obstacles, mover.width / 2.0):
        return None
    q.pieces.append(paths._framed(TABLE.area, mover.width / 2.0))
    if not paths._blocker(q) or not paths._goal_set(q):
        return None
    return q


def _sound(q: paths._Question, bounds: Bounds) -> bool:
    """Is ``bounds`` at most each corner's distance to the start plus its distance to the
    goal set (GEOS), the shortest any way through it can be?"""
    corners = paths._convex_corners(q)
    if not len(corners):
        return True
    xy = corners[:, :2]
    way = np.hypot(xy[:, 0] - q.start[0], xy[:, 1] - q.start[1]) + shapely.distance(
        q.goal_set, shapely.points(xy)
    )
    return bool((bounds(q, corners) <= way + 1e-9).all())


def _answer(
    mover: Base, goal: tuple[float, float] | Base, obstacles: list[shapely.Geometry], reach: float
) -> Points:
    path = paths.shortest_path(
        mover.sight, goal, obstacles, mover.width, table=TABLE.area, reach=reach
    )
    return None if path is None else path.points


def _all_corners(q: paths._Question, corners: np.ndarray) -> np.ndarray:
    """No cut: every corner's bound 0."""
    return np.zeros(len(corners))


def _tested_one_by_one(
    self: paths._GoalLegs, q: paths._Question, p: tuple[float, float], first: tuple[float, float]
) -> bool:
    """``_GoalLegs.test`` as the search did before: each leg alone."""
    self.clear = [q.clear(p, (x, y)) for _, x, y in self.legs]
    return q.clear(p, first)


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(battle())
def test_the_corners_lower_bound_is_a_lower_bound(
    drawn: tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]],
) -> None:
    mover, goal, obstacles = drawn
    q = _question(mover, goal, obstacles)
    if q is None:
        return
    assert _sound(q, paths._lower_bounds)


@pytest.mark.rule("V-A")
def test_the_soundness_check_catches_a_bound_that_is_not_one() -> None:
    """A 'bound' measured to the goal base's centre is too long for the corners beside the
    base: the check fails on it."""
    target = Base.of("normal", "square", 60.0, 30.0, 0.0)
    other = Base.of("normal", "square", 60.0 + 2.5, 30.0, 0.0)
    mover = Base.of("normal", "square", 20.0, 30.0, 0.0)
    q = _question(mover, target, [other.polygon])
    assert q is not None

    def to_centre(q: paths._Question, corners: np.ndarray) -> np.ndarray:
        x, y = corners[:, 0], corners[:, 1]
        out: np.ndarray = np.hypot(x - q.start[0], y - q.start[1]) + np.hypot(x - 60.0, y - 30.0)
        return out

    assert _sound(q, paths._lower_bounds)
    assert not _sound(q, to_centre)


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(battle(), st.sampled_from([None, -0.5, -1e-3, 0.0, 1e-3, 0.5, 3.0]))
def test_the_corner_cut_keeps_the_bounded_answers(
    drawn: tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]],
    off: float | None,
) -> None:
    """Bounded questions (reach: the unbounded answer's length, a little more or less; or
    twice the straight distance) answer as the search without the cut."""
    mover, goal, obstacles = drawn
    paths.path_search.cache_clear()
    whole = _answer(mover, goal, obstacles, math.inf)
    if whole is None or off is None:
        end = goal.polygon if isinstance(goal, Base) else Point(goal)
        reach = end.distance(Point(mover.sight)) * 2.0
    else:
        reach = max(paths.Path(whole).length + off, 0.0)
    paths.path_search.cache_clear()
    cut = _answer(mover, goal, obstacles, reach)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(paths, "_lower_bounds", _all_corners)
        paths.path_search.cache_clear()
        full = _answer(mover, goal, obstacles, reach)
    paths.path_search.cache_clear()
    assert cut == full


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(battle(), st.data())
def test_goal_legs_tested_together_are_tested_as_one_by_one(
    drawn: tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]], data: st.DataObject
) -> None:
    """Each flag of ``_GoalLegs.test`` is ``_Question.clear``'s for that leg (from the start
    and from corners), and whole searches answer alike."""
    mover, goal, obstacles = drawn
    q = _question(mover, goal, obstacles)
    if q is not None:
        edges = paths._goal_edges(q)
        corners, _ = paths._turning_corners(q, paths._convex_corners(q))
        picked: list[int] = []
        if len(corners):
            picked = data.draw(st.lists(st.integers(0, len(corners) - 1), max_size=6))
        rows: list[int | None] = [None, *picked]
        for row in rows:
            p = q.start if row is None else (float(corners[row, 0]), float(corners[row, 1]))
            end = q.goal_point(p)
            side = None if row is None else corners[row, 2:6]
            legs = paths._other_goal_legs(edges, p, end, 0.0, 0.0, side, q.start)
            first = legs.test(q, p, end)
            assert first == q.clear(p, end)
            assert legs.clear == [q.clear(p, (x, y)) for _, x, y in legs.legs]
    paths.path_search.cache_clear()
    together = _answer(mover, goal, obstacles, math.inf)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(paths._GoalLegs, "test", _tested_one_by_one)
        paths.path_search.cache_clear()
        alone = _answer(mover, goal, obstacles, math.inf)
    paths.path_search.cache_clear()
    assert together == alone


@pytest.mark.rule("V-A")
def test_the_flag_check_catches_flags_out_of_step() -> None:
    """Flags shifted by one leg (a broken batch) are caught by the per-leg comparison."""
    target = Base.of("normal", "square", 60.0, 30.0, 0.0)
    wall = Base.of("large", "square", 50.0, 30.0, 0.0)
    mover = Base.of("normal", "square", 30.0, 30.0, 0.0)
    q = _question(mover, target, [wall.polygon])
    assert q is not None
    corners, _ = paths._turning_corners(q, paths._convex_corners(q))
    edges = paths._goal_edges(q)
    caught = False
    for row in range(len(corners)):
        p = (float(corners[row, 0]), float(corners[row, 1]))
        end = q.goal_point(p)
        legs = paths._other_goal_legs(edges, p, end, 0.0, 0.0, corners[row, 2:6], q.start)
        legs.test(q, p, end)
        one_by_one = [q.clear(p, (x, y)) for _, x, y in legs.legs]
        assert legs.clear == one_by_one
        shifted = legs.clear[1:] + legs.clear[:1]
        caught |= shifted != one_by_one
    assert caught
