"""Line of sight (II-D-2, II-D-3, II-D-4, II-F-1).

The lines of sight are all the segments from the source's sight to the points of the
target's base inside the source's field of view. A segment from a point ``s`` to ``p`` is
cut by a (convex) barrier ``B`` exactly when ``p`` lies in the shadow of ``B`` seen from
``s``: the convex hull of ``B`` and of ``B`` scaled away from ``s``. So the set of cut lines
is the target's area covered by shadows; lines that only graze a barrier (a zero-area
shadow) are not cut.
"""

from __future__ import annotations

import enum
import math
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from confrontation.geometry.bases import Base, field_of_view, size_rank
from confrontation.geometry.contact import in_contact

#: areas (cm²) below this are "no lines" (0.01 mm²)
AREA_EPS = 1e-4
_FAR = 400.0


class Sight(enum.Enum):
    """II-D-3: the three answers."""

    SEES = "sees"
    PARTIAL = "partially sees"
    NONE = "does not see"

    @property
    def any(self) -> bool:
        """Sees at least partially (what a charge or a shot needs, V-B-3)."""
        return self is not Sight.NONE


@dataclass(frozen=True)
class Barrier:
    """A fighter or a scenery element that may stand between source and target."""

    shape: BaseGeometry
    size: str
    level: int = 0
    #: the fighter's base when the barrier is one (its box then is known without GEOS)
    base: Base | None = None

    @cached_property
    def rank(self) -> int:
        return size_rank(self.size)

    @cached_property
    def pieces(self) -> list[BaseGeometry]:
        """The shape as convex pieces (computed once)."""
        return _convex_pieces(self.shape)

    @cached_property
    def frame(self) -> tuple[float, float, float, float, float, float, float]:
        """A box holding the shape: centre, unit axis (ux, uy), half-extents along the axis
        and across it, and the radius of a disc about the centre holding the shape (inf for
        a square base or scenery: the box alone)."""
        b = self.base
        if b is None:
            x0, y0, x1, y1 = self.shape.bounds
            return ((x0 + x1) / 2, (y0 + y1) / 2, 1.0, 0.0, (x1 - x0) / 2, (y1 - y0) / 2, math.inf)
        if b.shape == "round":
            r = b.width_mm / 20.0
            return (b.x, b.y, 1.0, 0.0, r, r, r)
        fx, fy = b.front
        return (b.x, b.y, fx, fy, b.depth_mm / 20.0, b.width_mm / 20.0, math.inf)

    @cached_property
    def outlines(self) -> list[list[tuple[float, float]]]:
        """The corners of each convex piece (a square base: its own corners)."""
        if self.base is not None and self.base.shape == "square":
            return [self.base.corners()]
        return [[(x, y) for x, y in shapely.get_coordinates(p).tolist()] for p in self.pieces]

    @classmethod
    def of_base(cls, b: Base) -> Barrier:
        return cls(b.polygon, b.size, b.level, b)


def shadow(sx: float, sy: float, convex: BaseGeometry, far: float = _FAR) -> BaseGeometry:
    """Points whose line from (sx, sy) passes through the convex shape."""
    coords = shapely.get_coordinates(convex)
    if len(coords) == 0:
        return Polygon()
    scaled = (coords - (sx, sy)) * far + (sx, sy)
    return shapely.convex_hull(shapely.multipoints(np.vstack([coords, scaled])))


def _shadows(sx: float, sy: float, pieces: list[BaseGeometry], far: float = _FAR) -> np.ndarray:
    """:func:`shadow` of each convex piece, in one vectorised call."""
    coords, idx = shapely.get_coordinates(pieces, return_index=True)
    scaled = (coords - (sx, sy)) * far + (sx, sy)
    order = np.argsort(np.concatenate([idx, idx]), kind="stable")
    pts = np.vstack([coords, scaled])[order]
    which = np.concatenate([idx, idx])[order]
    hulls: np.ndarray = shapely.convex_hull(shapely.multipoints(pts, indices=which))
    return hulls


#: shadows kept per sight point (the last :data:`_SHADOW_SOURCES` points), per piece: a
#: fighter looking at every enemy casts the same pieces' shadows again and again
_SHADOWS: OrderedDict[tuple[float, float], dict[int, tuple[BaseGeometry, BaseGeometry]]] = (
    OrderedDict()
)
_SHADOW_SOURCES = 256


def _kept_shadows(sx: float, sy: float, pieces: list[BaseGeometry]) -> np.ndarray:
    """:func:`_shadows` of the pieces, each computed once per sight point (the same shape:
    a piece's shadow is built from its own points alone). The entries keep the pieces
    alive, so their ids are not reused."""
    key = (sx, sy)
    known = _SHADOWS.get(key)
    if known is None:
        known = _SHADOWS[key] = {}
        if len(_SHADOWS) > _SHADOW_SOURCES:
            _SHADOWS.popitem(last=False)
    else:
        _SHADOWS.move_to_end(key)
    out = np.empty(len(pieces), dtype=object)
    missing: list[int] = []
    for k, piece in enumerate(pieces):
        hit = known.get(id(piece))
        if hit is not None and hit[0] is piece:
            out[k] = hit[1]
        else:
            missing.append(k)
    if missing:
        made = _shadows(sx, sy, [pieces[k] for k in missing])
        for k, hull in zip(missing, made.tolist(), strict=True):
            out[k] = hull
            known[id(pieces[k])] = (pieces[k], hull)
    return out


