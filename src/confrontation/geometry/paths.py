"""Movement paths (V-A): the most direct way from the sight to a point or to a base.

The path is the one the sight follows. Obstacles are inflated by half the width of the
moving base, so the sight keeps half a base of clearance on each side and a gap narrower
than the base's width is closed (V-A: "cannot pass between two obstacles separated by less
than the width of his base"). The shortest path is searched with A* on the visibility graph
of the inflated obstacles' convex corners, pruned to the bitangent graph (a leg is tried
only if it is tangent to the obstacle at both of its corners and turns round the obstacle of
the corner it leaves: no shortest path takes any other). A goal base's last leg ends at the
nearest point of its reachable edge or, when that leg is blocked, at another edge's nearest
point, or where a corner's edge, or the way that reached the corner, carried on meets an
edge (the ends of the shadows on the goal edge). The answer is the exact shortest path of
that model (tests/geometry/test_exact_paths.py checks it against a brute-force search).
Curves are polygons (6 segments per quarter circle): clearance is exact along straight
edges and within 0.25 mm around curves.

What is an obstacle is the caller's decision (the engine applies V-A:
:func:`move_obstacles` is the standard choice).
"""

from __future__ import annotations

import heapq
import math
from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from confrontation.geometry.bases import Base
from confrontation.geometry.measure import point_distance
from confrontation.geometry.scenery import Scenery, crossable

#: vertices per quarter circle of an inflated corner
INFLATE_QUAD_SEGS = 6
#: a segment may run along an inflated obstacle's edge: obstacles are eroded by this (cm)
CLEAR_EPS = 1e-4
#: the straight-line answer is taken when obstacles stand this far (cm) beyond half a width
STRAIGHT_MARGIN = 1e-3
#: a goal set of at most this many edges: its nearest point found in plain arithmetic
FEW_GOAL_EDGES = 16
#: a corner is left out of a bounded A* when its lower bound passes the bound by this much
#: (cm): far more than the rounding of the bound and of the A*'s costs
CORNER_MARGIN = 1e-6
#: a bounded search stops when its lower bound passes the reach by this much (cm): more
#: than the rounding between the bound and the found path's :attr:`Path.length`
REACH_SLACK = 1e-7


#: an obstacle is left out of a bounded search when every way through it is this much (cm)
#: longer than the reach (far more than the erosion and rounding of the shapes)
PRUNE_MARGIN = 1e-2

#: shapely's ``handle_nan`` argument "allow" for its low-level constructors
_NAN_ALLOW = np.intc(0)


def _point(p: tuple[float, float]) -> Point:
    """``Point(p)`` without the wrappers (the same GEOS point, a third of the time)."""
    made: Point = shapely.lib.points(np.array((float(p[0]), float(p[1]))), _NAN_ALLOW)
    return made


def _segment(a: tuple[float, float], b: tuple[float, float]) -> LineString:
    """``LineString([a, b])`` without the wrappers (the same GEOS line)."""
    xy = np.array((float(a[0]), float(a[1]), float(b[0]), float(b[1]))).reshape(2, 2)
    made: LineString = shapely.lib.linestrings(xy, _NAN_ALLOW)
    return made


def _within_ellipse(
    shapes: np.ndarray,
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    hw: float,
    reach: float,
    to_start_: np.ndarray | None = None,
    to_goal_: np.ndarray | None = None,
) -> np.ndarray:
    """Which ``shapes``, inflated by ``hw``, may meet a way from ``start`` to the goal at
    most ``reach`` long: a way through a point x is at least |x - start| + the distance from
    x to the goal, so a shape farther than the reach (plus :data:`PRUNE_MARGIN`) by that
    measure from the start and the goal (the ellipse of foci start and goal) is of no use.
    A shape holding a goal point is always kept (the search says why it is unreachable).
    ``to_start_``, ``to_goal_``: the shapes' distances to the start and the goal, when known."""
    if to_start_ is None:
        to_start_ = shapely.distance(shapes, Point(start))
    to_start = np.maximum(to_start_ - hw, 0.0)
    if to_goal_ is None:
        end = goal.polygon if isinstance(goal, Base) else Point(goal)
        to_goal_ = shapely.distance(shapes, end)
    to_goal = np.maximum(to_goal_ - hw, 0.0)
    near: np.ndarray = to_start + to_goal <= reach + PRUNE_MARGIN
    if not isinstance(goal, Base):
        near |= to_goal <= 0.0
    return near


#: bounding boxes farther apart than a distance by this much (cm) hold shapes farther apart
#: than it (far more than the rounding of a distance)
BOX_MARGIN = 1e-9


def _any_within(shapes: np.ndarray, other: BaseGeometry, gap: float) -> bool:
    """Is any of ``shapes`` at most ``gap`` from ``other``? (``shapely.distance`` of each,
    asked only of the shapes whose bounding box is within ``gap`` of ``other``'s: two shapes
    are at least as far apart as their boxes.)"""
    if not len(shapes):
        return False
    b = shapely.bounds(shapes)
    ox0, oy0, ox1, oy1 = other.bounds
    dx = np.maximum(np.maximum(b[:, 0] - ox1, ox0 - b[:, 2]), 0.0)
    dy = np.maximum(np.maximum(b[:, 1] - oy1, oy0 - b[:, 3]), 0.0)
    near = np.hypot(dx, dy) <= gap + BOX_MARGIN
    if not near.any():
        return False
    return bool((shapely.distance(shapes[near], other) <= gap).any())


def _beyond_reach(
    start: tuple[float, float], goal: tuple[float, float] | Base, reach: float
) -> bool:
    """Is even the straight line from ``start`` to the goal (a point, or the nearest point
    of a base's edge) longer than ``reach``? Then so is every path."""
    if reach == math.inf:
        return False
    if isinstance(goal, Base):
        gap = point_distance(goal, start[0], start[1])
    else:
        gap = math.dist(start, goal)
    return gap > reach + REACH_SLACK


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
        exterior = p.exterior
        ring = shapely.get_coordinates(exterior)[:-1]
        if not exterior.is_ccw:
            ring = ring[::-1]
        if len(ring) < 3:
            continue
        # each corner's previous and next corners (np.roll by 1 and -1, by slicing)
        prev = np.concatenate((ring[-1:], ring[:-1]))
        nxt = np.concatenate((ring[1:], ring[:1]))
        cross = (ring[:, 0] - prev[:, 0]) * (nxt[:, 1] - ring[:, 1]) - (ring[:, 1] - prev[:, 1]) * (
            nxt[:, 0] - ring[:, 0]
        )
        keep = cross > 1e-12
        rows.append(np.concatenate((ring[keep], prev[keep], nxt[keep]), axis=1))
    return np.vstack(rows) if rows else np.zeros((0, 6))


def _frame(table: BaseGeometry, hw: float) -> BaseGeometry:
    """Outside of the table shrunk by half a base: the sight may not go there."""
    minx, miny, maxx, maxy = table.bounds
    return box(minx - 50, miny - 50, maxx + 50, maxy + 50).difference(
        table.buffer(-hw, join_style="mitre")
    )


