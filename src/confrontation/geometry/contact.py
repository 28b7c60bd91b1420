"""Contact between bases (II-E, II-F-1) and placing a fighter in contact (II-E-1, V-B-3).

Tolerance: two bases "touch" when their edges are at most :data:`CONTACT_TOLERANCE_CM`
(0.05 mm) apart; the same tolerance is allowed on "half of one side" (II-E-1). Contact is
bilateral by construction (the test is symmetric). Mixed pairs (one round, one square base)
use the round rule: the round fighter touches the other, so it is in contact (II-E-2), and
contact is bilateral (II-E), so both are (docs/rulings.md, II-E).
"""

from __future__ import annotations

import bisect
import functools
import heapq
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from confrontation.geometry.bases import ROUND_QUAD_SEGS, Base
from confrontation.geometry.measure import distance, point_distance

#: 0.05 mm: edges this close touch; a half side this much short still counts
CONTACT_TOLERANCE_CM = 0.005
#: ruling (II-E-1): "slightly pushed back" means at most this far
MAX_PUSH_CM = 1.0


def touching(a: Base, b: Base) -> bool:
    """Do the two bases touch (edges within the tolerance)?"""
    return distance(a, b) <= CONTACT_TOLERANCE_CM


def _clip_length(p0: tuple[float, float], p1: tuple[float, float], b: Base, tol: float) -> float:
    """Length of the segment p0-p1 inside square base ``b`` grown by ``tol`` (Liang-Barsky)."""
    fx, fy = b.front

    def local(p: tuple[float, float]) -> tuple[float, float]:
        dx, dy = p[0] - b.x, p[1] - b.y
        return (-dx * fy + dy * fx, dx * fx + dy * fy)

    (ax, ay), (bx, by) = local(p0), local(p1)
    hx, hy = b.width / 2.0 + tol, b.depth / 2.0 + tol
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax + hx), (dx, hx - ax), (-dy, ay + hy), (dy, hy - ay)):
        if abs(p) < 1e-15:
            if q < 0:
                return 0.0
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return 0.0
    return (t1 - t0) * math.hypot(dx, dy)


def half_side_touching(a: Base, b: Base) -> bool:
    """II-E-1: does at least half of one side of square base ``a`` touch base ``b``?"""
    tol = CONTACT_TOLERANCE_CM
    for p0, p1 in a.sides():
        side = math.hypot(p1[0] - p0[0], p1[1] - p0[1])
        if _clip_length(p0, p1, b, tol) >= side / 2.0 - tol:
            return True
    return False


def in_contact(a: Base, b: Base) -> bool:
    """Are the two fighters in base contact?

    II-F-1: only within one altitude level. II-E-2: a round base is in contact as soon as
    it touches. II-E-1: a square base needs at least half of one of its sides touching the
    other base; II-E: contact is bilateral, so either fighter's half side suffices.
    """
    if a.level != b.level:
        return False
    if not touching(a, b):
        return False
    if a.shape == "round" or b.shape == "round":
        return True
    return half_side_touching(a, b) or half_side_touching(b, a)


def side_on_shape(a: Base, shape: BaseGeometry, *, more_than_half: bool = False) -> bool:
    """Does at least half (``more_than_half``: more than half) of one side of square base
    ``a`` lie on ``shape`` — along its outline or over it, within the tolerance? (XX-C-2:
    a fighter in contact with an objective, "au moins la moitié de son socle"; C3: "more
    than half of one base edge".) The shape grown by the tolerance may lengthen the part by
    up to one tolerance at either end: "more than half" asks for more than that."""
    tol = CONTACT_TOLERANCE_CM
    grown = shape.buffer(tol, join_style="mitre")
    for p0, p1 in a.sides():
        half = math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / 2.0
        part = float(shapely.LineString([p0, p1]).intersection(grown).length)
        if (part > half + 2.0 * tol) if more_than_half else (part >= half - tol):
            return True
    return False


def sight_touches(a: Base, b: Base) -> bool:
    """II-E-1: is the sight of ``a`` in contact with the base of ``b``?"""
    return point_distance(b, *a.sight) <= CONTACT_TOLERANCE_CM


def contact_by_move_possible(mover: Base, target: Base) -> bool:
    """II-E-1: could ``mover`` have made this contact by moving (contact and sight on it)?"""
    return in_contact(mover, target) and sight_touches(mover, target)


@dataclass(frozen=True)
class ContactPlacement:
    """Where a fighter is placed in contact, and the fighters pushed to make room."""

    base: Base
    pushed: tuple[tuple[int, Base], ...] = ()


def _candidates(mover: Base, target: Base, ref: tuple[float, float]) -> list[Base]:
    """Positions with the sight on the target's edge, the front facing the target."""
    edge = _Edge(mover, target, ref)
    return [edge.make(k) for k in range(edge.count)]


