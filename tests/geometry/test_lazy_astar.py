"""The path search's A* tests each leg's visibility when it leaves the heap (lazily): it gives
the very paths of the A* that tested every leg when queued (``paths._eager_astar``), on
random layouts, bounded or not; the bounding-box shortcut of the straight-line answer
(``paths._any_within``) answers as ``shapely.distance`` does (hypothesis)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, box
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import Base, Battlefield, Scenery, paths
from confrontation.geometry.paths import Path

Points = tuple[tuple[float, float], ...] | None


def _both(ask: Callable[[], Path | None]) -> tuple[Points, Points]:
    """The points of ``ask()``'s path with the lazy A* and with the eager one."""
    lazy = ask()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(paths, "_astar", paths._eager_astar)
        eager = ask()
    return (None if lazy is None else lazy.points), (None if eager is None else eager.points)


@pytest.mark.rule("V-A")
@settings(max_examples=40, deadline=None)
@given(fighters(), scenery(), st.data())
def test_lazy_astar_gives_the_eager_paths_on_battlefields(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    elements = tuple(
        e for e in elements if not any(e.footprint.intersects(b.polygon) for b in placed.values())
    )
    ids = list(placed)
    searched = 0
    for _ in range(4):
        mover = data.draw(st.sampled_from(ids))
        goal: str | tuple[float, float] = data.draw(st.sampled_from([i for i in ids if i != mover]))
        if data.draw(st.booleans()):
            goal = (data.draw(st.floats(1, 119)), data.draw(st.floats(1, 59)))
        friends = data.draw(st.lists(st.sampled_from(ids), max_size=2))
        reach = data.draw(st.one_of(st.just(math.inf), st.floats(0.0, 130.0)))
        field = Battlefield(TABLE, placed, elements)
        lazy, eager = _both(partial(field.path, mover, goal, pass_through=friends, reach=reach))
        assert lazy == eager
        searched += 1
    assert searched == 4


@pytest.mark.rule("V-A")
@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(15, 100), st.floats(2, 55), st.floats(0.3, 14), st.floats(0.3, 14)),
        min_size=1,
        max_size=8,
    ),
    st.tuples(st.floats(3, 117), st.floats(3, 57)),
    st.tuples(st.floats(3, 117), st.floats(3, 57)),
    st.floats(0.5, 6.0),
    st.one_of(st.just(math.inf), st.floats(0.0, 140.0)),
)
def test_lazy_astar_gives_the_eager_paths_among_boxes(
    boxes: list[tuple[float, float, float, float]],
    start: tuple[float, float],
    goal: tuple[float, float],
    width: float,
    reach: float,
) -> None:
    walls = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    lazy, eager = _both(
        partial(paths._search, start, goal, walls, width, table=TABLE.area, reach=reach)
    )
    assert lazy == eager


def test_the_lazy_search_turns_round_a_wall() -> None:
    """A wall across the straight line: both searches go round its nearer end by the same
    corners."""
    wall = [box(50, 10, 52, 50)]
    lazy, eager = _both(partial(paths._search, (30, 30), (70, 30), wall, 2.0, table=TABLE.area))
    assert lazy is not None and lazy == eager
    assert len(lazy) > 2
    assert all(y < 10 for _, y in lazy[1:-1])


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 100), st.floats(0, 60), st.floats(0.1, 10), st.floats(0.1, 10)),
        max_size=8,
    ),
    st.tuples(st.floats(0, 100), st.floats(0, 60)),
    st.tuples(st.floats(0, 100), st.floats(0, 60)),
    st.floats(0.0, 5.0),
)
def test_any_within_answers_as_the_distances(
    boxes: list[tuple[float, float, float, float]],
    a: tuple[float, float],
    b: tuple[float, float],
    gap: float,
) -> None:
    shapes = np.array([box(x, y, x + w, y + h) for x, y, w, h in boxes], dtype=object)
    seg = LineString([a, b]) if a != b else LineString([a, (a[0] + 1e-3, a[1])])
    plain = bool(len(shapes)) and bool((shapely.distance(shapes, seg) <= gap).any())
    assert paths._any_within(shapes, seg, gap) is plain