def _convex_pieces(shape: BaseGeometry) -> list[BaseGeometry]:
    from confrontation.geometry.scenery import convex_parts

    if shape.geom_type == "Polygon":
        return list(convex_parts(shape))
    if shape.geom_type == "MultiPolygon":
        return [p for g in shape.geoms for p in convex_parts(g)]
    return [shape.convex_hull]


def _in_front(source: Base, target: Base) -> bool:
    """Is the whole target base in front of the source's sight line (cheap, conservative)?"""
    sx, sy = source.sight
    fx, fy = source.front
    reach = target.width_mm / 20.0 if target.shape == "round" else 0.0
    if target.shape == "round":
        return (target.x - sx) * fx + (target.y - sy) * fy > reach + 1e-6
    return all((x - sx) * fx + (y - sy) * fy > 1e-6 for x, y in target.corners())


def _behind(source: Base, target: Base) -> bool:
    """Is the whole target base behind the source's sight line, by more than 1e-6 cm (so
    that none of it is in a level-0 fighter's field of view)?"""
    sx, sy = source.sight
    fx, fy = source.front
    if target.shape == "round":
        reach = target.width_mm / 20.0
        return (target.x - sx) * fx + (target.y - sy) * fy < -reach - 1e-6
    return all((x - sx) * fx + (y - sy) * fy < -1e-6 for x, y in target.corners())


def _taller(source: Base, target: Base, barriers: list[Barrier]) -> list[Barrier]:
    """II-D-3: the barriers that block (level 0, not flat, as large as both fighters)."""
    need = max(size_rank(source.size), size_rank(target.size))
    return [b for b in barriers if b.level == 0 and b.rank > 0 and b.rank >= need]


#: the inscribed circle of a round base's 64-gon, as a fraction of its radius (a little less)
_INNER = math.cos(math.pi / 64) * (1 - 1e-9)


def _all_aside(source: Base, target: Base, near: list[Barrier]) -> bool:
    """Plain arithmetic: does no barrier of ``near`` meet the hull of the source's sight and
    the target (which lies wholly in front of it)? So when, seen from the sight, each
    barrier's angular span misses the target's (by 1e-7 rad), or each of its points is
    farther than every point of the target (by 1e-6 cm). Round shapes are taken as their
    discs (holding the 64-gons)."""
    if not near:
        return True
    sx, sy = source.sight
    dx, dy = target.x - sx, target.y - sy
    d = math.hypot(dx, dy)
    reach = outer_radius(target)
    if d <= reach:
        return False
    ux, uy = dx / d, dy / d
    if target.shape == "round":
        hi = math.asin(target.width_mm / 20.0 / d)
        lo = -hi
    else:
        angles = [
            math.atan2(ux * (y - sy) - uy * (x - sx), (x - sx) * ux + (y - sy) * uy)
            for x, y in target.corners()
        ]
        lo, hi = min(angles), max(angles)
    farthest = d + reach
    for barrier in near:
        b = barrier.base
        if b is not None:
            bx, by = b.x - sx, b.y - sy
            bd = math.hypot(bx, by)
            r = outer_radius(b)
            if bd - r > farthest + 1e-6:
                continue
            if bd <= r or bx * ux + by * uy <= r:
                return False
            mid = math.atan2(ux * by - uy * bx, bx * ux + by * uy)
            half = math.asin(r / bd)
            if mid - half > hi + 1e-7 or mid + half < lo - 1e-7:
                continue
            return False
        for outline in barrier.outlines:
            span = _span(sx, sy, ux, uy, outline)
            if span is None or (span[0] <= hi + 1e-7 and span[1] >= lo - 1e-7):
                return False
    return True


def _span(
    sx: float, sy: float, ux: float, uy: float, outline: list[tuple[float, float]]
) -> tuple[float, float, float] | None:
    """The angles (least, most) from the direction (ux, uy) at which (sx, sy) sees the
    corners of ``outline``, and the farthest corner's distance; None: a corner is not in
    front (``along`` ≤ 0)."""
    least, most, far = math.inf, -math.inf, 0.0
    atan2, hypot = math.atan2, math.hypot
    for x, y in outline:  # min and max by comparisons: the same values, fewer calls
        px, py = x - sx, y - sy
        along = px * ux + py * uy
        if along <= 0:
            return None
        angle = atan2(ux * py - uy * px, along)
        if angle < least:
            least = angle
        if angle > most:
            most = angle
        gap = hypot(px, py)
        if gap > far:
            far = gap
    return least, most, far


def _target_span(
    sx: float, sy: float, ux: float, uy: float, d: float, target: Base
) -> tuple[float, float, float, float] | None:
    """Seen from (sx, sy) with angles taken from the direction (ux, uy) to the target's
    centre (``d`` away): the least and most angles of the target (its disc for a round base,
    which holds the 64-gon; its corners for a square one), and its nearest and farthest
    distances (bounds: the centre's distance less and plus the outer radius). None: the
    sight is within the target's outer disc, or a corner is not in front."""
    reach = outer_radius(target)
    if d <= reach:
        return None
    if target.shape == "round":
        hi = math.asin(target.width_mm / 20.0 / d)
        return -hi, hi, d - reach, d + reach
    lo, hi = math.inf, -math.inf
    for x, y in target.corners():
        px, py = x - sx, y - sy
        along = px * ux + py * uy
        if along <= 0:
            return None
        angle = math.atan2(ux * py - uy * px, along)
        lo, hi = min(lo, angle), max(hi, angle)
    return lo, hi, d - reach, d + reach


