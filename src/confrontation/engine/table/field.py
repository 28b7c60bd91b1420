"""The battlefield of a game state: geometry built from plain data, cached, and the finite
candidate places the engine offers (ARCHITECTURE: "a finite list of sensible candidates").

:func:`field_of` builds a :class:`~confrontation.geometry.Battlefield` from the state's
table, scenery and the fighters in play, and caches it (with its sight, path and contact
answers) for as long as nobody moves: every state with the same positions shares it.
Nothing here changes a state; the rules live in the movement, shooting and deployment modules.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from confrontation.engine.core.hooks import has_spot_checks, move_goals, spot_refusal
from confrontation.engine.core.state import (
    FIELD_KEPT,
    Battleground,
    Fighter,
    GameState,
    SceneryPiece,
)
from confrontation.engine.table.kept_sight import changed_bases, stands
from confrontation.engine.table.layouts import ground_layout, layout_table
from confrontation.geometry.bases import Base, size_rank
from confrontation.geometry.contact import (
    ContactPlacement,
    ContactSearch,
    in_contact,
    outer_radius,
)
from confrontation.geometry.field import Battlefield
from confrontation.geometry.measure import distance, point_distance
from confrontation.geometry.paths import Path
from confrontation.geometry.scenery import Scenery, crossable
from confrontation.geometry.sight import Sight
from confrontation.geometry.table import Table, Zone
from confrontation.rules.characteristics import Characteristic, HealthState, current_value
from confrontation.rules.charge import charge_modifiers
from confrontation.rules.movement import (
    can_cross_landform,
    default_movement_table,
    movement_potential,
    passable_friends,
)

CLEARANCE_CM = 0.5
"""How far short of an enemy base a walk or run that heads for him stops (V-B-1: a walk
never ends in contact)."""

APART_CM = 0.05
"""Two bases closer than this are treated as touching (a walk may not end so close to an
enemy; fighters placed by the engine never overlap by more than it)."""

GRID_CM = 6.0
"""Spacing of the deployment grid (III-B-2)."""

SCREEN_CM = 1e-7
"""What an exact numpy bound leaves to spare before it settles a test without GEOS
(:meth:`Field.surely_free`): far more than the rounding of its sums."""

_CACHE_SIZE = 256


# --- from state to geometry ---------------------------------------------------------------


@lru_cache(maxsize=1024)
def scenery_of(piece: SceneryPiece) -> Scenery:
    """A scenery element of the geometry package from its plain-data record (one shared
    object per record: the geometry caches its shapes by object)."""
    return Scenery(piece.name, Polygon(piece.outline), piece.height, piece.passable)


def piece_of(element: Scenery, scenario: bool = False) -> SceneryPiece:
    """The plain-data record of a scenery element (outline rounded to 0.01 mm)."""
    coords = tuple(
        (round(float(x), 4), round(float(y), 4)) for x, y in element.footprint.exterior.coords[:-1]
    )
    return SceneryPiece(element.name, coords, element.height, element.passable, scenario)


def table_of(ground: Battleground) -> Table:
    """The table with its deployment areas: the two of the line of battle (III-A-1), or with
    three players or more the layout's (XX-F-1), zones ``deployment-1``… then ``centre``."""
    if ground.areas and ground.centre is not None:
        return layout_table(ground.width, ground.height, ground.areas, ground.centre)
    return _table(ground.width, ground.height, ground.split)


@lru_cache(maxsize=64)
def _table(width: float, height: float, split: str) -> Table:
    table = Table(width, height)
    if split == "width":
        return table.with_zones(*table.line_of_battle("width"))
    return table.with_zones(*table.line_of_battle("length"))


@lru_cache(maxsize=256)
def _cover(area: BaseGeometry) -> BaseGeometry:
    """``area`` grown by 1e-6 cm (prepared): what a base must lie within to be on it."""
    grown = area.buffer(1e-6)
    shapely.prepare(grown)
    return grown


def on_area(area: BaseGeometry, shape: BaseGeometry) -> bool:
    """``area.buffer(1e-6).covers(shape)``: the grown area built and prepared once."""
    return bool(_cover(area).covers(shape))


def deployment_zone(state: GameState, player: int) -> Zone:
    """The deployment area of ``player`` (III-A-1)."""
    ground = _ground(state)
    if ground.zones is None:
        raise ValueError("the deployment areas are not chosen yet")
    return table_of(ground).zones[ground.zones[player]]


def base_of(state: GameState, fighter: Fighter) -> Base:
    """The fighter's base where he stands (I-B)."""
    profile = state.profile(fighter.profile)
    x, y, facing = fighter.x, fighter.y, fighter.facing
    # 0.0 and -0.0 are equal keys: their signs are part of the key (a sign may change an
    # angle computed from the base)
    signs = (math.copysign(1.0, x), math.copysign(1.0, y), math.copysign(1.0, facing))
    return _base(profile.size, profile.base, x, y, facing, fighter.altitude, signs)


@lru_cache(maxsize=65536, typed=True)
def _base(
    size: str,
    shape: str,
    x: float,
    y: float,
    facing: float,
    level: int,
    signs: tuple[float, float, float],
) -> Base:
    """:func:`base_of` of a profile of ``size`` and ``shape`` (kept per value: a fighter who
    stands still gets the same base in every new field)."""
    size = size if size in ("small", "normal", "large", "very-large") else "normal"
    if shape == "round":
        return Base.of(size, "round", x, y, facing, level=level)
    return Base.of(size, "square", x, y, facing, level=level)


def _ground(state: GameState) -> Battleground:
    if state.battleground is None:
        raise ValueError("this game has no table")
    return state.battleground


_PROFILE_FIELDS: dict[Characteristic, str] = {
    Characteristic.INI: "ini",
    Characteristic.ATT: "att",
    Characteristic.STR: "strength",
    Characteristic.DEF: "defense",
    Characteristic.RES: "res",
    Characteristic.AIM: "aim",  # no shooting weapon: 0
    Characteristic.AIM_STR: "aim_str",
    Characteristic.DIS: "discipline",
    Characteristic.MOV: "mov",  # whole centimetres
}
"""The profile field of each characteristic :func:`current` reads."""


def current(state: GameState, fighter: Fighter, characteristic: Characteristic) -> int:
    """The fighter's current value (II-A-4): wound penalties (II-B-4) and the charge
    penalty (V-B-3) included."""
    profile = state.profile(fighter.profile)
    reference = int(getattr(profile, _PROFILE_FIELDS[characteristic]) or 0)
    health = HealthState(min(fighter.wounds, 4), fighter.stunned)
    return current_value(
        characteristic, reference, charge_modifiers(characteristic, fighter.charged), health
    )


def movement(state: GameState, fighter: Fighter) -> float:
    """Current MOV in cm (II-A-4: never below 0)."""
    return max(state.profile(fighter.profile).mov, 0.0)


def potential_of(state: GameState, fighter: Fighter, action: str, disengaged: bool) -> float:
    """V-D: MOV x 1 or x 2 (x 1 after a disengagement) for ``action`` of the movement table;
    an action the table does not allow after a disengagement keeps its usual potential."""
    row = default_movement_table()[action]
    after = disengaged and row.potential_disengaged is not None
    return movement_potential(row, movement(state, fighter), disengaged=after)


# --- the cached field -----------------------------------------------------------------------


