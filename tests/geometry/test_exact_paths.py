"""The path search's answer is the shortest path (V-A: the most direct route, skirting
obstacles), checked against a reference that is exact by construction: a brute-force
Dijkstra on the visibility graph of ALL the inflated obstacles' convex corners and densely
sampled points of the goal base's reachable edge, every leg tested, no tangent pruning and
no goal-leg shortcuts. (It replaces the frozen searches that pinned the old, not always
shortest, answers.)

The reference shares the search's model of what blocks (the obstacles inflated by half the
width and eroded by ``CLEAR_EPS``, the table's frame, the goal set: steps 3-5 of
``PathSearch``) and checks only the graph search. Its goal points are a subset of the goal
set, so its length is that of a real path: the search must never be longer (1e-6 cm). The
true optimum can end between two samples (a shadow's edge on the goal base): the reference
is then longer by at most the sampling step, :data:`STEP` — the search may be that much
shorter, and its path is checked to be a real one (every leg clear, ending on the goal set).
"""

from __future__ import annotations

import heapq
import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, box

from confrontation.geometry import Base, Scenery, Table, paths
from confrontation.geometry.bases import Shape

TABLE = Table()
#: the reference's sampling step along the goal base's edge (cm): its sampling error
STEP = 0.01
#: the search is never longer than the reference by more than this (cm)
EXACT = 1e-6

size = st.sampled_from(["small", "normal", "normal", "large"])
shape: st.SearchStrategy[Shape] = st.sampled_from(["square", "round"])
facing = st.sampled_from([0.0, 90.0, 37.0, 121.5, 200.0])


def _question(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: list[shapely.Geometry],
    width: float,
    table: shapely.Geometry | None,
) -> paths._Question | None:
    """Steps 3-5 of the search (the model of what blocks); None: no goal can be reached."""
    q = paths._Question(start, goal, math.inf)
    if not paths._near_ends(q, obstacles, width / 2.0):
        return None
    if table is not None:
        q.pieces.append(paths._framed(table, width / 2.0))
    if not paths._blocker(q) or not paths._goal_set(q):
        return None
    return q


def _goal_samples(q: paths._Question) -> np.ndarray:
    """Points of the goal set: the goal point, or every ``STEP`` along each piece of the
    goal base's reachable edge (its ends kept ``CLEAR_EPS`` inside: an end touches the
    blocker) and each edge's exact nearest point is added per node by the search below."""
    if q.target is None:
        assert q.gp is not None
        return np.array([[q.gp.x, q.gp.y]])
    out: list[np.ndarray] = []
    for part in shapely.get_parts(np.array([q.goal_set], dtype=object)).tolist():
        if part.geom_type == "Point":
            out.append(np.array([[part.x, part.y]]))
            continue
        length = part.length
        if length <= 2 * paths.CLEAR_EPS:
            at = np.array([length / 2.0])
        else:
            n = max(math.ceil(length / STEP), 1)
            at = np.linspace(paths.CLEAR_EPS, length - paths.CLEAR_EPS, n + 1)
        out.append(shapely.get_coordinates(shapely.line_interpolate_point(part, at)))
    return np.vstack(out)


def reference(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: list[shapely.Geometry],
    width: float,
    table: shapely.Geometry | None,
) -> tuple[float, tuple[tuple[float, float], ...]] | None:
    """The brute-force shortest path (length, points), None when there is none: Dijkstra
    from the start over every convex corner outside the blocker, every leg to every corner
    and to every goal sample tested for clearance."""
    q = _question(start, goal, obstacles, width, table)
    if q is None:
        return None
    inflated = q.pieces[: q.n_obstacles]
    corners = np.vstack([c.corners for c in inflated]) if inflated else np.zeros((0, 6))
    corners = corners[:, :2]
    if len(corners):
        corners = corners[~shapely.contains_xy(q.blocker, corners[:, 0], corners[:, 1])]
    goals = _goal_samples(q)
    n = len(corners)
    dist = np.full(n, math.inf)
    parent = np.full(n, -2, dtype=int)
    done = np.zeros(n, dtype=bool)
    best, best_from, best_end = math.inf, -2, (0.0, 0.0)
    heap: list[tuple[float, int]] = [(0.0, -1)]
    while heap:
        d, u = heapq.heappop(heap)
        if d >= best:
            break
        if u >= 0:
            if done[u]:
                continue
            done[u] = True
            p = (float(corners[u, 0]), float(corners[u, 1]))
        else:
            p = start
        # the goal: every sample (and the goal set's nearest point) not already worse
        near = shapely.get_coordinates(shapely.shortest_line(q.goal_set, Point(p)))[:1]
        cand = np.vstack((goals, near))
        legs = d + np.hypot(cand[:, 0] - p[0], cand[:, 1] - p[1])
        try_ = np.nonzero(legs < best)[0]
        if len(try_):
            ok = try_[q.visible(p, cand[try_])]
            if len(ok):
                k = int(ok[np.argmin(legs[ok])])
                best, best_from, best_end = float(legs[k]), u, (cand[k, 0], cand[k, 1])
        if n == 0:
            continue
        step = np.hypot(corners[:, 0] - p[0], corners[:, 1] - p[1])
        better = np.nonzero(~done & (d + step < dist) & (d + step < best))[0]
        if len(better) == 0:
            continue
        for i in better[q.visible(p, corners[better])].tolist():
            dist[i], parent[i] = d + step[i], u
            heapq.heappush(heap, (float(dist[i]), i))
    if best_from == -2:
        return None
    pts = [(float(best_end[0]), float(best_end[1]))]
    w = best_from
    while w >= 0:
        pts.append((float(corners[w, 0]), float(corners[w, 1])))
        w = int(parent[w])
    pts.append(start)
    return best, tuple(reversed(pts))