def _clip(
    outline: list[tuple[float, float]], nx: float, ny: float, c: float
) -> list[tuple[float, float]]:
    """The corners of the convex polygon ``outline`` cut to the half-plane n·p ≤ c."""
    out: list[tuple[float, float]] = []
    last = outline[-1]
    lv = last[0] * nx + last[1] * ny - c
    for p in outline:
        v = p[0] * nx + p[1] * ny - c
        if (v <= 0) != (lv <= 0):  # the side crosses the line: where it does
            f = lv / (lv - v)
            out.append((last[0] + f * (p[0] - last[0]), last[1] + f * (p[1] - last[1])))
        if v <= 0:
            out.append(p)
        last, lv = p, v
    return out


def _hidden(source: Base, target: Base, tall: list[Barrier]) -> bool:
    """Plain arithmetic: do the barriers of ``tall`` cut every line from the source's sight
    to the target (which lies wholly in front of it)? Then the shadows cover the target:
    not seen (II-D-3). Two sufficient tests:

    - one base (or convex piece) whose angular span, seen from the sight, holds the
      target's (by 1e-7 rad) and whose farthest point is nearer than the target's nearest
      (by 1e-6 cm): each line enters it before reaching the target (what :func:`_covered`
      finds);
    - several together: the spans of their pieces cut to the sight's side of the target
      (:func:`_cut_spans`) cover the target's."""
    view = _view(source, target)
    if view is None:
        return False
    sx, sy, ux, uy, lo, hi, near, far = view
    least = far / _FAR + 1e-6
    # each barrier's span first, uncut (narrowed by 1e-7 rad): if they leave a gap, so do
    # the cut ones (a cut piece spans no more than its piece)
    whole: list[tuple[float, float]] = []
    rounds: list[tuple[Base, float, float, float]] = []
    shapes: list[tuple[list[tuple[float, float]], float, float]] = []
    for barrier in tall:
        b = barrier.base
        if b is not None and b.shape == "round":
            bx, by = b.x - sx, b.y - sy
            bd = math.hypot(bx, by)
            inner = b.width_mm / 20.0 * _INNER
            if bd <= inner or bx * ux + by * uy <= 0:
                continue
            mid = math.atan2(ux * by - uy * bx, bx * ux + by * uy)
            half = math.asin(inner / bd)
            if (
                mid - half < lo - 1e-7
                and mid + half > hi + 1e-7
                and bd + b.width_mm / 20.0 < near - 1e-6
            ):
                return True  # this base alone
            if bx * ux + by * uy - inner < least:
                continue
            a0, a1 = mid - half + 1e-7, mid + half - 1e-7
            if a1 > lo and a0 < hi:
                whole.append((a0, a1))
                rounds.append((b, inner, a0, a1))
            continue
        for outline in barrier.outlines:
            ends = _span(sx, sy, ux, uy, outline)
            if ends is None:
                continue
            if ends[0] < lo - 1e-7 and ends[1] > hi + 1e-7 and ends[2] < near - 1e-6:
                return True  # this piece alone
            a0, a1 = ends[0] + 1e-7, ends[1] - 1e-7
            if a1 > lo and a0 < hi:
                whole.append((a0, a1))
                shapes.append((outline, a0, a1))
    if not _holds(whole, lo, hi):
        return False
    return _holds(_cut_spans(source, target, view, rounds, shapes), lo, hi)


#: what :func:`_view` tells of a target seen from a sight
View = tuple[float, float, float, float, float, float, float, float]


def _view(source: Base, target: Base) -> View | None:
    """The source's sight (sx, sy), the unit direction (ux, uy) to the target's centre, and
    :func:`_target_span` (angles from that direction); None if it is not defined."""
    sx, sy = source.sight
    dx, dy = target.x - sx, target.y - sy
    d = math.hypot(dx, dy)
    if d <= 1e-9:
        return None
    ux, uy = dx / d, dy / d
    span = _target_span(sx, sy, ux, uy, d, target)
    if span is None:
        return None
    return (sx, sy, ux, uy, *span)