@dataclass
class Field:
    """The geometry of one arrangement of fighters, with memoised answers."""

    ground: Battleground
    table: Table
    scenery: tuple[Scenery, ...]
    battlefield: Battlefield
    owners: dict[str, int]
    _sight: dict[tuple[str, str], Sight] = field(default_factory=dict)
    _sees: dict[tuple[str, str], bool] = field(default_factory=dict)
    #: the previous field's bases and sight answers (:meth:`inherit_sight`)
    _heir: (
        tuple[Mapping[str, Base], dict[tuple[str, str], Sight], dict[tuple[str, str], bool]] | None
    ) = None
    _moved: tuple[set[str], list[Base]] | None = None
    _paths: dict[Any, Path | None] = field(default_factory=dict)
    _contacts: dict[str, list[str]] = field(default_factory=dict)
    _enemy_contacts: dict[str, list[str]] = field(default_factory=dict)
    _others: dict[str, BaseGeometry] = field(default_factory=dict)
    _bounds: list[tuple[str, tuple[float, float, float, float]]] | None = None
    _blocked: dict[tuple[str, bool], list[BaseGeometry]] = field(default_factory=dict)
    _blocked_bounds: dict[
        tuple[str, bool], list[tuple[BaseGeometry, tuple[float, float, float, float]]]
    ] = field(default_factory=dict)
    _same: dict[str, list[BaseGeometry]] = field(default_factory=dict)
    _sides: dict[int, tuple[list[str], Any]] = field(default_factory=dict)
    _crossing: dict[Any, bool] = field(default_factory=dict)
    _beyond: dict[Any, float] = field(default_factory=dict)
    _placing: dict[tuple[str, str], ContactSearch] = field(default_factory=dict)
    #: the fighter records the bases were made of (a next field reuses the base of a record
    #: it finds there: :func:`field_of`)
    _records: dict[str, Fighter] = field(default_factory=dict)
    #: arrays of the bases and scenery a spot is screened against (:meth:`spot_screen`)
    _screens: dict[Any, Any] = field(default_factory=dict)

    def base(self, fighter_id: str) -> Base:
        return self.battlefield.fighters[fighter_id]

    def ids(self) -> Iterable[str]:
        return self.battlefield.fighters.keys()

    def sight(self, source: str, target: str) -> Sight:
        """II-D-3: what ``source`` sees of ``target``."""
        key = (source, target)
        known = self._sight.get(key)
        if known is None:
            kept = self._kept(0, key)
            known = kept if isinstance(kept, Sight) else self.battlefield.sight(source, target)
            self._sight[key] = known
        return known

    def sees(self, source: str, target: str) -> bool:
        """II-D-3: ``source`` sees at least part of ``target`` (``sight(...).any``, cheaper
        when the full answer was not asked)."""
        key = (source, target)
        known = self._sight.get(key)
        if known is not None:
            return known.any
        seen = self._sees.get(key)
        if seen is None:
            kept = self._kept(0, key)
            if kept is None:
                kept = self._kept(1, key)
            if isinstance(kept, Sight):
                seen = kept.any
            elif kept is not None:
                seen = kept
            else:
                seen = self.battlefield.sees(source, target)
            self._sees[key] = seen
        return seen

    def _kept(self, which: int, key: tuple[str, str]) -> Sight | bool | None:
        """The previous field's answer to ``key`` (``which``: 0 its full answers, 1 its
        "sees at least part"), if it stands here (:meth:`inherit_sight`); else None."""
        heir = self._heir
        if heir is None:
            return None
        found: Sight | bool | None = heir[1].get(key) if which == 0 else heir[2].get(key)
        if found is None:
            return None
        if self._moved is None:
            self._moved = changed_bases(heir[0], self.battlefield.fighters)
        changed, moved = self._moved
        if not stands(key[0], key[1], self.battlefield.fighters, changed, moved):
            return None
        return found

    def inherit_sight(self, old: Field) -> None:
        """Take over, when asked, the sight answers of ``old`` (a field of the same
        battleground) that the fighters who moved, turned, came or went between the two
        cannot change: those between two fighters who did not change, with no changed
        base, where it stood or where it stands, among the possible barriers between them
        (II-D-3, :mod:`~confrontation.engine.table.kept_sight`). Only ``old``'s answers
        are looked at (its bases and answer tables, not the field: no chain of fields is
        kept alive); an answer taken over becomes this field's, for the next one."""
        self._heir = (old.battlefield.fighters, old._sight, old._sees)

    def contacts(self, fighter_id: str) -> list[str]:
        """Fighters in base contact with ``fighter_id`` (II-E)."""
        if fighter_id not in self._contacts:
            self._contacts[fighter_id] = sorted(self.battlefield.contacts(fighter_id))
        return self._contacts[fighter_id]

    def enemies_in_contact(self, fighter_id: str) -> list[str]:
        found = self._enemy_contacts.get(fighter_id)
        if found is None:
            me = self.owners[fighter_id]
            found = [f for f in self.contacts(fighter_id) if self.owners[f] != me]
            self._enemy_contacts[fighter_id] = found
        return list(found)

    def path(
        self,
        mover: str,
        goal: tuple[float, float] | str,
        pass_through: tuple[str, ...] = (),
        at_most_mov: bool = False,
        reach: float = math.inf,
    ) -> Path | None:
        """V-A: the most direct way for ``mover``'s sight to a point or an enemy's base,
        landforms of his size passable or not as ``at_most_mov`` says (a move's path, which
        decides that by its own length, is :meth:`move_path`). ``reach``: the path is only
        wanted if at most that long: None may then also mean "longer" (the search stops
        at the reach; a path found is the same as without it)."""
        key = (mover, goal, pass_through, at_most_mov)
        if key in self._paths:
            return self._paths[key]
        if reach <= self._beyond.get(key, -1.0):
            return None  # an earlier search found nothing within at least this reach
        found = self.battlefield.path(
            mover, goal, pass_through=pass_through, move_at_most_mov=at_most_mov, reach=reach
        )
        if found is None and reach != math.inf:
            self._beyond[key] = reach
        else:
            self._paths[key] = found
        return found

    def inherit_paths(self, old: Field) -> None:
        """Keep the path answers of ``old`` (a field of the same table and scenery) that the
        fighters who moved, came or went between the two cannot change (V-A):

        - the mover, the goal base and every other base the same: all of them;
        - otherwise not the mover's nor the goal's, and only answers that every changed base
          at the mover's level leaves alone. A base where it stands now must keep more than
          half the mover's width (plus 1e-3 cm) from the path: the path stays clear, and no
          new obstacle makes a way shorter. A base where it stood before must be so far that
          a way through the room it leaves (start to there, there to the goal, both less
          the half width) is longer than the path -- or than the reach of a search that
          found nothing within its reach. "No path at all" is only kept when no base left.
        Bases are bounded by their centre and outer radius; a test in doubt drops the answer.
        """
        now, before = self.battlefield.fighters, old.battlefield.fighters
        changed = {
            i
            for i in now.keys() | before.keys()
            if (a := now.get(i)) is not (b := before.get(i)) and a != b  # same base: unchanged
        }
        self._inherit_contacts(old, changed)
        if not changed:
            self._paths.update(old._paths)
            self._beyond.update(old._beyond)
            return
        came = [now[i] for i in changed if i in now]
        left = [before[i] for i in changed if i in before]
        for key, found in old._paths.items():
            if self._still(key, changed, came, left, found, math.inf):
                self._paths[key] = found
        for key, reach in old._beyond.items():
            if self._still(key, changed, [], left, None, reach):
                self._beyond[key] = reach

    def _inherit_contacts(self, old: Field, changed: set[str]) -> None:
        """Keep the contacts (II-E) ``old`` knew of the fighters who did not move: a contact
        depends only on the two bases, so theirs are the old ones but with the ``changed``
        fighters, and with those of the changed fighters in play who touch them now (the
        same test as :meth:`Battlefield.contacts`: within 0.01 cm, then in contact)."""
        now = self.battlefield.fighters
        # each came base's outer radius once, not once per fighter whose contacts are kept
        came = [(i, now[i], outer_radius(now[i])) for i in changed if i in now]
        for fighter_id, known in old._contacts.items():
            if fighter_id in changed:
                continue
            me = now[fighter_id]
            kept = [i for i in known if i not in changed]
            if came:
                mine = outer_radius(me)
                kept += [
                    i
                    for i, b, reach in came
                    # _may_touch(me, b, 0.01), the same sum in the same order
                    if math.hypot(me.x - b.x, me.y - b.y) <= mine + reach + 0.01 + 1e-6
                    and shapely.dwithin(me.polygon, b.polygon, 0.01)
                    and in_contact(me, b)
                ]
            self._contacts[fighter_id] = sorted(kept)

    def _still(
        self,
        key: tuple[str, tuple[float, float] | str, tuple[str, ...], bool],
        changed: set[str],
        came: list[Base],
        left: list[Base],
        found: Path | None,
        reach: float,
    ) -> bool:
        """Does the answer ``found`` (None: nothing within ``reach``) to the path question
        ``key`` stand after the ``changed`` fighters' moves (see :meth:`inherit_paths`)?"""
        mover, goal, _, _ = key
        if mover in changed or (isinstance(goal, str) and goal in changed):
            return False
        m = self.base(mover)
        hw = m.width / 2.0
        came = [b for b in came if b.level == m.level]
        left = [b for b in left if b.level == m.level]
        if found is not None:
            length = found.length
            legs = list(zip(found.points, found.points[1:], strict=False))
            for b in came:
                clear = outer_radius(b) + hw + 1e-3
                if any(_segment_gap(a, z, b.x, b.y) <= clear for a, z in legs):
                    return False
        elif reach == math.inf:
            return not left
        else:
            length = reach
        sx, sy = m.sight
        for b in left:
            r = outer_radius(b) + hw + 1e-3
            if isinstance(goal, str):
                to_goal = point_distance(self.base(goal), b.x, b.y)
            else:
                to_goal = math.hypot(goal[0] - b.x, goal[1] - b.y)
            around = max(math.hypot(b.x - sx, b.y - sy) - r, 0.0) + max(to_goal - r, 0.0)
            if around <= length + 1e-6:
                return False
        return True

    def move_path(
        self,
        mover: str,
        goal: tuple[float, float] | str,
        pass_through: tuple[str, ...] = (),
        *,
        mov: float,
        potential: float = math.inf,
        reach: float = math.inf,
    ) -> Path | None:
        """V-A, CLARIFICATIONS §9: the most direct legal way of a move of ``mover`` whose
        MOV x 1 is ``mov`` cm. "If it is of the same size, he can cross it if he does not
        move more than MOV x 1", counted on the distance he actually moves along the path:
        its length, or ``potential`` when the move stops there first (an assault falling
        short). The shortest way with landforms of his size passable is taken when that
        distance is at most ``mov`` (or when it crosses none of them); otherwise the
        shortest way round them. Both searches are cached (:meth:`path`).

        ``reach``: "can he get there within ``reach`` cm?" -- the searches stop at the
        reach (:meth:`path`): the answer is the same path when it is at most that long,
        else None (the way round landforms is never shorter than the way across them)."""
        crossing = self.path(mover, goal, pass_through, at_most_mov=True, reach=reach)
        base = self.base(mover)
        if crossing is None or not self.same_size(base):
            return crossing  # nothing of his size to go round: one search answers both
        rank = size_rank(base.size)
        if can_cross_landform(rank, rank, min(crossing.length, potential) - 1e-6, mov):
            return crossing
        if not self._crosses(mover, goal, pass_through, crossing):
            return crossing
        return self.path(mover, goal, pass_through, at_most_mov=False, reach=reach)

    def same_size(self, base: Base) -> list[BaseGeometry]:
        """V-A: the landforms a fighter at ``base`` crosses only by a move of at most
        MOV x 1 (those of his size, passable; none at level 1, II-F-1)."""
        if base.level != 0:
            return []
        if base.size not in self._same:
            self._same[base.size] = [
                s.footprint
                for s in self.scenery
                if crossable(s, base.size, True) and not crossable(s, base.size, False)
            ]
        return self._same[base.size]

    def _crosses(
        self, mover: str, goal: tuple[float, float] | str, through: tuple[str, ...], path: Path
    ) -> bool:
        """Does the corridor ``mover``'s base sweeps along ``path`` (half a base width either
        side of the sight) enter a landform of his size? (If not, the way round them is the
        same path.)"""
        key = (mover, goal, through)
        if key not in self._crossing:
            base = self.base(mover)
            line = path.line()
            half = base.width / 2.0 - 1e-3
            self._crossing[key] = any(
                float(line.distance(shape)) < half for shape in self.same_size(base)
            )
        return self._crossing[key]

    def contact_position(
        self,
        mover: str,
        target: str,
        reference: tuple[float, float] | None = None,
        accept: Callable[[ContactPlacement], bool] | None = None,
    ) -> ContactPlacement | None:
        """The nearest legal place of ``mover`` in contact with ``target`` (II-E-1, V-B-3;
        :meth:`Battlefield.contact_position`): one :class:`ContactSearch` per mover and
        target kept with the field, so that the assault, its menu of places and the answer
        to it (and the extra places of a charge on several enemies) share their work."""
        key = (mover, target)
        search = self._placing.get(key)
        if search is None:
            here = self.battlefield
            t = here.fighters[target]
            others = [b for i, b in here.fighters.items() if i not in key]
            search = ContactSearch(
                here.fighters[mover],
                t,
                others,
                [s.footprint for s in here.scenery if not s.passable],
                table=here.table.area,
                pushable=lambda: [k for k, b in enumerate(others) if in_contact(b, t)],
            )
            self._placing[key] = search
        return search.nearest(reference, accept)

    def others(self, mover: str) -> BaseGeometry:
        """Every base in play but the mover's, and the scenery nobody crosses, as one shape."""
        if mover not in self._others:
            shapes = [self.base(i).polygon for i in self.ids() if i != mover]
            blob = shapely.unary_union(shapes) if shapes else shapely.GeometryCollection()
            shapely.prepare(blob)
            self._others[mover] = blob
        return self._others[mover]

    def overlap(self, mover: str, base: Base, bounds: tuple[float, ...]) -> float:
        """How much of ``base`` (whose outer box is ``bounds``) lies on the bases in play but
        ``mover``'s (cm²): its area on :meth:`others`, from the bases whose boxes meet
        ``bounds`` only (its pieces on them merged: two of them may overlap a little)
        instead of merging every base."""
        if self._bounds is None:
            self._bounds = [(i, _outer_box(self.base(i))) for i in self.ids()]
        x0, y0, x1, y1 = bounds
        near = [
            self.base(i).polygon
            for i, b in self._bounds
            if b[0] <= x1 and x0 <= b[2] and b[1] <= y1 and y0 <= b[3] and i != mover
        ]
        if not near:
            return 0.0
        pieces = shapely.intersection(base.polygon, near)
        if len(pieces) == 1:
            return float(shapely.area(pieces[0]))
        return float(shapely.area(shapely.union_all(pieces)))

    def bases_near(self, mover: str, bounds: tuple[float, ...]) -> bool:
        """Does the bounding box of any base but ``mover``'s meet ``bounds``? (If none
        does, nothing can overlap a shape within ``bounds``.)"""
        if self._bounds is None:
            self._bounds = [(i, _outer_box(self.base(i))) for i in self.ids()]
        x0, y0, x1, y1 = bounds
        return any(
            b[0] <= x1 and x0 <= b[2] and b[1] <= y1 and y0 <= b[3] and i != mover
            for i, b in self._bounds
        )

    def blocked_for(self, size: str, at_most_mov: bool) -> list[BaseGeometry]:
        """Scenery a fighter of ``size`` may not stand on or cross (V-A)."""
        key = (size, at_most_mov)
        if key not in self._blocked:
            self._blocked[key] = [
                s.footprint for s in self.scenery if not crossable(s, size, at_most_mov)
            ]
        return self._blocked[key]

    def _blocked_boxes(
        self, size: str, at_most_mov: bool
    ) -> list[tuple[BaseGeometry, tuple[float, float, float, float]]]:
        """:meth:`blocked_for` with each shape's bounding box (asked once per field)."""
        key = (size, at_most_mov)
        found = self._blocked_bounds.get(key)
        if found is None:
            found = [(s, _bounds(s)) for s in self.blocked_for(size, at_most_mov)]
            self._blocked_bounds[key] = found
        return found

    def spot_problem(
        self,
        mover: str,
        base: Base,
        *,
        enemies_apart: bool,
        at_most_mov: bool = False,
        area: BaseGeometry | None = None,
    ) -> str | None:
        """Why ``mover`` cannot stand at ``base`` (None: he can): off the table (or out of
        ``area``), on another base, on scenery he cannot cross, or — ``enemies_apart`` —
        touching an enemy."""
        limits = area if area is not None else self.table.area
        # the footprint is only built when a cheap bound cannot settle a test: a base
        # whose bounding box lies on the table is on it; shapes whose bounding boxes miss
        # the base's cannot overlap it
        box_ = _outer_box(base)
        on_table = area is None and (
            box_[0] >= 0.0
            and box_[1] >= 0.0
            and box_[2] <= self.table.width
            and box_[3] <= self.table.height
        )
        if not on_table and not _cover(limits).covers(base.polygon):
            return "off the table" if area is None else "out of the area"
        if self.overlap(mover, base, box_) > 1e-4:
            return "on another fighter's base"
        for shape, bounds in self._blocked_boxes(base.size, at_most_mov):
            if _boxes_meet(box_, bounds) and base.polygon.intersection(shape).area > 1e-4:
                return "on scenery he cannot cross"
        if enemies_apart:
            ids, held = self._enemies_of(self.owners[mover])
            if ids:
                # bases whose centres are farther apart than their outer radii and the
                # clearance cannot be that close: not measured (every enemy at once)
                far = held[:, 2] + (outer_radius(base) + APART_CM + 1e-6)
                gaps = np.hypot(held[:, 0] - base.x, held[:, 1] - base.y)
                for k in np.flatnonzero(gaps <= far).tolist():
                    if ids[k] != mover and distance(base, self.base(ids[k])) < APART_CM:
                        return "in contact with an enemy"
        return None

    def spot_screen(self, mover: str, spots: list[Base], short: list[bool]) -> list[bool | None]:
        """For each of ``spots`` (``mover``'s base elsewhere, all of one shape and size), what
        exact bounds show of :meth:`spot_problem` there (on the table, ``enemies_apart``,
        ``at_most_mov`` the spot's ``short``): True, it finds nothing; False, it finds a
        problem; None, not known (ask it). Every spot at once in numpy.

        Nothing (:data:`SCREEN_CM` to spare): the spot's box inside the table, every other
        base separated from it (two squares along one of the four axes of the two; a round
        base as its circle, which holds its outline), every scenery element he may not
        stand on whose box meets the spot's farther from its centre than its outer radius
        (GEOS's distance, all at once), every enemy farther than :meth:`spot_problem`'s first
        test lets through. A problem: a corner (a round base's leftmost, ... point) beyond
        an edge by 1e-5 cm (the table is grown by 1e-6 only), or the disc inside the spot
        (:func:`_core`) and one inside another base or a scenery element he may not stand
        on (:func:`_scenery_core`), both at least 0.5 cm wide, overlapping by 0.05 cm:
        their lens alone is more than 1e-4 cm² (≥ 0.0105 cm² for two 0.5 cm discs)."""
        n = len(spots)
        if not n:
            return []
        t = spots[0]
        if any(
            s.shape != t.shape or s.width_mm != t.width_mm or s.depth_mm != t.depth_mm
            for s in spots
        ):
            return [None] * n
        m = SCREEN_CM
        held = np.array([(s.x, s.y, s.facing) for s in spots], dtype=float)
        xs, ys = held[:, 0], held[:, 1]
        square = t.shape != "round"
        if square:
            a = np.radians(held[:, 2])
            ux, uy = np.cos(a), np.sin(a)
            hd, hw = t.depth / 2.0, t.width / 2.0
            ex = np.abs(ux) * hd + np.abs(uy) * hw
            ey = np.abs(uy) * hd + np.abs(ux) * hw
        else:
            ex = ey = np.full(n, t.radius)
        x0, y0, x1, y1 = xs - ex, ys - ey, xs + ex, ys + ey
        w, h = self.table.width, self.table.height
        ok = (x0 > m) & (y0 > m) & (x1 < w - m) & (y1 < h - m)
        bad = (x0 < -1e-5) | (y0 < -1e-5) | (x1 > w + 1e-5) | (y1 > h + 1e-5)
        core = _core(t)
        rows = self._screen_rows(mover, outer_radius(t) + APART_CM + 1e-6 + m, core)
        if rows is not None:
            centres, turns, chd, chw, crd, lens, far, rounds = rows
            # offsets and turns as complex numbers: (dx + i dy) times a conjugate facing
            # is the offset along (real) and across (imaginary) that facing
            d = centres - (xs + 1j * ys)[:, None]
            gaps = np.abs(d)
            if square:
                back = (ux - 1j * uy)[:, None]
                mine = d * back
                du, dv = np.abs(mine.real), np.abs(mine.imag)
                turn = turns * back
                c, s_ = np.abs(turn.real), np.abs(turn.imag)
                theirs = d * np.conj(turns)
                dU, dV = np.abs(theirs.real), np.abs(theirs.imag)
                sat = np.maximum(
                    np.maximum(du - (hd + c * chd + s_ * chw), dv - (hw + s_ * chd + c * chw)),
                    np.maximum(dU - (chd + c * hd + s_ * hw), dV - (chw + s_ * hd + c * hw)),
                )
                if rounds:  # a round base: its centre's distance to the square, its radius
                    gap = np.hypot(np.maximum(du - hd, 0.0), np.maximum(dv - hw, 0.0)) - crd
                    sat = np.where(crd > 0.0, gap, sat)
            else:
                theirs = d * np.conj(turns)
                dU, dV = np.abs(theirs.real), np.abs(theirs.imag)
                r = t.radius
                sat = np.hypot(np.maximum(dU - chd, 0.0), np.maximum(dV - chw, 0.0)) - r
                sat = np.where(crd > 0.0, gaps - r - crd, sat)
            # an enemy whose centre is near enough to be measured: apart along an axis
            ok &= ((sat > m) & ((gaps > far) | (sat > APART_CM + m))).all(axis=1)
            bad |= (gaps < lens).any(axis=1)
            if square:
                # two squares not apart, the spot not settled: a corner of either, 0.02 cm
                # inside both sides, 0.02 cm inside the other square -- a disc of 0.02 cm
                # (1.26e-3 cm²) on both
                i, k = np.nonzero((sat <= m) & (crd <= 0.0) & ~(ok | bad)[:, None])
                if len(i):
                    bad[
                        i[
                            _corner_inside(
                                d[i, k], back[i, 0], turns[0, k], hd, hw, chd[0, k], chw[0, k]
                            )
                        ]
                    ] = True
        for flag in (False, True):
            which = np.array([bool(f) is flag for f in short], dtype=bool)
            scenery = self._screen_scenery(t.size, flag, core)
            if scenery is None or not which.any():
                continue
            boxes, cores, shapes = scenery
            meet = (
                (boxes[0] <= x1[:, None] + m)
                & (x0[:, None] - m <= boxes[2])
                & (boxes[1] <= y1[:, None] + m)
                & (y0[:, None] - m <= boxes[3])
                & (which & ok)[:, None]
            )
            i, j = np.nonzero(meet)
            if len(i):
                # a footprint farther from the spot's centre than its outer radius: clear
                gaps = shapely.distance(shapely.points(xs[i], ys[i]), shapes[j])
                ok[i[~(gaps > outer_radius(t) + m)]] = False
            if cores is not None:
                on = (np.hypot(cores[0] - xs[:, None], cores[1] - ys[:, None]) < cores[2]).any(
                    axis=1
                )
                bad |= which & on
        answers = zip(ok.tolist(), bad.tolist(), strict=True)
        return [True if g else False if b else None for g, b in answers]

    def _screen_rows(self, mover: str, apart: float, core: float) -> tuple[Any, ...] | None:
        """The bases in play but ``mover``'s as arrays of one row (None: none) for
        :meth:`spot_screen` of a spot whose outer radius plus the clearance is ``apart``
        and whose core is ``core``: centres and facings (complex), half depths, half widths,
        radii (0: a square), the centre gaps below which their cores overlap the spot's by
        0.05 cm (-inf: a core under 0.5 cm), those beyond which an enemy is surely apart
        (-inf: a friend), whether any is round (kept per mover and spot)."""
        key = (mover, apart, core)
        if key not in self._screens:
            me = self.owners[mover]
            ids = [i for i in self.ids() if i != mover]
            if not ids:
                self._screens[key] = None
            else:
                a = np.array([_row_of(self.base(i)) for i in ids], dtype=float).T[:, None, :]
                foe = np.array([self.owners[i] != me for i in ids], dtype=bool)[None, :]
                cores = a[8]
                lens = np.where((cores >= 0.5) & (core >= 0.5), core + cores - 0.05, -np.inf)
                self._screens[key] = (
                    a[0] + 1j * a[1],
                    a[2] + 1j * a[3],
                    a[4],
                    a[5],
                    a[6],
                    lens,
                    np.where(foe, a[7] + apart, -np.inf),
                    bool((a[6] > 0.0).any()),
                )
        found: tuple[Any, ...] | None = self._screens[key]
        return found

    def _screen_scenery(
        self, size: str, at_most_mov: bool, core: float
    ) -> tuple[Any, Any, Any] | None:
        """For :meth:`spot_screen`: the bounding boxes of the scenery a fighter of ``size``
        may not stand on (an array of four rows: min x, min y, max x, max y; None: no such
        scenery) and the discs inside them (x, y, and the centre gap below which a spot's
        core of ``core`` overlaps one by 0.05 cm; None: none 0.5 cm wide, or ``core``
        under 0.5 cm) and their footprints (an array), kept per field."""
        key = ("scenery", size, at_most_mov, core)
        if key not in self._screens:
            blocked = self._blocked_boxes(size, at_most_mov)
            found: tuple[Any, Any, Any] | None = None
            if blocked:
                boxes = np.array([b for _, b in blocked], dtype=float).T[:, None, :]
                cores = [
                    (x, y, core + r - 0.05)
                    for x, y, r in filter(None, (_scenery_core(shape) for shape, _ in blocked))
                    if r >= 0.5 and core >= 0.5
                ]
                held = np.array(cores, dtype=float).T[:, None, :] if cores else None
                found = (boxes, held, _footprints_of([shape for shape, _ in blocked]))
            self._screens[key] = found
        kept: tuple[Any, Any, Any] | None = self._screens[key]
        return kept

    def _enemies_of(self, player: int) -> tuple[list[str], Any]:
        """The fighters in play not of ``player`` and an array of their centres and outer
        radii (x, y, reach), one row each."""
        if player not in self._sides:
            ids = [i for i in self.ids() if self.owners[i] != player]
            rows = [(b.x, b.y, outer_radius(b)) for b in map(self.base, ids)]
            self._sides[player] = (ids, np.array(rows, dtype=float).reshape(-1, 3))
        return self._sides[player]


