"""Units and formations (``# C4 Units > Unit formation``): pure functions over positions.

A unit is a sequence of :class:`Member` (round bases, positions in cm). What to call:

- :func:`scattered_problems` / :func:`close_problems` / :func:`formation_problems`: why the
  members are not in formation (an empty list: they are). ``# Units > Unit formation``.
  :func:`in_formation` tells only whether they are (the same tests, stopping at the first
  problem: the lay-outs and moves try many places).
- :func:`lay_out`: the members placed in a formation around a leader point, facing a
  direction, clear of ``obstacles`` and on ``table`` (None if no rank width fits);
  :func:`change_formation` does it round the current leader (``# Moving Miniatures``).
- :func:`new_leader` / :func:`leader_candidates`: who leads when the leader falls
  (``# Units``: nearest standard, then nearest special; Incarnates always lead);
  :func:`leader_problems`: is the designated leader a legal one.
- :func:`member_base`: a member as a :class:`~confrontation.geometry.Base` (for the
  geometry package's paths and sight).

Rulings (docs/rulings.md, "002 — the unit-based ruleset (C4)"): what "in contact" and "ranks
as equal as possible" mean, the scattered lay-out's 1 cm gaps, ties between leaders.

Sections (docs/rules-index.toml): C4-UNITS, C4-UNIT-FORMATION.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from confrontation.geometry import CONTACT_TOLERANCE_CM, Base

#: ``# Units > Unit formation``: every fighter within 10 cm of the unit leader (both formations)
LEADER_REACH_CM = 10.0
#: ``# Units > Unit formation``: scattered, each fighter within 2.5 cm of another
NEIGHBOUR_CM = 2.5
#: ruling: the gap between bases when a unit is laid out scattered
SCATTERED_GAP_CM = 1.0
#: bases closer than this (cm) overlap; edges within the contact tolerance touch
OVERLAP_EPS = 1e-6


class Formation(enum.StrEnum):
    """``# Units > Unit formation``: the two formations."""

    SCATTERED = "scattered"
    CLOSE = "close"


@dataclass(frozen=True, slots=True)
class Member:
    """A fighter of a unit on the table: centre (cm), base radius (cm), its role.

    ``standard``: a standard fighter (else special); ``incarnate``: an Incarnate (special);
    ``engaged``: in contact with an enemy (exempt from the scattered formation)."""

    id: str
    x: float
    y: float
    radius: float
    standard: bool = True
    incarnate: bool = False
    engaged: bool = False
    size: str = "normal"

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    def at(self, x: float, y: float) -> Member:
        """The same member elsewhere."""
        return Member(
            self.id, x, y, self.radius, self.standard, self.incarnate, self.engaged, self.size
        )

    def freed(self) -> Member:
        """The same member not engaged (formation checks of a lay-out)."""
        if not self.engaged:
            return self
        return Member(
            self.id, self.x, self.y, self.radius, self.standard, self.incarnate, False, self.size
        )


def gap(a: Member, b: Member) -> float:
    """Edge-to-edge distance between two members' bases (``# Measuring Distance``); 0 when
    they touch, negative when they overlap."""
    return math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius


def touching(a: Member, b: Member) -> bool:
    """Are the two bases in contact (edges within the geometry's contact tolerance)?"""
    return abs(gap(a, b)) <= CONTACT_TOLERANCE_CM


def overlapping(a: Member, b: Member) -> bool:
    """Do the two bases overlap (more than the contact tolerance)?"""
    return gap(a, b) < -CONTACT_TOLERANCE_CM


def member_base(m: Member, facing: float = 90.0) -> Base:
    """The member as a round geometry :class:`~confrontation.geometry.Base`."""
    d = m.radius * 20.0
    return Base(m.x, m.y, facing, "round", d, d, m.size)


def _leader(members: Sequence[Member], leader: str) -> Member:
    for m in members:
        if m.id == leader:
            return m
    raise ValueError(f"leader {leader!r} is not a member of the unit")


def overlap_problems(members: Sequence[Member]) -> list[str]:
    """Pairs of members whose bases overlap."""
    out = []
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            if overlapping(a, b):
                out.append(f"# Units > Unit formation: {a.id} and {b.id} overlap")
    return out


def scattered_problems(members: Sequence[Member], leader: str) -> list[str]:
    """``# Units > Unit formation`` (scattered): each fighter within 10 cm of the leader and
    within 2.5 cm of another fighter of the unit; fighters in contact with an opponent
    (``engaged``) need not stay in formation. Checked at the end of the move."""
    lead = _leader(members, leader)
    out = overlap_problems(members)
    for m in members:
        if m.id == leader or m.engaged:
            continue
        if gap(m, lead) > LEADER_REACH_CM + CONTACT_TOLERANCE_CM:
            out.append(
                f"# Units > Unit formation: {m.id} is {gap(m, lead):.2f} cm from the leader "
                f"(10 cm at most)"
            )
        near = [gap(m, o) for o in members if o.id != m.id]
        if near and min(near) > NEIGHBOUR_CM + CONTACT_TOLERANCE_CM:
            out.append(
                f"# Units > Unit formation: {m.id} is {min(near):.2f} cm from the nearest "
                f"fighter of its unit (2.5 cm at most)"
            )
    return out