def _cut_spans(
    source: Base,
    target: Base,
    view: View,
    rounds: list[tuple[Base, float, float, float]],
    shapes: list[tuple[list[tuple[float, float]], float, float]],
) -> list[tuple[float, float]]:
    """The angular spans (narrowed by 1e-7 rad) of the barriers' parts every line through
    which is cut before it reaches any point of the target.

    Each barrier (a convex piece: ``shapes``, its corners and uncut span; a round base's
    inscribed circle: ``rounds``, base, radius and span) is cut to a half-plane holding the
    sight and missing the target by 1e-6 cm (the target's side nearest along the line to
    its centre, each side of a square target facing the sight, for a round target the side
    facing the barrier): a line through the cut piece passes inside the barrier on the
    sight's side of that half-plane's edge, before any point of the target. Its shadow
    reaches :data:`_FAR` times its piece's distance: a part is kept only if that is beyond
    the target's farthest point (by 1e-6 cm)."""
    sx, sy, ux, uy, _, _, _, far = view
    least = far / _FAR + 1e-6  # a kept part's nearest point is at least this far
    corners = target.corners() if target.shape == "square" else None
    r = target.width_mm / 20.0

    def lowest(nx: float, ny: float) -> float:
        """The target's least n·p (its disc's for a round base)."""
        if corners is None:
            return nx * target.x + ny * target.y - r
        return min(nx * x + ny * y for x, y in corners)

    # the half-planes n·p < c: the sight inside, the target 1e-6 cm beyond the edge
    planes = [(ux, uy)]
    if corners is not None:
        fx, fy = target.front
        planes += [(fx, fy), (-fx, -fy), (-fy, fx), (fy, -fx)]
    cuts = []
    for nx, ny in planes:
        c = lowest(nx, ny) - 1e-6
        if nx * sx + ny * sy < c:
            cuts.append((nx, ny, c))
    found: list[tuple[float, float]] = []
    for b, inner, a0, a1 in rounds:
        mine = list(cuts)
        if corners is None:  # the side of a round target facing this barrier
            gx, gy = target.x - b.x, target.y - b.y
            gap = math.hypot(gx, gy)
            if gap > 1e-9:
                nx, ny = gx / gap, gy / gap
                c = lowest(nx, ny) - 1e-6
                if nx * sx + ny * sy < c:
                    mine.append((nx, ny, c))
        if (b.x - sx) * ux + (b.y - sy) * uy - inner >= least and any(
            nx * b.x + ny * b.y + inner <= c for nx, ny, c in mine
        ):
            found.append((a0, a1))
    for outline, a0, a1 in shapes:
        if min((x - sx) * ux + (y - sy) * uy for x, y in outline) >= least and any(
            max(nx * x + ny * y for x, y in outline) <= c for nx, ny, c in cuts
        ):
            found.append((a0, a1))  # wholly on the sight's side of a cut: uncut
            continue
        for nx, ny, c in cuts:
            part = _clip(outline, nx, ny, c)
            if len(part) < 3:
                continue
            ends = _span(sx, sy, ux, uy, part)
            if ends is None or min((x - sx) * ux + (y - sy) * uy for x, y in part) < least:
                continue
            found.append((ends[0] + 1e-7, ends[1] - 1e-7))
    return found


def _cut_disc(source: Base, target: Base, barriers: list[Barrier]) -> bool:
    """Plain arithmetic: is there a disc of radius :data:`_CLEAR_RADIUS` inside the target
    (which lies wholly in front of the sight) every line to which is cut by one barrier
    (at level 0, not flat)? Then more than AREA_EPS of the target is in its shadow. So
    when a disc on a ray fits (:func:`_disc_on_ray`) inside the span of a part of a
    barrier cut to the sight's side of the target (:func:`_cut_spans`), a disc's angular
    half-width (seen from the target's nearest distance) and 1e-7 rad within it."""
    view = _view(source, target)
    if view is None:
        return False
    sx, sy, ux, uy, lo, hi, near, _ = view
    if near <= 2 * _CLEAR_RADIUS:
        return False
    rounds: list[tuple[Base, float, float, float]] = []
    shapes: list[tuple[list[tuple[float, float]], float, float]] = []
    for barrier in barriers:
        if barrier.level != 0 or barrier.rank <= 0:
            continue
        b = barrier.base
        if b is not None and b.shape == "round":
            bx, by = b.x - sx, b.y - sy
            inner = b.width_mm / 20.0 * _INNER
            if bx * ux + by * uy - inner <= 0:
                continue
            mid = math.atan2(ux * by - uy * bx, bx * ux + by * uy)
            half = math.asin(inner / math.hypot(bx, by))
            if mid + half > lo and mid - half < hi:
                rounds.append((b, inner, mid - half + 1e-7, mid + half - 1e-7))
            continue
        for outline in barrier.outlines:
            ends = _span(sx, sy, ux, uy, outline)
            if ends is not None and ends[1] > lo and ends[0] < hi:
                shapes.append((outline, ends[0] + 1e-7, ends[1] - 1e-7))
    if not rounds and not shapes:
        return False
    half = math.asin(_CLEAR_RADIUS / near) + 1e-7
    for a0, a1 in _cut_spans(source, target, view, rounds, shapes):
        first, last = max(a0, lo) + half, min(a1, hi) - half
        if first <= last and _disc_on_ray(sx, sy, ux, uy, min(max(0.0, first), last), target):
            return True
    return False


def _holds(spans: list[tuple[float, float]], lo: float, hi: float) -> bool:
    """Does the union of the open intervals ``spans`` hold the closed interval [lo, hi]?"""
    spans = sorted(spans)
    reach, best = lo, -math.inf  # reach: the least angle not yet known to be held
    for a, b in spans:
        if a >= reach:
            if best <= reach:
                return False
            reach = best
            if reach > hi:
                return True
            if a >= reach:
                return False
        best = max(best, b)
    return best > hi and best > reach