_OUTER_BOXES: dict[Base, tuple[float, float, float, float]] = {}
_OUTER_BOXES_SIZE = 65536


def _outer_box(base: Base) -> tuple[float, float, float, float]:
    """A box holding the base's footprint (its corners, or its circle), 1e-9 cm to spare
    (kept per base value)."""
    found = _OUTER_BOXES.get(base)
    if found is None:
        if len(_OUTER_BOXES) >= _OUTER_BOXES_SIZE:
            _OUTER_BOXES.clear()
        found = _OUTER_BOXES[base] = _outer_box_of(base)
    return found


def _outer_boxes(template: Base, facing: float, xs: Any, ys: Any) -> tuple[Any, Any, Any, Any]:
    """:func:`_outer_box` of ``template`` moved to each of the places (``xs``, ``ys``,
    arrays) turned to ``facing``: the same operations in the same order on each, so the
    same numbers."""
    m = 1e-9
    if template.shape == "round":
        r = template.radius + m
        return (xs - r, ys - r, xs + r, ys + r)
    a = math.radians(facing)
    fx, fy = math.cos(a), math.sin(a)
    lx, ly = -fy, fx
    hw, hd = template.width_mm / 10.0 / 2.0, template.depth_mm / 10.0 / 2.0
    cx = (
        xs + fx * hd - lx * hw,
        xs + fx * hd + lx * hw,
        xs - fx * hd + lx * hw,
        xs - fx * hd - lx * hw,
    )
    cy = (
        ys + fy * hd - ly * hw,
        ys + fy * hd + ly * hw,
        ys - fy * hd + ly * hw,
        ys - fy * hd - ly * hw,
    )
    return (
        np.minimum.reduce(cx) - m,
        np.minimum.reduce(cy) - m,
        np.maximum.reduce(cx) + m,
        np.maximum.reduce(cy) + m,
    )


