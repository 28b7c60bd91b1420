# ruff: noqa: E501 (the traced case's shapes, as recorded)
"""The path search gives the shortest path (V-A: the most direct route, skirting obstacles):
no returned path has a removable bend -- a leg skipping a bend that is clear and shorter
(paths5: legs reaching a corner of merged obstacles untangentially, and goal legs to other
points of the goal base's edge than the nearest, were never queued)."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from confrontation.geometry import Base, paths

#: a recorded assault (random-v-random seed games): the search answered 43.117 cm, bending
#: ~80 degrees away from its obstacle at (70.555, 32.224)
TRACED = (
    "POLYGON ((68.59256453587798 42.18662596108322, 70.92337403891676 41.282564535877995, 71.827435464122 43.613374038916774, 69.49662596108323 44.517435464122, 68.59256453587798 42.18662596108322))",
    "POLYGON ((39.8236540312081 7.079141517484807, 39.620858482515196 10.8236540312081, 35.8763459687919 10.620858482515192, 36.07914151748481 6.876345968791899, 39.8236540312081 7.079141517484807))",
    "POLYGON ((52.22144371183538 11.796069418272818, 50.783930581727176 13.841443711835378, 48.73855628816462 12.403930581727181, 50.17606941827282 10.358556288164621, 52.22144371183538 11.796069418272818))",
    "POLYGON ((41.19364704405069 22.37486114753792, 38.91513885246208 23.403647044050693, 37.886352955949306 21.12513885246208, 40.16486114753792 20.096352955949307, 41.19364704405069 22.37486114753792))",
    "POLYGON ((46.71634283127254 35.800943656602364, 44.879056343397636 37.496342831272536, 43.183657168727464 35.65905634339763, 45.02094365660237 33.96365716872746, 46.71634283127254 35.800943656602364))",
    "POLYGON ((54.83245920048704 4.812338960095974, 53.50766103990402 6.932459200487039, 51.38754079951296 5.607661039904026, 52.71233896009598 3.487540799512961, 54.83245920048704 4.812338960095974))",
    "POLYGON ((75.41368877709905 52.70470276740046, 74.64529723259955 55.083688777099056, 72.26631122290095 54.315297232599534, 73.03470276740046 51.93631122290094, 75.41368877709905 52.70470276740046))",
    "POLYGON ((73.31075674291286 38.667868796941534, 70.81213120305846 38.750756742912856, 70.72924325708713 36.25213120305847, 73.22786879694154 36.169243257087146, 73.31075674291286 38.667868796941534))",
    "POLYGON ((71.79112596108322 43.519835464122, 70.88706453587798 41.189025961083225, 73.21787403891676 40.284964535878, 74.121935464122 42.615774038916776, 71.79112596108322 43.519835464122))",
    "POLYGON ((49.0599 38.3481, 43.2437 26.9102, 55.6413 20.606, 61.4575 32.0439, 49.0599 38.3481))",
    "POLYGON ((85.766 42.093, 85.6643 41.0604, 85.3631 40.0675, 84.874 39.1524, 84.2158 38.3503, 83.4137 37.6921, 82.4986 37.203, 81.5057 36.9018, 80.4731 36.8001, 79.4405 36.9018, 78.4476 37.203, 77.5325 37.6921, 76.7304 38.3503, 76.0722 39.1524, 75.5831 40.0675, 75.2819 41.0604, 75.1802 42.093, 75.2819 43.1256, 75.5831 44.1185, 76.0722 45.0336, 76.7304 45.8357, 77.5325 46.4939, 78.4476 46.983, 79.4405 47.2842, 80.4731 47.3859, 81.5057 47.2842, 82.4986 46.983, 83.4137 46.4939, 84.2158 45.8357, 84.874 45.0336, 85.3631 44.1185, 85.6643 43.1256, 85.766 42.093))",
    "POLYGON ((28.7327 14.5278, 28.6583 13.7721, 28.4379 13.0455, 28.0799 12.3759, 27.5983 11.7889, 27.0113 11.3073, 26.3417 10.9493, 25.6151 10.7289, 24.8594 10.6545, 24.1038 10.7289, 23.3772 10.9493, 22.7076 11.3073, 22.1206 11.7889, 21.6389 12.3759, 21.281 13.0455, 21.0606 13.7721, 20.9862 14.5278, 21.0606 15.2834, 21.281 16.01, 21.6389 16.6796, 22.1206 17.2666, 22.7076 17.7483, 23.3772 18.1062, 24.1038 18.3266, 24.8594 18.401, 25.6151 18.3266, 26.3417 18.1062, 27.0113 17.7483, 27.5983 17.2666, 28.0799 16.6796, 28.4379 16.01, 28.6583 15.2834, 28.7327 14.5278))",
    "POLYGON ((81.2403 24.376, 81.1 22.9515, 80.6845 21.5817, 80.0098 20.3193, 79.1017 19.2128, 77.9952 18.3047, 76.7328 17.63, 75.363 17.2145, 73.9385 17.0742, 72.514 17.2145, 71.1443 17.63, 69.8819 18.3047, 68.7754 19.2128, 67.8673 20.3193, 67.1926 21.5817, 66.777 22.9515, 66.6367 24.376, 66.777 25.8005, 67.1926 27.1702, 67.8673 28.4326, 68.7754 29.5391, 69.8819 30.4472, 71.1443 31.122, 72.514 31.5375, 73.9385 31.6778, 75.363 31.5375, 76.7328 31.122, 77.9952 30.4472, 79.1017 29.5391, 80.0098 28.4326, 80.6845 27.1702, 81.1 25.8005, 81.2403 24.376))",
    "POLYGON ((29.1915 40.9197, 29.004 39.0162, 28.4488 37.1858, 27.5472 35.499, 26.3337 34.0204, 24.8552 32.807, 23.1683 31.9053, 21.338 31.3501, 19.4345 31.1626, 17.531 31.3501, 15.7006 31.9053, 14.0137 32.807, 12.5352 34.0204, 11.3218 35.499, 10.4201 37.1858, 9.8649 39.0162, 9.6774 40.9197, 9.8649 42.8232, 10.4201 44.6536, 11.3218 46.3404, 12.5352 47.819, 14.0137 49.0324, 15.7006 49.934, 17.531 50.4893, 19.4345 50.6767, 21.338 50.4893, 23.1683 49.934, 24.8552 49.0324, 26.3337 47.819, 27.5472 46.3404, 28.4488 44.6536, 29.004 42.8232, 29.1915 40.9197))",
    "POLYGON ((110.058 19.5077, 109.9487 28.1687, 98.8153 28.0281, 98.9246 19.3672, 110.058 19.5077))",
)
TRACED_START = (67.55277971136528, 14.831713832868111)
TRACED_GOAL = Base(
    x=49.33,
    y=39.57,
    facing=351.0,
    shape="square",
    width_mm=25.0,
    depth_mm=25.0,
    size="normal",
    level=0,
)
TRACED_TABLE = "POLYGON ((120 0, 120 60, 0 60, 0 0, 120 0))"


def _removable_bends(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: list[shapely.Geometry],
    width: float,
    table: shapely.Geometry | None,
    points: tuple[tuple[float, float], ...],
) -> list[tuple[float, float]]:
    """The bends of ``points`` that a clear leg from the point before to the point after
    skips, more than 1e-7 cm shorter."""
    q = paths._Question(start, goal, math.inf)
    assert paths._near_ends(q, obstacles, width / 2.0)
    if table is not None:
        q.pieces.append(paths._framed(table, width / 2.0))
    assert paths._blocker(q) and paths._goal_set(q)
    return [
        p
        for a, p, w in zip(points, points[1:], points[2:], strict=False)
        if math.dist(a, w) < math.dist(a, p) + math.dist(p, w) - 1e-7 and q.clear(a, w)
    ]


@pytest.mark.rule("V-A")
def test_the_traced_assault_takes_the_shortest_way() -> None:
    obstacles = [shapely.from_wkt(w) for w in TRACED]
    table = shapely.from_wkt(TRACED_TABLE)
    path = paths.shortest_path(TRACED_START, TRACED_GOAL, obstacles, 2.5, table=table)
    assert path is not None
    # was 43.117 cm, by a bend away from the obstacle at (70.555, 32.224)
    assert path.length == pytest.approx(32.1695219, abs=1e-6)
    assert (70.55503156905772, 32.22438954834252) not in path.points
    assert _removable_bends(TRACED_START, TRACED_GOAL, obstacles, 2.5, table, path.points) == []


@pytest.mark.rule("V-A")
@settings(max_examples=150, deadline=None)
@given(
    # bases crowded round the goal, as in a melee: merged obstacles, a cut goal edge
    st.lists(
        st.builds(Base, st.floats(40, 60), st.floats(20, 40), st.floats(0, 359)),
        min_size=1,
        max_size=12,
    ),
    st.tuples(st.floats(3, 117), st.floats(3, 57)),
    st.one_of(
        st.tuples(st.floats(40, 60), st.floats(20, 40)),
        st.builds(
            Base,
            st.floats(44, 56),
            st.floats(24, 36),
            st.floats(0, 359),
            st.sampled_from(["square", "round"]),
        ),
    ),
    st.floats(1.0, 4.0),
)
def test_no_path_has_a_removable_bend(
    others: list[Base],
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    width: float,
) -> None:
    obstacles = [b.polygon for b in others]
    table = box(0, 0, 120, 60)
    path = paths.shortest_path(start, goal, obstacles, width, table=table)
    if path is None or len(path.points) < 3:
        return
    assert _removable_bends(start, goal, obstacles, width, table, path.points) == []