def _clear_gap(source: Base, target: Base, tall: list[Barrier]) -> bool:
    """Plain arithmetic: is some disc of radius :data:`_CLEAR_RADIUS` inside the target seen
    past every barrier of ``tall`` (the target lying wholly in front of the sight)? Then
    more than AREA_EPS of it is seen (what :func:`_clear_spot` tells from the shadows).

    Each barrier that may be nearer than the target's farthest point blocks, at most, the
    angles of its span seen from the sight (a round base's outer circle, which holds its
    64-gon; the corners of a square base or a piece of scenery), widened by 1e-7 rad; a
    barrier not wholly in front leaves the question to the shadows. In a gap between those
    spans, a ray is taken 1e-7 rad more than a disc's angular half-width (seen from the
    target's nearest distance) inside the gap, and a disc on it inside the target (its
    square less the radius, a round base's circle at 0.99 less the radius): every line to
    the disc lies in the gap."""
    view = _view(source, target)
    if view is None:
        return False
    sx, sy, ux, uy, lo, hi, near, far = view
    if near <= 2 * _CLEAR_RADIUS:
        return False
    blocks: list[tuple[float, float]] = []
    for barrier in tall:
        b = barrier.base
        if b is not None and b.shape == "round":
            bx, by = b.x - sx, b.y - sy
            bd = math.hypot(bx, by)
            reach = b.width_mm / 20.0
            if bd - reach > far + 1e-6:
                continue  # wholly beyond the target
            if bx * ux + by * uy <= reach + 1e-6:
                return False
            mid = math.atan2(ux * by - uy * bx, bx * ux + by * uy)
            half = math.asin(reach / bd)
            blocks.append((mid - half - 1e-7, mid + half + 1e-7))
            continue
        for outline in barrier.outlines:
            least, most, nearest = math.inf, -math.inf, math.inf
            for x, y in outline:
                px, py = x - sx, y - sy
                along = px * ux + py * uy
                if along <= 0:
                    return False
                angle = math.atan2(ux * py - uy * px, along)
                least, most, nearest = min(least, angle), max(most, angle), min(nearest, along)
            if nearest > far + 1e-6:
                continue  # wholly beyond the target
            blocks.append((least - 1e-7, most + 1e-7))
    blocks.sort()
    half = math.asin(_CLEAR_RADIUS / near) + 1e-7
    start = lo
    for begin, end in [*blocks, (math.inf, math.inf)]:
        if begin > start and start < hi:  # a gap (start, min(begin, hi))
            first, last = start + half, min(begin, hi) - half
            if first <= last and _disc_on_ray(sx, sy, ux, uy, min(max(0.0, first), last), target):
                return True
        start = max(start, end)
    return False


def _disc_on_ray(sx: float, sy: float, ux: float, uy: float, angle: float, target: Base) -> bool:
    """Is there a disc of radius :data:`_CLEAR_RADIUS` (and 1e-6 cm) inside the target centred
    on the ray from (sx, sy) at ``angle`` from the direction (ux, uy)?"""
    c, s = math.cos(angle), math.sin(angle)
    rx, ry = ux * c - uy * s, uy * c + ux * s
    px, py = target.x - sx, target.y - sy
    if target.shape == "round":
        room = target.width_mm / 20.0 * 0.99 - _CLEAR_RADIUS - 1e-6  # inside the 64-gon
        return px * rx + py * ry > 0 and abs(px * ry - py * rx) < room
    fx, fy = target.front
    first, last = 0.0, math.inf
    for (ax, ay), h in (
        ((fx, fy), target.depth_mm / 20.0 - _CLEAR_RADIUS - 1e-6),
        ((-fy, fx), target.width_mm / 20.0 - _CLEAR_RADIUS - 1e-6),
    ):
        if h <= 0:
            return False
        o, v = px * ax + py * ay, rx * ax + ry * ay  # the centre's offset, the ray's speed
        if abs(v) < 1e-12:
            if abs(o) >= h:
                return False
            continue
        e0, e1 = (o - h) / v, (o + h) / v
        first, last = max(first, min(e0, e1)), min(last, max(e0, e1))
    return first < last


#: the lines tried by :func:`_clear_line`, across the target from its centre (fractions of
#: the room a clear disc has there)
_ACROSS = (0.0, -0.5, 0.5, -0.9, 0.9)


def _cut_line(source: Base, target: Base, barriers: list[Barrier]) -> bool:
    """Plain arithmetic: is there a line from the source's sight to a point of the target
    whose every neighbour within :data:`_CLEAR_RADIUS` also passes through a barrier (a
    base at level 0, not flat)? Then more than AREA_EPS of the target is cut. So when the
    line passes nearer than the base's inscribed circle less :data:`_CLEAR_RADIUS` (and
    1e-6 cm) to its centre: each neighbouring line, at most that far from it, enters the
    circle. The points tried are :func:`_clear_line`'s."""
    sx, sy = source.sight
    discs = []
    for barrier in barriers:
        b = barrier.base
        if b is None or barrier.level != 0 or barrier.rank <= 0:
            continue
        if b.shape == "round":
            inner = b.width_mm / 20.0 * _INNER
        else:
            inner = min(b.width_mm, b.depth_mm) / 20.0
        inner -= _CLEAR_RADIUS + 1e-6
        if inner > 0 and math.hypot(b.x - sx, b.y - sy) > inner + _CLEAR_RADIUS + 1e-6:
            discs.append((b.x - sx, b.y - sy, inner))
    if not discs:
        return False
    for lx, ly in _lines(source, target):
        span = lx * lx + ly * ly
        for bx, by, inner in discs:
            t = min(max((bx * lx + by * ly) / span, 0.0), 1.0)
            if math.hypot(bx - t * lx, by - t * ly) < inner:
                return True
    return False