class _Edge:
    """The candidate positions round ``target`` (see :func:`_candidates`), built one at a
    time: :meth:`make` gives candidate ``k`` exactly as the full list would, and
    :meth:`in_order` yields them nearest ``ref`` first without building the others."""

    def __init__(self, mover: Base, target: Base, ref: tuple[float, float]) -> None:
        self.mover, self.target, self.ref = mover, target, ref
        self.half_depth = hd = mover.depth / 2.0
        if target.shape == "round":
            step = max(0.05 / max(target.radius, 0.1), math.radians(0.5))
            self.angles = list(np.arange(0.0, 2 * math.pi, step))
            self.angles.append(math.atan2(ref[1] - target.y, ref[0] - target.x))
            self.count = len(self.angles)
            phi = np.array(self.angles, dtype=float)
            ux, uy = np.cos(phi), np.sin(phi)
            # where the sight and the centre land, to within rounding
            self.approx_x = target.x + ux * target.radius
            self.approx_y = target.y + uy * target.radius
            self.approx_facing = np.degrees(phi) + 180.0
        else:
            # each side: its places 0.5 mm apart (numpy scalars, as ``list(np.arange(...))``
            # gives them) then the one nearest ``ref`` (a float); candidate k is found by
            # its side's first index, without lists of every place
            self.sides: list[tuple[float, float, float, float, float, float, float]] = []
            self.steps: list[np.ndarray] = []
            self.ends: list[float] = []
            self.starts: list[int] = []
            us_, rows = [], []
            count = 0
            for p0, p1 in target.sides():
                tx, ty = p1[0] - p0[0], p1[1] - p0[1]
                length = math.hypot(tx, ty)
                tx, ty = tx / length, ty / length
                nx, ny = ty, -tx  # outward normal (corners are counter-clockwise)
                steps = np.arange(0.0, length + 1e-9, 0.05)
                u_ref = (ref[0] - p0[0]) * tx + (ref[1] - p0[1]) * ty
                end = min(max(u_ref, 0.0), length)
                facing = math.degrees(math.atan2(-ny, -nx))
                self.starts.append(count)
                self.sides.append((p0[0], p0[1], tx, ty, nx, ny, facing))
                self.steps.append(steps)
                self.ends.append(end)
                us_.append(steps)
                us_.append(np.array((end,)))
                rows.append((len(steps) + 1, p0[0], p0[1], tx, ty, nx, ny, facing))
                count += len(steps) + 1
            self.count = count
            u = np.concatenate(us_)
            table = np.array(rows)
            per = table[:, 0].astype(int)
            p0x, p0y, tx_, ty_, ux, uy, self.approx_facing = (
                np.repeat(table[:, j], per) for j in range(1, 8)
            )
            self.approx_x, self.approx_y = p0x + tx_ * u, p0y + ty_ * u
        self.approx_cx = self.approx_x + ux * hd
        self.approx_cy = self.approx_y + uy * hd

    def make(self, k: int) -> Base:
        """Candidate ``k``: its sight on the target's edge, its front facing the target."""
        mover, target, half_depth = self.mover, self.target, self.half_depth
        if target.shape == "round":
            phi = self.angles[k]
            ux, uy = math.cos(phi), math.sin(phi)
            sx, sy = target.x + ux * target.radius, target.y + uy * target.radius
            cx, cy = sx + ux * half_depth, sy + uy * half_depth
            return mover.moved(cx, cy, math.degrees(phi) + 180.0)
        side = bisect.bisect_right(self.starts, k) - 1
        p0x, p0y, tx, ty, nx, ny, facing = self.sides[side]
        j = k - self.starts[side]
        steps = self.steps[side]
        u = steps[j] if j < len(steps) else self.ends[side]
        sx, sy = p0x + tx * u, p0y + ty * u
        return mover.moved(sx + nx * half_depth, sy + ny * half_depth, facing)

    def surely_blocked(
        self, ks: np.ndarray, blocker: BaseGeometry, room: _Room | None = None
    ) -> np.ndarray:
        """Candidates ``ks`` whose footprint certainly meets ``blocker``: their footprint
        shrunk by :data:`_SHRINK_CM` (built in bulk from the approximate places, which are
        within rounding of the exact ones) already meets it. With ``room`` (boxes holding
        the blocker's parts, and the table's box), footprints are only built for the
        candidates whose outer box meets a part's box or leaves the table's: the others
        cannot meet the blocker."""
        if blocker.is_empty or len(ks) == 0:
            return np.zeros(len(ks), dtype=bool)
        if room is not None:
            r = outer_radius(self.mover) + 1e-6
            bx, by = self.approx_cx[ks], self.approx_cy[ks]
            x0, y0, x1, y1 = bx - r, by - r, bx + r, by + r
            ix0, iy0, ix1, iy1 = room.inside
            doubt = ~((x0 > ix0) & (y0 > iy0) & (x1 < ix1) & (y1 < iy1))
            if len(room.boxes):
                b = room.boxes
                doubt |= (
                    (x0[:, None] <= b[None, :, 2])
                    & (x1[:, None] >= b[None, :, 0])
                    & (y0[:, None] <= b[None, :, 3])
                    & (y1[:, None] >= b[None, :, 1])
                ).any(axis=1)
            out = np.zeros(len(ks), dtype=bool)
            if len(room.discs) and doubt.any():
                # deep in a base: the two inscribed discs overlap (no GEOS call needed)
                d = room.discs
                gap = np.hypot(bx[:, None] - d[None, :, 0], by[:, None] - d[None, :, 1])
                deep = (gap < inner_radius(self.mover) - _DEEP_CM + d[None, :, 2]).any(axis=1)
                out |= deep
                doubt &= ~deep
            if doubt.any():
                out[doubt] = self.surely_blocked(ks[doubt], blocker)
            return out
        m = self.mover
        cx, cy = self.approx_cx[ks], self.approx_cy[ks]
        if m.shape == "round":
            polys = shapely.buffer(
                shapely.points(cx, cy), m.radius - _SHRINK_CM, quad_segs=ROUND_QUAD_SEGS
            )
        else:
            a = np.radians(self.approx_facing[ks])
            fx, fy = np.cos(a), np.sin(a)
            hw, hd = m.width / 2.0 - _SHRINK_CM, m.depth / 2.0 - _SHRINK_CM
            rings = np.empty((len(ks), 4, 2))
            for j, (sf, sl) in enumerate(((1, -1), (1, 1), (-1, 1), (-1, -1))):
                # as Base.corners: front (fx, fy) times depth, left (-fy, fx) times width
                rings[:, j, 0] = cx + sf * fx * hd - sl * fy * hw
                rings[:, j, 1] = cy + sf * fy * hd + sl * fx * hw
            polys = shapely.polygons(rings)
        hits: np.ndarray = shapely.intersects(blocker, polys)
        return hits

    def in_order(self, skip: Callable[[np.ndarray], np.ndarray] | None = None) -> Iterator[Base]:
        """Every candidate (but those ``skip`` flags, asked a batch at a time), by increasing
        distance of its sight from ``ref``, ties in list order: the stable sort of the full
        list. Candidates are ordered by their sight's distance computed cheaply in bulk,
        then built and measured exactly only while they could come next (the two distances
        differ by far less than :data:`_ORDER_EPS`)."""
        rx, ry = self.ref
        approx = np.hypot(self.approx_x - rx, self.approx_y - ry)
        order_a = np.argsort(approx, kind="stable")
        order = order_a.tolist()
        dropped = np.zeros(len(order), dtype=bool)
        screened, batch = 0, 16
        heap: list[tuple[float, int, Base]] = []
        i, n = 0, len(order)
        while i < n or heap:
            while i < n and (not heap or approx[order[i]] - _ORDER_EPS <= heap[0][0]):
                if skip is not None and i >= screened:
                    dropped[i : i + batch] = skip(order_a[i : i + batch])
                    screened, batch = i + batch, batch * 2
                k = order[i]
                i += 1
                if dropped[i - 1]:
                    continue
                c = self.make(k)
                sight = c.sight
                heapq.heappush(heap, (math.hypot(sight[0] - rx, sight[1] - ry), k, c))
            if heap:
                yield heapq.heappop(heap)[2]