def _outer_box_of(base: Base) -> tuple[float, float, float, float]:
    m = 1e-9
    if base.shape == "round":
        r = base.radius + m
        return (base.x - r, base.y - r, base.x + r, base.y + r)
    xs, ys = zip(*base.corners(), strict=True)
    return (min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m)


_BOUNDS: dict[int, tuple[BaseGeometry, tuple[float, float, float, float]]] = {}
_BOUNDS_SIZE = 4096


def _bounds(shape: BaseGeometry) -> tuple[float, float, float, float]:
    """``shape.bounds``, kept per shape object (scenery footprints and deployment areas are
    shared objects that live as long as their battleground; the shape is kept with its
    bounds so that its id is not reused while the entry lives)."""
    found = _BOUNDS.get(id(shape))
    if found is not None and found[0] is shape:
        return found[1]
    if len(_BOUNDS) >= _BOUNDS_SIZE:
        _BOUNDS.clear()
    x0, y0, x1, y1 = shape.bounds
    _BOUNDS[id(shape)] = (shape, (x0, y0, x1, y1))
    return (x0, y0, x1, y1)


def _box_gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The distance between two bounding boxes (0 when they meet): no point of a shape in
    one is nearer a shape in the other."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return math.hypot(dx, dy)


def _boxes_meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Do two bounding boxes (minx, miny, maxx, maxy) meet (touching counts)?"""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _may_touch(a: Base, b: Base, gap: float) -> bool:
    """Could the two bases be within ``gap`` of each other? False when their centres are
    farther apart than their outer radii and ``gap`` (1e-6 cm to spare): then no shape
    test is needed."""
    return math.hypot(a.x - b.x, a.y - b.y) <= outer_radius(a) + outer_radius(b) + gap + 1e-6


#: the corners of a square, as complex multiples of its half depth (real) and half width
_CORNERS = np.array([1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j])
_DEPTH_CM = 0.02


def _corner_inside(d: Any, back: Any, turns: Any, hd: float, hw: float, chd: Any, chw: Any) -> Any:
    """For pairs of squares (the spot's half depth ``hd`` and width ``hw``, facing the
    conjugate of ``back``; the other's centre ``d`` away, facing ``turns``, half extents
    ``chd``, ``chw``): does a corner of either, :data:`_DEPTH_CM` inside its two sides, lie
    that far inside the other?"""
    r = _DEPTH_CM
    # the spot's corners in the other's frame
    mine = (hd - r) * _CORNERS.real + 1j * (hw - r) * _CORNERS.imag  # (4,)
    spot = np.conj(back)[:, None]
    there = (mine[None, :] * spot - d[:, None]) * np.conj(turns)[:, None]
    inside = (np.abs(there.real) <= (chd - r)[:, None]) & (np.abs(there.imag) <= (chw - r)[:, None])
    # the other's corners in the spot's frame
    theirs = (chd - r)[:, None] * _CORNERS.real + 1j * (chw - r)[:, None] * _CORNERS.imag
    here = (theirs * turns[:, None] + d[:, None]) * back[:, None]
    inside |= (np.abs(here.real) <= hd - r) & (np.abs(here.imag) <= hw - r)
    return inside.any(axis=1)


_ROWS: dict[Base, tuple[float, ...]] = {}


def _row_of(base: Base) -> tuple[float, ...]:
    """A base as one row (kept per base value): centre (x, y), facing (unit x, y; a round
    base's (1, 0)), half depth, half width (a round base's radius), radius (0: a square),
    :func:`_reach`, :func:`_core`."""
    found = _ROWS.get(base)
    if found is None:
        if len(_ROWS) >= _OUTER_BOXES_SIZE:
            _ROWS.clear()
        if base.shape == "round":
            r = base.radius
            found = (base.x, base.y, 1.0, 0.0, r, r, r, outer_radius(base), _core(base))
        else:
            fx, fy = base.front
            hd, hw = base.depth / 2.0, base.width / 2.0
            found = (base.x, base.y, fx, fy, hd, hw, 0.0, outer_radius(base), _core(base))
        _ROWS[base] = found
    return found


def _core(base: Base) -> float:
    """The radius of a disc round the base's centre inside its footprint (a round base's
    outline has 64 corners on its circle: cos(pi / 64) > 0.998)."""
    if base.shape == "round":
        return base.radius * 0.998
    return min(base.width, base.depth) / 2.0


_CORES: dict[int, tuple[BaseGeometry, Circle | None]] = {}


def _scenery_core(shape: BaseGeometry) -> Circle | None:
    """A disc inside a scenery footprint (x, y, radius), kept per shape object (scenery
    does not move): the largest GEOS finds, its centre checked inside and its radius the
    centre's distance to the outline less 1e-6 cm (None: no such disc)."""
    kept = _CORES.get(id(shape))
    if kept is not None and kept[0] is shape:
        return kept[1]
    core: Circle | None = None
    if not shape.is_empty and shape.area > 0.0:
        with np.errstate(all="ignore"):  # slivers may overflow GEOS's search: checked below
            centre = shapely.get_point(shapely.maximum_inscribed_circle(shape, 0.01), 0)
        gap = float(shapely.distance(centre, shape.boundary))
        if shape.contains(centre) and gap > 1e-3:
            core = (float(centre.x), float(centre.y), gap - 1e-6)
    if len(_CORES) > 4096:
        _CORES.clear()
    _CORES[id(shape)] = (shape, core)
    return core


_FIELDS: OrderedDict[tuple[Any, ...], tuple[Battleground, Field]] = OrderedDict()
#: the field built last on each battleground: a new one keeps its path answers a move left
#: as they were (:meth:`Field.inherit_paths`)
_LAST: dict[int, tuple[Battleground, Field]] = {}


def free(here: Field, fighter_id: str) -> bool:
    """Free of any enemy: in contact with none (V-B)."""
    return not here.enemies_in_contact(fighter_id)


def pass_through(state: GameState, here: Field, mover: str) -> tuple[str, ...]:
    """V-A (``rules.movement.passable_friends``): the friends ``mover`` may pass through,
    free of any enemy and activated this round."""
    me = state.fighter(mover).player
    others = (i for i in here.ids() if i != mover)
    return tuple(
        sorted(
            passable_friends(
                others,
                friend=lambda i: here.owners[i] == me,
                activated=lambda i: state.fighter(i).activated,
                free=lambda i: free(here, i),
            )
        )
    )


#: the field key of a tuple of fighters (kept with the tuple, so that its id is not reused)
_KEYS: dict[int, tuple[tuple[Fighter, ...], tuple[Any, ...]]] = {}
_KEYS_SIZE = 1024


def field_of(state: GameState) -> Field:
    """The state's battlefield (cached while the fighters in play keep their places).

    Kept on the state (:data:`~.state.FIELD_KEPT`), and carried over by ``evolve`` to the
    next states while their fighters, battleground and profiles are the same objects (most
    steps change something else): then no key is built nor looked up."""
    values = state.__dict__
    cached = values.get(FIELD_KEPT)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    ground = _ground(state)
    # a state whose fighters are the very tuple of an earlier state's has the same key
    # (most steps change something else): the key is not built again
    fighters = state.fighters
    known = _KEYS.get(id(fighters))
    if known is not None and known[0] is fighters and known[1][0] == id(ground):
        key = known[1]
    else:
        key = (
            id(ground),
            tuple((f.id, f.x, f.y, f.facing, f.altitude) for f in fighters if f.in_play),
        )
        if len(_KEYS) >= _KEYS_SIZE:
            _KEYS.pop(next(iter(_KEYS)))
        _KEYS[id(fighters)] = (fighters, key)
    hit = _FIELDS.get(key)
    if hit is not None and hit[0] is ground:
        _FIELDS.move_to_end(key)
        values[FIELD_KEPT] = hit[1]
        return hit[1]
    playing = [f for f in fighters if f.in_play]
    scenery = _scenery_of_ground(ground)
    table = table_of(ground)
    last = _LAST.get(id(ground))
    before = last[1] if last is not None and last[0] is ground else None
    if before is not None:  # the very record of a fighter of the last field: his base
        records, olds = before._records, before.battlefield.fighters
        bases = {f.id: olds[f.id] if records.get(f.id) is f else base_of(state, f) for f in playing}
    else:
        bases = {f.id: base_of(state, f) for f in playing}
    made = Field(
        ground=ground,
        table=table,
        scenery=scenery,
        battlefield=Battlefield(table, bases, scenery),
        owners={f.id: f.player for f in playing},
        _records={f.id: f for f in playing},
    )
    if before is not None:
        made.inherit_paths(before)
        made.inherit_sight(before)
    _LAST[id(ground)] = (ground, made)
    if len(_LAST) > _CACHE_SIZE:
        _LAST.pop(next(iter(_LAST)))
    _FIELDS[key] = (ground, made)
    if len(_FIELDS) > _CACHE_SIZE:
        _FIELDS.popitem(last=False)
    values[FIELD_KEPT] = made
    return made


_GROUND_SCENERY: dict[int, tuple[Battleground, tuple[Scenery, ...]]] = {}


def _scenery_of_ground(ground: Battleground) -> tuple[Scenery, ...]:
    """The scenery elements of ``ground`` (:func:`scenery_of` of each piece), kept per
    battleground object: its pieces are not hashed again for every new field."""
    found = _GROUND_SCENERY.get(id(ground))
    if found is not None and found[0] is ground:
        return found[1]
    scenery = tuple(scenery_of(p) for p in ground.scenery or ())
    if len(_GROUND_SCENERY) >= _CACHE_SIZE:
        _GROUND_SCENERY.pop(next(iter(_GROUND_SCENERY)))
    _GROUND_SCENERY[id(ground)] = (ground, scenery)
    return scenery


def has_field(state: GameState) -> bool:
    """The game is played on a table (not a table-less game of chapter IV tests)."""
    return state.battleground is not None and state.battleground.scenery is not None


def enemy_contacts(state: GameState) -> list[tuple[str, str]]:
    """Pairs of enemy fighters in base contact (II-E), for the combat phase (IV-C)."""
    if not has_field(state):
        return []
    here = field_of(state)
    pairs = []
    for a in here.ids():
        for b in here.enemies_in_contact(a):
            if a < b:
                pairs.append((a, b))
    return pairs


# --- candidate places ---------------------------------------------------------------------


def placed(base: Base, sight: tuple[float, float], facing: float) -> Base:
    """The base turned to ``facing`` with its sight on ``sight`` (V-A: a base turns about
    its sight)."""
    a = math.radians(facing)
    half = base.depth / 2.0
    return base.moved(sight[0] - math.cos(a) * half, sight[1] - math.sin(a) * half, facing)


def rounded(base: Base) -> Base:
    """Coordinates rounded as the engine stores them in choices (0.01 cm, 0.1 degree)."""
    return base.moved(round(base.x, 2), round(base.y, 2), round(base.facing, 1) % 360.0)


def facing_towards(base: Base, point: tuple[float, float]) -> float:
    return math.degrees(math.atan2(point[1] - base.sight[1], point[0] - base.sight[0]))


@dataclass(frozen=True)
class Spot:
    """A candidate place: the base's centre and facing, what it is towards, and the distance
    the sight travels to get there."""

    x: float
    y: float
    facing: float
    towards: str
    distance: float


DIRECTIONS = 8
"""Candidate destinations also go straight out in this many directions (every 45°)."""

NEAREST = 3
"""Candidate destinations head for this many nearest enemies and scenery elements."""