def _lines(source: Base, target: Base) -> list[tuple[float, float]]:
    """The lines :func:`_clear_line` tries (from the source's sight, as vectors): to points
    on the target's diameter across the sight line, each with a disc of
    :data:`_CLEAR_RADIUS` inside the base (none if the target is too small)."""
    sx, sy = source.sight
    dx, dy = target.x - sx, target.y - sy
    span = math.hypot(dx, dy)
    if span <= 1e-9:
        return []
    if target.shape == "round":
        room = target.width_mm / 20.0 * 0.99  # inside the 64-gon of the round base
    else:
        room = min(target.width_mm, target.depth_mm) / 20.0
    room -= 2 * _CLEAR_RADIUS
    if room <= 0:
        return []
    nx, ny = -dy / span * room, dx / span * room
    return [(dx + k * nx, dy + k * ny) for k in _ACROSS]


def _clear_line(source: Base, target: Base, tall: list[Barrier]) -> bool:
    """Plain arithmetic: is there a line from the source's sight to a point of the target
    whose every neighbour within :data:`_CLEAR_RADIUS` is also a clear line past every
    barrier of ``tall``? Then more than AREA_EPS of the target is seen past them (what
    :func:`_clear_spot` tells from the shadows), so not every line is blocked.

    The points tried lie on the target's diameter across the sight line, each with a disc
    of :data:`_CLEAR_RADIUS` inside the base. A barrier is taken as its box (a base's own
    square, or the box of a round base or of scenery), and a disc about its centre for a
    round base; its gap to a line is bounded from below by the gaps along the box's two
    axes and along the line's normal (or the distance to the disc): a lower bound, so a
    line is only called clear when it surely is (by more than 1e-6 cm)."""
    sx, sy = source.sight
    need = _CLEAR_RADIUS + 1e-6
    frames = [b.frame for b in tall]
    for lx, ly in _lines(source, target):  # the line from the sight to the point tried
        length = math.hypot(lx, ly)
        mx, my = -ly / length, lx / length
        for bx, by, ux, uy, hu, hv, rad in frames:
            ax, ay = sx - bx, sy - by  # the ends, from the barrier's centre
            qx, qy = ax + lx, ay + ly
            if rad != math.inf:  # a disc: the distance from its centre to the segment
                t = min(max((-ax * lx - ay * ly) / (length * length), 0.0), 1.0)
                if math.hypot(ax + t * lx, ay + t * ly) - rad > need:
                    continue
            au, bu = ax * ux + ay * uy, qx * ux + qy * uy
            if min(au, bu) - hu > need or -hu - max(au, bu) > need:
                continue
            av, bv = ay * ux - ax * uy, qy * ux - qx * uy
            if min(av, bv) - hv > need or -hv - max(av, bv) > need:
                continue
            half = hu * abs(ux * mx + uy * my) + hv * abs(ux * my - uy * mx)
            if abs(ax * mx + ay * my) - half > need:
                continue
            break  # this barrier may cut a line near this one
        else:
            return True
    return False


def line_of_sight(source: Base, target: Base, barriers: Iterable[Barrier] = ()) -> Sight:
    """II-D-3: does ``source`` see ``target`` past ``barriers``?

    - II-D-4: a fighter sees every fighter in contact with it.
    - II-D-2 / II-F-1: only the part of the target in the field of view is looked at
      (180° in front, 360° at level 1); a target partly outside it is at best partially seen
      (ruling, docs/rulings.md II-D-2).
    - II-F-1: barriers block only when source and target are both at level 0, and then only
      barriers at level 0 (level-0 barriers don't block 0 <-> 1, level-1 barriers never block).
    - II-D-3, the size comparison: a line counts as blocked for "does not see" only if it is
      cut by a barrier whose size is greater than or equal to both the source's and the
      target's ("If the obstacle is greater than or equal to the size of the source and the
      target"). Lines cut only by smaller barriers are cut but not blocked. Hence: no line
      cut -> sees; every line blocked (by one barrier or several together) -> does not see;
      otherwise -> partially sees. Flat scenery (rank 0) is no barrier at all.

    ``barriers`` must not include the source and the target themselves.
    """
    if in_contact(source, target):
        return Sight.SEES
    if source.level == 0 and _behind(source, target):
        return Sight.NONE  # II-D-2: wholly behind the sight line, nothing of it is in view
    front = _in_front(source, target)
    if front and source.level == 0 and target.level == 0:
        barriers = list(barriers)
        if _all_aside(source, target, [b for b in barriers if b.level == 0 and b.rank > 0]):
            return Sight.SEES  # no line cut
        tall = _taller(source, target, barriers)
        if _hidden(source, target, tall):
            return Sight.NONE
        if (_clear_line(source, target, tall) or _clear_gap(source, target, tall)) and (
            _cut_line(source, target, barriers) or _cut_disc(source, target, barriers)
        ):
            return Sight.PARTIAL  # a clear line and a cut one, each with room about it
    return _sight_of(source, target.polygon, target.size, target.level, front, barriers)