class PathSearch:
    """The path questions about one set of obstacles for one base width (a battlefield's
    fighters and scenery at a level): each :meth:`query` is one search in named steps.

    1. beyond the reach: even the straight line is too long (:func:`_beyond_reach`);
    2. the straight shortcut: nothing stands near the straight line (:meth:`_straight`);
    3. the obstacles near the ends and within the reach, inflated (:func:`_near_ends`);
    4. what blocks: those merged, with the goal base (:func:`_blocker`);
    5. the goal set: where a path may end (:func:`_goal_set`); a bounded search whose start
       is farther from it than the reach answers None there (the A* would stop at once);
    6. the corners a path may turn at (:func:`_turning_corners`);
    7. the bounded A* (:func:`_astar`); an unbounded one first within a guessed reach
       (:func:`_search`).

    ``table``: the sight stays half a width inside its edges."""

    def __init__(
        self,
        obstacles: Sequence[BaseGeometry],
        width: float,
        table: BaseGeometry | None = None,
    ) -> None:
        self._args = (list(obstacles), width, table)
        #: questions answered by the search (steps 3-7) and by the straight line (step 2)
        self.queries = 0
        self.straight = 0
        self._shapes: tuple[np.ndarray, np.ndarray, BaseGeometry | None] | None = None

    def _straight(
        self, start: tuple[float, float], goal: tuple[float, float] | Base, skip: Collection[int]
    ) -> Path | None:
        """The straight line from ``start`` to the goal (a goal base: its edge's nearest
        point), when it is the answer of the search; None when that is not sure.

        It is sure when every obstacle (but those containing the start, which the search
        leaves out) stands more than half the width (plus :data:`STRAIGHT_MARGIN`) from the
        segment, and the segment lies that far inside the table: then no inflated obstacle
        meets it, the search's first goal leg (start to the nearest point of the goal) is
        clear, and every path by a corner is longer by far more than rounding. For a goal
        base, the nearest point of its edge must also be left by the obstacles near it (its
        reachable edge is then computed as the search computes it)."""
        obstacles, width, table = self._args
        if self._shapes is None:
            raw = np.array(obstacles, dtype=object)
            empty = shapely.is_empty(raw) if len(raw) else np.zeros(0, dtype=bool)
            inner = None if table is None else _inner(table, width)
            self._shapes = (raw, empty, inner)
        raw, empty, inner = self._shapes
        sp = _point(start)
        if isinstance(goal, Base):
            tgt = goal.polygon
            if tgt.intersects(sp):
                return None
            ring = tgt.exterior
            c = np.asarray(shapely.shortest_line(ring, sp).coords)[0]
            end = (float(c[0]), float(c[1]))
        else:
            tgt, end = None, (float(goal[0]), float(goal[1]))
        if math.dist(start, end) <= 1e-9:
            return None
        seg = _segment(start, end)
        if inner is not None and not inner.contains(seg):
            return None
        hw = width / 2.0
        # the obstacles the search keeps: not empty, not skipped, not holding the start
        kept = np.zeros(0, dtype=object)
        if len(raw):
            use = ~empty
            if skip:
                use[list(skip)] = False
            kept = raw[use]
            if len(kept):
                kept = kept[~shapely.contains_xy(kept, start[0], start[1])]
        clear = hw + STRAIGHT_MARGIN
        if _any_within(kept, seg, clear):
            return None
        if tgt is None:
            return Path((start, end))
        edge_cut = inner is not None and not inner.contains(tgt)
        if _any_within(kept, tgt, clear):
            edge_cut = True
        if edge_cut:
            # obstacles or the table's edge may cut the goal base's edge: its reachable part
            # is computed as the search does, and the straight answer only stands if the
            # nearest point is still there
            # only the groups near the goal base cut its edge (only their pieces inflated)
            frame = None if table is None else _framed(table, hw)
            near = _groups_meeting(kept.tolist(), hw, frame, tgt.bounds)
            others = _eroded_union(near, tgt.bounds)
            goal_set = ring.difference(others) if not others.is_empty else ring
            if goal_set.is_empty:
                return None
            c = np.asarray(shapely.shortest_line(goal_set, sp).coords)[0]
            if math.dist((float(c[0]), float(c[1])), end) > 1e-9:
                return None
            end = (float(c[0]), float(c[1]))
        return Path((start, end))

    def query(
        self,
        start: tuple[float, float],
        goal: tuple[float, float] | Base,
        *,
        skip: Collection[int] = (),
        reach: float = math.inf,
    ) -> Path | None:
        """The shortest path (see :func:`shortest_path`) leaving out obstacles ``skip``.
        ``reach``: only a path at most that long is wanted (see :func:`shortest_path`)."""
        if _beyond_reach(start, goal, reach):
            return None
        straight = self._straight(start, goal, skip)
        if straight is not None:
            self.straight += 1
            return straight
        self.queries += 1
        obstacles, width, table = self._args
        keep = [o for i, o in enumerate(obstacles) if i not in skip]
        return _search(start, goal, keep, width, table=table, reach=reach)


_INNER: dict[tuple[int, float], tuple[BaseGeometry, BaseGeometry]] = {}


def _inner(table: BaseGeometry, width: float) -> BaseGeometry:
    """The table shrunk by half ``width`` and :data:`STRAIGHT_MARGIN`, prepared (cached
    per table and width: a battlefield's table is one object for the whole game)."""
    key = (id(table), width)
    hit = _INNER.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    inner = table.buffer(-(width / 2.0 + STRAIGHT_MARGIN), join_style="mitre")
    shapely.prepare(inner)
    if len(_INNER) > 64:
        _INNER.clear()
    _INNER[key] = (table, inner)  # the entry keeps the table alive: its id stays its
    return inner


@dataclass(frozen=True)
class _Inflated:
    """An obstacle inflated by a radius, eroded by :data:`CLEAR_EPS`, and its convex
    corners (see :func:`_corners`); the last two made when first asked for (a piece merged
    with others is never eroded alone; the straight answer's check asks for no corner)."""

    shape: BaseGeometry
    #: the shape's bounding box (minx, miny, maxx, maxy)
    box: tuple[float, float, float, float]
    #: the table's frame: a box no shape inside which meets it (None: any may)
    free: tuple[float, float, float, float] | None = None
    #: a shape with no corner to turn at (the table's frame)
    cornerless: bool = False

    @cached_property
    def eroded(self) -> BaseGeometry:
        return self.shape.buffer(-CLEAR_EPS)

    @cached_property
    def corners(self) -> np.ndarray:
        return np.zeros((0, 6)) if self.cornerless else _corners(self.shape)


_INFLATED: OrderedDict[tuple[int, float], tuple[BaseGeometry, _Inflated]] = OrderedDict()
_INFLATED_SIZE = 4096


def _inflated(o: BaseGeometry, r: float) -> _Inflated:
    """``o`` inflated by ``r`` (cached: the engine asks again and again about the same bases,
    whose shapes are themselves cached objects)."""
    key = (id(o), r)
    hit = _INFLATED.get(key)
    if hit is not None and hit[0] is o:
        return hit[1]
    g = _inflate(o, r)
    made = _Inflated(g, g.bounds)
    _INFLATED[key] = (o, made)  # the entry keeps ``o`` alive: its id is not reused
    if len(_INFLATED) > _INFLATED_SIZE:
        _INFLATED.popitem(last=False)
    return made


def _framed(table: BaseGeometry, hw: float) -> _Inflated:
    """The frame the sight may not enter (see :func:`_frame`), cached like obstacles."""
    key = (id(table), -hw)
    hit = _INFLATED.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    g = _frame(table, hw)
    made = _Inflated(g, g.bounds, _free_box(table, hw), cornerless=True)
    _INFLATED[key] = (table, made)
    return made


def _free_box(table: BaseGeometry, hw: float) -> tuple[float, float, float, float] | None:
    """The box of the table shrunk by ``hw`` (the hole of :func:`_frame`) when that hole is
    the box: a shape strictly inside it does not meet the frame. None otherwise."""
    hole = table.buffer(-hw, join_style="mitre")
    if hole.is_empty or not hole.equals(box(*hole.bounds)):
        return None
    x0, y0, x1, y1 = hole.bounds
    return (x0, y0, x1, y1)


_GROUPS: OrderedDict[tuple[int, ...], tuple[list[BaseGeometry], BaseGeometry]] = OrderedDict()


