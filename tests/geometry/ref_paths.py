"""Frozen copy of confrontation.geometry.paths before the speed-up (commit e5ad2e0): the
reference the optimised code must agree with (tests/geometry/test_fast_equivalence.py)."""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from confrontation.geometry.bases import Base
from confrontation.geometry.scenery import Scenery, crossable

#: vertices per quarter circle of an inflated corner
INFLATE_QUAD_SEGS = 6
#: a segment may run along an inflated obstacle's edge: obstacles are eroded by this (cm)
CLEAR_EPS = 1e-4


@dataclass(frozen=True)
class Path:
    """A polyline followed by the sight, in cm."""

    points: tuple[tuple[float, float], ...]

    @property
    def length(self) -> float:
        return sum(math.dist(a, b) for a, b in zip(self.points, self.points[1:], strict=False))

    @property
    def end(self) -> tuple[float, float]:
        return self.points[-1]

    def point_at(self, cm: float) -> tuple[float, float]:
        """Where the sight is after ``cm`` along the path (the end if the path is shorter)."""
        return self.truncated(cm).end

    def heading_at(self, cm: float) -> float:
        """Direction (degrees) of the leg being followed after ``cm``."""
        t = self.truncated(max(cm, 1e-9))
        if len(t.points) < 2:
            return 0.0
        (ax, ay), (bx, by) = t.points[-2], t.points[-1]
        if (ax, ay) == (bx, by):
            return 0.0
        return math.degrees(math.atan2(by - ay, bx - ax))

    def truncated(self, cm: float) -> Path:
        """The part of the path a fighter covers with ``cm`` of movement."""
        out = [self.points[0]]
        left = max(cm, 0.0)
        for a, b in zip(self.points, self.points[1:], strict=False):
            d = math.dist(a, b)
            if d <= left:
                out.append(b)
                left -= d
                continue
            if left > 0:
                f = left / d
                out.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
            break
        return Path(tuple(out))

    def reachable_with(self, cm: float) -> bool:
        return self.length <= cm + 1e-9

    def line(self) -> LineString:
        pts = self.points if len(self.points) > 1 else self.points * 2
        return LineString(pts)


def move_obstacles(
    mover: Base,
    fighters: Iterable[Base],
    scenery: Iterable[Scenery] = (),
    *,
    move_at_most_mov: bool = False,
) -> list[BaseGeometry]:
    """V-A: the shapes a move must go round.

    ``fighters``: the bases the mover may NOT pass through (the caller leaves out friends
    free of enemies activated this round, V-A, and the mover itself). Only fighters at the
    mover's altitude level are obstacles (II-F-1). Scenery obstructs a fighter at level 0
    when :func:`~confrontation.geometry.scenery.crossable` says it can't be crossed.
    """
    out: list[BaseGeometry] = [f.polygon for f in fighters if f.level == mover.level]
    if mover.level == 0:
        out.extend(s.footprint for s in scenery if not crossable(s, mover.size, move_at_most_mov))
    return out


def _inflate(shape: BaseGeometry, r: float) -> BaseGeometry:
    if r <= 0:
        return shape
    return shape.buffer(r, quad_segs=INFLATE_QUAD_SEGS)


def _corners(poly: BaseGeometry) -> np.ndarray:
    """Convex corners of each polygon as rows (x, y, prev_x, prev_y, next_x, next_y)."""
    rows: list[np.ndarray] = []
    polys = list(poly.geoms) if poly.geom_type == "MultiPolygon" else [poly]
    for p in polys:
        if p.geom_type != "Polygon" or p.is_empty:
            continue
        ring = np.asarray(p.exterior.coords)[:-1]
        if not p.exterior.is_ccw:
            ring = ring[::-1]
        if len(ring) < 3:
            continue
        prev, nxt = np.roll(ring, 1, axis=0), np.roll(ring, -1, axis=0)
        cross = (ring[:, 0] - prev[:, 0]) * (nxt[:, 1] - ring[:, 1]) - (ring[:, 1] - prev[:, 1]) * (
            nxt[:, 0] - ring[:, 0]
        )
        keep = cross > 1e-12
        rows.append(np.hstack([ring[keep], prev[keep], nxt[keep]]))
    return np.vstack(rows) if rows else np.zeros((0, 6))