def sight_of_shape(
    source: Base, shape: BaseGeometry, size: str, barriers: Iterable[Barrier] = ()
) -> Sight:
    """II-D-3 for a target that is no fighter: an element of scenery (its footprint and its
    height as a size class, at level 0), e.g. to charge or shoot it (C3 "Assault and combat
    with elements of scenery"). A fighter touching it sees it (as II-D-4)."""
    if float(source.polygon.distance(shape)) <= 0.005:
        return Sight.SEES
    return _sight_of(source, shape, size, 0, False, barriers)


def sees(source: Base, target: Base, barriers: Iterable[Barrier] = ()) -> bool:
    """``line_of_sight(source, target, barriers).any``, with less work: the overlay that
    tells "sees" from "partially sees" is made only when the target might be wholly hidden
    (what a charge or a shot asks, V-B-3)."""
    if in_contact(source, target):
        return True
    if source.level == 0 and _behind(source, target):
        return False  # II-D-2: wholly behind the sight line, nothing of it is in view
    front = _in_front(source, target)
    if front and source.level == 0 and target.level == 0:
        barriers = list(barriers)
        tall = _taller(source, target, barriers)
        if not tall or _clear_line(source, target, tall):
            return True  # only taller barriers may hide it all (II-D-3)
        if _hidden(source, target, tall):
            return False
        if _clear_gap(source, target, tall):
            return True  # a clear disc of the target seen past them all
    found = _sight_of(source, target.polygon, target.size, target.level, front, barriers, True)
    return found is not Sight.NONE


def _sight_of(
    source: Base,
    target_shape: BaseGeometry,
    target_size: str,
    target_level: int,
    front: bool,
    barriers: Iterable[Barrier],
    any_only: bool = False,
) -> Sight:
    """The body of :func:`line_of_sight` (``front``: the whole target is known to lie in
    front of the source's sight line). With ``any_only`` the answer may say SEES where it is
    PARTIAL (never the other way, and NONE exactly when it is NONE)."""
    if source.level == 1 or front:
        visible = target_shape  # wholly in the field of view: nothing to clip
        clipped = False
    else:
        visible = target_shape.intersection(field_of_view(source))
        if visible.area <= AREA_EPS:
            return Sight.NONE
        clipped = visible.area < target_shape.area - AREA_EPS
    if source.level != 0 or target_level != 0:
        return Sight.PARTIAL if clipped else Sight.SEES
    seen = Sight.PARTIAL if clipped else Sight.SEES
    sx, sy = source.sight
    near = [b for b in barriers if b.level == 0 and b.rank > 0]
    if not near:
        return seen
    xy = shapely.get_coordinates(visible)
    cone = shapely.convex_hull(shapely.multipoints(np.vstack([[(sx, sy)], xy])))
    shapely.prepare(cone)
    hits = shapely.intersects(cone, [b.shape for b in near])
    near = [b for b, hit in zip(near, hits, strict=True) if hit]
    if not near:
        return seen
    need = max(size_rank(source.size), size_rank(target_size))
    pieces: list[BaseGeometry] = []
    tall: list[bool] = []
    for b in near:
        for piece in b.pieces:
            pieces.append(piece)
            tall.append(b.rank >= need)
    touch = shapely.intersects(cone, pieces)
    if not touch.any():
        return seen
    shadows = _kept_shadows(sx, sy, [p for p, t in zip(pieces, touch, strict=True) if t])
    blocked = [sh for sh, t in zip(shadows, np.asarray(tall)[touch], strict=True) if t]
    if any_only:  # NONE needs both overlays below to say so; the cheaper one first
        if not blocked:
            return seen
        # one shadow covering it all (both overlays then say NONE) and a clear spot (neither
        # does) exclude each other: the cheaper test first
        if _covered(visible, blocked):
            return Sight.NONE
        if _clear_spot(visible, blocked):
            return seen
        if visible.difference(shapely.union_all(blocked)).area > AREA_EPS:
            return seen
        if shapely.union_all(shadows).intersection(visible).area <= AREA_EPS:
            return seen
        return Sight.NONE
    if not shapely.intersects(shadows, visible).any():
        return seen  # no shadow meets it: the overlay below would be empty
    if blocked and _covered(visible, blocked):
        return Sight.NONE  # one shadow covers it all: both overlays below say so
    if shapely.union_all(shadows).intersection(visible).area <= AREA_EPS:
        return seen
    if blocked and visible.difference(shapely.union_all(blocked)).area <= AREA_EPS:
        return Sight.NONE
    return Sight.PARTIAL


#: a clear disc of this radius (cm) around a point of the target is far more than AREA_EPS
_CLEAR_RADIUS = 0.02


def _clear_spot(visible: BaseGeometry, shadows: list[BaseGeometry]) -> bool:
    """Is some disc of radius :data:`_CLEAR_RADIUS` inside ``visible`` (a convex target part)
    clear of every shadow? Then more than AREA_EPS of it is uncut (exact, no overlay). The
    discs tried are centred on the centroid and half-way from it to each corner."""
    if visible.geom_type != "Polygon":
        return False
    centre = np.asarray(visible.centroid.coords)
    corners = shapely.get_coordinates(visible.exterior)[:-1]
    spots = np.vstack([centre, (corners + centre) / 2.0])
    points = shapely.points(spots)
    inside = shapely.distance(visible.exterior, points) > _CLEAR_RADIUS
    inside &= shapely.contains(visible, points)
    if not inside.any():
        return False
    gaps = shapely.distance(np.asarray(shadows, dtype=object)[:, None], points[inside][None, :])
    return bool((gaps.min(axis=0) > _CLEAR_RADIUS).any())