@dataclass(frozen=True)
class _Room:
    """Boxes for the screen of :meth:`_Edge.surely_blocked`: (minx, miny, maxx, maxy) of
    each shape merged into a blocker but the outside of the table (one row each), and the
    table's box (a box inside it meets no outside; infinite without a table); ``discs``:
    (x, y, r) of a disc inside each base merged into the blocker and inside the blocker
    (its inscribed disc, less the blocker's shrinking by the tolerance)."""

    boxes: np.ndarray
    inside: tuple[float, float, float, float]
    discs: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))


def inner_radius(base: Base) -> float:
    """The radius of the largest disc about a base's centre inside its footprint (a round
    base's polygon has ``4 * ROUND_QUAD_SEGS`` sides, its corners on the circle)."""
    if base.shape == "round":
        return base.radius * math.cos(math.pi / (4 * ROUND_QUAD_SEGS))
    return min(base.width, base.depth) / 2.0


#: how deep (cm) two inscribed discs must overlap for :meth:`_Edge.surely_blocked` to take
#: the candidate for blocked without asking GEOS: far more than the footprints' shrinking
#: (:data:`_SHRINK_CM`), the rounding of the approximate places and of the outlines
_DEEP_CM = 1e-4


def outer_radius(base: Base) -> float:
    """The distance from a base's centre to its farthest point."""
    if base.shape == "round":
        return base.radius
    return math.hypot(base.width, base.depth) / 2.0


_BOXES: dict[int, tuple[BaseGeometry, bool]] = {}
"""Per table shape (by identity, the shape kept alongside): is it its own bounding box?"""


