"""The bounded path search ("reachable within X?") agrees with the whole search: the same
path when it is at most X long, None when it is longer (hypothesis, random layouts)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import Base, Battlefield, Scenery, shortest_path
from confrontation.geometry.paths import Path, PathSearch


def agrees(bounded: Path | None, whole: Path | None, reach: float) -> None:
    """Within reach: the very same path; beyond it (or none): None."""
    if whole is not None and whole.length <= reach:
        assert bounded is not None
        assert bounded.points == whole.points
    elif whole is None or whole.length > reach + 1e-6:
        assert bounded is None
    else:  # within rounding of the reach: either answer, but never another path
        assert bounded is None or bounded.points == whole.points


@pytest.mark.rule("V-A")
@settings(max_examples=30, deadline=None)
@given(fighters(), scenery(), st.data())
def test_bounded_battlefield_paths_agree_with_whole_paths(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    elements = tuple(
        e for e in elements if not any(e.footprint.intersects(b.polygon) for b in placed.values())
    )
    whole_field = Battlefield(TABLE, placed, elements)
    bounded_field = Battlefield(TABLE, placed, elements)
    ids = list(placed)
    for _ in range(4):  # several queries on one battlefield
        mover = data.draw(st.sampled_from(ids))
        goal: str | tuple[float, float] = data.draw(st.sampled_from([i for i in ids if i != mover]))
        if data.draw(st.booleans()):
            goal = (data.draw(st.floats(1, 119)), data.draw(st.floats(1, 59)))
        friends = data.draw(st.lists(st.sampled_from(ids), max_size=2))
        at_most = data.draw(st.booleans())
        whole = whole_field.path(mover, goal, pass_through=friends, move_at_most_mov=at_most)
        # a reach near the path's length (either side), or anywhere
        near = whole.length if whole is not None else 30.0
        reach = data.draw(
            st.one_of(
                st.floats(0.0, 130.0),
                st.floats(max(near - 2.0, 0.0), near + 2.0),
                st.just(near),
            )
        )
        bounded = bounded_field.path(
            mover, goal, pass_through=friends, move_at_most_mov=at_most, reach=reach
        )
        agrees(bounded, whole, reach)


@pytest.mark.rule("V-A")
@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(15, 100), st.floats(2, 55), st.floats(0.3, 14), st.floats(0.3, 14)),
        max_size=6,
    ),
    st.tuples(st.floats(3, 117), st.floats(3, 57)),
    st.tuples(st.floats(3, 117), st.floats(3, 57)),
    st.floats(2.0, 6.0),
    st.floats(0.0, 140.0),
)
def test_bounded_shortest_path_agrees_with_the_whole_search(
    boxes: list[tuple[float, float, float, float]],
    start: tuple[float, float],
    goal: tuple[float, float],
    width: float,
    reach: float,
) -> None:
    obstacles = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    whole = PathSearch(obstacles, width, TABLE.area)
    bounded = PathSearch(obstacles, width, TABLE.area)
    for _ in range(2):  # asked twice of one search
        full = whole.query(start, goal)
        agrees(bounded.query(start, goal, reach=reach), full, reach)
        if full is not None:
            agrees(bounded.query(start, goal, reach=full.length), full, full.length)
    agrees(
        shortest_path(start, goal, obstacles, width, table=TABLE.area, reach=reach),
        shortest_path(start, goal, obstacles, width, table=TABLE.area),
        reach,
    )


def test_a_search_beyond_reach_stops_without_looking_at_the_obstacles() -> None:
    # a wall between start and goal: the way round is ~60 cm, the straight line 40 cm
    wall = [box(59, 0, 61, 55)]
    search = PathSearch(wall, 2.5, TABLE.area)
    whole = search.query((40, 30), (80, 30))
    assert whole is not None and whole.length > 45
    assert search.query((40, 30), (80, 30), reach=whole.length - 0.01) is None
    assert search.query((40, 30), (80, 30), reach=whole.length) == whole
    # farther than the reach as the crow flies: no search at all
    before = search.queries
    assert search.query((40, 30), (80, 30), reach=39.0) is None
    assert search.queries == before


def test_an_obstacle_the_path_bends_round_is_kept_at_the_very_reach() -> None:
    # a thin blade across the straight line of a narrow base: the path bends round its
    # tip, so the blade lies within 0.6 cm of the edge of the ellipse of that very length
    block = [box(59.95, 28, 60.05, 30.5)]
    whole = PathSearch(block, 0.5, TABLE.area).query((40, 30), (80, 30))
    assert whole is not None and len(whole.points) > 2
    search = PathSearch(block, 0.5, TABLE.area)
    assert search.query((40, 30), (80, 30), reach=whole.length) == whole