def _covered(visible: BaseGeometry, shadows: list[BaseGeometry]) -> bool:
    """Does one shadow cover the whole of ``visible`` (which has more than AREA_EPS)?"""
    if visible.area <= 2 * AREA_EPS:
        return False
    return bool(shapely.covers(np.asarray(shadows, dtype=object), visible).any())


def sees_point(source: Base, x: float, y: float, barriers: Iterable[Barrier] = ()) -> bool:
    """Is the point (x, y) in the field of view and not behind a barrier at least as large
    as the source (for aiming at a spot on the table)?"""
    fov = field_of_view(source)
    if not fov.covers(Point(x, y)):
        return False
    if source.level != 0:
        return True
    sx, sy = source.sight
    line = shapely.LineString([(sx, sy), (x, y)])
    rank = size_rank(source.size)
    for b in barriers:
        if b.level == 0 and b.rank >= rank and b.shape.intersection(line).length > 1e-6:
            return False
    return True


# --- which barriers may stand between two fighters (II-D-3), in plain arithmetic ------------

#: slack (cm) of the corridor tests: a barrier is only left out when it is surely clear
_CORRIDOR_EPS = 1e-6


def outer_radius(b: Base) -> float:
    """The radius (cm) of the smallest disc about the base's centre holding its footprint."""
    if b.shape == "round":
        return b.width_mm / 20.0
    return math.hypot(b.width_mm, b.depth_mm) / 20.0


class Corridors:
    """The barriers that may cut a line from one fighter's sight to another's base, chosen
    in plain arithmetic (no GEOS call).

    Every line of sight from ``source`` to ``target`` lies in the convex hull of the source's
    sight and the target's base (the "cone" of :func:`_sight_of`), which lies within the
    target's outer radius ``R`` of the segment from the sight to the target's centre. A
    barrier is left out when it cannot meet that hull, so that :func:`_sight_of` gives the
    same answer without it: it does not block (II-F-1: not at level 0, or flat: rank 0), or
    its bounding box misses the box of the sight and the disc of radius ``R``, or (a base)
    its centre is farther than ``R`` plus its own outer radius from the segment.

    ``barriers`` are the bases' barriers in the order of ``bases``, then the scenery's.
    """

    def __init__(self, bases: list[Base], barriers: list[Barrier]) -> None:
        boxes = shapely.bounds(np.asarray([b.shape for b in barriers], dtype=object)).tolist()
        self._rows: list[tuple[int, float, float, float, float, float, float, float]] = []
        for k, (bar, box) in enumerate(zip(barriers, boxes, strict=True)):
            if bar.level != 0 or bar.rank <= 0:
                continue  # II-F-1 / flat scenery: never a barrier
            if k < len(bases):
                b = bases[k]
                self._rows.append((k, *box, b.x, b.y, outer_radius(b)))
            else:
                self._rows.append((k, *box, math.nan, math.nan, math.inf))

    def between(self, source: Base, si: int, target: Base, ti: int) -> list[int]:
        """The indices (ascending) of the barriers that may stand between ``source`` (index
        ``si``) and ``target`` (index ``ti``), themselves left out."""
        sx, sy = source.sight
        cx, cy, reach = target.x, target.y, outer_radius(target)
        eps = _CORRIDOR_EPS
        x0, x1 = min(sx, cx - reach) - eps, max(sx, cx + reach) + eps
        y0, y1 = min(sy, cy - reach) - eps, max(sy, cy + reach) + eps
        dx, dy = cx - sx, cy - sy
        span = dx * dx + dy * dy
        found: list[int] = []
        for k, bx0, by0, bx1, by1, bx, by, r in self._rows:
            if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0 or k in (si, ti):
                continue
            if r != math.inf:
                px, py = bx - sx, by - sy
                along = min(max((px * dx + py * dy) / span, 0.0), 1.0) if span > 0 else 0.0
                if math.hypot(px - along * dx, py - along * dy) > r + reach + eps:
                    continue
            found.append(k)
        return found


def may_stand_between(source: Base, target: Base, barrier: Base, slack: float = 1e-3) -> bool:
    """Might ``barrier`` (any level, any size) be one of :meth:`Corridors.between`'s barriers
    between ``source`` and ``target``? Looser than it by ``slack`` cm: False means surely not
    (what keeping a sight answer across a move needs)."""
    sx, sy = source.sight
    cx, cy, reach = target.x, target.y, outer_radius(target)
    r = outer_radius(barrier)
    # the barrier's box lies within its disc's box
    if barrier.x - r > max(sx, cx + reach) + slack or barrier.x + r < min(sx, cx - reach) - slack:
        return False
    if barrier.y - r > max(sy, cy + reach) + slack or barrier.y + r < min(sy, cy - reach) - slack:
        return False
    dx, dy = cx - sx, cy - sy
    span = dx * dx + dy * dy
    px, py = barrier.x - sx, barrier.y - sy
    along = min(max((px * dx + py * dy) / span, 0.0), 1.0) if span > 0 else 0.0
    return math.hypot(px - along * dx, py - along * dy) <= r + reach + slack