def ranks(members: Sequence[Member], facing: float) -> list[list[Member]]:
    """The members grouped in ranks across ``facing`` (degrees): sorted by depth along the
    facing, front first, a new rank where the depth jumps by more than half the smaller
    radius (ruling)."""
    fx, fy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    order = sorted(members, key=lambda m: -(m.x * fx + m.y * fy))
    out: list[list[Member]] = []
    last = math.inf
    for m in order:
        depth = m.x * fx + m.y * fy
        if out and last - depth <= min(m.radius, out[-1][-1].radius) / 2.0:
            out[-1].append(m)
        else:
            out.append([m])
        last = depth
    return out


def _connected(members: Sequence[Member]) -> bool:
    if not members:
        return True
    seen = {members[0].id}
    todo = [members[0]]
    while todo:
        a = todo.pop()
        for b in members:
            if b.id not in seen and touching(a, b):
                seen.add(b.id)
                todo.append(b)
    return len(seen) == len(members)


def close_problems(members: Sequence[Member], leader: str, facing: float) -> list[str]:
    """``# Units > Unit formation`` (close): each fighter within 10 cm of the leader, the
    fighters in contact (ruling: their contacts join the whole unit), in ranks across
    ``facing`` as equal as possible (ruling: no two ranks differ by more than one fighter).
    Kept during the whole move."""
    lead = _leader(members, leader)
    out = overlap_problems(members)
    for m in members:
        if m.id != leader and gap(m, lead) > LEADER_REACH_CM + CONTACT_TOLERANCE_CM:
            out.append(
                f"# Units > Unit formation: {m.id} is {gap(m, lead):.2f} cm from the leader "
                f"(10 cm at most)"
            )
    if not _connected(members):
        out.append("# Units > Unit formation: close formation, the fighters are not in contact")
    sizes = [len(r) for r in ranks(members, facing)]
    if sizes and max(sizes) - min(sizes) > 1:
        out.append(
            f"# Units > Unit formation: close formation, ranks of {sizes} fighters are not "
            f"as equal as possible"
        )
    return out


def formation_problems(
    members: Sequence[Member], leader: str, formation: Formation, facing: float = 90.0
) -> list[str]:
    """:func:`scattered_problems` or :func:`close_problems` as ``formation`` says."""
    if formation is Formation.SCATTERED:
        return scattered_problems(members, leader)
    return close_problems(members, leader, facing)


def in_formation(
    members: Sequence[Member], leader: str, formation: Formation, facing: float = 90.0
) -> bool:
    """``not formation_problems(...)``: the same comparisons on the same distances, stopping
    at the first problem (scattered: no overlap, each fighter but the engaged within 10 cm of
    the leader and within 2.5 cm of another; ``# Units > Unit formation``)."""
    if formation is not Formation.SCATTERED:
        return not close_problems(members, leader, facing)
    lead = _leader(members, leader)
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            if overlapping(a, b):
                return False
    reach = LEADER_REACH_CM + CONTACT_TOLERANCE_CM
    near = NEIGHBOUR_CM + CONTACT_TOLERANCE_CM
    for m in members:
        if m.id == leader or m.engaged:
            continue
        if gap(m, lead) > reach:
            return False
        if _alone(m, members, near):
            return False
    return True


def _alone(m: Member, members: Sequence[Member], near: float) -> bool:
    """:func:`scattered_problems`' "near and min(near) > 2.5 cm": others in the unit, and
    none of them within ``near`` cm of ``m``."""
    others = False
    for o in members:
        if o.id != m.id:
            if gap(m, o) <= near:
                return False
            others = True
    return others


def rank_sizes(n: int, per_rank: int) -> list[int]:
    """``# Units > Unit formation``: ``n`` fighters in ranks of at most ``per_rank``, as
    equal as possible (front ranks take the extra fighter)."""
    if n <= 0:
        return []
    per_rank = max(1, min(per_rank, n))
    k = math.ceil(n / per_rank)
    small, extra = divmod(n, k)
    return [small + 1 if i < extra else small for i in range(k)]


def _row(rank: Sequence[Member], spacing: float) -> list[float]:
    """Lateral offsets of a rank's centres, touching neighbours plus ``spacing``, centred."""
    xs = [0.0]
    for a, b in itertools.pairwise(rank):
        xs.append(xs[-1] + a.radius + b.radius + spacing)
    mid = (xs[0] + xs[-1]) / 2.0
    return [x - mid for x in xs]