def _table_box(table: BaseGeometry | None) -> tuple[float, float, float, float] | None:
    """The table's box when the table is one (None: it is not, and no box is inside it)."""
    inf = math.inf
    if table is None:
        return (-inf, -inf, inf, inf)
    kept = _BOXES.get(id(table))
    if kept is None or kept[0] is not table:
        if len(_BOXES) > 64:
            _BOXES.clear()
        kept = _BOXES[id(table)] = (table, bool(table.equals(box(*table.bounds))))
    return tuple(table.bounds) if kept[1] else None


#: footprints shrunk by this much (cm) for the sure-overlap screen of candidates
_SHRINK_CM = 1e-6
#: the bulk distances of :meth:`_Edge.in_order` are within a few ulps of the exact ones
_ORDER_EPS = 1e-9


def _in_contact_with(cands: list[Base], target: Base) -> np.ndarray:
    """``in_contact(c, target)`` for every candidate (square footprints measured in bulk,
    with the same shapes and the same GEOS distance as :func:`distance`)."""
    out = np.zeros(len(cands), dtype=bool)
    if not cands:
        return out
    if cands[0].shape == "square" and target.shape == "square":
        gaps = shapely.distance(_polygons(cands), target.polygon).tolist()
    else:
        gaps = [distance(c, target) for c in cands]
    for k, (c, gap) in enumerate(zip(cands, gaps, strict=True)):
        if c.level != target.level or not gap <= CONTACT_TOLERANCE_CM:
            continue
        if c.shape == "round" or target.shape == "round":
            out[k] = True
        else:
            out[k] = half_side_touching(c, target) or half_side_touching(target, c)
    return out


def _flush(mover: Base, target: Base) -> bool:
    """Is every candidate of ``mover`` round ``target`` in contact with it, so that
    :func:`_in_contact_with` need not be asked? Two square bases on one level: a candidate's
    front side lies along a side of the target (its sight on that side, facing it: a gap of
    rounding only, far under the tolerance), its middle on the side, so at least half of its
    front side touches the target (II-E-1: the half side of one of the two suffices)."""
    return mover.shape == "square" and target.shape == "square" and mover.level == target.level


def _blocker(
    others: Sequence[Base], obstacles: Sequence[BaseGeometry], table: BaseGeometry | None
) -> BaseGeometry:
    parts: list[BaseGeometry] = [o.polygon for o in others]
    parts.extend(obstacles)
    if table is not None:
        parts.append(_outside(table))
    if not parts:
        return shapely.GeometryCollection()
    blocker = shapely.unary_union(parts).buffer(-CONTACT_TOLERANCE_CM)
    shapely.prepare(blocker)
    return blocker


_OUTSIDE: dict[int, tuple[BaseGeometry, BaseGeometry]] = {}
"""Per table shape (by identity, the shape kept alongside): the ring of 1 m round it."""


def _outside(table: BaseGeometry) -> BaseGeometry:
    """A band 1 m wide round the table: what a base placed off the table meets (built once
    per table shape)."""
    kept = _OUTSIDE.get(id(table))
    if kept is not None and kept[0] is table:
        return kept[1]
    minx, miny, maxx, maxy = table.bounds
    outside = box(minx - 100, miny - 100, maxx + 100, maxy + 100).difference(table)
    if len(_OUTSIDE) > 64:
        _OUTSIDE.clear()
    _OUTSIDE[id(table)] = (table, outside)
    return outside


def _polygons(cands: list[Base]) -> np.ndarray:
    """The candidates' footprints built in bulk (the same shapes as ``Base.polygon``)."""
    out = np.empty(len(cands), dtype=object)
    rounds = [k for k, c in enumerate(cands) if c.shape == "round"]
    if rounds:
        xs = np.array([cands[k].x for k in rounds])
        ys = np.array([cands[k].y for k in rounds])
        rs = np.array([cands[k].width_mm / 20.0 for k in rounds])
        out[rounds] = shapely.buffer(shapely.points(xs, ys), rs, quad_segs=ROUND_QUAD_SEGS)
    squares = [k for k, c in enumerate(cands) if c.shape != "round"]
    if squares:
        rings = np.array([cands[k].corners() for k in squares])
        out[squares] = shapely.polygons(rings)
    return out


def _free(cands: list[Base], blocker: BaseGeometry) -> np.ndarray:
    if blocker.is_empty:
        return np.ones(len(cands), dtype=bool)
    hits: np.ndarray = shapely.intersects(blocker, _polygons(cands))
    return ~hits


def _near(
    mover: Base, target: Base, others: Sequence[Base], obstacles: Sequence[BaseGeometry]
) -> tuple[list[Base], list[BaseGeometry]]:
    """The bases and shapes a base in contact with ``target`` could overlap."""
    reach = math.hypot(mover.width, mover.depth) + 4 * CONTACT_TOLERANCE_CM
    return _meeting(target, reach, others, obstacles)


