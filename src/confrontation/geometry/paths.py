"""Movement paths (V-A): the most direct way from the sight to a point or to a base.

The path is the one the sight follows. Obstacles are inflated by half the width of the
moving base, so the sight keeps half a base of clearance on each side and a gap narrower
than the base's width is closed (V-A: "cannot pass between two obstacles separated by less
than the width of his base"). The shortest path is searched with A* on the visibility graph
of the inflated obstacles' convex corners (only corners the line from the current point is
tangent to are tried). Curves are polygons (6 segments per quarter circle): clearance is
exact along straight edges and within 0.25 mm around curves.

What is an obstacle is the caller's decision (the engine applies V-A:
:func:`move_obstacles` is the standard choice).
"""

from __future__ import annotations

import heapq
import math
from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from confrontation.geometry.bases import Base
from confrontation.geometry.measure import point_distance
from confrontation.geometry.scenery import Scenery, crossable

#: vertices per quarter circle of an inflated corner
INFLATE_QUAD_SEGS = 6
#: a segment may run along an inflated obstacle's edge: obstacles are eroded by this (cm)
CLEAR_EPS = 1e-4
#: the straight-line answer is taken when obstacles stand this far (cm) beyond half a width
STRAIGHT_MARGIN = 1e-3
#: a bounded search stops when its lower bound passes the reach by this much (cm): more
#: than the rounding between the bound and the found path's :attr:`Path.length`
REACH_SLACK = 1e-7


#: an obstacle is left out of a bounded search when every way through it is this much (cm)
#: longer than the reach (far more than the erosion and rounding of the shapes)
PRUNE_MARGIN = 1e-2


def _within_ellipse(
    shapes: np.ndarray,
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    hw: float,
    reach: float,
) -> np.ndarray:
    """Which ``shapes``, inflated by ``hw``, may meet a way from ``start`` to the goal at
    most ``reach`` long: a way through a point x is at least |x - start| + the distance from
    x to the goal, so a shape farther than the reach (plus :data:`PRUNE_MARGIN`) by that
    measure from the start and the goal (the ellipse of foci start and goal) is of no use.
    A shape holding a goal point is always kept (the search says why it is unreachable)."""
    to_start = np.maximum(shapely.distance(shapes, Point(start)) - hw, 0.0)
    end = goal.polygon if isinstance(goal, Base) else Point(goal)
    to_goal = np.maximum(shapely.distance(shapes, end) - hw, 0.0)
    near: np.ndarray = to_start + to_goal <= reach + PRUNE_MARGIN
    if not isinstance(goal, Base):
        near |= to_goal <= 0.0
    return near


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


def _frame(table: BaseGeometry, hw: float) -> BaseGeometry:
    """Outside of the table shrunk by half a base: the sight may not go there."""
    minx, miny, maxx, maxy = table.bounds
    return box(minx - 50, miny - 50, maxx + 50, maxy + 50).difference(
        table.buffer(-hw, join_style="mitre")
    )


class _Query:
    """One question to a :class:`PathGraph`, filled in step by step by its search."""

    def __init__(
        self,
        start: tuple[float, float],
        goal: tuple[float, float] | Base,
        target: int | None,
        bound: float,
        act: np.ndarray,
    ) -> None:
        self.start, self.goal, self.target, self.bound = start, goal, target, bound
        #: the goal base's shape, or the goal point
        self.tgt: Polygon | None = goal.polygon if isinstance(goal, Base) else None
        self.gp: Point | None = None if isinstance(goal, Base) else Point(goal)
        #: the entries that block (step 1), the shapes inflated less near the ends
        self.act = act
        self.extras: list[BaseGeometry] = []
        #: what else blocks (step 2)
        self.extra: BaseGeometry | None = None
        #: where a path may end, what its last leg may not cross and the entries it is
        #: tested against (step 3)
        self.goal_set: BaseGeometry | None = None
        self.last: BaseGeometry | None = None
        self.act_far: np.ndarray | None = None
        #: the goal set's key and the last legs kept for it (step 4)
        self.key = b""
        self.leg_cache: dict[int, tuple[tuple[float, float], list[int]]] = {}