def _offsets(rows: list[list[Member]], spacing: float) -> list[tuple[float, float]]:
    """(lateral, depth) of every member, ranks one behind the other, the first rank's middle
    fighter (the leader) at (0, 0); each rank as close behind the one before as the bases
    allow plus ``spacing`` (so at least one pair of bases touches in close formation)."""
    out: list[tuple[float, float]] = []
    prev: list[tuple[float, float, float]] = []  # lateral, depth, radius
    front = rows[0]
    lead_shift = _row(front, spacing)[len(front) // 2]
    for row in rows:
        lat = [x - lead_shift for x in _row(row, spacing)]
        depth = 0.0
        if prev:
            # behind the rank before: as far forward as no pair of bases overlaps
            depth = min(pd for _, pd, _ in prev)
            for px, pd, pr in prev:
                for m, x in zip(row, lat, strict=True):
                    reach = pr + m.radius + spacing
                    dx = abs(px - x)
                    if dx < reach:
                        depth = min(depth, pd - math.sqrt(reach * reach - dx * dx))
        cur = [(x, depth, m.radius) for m, x in zip(row, lat, strict=True)]
        out.extend((x, d) for x, d, _ in cur)
        prev = cur
    return out


def default_per_rank(n: int) -> int:
    """Ruling: the default rank width, ⌈√n⌉ (a square-ish block)."""
    return max(1, math.ceil(math.sqrt(n)))


def _placed(
    members: Sequence[Member],
    leader: str,
    at: tuple[float, float],
    facing: float,
    formation: Formation,
    per_rank: int,
) -> list[Member]:
    lead = _leader(members, leader)
    others = [m for m in members if m.id != leader]
    sizes = rank_sizes(len(members), per_rank)
    spacing = 0.0 if formation is Formation.CLOSE else SCATTERED_GAP_CM
    rows: list[list[Member]] = []
    queue = list(others)
    for k, size in enumerate(sizes):
        if k == 0:
            mid = size // 2
            row = [*queue[:mid], lead, *queue[mid : size - 1]]
            queue = queue[size - 1 :]
        else:
            row, queue = queue[:size], queue[size:]
        rows.append(row)
    offsets = _offsets(rows, spacing)
    fx, fy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    lx, ly = -fy, fx  # left of the facing
    flat = [m for row in rows for m in row]
    out = []
    for m, (lat, depth) in zip(flat, offsets, strict=True):
        out.append(m.at(at[0] + fx * depth - lx * lat, at[1] + fy * depth - ly * lat))
    order = {m.id: k for k, m in enumerate(members)}
    return sorted(out, key=lambda m: order[m.id])


def fits(
    members: Iterable[Member],
    obstacles: Sequence[BaseGeometry] = (),
    table: BaseGeometry | None = None,
) -> bool:
    """Is every base on ``table`` and clear of every shape of ``obstacles``?

    A base's disc (its circle less the contact tolerance, as a 32-sided polygon) lies within
    the circle's box: a box inside the table's (when the table is a box) is on the table,
    and a shape whose box does not meet it cannot meet the disc. Only the discs left in
    doubt are made (together) and asked."""
    placed = list(members)
    if not placed:
        return True
    xy = np.array([(m.x, m.y) for m in placed], dtype=float)
    radii = np.array([m.radius - CONTACT_TOLERANCE_CM for m in placed], dtype=float)
    lo = xy - radii[:, None] - _BOX_SLACK
    hi = xy + radii[:, None] + _BOX_SLACK
    doubt = np.zeros(len(placed), dtype=bool)
    if table is not None:
        frame = _table_box(table)
        if frame is None:
            doubt[:] = True
        else:
            x0, y0, x1, y1 = frame
            doubt |= ~((lo[:, 0] >= x0) & (lo[:, 1] >= y0) & (hi[:, 0] <= x1) & (hi[:, 1] <= y1))
    i = j = np.zeros(0, dtype=int)
    shapes = np.asarray(obstacles, dtype=object) if len(obstacles) else None
    if shapes is not None:
        b = shapely.bounds(shapes)
        i, j = np.nonzero(
            (lo[:, None, 0] <= b[None, :, 2])
            & (hi[:, None, 0] >= b[None, :, 0])
            & (lo[:, None, 1] <= b[None, :, 3])
            & (hi[:, None, 1] >= b[None, :, 1])
        )
    if not doubt.any() and not len(i):
        return True
    discs = np.empty(len(placed), dtype=object)
    made = doubt.copy()
    made[i] = True
    discs[made] = shapely.buffer(shapely.points(xy[made]), radii[made], quad_segs=8)
    if doubt.any() and not shapely.covers(table, discs[doubt]).all():
        return False
    return not (len(i) and shapes is not None and shapely.intersects(discs[i], shapes[j]).any())


#: margin (cm) round a disc's circle box: the polygon's vertices are within the circle's
#: box up to rounding; the screens only skip what is farther than this
_BOX_SLACK = 1e-7

_TABLE_BOXES: dict[int, tuple[BaseGeometry, tuple[float, float, float, float] | None]] = {}


def _table_box(table: BaseGeometry) -> tuple[float, float, float, float] | None:
    """The table's bounds when it is that box (a shape inside the box is on the table), else
    None; kept per table object."""
    hit = _TABLE_BOXES.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    x0, y0, x1, y1 = table.bounds
    frame = (x0, y0, x1, y1) if table.equals(shapely.box(x0, y0, x1, y1)) else None
    if len(_TABLE_BOXES) > 64:
        _TABLE_BOXES.clear()
    _TABLE_BOXES[id(table)] = (table, frame)  # the entry keeps the table alive: its id stays
    return frame


def lay_out(
    members: Sequence[Member],
    leader: str,
    at: tuple[float, float],
    facing: float,
    formation: Formation,
    *,
    per_rank: int | None = None,
    obstacles: Sequence[BaseGeometry] = (),
    table: BaseGeometry | None = None,
) -> tuple[Member, ...] | None:
    """The members laid out in ``formation`` with the leader's centre at ``at``, the ranks
    across ``facing`` (degrees, the leader in the middle of the front rank), others in the
    given order, front rank first; ``close``: bases in contact; ``scattered``: 1 cm gaps
    (ruling). ``per_rank`` (default :func:`default_per_rank`) is tried first, then every
    other width, nearest first; the first lay-out that is in formation, on ``table`` and
    clear of ``obstacles`` (shapely shapes: scenery, other units' bases) is returned, in the
    members' order; None if none is. Engaged members are laid out like the others."""
    n = len(members)
    if n == 0:
        return ()
    if not fits([_leader(members, leader).at(at[0], at[1])], obstacles, table):
        return None  # every lay-out puts the leader's centre at ``at`` exactly
    want = per_rank if per_rank is not None else default_per_rank(n)
    widths = sorted(range(1, n + 1), key=lambda w: (abs(w - want), -w))
    for w in widths:
        placed = _placed(members, leader, at, facing, formation, w)
        free = [m.freed() for m in placed]
        if not in_formation(free, leader, formation, facing):
            continue
        if fits(placed, obstacles, table):
            return tuple(placed)
    return None


def change_formation(
    members: Sequence[Member],
    leader: str,
    to: Formation,
    facing: float,
    *,
    per_rank: int | None = None,
    obstacles: Sequence[BaseGeometry] = (),
    table: BaseGeometry | None = None,
) -> tuple[Member, ...] | None:
    """``# Moving Miniatures``: the unit in formation ``to`` round its leader's current
    place (at the beginning of its activation, or after any move of a free unit)."""
    lead = _leader(members, leader)
    return lay_out(
        members,
        leader,
        lead.centre,
        facing,
        to,
        per_rank=per_rank,
        obstacles=obstacles,
        table=table,
    )


def leader_problems(members: Sequence[Member], leader: str) -> list[str]:
    """``# Units``: the leader is a member, a standard fighter unless an Incarnate is in
    the unit, and Incarnates are always the leaders of their unit (ruling: with several
    Incarnates, any one of them)."""
    ids = {m.id for m in members}
    if leader not in ids:
        return [f"# Units: leader {leader!r} is not a member of the unit"]
    lead = _leader(members, leader)
    incarnates = [m for m in members if m.incarnate]
    if incarnates and not lead.incarnate:
        return [f"# Units: Incarnates are always the leaders of their unit, not {leader}"]
    if not incarnates and not lead.standard and any(m.standard for m in members):
        return [f"# Units: the leader {leader} must be a standard fighter"]
    return []


def leader_candidates(remaining: Sequence[Member], fallen: Member) -> tuple[str, ...]:
    """``# Units``: who may replace the eliminated leader ``fallen``: an Incarnate if one
    remains; else the standard fighters closest to the former leader; else the closest
    special fighters. Several when equally close (the player designates; ruling)."""
    pool = [m for m in remaining if m.id != fallen.id]
    incarnates = [m for m in pool if m.incarnate]
    if incarnates:
        pool = incarnates
    elif any(m.standard for m in pool):
        pool = [m for m in pool if m.standard]
    if not pool:
        return ()
    best = min(gap(m, fallen) for m in pool)
    return tuple(sorted(m.id for m in pool if gap(m, fallen) <= best + 1e-9))


def new_leader(remaining: Sequence[Member], fallen: Member) -> str | None:
    """The first of :func:`leader_candidates` (by id), None if the unit is gone."""
    found = leader_candidates(remaining, fallen)
    return found[0] if found else None
