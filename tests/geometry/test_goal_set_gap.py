"""The thirteenth round's early answer (issue 22, onesource): a bounded search whose start is
farther from the goal set than the bound answers None at once, without the corners and the
A* (the A*'s first entry, the start, whose f is that distance, would pass the bound). The
answers must be those of the search as it was: steps 3-5, the corners, the bounded A*."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_exact_paths import TABLE, _question, battle

from confrontation.geometry import Base, paths

Drawn = tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]]


def _as_before(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: list[shapely.Geometry],
    width: float,
    reach: float,
) -> paths.Path | None:
    """A bounded search as ``paths._search`` made it before this round: steps 3-5, the
    corners within the bound, the A* (which measures the start's distance itself)."""
    q = paths._Question(start, goal, reach)
    if not paths._near_ends(q, obstacles, width / 2.0):
        return None
    q.pieces.append(paths._framed(TABLE.area, width / 2.0))
    if not paths._blocker(q) or not paths._goal_set(q):
        return None
    corners = np.column_stack((paths._convex_corners(q), paths._convex_flags(q)))
    if len(corners):
        corners = corners[paths._lower_bounds(q, corners) <= q.bound + paths.CORNER_MARGIN]
    return paths._bounded_astar(q, corners)


def _points(path: paths.Path | None) -> object:
    return None if path is None else path.points


@pytest.mark.rule("V-A")
@settings(max_examples=80, deadline=None)
@given(battle(), st.sampled_from([-1.0, -0.3, -5e-8, 5e-8, 0.3, 2.0]))
def test_a_bounded_search_answers_as_before(drawn: Drawn, off: float) -> None:
    """Reaches about the start's distance to the goal set (a path as long as it is within
    the reach, or within the reach's slack of 1e-7 cm, or just beyond)."""
    mover, goal, obstacles = drawn
    q = _question(mover.sight, goal, obstacles, mover.width, TABLE.area)
    assume(q is not None)
    assert q is not None and q.goal_set is not None
    reach = float(q.goal_set.distance(q.sp)) + off
    assume(reach >= 0.0)
    got = paths._search(mover.sight, goal, obstacles, mover.width, table=TABLE.area, reach=reach)
    before = _as_before(mover.sight, goal, obstacles, mover.width, reach)
    assert _points(got) == _points(before)


@pytest.mark.rule("V-A")
def test_a_goal_edge_walled_off_on_the_near_side_is_answered_without_the_astar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wall holds the near half of the goal base: the base is within the reach, the part
    of its edge left (the far half) is not. None, as before, and the A* is not asked."""
    target = Base.of("normal", "round", 60.0, 30.0, 0.0)
    wall = shapely.box(50.0, 20.0, 60.0, 40.0)
    mover = Base.of("normal", "round", 30.0, 30.0, 0.0)
    gap = math.dist(mover.sight, (60.0 - target.width / 2.0, 30.0))
    reach = gap + 1.0
    before = _as_before(mover.sight, target, [wall], mover.width, reach)
    assert before is None
    q = _question(mover.sight, target, [wall], mover.width, TABLE.area)
    assert q is not None and q.goal_set is not None
    assert float(q.goal_set.distance(q.sp)) > reach + 1.0  # the far half only

    def no_astar(*_: object) -> None:
        raise AssertionError("the A* was asked")

    monkeypatch.setattr(paths, "_bounded_astar", no_astar)
    got = paths._search(mover.sight, target, [wall], mover.width, table=TABLE.area, reach=reach)
    assert got is None
    # within the reach of the far half, the A* is asked (and the test's stand-in says so)
    with pytest.raises(AssertionError, match="A\\* was asked"):
        paths._search(mover.sight, target, [wall], mover.width, table=TABLE.area, reach=200.0)


@pytest.mark.rule("V-A")
@pytest.mark.parametrize("off", [-5e-8, 0.0, 5e-8])
def test_a_path_within_the_reach_slack_is_still_found(off: float) -> None:
    """The straight way to the goal base, with a reach a hair (within the search's slack of
    1e-7 cm) shorter than it, or just as long: found, as before."""
    target = Base.of("normal", "round", 60.0, 30.0, 0.0)
    wall = shapely.box(90.0, 5.0, 92.0, 15.0)
    mover = Base.of("normal", "round", 30.0, 30.0, 0.0)
    q = _question(mover.sight, target, [wall], mover.width, TABLE.area)
    assert q is not None and q.goal_set is not None
    reach = float(q.goal_set.distance(q.sp)) + off
    before = _as_before(mover.sight, target, [wall], mover.width, reach)
    assert before is not None
    got = paths._search(mover.sight, target, [wall], mover.width, table=TABLE.area, reach=reach)
    assert _points(got) == _points(before)
