"""The eleventh round's shortcut of the A* (issue 22, astar8): an expansion's legs to a few
tangent corners are screened in plain arithmetic (``paths._legs_plain``) rather than numpy
(``paths._legs_numpy``); both must give the very same batch (f, corners, costs), on corners
at grid points (where cross products are exactly 0, on the tests' thresholds) and on real
searches (the whole answers alike with every batch one way or the other)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exact_paths import TABLE, battle

from confrontation.geometry import Base, paths

Legs = tuple[list[float], list[int], list[float]] | None


def _both(
    xy: np.ndarray, at: int | None, came: tuple[float, float], gc: float, bound: float
) -> tuple[Legs, Legs]:
    """The batch of an expansion at corner ``at`` (None: a start at the origin) among the
    corners ``xy`` (rows x, y, prev x, prev y, next x, next y), by both screens."""
    p = (0.0, 0.0) if at is None else (float(xy[at, 0]), float(xy[at, 1]))
    vx, vy = xy[:, 0] - p[0], xy[:, 1] - p[1]
    heur = np.hypot(xy[:, 0] - 3.0, xy[:, 1] + 2.0)
    idx = np.arange(len(xy))
    corner = None if at is None else xy[at]
    got = [
        legs(idx, vx, vy, corner, came, heur, gc, bound)
        for legs in (paths._legs_plain, paths._legs_numpy)
    ]
    return got[0], got[1]


grid = st.integers(-6, 6).map(float)
corner_rows = st.lists(st.tuples(*[grid] * 6), min_size=1, max_size=20)


@pytest.mark.rule("V-A")
@settings(max_examples=300, deadline=None)
@given(
    corner_rows,
    st.data(),
    st.tuples(grid, grid),
    st.floats(0.0, 5.0),
    st.sampled_from([math.inf, 4.0, 9.0, 15.0]),
)
def test_plain_legs_are_the_numpy_legs_on_a_grid(
    rows: list[tuple[float, ...]],
    data: st.DataObject,
    came: tuple[float, float],
    gc: float,
    bound: float,
) -> None:
    xy = np.array(rows, dtype=float)
    at = data.draw(st.one_of(st.none(), st.integers(0, len(xy) - 1)))
    plain, vectorised = _both(xy, at, came, gc, bound)
    assert plain == vectorised


@pytest.mark.rule("V-A")
def test_the_check_catches_a_screen_that_is_not_the_same() -> None:
    """A plain screen that drops the legs going straight on (turn exactly 0: ``> 0`` for
    ``>= -1e-12``) is caught on a grid case."""
    xy = np.array([[1.0, 0.0, 1.0, -1.0, 0.0, -1.0], [2.0, 0.0, 2.0, -1.0, 2.0, 1.0]])

    def strict(*args: object) -> Legs:
        idx, vx, vy, corner, came, heur, gc, bound = args
        assert isinstance(idx, np.ndarray) and isinstance(corner, np.ndarray)
        x, y = corner[0], corner[1]
        assert isinstance(came, tuple) and isinstance(vx, np.ndarray) and isinstance(vy, np.ndarray)
        turn = (x - came[0]) * vy[idx] - (y - came[1]) * vx[idx]
        return paths._legs_numpy(idx[turn > 0], vx, vy, corner, came, heur, gc, bound)  # type: ignore[arg-type]

    plain, vectorised = _both(xy, 0, (0.0, 0.0), 0.0, math.inf)
    assert plain == vectorised and plain is not None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(paths, "_legs_plain", strict)
        broken, _ = _both(xy, 0, (0.0, 0.0), 0.0, math.inf)
    assert broken != vectorised


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(battle(), st.sampled_from([math.inf, 20.0, 40.0]))
def test_searches_answer_alike_with_either_screen(
    drawn: tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]], reach: float
) -> None:
    mover, goal, obstacles = drawn
    answers = []
    for few in (-1, 10**9):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(paths, "FEW_LEGS", few)
            paths.path_search.cache_clear()
            path = paths.shortest_path(
                mover.sight, goal, obstacles, mover.width, table=TABLE.area, reach=reach
            )
        answers.append(None if path is None else path.points)
    paths.path_search.cache_clear()
    assert answers[0] == answers[1]
