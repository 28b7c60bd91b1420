"""The twelfth round's shortcut of the A* (issue 22, randstep): a corner of a convex piece
that hides the whole goal set behind that piece queues no goal leg (``paths._hides_goal``).
Sound only if every leg from such a corner to any point of the goal set is blocked: checked
leg by leg against the GEOS test on dense points of the goal set, and on whole searches
(the same answers with the shortcut and without)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exact_paths import TABLE, _goal_samples, _question, battle

from confrontation.geometry import Base, paths

Drawn = tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]]


def _hidden_legs(drawn: Drawn) -> tuple[int, int]:
    """For every corner said to hide the goal set: how many such corners, and how many of
    their legs to the goal set's points (the goal point, or every 0.01 cm of the goal
    base's reachable edge, and its vertices) are clear (must be 0)."""
    mover, goal, obstacles = drawn
    q = _question(mover.sight, goal, obstacles, mover.width, TABLE.area)
    if q is None:
        return 0, 0
    corners = paths._convex_corners(q)
    convex = paths._convex_flags(q)
    if not len(corners):
        return 0, 0
    # the corners the A* may be given (outside the blocker)
    out = ~shapely.contains_xy(q.blocker, corners[:, 0], corners[:, 1])
    disc = paths._goal_disc(q)
    targets = np.vstack((_goal_samples(q), shapely.get_coordinates(q.goal_set)))
    cx, cy, rho = disc
    assert (np.hypot(targets[:, 0] - cx, targets[:, 1] - cy) <= rho).all()
    hidden = clear = 0
    for row, flag, kept in zip(corners.tolist(), convex.tolist(), out.tolist(), strict=True):
        if not kept or not flag or not paths._hides_goal(row, disc):
            continue
        hidden += 1
        clear += int(q.visible((row[0], row[1]), targets).sum())
    return hidden, clear


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(battle())
def test_a_corner_that_hides_the_goal_has_every_goal_leg_blocked(drawn: Drawn) -> None:
    _, clear = _hidden_legs(drawn)
    assert clear == 0


@pytest.mark.rule("V-A")
def test_a_hiding_corner_is_found_and_a_visible_goal_is_not_hidden() -> None:
    """A square obstacle between the start and a goal point: its corners facing the start
    hide the goal (the shortcut is used), none whose leg to the goal is clear does."""
    wall = shapely.box(50.0, 20.0, 56.0, 40.0)
    mover = Base.of("normal", "square", 20.0, 30.0, 0.0)
    q = _question(mover.sight, (90.0, 30.0), [wall], mover.width, TABLE.area)
    assert q is not None
    corners = paths._convex_corners(q)
    assert paths._convex_flags(q).all()
    disc = paths._goal_disc(q)
    said = [paths._hides_goal(row, disc) for row in corners.tolist()]
    seen = [q.clear((row[0], row[1]), (90.0, 30.0)) for row in corners.tolist()]
    assert any(s for s, x in zip(said, corners[:, 0].tolist(), strict=True) if x < 50.0)
    assert any(seen)
    assert not any(s and v for s, v in zip(said, seen, strict=True))


@pytest.mark.rule("V-A")
def test_a_non_convex_piece_hides_nothing() -> None:
    """An L-shaped wall, a square wall round a yard (a hole): their pieces are not convex,
    no corner of them is used."""
    ell = shapely.Polygon([(50, 20), (60, 20), (60, 24), (54, 24), (54, 40), (50, 40)])
    yard = shapely.box(70, 10, 90, 30).difference(shapely.box(73, 13, 87, 27))
    mover = Base.of("normal", "square", 20.0, 30.0, 0.0)
    q = _question(mover.sight, (100.0, 50.0), [ell, yard], mover.width, TABLE.area)
    assert q is not None
    assert len(q.pieces[1].shape.interiors) == 1
    assert not paths._convex_flags(q).any()


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(battle(), st.sampled_from([math.inf, 20.0, 40.0]))
def test_searches_answer_alike_with_and_without_hidden_goals(drawn: Drawn, reach: float) -> None:
    mover, goal, obstacles = drawn
    answers = []
    for shortcut in (True, False):
        with pytest.MonkeyPatch.context() as mp:
            if not shortcut:
                mp.setattr(paths, "_hides_goal", lambda corner, disc: False)
            paths.path_search.cache_clear()
            path = paths.shortest_path(
                mover.sight, goal, obstacles, mover.width, table=TABLE.area, reach=reach
            )
        answers.append(None if path is None else path.points)
    paths.path_search.cache_clear()
    assert answers[0] == answers[1]