def _headings(here: Field, mover: str) -> list[tuple[str, float, float]]:
    """(label, direction in degrees, how far the goal lies) for the candidate moves: towards
    the nearest enemies (stopping short of contact), the nearest scenery, the centre, and
    straight out in :data:`DIRECTIONS` directions."""
    me = here.owners[mover]
    base = here.base(mover)
    sx, sy = base.sight
    out: list[tuple[str, float, float]] = []
    enemies = sorted(
        (i for i in here.ids() if here.owners[i] != me),
        key=lambda i: point_distance(here.base(i), sx, sy),
    )
    for other in enemies[:NEAREST]:
        target = here.base(other)
        gap = point_distance(target, sx, sy)
        heading = math.degrees(math.atan2(target.y - sy, target.x - sx))
        out.append((f"towards {other}", heading, max(gap - CLEARANCE_CM, 0.0)))
    if here.scenery:
        # the same GEOS distances as footprint.distance(Point), all in one call; a stable sort
        sight = Point(sx, sy)
        gaps = shapely.distance(_footprints(here.scenery), sight).tolist()
        nearest = sorted(range(len(gaps)), key=gaps.__getitem__)[:NEAREST]
        # ring.interpolate(ring.project(sight)) of each: the same GEOS calls, in bulk
        rings = _footprints_of([_ring(here.scenery[k], base.depth / 2.0 + 0.5) for k in nearest])
        along = shapely.line_locate_point(rings, sight)
        points = shapely.get_coordinates(shapely.line_interpolate_point(rings, along)).tolist()
        for k, (px, py) in zip(nearest, points, strict=True):
            heading = math.degrees(math.atan2(py - sy, px - sx))
            out.append((f"to {here.scenery[k].name}", heading, math.hypot(px - sx, py - sy)))
    cx, cy = here.table.width / 2.0, here.table.height / 2.0
    out.append(
        ("to the centre", math.degrees(math.atan2(cy - sy, cx - sx)), math.hypot(cx - sx, cy - sy))
    )
    for k in range(DIRECTIONS):
        out.append((f"heading {base.facing + 45.0 * k:.0f}°", base.facing + 45.0 * k, math.inf))
    return out


_FOOTPRINTS: dict[int, tuple[tuple[Scenery, ...], Any]] = {}
_RINGS: dict[tuple[int, float], tuple[Scenery, BaseGeometry]] = {}


def _footprints(scenery: tuple[Scenery, ...]) -> Any:
    """The footprints of ``scenery`` as an array (kept per scenery tuple, by identity)."""
    kept = _FOOTPRINTS.get(id(scenery))
    if kept is not None and kept[0] is scenery:
        return kept[1]
    shapes = np.array([e.footprint for e in scenery], dtype=object)
    if len(_FOOTPRINTS) > 256:
        _FOOTPRINTS.clear()
    _FOOTPRINTS[id(scenery)] = (scenery, shapes)
    return shapes


def _ring(element: Scenery, grow: float) -> BaseGeometry:
    """The outline of ``element``'s footprint grown by ``grow`` cm (kept per element and
    growth: scenery does not move)."""
    key = (id(element), grow)
    kept = _RINGS.get(key)
    if kept is not None and kept[0] is element:
        return kept[1]
    ring = element.footprint.buffer(grow).exterior
    if len(_RINGS) > 4096:
        _RINGS.clear()
    _RINGS[key] = (element, ring)
    return ring


class _Obstacles:
    """What a straight move must not sweep (V-A): some shapes and the outside of the table,
    merged into one shape only when a cheap bound cannot settle a test."""

    def __init__(
        self,
        table: Table,
        shapes: list[BaseGeometry],
        circles: list[Circle],
        cores: list[Circle] | None = None,
        rects: Sequence[tuple[float, ...]] | None = None,
    ) -> None:
        self.table, self.shapes = table, shapes
        # the first shapes are bases: (x, y, facing x, facing y, half depth, half width,
        # radius, 0 for a square) each (:meth:`settle_many`); the others are scenery
        self._rects = None if rects is None else np.array(rects, dtype=float).reshape(-1, 7)
        self.circles = circles  # (x, y, radius) holding each shape
        held = np.array(circles, dtype=float).reshape(-1, 3)
        self._cx, self._cy, self._r = held[:, 0], held[:, 1], held[:, 2]
        # (x, y, radius) of discs inside some of the shapes (a base's inscribed circle)
        self._cores = np.array(cores or [], dtype=float).reshape(-1, 3)
        self._core_x, self._core_y = self._cores[None, :, 0], self._cores[None, :, 1]
        self._core_r = self._cores[None, :, 2]
        self._tree: shapely.STRtree | None = None
        self._kept: dict[Any, Any] = {}

    def hits(self, shapes: Any) -> list[bool]:
        """For each of ``shapes``: does it meet an obstacle (one of the shapes or the
        outside of the table)? Tested shape by shape through a tree of the obstacles, not
        against their union (the same answers: a shape meets a union when it meets a part)."""
        if self._tree is None:
            self._tree = shapely.STRtree([*self.shapes, _outside(self.table)])
        found = [False] * len(shapes)
        for k in self._tree.query(shapes, predicate="intersects")[0].tolist():
            found[k] = True
        return found

    def surely_clear(self, a: tuple[float, float], b: tuple[float, float], reach: float) -> bool:
        """Is everything within ``reach`` of the segment a-b on the table and away from
        every shape's circle (with 1e-9 cm to spare)?"""
        w, h = self.table.width, self.table.height
        for x, y in (a, b):
            if not (reach < x < w - reach and reach < y < h - reach):
                return False
        if not self.circles:
            return True
        # every circle at once (one pass over the fighters, not a Python loop per circle)
        dx, dy = b[0] - a[0], b[1] - a[1]
        norm = dx * dx + dy * dy
        px, py = self._cx - a[0], self._cy - a[1]
        t = np.zeros_like(px) if norm == 0.0 else np.clip((px * dx + py * dy) / norm, 0.0, 1.0)
        gaps = np.hypot(px - t * dx, py - t * dy)
        return bool(np.all(gaps > self._r + (reach + 1e-9)))

    def surely_clear_many(
        self, segments: list[tuple[tuple[float, float], tuple[float, float]]], reach: float
    ) -> list[bool]:
        """:meth:`surely_clear` of each segment (a, b), all in one pass (the same float
        operations, element by element)."""
        w, h = self.table.width, self.table.height
        out = [
            reach < a[0] < w - reach
            and reach < a[1] < h - reach
            and reach < b[0] < w - reach
            and reach < b[1] < h - reach
            for a, b in segments
        ]
        if not self.circles:
            return out
        rows = [k for k, ok in enumerate(out) if ok]
        if not rows:
            return out
        ends = np.array([segments[k] for k in rows], dtype=float)  # (n, 2, 2)
        ax, ay = ends[:, 0, 0:1], ends[:, 0, 1:2]
        dx, dy = ends[:, 1, 0:1] - ax, ends[:, 1, 1:2] - ay
        norm = dx * dx + dy * dy
        px, py = self._cx[None, :] - ax, self._cy[None, :] - ay
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.clip((px * dx + py * dy) / norm, 0.0, 1.0)
        t = np.where(norm == 0.0, 0.0, t)
        gaps = np.hypot(px - t * dx, py - t * dy)
        clear = np.all(gaps > self._r[None, :] + (reach + 1e-9), axis=1).tolist()
        for k, ok in zip(rows, clear, strict=True):
            out[k] = ok
        return out

    def surely_hit_many(self, segments: list[Segment], width: float) -> list[bool]:
        """For each segment (a, b): does its corridor for a base ``width`` wide (see
        :func:`_corridor_hits`) surely meet an obstacle? Yes when a point within ``inner``
        (below) of b lies beyond an edge of the table (inside the 50 cm outside, 1e-6 cm
        to spare), or when the segment passes nearer than ``inner`` plus its radius (1e-6
        cm to spare) to the centre of a disc inside an obstacle (``cores``). False: not
        known."""
        # the buffer's outline has its corners on the circles of radius width / 2 - 0.01
        # round the ends, 64 to a turn: every point within that radius x cos(pi / 64)
        # (> 0.998) of the segment is inside it
        inner = (width / 2.0 - 0.01) * 0.998
        w, h, m = self.table.width, self.table.height, 1e-6
        lo, hi_x, hi_y = -50.0 + m, w + 50.0 - m, h + 50.0 - m
        out = []
        for _, (bx, by) in segments:
            in_x, in_y = lo < bx < hi_x, lo < by < hi_y
            out.append(
                (in_y and (lo < bx - inner < -m or w + m < bx + inner < hi_x))
                or (in_x and (lo < by - inner < -m or h + m < by + inner < hi_y))
            )
        rows = [k for k, hit in enumerate(out) if not hit]
        if not rows or not len(self._cores):
            return out
        ends = np.array([segments[k] for k in rows], dtype=float)  # (n, 2, 2)
        ax, ay = ends[:, 0, 0:1], ends[:, 0, 1:2]
        dx, dy = ends[:, 1, 0:1] - ax, ends[:, 1, 1:2] - ay
        px, py = self._core_x - ax, self._core_y - ay
        norm = np.maximum(dx * dx + dy * dy, 1e-300)  # a point: t = 0
        t = np.clip((px * dx + py * dy) / norm, 0.0, 1.0)
        gaps = np.hypot(px - t * dx, py - t * dy)
        near = (gaps < self._core_r + (inner - m)).any(axis=1).tolist()
        for k, hit in zip(rows, near, strict=True):
            out[k] = hit
        return out

    def settle_many(self, starts: Any, ends: Any, width: float) -> Any:
        """What exact bounds show of each corridor (the buffer of the segment from
        ``starts[k]`` to ``ends[k]``, complex numbers, by ``width / 2 - 0.01``, see
        :func:`_corridor_hits`): 1, it meets an obstacle; 0, it meets none; -1, not known
        (ask GEOS). Every corridor and obstacle at once, 1e-6 cm to spare. The buffer holds
        every point within ``rad = width / 2 - 0.01`` of the segment x 0.998 (its outline's
        corners lie on the circles round the ends, 64 to a turn) and none farther than
        ``rad``. A square base is measured exactly (the distance from the segment to its
        rectangle, 0 when the segment enters it); a round one as its circle, which holds
        its outline, and holds a circle 0.998 as wide; a scenery element by the circle
        round its box and the disc inside it (:func:`_scenery_core`); the table's edges as
        :meth:`surely_hit_many` does, or as seen to lie more than ``rad`` inside them.
        Scenery the circle and the disc do not settle is measured by GEOS (the distance from
        the segment to its footprint: cheaper than building the buffer). Needs ``rects``."""
        assert self._rects is not None
        m = 1e-6
        rad = width / 2.0 - 0.01
        inner = rad * 0.998
        a, b = starts, ends
        w, h = self.table.width, self.table.height
        # the table: clear when both ends lie farther than ``rad`` inside every edge; met
        # when a point within ``inner`` beyond the end lies beyond an edge (inside the 50 cm
        # outside)
        reach = rad + m
        xy = np.stack([a.real, b.real, a.imag, b.imag])  # (4, segments)
        clear = (
            (np.minimum(xy[0], xy[1]) > reach)
            & (np.maximum(xy[0], xy[1]) < w - reach)
            & (np.minimum(xy[2], xy[3]) > reach)
            & (np.maximum(xy[2], xy[3]) < h - reach)
        )
        hit = np.zeros(len(a), dtype=bool)
        if not clear.all():
            lo, hi_x, hi_y = -50.0 + m, w + 50.0 - m, h + 50.0 - m
            bx, by = xy[1], xy[3]
            in_x, in_y = (lo < bx) & (bx < hi_x), (lo < by) & (by < hi_y)
            left, right, down, up = bx - inner, bx + inner, by - inner, by + inner
            hit = (in_y & (((lo < left) & (left < -m)) | ((w + m < right) & (right < hi_x)))) | (
                in_x & (((lo < down) & (down < -m)) | ((h + m < up) & (up < hi_y)))
            )
        # one distance from each segment to each centre (bases, circles round scenery, discs
        # inside it): below ``hits`` the corridor surely meets the obstacle, beyond ``opens``
        # it surely misses it, between the two the pair is measured (a square exactly, a
        # round base by its circle, scenery by GEOS)
        xs, ys, hits, opens = self._thresholds(rad, inner, m)
        if len(xs):
            gaps = _point_gaps(a, b, xs, ys)
            hit |= (gaps < hits).any(axis=1)
            i, k = np.nonzero(gaps <= opens)
            if len(i):
                rects = self._rects
                nb = len(rects)
                base = k < nb
                bi, bk = i[base], k[base]
                if len(bi):
                    rd = rects[bk, 6]
                    exact = _rect_gaps(a[bi], b[bi], rects[bk])
                    round_ = rd > 0.0
                    found = np.where(round_, gaps[bi, bk] - rd, exact)
                    close = np.where(round_, gaps[bi, bk] - rd * 0.998, exact)
                    hit[bi[close < inner - m]] = True
                    blocked = bi[found <= rad + m]
                else:
                    blocked = bi
                si, sk = i[~base], k[~base] - nb
                keep = ~hit[si]
                si, sk = si[keep], sk[keep]
                if len(si):
                    lines = shapely.linestrings(
                        np.stack([a.real[si], a.imag[si], b.real[si], b.imag[si]], axis=1).reshape(
                            -1, 2, 2
                        )
                    )
                    far = shapely.distance(lines, _footprints_of(self.shapes[nb:])[sk])
                    hit[si[far < inner - m]] = True
                    blocked = np.concatenate([blocked, si[far <= rad + m]])
                clear[blocked] = False  # clear: every pair measured is
        return np.where(hit, 1, np.where(clear, 0, -1))

    def _thresholds(self, rad: float, inner: float, m: float) -> tuple[Any, ...]:
        """For :meth:`settle_many` (kept per corridor radius): the centres measured from,
        the distances below which the corridor surely meets each obstacle and those beyond
        which it surely misses it, in columns: the bases (``rects``; their cores and outer
        circles), the scenery (the circles round their boxes), the discs inside the scenery
        (``cores`` beyond the bases')."""
        key = (rad, inner, m)
        found = self._kept.get(key)
        if found is None:
            assert self._rects is not None
            rects = self._rects
            nb = len(rects)
            hd, hw, rd = rects[:, 4], rects[:, 5], rects[:, 6]
            round_ = rd > 0.0
            ring = np.array(self.circles[nb:], dtype=float).reshape(-1, 3)
            cores = self._cores[nb:]
            xs = np.concatenate([rects[:, 0], ring[:, 0], cores[:, 0]])
            ys = np.concatenate([rects[:, 1], ring[:, 1], cores[:, 1]])
            no = np.full(len(ring), -np.inf)
            hits = np.concatenate(
                [
                    np.where(round_, rd * 0.998, np.minimum(hd, hw)) + (inner - m),
                    no,
                    cores[:, 2] + (inner - m),
                ]
            )
            opens = np.concatenate(
                [
                    np.where(round_, rd, np.hypot(hd, hw)) + (rad + m),
                    ring[:, 2] + (rad + m),
                    np.full(len(cores), -np.inf),
                ]
            )
            found = self._kept[key] = (xs, ys, hits[None, :], opens[None, :])
        return found