def _meeting(
    base: Base, grow: float, others: Sequence[Base], obstacles: Sequence[BaseGeometry]
) -> tuple[list[Base], list[BaseGeometry]]:
    """The bases of ``others`` and the shapes of ``obstacles`` (in their order) whose box
    meets ``base``'s box grown by ``grow`` on every side."""
    window = _grown_box(base, grow)
    return (
        [o for o in _maybe_near(others, window) if _meets(o.polygon.bounds, window)],
        [g for g in obstacles if _meets(g.bounds, window)],
    )


Box = tuple[float, float, float, float]


def _grown_box(base: Base, grow: float) -> Box:
    """``base``'s box (minx, miny, maxx, maxy) grown by ``grow`` on every side."""
    x0, y0, x1, y1 = base.polygon.bounds
    return (x0 - grow, y0 - grow, x1 + grow, y1 + grow)


def _meets(b: Box, window: Box) -> bool:
    """Does box ``b`` meet box ``window`` (edges touching count)?"""
    return bool(b[0] <= window[2] and b[2] >= window[0] and b[1] <= window[3] and b[3] >= window[1])


#: slack (cm) of :func:`_maybe_near`'s screen: far more than the rounding of a corner
_NEAR_SLACK_CM = 1e-6


def _maybe_near(others: Sequence[Base], window: tuple[float, float, float, float]) -> list[Base]:
    """The bases of ``others`` whose footprint's box may meet ``window`` (in their order):
    one numpy pass over the centres, each base taken as the box of its outer circle (a
    footprint lies within its outer radius of the centre), with
    :data:`_NEAR_SLACK_CM` to spare. The others' boxes cannot meet the window, so the exact
    box test of :func:`_near` need only be asked of these: the same list, without building
    and measuring every base of a big army."""
    if len(others) < 8:
        return list(others)
    x0, y0, x1, y1 = window
    xs = np.fromiter((o.x for o in others), float, len(others))
    ys = np.fromiter((o.y for o in others), float, len(others))
    rs = np.fromiter((outer_radius(o) for o in others), float, len(others)) + _NEAR_SLACK_CM
    keep = (xs - rs <= x1) & (xs + rs >= x0) & (ys - rs <= y1) & (ys + rs >= y0)
    return [others[k] for k in np.flatnonzero(keep).tolist()]


def nearest_contact_position(
    mover: Base,
    target: Base,
    others: Sequence[Base] = (),
    obstacles: Sequence[BaseGeometry] = (),
    *,
    reference: tuple[float, float] | None = None,
    table: BaseGeometry | None = None,
    pushable: Sequence[int] = (),
    accept: Callable[[ContactPlacement], bool] | None = None,
) -> ContactPlacement | None:
    """The legal position in contact with ``target`` nearest to ``reference``.

    The position's base touches the target by the contact rules (II-E), its sight is on the
    target's base and it faces the target (II-E-1, V-B-3), and it overlaps no base of
    ``others``, no shape of ``obstacles`` and stays on ``table``. ``reference`` defaults to
    the mover's current sight. ``pushable`` are indices into ``others`` of fighters already
    in contact with the target: if no free position exists they may be pushed by at most
    :data:`MAX_PUSH_CM` (II-E-1); fighters not in contact with the target are never pushed.
    Candidate sights are 0.5 mm apart along the target's edge. ``accept`` (the caller's
    rules, e.g. the contact limits of II-E-3) may refuse a placement: the next one is tried.
    (A :class:`ContactSearch` asked once; keep one to ask again.)
    """
    search = ContactSearch(mover, target, others, obstacles, table=table, pushable=pushable)
    return search.nearest(reference, accept)


class ContactSearch:
    """:func:`nearest_contact_position` for one mover, target and surroundings, asked as
    often as wanted: the shapes that block a place are merged once for every reference,
    and the work done for a reference (the candidates found free, in order, and the
    pushes tried) is kept, so that asking again -- with another ``accept``, which is always
    called afresh -- only goes on where the last answer stopped. The answers are those of
    a fresh search: the first candidate in the same order that is in contact, free and
    accepted, then the same pushes."""

    def __init__(
        self,
        mover: Base,
        target: Base,
        others: Sequence[Base] = (),
        obstacles: Sequence[BaseGeometry] = (),
        *,
        table: BaseGeometry | None = None,
        pushable: Sequence[int] | Callable[[], Sequence[int]] = (),
    ) -> None:
        self.mover, self.target, self.others = mover, target, others
        self.obstacles, self.table = obstacles, table
        self._pushable = pushable
        self._blocker: BaseGeometry | None = None
        self.room: _Room | None = None  # boxes for the screen, when the table is a box
        self._walks: dict[tuple[float, float], _Walk] = {}

    def blocker(self) -> BaseGeometry:
        """What a free place in contact must not meet (near bases, shapes, off the table)."""
        if self._blocker is None:
            bases, shapes = _near(self.mover, self.target, self.others, self.obstacles)
            self._blocker = _blocker(bases, shapes, self.table)
            inside = _table_box(self.table)
            if inside is not None:
                rows = [b.polygon.bounds for b in bases] + [g.bounds for g in shapes]
                boxes = np.array(rows, dtype=float).reshape(-1, 4)
                discs = [(b.x, b.y, inner_radius(b) - CONTACT_TOLERANCE_CM) for b in bases]
                self.room = _Room(boxes, inside, np.array(discs, dtype=float).reshape(-1, 3))
        return self._blocker

    def pushable(self) -> Sequence[int]:
        if callable(self._pushable):
            self._pushable = self._pushable()
        return self._pushable

    def nearest(
        self,
        reference: tuple[float, float] | None = None,
        accept: Callable[[ContactPlacement], bool] | None = None,
    ) -> ContactPlacement | None:
        """The place of :func:`nearest_contact_position` for ``reference`` and ``accept``."""
        ref = reference if reference is not None else self.mover.sight
        if self.mover.level != self.target.level:
            return None  # II-F-1: contact only within a level
        walk = self._walks.get(ref)
        if walk is None:
            walk = self._walks[ref] = _Walk(self, ref)
        return walk.nearest(accept)