class PathGraph:
    """The visibility graph of a set of obstacles for one base width, built once and reused.

    Each obstacle is inflated by half the width once, eroded by :data:`CLEAR_EPS` for the
    blocking tests, put in an STRtree and its convex corners listed once. A corner's tangent
    neighbours, with the obstacles each segment crosses, are found the first time a search
    expands it and then kept. A query only says which obstacles it leaves out (``skip``):
    those are masked, never rebuilt. ``targets`` are shapes a query may name as its goal
    base (they then block, eroded but not inflated). ``table``: the sight stays half a width
    inside its edges.
    """

    #: corners' neighbours are shared with later graphs of the same width and table
    #: (:class:`_Shared`); False builds every graph from scratch (the bench's reference)
    share = True
    #: every question is answered by the plain search (:func:`_plain_search`), which
    #: gives the graph's answers: the engine asks a battlefield one or two questions before
    #: a fighter moves, and a graph built for them costs more than it saves (issue 22,
    #: second round). False: the first question by the plain search, the later ones by
    #: the graph, built on the second (the issue-7 strategy, kept for the tests)
    plain = True

    def __init__(
        self,
        obstacles: Sequence[BaseGeometry],
        width: float,
        table: BaseGeometry | None = None,
        targets: Sequence[BaseGeometry] = (),
    ) -> None:
        self._args = (list(obstacles), width, table, list(targets))
        self._built = False
        self.queries = 0
        self.straight = 0
        self._plain: tuple[np.ndarray, np.ndarray, BaseGeometry | None] | None = None

    def _build(self) -> None:
        obstacles, width, table, targets = self._args
        self._built = True
        self.hw = hw = width / 2.0
        self.n = n = len(obstacles)
        self.raw = np.array(list(obstacles), dtype=object)
        self.empty = shapely.is_empty(self.raw) if n else np.zeros(0, dtype=bool)
        # inflated and eroded shapes come from caches keyed by the shapes: a fighter who
        # did not move brings the same objects to the next battlefield's graph
        pieces = [_inflated(o, hw) for o in obstacles]
        inflated = [piece.shape for piece in pieces]
        entries: list[BaseGeometry] = [piece.eroded for piece in pieces]
        entries += [_eroded(t) for t in targets]
        self.target0 = n
        active = [not e for e in self.empty] + [False] * len(targets)
        self.inflated: list[BaseGeometry] = inflated + list(targets)
        framed = -1
        if table is not None:
            frame = _framed(table, hw)
            entries.append(frame.eroded)
            self.inflated.append(frame.shape)
            active.append(True)
            framed = len(entries) - 1
        # Inflated shapes that touch are one obstacle, eroded as a whole (the seam between
        # them stays closed: a gap exactly one base wide is not a way through): each
        # touching pair gets an entry of its own, active when both are.
        members = [i for i in range(n) if not self.empty[i]] + ([framed] if framed >= 0 else [])
        shapes = np.array([self.inflated[e] for e in members], dtype=object)
        pa, pb = STRtree(shapes).query(shapes, predicate="dwithin", distance=3 * CLEAR_EPS)
        pairs = sorted({(members[x], members[y]) for x, y in zip(pa, pb, strict=True) if x < y})
        self.pair0 = len(entries)
        self.pi = np.array([i for i, _ in pairs], dtype=int)
        self.pj = np.array([j for _, j in pairs], dtype=int)
        circle_of: dict[int, int] = {}
        for i, j in pairs:
            if j == framed:  # on the table, only the obstacle's part can be met
                circle_of[len(entries)] = i
            entries.append(_eroded_pair(self.inflated[i], self.inflated[j]))
            active.append(active[i] and active[j])
        self.entries = entries
        self.active = np.array(active, dtype=bool)
        self.ent = np.array(entries, dtype=object)
        shapely.prepare(self.ent)
        # bounding circles (from the boxes) for a cheap rejection before exact tests
        bounds = shapely.bounds(self.ent).reshape(-1, 4)
        self.centres = np.column_stack(
            [(bounds[:, 0] + bounds[:, 2]) / 2, (bounds[:, 1] + bounds[:, 3]) / 2]
        )
        self.radii = np.hypot(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1]) / 2
        self.radii = np.where(np.isnan(self.radii), -1.0, self.radii * (1 + 1e-9) + 1e-9)
        self.centres = np.nan_to_num(self.centres)
        for e, i in circle_of.items():
            self.centres[e] = self.centres[i]
            self.radii[e] = self.radii[i] + 4 * CLEAR_EPS
        self.frame = framed
        self.framelike = np.array([framed, *circle_of] if framed >= 0 else [], dtype=int)
        self.is_framelike = np.zeros(len(entries), dtype=bool)
        self.is_framelike[self.framelike] = True
        self.round = np.ones(len(entries), dtype=bool)
        if table is not None:
            self.round[self.frame] = False
        # squared radii (-1: never near) for the test of one segment
        self.r2 = np.where((self.radii >= 0) & self.round, self.radii * self.radii, -1.0)
        if table is not None:
            x0, y0, x1, y1 = table.bounds
            m = hw + 1e-9  # inside this rectangle the sight is clear of the table's edges
            self.inner = (x0 + m, y0 + m, x1 - m, y1 - m)
        self.tree = STRtree(entries)
        self.raw_tree = STRtree(self.raw)
        rows = [pieces[i].corners for i in range(n) if not self.empty[i]]
        owners = [np.full(len(r), i) for i, r in zip(np.nonzero(~self.empty)[0], rows, strict=True)]
        self.corners = np.vstack(rows) if rows else np.zeros((0, 6))
        self.owner = np.concatenate(owners) if owners else np.zeros(0, dtype=int)
        self.points = shapely.points(self.corners[:, :2]) if len(self.corners) else np.zeros(0)
        # which entries contain each corner (box filter, then one vectorised test per entry)
        ins_c: list[np.ndarray] = []
        ins_e: list[np.ndarray] = []
        cx, cy = self.corners[:, 0], self.corners[:, 1]
        for e, (x0, y0, x1, y1) in enumerate(bounds.tolist()):
            if not len(cx) or x0 != x0:  # no corners, or an empty entry (nan bounds)
                continue
            sel = np.nonzero((cx >= x0) & (cx <= x1) & (cy >= y0) & (cy <= y1))[0]
            if len(sel):
                got = sel[shapely.contains_xy(self.ent[e], cx[sel], cy[sel])]
                ins_c.append(got)
                ins_e.append(np.full(len(got), e))
        self.in_corner = np.concatenate(ins_c) if ins_c else np.zeros(0, dtype=int)
        self.in_entry = np.concatenate(ins_e) if ins_e else np.zeros(0, dtype=int)
        self._adj: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        self.every = np.ones(len(entries), dtype=bool)
        self._share_ids(table)
        self._legs: dict[
            bytes, tuple[np.ndarray, dict[int, tuple[tuple[float, float], list[int]]]]
        ] = {}

    def _share_ids(self, table: BaseGeometry | None) -> None:
        """Name the corners (by coordinates) and the entries (by shape object) in the shared
        store of graphs of this width and table, so that the neighbours a corner found in
        an earlier graph serve here (see :class:`_Shared`)."""
        self._shared: _Shared | None = None
        if not PathGraph.share:
            return
        store = _shared(self.hw, table)
        cgid = store.corners_of(self.corners)
        egid = np.array([store.entry(e) for e in self.entries], dtype=np.int64)
        if len(np.unique(cgid)) < len(cgid) or len(np.unique(egid)) < len(egid):
            return  # two corners or entries alike: records could not tell them apart
        self._shared = store
        self.cgid, self.egid = cgid, egid
        self._clocal = np.full(store.n_corners, -1, dtype=np.int64)
        self._clocal[cgid] = np.arange(len(cgid))
        self._elocal = np.full(store.n_entries, -1, dtype=np.int64)
        self._elocal[egid] = np.arange(len(egid))
        self._fresh: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def _neighbours(self, u: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Corners the line from corner ``u`` is tangent to: (index, length, and the
        (segment, entry) pairs of the entries each segment crosses).

        The entry of two touching shapes is active only when both are (see :meth:`query`),
        so a segment crossing one of them is blocked whenever that entry is: the entry is
        tested only for the segments that cross neither. A record of the same corner made
        by an earlier graph (:class:`_Shared`) gives the pairs of the corners and entries
        it knew; only segments to other corners and other entries are tested. A test
        depends on nothing but the segment's ends and the entry's shape, so the pairs are
        those found from scratch."""
        got = self._adj.get(u)
        if got is not None:
            return got
        c = self.corners
        px, py = float(c[u, 0]), float(c[u, 1])
        idx, step = _tangent(c, px, py)
        store = self._shared
        k = len(idx)
        if k:
            p, qs = (px, py), c[idx, :2]
            segs = np.empty((k, 2, 2))
            segs[:, 0] = p
            segs[:, 1] = qs
            lines = shapely.linestrings(segs)
            # only entries whose box meets the segment's can cross it
            li, ei = self.tree.query(lines)
            crossed = np.zeros((k, len(self.entries)), dtype=bool)
            one = ei < self.pair0
            record = store.records.get(int(self.cgid[u])) if store is not None else None
            if record is not None:
                need = np.ones_like(crossed)
                self._recall(record, idx, crossed, need)
                wanted = need[li, ei]
                li, ei, one = li[wanted], ei[wanted], one[wanted]
            # the shapes first, then the entries of touching shapes that could still block
            self._cross(p, qs, lines, li[one], ei[one], crossed)
            if len(self.pi):
                li, ei = li[~one], ei[~one]
                pair = ei - self.pair0
                open_ = ~(crossed[li, self.pi[pair]] | crossed[li, self.pj[pair]])
                self._cross(p, qs, lines, li[open_], ei[open_], crossed)
            li, ei = np.nonzero(crossed)
        else:
            li = ei = np.zeros(0, dtype=int)
        got = (idx, step[idx], li, ei)
        self._adj[u] = got
        if store is not None:
            store.records[int(self.cgid[u])] = (self.cgid[idx], self.egid, li, self.egid[ei])
        return got

    def _recall(
        self,
        record: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        idx: np.ndarray,
        crossed: np.ndarray,
        need: np.ndarray,
    ) -> None:
        """Mark in ``crossed`` the pairs a record knows, and in ``need`` only the pairs it
        does not: segments (rows, to corners ``idx``) to corners it did not have, entries
        (columns) it did not test."""
        cands, tested, rli, rent = record
        pos = np.full(len(self.corners), -1, dtype=np.int64)
        pos[idx] = np.arange(len(idx))
        cl, el = self._clocal, self._elocal
        loc = np.where(cands < len(cl), cl[np.minimum(cands, len(cl) - 1)], -1)
        cpos = np.where(loc >= 0, pos[loc], -1)
        li = cpos[rli]
        ei = np.where(rent < len(el), el[np.minimum(rent, len(el) - 1)], -1)
        keep = (li >= 0) & (ei >= 0)
        crossed[li[keep], ei[keep]] = True
        need[cpos[cpos >= 0]] = self._new_entries(tested)

    def _cross(
        self,
        p: tuple[float, float],
        qs: np.ndarray,
        lines: np.ndarray,
        li: np.ndarray,
        ei: np.ndarray,
        crossed: np.ndarray,
    ) -> None:
        """Mark in ``crossed`` the pairs of :meth:`_crossing` that cross."""
        hit = self._crossing(p, qs, lines, li, ei)
        crossed[li[hit], ei[hit]] = True

    def _crossing(
        self,
        p: tuple[float, float],
        qs: np.ndarray,
        lines: np.ndarray,
        li: np.ndarray,
        ei: np.ndarray,
    ) -> np.ndarray:
        """Which segments from ``p`` to ``qs[li]`` (``lines[li]``) cross entries ``ei``
        (pairwise; positions): a bounding-circle filter, the frame's entries tested only
        when an end is near the table's edge, then the exact test."""
        if not len(li):
            return np.zeros(0, dtype=np.int64)
        px, py = p
        dxs, dys = qs[:, 0] - px, qs[:, 1] - py
        l2s = np.maximum(dxs * dxs + dys * dys, 1e-300)
        dx, dy, l2 = dxs[li], dys[li], l2s[li]
        cx, cy = self.centres[ei, 0], self.centres[ei, 1]
        t = np.clip(((cx - px) * dx + (cy - py) * dy) / l2, 0.0, 1.0)
        ex = px + t * dx - cx
        ey = py + t * dy - cy
        r = self.radii[ei]
        test = self.round[ei] & (ex * ex + ey * ey <= r * r)
        if self.frame >= 0:
            x0, y0, x1, y1 = self.inner
            if (x0 <= px <= x1) and (y0 <= py <= y1):
                qx, qy = qs[li, 0], qs[li, 1]
                edge = (qx < x0) | (qx > x1) | (qy < y0) | (qy > y1)
                test |= self.is_framelike[ei] & edge
            else:
                test |= self.is_framelike[ei]
        sel = np.nonzero(test)[0]
        if not len(sel):
            return sel
        out: np.ndarray = sel[shapely.intersects(self.ent[ei[sel]], lines[li[sel]])]
        return out

    def _shared_leg(
        self, goal: bytes, u: int
    ) -> tuple[tuple[float, float], np.ndarray, np.ndarray] | None:
        """A record of the last leg from corner ``u`` to the goal set (by its WKB) made by
        an earlier graph: (end, entries crossed, entries tested), by id."""
        if self._shared is None:
            return None
        return self._shared.legs.get((goal, int(self.cgid[u])))

    def _leg(
        self, goal: bytes, u: int, p: tuple[float, float], q: tuple[float, float]
    ) -> list[int]:
        """The entries the last leg from corner ``u`` (at ``p``) to ``q`` on the goal set
        crosses (:meth:`hit_one`, every entry), from a shared record when there is one: its
        entries still here, and the new entries tested."""
        shared = self._shared_leg(goal, u)
        crossed: list[int] = []
        if shared is None:
            self.hit_one(p, q, None, crossed)
        else:
            _, was, tested = shared
            el = self._elocal
            here = np.where(was < len(el), el[np.minimum(was, len(el) - 1)], -1)
            crossed = here[here >= 0].tolist()
            new = self._new_entries(tested)
            if new.any():
                self.hit_one(p, q, new, crossed)
        if self._shared is not None:
            gids = self.egid[np.array(crossed, dtype=np.int64)]
            self._shared.legs[(goal, int(self.cgid[u]))] = (q, gids, self.egid)
        return crossed

    def _new_entries(self, tested: np.ndarray) -> np.ndarray:
        """The entries of this graph not among ``tested`` (ids), cached per array."""
        fresh = self._fresh.get(id(tested))
        if fresh is None or fresh[0] is not tested:
            fresh = (tested, ~np.isin(self.egid, tested))
            self._fresh[id(tested)] = fresh
        return fresh[1]

    def hit_one(
        self,
        p: tuple[float, float],
        q: tuple[float, float],
        act: np.ndarray | None,
        found: list[int] | None = None,
    ) -> bool:
        """Does the segment p-q cross an active entry or the frame? With ``found``: test
        every entry (``act`` None: all of them) and add those crossed to ``found``."""
        px, py = p
        dx, dy = q[0] - px, q[1] - py
        l2 = max(dx * dx + dy * dy, 1e-300)
        cx, cy = self.centres[:, 0], self.centres[:, 1]
        t = np.clip(((cx - px) * dx + (cy - py) * dy) / l2, 0.0, 1.0)
        ex = px + t * dx - cx
        ey = py + t * dy - cy
        near = ex * ex + ey * ey <= self.r2
        if act is not None:
            near &= act
        sel = np.nonzero(near)[0]
        line: LineString | None = None
        if len(sel):
            line = LineString([p, q])
            hit = sel[shapely.intersects(self.ent[sel], line)]
            if len(hit):
                if found is None:
                    return True
                found.extend(hit.tolist())
        if self.frame >= 0:
            x0, y0, x1, y1 = self.inner
            clear = x0 <= px <= x1 and y0 <= py <= y1 and x0 <= q[0] <= x1 and y0 <= q[1] <= y1
            if not clear:
                line = line or LineString([p, q])
                actl = act.tolist() if act is not None else None
                for e in self.framelike.tolist():
                    if e != self.frame and actl is not None and not actl[e]:
                        continue
                    if (found is None or e not in found) and self.ent[e].intersects(line):
                        if found is None:
                            return True
                        found.append(e)
        return bool(found)

    def hits(
        self, p: tuple[float, float], qs: np.ndarray, among: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(segment, entry) pairs such that the segment from ``p`` to ``qs[segment]`` crosses
        the entry, for entries flagged in ``among`` and the table's frame."""
        segs = np.empty((len(qs), 2, 2))
        segs[:, 0] = p
        segs[:, 1] = qs
        lines = shapely.linestrings(segs)
        # only entries whose box meets the segment's can cross it
        li, ei = self.tree.query(lines)
        ents = among.copy()
        if self.frame >= 0:
            ents[self.frame] = True
        sel = ents[ei]
        li, ei = li[sel], ei[sel]
        hit = self._crossing(p, qs, lines, li, ei)
        return li[hit], ei[hit]

    def blocked(
        self, p: tuple[float, float], qs: np.ndarray, among: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Does the segment from ``p`` to each of ``qs`` cross an entry flagged in ``among``
        or the table's frame (:meth:`hits`)? The obstacles' own entries are tested first,
        the others only for the segments still clear. Also returns the segments."""
        segs = np.empty((len(qs), 2, 2))
        segs[:, 0] = p
        segs[:, 1] = qs
        lines = shapely.linestrings(segs)
        li, ei = self.tree.query(lines)
        ents = among.copy()
        if self.frame >= 0:
            ents[self.frame] = True
        sel = ents[ei]
        li, ei = li[sel], ei[sel]
        hit = np.zeros(len(qs), dtype=bool)
        first = ei < self.target0
        got = self._crossing(p, qs, lines, li[first], ei[first])
        hit[li[first][got]] = True
        rest = ~first & ~hit[li]
        got = self._crossing(p, qs, lines, li[rest], ei[rest])
        hit[li[rest][got]] = True
        return hit, lines

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
        obstacles, width, table, _ = self._args
        if self._plain is None:
            raw = np.array(obstacles, dtype=object)
            empty = shapely.is_empty(raw) if len(raw) else np.zeros(0, dtype=bool)
            inner = None
            if table is not None:
                inner = table.buffer(-(width / 2.0 + STRAIGHT_MARGIN), join_style="mitre")
                shapely.prepare(inner)
            self._plain = (raw, empty, inner)
        raw, empty, inner = self._plain
        if isinstance(goal, Base):
            tgt = goal.polygon
            if tgt.intersects(Point(start)):
                return None
            ring = tgt.exterior
            c = np.asarray(shapely.shortest_line(ring, Point(start)).coords)[0]
            end = (float(c[0]), float(c[1]))
        else:
            tgt, end = None, (float(goal[0]), float(goal[1]))
        if math.dist(start, end) <= 1e-9:
            return None
        seg = LineString([start, end])
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
        if len(kept) and bool((shapely.distance(kept, seg) <= clear).any()):
            return None
        if tgt is None:
            return Path((start, end))
        edge_cut = inner is not None and not inner.contains(tgt)
        if len(kept) and bool((shapely.distance(kept, tgt) <= clear).any()):
            edge_cut = True
        if edge_cut:
            if self._built:
                return None  # the graph's own search is cheaper than the check below
            # obstacles or the table's edge may cut the goal base's edge: its reachable part
            # is computed as the search does, and the straight answer only stands if the
            # nearest point is still there
            pieces = [_inflated(o, hw) for o in kept.tolist()]
            if table is not None:
                pieces.append(_framed(table, hw))
            others = _eroded_union(pieces)
            goal_set = ring.difference(others) if not others.is_empty else ring
            if goal_set.is_empty:
                return None
            c = np.asarray(shapely.shortest_line(goal_set, Point(start)).coords)[0]
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
        target: int | None = None,
        reach: float = math.inf,
    ) -> Path | None:
        """The shortest path (see :func:`shortest_path`) leaving out obstacles ``skip``;
        ``target``: the index in ``targets`` of a goal base. ``reach``: only a path at most
        that long is wanted (see :func:`shortest_path`). Answered by the plain search (see
        :attr:`plain`); with ``plain`` False the graph is built on the second query."""
        if _beyond_reach(start, goal, reach):
            return None
        straight = self._straight(start, goal, skip)
        if straight is not None:
            self.straight += 1
            return straight
        self.queries += 1
        if self.queries == 1 or PathGraph.plain:
            obstacles, width, table, _ = self._args
            keep = [o for i, o in enumerate(obstacles) if i not in skip]
            return _plain_search(start, goal, keep, width, table=table, reach=reach)
        if not self._built:
            self._build()
        q = _Query(start, goal, target, reach + REACH_SLACK, self.active.copy())
        if not self._near_ends(q, skip, reach):
            return None
        self._blockers(q)
        if self._inside(q, *start) or not self._goal_set(q):
            return None
        return self._search(q)

    def _near_ends(self, q: _Query, skip: Collection[int], reach: float) -> bool:
        """Step 1, the obstacles that block this query (``q.act``): not those skipped, not
        those holding the start (the fighter is leaving them), not those outside the
        ellipse of the reach (:func:`_within_ellipse`). An obstacle nearer than half a width
        to the start or to a goal point keeps only that clearance: its entry is replaced by
        a shape inflated less (``q.extras``). False: a goal point inside an obstacle."""
        hw, n, act = self.hw, self.n, q.act
        if n:
            use = ~self.empty
            if skip:
                use[list(skip)] = False
            ends = [Point(q.start)] if q.gp is None else [Point(q.start), q.gp]
            close = np.unique(
                self.raw_tree.query(ends, predicate="dwithin", distance=hw + 4 * CLEAR_EPS)[1]
            )
            close = close[use[close]]
            shapes = self.raw[close]
            if len(close):
                out = shapely.contains_xy(shapes, *q.start)
                use[close[out]] = False
                close, shapes = close[~out], shapes[~out]
            if q.gp is not None and len(close) and bool(np.any(shapely.contains(shapes, q.gp))):
                return False
            if reach < math.inf:
                kept = np.nonzero(use)[0]
                use[kept[~_within_ellipse(self.raw[kept], q.start, q.goal, hw, reach)]] = False
            act[:n] = use
            for i, o in zip(close.tolist(), shapes, strict=True):
                r = min(hw, float(o.distance(ends[0])) - 2 * CLEAR_EPS)
                if q.gp is not None:
                    r = min(r, float(o.distance(q.gp)) - 2 * CLEAR_EPS)
                if r < hw:
                    act[i] = False
                    q.extras.append(_inflate(o, max(r, 0.0)))
        if len(self.pi):
            act[self.pair0 :] = act[self.pi] & act[self.pj]
        return True

    def _blockers(self, q: _Query) -> None:
        """Step 2, what blocks besides the active entries (``q.extra``): each obstacle kept
        closer merged with the shapes it touches, and a goal base with no entry of its own
        (a target's entry is made active instead)."""
        n, act = self.n, q.act
        shapes = []
        for e in q.extras:
            touch = [
                self.inflated[t]
                for t in self.tree.query(e, predicate="dwithin", distance=3 * CLEAR_EPS)
                if t < self.pair0 and act[t] and (t < n or t == self.frame)
            ]
            shapes.append(shapely.unary_union([e, *touch]).buffer(-CLEAR_EPS))
        if q.tgt is not None:
            if q.target is not None:
                act[self.target0 + q.target] = True
            else:
                shapes.append(q.tgt.buffer(-CLEAR_EPS))
        q.extra = shapely.union_all(shapes) if shapes else None
        if q.extra is not None:
            shapely.prepare(q.extra)

    def _inside(self, q: _Query, x: float, y: float) -> bool:
        """Is (x, y) inside something that blocks the query?"""
        hits = self.tree.query(Point(x, y), predicate="within")
        if bool(np.any(q.act[hits])):
            return True
        return q.extra is not None and bool(shapely.contains_xy(q.extra, x, y))

    def _goal_set(self, q: _Query) -> bool:
        """Step 3, where a path may end (``q.goal_set``), what its last leg may not cross
        (``q.last``) and the entries it is tested against (``q.act_far``). A goal base: the
        points of its edge left by the obstacles near it, which are merged before eroding,
        as one shape (the shape on whose boundary the edge is cut, ``q.last`` with the
        base). False: nowhere to end."""
        act, tgt, target = q.act, q.tgt, q.target
        if tgt is None:
            assert q.gp is not None
            q.goal_set, q.last, q.act_far = q.gp, q.gp, act
            return not self._inside(q, q.gp.x, q.gp.y)
        ring = tgt.exterior
        near_set: set[int] = set()
        for e in self.tree.query(ring).tolist():
            if not act[e] or (target is not None and e == self.target0 + target):
                continue
            if e >= self.pair0:  # a touching pair: both shapes, and its own entry
                k = e - self.pair0
                near_set.update((int(self.pi[k]), int(self.pj[k])))
            near_set.add(e)
        near_idx = sorted(near_set)
        pair_idx = [e for e in near_idx if e >= self.pair0]
        near_idx = [e for e in near_idx if e < self.pair0]
        parts = [self.inflated[e] for e in near_idx] + q.extras
        local = shapely.unary_union(parts).buffer(-CLEAR_EPS) if parts else None
        q.goal_set = ring.difference(local) if local is not None else ring
        if q.goal_set.is_empty:
            return False
        eroded = tgt.buffer(-CLEAR_EPS)
        q.last = shapely.union(local, eroded) if local is not None else eroded
        shapely.prepare(q.last)
        q.act_far = act.copy()
        q.act_far[near_idx] = False
        q.act_far[pair_idx] = False
        if target is not None:
            q.act_far[self.target0 + target] = False
        return True

    def _corner_set(self, q: _Query) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Step 4, the corners the search may turn at: the graph's, then those of the
        obstacles kept closer (``q.extras``); (corners, alive, heuristic) where alive leaves
        out corners of inactive obstacles and corners inside something that blocks, and the
        heuristic is each corner's distance to the goal set (the graph's corners': kept
        across queries with their last legs, by the goal set)."""
        act, extra, nc = q.act, q.extra, len(self.corners)
        extras = q.extras
        ecorners = np.vstack([_corners(e) for e in extras]) if extras else np.zeros((0, 6))
        if len(ecorners):
            epoints = shapely.points(ecorners[:, :2])
            ci, ei = self.tree.query(epoints, predicate="within")
            edead = np.bincount(ci[act[ei]], minlength=len(ecorners)) > 0
            if extra is not None:
                edead |= shapely.contains_xy(extra, ecorners[:, 0], ecorners[:, 1])
            ecorners, epoints = ecorners[~edead], epoints[~edead]
        else:
            epoints = np.zeros(0, dtype=object)
        corners = np.vstack([self.corners, ecorners]) if len(ecorners) else self.corners
        total = len(corners)
        xy = corners[:, :2]
        alive = np.ones(total, dtype=bool)
        if nc:
            alive[:nc] = act[self.owner]
            dead = np.bincount(self.in_corner[act[self.in_entry]], minlength=nc) > 0
            alive[:nc] &= ~dead
            if extra is not None:
                alive[:nc] &= ~shapely.contains_xy(extra, xy[:nc, 0], xy[:nc, 1])
        if len(self._legs) > 256:
            self._legs.clear()
        assert q.goal_set is not None
        q.key = q.goal_set.wkb
        if q.key not in self._legs:
            far = shapely.distance(q.goal_set, self.points) if nc else np.zeros(0)
            self._legs[q.key] = (far, {})
        near_goal, q.leg_cache = self._legs[q.key]
        heur = np.zeros(total)
        if total:
            heur[:nc] = near_goal
            heur[nc:] = shapely.distance(q.goal_set, epoints)
        return corners, alive, heur

    def _visible(self, q: _Query, p: tuple[float, float], qs: np.ndarray) -> np.ndarray:
        """Which segments from ``p`` to ``qs`` nothing that blocks the query crosses."""
        act, extra = q.act, q.extra
        if len(qs) == 1:
            end = (float(qs[0, 0]), float(qs[0, 1]))
            hit = self.hit_one(p, end, act) or (
                extra is not None and extra.intersects(LineString([p, end]))
            )
            return np.array([not hit])
        hits, lines = self.blocked(p, qs, act & self.round)
        if extra is not None:
            clear = np.nonzero(~hits)[0]
            hits[clear] = shapely.intersects(extra, lines[clear])
        return ~hits

    def _last_leg_clear(
        self, q: _Query, u: int, p: tuple[float, float], end: tuple[float, float]
    ) -> bool:
        """May the path end with the leg from corner ``u`` (-1: the start) at ``p`` to
        ``end`` on the goal set? The graph's corners' legs are kept (:meth:`_leg`)."""
        nc = len(self.corners)
        known = q.leg_cache.get(u) if 0 <= u < nc else None
        if 0 <= u < nc and known is None:
            known = q.leg_cache[u] = (end, self._leg(q.key, u, p, end))
        if q.tgt is not None:
            assert q.act_far is not None and q.last is not None
            if known is not None:
                clear = not any(q.act_far[e] for e in known[1])
            else:
                clear = not self.hit_one(p, end, q.act_far)
            return clear and not q.last.intersects(LineString([p, end]))
        if known is not None:
            return not any(q.act[e] for e in known[1]) and (
                q.extra is None or not q.extra.intersects(LineString([p, end]))
            )
        return bool(self._visible(q, p, np.array([end]))[0])

    def _goal_point(self, q: _Query, u: int, p: tuple[float, float]) -> tuple[float, float]:
        """The nearest point of the goal set from corner ``u`` at ``p`` (kept per corner)."""
        nc = len(self.corners)
        known = q.leg_cache.get(u) if 0 <= u < nc else None
        if known is not None:
            return known[0]
        shared = self._shared_leg(q.key, u) if 0 <= u < nc else None
        if shared is not None:
            return shared[0]
        if q.tgt is None:
            assert q.gp is not None
            return (q.gp.x, q.gp.y)
        assert q.goal_set is not None
        c = np.asarray(shapely.shortest_line(q.goal_set, Point(p)).coords)[0]
        return (float(c[0]), float(c[1]))

    def _search(self, q: _Query) -> Path | None:
        """Step 5, the bounded A*: from the start by the corners (:meth:`_corner_set`) to
        the goal set, stopping once the lower bound passes the reach (``q.bound``).

        Heap entries (f, kind, order, node): kind 0 is a last leg to the goal from node,
        tested (for visibility) only when it is the cheapest thing left -- the first clear
        one is the shortest path; kind 1 is a corner to expand (node -1: the start)."""
        start = q.start
        corners, alive, heur = self._corner_set(q)
        total = len(corners)
        xy = corners[:, :2]
        assert q.goal_set is not None
        cost = np.full(total, np.inf)
        parent = np.full(total, -2, dtype=int)  # -1: start
        closed = ~alive
        goal_parent, goal_end = -2, (0.0, 0.0)
        heap: list[tuple[float, int, int, int]] = [
            (float(q.goal_set.distance(Point(start))), 1, -1, -1)
        ]
        legs: list[tuple[float, tuple[float, float], bool]] = []  # (cost, end, exact)
        while heap:
            f, kind, k, u = heapq.heappop(heap)
            if f > q.bound:
                break  # every path left is longer than the reach
            p = start if u < 0 else (float(xy[u, 0]), float(xy[u, 1]))
            if kind == 0:
                gc, end, exact = legs[k]
                if not exact:  # the lower bound f was used: now the real end and cost
                    end = self._goal_point(q, u, p)
                    legs[k] = (gc, end, True)  # k, the expansion order, breaks ties
                    heapq.heappush(heap, (gc + math.dist(p, end), 0, k, u))
                elif self._last_leg_clear(q, u, p, end):
                    goal_parent, goal_end = u, end
                    break
                continue
            if u >= 0:
                if closed[u]:
                    continue
                closed[u] = True
            gc = float(cost[u]) if u >= 0 else 0.0
            if q.gp is not None:
                end = (q.gp.x, q.gp.y)
                legs.append((gc, end, True))
                heapq.heappush(heap, (gc + math.dist(p, end), 0, len(legs) - 1, u))
            else:
                legs.append((gc, p, False))
                heapq.heappush(heap, (f, 0, len(legs) - 1, u))
            if total == 0:
                continue
            idx, stp = self._steps(q, u, p, gc, corners, closed, cost)
            for i, s in zip(idx.tolist(), stp.tolist(), strict=True):
                c = gc + s
                if c < cost[i]:
                    cost[i] = c
                    parent[i] = u
                    heapq.heappush(heap, (c + float(heur[i]), 1, i, i))
        if goal_parent == -2:
            return None
        pts = [goal_end]
        u = goal_parent
        while u >= 0:
            pts.append((float(xy[u, 0]), float(xy[u, 1])))
            u = int(parent[u])
        pts.append(start)
        pts.reverse()
        return Path(tuple(pts))

    def _steps(
        self,
        q: _Query,
        u: int,
        p: tuple[float, float],
        gc: float,
        corners: np.ndarray,
        closed: np.ndarray,
        cost: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The corners worth reaching from corner ``u`` (-1: the start) at ``p``, reached
        at cost ``gc``, and the length of each step: tangent, open, cheaper than known,
        and visible (a graph corner's neighbours and the entries they cross are kept,
        :meth:`_neighbours`; the rest is tested here)."""
        nc, act, xy = len(self.corners), q.act, corners[:, :2]
        if not 0 <= u < nc:
            cand, step = _tangent(corners, p[0], p[1])
            stp = step[cand]
            keep = ~closed[cand] & (gc + stp < cost[cand])
            cand, stp = cand[keep], stp[keep]
            if len(cand) == 0:
                return cand, stp
            vis = self._visible(q, p, xy[cand])
            return cand[vis], stp[vis]
        nb, steps, li, ei = self._neighbours(u)
        ok = ~closed[nb] & (gc + steps < cost[nb])
        if len(li):
            ok &= np.bincount(li[act[ei]], minlength=len(nb)) == 0
        idx, stp = nb[ok], steps[ok]
        if q.extra is not None and len(idx):
            vis = self._visible(q, p, xy[idx])
            idx, stp = idx[vis], stp[vis]
        if len(corners) > nc:
            eidx, estep = _tangent(corners[nc:], p[0], p[1])
            eidx = eidx + nc
            estep = estep[eidx - nc]
            keep = ~closed[eidx] & (gc + estep < cost[eidx])
            eidx, estep = eidx[keep], estep[keep]
            if len(eidx):
                vis = self._visible(q, p, xy[eidx])
                idx = np.concatenate([idx, eidx[vis]])
                stp = np.concatenate([stp, estep[vis]])
        return idx, stp


@dataclass(frozen=True)
class _Inflated:
    """An obstacle inflated by a radius, eroded by :data:`CLEAR_EPS`, and its convex
    corners (see :func:`_corners`)."""

    shape: BaseGeometry
    eroded: BaseGeometry
    corners: np.ndarray


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
    made = _Inflated(g, g.buffer(-CLEAR_EPS), _corners(g))
    _INFLATED[key] = (o, made)  # the entry keeps ``o`` alive: its id is not reused
    if len(_INFLATED) > _INFLATED_SIZE:
        _INFLATED.popitem(last=False)
    return made


def _eroded(shape: BaseGeometry) -> BaseGeometry:
    """``shape`` eroded by :data:`CLEAR_EPS` (a goal base's entry in a graph), cached."""
    hit = _ERODED.get(id(shape))
    if hit is not None and hit[0] is shape:
        return hit[1]
    made = shape.buffer(-CLEAR_EPS)
    _ERODED[id(shape)] = (shape, made)
    if len(_ERODED) > _INFLATED_SIZE:
        _ERODED.popitem(last=False)
    return made


_ERODED: OrderedDict[int, tuple[BaseGeometry, BaseGeometry]] = OrderedDict()
_PAIRS: OrderedDict[tuple[int, int], tuple[BaseGeometry, BaseGeometry, BaseGeometry]] = (
    OrderedDict()
)


def _eroded_pair(a: BaseGeometry, b: BaseGeometry) -> BaseGeometry:
    """Two touching inflated shapes merged and eroded by :data:`CLEAR_EPS`, cached."""
    key = (id(a), id(b))
    hit = _PAIRS.get(key)
    if hit is not None and hit[0] is a and hit[1] is b:
        return hit[2]
    made = shapely.unary_union([a, b]).buffer(-CLEAR_EPS)
    _PAIRS[key] = (a, b, made)
    if len(_PAIRS) > _INFLATED_SIZE:
        _PAIRS.popitem(last=False)
    return made


class _Shared:
    """What path graphs of one base width on one table share: the neighbours found for a
    corner, kept by the corner's coordinates.

    A record says, for a corner, which corners its line was tangent to (by id), which
    entries were tested (by id: an entry is a shape object, kept alive here so that its id
    is never reused) and which (segment, entry) pairs cross. A later graph with a corner at
    the same place takes the pairs of the corners and entries it still has and tests only
    what is new (:meth:`PathGraph._neighbours`). Bounded: past :data:`_SHARED_IDS` ids the
    store is replaced by an empty one."""

    def __init__(self) -> None:
        self._corner_ids: dict[bytes, int] = {}
        self._entry_ids: dict[int, tuple[BaseGeometry, int]] = {}
        self.records: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        self.legs: dict[tuple[bytes, int], tuple[tuple[float, float], np.ndarray, np.ndarray]] = {}

    @property
    def n_corners(self) -> int:
        return len(self._corner_ids)

    @property
    def n_entries(self) -> int:
        return len(self._entry_ids)

    @property
    def full(self) -> bool:
        return self.n_corners + self.n_entries + len(self.legs) > _SHARED_IDS

    def corners_of(self, corners: np.ndarray) -> np.ndarray:
        """The ids of corner rows (x, y, previous, next: what tangency depends on)."""
        ids = self._corner_ids
        rows = np.ascontiguousarray(corners, dtype=np.float64)
        out = np.empty(len(rows), dtype=np.int64)
        for k in range(len(rows)):
            out[k] = ids.setdefault(rows[k].tobytes(), len(ids))
        return out

    def entry(self, shape: BaseGeometry) -> int:
        hit = self._entry_ids.get(id(shape))
        if hit is None:
            hit = self._entry_ids[id(shape)] = (shape, len(self._entry_ids))
        return hit[1]


#: ids (corners + entries) a shared store holds before it is replaced
_SHARED_IDS = 30_000
#: shared stores kept, per (half width, table)
_SHARED_SIZE = 4
_SHARED: OrderedDict[tuple[float, int], tuple[BaseGeometry | None, _Shared]] = OrderedDict()


def _shared(hw: float, table: BaseGeometry | None) -> _Shared:
    """The store shared by the graphs of half width ``hw`` on ``table`` (see :class:`_Shared`)."""
    key = (hw, id(table))
    hit = _SHARED.get(key)
    if hit is not None and hit[0] is table and not hit[1].full:
        _SHARED.move_to_end(key)
        return hit[1]
    store = _Shared()
    _SHARED[key] = (table, store)
    _SHARED.move_to_end(key)
    if len(_SHARED) > _SHARED_SIZE:
        _SHARED.popitem(last=False)
    return store


def _framed(table: BaseGeometry, hw: float) -> _Inflated:
    """The frame the sight may not enter (see :func:`_frame`), cached like obstacles."""
    key = (id(table), -hw)
    hit = _INFLATED.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    g = _frame(table, hw)
    made = _Inflated(g, g.buffer(-CLEAR_EPS), np.zeros((0, 6)))
    _INFLATED[key] = (table, made)
    return made


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


def _eroded_union(pieces: Sequence[_Inflated]) -> BaseGeometry:
    """The union of the inflated shapes eroded by :data:`CLEAR_EPS`, as one (prepared)
    shape. Shapes that meet are merged before eroding (the seam between them stays
    closed); a shape that meets no other is eroded alone, which gives the same set (a small
    disc inside a union of disjoint shapes lies inside one of them), from its cache."""
    if not pieces:
        return shapely.GeometryCollection()
    shapes = np.array([p.shape for p in pieces], dtype=object)
    a, b = STRtree(shapes).query(shapes, predicate="intersects")
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
        if len(members) == 1:
            parts.append(pieces[members[0]].eroded)
        else:
            parts.append(_eroded_group([pieces[i].shape for i in members]))
    polys = shapely.get_parts(np.array(parts, dtype=object))
    polys = polys[~shapely.is_empty(polys)]
    out = shapely.multipolygons(polys)
    shapely.prepare(out)
    return out


class _Plain:
    """One question to the plain search, filled in step by step (:func:`_plain_search`)."""

    def __init__(
        self, start: tuple[float, float], goal: tuple[float, float] | Base, reach: float
    ) -> None:
        self.start, self.goal, self.reach = start, goal, reach
        self.bound = reach + REACH_SLACK
        self.sp = Point(start)
        #: the goal point (None: a goal base, ``target``)
        self.gp: Point | None = None if isinstance(goal, Base) else Point(goal)
        self.target: Polygon | None = goal.polygon if isinstance(goal, Base) else None
        #: the obstacles inflated (step 1), the table's frame last
        self.pieces: list[_Inflated] = []
        self.n_obstacles = 0
        #: the obstacles merged and eroded, and with the goal base (step 2)
        self.others: BaseGeometry | None = None
        self.blocker: BaseGeometry | None = None
        #: where a path may end (step 3)
        self.goal_set: BaseGeometry | None = None

    def visible(self, p: tuple[float, float], qs: np.ndarray) -> np.ndarray:
        """Which segments from ``p`` to each of ``qs`` the blocker leaves clear."""
        blocker = self.blocker
        assert blocker is not None
        if blocker.is_empty:
            return np.ones(len(qs), dtype=bool)
        segs = np.empty((len(qs), 2, 2))
        segs[:, 0] = p
        segs[:, 1] = qs
        hits: np.ndarray = shapely.intersects(blocker, shapely.linestrings(segs))
        return ~hits

    def goal_point(self, p: tuple[float, float]) -> tuple[float, float]:
        """The nearest point of the goal set from ``p``."""
        if self.target is None:
            return (self.gp.x, self.gp.y)  # type: ignore[union-attr]
        line = shapely.shortest_line(self.goal_set, Point(p))
        c = np.asarray(line.coords)[0]
        return (float(c[0]), float(c[1]))


def _plain_search(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: Sequence[BaseGeometry],
    width: float,
    *,
    table: BaseGeometry | None = None,
    reach: float = math.inf,
) -> Path | None:
    """The search every question is answered by (see :attr:`PathGraph.plain`), in named
    steps: the obstacles that count, inflated (:func:`_plain_obstacles`); merged into what
    blocks (:func:`_plain_blocker`); where the path may end (:func:`_plain_goal_set`); the
    corners it may turn at (:func:`_plain_corners`); the bounded A* (:func:`_plain_astar`)."""
    q = _Plain(start, goal, reach)
    if not _plain_obstacles(q, obstacles, width / 2.0):
        return None
    if table is not None:
        q.pieces.append(_framed(table, width / 2.0))
    if not _plain_blocker(q) or not _plain_goal_set(q):
        return None
    corners, heur = _plain_corners(q)
    return _plain_astar(q, corners, heur)


def _plain_obstacles(q: _Plain, obstacles: Sequence[BaseGeometry], hw: float) -> bool:
    """Step 1, the obstacles inflated by ``hw`` (``q.pieces``): not those holding the start
    (the fighter is leaving them), not those outside the ellipse of a bounded search
    (:func:`_within_ellipse`); one nearer than ``hw`` to the start or a goal point keeps only
    that clearance. False: a goal point inside an obstacle."""
    sp, gp = q.sp, q.gp
    raw = np.array(obstacles, dtype=object)
    kept = np.zeros(0, dtype=int)
    if len(raw):
        kept = np.nonzero(~shapely.is_empty(raw) & ~shapely.contains(raw, sp))[0]
    shapes = raw[kept]
    gaps = shapely.distance(shapes, sp).tolist()
    if gp is not None:
        inside = shapely.contains(shapes, gp)
        if inside.any() and not shapely.contains(shapely.boundary(shapes[inside]), gp).all():
            return False
        goal_gaps = shapely.distance(shapes, gp).tolist()
    if q.reach < math.inf and len(shapes):
        near = _within_ellipse(shapes, q.start, q.goal, hw, q.reach)
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


def _plain_blocker(q: _Plain) -> bool:
    """Step 2, the inflated shapes merged and eroded (``q.others``) and, with a goal base,
    merged with it (``q.blocker``). False: the start is blocked."""
    q.others = others = _eroded_union(q.pieces)
    blocker = others
    if q.target is not None:
        # one shape (not two tests): a last leg may end on the cut edge, where the answer
        # depends on the exact shape of the merged boundary
        blocker = shapely.union(others, q.target.buffer(-CLEAR_EPS))
    shapely.prepare(blocker)
    q.blocker = blocker
    return not shapely.contains_xy(blocker, *q.start)


def _plain_goal_set(q: _Plain) -> bool:
    """Step 3, where a path may end (``q.goal_set``): the goal point, or the goal base's
    edge less the merged obstacles. False: nowhere."""
    others, target = q.others, q.target
    assert others is not None and q.blocker is not None
    if target is not None:
        goal_set = target.exterior.difference(others) if not others.is_empty else target.exterior
        q.goal_set = goal_set
        return not goal_set.is_empty
    assert q.gp is not None
    q.goal_set = q.gp
    return not shapely.contains_xy(q.blocker, q.gp.x, q.gp.y)


def _plain_corners(q: _Plain) -> tuple[np.ndarray, np.ndarray]:
    """Step 4, the corners a path may turn at (the inflated obstacles' convex corners outside
    the blocker) and each one's distance to the goal set (the A*'s heuristic)."""
    inflated = q.pieces[: q.n_obstacles]
    corners = np.vstack([c.corners for c in inflated]) if inflated else np.zeros((0, 6))
    if len(corners):
        ok = ~shapely.contains_xy(q.blocker, corners[:, 0], corners[:, 1])
        corners = corners[ok]
    xy = corners[:, :2]
    heur = shapely.distance(q.goal_set, shapely.points(xy)) if len(xy) else np.zeros(0)
    return corners, heur


def _plain_astar(q: _Plain, corners: np.ndarray, heur: np.ndarray) -> Path | None:
    """Step 5, the A* from the start by the corners to the goal set: a popped node's last
    leg to the goal is tried at once; the search stops at the best goal found or once its
    lower bound passes the reach (``q.bound``)."""
    start, bound = q.start, q.bound
    assert q.goal_set is not None
    xy = corners[:, :2]
    n = len(xy)
    start_h = float(q.goal_set.distance(q.sp))
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
        if gc + d < best_goal and q.visible(p, np.array([end]))[0]:
            best_goal, goal_parent, goal_end = gc + d, u, end
            heapq.heappush(heap, (best_goal, -3))
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


def _tangent(corners: np.ndarray, px: float, py: float) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the corners the line from (px, py) is tangent to, and every corner's
    distance from (px, py)."""
    vx, vy = corners[:, 0] - px, corners[:, 1] - py
    c1 = vx * (corners[:, 3] - py) - vy * (corners[:, 2] - px)
    c2 = vx * (corners[:, 5] - py) - vy * (corners[:, 4] - px)
    step = np.hypot(vx, vy)
    return np.nonzero((c1 * c2 >= -1e-12) & (step > 1e-9))[0], step


@lru_cache(maxsize=64)
def path_graph(
    obstacles: tuple[BaseGeometry, ...], width: float, table: BaseGeometry | None = None
) -> PathGraph:
    """The (cached) :class:`PathGraph` of these obstacles for a base ``width`` cm wide."""
    return PathGraph(obstacles, width, table)


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
    half a width inside its edges. The inflated obstacles and their visibility graph are
    cached per (obstacles, width, table) (:func:`path_graph`).

    ``reach``: "is it reachable within ``reach`` cm?" The search stops once its lower bound
    (A*'s f) passes the reach: the path is the same whenever it is at most ``reach`` long;
    a longer one may come back as None (or, within rounding, as itself).
    """
    return path_graph(tuple(obstacles), width, table).query(start, goal, reach=reach)
