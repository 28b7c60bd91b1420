"""Moving a unit (``# Activation Phase > Moving a Unit``, ``# Moving Miniatures``) and the
assault (``# Moving a Unit > Assault``): pure functions over positions.

What to call:

- :func:`unit_mov`: the unit's Movement, its slowest member's; :func:`max_distance`: walk
  MOV, run 2×MOV, assault 2×MOV (:class:`MoveKind`).
- :func:`move_unit`: a walk, run or failed assault: the leader's path round obstacles
  (:mod:`confrontation.geometry` paths), cut to the allowed distance, the unit laid out in
  its formation round the leader's end point (:func:`~.formation.lay_out`), backing along
  the path until it fits; friendly scattered infantry/cavalry passed through but not ended
  inside (the 1 cm stop). Returns a :class:`UnitMove` (None: no way at all).
- :func:`assault_distance` then :func:`assault`: the distance round obstacles to the
  designated unit; failed → :func:`move_unit` as close as possible in formation; success →
  scattered, each free fighter placed in contact with an assaulted fighter in the player's
  order (several at once if the player wants and the bases allow), the others as close as
  possible in formation. Returns an :class:`AssaultResult`.

The caller describes the table with :class:`Surroundings` (table, scenery, the other units
as :class:`OtherUnit`). Rulings: docs/rulings.md, "002 — the unit-based ruleset (C4)".

Sections (docs/rules-index.toml): C4-MOVING-MINIATURES, C4-MOVING-A-UNIT, C4-OBSTACLES,
C4-ASSAULT.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from shapely.geometry import MultiPoint, Point
from shapely.geometry.base import BaseGeometry

from confrontation.c4.formation import (
    NEIGHBOUR_CM,
    Formation,
    Member,
    fits,
    formation_problems,
    gap,
    in_formation,
    lay_out,
    member_base,
    touching,
)
from confrontation.geometry import CONTACT_TOLERANCE_CM, Base, Path, Scenery, Table, shortest_path

#: ``# Moving a Unit > Obstacles``: a unit that cannot get through stops 1 cm in front
STOP_CM = 1.0
#: ruling: the step (cm) by which a unit backs along its path until its lay-out fits
BACK_STEP_CM = 0.25
#: ``# Moving Miniatures``: the categories that pass through each other when scattered
PASSING_CATEGORIES = frozenset({"infantry", "cavalry"})


class MoveKind(enum.StrEnum):
    """``# Moving a Unit``: the three movements."""

    WALK = "walk"
    RUN = "run"
    ASSAULT = "assault"


def unit_mov(movs: Iterable[float]) -> float:
    """``# Moving a Unit``: a unit's Movement is that of its slowest member."""
    values = list(movs)
    if not values:
        raise ValueError("a unit with no fighter has no Movement")
    return min(values)


def max_distance(kind: MoveKind, mov: float) -> float:
    """``# Moving a Unit``: walk MOV, run 2×MOV, assault 2×MOV (cm)."""
    return mov if kind is MoveKind.WALK else 2.0 * mov


@dataclass(frozen=True)
class OtherUnit:
    """Another unit on the table (friend or foe), for obstacles and passing through."""

    id: str
    owner: str
    category: str
    formation: Formation
    members: tuple[Member, ...]


@dataclass(frozen=True)
class Surroundings:
    """What a move must go round: the table, the scenery, the other units."""

    table: Table | None = None
    scenery: tuple[Scenery, ...] = ()
    units: tuple[OtherUnit, ...] = ()

    @property
    def area(self) -> BaseGeometry | None:
        return self.table.area if self.table is not None else None

    def walls(self) -> list[BaseGeometry]:
        """``# Moving a Unit > Obstacles``: impassable terrain elements (ruling: scenery
        marked passable is no obstacle to a C4 unit)."""
        return [s.footprint for s in self.scenery if not s.passable]