def _is_real(
    path: paths.Path,
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: list[shapely.Geometry],
    width: float,
    table: shapely.Geometry | None,
) -> bool:
    """Does ``path`` leave from the start, every leg clear, and end on the goal set?"""
    q = _question(start, goal, obstacles, width, table)
    assert q is not None and q.goal_set is not None
    legs = zip(path.points, path.points[1:], strict=False)
    return (
        path.points[0] == start
        and all(q.clear(a, b) for a, b in legs)
        and q.goal_set.distance(Point(path.end)) <= 1e-7
    )


@st.composite
def battle(
    draw: st.DrawFn,
) -> tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]]:
    """A mover, a goal (a point, or a target base with fighters crowded round it, as in a
    melee: merged obstacles, a cut goal edge; sometimes against or across the table's edge)
    and the obstacles (the other fighters and a few walls)."""
    near_edge = draw(st.booleans())
    tx = draw(st.floats(-1.0, 4.0)) if near_edge else draw(st.floats(40, 80))
    target = Base.of(draw(size), draw(shape), tx, draw(st.floats(20, 40)), draw(facing))
    placed = [target]
    for _ in range(draw(st.integers(0, 9))):
        b = Base.of(draw(size), draw(shape), 0.0, 0.0, draw(facing))
        angle = math.radians(draw(st.floats(0, 360)))
        gap = (target.width + b.width) / 2.0 + draw(st.sampled_from([0.0, 0.001, 0.2, 1.0, 3.0]))
        b = b.moved(target.x + gap * math.cos(angle), target.y + gap * math.sin(angle))
        if any(b.polygon.intersects(o.polygon.buffer(-1e-3)) for o in placed):
            continue
        placed.append(b)
    mover = Base.of(draw(size), draw(shape), draw(st.floats(3, 117)), draw(st.floats(3, 57)), 0.0)
    assume(not any(mover.polygon.intersects(o.polygon) for o in placed))
    obstacles = [b.polygon for b in placed[1:]]
    for k in range(draw(st.integers(0, 3))):
        x, y = draw(st.floats(10, 110)), draw(st.floats(6, 54))
        w, d = draw(st.floats(0.5, 12)), draw(st.floats(0.5, 12))
        wall = Scenery.rect(f"s{k}", x, y, w, d, draw(st.floats(0, 180)), passable=False)
        obstacles.append(wall.footprint)
    goal: tuple[float, float] | Base = target
    if draw(st.booleans()):
        goal = (draw(st.floats(1, 119)), draw(st.floats(1, 59)))
        obstacles.append(target.polygon)
    return mover, goal, obstacles


@pytest.mark.rule("V-A")
@settings(max_examples=120, deadline=None)
@given(battle(), st.sampled_from([None, -0.5, 0.0, 0.5, 3.0]))
def test_the_search_finds_the_exact_shortest_path(
    placed: tuple[Base, tuple[float, float] | Base, list[shapely.Geometry]],
    reach_off: float | None,
) -> None:
    mover, goal, obstacles = placed
    table = TABLE.area
    start = mover.sight
    ref = reference(start, goal, obstacles, mover.width, table)
    found = paths.PathSearch(obstacles, mover.width, table).query(start, goal)
    if ref is None:
        assert found is None
        return
    assert found is not None
    assert _is_real(found, start, goal, obstacles, mover.width, table)
    assert found.length <= ref[0] + EXACT
    assert found.length >= ref[0] - STEP
    if reach_off is None:
        return
    # "reachable within the reach?" agrees (a reach within the sampling error is not asked)
    reach = ref[0] + reach_off
    assume(abs(reach_off) > STEP and reach >= 0)
    bounded = paths.PathSearch(obstacles, mover.width, table).query(start, goal, reach=reach)
    if reach_off < 0:
        assert bounded is None or bounded.length <= reach + 1e-6
        assert bounded is None
    else:
        assert bounded is not None
        assert bounded.length == pytest.approx(found.length, abs=1e-9)