class _Walk:
    """One reference's search of a :class:`ContactSearch`, resumable."""

    def __init__(self, search: ContactSearch, ref: tuple[float, float]) -> None:
        self.search = search
        self.edge = _Edge(search.mover, search.target, ref)
        # the candidates in contact, nearest first, tried a batch at a time: the first free
        # one is the answer (the same as filtering, sorting and testing the whole list)
        # (places surely overlapping a base or an obstacle are screened out first, in bulk)
        blocker = search.blocker()
        self.ordered: Iterator[Base] | None = self.edge.in_order(
            lambda ks: self.edge.surely_blocked(ks, blocker, search.room)
        )
        self.batch = 8
        self.free: list[Base] = []  # the free places in contact found so far, in order
        self.room: list[Base] | None = None  # the places to push from, best first
        self.pushes: list[tuple[tuple[int, Base], ...] | None] = []
        self.push_ids: list[int] = []
        self.kit: _PushKit | None = None  # what the pushes from every place share

    def nearest(self, accept: Callable[[ContactPlacement], bool] | None) -> ContactPlacement | None:
        for c in self.free:
            if accept is None or accept(ContactPlacement(c)):
                return ContactPlacement(c)
        target, blocker = self.search.target, self.search.blocker()
        while self.ordered is not None:
            chunk = list(itertools.islice(self.ordered, self.batch))
            if not chunk:
                self.ordered = None
                break
            self.batch *= 2
            if not _flush(self.search.mover, target):
                chunk = [
                    c for c, ok in zip(chunk, _in_contact_with(chunk, target), strict=True) if ok
                ]
            start = len(self.free)
            self.free += [c for c, ok in zip(chunk, _free(chunk, blocker), strict=True) if ok]
            for c in self.free[start:]:
                if accept is None or accept(ContactPlacement(c)):
                    return ContactPlacement(c)
        return self._pushed(accept)

    def _pushed(self, accept: Callable[[ContactPlacement], bool] | None) -> ContactPlacement | None:
        """No free place accepted: push the fighters in contact with the target (II-E-1)."""
        room = self._room()
        for k in range(min(len(room), 30)):
            if k == len(self.pushes):
                s = self.search
                if self.kit is None:
                    self.kit = _PushKit(s.target, s.others, s.obstacles)
                placed = _push(
                    room[k], s.target, s.others, self.push_ids, s.obstacles, s.table, self.kit
                )
                self.pushes.append(placed)
            placed = self.pushes[k]
            if placed is not None and (accept is None or accept(ContactPlacement(room[k], placed))):
                return ContactPlacement(room[k], placed)
        return None

    def _room(self) -> list[Base]:
        if self.room is not None:
            return self.room
        self.room = []
        s = self.search
        target, others = s.target, s.others
        # no free place: the full list of places in contact, for pushing (II-E-1)
        cands = list(self.edge.in_order())
        if not _flush(s.mover, target):
            cands = [c for c, ok in zip(cands, _in_contact_with(cands, target), strict=True) if ok]
        if not cands:
            return self.room
        self.push_ids = push = [i for i in s.pushable() if in_contact(others[i], target)]
        if not push:
            return self.room
        fixed = [o for i, o in enumerate(others) if i not in push]
        # the bases and shapes a place in contact could meet (:func:`_near`, as the walk's
        # own blocker): the others are left out of the union
        free = _free(cands, _blocker(*_near(s.mover, target, fixed, s.obstacles), s.table))
        room = [c for c, ok in zip(cands, free, strict=True) if ok]
        if not room:
            return self.room
        # try first the places that overlap the fighters to push the least
        pushed_area = shapely.unary_union([others[i].polygon for i in push])
        overlap = shapely.area(
            shapely.intersection(np.array([c.polygon for c in room], dtype=object), pushed_area)
        )
        order = sorted(range(len(room)), key=lambda k: (round(float(overlap[k]), 3), k))
        self.room = [room[k] for k in order[:30]]
        return self.room