def passes_through(owner: str, category: str, formation: Formation, other: OtherUnit) -> bool:
    """``# Moving Miniatures``: infantry and cavalry units on the same side and in
    scattered formation do not hinder each other's movement (ruling: both units scattered,
    both infantry or cavalry)."""
    return (
        other.owner == owner
        and category in PASSING_CATEGORIES
        and other.category in PASSING_CATEGORIES
        and formation is Formation.SCATTERED
        and other.formation is Formation.SCATTERED
    )


def _bases(members: Iterable[Member]) -> list[BaseGeometry]:
    return [member_base(m).polygon for m in members]


def _hull(members: Sequence[Member]) -> BaseGeometry:
    """A unit's formation as a shape: the convex hull of its bases."""
    pts = MultiPoint([m.centre for m in members])
    r = max(m.radius for m in members)
    return pts.convex_hull.buffer(r, quad_segs=8)


@dataclass(frozen=True)
class UnitMove:
    """Where a moved unit ends: its members, the leader's path actually followed, the
    facing it was laid out with, and ``stopped``: it backed along its path from where its
    movement ran out (it could not be laid out there)."""

    members: tuple[Member, ...]
    path: Path
    facing: float
    stopped: bool

    @property
    def distance(self) -> float:
        return self.path.length


def _path(
    start: tuple[float, float],
    goal: tuple[float, float] | Base,
    obstacles: Sequence[BaseGeometry],
    width: float,
    area: BaseGeometry | None,
    reach: float = math.inf,
) -> Path | None:
    if isinstance(goal, tuple) and math.dist(start, goal) < 1e-9:
        return Path((start,))
    return shortest_path(start, goal, obstacles, width, table=area, reach=reach)


def move_unit(
    members: Sequence[Member],
    leader: str,
    goal: tuple[float, float] | Base,
    kind: MoveKind,
    mov: float,
    formation: Formation,
    *,
    owner: str,
    category: str,
    surroundings: Surroundings = Surroundings(),
    facing: float | None = None,
    per_rank: int | None = None,
    enemy_contact: bool = False,
) -> UnitMove | None:
    """``# Moving a Unit``: move the unit toward ``goal`` (a point for the leader's centre,
    or a base whose edge the leader's centre is to reach) by at most
    :func:`max_distance`. The leader takes the most direct route round the obstacles
    (impassable scenery; other units but friendly scattered infantry/cavalry, see
    :func:`passes_through`) for a base as wide as the unit's widest (ruling: ranks may
    change during the move, so a close unit may file through a gap). At the end the unit is
    laid out in ``formation`` round the leader (facing ``facing``, else the path's last
    heading; without ``facing`` the unit first keeps its shape, moved with its leader; no
    fighter moves farther than the leader's path, ruling); if it does not fit there — on
    a base, an element, off the table, in contact with an enemy (unless
    ``enemy_contact``), or within 1 cm of a friendly unit it was passing through
    (``# Moving a Unit > Obstacles``: it stops 1 cm in front) — it backs along the path by
    :data:`BACK_STEP_CM` until it does. None if there is no path or no
    place at all (not even where it stands)."""
    lead = next(m for m in members if m.id == leader)
    own = {m.id for m in members}
    walls = surroundings.walls()
    passed = [u for u in surroundings.units if passes_through(owner, category, formation, u)]
    blocking = [u for u in surroundings.units if u not in passed]
    path_obstacles = walls + _bases(m for u in blocking for m in u.members if m.id not in own)
    width = 2.0 * max(m.radius for m in members)
    path = _path(lead.centre, goal, path_obstacles, width, surroundings.area)
    if path is None:
        return None
    limit = min(path.length, max_distance(kind, mov))
    enemies = [m for u in surroundings.units if u.owner != owner for m in u.members]
    end_obstacles = walls + _bases(m for u in surroundings.units for m in u.members)
    if not enemy_contact:
        end_obstacles += [member_base(m).polygon.buffer(2 * CONTACT_TOLERANCE_CM) for m in enemies]
    end_obstacles += [_hull(u.members).buffer(STOP_CM) for u in passed if u.members]
    d = limit
    while True:
        part = path.truncated(d)
        at = part.end
        face = facing if facing is not None else (path.heading_at(d) if d > 1e-9 else 90.0)
        placed = _place(
            members, leader, at, face, formation, per_rank, d, keep=facing is None,
            obstacles=end_obstacles, area=surroundings.area,
        )  # fmt: skip
        if placed is not None:
            return UnitMove(placed[0], part, placed[1], d < limit - 1e-9)
        if d <= 0.0:
            return None
        d = max(d - BACK_STEP_CM, 0.0)