def _footprints_of(shapes: list[BaseGeometry]) -> Any:
    """``shapes`` as an array (of objects)."""
    out = np.empty(len(shapes), dtype=object)
    out[:] = shapes
    return out


def _rect_gaps(a: Any, b: Any, rects: Any) -> Any:
    """The distance from each segment ``a[k]``-``b[k]`` (complex numbers) to the rectangle of
    ``rects[k]`` (x, y, facing x, facing y, half depth, half width, ...): 0 when the
    segment enters it, else the nearest of its corners to the segment and of the
    segment's ends to it."""
    centre = rects[:, 0] + 1j * rects[:, 1]
    back = rects[:, 2] - 1j * rects[:, 3]
    hd, hw = rects[:, 4], rects[:, 5]
    # the segment in the rectangle's frame: x along its facing, y across
    la, lb = (a - centre) * back, (b - centre) * back
    ax, ay, bx, by = la.real, la.imag, lb.real, lb.imag
    dx, dy = bx - ax, by - ay
    norm = np.maximum(dx * dx + dy * dy, 1e-300)
    half = np.stack([hd, hw])  # (2, pairs): x then y
    ends = np.stack([ax, ay, bx, by])
    out = np.maximum(np.abs(ends) - np.concatenate([half, half]), 0.0)
    gap = np.minimum(np.hypot(out[0], out[1]), np.hypot(out[2], out[3]))
    # the four corners at once (pairs, 4)
    qx, qy = hd[:, None] * _SIGNS[0], hw[:, None] * _SIGNS[1]
    ax_, ay_, dx_, dy_ = ax[:, None], ay[:, None], dx[:, None], dy[:, None]
    with np.errstate(over="ignore"):  # a quotient past the float range is clipped to 0 or 1
        t = np.minimum(np.maximum(((qx - ax_) * dx_ + (qy - ay_) * dy_) / norm[:, None], 0.0), 1.0)
    gap = np.minimum(gap, np.hypot(ax_ + t * dx_ - qx, ay_ + t * dy_ - qy).min(axis=1))
    # Liang-Barsky: the part of the segment inside both slabs of the rectangle is not empty
    p, d = ends[:2], np.stack([dx, dy])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # ±inf: no crossing
        t1, t2 = (-half - p) / d, (half - p) / d
    inside = np.abs(p) <= half
    flat = d == 0.0
    enter = np.where(flat, np.where(inside, -np.inf, np.inf), np.minimum(t1, t2)).max(axis=0)
    leave = np.where(flat, np.where(inside, np.inf, -np.inf), np.maximum(t1, t2)).min(axis=0)
    met = np.maximum(enter, 0.0) <= np.minimum(leave, 1.0)
    return np.where(met, 0.0, gap)


#: the signs of a rectangle's corners (x, then y)
_SIGNS = np.array([[1.0, 1.0, -1.0, -1.0], [1.0, -1.0, 1.0, -1.0]])[:, None, :]


def _point_gaps(a: Any, b: Any, xs: Any, ys: Any) -> Any:
    """The distance from each point (``xs``, ``ys``) to each segment ``a[k]``-``b[k]``
    (complex numbers): an array of one row per segment."""
    ax, ay = a.real[:, None], a.imag[:, None]
    dx, dy = b.real[:, None] - ax, b.imag[:, None] - ay
    px, py = xs[None, :] - ax, ys[None, :] - ay
    norm = np.maximum(dx * dx + dy * dy, 1e-300)
    t = np.minimum(np.maximum((px * dx + py * dy) / norm, 0.0), 1.0)
    return np.hypot(px - t * dx, py - t * dy)


Circle = tuple[float, float, float]


def _outside(table: Table) -> BaseGeometry:
    """The outside of the table, 50 cm deep (prepared): what a straight move must not
    sweep beyond the edges."""
    return _outside_of(table.width, table.height)


@lru_cache(maxsize=64)
def _outside_of(width: float, height: float) -> BaseGeometry:
    outside = box(-50, -50, width + 50, height + 50).difference(Table(width, height).area)
    shapely.prepare(outside)
    return outside