def _near_push(
    pushed: Base, rest: Sequence[Base], obstacles: Sequence[BaseGeometry]
) -> tuple[list[Base], list[BaseGeometry]]:
    """The bases and shapes a push of ``pushed`` (at most :data:`MAX_PUSH_CM`) could meet:
    those whose box meets the pushed base's box grown by the push and the tolerance (as
    :func:`_near`: the blocker is eroded by the tolerance, so near the tried places it is
    made of these alone; a big army's other bases are left out of its union, II-E-1)."""
    return _meeting(pushed, _PUSH_GROW, rest, obstacles)


#: how far (cm) round a pushed fighter's box the bases and shapes of his blocker are sought
_PUSH_GROW = MAX_PUSH_CM + 4 * CONTACT_TOLERANCE_CM


#: how far (cm) and which ways (radians) a fighter is tried pushed, in this order
_PUSH_RADII = np.arange(0.05, MAX_PUSH_CM + 1e-9, 0.05)
_PUSH_ANGLES = np.linspace(0.0, 2 * math.pi, 16, endpoint=False)
#: each way's cosine and sine (``math``'s, as the pushes were first written)
_PUSH_COS = np.array([math.cos(a) for a in _PUSH_ANGLES])
_PUSH_SIN = np.array([math.sin(a) for a in _PUSH_ANGLES])
#: the rings tried in one batch, in turn: the first ring alone (most pushes that succeed,
#: succeed there), then all the others
_PUSH_BATCHES = ((0, 1), (1, len(_PUSH_RADII)))


class _PushKit:
    """What the pushes tried from the places of one walk share (II-E-1): per fighter
    pushed, the places tried (their footprints built once, :func:`_moved_polygons`, and
    which of them are in contact with the target, asked once each) and, while no other
    fighter has been pushed, the bases and shapes near him but the place's newcomer
    (:func:`_near_push` of the others alone: the newcomer and the target are screened
    afresh). Every one depends on the pushed fighter's base alone (kept with it: the
    same object) and on the walk's target, others and obstacles."""

    def __init__(
        self, target: Base, others: Sequence[Base], obstacles: Sequence[BaseGeometry]
    ) -> None:
        self.target, self.others, self.obstacles = target, others, obstacles
        self._near: dict[int, tuple[Base, list[Base], list[BaseGeometry]]] = {}
        self._places: dict[int, _PushPlaces] = {}

    def near(self, i: int, o: Base, new: Base) -> tuple[list[Base], list[BaseGeometry]]:
        """:func:`_near_push` of ``o`` (the others' ``i``) among the others but him, the
        newcomer ``new`` and the target (in that order): the others' part kept."""
        kept = self._near.get(i)
        if kept is None or kept[0] is not o:
            rest = [b for j, b in enumerate(self.others) if j != i]
            kept = self._near[i] = (o, *_near_push(o, rest, self.obstacles))
        window = _grown_box(o, _PUSH_GROW)
        came = [b for b in (new, self.target) if _meets(b.polygon.bounds, window)]
        return kept[1] + came, kept[2]

    def places(self, o: Base) -> _PushPlaces:
        """The places ``o`` is tried pushed to (kept per base object)."""
        kept = self._places.get(id(o))
        if kept is None or kept.base is not o:
            kept = self._places[id(o)] = _PushPlaces(o, self.target)
        return kept


class _PushPlaces:
    """The places of :func:`_first_push` for one fighter and target: each batch's
    centres and footprints, and which of them are in contact with the target (asked once;
    it does not depend on the place's newcomer nor on the blocker)."""

    def __init__(self, o: Base, target: Base) -> None:
        self.base, self.target = o, target
        # o.x + r * cos(a), as o.moved(o.x + r * math.cos(a), ...) was asked place by place
        xs = o.x + _PUSH_RADII[:, None] * _PUSH_COS[None, :]
        ys = o.y + _PUSH_RADII[:, None] * _PUSH_SIN[None, :]
        self.batches = [(xs[lo:hi].ravel(), ys[lo:hi].ravel()) for lo, hi in _PUSH_BATCHES]
        self._polygons: list[np.ndarray | None] = [None] * len(self.batches)
        self._touching: list[np.ndarray | None] = [None] * len(self.batches)
        self._contact: dict[tuple[int, int], Base | None] = {}

    def polygons(self, batch: int) -> np.ndarray:
        """The footprints of ``batch``'s places (:func:`_moved_polygons`)."""
        found = self._polygons[batch]
        if found is None:
            bx, by = self.batches[batch]
            found = self._polygons[batch] = _moved_polygons(self.base, bx, by)
        return found

    def touching(self, batch: int) -> np.ndarray:
        """The indices (in order) of ``batch``'s places that may touch the target: two
        squares, those whose footprint is within the tolerance (and
        :data:`_PUSH_GAP_SLACK_CM`) of the target's, measured in one GEOS call (the
        footprints are the places' own, so their gaps are :func:`distance`'s); else all.
        The others are not in contact with it (II-E: contact needs touching)."""
        found = self._touching[batch]
        if found is None:
            if self.base.shape == "square" and self.target.shape == "square":
                gaps = shapely.distance(self.polygons(batch), self.target.polygon)
                found = np.flatnonzero(gaps <= CONTACT_TOLERANCE_CM + _PUSH_GAP_SLACK_CM)
            else:
                found = np.arange(len(self.batches[batch][0]))
            self._touching[batch] = found
        return found

    def in_contact(self, batch: int, k: int) -> Base | None:
        """Place ``k`` of ``batch`` as a base when it is in contact with the target
        (:func:`in_contact`, asked once), else None."""
        key = (batch, k)
        if key not in self._contact:
            bx, by = self.batches[batch]
            m = self.base.moved(bx[k], by[k])
            self._contact[key] = m if in_contact(m, self.target) else None
        return self._contact[key]