def _place(
    members: Sequence[Member],
    leader: str,
    at: tuple[float, float],
    facing: float,
    formation: Formation,
    per_rank: int | None,
    moved: float,
    *,
    keep: bool,
    obstacles: Sequence[BaseGeometry],
    area: BaseGeometry | None,
) -> tuple[tuple[Member, ...], float] | None:
    """The unit round the leader's new place ``at``: first (``keep``) as it stood, moved
    with its leader, then laid out afresh facing ``facing``; a lay-out in which a fighter
    would move farther than the leader's ``moved`` cm is refused (ruling). The members and
    the facing they keep."""
    lead = next(m for m in members if m.id == leader)
    dx, dy = at[0] - lead.x, at[1] - lead.y
    if keep:
        shifted = tuple(m.at(m.x + dx, m.y + dy) for m in members)
        free = [m.freed() for m in shifted]
        # the first facing that keeps the formation (scattered: the facing changes nothing)
        facings = [facing, *(k * 15.0 for k in range(24))]
        if formation is Formation.SCATTERED:
            facings = facings[:1]
        good = next((f for f in facings if in_formation(free, leader, formation, f)), None)
        if good is not None and fits(shifted, obstacles, area):
            return shifted, good
    placed = lay_out(
        members, leader, at, facing, formation, per_rank=per_rank, obstacles=obstacles, table=area
    )
    if placed is None:
        return None
    far = max(math.dist(a.centre, b.centre) for a, b in zip(members, placed, strict=True))
    if far > moved + 1e-6 and far > math.hypot(dx, dy) + 1e-6:
        return None
    return placed, facing


def _goal_for(mover: Member, target: Member) -> Base:
    """The round shape whose edge the mover's centre reaches when its base touches the
    target's: the target's base grown by the mover's radius."""
    d = (target.radius + mover.radius) * 20.0
    return Base(target.x, target.y, 90.0, "round", d, d, target.size)


def assault_distance(
    members: Sequence[Member],
    leader: str,
    target: OtherUnit,
    *,
    owner: str,
    category: str,
    formation: Formation,
    surroundings: Surroundings = Surroundings(),
) -> float | None:
    """``# Moving a Unit > Assault``: the distance, skirting round obstacles, from the
    assaulting unit to the designated one (ruling: measured from the leader, the unit's
    reference point, to contact with the nearest fighter of the target); None if no way."""
    lead = next(m for m in members if m.id == leader)
    own = {m.id for m in members}
    others = [
        u
        for u in surroundings.units
        if u.id != target.id and not passes_through(owner, category, formation, u)
    ]
    obstacles = surroundings.walls() + _bases(
        m for u in others for m in u.members if m.id not in own
    )
    width = 2.0 * lead.radius
    best: float | None = None
    for t in sorted(target.members, key=lambda t: gap(lead, t)):
        if best is not None and gap(lead, t) > best:
            break
        p = _path(lead.centre, _goal_for(lead, t), obstacles, width, surroundings.area)
        if p is not None and (best is None or p.length < best):
            best = p.length
    return best