def _segment_gap(a: tuple[float, float], b: tuple[float, float], x: float, y: float) -> float:
    """Distance from the point (x, y) to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    norm = dx * dx + dy * dy
    t = 0.0 if norm == 0.0 else max(0.0, min(1.0, ((x - a[0]) * dx + (y - a[1]) * dy) / norm))
    return math.hypot(x - a[0] - t * dx, y - a[1] - t * dy)


Segment = tuple[tuple[float, float], tuple[float, float]]


def _corridor(start: tuple[float, float], end: tuple[float, float], width: float) -> Segment | None:
    """The part of the straight move of the sight from ``start`` to ``end`` a base ``width``
    wide must sweep clear (the first half-width is free: he may leave a contact); None:
    nothing to test."""
    length = math.dist(start, end)
    if length <= 1e-9:
        return None
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    skip = min(width / 2.0, length)
    a = (start[0] + ux * skip, start[1] + uy * skip)
    if length <= skip:
        return None
    return (a, end)


def _corridor_hits(lines: list[Segment], width: float, obstacles: _Obstacles) -> list[bool]:
    """Does each corridor (the shapes ``LineString(line).buffer(width / 2 - 0.01)`` makes,
    built in one call) meet an obstacle? The corridors an exact bound shows to meet one
    (:meth:`_Obstacles.surely_hit_many`) are not built."""
    sure = obstacles.surely_hit_many(lines, width)
    doubts = [line for line, hit in zip(lines, sure, strict=True) if not hit]
    if not doubts:
        return sure
    found = iter(_corridor_geos_hits(doubts, width, obstacles))
    return [True if hit else next(found) for hit in sure]


def _corridor_geos_hits(lines: list[Segment], width: float, obstacles: _Obstacles) -> list[bool]:
    """:func:`_corridor_hits` by GEOS alone: each corridor built and tested."""
    corridors = shapely.buffer(
        shapely.linestrings(np.array(lines, dtype=float)), width / 2.0 - 0.01, quad_segs=16
    )
    return obstacles.hits(corridors)


def _corridors_clear(
    start: tuple[float, float],
    ends: list[tuple[float, float]],
    width: float,
    obstacles: _Obstacles,
) -> list[bool]:
    """V-A: can the sight go straight from ``start`` to each of ``ends``? A base ``width``
    wide passes no obstacle (the first half-width is free: he may leave a contact). The
    corridors a cheap bound cannot clear are built and tested together."""
    out = [True] * len(ends)
    lines: list[Segment] = []
    tested: list[int] = []
    for k, end in enumerate(ends):
        line = _corridor(start, end, width)
        if line is not None:
            lines.append(line)
            tested.append(k)
    if lines:
        # the cheap bound, every corridor at once
        sure = obstacles.surely_clear_many(lines, width / 2.0)
        lines = [line for line, ok in zip(lines, sure, strict=True) if not ok]
        tested = [k for k, ok in zip(tested, sure, strict=True) if not ok]
    if lines:
        for k, hit in zip(tested, _corridor_hits(lines, width, obstacles), strict=True):
            out[k] = not hit
    return out


def destinations(
    state: GameState,
    mover: str,
    potential: float,
    *,
    pass_through: tuple[str, ...] = (),
    mov: float = 0.0,
) -> list[Spot]:
    """Where ``mover`` may end a move that must not end in contact (walk, run, cover): every
    spot :func:`iter_destinations` gives, in its order."""
    return list(iter_destinations(state, mover, potential, pass_through=pass_through, mov=mov))


def iter_destinations(
    state: GameState,
    mover: str,
    potential: float,
    *,
    pass_through: tuple[str, ...] = (),
    mov: float = 0.0,
    batch: int | None = None,
) -> Iterator[Spot]:
    """Where ``mover`` may end a move that must not end in contact (walk, run, cover).

    Straight moves (the most direct way, V-A) towards the nearest enemies (stopping short
    of contact), the nearest scenery, the centre and in eight directions; for each, the
    longest clear move of at most ``potential`` (whole, 3/4, 1/2 or 1/4 of it) and half of
    that; each facing the nearest enemy (V-B-1: turned in any direction at the end). Every
    spot is legal: on the table, on no base, on no scenery he may not cross, not touching
    an enemy; the corridor the base sweeps is clear of every base but those passed through
    and of the scenery he may not cross. ``mov`` is his MOV x 1: a move of at most that
    may cross landforms of his size, a longer one may not (V-A, CLARIFICATIONS §9).

    The rules above the engine may add points to end on, listed first (``move-goals``: a
    straight move that ends with the centre of the base on the point, facing the way he
    went; XX-D-1, a token) and refuse places (``move-spot``: XX-D-1, a token he may not end
    his move on); see ``engine.core.hooks``.

    The spots come in the order of :func:`destinations`, computed lazily: the moves of
    ``batch`` headings at a time (None: all at once), so that a caller who needs only the
    first few stops early (the corridor tests of a heading depend on nothing else). A batch's
    corridors and spots are each settled at once by exact numpy bounds
    (:meth:`_Obstacles.settle_many`, :meth:`Field.spot_screen`); GEOS answers only what they
    leave unknown."""
    here = field_of(state)
    base = here.base(mover)
    if potential <= 0:
        return
    me = here.owners[mover]
    enemies = [here.base(o) for o in here.ids() if here.owners[o] != me]
    centres = [(e.x, e.y) for e in enemies]
    bases = _swept_bases(here, base, potential, {mover, *pass_through})
    polygons = [b.polygon for b in bases]
    rows = [_row_of(b) for b in bases]  # kept per base: those who did not move are known
    circles = [(r[0], r[1], r[7]) for r in rows]
    cores = [(r[0], r[1], r[8]) for r in rows]
    rects = [r[:7] for r in rows]

    def obstacles_of(blocked: list[BaseGeometry]) -> _Obstacles:
        round_, inner = list(circles), list(cores)
        for shape in blocked:
            x0, y0, x1, y1 = shape.bounds
            round_.append(((x0 + x1) / 2.0, (y0 + y1) / 2.0, math.hypot(x1 - x0, y1 - y0) / 2.0))
            core = _scenery_core(shape)
            if core is not None:
                inner.append(core)
        return _Obstacles(here.table, polygons + blocked, round_, inner, rects)

    # V-A: moves of at most MOV x 1 cross landforms of his size, longer ones go round them
    far = obstacles_of(here.blocked_for(base.size, False))
    near = far if not here.same_size(base) else obstacles_of(here.blocked_for(base.size, True))
    sx, sy = base.sight
    spots: dict[tuple[float, float], Spot] = {}
    checked = has_spot_checks(state)
    for label, gx, gy in move_goals(state, mover):
        spot = _goal_spot(here, mover, base, (gx, gy), potential, mov, (near, far))
        if spot is None or (checked and spot_refusal(state, mover, spot) is not None):
            continue
        moved = math.dist(base.sight, spot.sight)
        key = (round(spot.x, 1), round(spot.y, 1))
        if key not in spots:
            spots[key] = Spot(spot.x, spot.y, spot.facing, f"to {label}", round(moved, 2))
            yield spots[key]
    heads = []
    for label, heading, goal in _headings(here, mover):
        reach = min(potential, goal)
        if reach <= 0.05:
            continue
        ux, uy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        heads.append((label, heading, reach, ux, uy))
    size = len(heads) if batch is None else max(batch, 1)
    half = base.depth / 2.0
    for first in range(0, len(heads), size):
        some = heads[first : first + size]
        bests = _longest_clear(some, (sx, sy), base.width, mov, near, far)
        # every candidate of the batch first, then the spots' tests all at once
        moves = [
            (label, heading, (sx + ux * travel, sy + uy * travel))
            for (label, heading, _, ux, uy), best in zip(some, bests, strict=True)
            for travel in (best, best / 2.0)
            if travel > 0.05
        ]
        nearest = _nearest([m[2] for m in moves], centres)
        found: list[tuple[str, Base, tuple[float, float], float, bool]] = []
        for (label, heading, sight), foe in zip(moves, nearest, strict=True):
            facing = heading
            if foe is not None:
                ex, ey = foe
                facing = math.degrees(math.atan2(ey - sight[1], ex - sight[0]))
            # rounded(placed(base, sight, facing)): the same operations, one base built
            a = math.radians(facing)
            spot = base.moved(
                round(sight[0] - math.cos(a) * half, 2),
                round(sight[1] - math.sin(a) * half, 2),
                round(facing, 1) % 360.0,
            )
            key = (round(spot.x, 1), round(spot.y, 1))
            if key in spots:
                continue
            moved = math.dist((sx, sy), spot.sight)
            if moved > potential + 1e-6:
                continue
            found.append((label, spot, key, moved, moved <= mov + 1e-6))
        screen = here.spot_screen(mover, [f[1] for f in found], [f[4] for f in found])
        for (label, spot, key, moved, short), known in zip(found, screen, strict=True):
            if key in spots or known is False:
                continue
            if known is None and here.spot_problem(
                mover, spot, enemies_apart=True, at_most_mov=short
            ):
                continue
            if checked and spot_refusal(state, mover, spot) is not None:
                continue
            spots[key] = Spot(spot.x, spot.y, spot.facing, label, round(moved, 2))
            yield spots[key]


SWEEP_SLACK_CM = 1e-3
"""Slack (cm) of :func:`_swept_bases`, far above the rounding of a corner or a hypot."""


def _swept_bases(here: Field, base: Base, potential: float, skip: set[str]) -> list[Base]:
    """The bases but those of ``skip`` (in the field's order) that a straight move of at most
    ``potential`` cm of ``base``'s sight may sweep (V-A): every corridor of
    :func:`iter_destinations` lies within ``potential`` plus half his width of his sight
    (:func:`_corridor`), every base within its outer radius of its centre. A base farther
    meets no corridor, so the corridors' answers are the same without it."""
    sx, sy = base.sight
    limit = potential + base.width / 2.0 + SWEEP_SLACK_CM
    out = []
    for i in here.ids():
        if i not in skip:
            b = here.base(i)
            if math.hypot(b.x - sx, b.y - sy) <= limit + outer_radius(b):
                out.append(b)
    return out


def _nearest(
    points: list[tuple[float, float]], centres: list[tuple[float, float]]
) -> list[tuple[float, float] | None]:
    """For each point the nearest of ``centres`` (the first of equals), as
    ``min(centres, key=lambda c: math.dist(c, point))`` finds it (None: no centres): every
    distance at once in numpy; a point whose two nearest are within 1e-9 cm of each other
    (numpy's distances may differ from math.dist's in the last bit) is left to ``min``."""
    if not centres or not points:
        return [None] * len(points)
    if len(centres) == 1:
        return [centres[0]] * len(points)
    gaps = np.hypot(
        *(np.array(points)[:, None, :] - np.array(centres)[None, :, :]).transpose(2, 0, 1)
    )
    order = np.argpartition(gaps, 1, axis=1)[:, :2]
    two = np.take_along_axis(gaps, order, axis=1)
    first = np.argmin(gaps, axis=1).tolist()
    close = (np.abs(two[:, 0] - two[:, 1]) <= 1e-9).tolist()
    return [
        min(centres, key=lambda c: math.dist(c, point)) if tie else centres[k]
        for point, k, tie in zip(points, first, close, strict=True)
    ]


_FRACTIONS = (1.0, 0.75, 0.5, 0.25)
_FRACTION_COLUMN = np.array(_FRACTIONS, dtype=float)[:, None]


def _longest_clear(
    heads: list[tuple[str, float, float, float, float]],
    sight: tuple[float, float],
    width: float,
    mov: float,
    near: _Obstacles,
    far: _Obstacles,
) -> list[float]:
    """For each heading (label, direction, reach, ux, uy) the longest clear straight move
    of the whole, 3/4, 1/2 or 1/4 of its reach (0: none); moves of at most ``mov`` are
    tested against ``near``, longer ones against ``far`` (V-A). (The cheap bound of every
    move's corridor is taken at once for each set of obstacles, then the corridors it
    cannot clear are tested a fraction at a time, as :func:`_corridors_clear` would.)"""
    if heads and near._rects is not None and far._rects is not None:
        return _longest_settled(heads, sight, width, mov, near, far)
    sx, sy = sight
    # every move's corridor, its obstacles and whether the cheap bound clears it
    plan: list[list[tuple[Segment | None, _Obstacles, bool | None]]] = []
    bound: dict[int, tuple[_Obstacles, list[Segment], list[tuple[int, int]]]] = {}
    for n, fraction in enumerate(_FRACTIONS):
        row: list[tuple[Segment | None, _Obstacles, bool | None]] = []
        for k, head in enumerate(heads):
            t = head[2] * fraction
            end = (sx + head[3] * t, sy + head[4] * t)
            obstacles = far if near is far or t > mov + 1e-6 else near
            line = _corridor((sx, sy), end, width)
            row.append((line, obstacles, line is None))
            if line is not None:
                group = bound.setdefault(id(obstacles), (obstacles, [], []))
                group[1].append(line)
                group[2].append((n, k))
        plan.append(row)
    for obstacles, lines, keys in bound.values():
        cleared = obstacles.surely_clear_many(lines, width / 2.0)
        for (n, k), ok in zip(keys, cleared, strict=True):
            line, _, _ = plan[n][k]
            plan[n][k] = (line, obstacles, ok)
        # the corridors not cleared that are surely hit: known blocked (None)
        rest = [i for i, ok in enumerate(cleared) if not ok]
        known = obstacles.surely_hit_many([lines[i] for i in rest], width)
        for i in (i for i, sure in zip(rest, known, strict=True) if sure):
            n, k = keys[i]
            plan[n][k] = (lines[i], obstacles, None)
    bests = [0.0] * len(heads)
    left = list(range(len(heads)))
    for n, fraction in enumerate(_FRACTIONS):
        clear = [True] * len(left)
        doubts: dict[int, tuple[_Obstacles, list[Segment], list[int]]] = {}
        for i, k in enumerate(left):
            line, obstacles, sure = plan[n][k]
            if sure is None:
                clear[i] = False
            elif not sure and line is not None:
                doubt = doubts.setdefault(id(obstacles), (obstacles, [], []))
                doubt[1].append(line)
                doubt[2].append(i)
        left = _geos_settled(doubts, clear, left, width, heads, fraction, bests)
    return bests


def _geos_settled(
    doubts: dict[int, tuple[_Obstacles, list[Segment], list[int]]],
    clear: list[bool],
    left: list[int],
    width: float,
    heads: list[tuple[str, float, float, float, float]],
    fraction: float,
    bests: list[float],
) -> list[int]:
    """The corridors still in doubt built by GEOS (``doubts``: per set of obstacles, the
    lines and their places in ``clear``); every heading of ``left`` whose corridor is clear
    gets ``fraction`` of its reach in ``bests``: the headings still blocked are returned."""
    for obstacles, lines, where in doubts.values():
        for i, hit in zip(where, _corridor_geos_hits(lines, width, obstacles), strict=True):
            clear[i] = not hit
    for k, ok in zip(left, clear, strict=True):
        if ok:
            bests[k] = heads[k][2] * fraction
    return [k for k, ok in zip(left, clear, strict=True) if not ok]


def _longest_settled(
    heads: list[tuple[str, float, float, float, float]],
    sight: tuple[float, float],
    width: float,
    mov: float,
    near: _Obstacles,
    far: _Obstacles,
) -> list[float]:
    """:func:`_longest_clear` with every corridor of every heading and fraction settled at
    once by :meth:`_Obstacles.settle_many` (one numpy pass per set of obstacles); GEOS
    builds only the corridors it leaves unknown, a fraction at a time, for the headings no
    longer fraction has cleared (each built as :func:`_corridor` builds it)."""
    sx, sy = sight
    rows = np.array([h[2:] for h in heads], dtype=float)  # reach, ux, uy
    travel = _FRACTION_COLUMN * rows[:, 0]  # (fraction, head)
    start = complex(sx, sy)
    # the ends (the same products and sums as the plain loop, for the bounds only: GEOS's
    # segments are built by _corridor) as complex numbers
    step = (rows[:, 1] + 1j * rows[:, 2]) * travel
    ends = start + step
    half = width / 2.0
    length = np.abs(step)
    # no corridor (nothing to test) when the move is no longer than half the width; a length
    # within 1e-9 of that is left to _corridor itself
    none = length <= half
    tested = length > half + 1e-9
    starts = start + step * (half / np.maximum(length, 1e-300))
    # 0 clear, 1 hit, -1 unknown; a heading's corridors against near or far
    state = np.where(none & (length < half - 1e-9), 0, -1)
    # a move of about half the width (a quarter of a 5 cm reach for a 2.5 cm base): its
    # corridor as _corridor builds it (none, or a sliver), settled with the others
    for n, k in zip(*np.nonzero((state == -1) & ~tested), strict=True):
        head, t = heads[k], float(travel[n, k])
        line = _corridor((sx, sy), (sx + head[3] * t, sy + head[4] * t), width)
        if line is None:
            state[n, k] = 0
        else:
            starts[n, k], ends[n, k] = complex(*line[0]), complex(*line[1])
            tested[n, k] = True
    if near is far:
        if tested.any():
            state[tested] = far.settle_many(starts[tested], ends[tested], width)
    else:
        short = travel <= mov + 1e-6
        for obstacles, pick in ((near, tested & short), (far, tested & ~short)):
            if pick.any():
                state[pick] = obstacles.settle_many(starts[pick], ends[pick], width)
    known = state.tolist()
    bests = [0.0] * len(heads)
    left = list(range(len(heads)))
    for n, fraction in enumerate(_FRACTIONS):
        clear = [True] * len(left)
        doubts: dict[int, tuple[_Obstacles, list[Segment], list[int]]] = {}
        for i, k in enumerate(left):
            answer = known[n][k]
            if answer == 1:
                clear[i] = False
            elif answer == -1:
                head = heads[k]
                t = head[2] * fraction
                line = _corridor((sx, sy), (sx + head[3] * t, sy + head[4] * t), width)
                if line is None:
                    continue
                obstacles = far if near is far or t > mov + 1e-6 else near
                doubt_ = doubts.setdefault(id(obstacles), (obstacles, [], []))
                doubt_[1].append(line)
                doubt_[2].append(i)
        left = _geos_settled(doubts, clear, left, width, heads, fraction, bests)
        if not left:
            break
    return bests


def _goal_spot(
    here: Field,
    mover: str,
    base: Base,
    goal: tuple[float, float],
    potential: float,
    mov: float,
    obstacles: tuple[_Obstacles, _Obstacles],
) -> Base | None:
    """The base of ``mover`` after a straight move, facing the way he went, that puts its
    centre on ``goal`` — or, when that is too far, ``goal`` just inside its front edge
    (None: too far still, or the way or the place is not clear, V-A)."""
    sx, sy = base.sight
    gap = math.dist((sx, sy), goal)
    if gap <= 0.05:
        return None
    facing = math.degrees(math.atan2(goal[1] - sy, goal[0] - sx))
    a = math.radians(facing)
    for beyond in (base.depth / 2.0, GOAL_INSIDE_CM):
        sight = (goal[0] + math.cos(a) * beyond, goal[1] + math.sin(a) * beyond)
        spot = rounded(placed(base, sight, facing))
        moved = math.dist((sx, sy), spot.sight)
        if moved <= potential + 1e-6:
            break
    else:
        return None
    short = moved <= mov + 1e-6
    near, far = obstacles
    if not _corridors_clear((sx, sy), [spot.sight], base.width, near if short else far)[0]:
        return None
    if here.spot_problem(mover, spot, enemies_apart=True, at_most_mov=short):
        return None
    return spot


GOAL_INSIDE_CM = 0.3
"""How far inside the front edge of the base a goal lies when the mover cannot reach it with
the centre of his base (:func:`destinations`)."""


def deployment_spots(state: GameState, fighter: Fighter) -> list[Spot]:
    """III-B-2: a grid of legal places in the player's deployment area, facing the median
    line; none on another base or on scenery he cannot cross, none on or in scenario
    scenery (XX-A-3, C3-DEPLOYMENT); a Scout not within MOV of scenario scenery (XX-A-3). The
    area is open (III-A-1, CLARIFICATIONS §9): no base touches the 15 cm or the 50 cm line.
    With three players or more (XX-F-1) the spots face the layout's centre, in ranks across
    that facing (:func:`_layout_spots`)."""
    zone = deployment_zone(state, fighter.player)
    facing = median_facing(state, fighter.player)
    template = base_of(state, fighter)
    check = _deployment_check(state, fighter)
    if ground_layout(_ground(state)) is not None:
        return _layout_spots(zone, facing, template, check)
    minx, miny, maxx, maxy = zone.area.bounds
    half = max(template.width, template.depth) / 2.0
    grid = []
    x = _up(minx + half)  # the grid starts inside the open bound, not 0.005 mm short of it
    while x <= maxx - half + 1e-9:
        y = _up(miny + half)
        while y <= maxy - half + 1e-9:
            grid.append((round(x, 2), round(y, 2)))
            y += GRID_CM
        x += GRID_CM
    # the places the boxes alone clear (most of them) are not built nor tested one by one
    clear = check.surely_clear(template, facing, grid)
    return [
        Spot(gx, gy, facing, "deployment area", 0.0)
        for (gx, gy), ok in zip(grid, clear, strict=True)
        if ok or check(template.moved(gx, gy, facing))
    ]


def _layout_spots(
    zone: Zone, facing: float, template: Base, check: Callable[[Base], bool]
) -> list[Spot]:
    """XX-F-1: the grid of a layout's area laid along the facing (ranks across it, files
    along it, :data:`GRID_CM` apart), so that a corner area facing the centre at 45° holds as
    many bases as a square one. The grid goes through the area's centre or half a step beside
    it along either axis, whichever holds the most spots (the first of equals); sorted by x,
    then y."""
    best: list[Spot] = []
    for shift_u, shift_v in ((0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)):
        spots = _rotated_grid(zone, facing, template, check, shift_u, shift_v)
        if len(spots) > len(best):
            best = spots
    return best


def _rotated_grid(
    zone: Zone,
    facing: float,
    template: Base,
    check: Callable[[Base], bool],
    shift_u: float,
    shift_v: float,
) -> list[Spot]:
    a = math.radians(facing)
    ux, uy = math.cos(a), math.sin(a)
    minx, miny, maxx, maxy = zone.area.bounds
    cx, cy = (minx + maxx) / 2.0, (miny + maxy) / 2.0
    steps = math.ceil(math.hypot(maxx - minx, maxy - miny) / 2.0 / GRID_CM) + 1
    spots: dict[tuple[float, float], Spot] = {}
    for i in range(-steps, steps + 1):
        for j in range(-steps, steps + 1):
            along, across = GRID_CM * (i + shift_u), GRID_CM * (j + shift_v)
            x = round(cx + along * ux - across * uy, 2)
            y = round(cy + along * uy + across * ux, 2)
            if not (minx <= x <= maxx and miny <= y <= maxy) or (x, y) in spots:
                continue
            base = template.moved(x, y, facing)
            if check(base):
                spots[(x, y)] = Spot(x, y, facing, "deployment area", 0.0)
    return [spots[k] for k in sorted(spots)]


def can_deploy(state: GameState, fighter: Fighter, x: float, y: float, facing: float) -> bool:
    """III-B-2: may ``fighter`` be deployed with his base's centre at (x, y) facing
    ``facing``? The tests of :func:`deployment_spots`: wholly in his open deployment area
    (III-A-1), on no base, on no scenery he cannot cross, off scenario scenery (XX-A-3)."""
    return _deployment_check(state, fighter)(base_of(state, fighter).moved(x, y, facing))


def _up(value: float) -> float:
    """``value`` rounded up to the 0.01 cm the engine stores."""
    return math.ceil(round(value * 100.0, 6)) / 100.0


def median_facing(state: GameState, player: int) -> float:
    """The facing straight at the median line from ``player``'s side of it, towards the
    enemy's table edge (III-A-1; deployment areas not chosen yet: Player 1 in area 1). With
    three players or more (XX-F-1), from the centre of his area towards the layout's centre
    (0.1 degree, in [0, 360))."""
    ground = _ground(state)
    zone = ground.zones[player] if ground.zones is not None else player
    layout = ground_layout(ground)
    if layout is not None:
        x0, y0, x1, y1 = layout.areas[zone]
        cx, cy, _ = layout.centre
        angle = math.degrees(math.atan2(cy - (y0 + y1) / 2.0, cx - (x0 + x1) / 2.0))
        return round(angle % 360.0, 1) % 360.0
    if ground.split == "width":
        return 0.0 if zone == 0 else 180.0
    return 90.0 if zone == 0 else 270.0


def deployable(state: GameState, fighter: Fighter, base: Base) -> bool:
    """III-B-2: may ``fighter``'s base stand at ``base`` when he is deployed (wholly in his
    open area, on no other base, on no scenery he cannot cross or scenario scenery; a Scout
    beyond MOV of scenario scenery) — the test each of :func:`deployment_spots` passes."""
    return _deployment_check(state, fighter)(base)


def _deployment_check(state: GameState, fighter: Fighter) -> _Deployable:
    here = field_of(state)
    zone = deployment_zone(state, fighter.player)
    ground = _ground(state)
    profile = state.profile(fighter.profile)
    scenario = [scenery_of(p).footprint for p in ground.scenery or () if p.scenario]
    scout = any(a.split("/")[0].strip().casefold() == "scout" for a in profile.abilities)
    mov = profile.mov if scout else None
    return _Deployable(here, fighter.id, zone.area, scenario, mov)


class _Deployable:
    """III-B-2: the test each place of :func:`deployment_spots` passes, for one fighter on
    one field: the bounds of the area and of the scenery are taken once, not per place."""

    def __init__(
        self,
        here: Field,
        fighter_id: str,
        area: BaseGeometry,
        scenario: list[BaseGeometry],
        scout_mov: float | None,
    ) -> None:
        self.here, self.fighter_id, self.area = here, fighter_id, area
        self.scout_mov = scout_mov
        self.box = _bounds(area) if _is_box(area) else None
        # a passable element blocks the sizes up to its own (its rank), another every size
        self.scenery = [
            (e.rank if e.passable else None, e.footprint, _bounds(e.footprint))
            for e in here.scenery
        ]
        self.scenario = [(shape, _bounds(shape)) for shape in scenario]

    def surely_clear(
        self, template: Base, facing: float, places: list[tuple[float, float]]
    ) -> list[bool]:
        """For each place (x, y) of ``template`` turned to ``facing``: do bounding boxes
        alone say it may stand there -- its outer box (:func:`_outer_box`, the same
        arithmetic on every place at once) wholly in a box-shaped area, meeting no other
        base's box, no box of scenery it may not stand on nor of scenario scenery, and
        farther than a Scout's MOV (1e-3 cm to spare) from each of these? False: not
        settled (the place is tested by :meth:`__call__`)."""
        if not places or self.box is None:
            return [False] * len(places)
        xs = np.array([p[0] for p in places], dtype=float)
        ys = np.array([p[1] for p in places], dtype=float)
        x0, y0, x1, y1 = _outer_boxes(template, facing, xs, ys)
        ax0, ay0, ax1, ay1 = self.box
        clear = (ax0 <= x0) & (ay0 <= y0) & (x1 <= ax1) & (y1 <= ay1)
        here = self.here
        if here._bounds is None:
            here._bounds = [(i, _outer_box(here.base(i))) for i in here.ids()]
        others = [b for i, b in here._bounds if i != self.fighter_id]
        rank = size_rank(template.size)
        blocking = [b for r, _, b in self.scenery if r is None or r >= rank]
        blocking += [b for _, b in self.scenario]
        if others or blocking:
            # _boxes_meet(box, b) and the test of Field.overlap, every box against every place
            held = np.array(others + blocking, dtype=float)
            bx0, by0, bx1, by1 = (held[:, k, None] for k in range(4))
            meet = (bx0 <= x1) & (x0 <= bx1) & (by0 <= y1) & (y0 <= by1)
            clear &= ~meet.any(axis=0)
        if self.scout_mov is not None:
            for _, b in self.scenario:
                dx = np.maximum(np.maximum(x0 - b[2], b[0] - x1), 0.0)
                dy = np.maximum(np.maximum(y0 - b[3], b[1] - y1), 0.0)
                clear &= np.hypot(dx, dy) > self.scout_mov + 1e-3
        return [bool(c) for c in clear]

    def __call__(self, base: Base) -> bool:
        # the footprint is only built when a cheap bound cannot settle a test (see
        # spot_problem)
        box_ = _outer_box(base)
        inside = self.box is not None and (
            self.box[0] <= box_[0]
            and self.box[1] <= box_[1]
            and box_[2] <= self.box[2]
            and box_[3] <= self.box[3]
        )
        if not inside and not _cover(self.area).covers(base.polygon):
            return False
        if self.here.overlap(self.fighter_id, base, box_) > 1e-4:
            return False
        rank = size_rank(base.size)
        for element_rank, footprint, bounds in self.scenery:
            if (
                (element_rank is None or element_rank >= rank)
                and _boxes_meet(box_, bounds)
                and base.polygon.intersects(footprint)
            ):
                return False
        for shape, bounds in self.scenario:
            if _boxes_meet(box_, bounds) and base.polygon.intersects(shape):
                return False
            if (
                self.scout_mov is not None
                and _box_gap(box_, bounds) <= self.scout_mov + 1e-6
                and float(base.polygon.distance(shape)) <= self.scout_mov
            ):
                return False
        return True


@lru_cache(maxsize=256)
def _is_box(area: BaseGeometry) -> bool:
    """Is ``area`` its own bounding box (a rectangle along the axes)?"""
    return bool(area.equals(box(*area.bounds)))


def shot_distance(here: Field, shooter: str, target: str) -> float:
    """VI-A-1: from the shooter's sight to the edge of the target's base."""
    return point_distance(here.base(target), *here.base(shooter).sight)


def in_contact_bases(a: Base, b: Base) -> bool:
    return in_contact(a, b)