def shortest_path(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: Sequence[BaseGeometry],
    width: float,
    *,
    table: BaseGeometry | None = None,
) -> Path | None:
    """The shortest path of a sight of a base ``width`` cm wide, or None if unreachable.

    ``goal`` is a point, or a target base: then the path ends at the nearest reachable
    point of its edge (V-A, V-B-3) and never crosses that base. An obstacle closer to the
    start (or to a goal point) than half the width -- a friend in base contact -- keeps
    only that clearance, so the fighter can leave (or walk up to a wall); an obstacle
    containing the start is ignored (the fighter is leaving it). ``table``: the sight stays
    half a width inside its edges.
    """
    hw = width / 2.0
    sp = Point(start)
    gp = None if isinstance(goal, Base) else Point(goal)
    inflated: list[BaseGeometry] = []
    for o in obstacles:
        if o.is_empty or o.contains(sp):
            continue
        if gp is not None and o.contains(gp) and not o.boundary.contains(gp):
            return None
        r = hw
        r = min(r, float(o.distance(sp)) - 2 * CLEAR_EPS)
        if gp is not None:
            r = min(r, float(o.distance(gp)) - 2 * CLEAR_EPS)
        inflated.append(_inflate(o, max(r, 0.0)))
    parts = list(inflated)
    if table is not None:
        minx, miny, maxx, maxy = table.bounds
        frame = box(minx - 50, miny - 50, maxx + 50, maxy + 50).difference(
            table.buffer(-hw, join_style="mitre")
        )
        parts.append(frame)
    others = (
        shapely.unary_union(parts).buffer(-CLEAR_EPS) if parts else shapely.GeometryCollection()
    )
    target: Polygon | None = goal.polygon if isinstance(goal, Base) else None
    blocker = others
    if target is not None:
        blocker = shapely.union(others, target.buffer(-CLEAR_EPS))
    shapely.prepare(blocker)
    if shapely.contains_xy(blocker, *start):
        return None

    if target is not None:
        goal_set = target.exterior.difference(others) if not others.is_empty else target.exterior
        if goal_set.is_empty:
            return None
    else:
        assert gp is not None
        goal_set = gp
        if shapely.contains_xy(blocker, gp.x, gp.y):
            return None

    corners = np.vstack([_corners(g) for g in inflated]) if inflated else np.zeros((0, 6))
    if len(corners):
        ok = ~shapely.contains_xy(blocker, corners[:, 0], corners[:, 1])
        corners = corners[ok]
    xy = corners[:, :2]
    n = len(xy)
    heur = shapely.distance(goal_set, shapely.points(xy)) if n else np.zeros(0)

    def visible(p: tuple[float, float], qs: np.ndarray) -> np.ndarray:
        if blocker.is_empty:
            return np.ones(len(qs), dtype=bool)
        segs = np.empty((len(qs), 2, 2))
        segs[:, 0] = p
        segs[:, 1] = qs
        hits: np.ndarray = shapely.intersects(blocker, shapely.linestrings(segs))
        return ~hits

    def goal_point(p: tuple[float, float]) -> tuple[float, float]:
        if target is None:
            return (gp.x, gp.y)  # type: ignore[union-attr]
        line = shapely.shortest_line(goal_set, Point(p))
        c = np.asarray(line.coords)[0]
        return (float(c[0]), float(c[1]))

    start_h = float(goal_set.distance(sp))
    cost = np.full(n, np.inf)
    parent = np.full(n, -2, dtype=int)  # -1: start
    closed = np.zeros(n, dtype=bool)
    best_goal = math.inf
    goal_parent, goal_end = -1, (0.0, 0.0)
    heap: list[tuple[float, int]] = [(start_h, -1)]
    start_cost = 0.0
    while heap:
        f, u = heapq.heappop(heap)
        if u == -3:
            break
        if u >= 0:
            if closed[u]:
                continue
            closed[u] = True
            p = (float(xy[u, 0]), float(xy[u, 1]))
            gc = float(cost[u])
        else:
            p, gc = start, start_cost
        if f >= best_goal:
            break
        q = goal_point(p)
        d = math.dist(p, q)
        if gc + d < best_goal and visible(p, np.array([q]))[0]:
            best_goal, goal_parent, goal_end = gc + d, u, q
            heapq.heappush(heap, (best_goal, -3))
        if n == 0:
            continue
        vx, vy = xy[:, 0] - p[0], xy[:, 1] - p[1]
        c1 = vx * (corners[:, 3] - p[1]) - vy * (corners[:, 2] - p[0])
        c2 = vx * (corners[:, 5] - p[1]) - vy * (corners[:, 4] - p[0])
        step = np.hypot(vx, vy)
        cand = (c1 * c2 >= -1e-12) & ~closed & (step > 1e-9) & (gc + step < cost)
        idx = np.nonzero(cand)[0]
        if len(idx) == 0:
            continue
        vis = visible(p, xy[idx])
        for i in idx[vis]:
            c = gc + float(step[i])
            if c < cost[i]:
                cost[i] = c
                parent[i] = u
                heapq.heappush(heap, (c + float(heur[i]), int(i)))
    if not math.isfinite(best_goal):
        return None
    pts = [goal_end]
    u = goal_parent
    while u >= 0:
        pts.append((float(xy[u, 0]), float(xy[u, 1])))
        u = int(parent[u])
    pts.append(start)
    pts.reverse()
    return Path(tuple(pts))