@dataclass(frozen=True)
class AssaultResult:
    """The outcome of an assault: ``success`` (both units engaged), the assaulting unit's
    members afterwards (``engaged`` set for those in contact with an enemy), the assaulted
    fighters each one touches, the distance measured and the formation now held."""

    success: bool
    members: tuple[Member, ...]
    formation: Formation
    distance: float | None
    contacts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    problems: tuple[str, ...] = ()


def _contact_spots(mover: Member, targets: Sequence[Member], several: bool) -> list[Point]:
    """Places for the mover's centre touching a target fighter: 72 round each target, and
    (``several``) the places touching two at once."""
    spots = []
    for t in targets:
        rr = t.radius + mover.radius
        for k in range(72):
            ang = math.radians(5 * k)
            spots.append(Point(t.x + rr * math.cos(ang), t.y + rr * math.sin(ang)))
    if several:
        for i, a in enumerate(targets):
            for b in targets[i + 1 :]:
                spots.extend(_two_touching(mover.radius, a, b))
    return spots


def _two_touching(r: float, a: Member, b: Member) -> list[Point]:
    """Centres of a base of radius ``r`` touching both ``a`` and ``b``."""
    ra, rb = a.radius + r, b.radius + r
    d = math.hypot(b.x - a.x, b.y - a.y)
    if d < 1e-9 or d > ra + rb or d < abs(ra - rb):
        return []
    along = (ra * ra - rb * rb + d * d) / (2 * d)
    h = math.sqrt(max(ra * ra - along * along, 0.0))
    ux, uy = (b.x - a.x) / d, (b.y - a.y) / d
    mx, my = a.x + ux * along, a.y + uy * along
    return [Point(mx - uy * h, my + ux * h), Point(mx + uy * h, my - ux * h)]


def assault(
    members: Sequence[Member],
    leader: str,
    mov: float,
    target: OtherUnit,
    *,
    owner: str,
    category: str,
    formation: Formation,
    surroundings: Surroundings = Surroundings(),
    order: Sequence[str] | None = None,
    several: Collection[str] = (),
    per_rank: int | None = None,
) -> AssaultResult:
    """``# Moving a Unit > Assault``. The distance (:func:`assault_distance`) is compared
    with twice the unit's Movement ``mov``:

    - greater (or no way): the assault fails, the unit moves as close as possible and
      remains in ``formation`` (:func:`move_unit` toward the nearest target fighter, not
      ending in contact);
    - else the unit goes scattered and the assault succeeds: the free fighters (an engaged
      unit's engaged fighters stay put) are moved in ``order`` (the player's; default:
      nearest to the target first), each that can reach (2×MOV along its own path round
      obstacles) placed in contact with an assaulted fighter — the nearest place, or for
      the ids in ``several`` a place touching as many as the bases allow; then those out of
      reach, in the same order, as close as possible to the target while within 2.5 cm of
      a fighter of the unit and 10 cm of the leader (ruling), else where they stand.
    """
    reach = max_distance(MoveKind.ASSAULT, mov)
    dist = assault_distance(
        members,
        leader,
        target,
        owner=owner,
        category=category,
        formation=formation,
        surroundings=surroundings,
    )
    if dist is None or dist > reach + 1e-9:
        lead = next(m for m in members if m.id == leader)
        nearest = min(target.members, key=lambda t: gap(lead, t))
        moved = move_unit(
            members,
            leader,
            _goal_for(lead, nearest),
            MoveKind.ASSAULT,
            mov,
            formation,
            owner=owner,
            category=category,
            surroundings=surroundings,
            per_rank=per_rank,
        )
        placed = moved.members if moved is not None else tuple(members)
        return AssaultResult(False, placed, formation, dist)
    done = _engage(members, leader, reach, target, owner, category, surroundings, order, several)
    return replace(done, distance=dist)