@pytest.mark.rule("V-A")
def test_the_reference_is_exact_on_a_known_case() -> None:
    """A wall between the sight and a point (a sight of no width: the wall is not
    inflated): round its nearer end, by its two corners."""
    wall = box(40, 20, 42, 40)
    got = reference((30.0, 30.0), (52.0, 30.0), [wall], 0.0, TABLE.area)
    assert got is not None
    want = math.dist((30, 30), (40, 40)) + 2.0 + math.dist((42, 40), (52, 30))
    assert got[0] == pytest.approx(want, abs=1e-9)
    # over or under the wall (the same length)
    assert got[1] in (
        ((30.0, 30.0), (40.0, 40.0), (42.0, 40.0), (52.0, 30.0)),
        ((30.0, 30.0), (40.0, 20.0), (42.0, 20.0), (52.0, 30.0)),
    )
    found = paths.shortest_path((30.0, 30.0), (52.0, 30.0), [wall], 0.0, table=TABLE.area)
    assert found is not None and found.length == pytest.approx(got[0], abs=EXACT)


@pytest.mark.rule("V-A")
def test_the_reference_catches_a_longer_answer() -> None:
    """The reference is no rubber stamp: the traced assault's old answer (43.117 cm) is
    longer than the reference's by far more than :data:`EXACT`."""
    from test_shortest_bends import TRACED, TRACED_GOAL, TRACED_START, TRACED_TABLE

    obstacles = [shapely.from_wkt(w) for w in TRACED]
    got = reference(TRACED_START, TRACED_GOAL, obstacles, 2.5, shapely.from_wkt(TRACED_TABLE))
    assert got is not None
    assert got[0] == pytest.approx(32.1695219, abs=STEP)
    assert got[0] + EXACT < 43.117


# V-A at the table's edge: a target base partly off the table (docs/rulings.md "V-A — contact
# with a base at the table's edge")


@pytest.mark.rule("V-A")
def test_a_target_across_the_table_edge_is_reached_on_its_side_on_the_table() -> None:
    mover = Base.of("normal", "square", 20.0, 30.0, 0.0)
    # a target whose centre is on the table's left edge: half of it is off the table
    target = Base.of("normal", "square", 0.0, 30.0, 0.0)
    path = paths.shortest_path(mover.sight, target, [], mover.width, table=TABLE.area)
    assert path is not None
    hw = mover.width / 2.0
    x, y = path.end
    # on the target's edge, the mover's base wholly on the table (its sight half a width in)
    assert target.polygon.exterior.distance(Point(x, y)) <= 1e-7
    assert x >= hw - 1e-7
    assert path.length == pytest.approx(mover.sight[0] - target.width / 2.0, abs=1e-6)


@pytest.mark.rule("V-A")
def test_a_target_against_the_table_edge_is_reached_on_the_sides_on_the_table() -> None:
    mover = Base.of("normal", "square", 20.0, 30.0, 0.0)
    target = Base.of("normal", "square", 0.0, 30.0, 0.0)
    target = target.moved(target.width / 2.0, 30.0)  # its left side on the table's edge
    wall = box(target.width + 0.5, 10, target.width + 1.0, 50)  # its front side walled off
    path = paths.shortest_path(mover.sight, target, [wall], mover.width, table=TABLE.area)
    assert path is not None
    ref = reference(mover.sight, target, [wall], mover.width, TABLE.area)
    assert ref is not None and path.length <= ref[0] + EXACT
    # contact on its top or bottom side, the mover's base wholly on the table
    x, y = path.end
    assert abs(abs(y - 30.0) - target.width / 2.0) <= 1e-6
    assert x >= mover.width / 2.0 - 1e-7


@pytest.mark.rule("V-A")
def test_a_target_off_the_table_but_a_sliver_cannot_be_reached() -> None:
    mover = Base.of("normal", "square", 20.0, 30.0, 0.0)
    # a target on the table by less than half the mover's width: no place in contact keeps
    # the mover's base on the table
    target = Base.of("normal", "square", 0.0, 30.0, 0.0)
    target = target.moved(-target.width / 2.0 + mover.width / 4.0, 30.0)
    assert paths.shortest_path(mover.sight, target, [], mover.width, table=TABLE.area) is None
    assert reference(mover.sight, target, [], mover.width, TABLE.area) is None