#: slack (cm) of :meth:`_PushPlaces.touching`'s screen, far beyond any rounding
_PUSH_GAP_SLACK_CM = 1e-6


def _push(
    new: Base,
    target: Base,
    others: Sequence[Base],
    push: Sequence[int],
    obstacles: Sequence[BaseGeometry],
    table: BaseGeometry | None,
    kit: _PushKit | None = None,
) -> tuple[tuple[int, Base], ...] | None:
    """Push the fighters overlapping ``new`` by the least distance that frees them
    (II-E-1): each to the first free place in contact of the rings of
    :data:`_PUSH_RADII` (nearest ring first, each ring in the order of
    :data:`_PUSH_ANGLES`). ``kit``: what earlier pushes of the same walk (the same
    ``target``, ``others`` and ``obstacles``) found that this one needs again."""
    if kit is None:
        kit = _PushKit(target, others, obstacles)
    current = list(others)
    moved: list[tuple[int, Base]] = []
    shrunk = new.polygon.buffer(-CONTACT_TOLERANCE_CM)
    for i in push:
        o = current[i]
        if not shapely.intersects(shrunk, o.polygon):
            continue
        if moved:  # another fighter was pushed: the near bases are asked afresh
            rest = [b for j, b in enumerate(current) if j != i] + [new, target]
            near = _near_push(o, rest, obstacles)
        else:
            near = kit.near(i, o, new)
        best = _first_push(kit.places(o), functools.partial(_blocker, *near, table))
        if best is None:
            return None
        current[i] = best
        moved.append((i, best))
    return tuple(moved)


def _first_push(places: _PushPlaces, blocker_of: Callable[[], BaseGeometry]) -> Base | None:
    """The first of ``places``, in order, free of the blocker and in contact with their
    target: a batch of rings at a time (:data:`_PUSH_BATCHES`), the places that may touch
    the target (:meth:`_PushPlaces.touching`) tested against the blocker in bulk, the free
    ones then asked :func:`in_contact` in order. The blocker (``blocker_of``) is only
    built when some place may touch the target."""
    blocker: BaseGeometry | None = None
    for batch in range(len(places.batches)):
        ks = places.touching(batch)
        if not len(ks):
            continue
        if blocker is None:
            blocker = blocker_of()
        if not blocker.is_empty:
            ks = ks[~shapely.intersects(blocker, places.polygons(batch)[ks])]
        for k in ks.tolist():
            m = places.in_contact(batch, k)
            if m is not None:
                return m
    return None


def _moved_polygons(base: Base, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``base``'s footprint at each place (``xs[k]``, ``ys[k]``), built in bulk: the same
    shapes as :func:`_polygons` of ``base.moved(xs[k], ys[k])`` (a square's corners by the
    sums of ``bases._corners``, in its order, on whole arrays)."""
    if base.shape == "round":
        out: np.ndarray = shapely.buffer(
            shapely.points(xs, ys), base.width_mm / 20.0, quad_segs=ROUND_QUAD_SEGS
        )
        return out
    a = math.radians(base.facing)
    fx, fy = math.cos(a), math.sin(a)
    lx, ly = -fy, fx  # left of the facing direction
    hw, hd = base.width_mm / 10.0 / 2.0, base.depth_mm / 10.0 / 2.0
    rings = np.empty((len(xs), 4, 2))
    rings[:, 0, 0], rings[:, 0, 1] = xs + fx * hd - lx * hw, ys + fy * hd - ly * hw
    rings[:, 1, 0], rings[:, 1, 1] = xs + fx * hd + lx * hw, ys + fy * hd + ly * hw
    rings[:, 2, 0], rings[:, 2, 1] = xs - fx * hd + lx * hw, ys - fy * hd + ly * hw
    rings[:, 3, 0], rings[:, 3, 1] = xs - fx * hd - lx * hw, ys - fy * hd - ly * hw
    polys: np.ndarray = shapely.polygons(rings)
    return polys