def _engage(
    members: Sequence[Member],
    leader: str,
    reach: float,
    target: OtherUnit,
    owner: str,
    category: str,
    surroundings: Surroundings,
    order: Sequence[str] | None,
    several: Collection[str],
) -> AssaultResult:
    """The successful assault's placement (see :func:`assault`)."""
    area = surroundings.area
    walls = surroundings.walls()
    enemies = target.members
    others = [u for u in surroundings.units if u.id != target.id]
    # ruling: the unit's own fighters do not hinder one another's paths
    path_obstacles = walls + _bases(
        m
        for u in others
        if not passes_through(owner, category, Formation.SCATTERED, u)
        for m in u.members
    )
    fixed = walls + _bases(m for u in others for m in u.members)
    by_id = {m.id: m for m in members}
    if order is None:
        order = sorted(by_id, key=lambda i: (min(gap(by_id[i], t) for t in enemies), i))
    order = [i for i in order if i in by_id] + [i for i in by_id if i not in order]
    now = dict(by_id)
    contacts: dict[str, tuple[str, ...]] = {}
    later: list[str] = []

    def clear(spot: Point, mover: Member) -> bool:
        m = mover.at(spot.x, spot.y)
        if any(gap(m, e) < -CONTACT_TOLERANCE_CM for e in enemies):
            return False
        if any(gap(m, o) < -CONTACT_TOLERANCE_CM for k, o in now.items() if k != mover.id):
            return False
        return fits([m], fixed, area)

    for fid in order:
        m = now[fid]
        if m.engaged:
            contacts[fid] = tuple(e.id for e in enemies if touching(m, e))
            continue
        spots = [s for s in _contact_spots(m, enemies, fid in several) if clear(s, m)]

        def touched(s: Point, m: Member = m) -> int:
            here = m.at(s.x, s.y)
            return sum(touching(here, e) for e in enemies)

        spots.sort(
            key=lambda s: (-touched(s) if fid in several else 0, s.distance(Point(m.centre)))
        )
        for s in spots:
            if s.distance(Point(m.centre)) > reach + 1e-9:
                continue
            obstacles = path_obstacles + _bases(e for e in enemies)
            p = _path(m.centre, (s.x, s.y), obstacles, 2 * m.radius, area, reach)
            if p is not None and p.length <= reach + 1e-9:
                here = m.at(s.x, s.y)
                now[fid] = here
                contacts[fid] = tuple(e.id for e in enemies if touching(here, e))
                break
        else:
            later.append(fid)
    for fid in later:
        m = now[fid]
        lead = now[leader]
        best: tuple[float, Member] | None = None
        for o in now.values():
            if o.id == fid:
                continue
            rr = o.radius + m.radius + NEIGHBOUR_CM / 2.0
            for k in range(36):
                a = math.radians(10 * k)
                s = Point(o.x + rr * math.cos(a), o.y + rr * math.sin(a))
                here = m.at(s.x, s.y)
                if fid != leader and gap(here, lead) > 10.0:
                    continue
                if not clear(s, m) or any(touching(here, e) for e in enemies):
                    continue
                near = min(gap(here, e) for e in enemies)
                if best is not None and near >= best[0]:
                    continue
                if s.distance(Point(m.centre)) > reach + 1e-9:
                    continue
                obstacles = path_obstacles + _bases(enemies)
                p = _path(m.centre, (s.x, s.y), obstacles, 2 * m.radius, area, reach)
                if p is not None and p.length <= reach + 1e-9:
                    best = (near, here)
        if best is not None and min(gap(best[1], e) for e in enemies) < min(
            gap(m, e) for e in enemies
        ):
            now[fid] = best[1]
    out = tuple(
        replace(now[m.id], engaged=any(touching(now[m.id], e) for e in enemies)) for m in members
    )
    problems = tuple(formation_problems(out, leader, Formation.SCATTERED))
    engaged = {k: v for k, v in contacts.items() if v}
    return AssaultResult(True, out, Formation.SCATTERED, None, engaged, problems)