def _eroded_group(shapes: list[BaseGeometry]) -> BaseGeometry:
    """Inflated shapes that meet, merged and eroded by :data:`CLEAR_EPS` (cached by the
    shape objects, in order: the scenery and the fighters who did not move bring the same
    objects to the next battlefield, so their groups are merged once)."""
    key = tuple(id(g) for g in shapes)
    hit = _GROUPS.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], shapes, strict=True)):
        _GROUPS.move_to_end(key)
        return hit[1]
    made = shapely.unary_union(shapes).buffer(-CLEAR_EPS)
    _GROUPS[key] = (shapes, made)  # the entry keeps the shapes alive: their ids stay theirs
    if len(_GROUPS) > _INFLATED_SIZE:
        _GROUPS.popitem(last=False)
    return made


_TOUCH: dict[tuple[int, int], tuple[BaseGeometry, BaseGeometry, bool]] = {}
_TOUCH_SIZE = 50_000

#: at most this many boxes: their meeting pairs found in plain arithmetic (:func:`_box_pairs`)
FEW_BOXES = 24


def _box_pairs(boxes: list[tuple[float, float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (i, j), i < j, of ``boxes`` that meet (closed boxes), in row order: a few
    boxes in plain arithmetic (the same comparisons), more as an m x m numpy matrix."""
    m = len(boxes)
    if m > FEW_BOXES:
        bx = np.array(boxes).reshape(m, 4)
        meet = (
            (bx[:, None, 0] <= bx[None, :, 2])
            & (bx[None, :, 0] <= bx[:, None, 2])
            & (bx[:, None, 1] <= bx[None, :, 3])
            & (bx[None, :, 1] <= bx[:, None, 3])
        )
        a, b = np.nonzero(np.triu(meet, 1))
        return a, b
    first: list[int] = []
    second: list[int] = []
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        for j in range(i + 1, m):
            u0, v0, u1, v1 = boxes[j]
            if x0 <= u1 and u0 <= x1 and y0 <= v1 and v0 <= y1:
                first.append(i)
                second.append(j)
    return np.array(first, dtype=np.intp), np.array(second, dtype=np.intp)


def _touching(pieces: Sequence[_Inflated]) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (i, j), i < j, of ``pieces`` whose shapes meet: those whose bounding boxes
    meet and ``intersects`` (shape i prepared, as an STRtree query of the shapes with the
    predicate "intersects" tests them). Each pair's answer is kept across questions (by the
    shape objects: most pieces are the same objects from one question to the next)."""
    a, b = _box_pairs([p.box for p in pieces])
    shapes = [p.shape for p in pieces]
    ids = [id(s) for s in shapes]
    get = _TOUCH.get
    found_: list[bool] = []
    todo: list[int] = []
    for k, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        hit = get((ids[i], ids[j]))
        if hit is not None and hit[0] is shapes[i] and hit[1] is shapes[j]:
            found_.append(hit[2])
        else:
            found_.append(False)
            todo.append(k)
    out = np.array(found_, dtype=bool)
    if todo:
        first = np.array([pieces[i].shape for i in a[todo].tolist()], dtype=object)
        second = np.array([pieces[j].shape for j in b[todo].tolist()], dtype=object)
        shapely.prepare(first)
        found = shapely.intersects(first, second)
        out[todo] = found
        if len(_TOUCH) + len(todo) > _TOUCH_SIZE:
            _TOUCH.clear()
        for si, sj, yes in zip(first.tolist(), second.tolist(), found.tolist(), strict=True):
            # the entry keeps the shapes alive: their ids stay theirs
            _TOUCH[(id(si), id(sj))] = (si, sj, yes)
    return a[out], b[out]


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


#: an obstacle inflated by a radius r lies inside its box grown by r and this (cm): far
#: more than the rounding of the buffer's arcs
GROW_MARGIN = 1e-6


def _groups_meeting(
    obstacles: list[BaseGeometry],
    hw: float,
    frame: _Inflated | None,
    window: tuple[float, float, float, float],
) -> list[_Inflated]:
    """Of the ``obstacles`` inflated by ``hw`` and the table's ``frame`` (last), the pieces
    of the groups of touching pieces one of whose boxes meets ``window``, in order: what
    ``_eroded_union(all pieces, window)`` builds, from the same pieces. A flood fill from
    the pieces whose box meets the window through the pieces they touch; an obstacle is
    inflated only when its grown box (:data:`GROW_MARGIN`) meets a member's box or the
    window, so the obstacles far from those groups are never inflated."""
    n = len(obstacles)
    boxes = shapely.bounds(np.array(obstacles, dtype=object)) if n else np.zeros((0, 4))
    grow = hw + GROW_MARGIN
    lo_x, lo_y = boxes[:, 0] - grow, boxes[:, 1] - grow
    hi_x, hi_y = boxes[:, 2] + grow, boxes[:, 3] + grow
    made: dict[int, _Inflated] = {} if frame is None else {n: frame}

    def piece(i: int) -> _Inflated:
        got = made.get(i)
        if got is None:
            got = made[i] = _inflated(obstacles[i], hw)
        return got

    def near(b: tuple[float, float, float, float]) -> list[int]:
        hit = (lo_x <= b[2]) & (b[0] <= hi_x) & (lo_y <= b[3]) & (b[1] <= hi_y)
        return np.nonzero(hit)[0].tolist()

    members = {i for i in near(window) if _boxes_meet(piece(i).box, window)}
    if frame is not None and _boxes_meet(frame.box, window):
        members.add(n)
    todo = sorted(members)
    while todo:
        i = todo.pop()
        if i == n:  # the frame: the obstacles not strictly inside its free box may meet it
            free = frame.free  # type: ignore[union-attr]
            close = list(range(n)) if free is None else _leaving(lo_x, lo_y, hi_x, hi_y, free)
        else:
            close = near(piece(i).box)
            if frame is not None and n not in members:
                close.append(n)
        for j in close:
            if j not in members and _touch(piece(min(i, j)), piece(max(i, j))):
                members.add(j)
                todo.append(j)
    return [made[i] for i in sorted(members)]


def _leaving(
    lo_x: np.ndarray,
    lo_y: np.ndarray,
    hi_x: np.ndarray,
    hi_y: np.ndarray,
    free: tuple[float, float, float, float],
) -> list[int]:
    """The boxes not strictly inside ``free``."""
    x0, y0, x1, y1 = free
    inside = (lo_x > x0) & (lo_y > y0) & (hi_x < x1) & (hi_y < y1)
    return np.nonzero(~inside)[0].tolist()


def _touch(first: _Inflated, second: _Inflated) -> bool:
    """Do two pieces' shapes meet? (:func:`_touching`'s test of the pair, ``first`` the
    piece that comes first, from and into its cache.)"""
    si, sj = first.shape, second.shape
    hit = _TOUCH.get((id(si), id(sj)))
    if hit is not None and hit[0] is si and hit[1] is sj:
        return hit[2]
    shapely.prepare(si)
    yes = bool(shapely.intersects(si, sj))
    if len(_TOUCH) >= _TOUCH_SIZE:
        _TOUCH.clear()
    _TOUCH[(id(si), id(sj))] = (si, sj, yes)
    return yes


def _eroded_union(
    pieces: Sequence[_Inflated], window: tuple[float, float, float, float] | None = None
) -> BaseGeometry:
    """The union of the inflated shapes eroded by :data:`CLEAR_EPS`, as one (prepared)
    shape. Shapes that meet are merged before eroding (the seam between them stays
    closed); a shape that meets no other is eroded alone, which gives the same set (a small
    disc inside a union of disjoint shapes lies inside one of them), from its cache.
    ``window`` (a box): only the groups of shapes one of whose boxes meets it are built
    (the rest of the union lies outside the window)."""
    if not pieces:
        return shapely.GeometryCollection()
    out = shapely.multipolygons(_eroded_parts(pieces, window))
    shapely.prepare(out)
    return out


def _eroded_parts(
    pieces: Sequence[_Inflated], window: tuple[float, float, float, float] | None = None
) -> np.ndarray:
    """The polygons of :func:`_eroded_union` (not empty), in its order: the parts it is made
    of, for a caller that splits it again (:func:`_blocker`)."""
    a, b = _touching(pieces)
    # connected groups of shapes that meet (union-find on the touching pairs)
    root = list(range(len(pieces)))

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    for i, j in zip(a.tolist(), b.tolist(), strict=True):
        if i < j:
            ri, rj = find(i), find(j)
            if ri != rj:
                root[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(len(pieces)):
        groups.setdefault(find(i), []).append(i)
    parts: list[BaseGeometry] = []
    for members in groups.values():
        if window is not None and not any(_boxes_meet(pieces[i].box, window) for i in members):
            continue
        if len(members) == 1:
            parts.append(pieces[members[0]].eroded)
        else:
            parts.append(_eroded_group([pieces[i].shape for i in members]))
    polys = shapely.get_parts(np.array(parts, dtype=object))
    kept: np.ndarray = polys[~shapely.is_empty(polys)]
    return kept


class _Question:
    """One question to the search, filled in step by step (:func:`_search`)."""

    def __init__(
        self, start: tuple[float, float], goal: tuple[float, float] | Base, reach: float
    ) -> None:
        self.start, self.goal, self.reach = start, goal, reach
        self.bound = reach + REACH_SLACK
        self.sp = _point(start)
        #: the goal point (None: a goal base, ``target``)
        self.gp: Point | None = None if isinstance(goal, Base) else _point(goal)
        self.target: Polygon | None = goal.polygon if isinstance(goal, Base) else None
        #: the obstacles inflated (step 3), the table's frame last
        self.pieces: list[_Inflated] = []
        self.n_obstacles = 0
        #: the obstacles merged and eroded, and with the goal base (step 4)
        self.others: BaseGeometry | None = None
        self.blocker: BaseGeometry | None = None
        #: the merged obstacles whose box meets the goal base's (step 4, a goal base)
        self.near_others: BaseGeometry | None = None
        #: where a path may end (step 5), and its distance from the start (None: not known)
        self.goal_set: BaseGeometry | None = None
        self.start_h: float | None = None
        #: which corners given to the A* are on a convex piece (:func:`_hides_goal`; None:
        #: not known, no goal leg is skipped)
        self.convex: np.ndarray | None = None

    def visible(self, p: tuple[float, float], qs: np.ndarray) -> np.ndarray:
        """Which segments from ``p`` to each of ``qs`` the blocker leaves clear."""
        blocker = self.blocker
        assert blocker is not None
        if blocker.is_empty:
            return np.ones(len(qs), dtype=bool)
        segs = np.empty((len(qs), 2, 2))
        segs[:, 0] = p
        segs[:, 1] = qs
        # shapely.intersects(blocker, shapely.linestrings(segs)) without the wrappers
        lines = shapely.lib.linestrings(segs, _NAN_ALLOW)
        hits: np.ndarray = shapely.lib.intersects(blocker, lines)
        return ~hits

    def clear_flat(self, flat: list[float]) -> list[bool]:
        """Which segments ``flat`` (x0, y0, x1, y1 each, one flat list) the blocker leaves
        clear: :meth:`visible`'s GEOS test, with one numpy array built from a list."""
        blocker = self.blocker
        assert blocker is not None
        if blocker.is_empty:
            return [True] * (len(flat) // 4)
        lines = shapely.lib.linestrings(np.array(flat, dtype=float).reshape(-1, 2, 2), _NAN_ALLOW)
        clear: list[bool] = (~shapely.lib.intersects(blocker, lines)).tolist()
        return clear

    def clear(self, p: tuple[float, float], e: tuple[float, float]) -> bool:
        """Is the segment from ``p`` to ``e`` clear of the blocker? (One segment of
        :meth:`visible`, the same GEOS test, without the array wrappers.)"""
        blocker = self.blocker
        assert blocker is not None
        if blocker.is_empty:
            return True
        seg = shapely.lib.linestrings(
            np.array((p[0], p[1], e[0], e[1]), dtype=float).reshape(2, 2), _NAN_ALLOW
        )
        return not bool(shapely.lib.intersects(blocker, seg))

    def goal_point(self, p: tuple[float, float]) -> tuple[float, float]:
        """The nearest point of the goal set from ``p``."""
        if self.target is None:
            return (self.gp.x, self.gp.y)  # type: ignore[union-attr]
        # shapely.shortest_line(goal_set, Point(p)) without the wrappers: the same GEOS call
        line = shapely.lib.shortest_line(self.goal_set, shapely.lib.points(np.array(p), _NAN_ALLOW))
        c = shapely.lib.get_coordinates(np.array([line]), False, False, False)[0]
        return (float(c[0]), float(c[1]))


def _search(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: Sequence[BaseGeometry],
    width: float,
    *,
    table: BaseGeometry | None = None,
    reach: float = math.inf,
) -> Path | None:
    """Steps 3-7 of :class:`PathSearch`: the obstacles that count, inflated
    (:func:`_near_ends`); merged into what blocks (:func:`_blocker`); where the path may end
    (:func:`_goal_set`); the corners it may turn at (:func:`_turning_corners`); the bounded
    A* (:func:`_astar`). A goal set farther from the start than the bound is answered None
    before the corners: the A*'s first entry, the start, whose f is that distance (the same
    GEOS call, kept in ``q.start_h``), would pass the bound and end it."""
    q = _Question(start, goal, reach)
    if not _near_ends(q, obstacles, width / 2.0):
        return None
    if table is not None:
        q.pieces.append(_framed(table, width / 2.0))
    if not _blocker(q) or not _goal_set(q):
        return None
    assert q.goal_set is not None
    q.start_h = float(q.goal_set.distance(q.sp))
    if q.start_h > q.bound:
        # the A* would stop at once: its first entry, the start (f: the distance to the goal
        # set), passes the bound
        return None
    # each corner with a last column: is its piece convex? (kept through the screens)
    corners = np.column_stack((_convex_corners(q), _convex_flags(q)))
    if q.reach < math.inf and len(corners):
        # a corner every way through which is longer than the reach is never queued
        corners = corners[_lower_bounds(q, corners) <= q.bound + CORNER_MARGIN]
    elif len(corners) > GUESS_CORNERS:
        # first within a guessed reach, among the corners that may lie on a way that short:
        # a path found well within it is the answer (a bounded search finds the same path
        # whenever it is within the reach); else the search among all corners
        guess = GUESS_STRETCH * q.start_h + GUESS_MARGIN
        q.bound = guess + REACH_SLACK
        lower = _lower_bounds(q, corners)
        found = _bounded_astar(q, corners[lower <= q.bound + CORNER_MARGIN])
        q.bound = math.inf
        if found is not None and found.length <= guess - GUESS_SURE:
            return found
    return _bounded_astar(q, corners)


#: an unbounded search among more corners than this first looks within a guessed reach:
#: GUESS_STRETCH times the straight distance to the goal set plus GUESS_MARGIN (cm)
GUESS_CORNERS = 0
GUESS_STRETCH = 1.5
GUESS_MARGIN = 2.0
#: a path found within the guess is taken when this much (cm) shorter than it: far more than
#: the rounding between the A*'s costs and :attr:`Path.length`
GUESS_SURE = 1e-6


def _bounded_astar(q: _Question, corners: np.ndarray) -> Path | None:
    """Steps 6 and 7 on ``corners`` (with their last column, convex or not)."""
    corners, heur = _turning_corners(q, corners)
    q.convex = corners[:, 6] > 0.0
    return _astar(q, corners[:, :6], heur)


def _near_ends(q: _Question, obstacles: Sequence[BaseGeometry], hw: float) -> bool:
    """Step 3, the obstacles inflated by ``hw`` (``q.pieces``): not those holding the start
    (the fighter is leaving them), not those outside the ellipse of a bounded search
    (:func:`_within_ellipse`); one nearer than ``hw`` to the start or a goal point keeps only
    that clearance. False: a goal point inside an obstacle."""
    sp, gp = q.sp, q.gp
    raw = np.array(obstacles, dtype=object)
    kept = np.zeros(0, dtype=int)
    if len(raw):
        kept = np.nonzero(~shapely.is_empty(raw) & ~shapely.contains(raw, sp))[0]
    shapes = raw[kept]
    start_gaps = shapely.distance(shapes, sp)
    gaps = start_gaps.tolist()
    goal_gaps_ = None
    if gp is not None:
        inside = shapely.contains(shapes, gp)
        if inside.any() and not shapely.contains(shapely.boundary(shapes[inside]), gp).all():
            return False
        goal_gaps_ = shapely.distance(shapes, gp)
        goal_gaps = goal_gaps_.tolist()
    if q.reach < math.inf and len(shapes):
        # the distances just measured (the same GEOS calls the ellipse test would make)
        near = _within_ellipse(shapes, q.start, q.goal, hw, q.reach, start_gaps, goal_gaps_)
        shapes = shapes[near]
        gaps = [g for g, k in zip(gaps, near.tolist(), strict=True) if k]
        if gp is not None:
            goal_gaps = [g for g, k in zip(goal_gaps, near.tolist(), strict=True) if k]
    # each obstacle inflated (cached per shape and radius) and eroded for the tests
    for k, o in enumerate(shapes.tolist()):
        r = hw
        r = min(r, gaps[k] - 2 * CLEAR_EPS)
        if gp is not None:
            r = min(r, goal_gaps[k] - 2 * CLEAR_EPS)
        q.pieces.append(_inflated(o, max(r, 0.0)))
    q.n_obstacles = len(shapes)
    return True


_TARGETS: OrderedDict[int, tuple[Polygon, BaseGeometry]] = OrderedDict()


def _eroded_target(target: Polygon) -> BaseGeometry:
    """The goal base eroded by :data:`CLEAR_EPS` (cached by the polygon object: bases'
    polygons are themselves cached)."""
    hit = _TARGETS.get(id(target))
    if hit is not None and hit[0] is target:
        return hit[1]
    made = target.buffer(-CLEAR_EPS)
    _TARGETS[id(target)] = (target, made)  # the entry keeps the polygon alive
    if len(_TARGETS) > _INFLATED_SIZE:
        _TARGETS.popitem(last=False)
    return made


def _blocker(q: _Question) -> bool:
    """Step 4, the inflated shapes merged and eroded (``q.others``) and, with a goal base,
    merged with it (``q.blocker``). False: the start is blocked."""
    if not q.pieces:
        q.others = others = _eroded_union(q.pieces)
        polys = shapely.get_parts(np.array([others], dtype=object))
    else:
        # the parts kept (not split again from the multipolygon: the same polygons)
        polys = _eroded_parts(q.pieces)
        q.others = others = shapely.multipolygons(polys)
    blocker = others
    if q.target is not None:
        # one shape (not two tests): a last leg may end on the cut edge, where the answer
        # depends on the exact shape of the merged boundary
        near = _near_parts(polys, q.target.bounds)
        near_others = others if near.all() else shapely.multipolygons(polys[near])
        q.near_others = near_others
        blocker = _with_target(others, polys, near, _eroded_target(q.target), near_others)
    shapely.prepare(blocker)
    q.blocker = blocker
    return not shapely.contains_xy(blocker, *q.start)


def _near_box(
    others: BaseGeometry, window: tuple[float, float, float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """``others``' polygons, and which of them have a box meeting ``window``."""
    polys = shapely.get_parts(np.array([others], dtype=object))
    return polys, _near_parts(polys, window)


def _near_parts(polys: np.ndarray, window: tuple[float, float, float, float]) -> np.ndarray:
    """Which of ``polys`` have a box meeting ``window``."""
    if not len(polys):
        return np.zeros(0, dtype=bool)
    b = shapely.bounds(polys)
    x0, y0, x1, y1 = window
    near: np.ndarray = (b[:, 0] <= x1) & (x0 <= b[:, 2]) & (b[:, 1] <= y1) & (y0 <= b[:, 3])
    return near


def _with_target(
    others: BaseGeometry,
    polys: np.ndarray,
    near: np.ndarray,
    target: BaseGeometry,
    near_others: BaseGeometry | None = None,
) -> BaseGeometry:
    """``others`` (disjoint polygons ``polys``) merged with the eroded goal base ``target``:
    only the polygons ``near`` it (their box meets the goal base's) are put through the
    union (the others are disjoint from it and come out of a union unchanged).
    ``near_others``: those polygons as one multipolygon, when already made."""
    if not len(polys) or near.all():
        return shapely.union(others, target)
    if near_others is None:
        near_others = shapely.multipolygons(polys[near])
    merged = shapely.union(near_others, target)
    out = np.concatenate((polys[~near], shapely.get_parts(np.array([merged], dtype=object))))
    return shapely.multipolygons(out)


def _goal_set(q: _Question) -> bool:
    """Step 5, where a path may end (``q.goal_set``): the goal point, or the goal base's
    edge less the merged obstacles. False: nowhere."""
    others, target = q.others, q.target
    assert others is not None and q.blocker is not None
    if target is not None:
        # only the obstacles near the goal base cut its edge
        near = q.near_others
        assert near is not None
        goal_set = target.exterior.difference(near) if not near.is_empty else target.exterior
        q.goal_set = goal_set
        return not goal_set.is_empty
    assert q.gp is not None
    q.goal_set = q.gp
    return not shapely.contains_xy(q.blocker, q.gp.x, q.gp.y)


def _convex_corners(q: _Question) -> np.ndarray:
    """The inflated obstacles' convex corners (rows of :func:`_corners`)."""
    inflated = q.pieces[: q.n_obstacles]
    return np.vstack([c.corners for c in inflated]) if inflated else np.zeros((0, 6))


_CONVEX: OrderedDict[int, tuple[_Inflated, bool]] = OrderedDict()


def _is_convex(piece: _Inflated) -> bool:
    """Is ``piece``'s shape one convex polygon (no hole, every vertex a corner of
    :func:`_corners`)? (Cached per piece object, as the pieces themselves.)"""
    hit = _CONVEX.get(id(piece))
    if hit is not None and hit[0] is piece:
        return hit[1]
    shape = piece.shape
    # a hole's vertices would be counted too (a polygon with one has more than its corners)
    yes = bool(
        shapely.get_type_id(shape) == 3
        and len(piece.corners) == shapely.get_num_coordinates(shape) - 1
    )
    _CONVEX[id(piece)] = (piece, yes)  # the entry keeps the piece alive: its id stays its
    if len(_CONVEX) > _INFLATED_SIZE:
        _CONVEX.popitem(last=False)
    return yes


def _convex_flags(q: _Question) -> np.ndarray:
    """For each row of :func:`_convex_corners`, 1.0 if its piece is convex, else 0.0."""
    inflated = q.pieces[: q.n_obstacles]
    flags = [float(_is_convex(c)) for c in inflated]
    return np.repeat(flags, [len(c.corners) for c in inflated]) if inflated else np.zeros(0)


#: a goal leg is known to be blocked when it passes a point this deep (cm) inside its
#: corner's own convex piece: ten times :data:`CLEAR_EPS`, far more than the rounding of
#: the blocker's shapes
HIDDEN_DEPTH = 1e-3


def _goal_disc(q: _Question) -> tuple[float, float, float]:
    """A disc (x, y, radius) holding the whole goal set (its vertices, with a margin)."""
    xy = shapely.get_coordinates(q.goal_set)
    x0, y0 = xy.min(axis=0).tolist()
    x1, y1 = xy.max(axis=0).tolist()
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    rho = float(np.hypot(xy[:, 0] - cx, xy[:, 1] - cy).max())
    return cx, cy, rho * (1.0 + 1e-9) + 1e-9


def _hides_goal(corner: list[float], disc: tuple[float, float, float]) -> bool:
    """Is every goal leg from ``corner`` (a row of :func:`_corners` of a convex piece)
    blocked by the corner's own piece? True when every point g of the ``disc`` (which holds
    the goal set) lies inside the corner's cone by an angle of sine at least s = 2 d / h
    (d = :data:`HIDDEN_DEPTH`, h the distance from the corner to the chord of its two
    neighbours) and at least h / 2 away: the leg then passes, h / 2 from the corner, a point
    at least d inside the triangle of the corner and its neighbours, itself inside the
    convex piece, so inside the blocker (the piece eroded by :data:`CLEAR_EPS`) by far more
    than rounding. False: not known (the leg is tested)."""
    x, y, ax, ay, bx, by = corner
    ax, ay, bx, by = ax - x, ay - y, bx - x, by - y
    chord = math.hypot(bx - ax, by - ay)
    if chord <= 0.0:
        return False
    h = (bx * ay - by * ax) / chord  # the piece is on the left of its edges (ccw)
    cx, cy, rho = disc
    wx, wy = cx - x, cy - y
    far = math.hypot(wx, wy)
    if h <= 0.0 or far - rho < h / 2.0:
        return False
    need = 2.0 * HIDDEN_DEPTH / h * (far + rho) + rho
    # the cross products with the unit edges: the disc's centre inside the cone from the
    # next corner's edge round to the previous one's, by more than ``need``
    return (bx * wy - by * wx) / math.hypot(bx, by) >= need and (wx * ay - wy * ax) / math.hypot(
        ax, ay
    ) >= need


def _lower_bounds(q: _Question, corners: np.ndarray) -> np.ndarray:
    """For each corner, a lower bound of every way from the start to the goal set through
    it: its distance to the start and to the goal set's bounding box (plain numpy, within
    rounding of the true distances: :data:`CORNER_MARGIN` covers that)."""
    if not len(corners):
        return np.zeros(0)
    x, y = corners[:, 0], corners[:, 1]
    x0, y0, x1, y1 = shapely.bounds(q.goal_set).tolist()
    dx = np.maximum(np.maximum(x0 - x, x - x1), 0.0)
    dy = np.maximum(np.maximum(y0 - y, y - y1), 0.0)
    out: np.ndarray = np.hypot(x - q.start[0], y - q.start[1]) + np.hypot(dx, dy)
    return out


def _turning_corners(q: _Question, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Step 6, the corners a path may turn at (of ``corners``, the inflated obstacles' convex
    corners, those outside the blocker) and each one's distance to the goal set (the A*'s
    heuristic)."""
    if len(corners):
        ok = ~shapely.contains_xy(q.blocker, corners[:, 0], corners[:, 1])
        corners = corners[ok]
    xy = corners[:, :2]
    heur = shapely.distance(q.goal_set, shapely.points(xy)) if len(xy) else np.zeros(0)
    return corners, heur


def _astar(q: _Question, corners: np.ndarray, heur: np.ndarray) -> Path | None:
    """Step 7, the A* from the start by the corners to the goal set, testing each leg's
    visibility when it is taken off the heap (lazily) rather than when it is queued: most
    legs queued are never taken off (the search ends first), and each test is a GEOS call.

    Its length is the eager A*'s (legs tested when queued; see :func:`_eager_astar`, kept
    for the tests, without the bitangent pruning): a corner is closed by its cheapest clear
    leg from an expanded corner, ties going to the leg queued first; a goal leg ends the
    search when taken off the heap clear, before any corner whose f equals its cost (a
    blocked one gives way to the corner's other goal legs, :func:`_other_goal_legs`, by
    cost); the search stops once the lower bound passes the reach (``q.bound``). A corner
    of a convex piece that hides the whole goal set (:func:`_hides_goal`) queues no goal
    leg: they would all be blocked, and an entry that leads nowhere changes no other's
    order."""
    start, bound = q.start, q.bound
    assert q.goal_set is not None
    xy = corners[:, :2]
    n = len(xy)
    # the columns as contiguous arrays (each expansion runs a dozen operations on them); the
    # previous and next corners' y and x stacked, to compute both cross products at once
    cx, cy = np.ascontiguousarray(corners[:, 0]), np.ascontiguousarray(corners[:, 1])
    sides_y = np.ascontiguousarray(corners[:, [3, 5]].T)
    sides_x = np.ascontiguousarray(corners[:, [2, 4]].T)
    start_h = float(q.goal_set.distance(q.sp)) if q.start_h is None else q.start_h
    # a goal base: each edge of the goal set's nearest point, not only the nearest of all
    # (those points are built only when a corner's first goal leg is blocked); with a few
    # edges, the nearest point of all in plain arithmetic rather than a GEOS call
    edges = _goal_edges(q)
    few = edges is not None and len(edges) <= FEW_GOAL_EDGES
    cost = [0.0] * n
    parent = [-2] * n  # -1: the start
    # closed corners, as a list (asked one at a time) and as an array (of those not closed)
    done = [False] * n
    unclosed = np.ones(n, dtype=bool)
    xs, ys = cx.tolist(), cy.tolist()
    # Entries (f, node, order, source, k): node -3 is a goal leg (ahead of a corner with the
    # same f, as the eager search's goal entry was), ``legs[k]`` its leg (below); a
    # corner's entry stands for the k-th leg of the batch ``source``, the legs queued by one
    # expansion sorted by (f, corner): only a batch's first leg not taken off yet is in the
    # heap (a k-way merge: the heap gives the legs in the order they would leave it if all
    # were queued). ``order``: the first queued goes first.
    order = 0
    heap: list[tuple[float, int, int, int, int]] = [(start_h, -1, 0, -1, 0)]
    #: goal legs: (corner, its cost, its point, the point the way came from to it (None:
    #: the start), end (None: the next of its other goal legs), its other goal legs (None:
    #: not built yet))
    legs: list[
        tuple[
            int,
            float,
            tuple[float, float],
            tuple[float, float] | None,
            tuple[float, float] | None,
            _GoalLegs | None,
        ]
    ] = []
    #: batches: (f, corners, costs, leg start node, leg start point)
    batches: list[tuple[list[float], list[int], list[float], int, tuple[float, float]]] = []
    goal_parent, goal_end = -2, (0.0, 0.0)
    # corners on a convex piece, and a disc round the goal set (made when first needed):
    # an expanded corner that hides the goal set behind its own piece queues no goal leg
    convex = None if q.convex is None or len(q.convex) != n else q.convex.tolist()
    disc: tuple[float, float, float] | None = None
    while heap:
        f, u, o, src, k = heapq.heappop(heap)
        if u == -3:
            # a goal leg ends the search when clear (before the bound is looked at, as the
            # eager search returned its best goal when its entry came off the heap); if not,
            # the same corner's next goal leg (by cost) is queued
            v, gc, at, came, end, more = legs[k]
            if more is None:
                # the corner's first goal leg, and its other goal legs (tried below when the
                # first is blocked), tested together: one GEOS call (almost every first goal
                # leg is blocked, and most corners try several others)
                side = None if v < 0 else corners[v, 2:6]
                assert end is not None
                more = _other_goal_legs(edges, at, end, gc, f, side, came)
                if more.test(q, at, end):
                    goal_parent, goal_end = v, end
                    break
            # tried in turn by cost: at once while no other entry of the heap comes first,
            # else queued (the lazy search's order, without a trip through the heap each)
            while (nxt := more.peek()) is not None and nxt[0] <= bound:
                if heap and nxt[0] > heap[0][0]:
                    legs.append((v, gc, at, came, None, more))
                    heapq.heappush(heap, (nxt[0], -3, o, -1, len(legs) - 1))
                    break
                clear = more.clear[more.at]
                more.advance()
                if clear:
                    goal_parent, goal_end = v, nxt[1:]
                    break
            if goal_parent != -2:
                break
            continue
        if f > bound:
            break
        if u >= 0:
            fs, nodes, costs, v, at = batches[src]
            if k + 1 < len(nodes):
                heapq.heappush(heap, (fs[k + 1], nodes[k + 1], o, src, k + 1))
            if done[u]:
                continue
            p = (xs[u], ys[u])
            if not q.clear(at, p):
                continue
            gc = costs[k]
            done[u] = True
            unclosed[u] = False
            cost[u], parent[u] = gc, v
        else:
            p, gc = start, 0.0
        order += 1
        if u >= 0 and convex is not None and convex[u]:
            if disc is None:
                disc = _goal_disc(q)
            hidden = _hides_goal(corners[u].tolist(), disc)
        else:
            hidden = False
        if not hidden:  # (a hidden corner's goal legs are all blocked: none is queued)
            end = _nearest_on(edges, p) if few else q.goal_point(p)  # type: ignore[arg-type]
            legs.append((u, gc, p, None if u < 0 else at, end, None))
            heapq.heappush(heap, (gc + math.dist(p, end), -3, order, -1, len(legs) - 1))
        if n == 0:
            continue
        vx, vy = cx - p[0], cy - p[1]
        # the tangent test: the cross products with the previous and the next corner
        c = vx * (sides_y - p[1]) - vy * (sides_x - p[0])
        idx = np.nonzero((c[0] * c[1] >= -1e-12) & unclosed)[0]
        came = None if u < 0 else at
        batch = (_legs_plain if len(idx) <= FEW_LEGS else _legs_numpy)(
            idx, vx, vy, None if u < 0 else corners[u], came, heur, gc, bound
        )
        if batch is None:
            continue
        order += 1
        batches.append((*batch, u, p))
        heapq.heappush(heap, (batch[0][0], batch[1][0], order, len(batches) - 1, 0))
    if goal_parent == -2:
        return None
    pts = [goal_end]
    w = goal_parent
    while w >= 0:
        pts.append((float(xy[w, 0]), float(xy[w, 1])))
        w = parent[w]
    pts.append(start)
    pts.reverse()
    return Path(tuple(pts))


#: an expansion's legs to at most this many tangent corners are screened in plain
#: arithmetic (:func:`_legs_plain`), to more in numpy (:func:`_legs_numpy`)
FEW_LEGS = 48

#: an expansion's legs: their f, their corners, their costs, sorted by (f, corner)
_Batch = tuple[list[float], list[int], list[float]]


def _legs_numpy(
    idx: np.ndarray,
    vx: np.ndarray,
    vy: np.ndarray,
    corner: np.ndarray | None,
    came: tuple[float, float] | None,
    heur: np.ndarray,
    gc: float,
    bound: float,
) -> _Batch | None:
    """The legs queued by an expansion at ``corner`` (None: the start), reached at cost
    ``gc`` from ``came``, among the tangent corners ``idx`` not closed (``vx``, ``vy``: the
    legs to all corners): taut at ``corner`` (the bitangent graph: a shortest path bending
    there leaves it tangent to its obstacle too, and turns round that obstacle), not empty,
    within the bound. None: no leg."""
    if corner is not None:
        assert came is not None
        idx = idx[_taut_from(corner, came, vx[idx], vy[idx])]
    step = np.hypot(vx[idx], vy[idx])
    reached = gc + step
    h = heur[idx]
    keep = step > 1e-9
    if bound < math.inf:
        keep &= reached + h <= bound
    idx, reached, h = idx[keep], reached[keep], h[keep]
    if len(idx) == 0:
        return None
    fq = reached + h
    by = np.lexsort((idx, fq))
    return fq[by].tolist(), idx[by].tolist(), reached[by].tolist()


def _legs_plain(
    idx: np.ndarray,
    vx: np.ndarray,
    vy: np.ndarray,
    corner: np.ndarray | None,
    came: tuple[float, float] | None,
    heur: np.ndarray,
    gc: float,
    bound: float,
) -> _Batch | None:
    """:func:`_legs_numpy` for a few corners, in plain arithmetic: the same operations
    (each correctly rounded, as numpy's), but the legs' lengths (numpy's ``hypot``)."""
    if not len(idx):
        return None
    dx, dy = vx[idx], vy[idx]
    steps = np.hypot(dx, dy).tolist()
    hs = heur[idx].tolist()
    if corner is not None:
        assert came is not None
        x, y, ax, ay, bx, by = corner.tolist()
        ax, ay, bx, by = ax - x, ay - y, bx - x, by - y
        inx, iny = x - came[0], y - came[1]
        side = inx * (ay + by) - iny * (ax + bx)
    legs: list[tuple[float, int, float]] = []
    for i, lx, ly, step, h in zip(idx.tolist(), dx.tolist(), dy.tolist(), steps, hs, strict=True):
        if corner is not None and (
            (lx * ay - ly * ax) * (lx * by - ly * bx) < -1e-12
            or (inx * ly - iny * lx) * side < -1e-12
        ):
            continue  # not taut (see :func:`_taut_from`)
        if step <= 1e-9:
            continue
        reached = gc + step
        f = reached + h
        if f <= bound:
            legs.append((f, i, reached))
    if not legs:
        return None
    legs.sort()
    return [e[0] for e in legs], [e[1] for e in legs], [e[2] for e in legs]


#: a goal edge: (ax, ay, bx - ax, by - ay, its squared length, the fraction of it kept
#: CLEAR_EPS inside each end: where an obstacle cuts the goal set, the end itself touches
#: the blocker)
_GoalEdge = tuple[float, float, float, float, float, float]


def _goal_edges(q: _Question) -> list[_GoalEdge] | None:
    """The goal set's edges (a lone point: a = b); None for a goal point."""
    if q.target is None or q.goal_set is None:
        return None
    parts = shapely.get_parts(np.array([q.goal_set], dtype=object))
    xy, which = shapely.get_coordinates(parts, return_index=True)
    rows = [np.concatenate((xy[:-1], xy[1:]), axis=1)[which[:-1] == which[1:]]]
    alone = np.nonzero(np.bincount(which, minlength=len(parts)) == 1)[0]
    if len(alone):
        pts = xy[np.isin(which, alone)]
        rows.append(np.concatenate((pts, pts), axis=1))
    out: list[_GoalEdge] = []
    for ax, ay, bx, by in np.vstack(rows).tolist():
        abx, aby = bx - ax, by - ay
        den = abx * abx + aby * aby
        lo = min(CLEAR_EPS / math.sqrt(den), 0.5) if den > 0 else 0.0
        out.append((ax, ay, abx, aby, den, lo))
    return out


def _nearest_on(edges: list[_GoalEdge], p: tuple[float, float]) -> tuple[float, float]:
    """The nearest point of the goal set's ``edges`` from ``p`` (the first of equals)."""
    px, py = p
    best, at = math.inf, p
    for ax, ay, abx, aby, den, _ in edges:
        t = ((px - ax) * abx + (py - ay) * aby) / den if den > 0 else 0.0
        t = min(max(t, 0.0), 1.0)
        x, y = ax + t * abx, ay + t * aby
        d = (x - px) * (x - px) + (y - py) * (y - py)
        if d < best:
            best, at = d, (x, y)
    return at


def _other_goal_legs(
    edges: list[_GoalEdge] | None,
    p: tuple[float, float],
    end: tuple[float, float],
    gc: float,
    first: float,
    sides: np.ndarray | None = None,
    came: tuple[float, float] | None = None,
) -> _GoalLegs:
    """From ``p`` (reached at cost ``gc``), each goal edge's nearest point other than
    ``end`` (the nearest of all, cost ``first``), and for a corner (``sides``: its previous
    and next corners) where the lines of its obstacle's edges, and the way it came by
    (from ``came``) carried on straight, meet the goal edges: tried in turn, by cost, when
    the nearer goal legs are blocked. (Plain arithmetic: a goal set has a few edges.)"""
    if not edges:
        return _GoalLegs([])
    px, py = p
    froms: list[tuple[float, float]] = []
    if sides is not None:
        # a corner's obstacle hides the edges' nearest points: the way leaves the corner
        # along one of its obstacle's edges, to where that line meets a goal edge
        s0, s1, s2, s3 = sides.tolist()
        froms = [(px - s0, py - s1), (px - s2, py - s3)]
        if came is not None:
            froms.append((px - came[0], py - came[1]))
    # each candidate's cost at once (the same arithmetic as building the points first), the
    # nearest point ``end`` itself left out
    ex, ey = end
    hypot = math.hypot
    legs: list[tuple[float, float, float]] = []
    for ax, ay, abx, aby, den, lo in edges:
        apx, apy = px - ax, py - ay
        t = (apx * abx + apy * aby) / den if den > 0 else 0.0
        t = min(max(t, lo), 1.0 - lo)
        x, y = ax + t * abx, ay + t * aby
        if hypot(x - ex, y - ey) > 1e-9:
            legs.append((max(gc + hypot(x - px, y - py), first), x, y))
        side = apx * aby - apy * abx
        for dx, dy in froms:
            cross = abx * dy - aby * dx
            if abs(cross) <= 1e-12 or side / cross <= 0:
                continue
            w = (apx * dy - apy * dx) / cross
            if lo <= w <= 1.0 - lo:
                x, y = ax + w * abx, ay + w * aby
                if hypot(x - ex, y - ey) > 1e-9:
                    legs.append((max(gc + hypot(x - px, y - py), first), x, y))
    legs.sort()
    return _GoalLegs(legs)


class _GoalLegs:
    """A corner's other goal legs (:func:`_other_goal_legs`), (cost, x, y) by cost, handed
    out in turn (:meth:`peek`, :meth:`advance`), the same point once."""

    def __init__(self, legs: list[tuple[float, float, float]]) -> None:
        self.legs = legs
        self.at = 0
        #: whether each leg is clear (:meth:`test`)
        self.clear: list[bool] = []

    def test(self, q: _Question, p: tuple[float, float], first: tuple[float, float]) -> bool:
        """Test the legs from ``p`` and the leg to ``first`` (the nearest goal point) in one
        GEOS call (the same test as :meth:`_Question.clear` on each); is the first clear?"""
        px, py = p
        flat = [px, py, first[0], first[1]]
        for _, x, y in self.legs:
            flat += (px, py, x, y)
        clear = q.clear_flat(flat)
        self.clear = clear[1:]
        return clear[0]

    def peek(self) -> tuple[float, float, float] | None:
        """The next leg, None when none is left."""
        legs, at = self.legs, self.at
        while at < len(legs) and at > 0 and legs[at][1:] == legs[at - 1][1:]:
            at += 1
        self.at = at
        return legs[at] if at < len(legs) else None

    def advance(self) -> None:
        self.at += 1

    def items(self) -> list[tuple[float, tuple[float, float]]]:
        """All of them, as (cost, end)."""
        out: list[tuple[float, tuple[float, float]]] = []
        for c, x, y in self.legs:
            if not out or out[-1][1] != (x, y):
                out.append((c, (x, y)))
        return out


def _taut_from(
    corner: np.ndarray, came: tuple[float, float], vx: np.ndarray, vy: np.ndarray
) -> np.ndarray:
    """Which legs from ``corner`` (a row of :func:`_corners`; ``vx``, ``vy``: the legs'
    vectors) a shortest path reaching it from ``came`` may take: tangent to the corner's
    obstacle there (its previous and next corners on one side of the leg), turning round
    the obstacle or going straight on. A leg that fails is never part of a shortest path
    (it can be shortened next to the corner); the A* closes the corner by a shortest way
    to it, so a shortest path through it arrives as that way does (an equally short way
    turning otherwise would be shortened, a contradiction)."""
    x, y, ax, ay, bx, by = corner.tolist()
    ax, ay, bx, by = ax - x, ay - y, bx - x, by - y
    tangent = (vx * ay - vy * ax) * (vx * by - vy * bx) >= -1e-12
    # the turn from the arriving leg to each leg, and the obstacle's side of the arriving leg
    inx, iny = x - came[0], y - came[1]
    side = inx * (ay + by) - iny * (ax + bx)
    turn = inx * vy - iny * vx
    taut: np.ndarray = tangent & (turn * side >= -1e-12)
    return taut


def _eager_astar(q: _Question, corners: np.ndarray, heur: np.ndarray) -> Path | None:
    """Step 7 as it was (kept for the tests): the A* from the start by the corners to the
    goal set, testing legs when queued: a popped node's last leg to the goal is tried at
    once; the search stops at the best goal found or once its lower bound passes the reach
    (``q.bound``)."""
    start, bound = q.start, q.bound
    assert q.goal_set is not None
    xy = corners[:, :2]
    n = len(xy)
    start_h = float(q.goal_set.distance(q.sp))
    goal_edges = _goal_edges(q)
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
        if f >= best_goal or f > bound:
            break
        end = q.goal_point(p)
        d = math.dist(p, end)
        side = None if u < 0 else corners[u, 2:6]
        came = None
        if u >= 0:
            w = int(parent[u])
            came = start if w < 0 else (float(xy[w, 0]), float(xy[w, 1]))
        more = _other_goal_legs(goal_edges, p, end, gc, gc + d, side, came).items()
        tries = [(gc + d, end), *more]
        for g, e in tries:
            if g >= best_goal or (g > bound and g > gc + d):
                break
            if q.visible(p, np.array([e]))[0]:
                best_goal, goal_parent, goal_end = g, u, e
                heapq.heappush(heap, (best_goal, -3))
                break
        if n == 0:
            continue
        vx, vy = xy[:, 0] - p[0], xy[:, 1] - p[1]
        c1 = vx * (corners[:, 3] - p[1]) - vy * (corners[:, 2] - p[0])
        c2 = vx * (corners[:, 5] - p[1]) - vy * (corners[:, 4] - p[0])
        step = np.hypot(vx, vy)
        cand = (c1 * c2 >= -1e-12) & ~closed & (step > 1e-9) & (gc + step < cost)
        if best_goal < math.inf:
            # a corner that would be queued at or beyond the best goal found is never taken
            # off the heap (the goal's entry comes first): it need not be looked at
            cand &= (gc + step) + heur < best_goal
        if bound < math.inf:
            # nor one queued beyond the reach (the search stops before taking it off)
            cand &= (gc + step) + heur <= bound
        idx = np.nonzero(cand)[0]
        if len(idx) == 0:
            continue
        vis = q.visible(p, xy[idx])
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


@lru_cache(maxsize=64)
def path_search(
    obstacles: tuple[BaseGeometry, ...], width: float, table: BaseGeometry | None = None
) -> PathSearch:
    """The (cached) :class:`PathSearch` of these obstacles for a base ``width`` cm wide."""
    return PathSearch(obstacles, width, table)


def shortest_path(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: Sequence[BaseGeometry],
    width: float,
    *,
    table: BaseGeometry | None = None,
    reach: float = math.inf,
) -> Path | None:
    """The shortest path of a sight of a base ``width`` cm wide, or None if unreachable.

    ``goal`` is a point, or a target base: then the path ends at the nearest reachable
    point of its edge (V-A, V-B-3) and never crosses that base. An obstacle closer to the
    start (or to a goal point) than half the width -- a friend in base contact -- keeps
    only that clearance, so the fighter can leave (or walk up to a wall); an obstacle
    containing the start is ignored (the fighter is leaving it). ``table``: the sight stays
    half a width inside its edges. The search object is cached per (obstacles, width,
    table) (:func:`path_search`), the inflated obstacles per shape.

    ``reach``: "is it reachable within ``reach`` cm?" The search stops once its lower bound
    (A*'s f) passes the reach: the path is the same whenever it is at most ``reach`` long;
    a longer one may come back as None (or, within rounding, as itself).
    """
    return path_search(tuple(obstacles), width, table).query(start, goal, reach=reach)
