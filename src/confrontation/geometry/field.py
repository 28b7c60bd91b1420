"""A battlefield snapshot: table, scenery and fighters, with cached shapes for fast queries.

The engine builds one per activation (positions don't change while it asks several
questions); each query is answered by the pure functions of the other modules.
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import shapely

from confrontation.geometry.bases import Base
from confrontation.geometry.contact import (
    ContactPlacement,
    in_contact,
    nearest_contact_position,
    outer_radius,
)
from confrontation.geometry.measure import distance
from confrontation.geometry.paths import Path, PathSearch
from confrontation.geometry.scenery import Scenery, crossable
from confrontation.geometry.sight import (
    Barrier,
    Corridors,
    Sight,
    line_of_sight,
    sees,
    sight_of_shape,
)
from confrontation.geometry.table import Table

#: sight answers kept across battlefields, keyed by the interned ids (:func:`_key_id`) of the
#: source, the target and the barriers between them, in order
_SIGHTS: OrderedDict[tuple[int, int, tuple[int, ...]], Sight] = OrderedDict()
_SIGHTS_SIZE = 50_000
_SEES: OrderedDict[tuple[int, int, tuple[int, ...]], bool] = OrderedDict()
_KEY_IDS: dict[Base | Scenery, int] = {}
_KEY_IDS_SIZE = 50_000
_NEXT_ID = itertools.count()
#: slack (cm) of :meth:`Battlefield.contacts`' screen by centres, far above any rounding
NEAR_SLACK_CM = 1e-6


def _key_id(key: Base | Scenery) -> int:
    """A number for the value ``key`` (a base or an element of scenery): equal values get
    the same number, so that a sight key is a tuple of ints, hashed at once, rather than of
    records whose fields are hashed on every query. Numbers are never reused (a full table
    starts again, with the answers it numbered)."""
    found = _KEY_IDS.get(key)
    if found is None:
        if len(_KEY_IDS) >= _KEY_IDS_SIZE:
            _KEY_IDS.clear()
            _SIGHTS.clear()
            _SEES.clear()
        found = _KEY_IDS[key] = next(_NEXT_ID)
    return found


@lru_cache(maxsize=4096)
def _base_barrier(base: Base) -> Barrier:
    """The base as a barrier (shared: its convex pieces are computed once)."""
    return Barrier.of_base(base)


@lru_cache(maxsize=256)
def _scenery_barrier(element: Scenery) -> Barrier:
    return Barrier(element.footprint, element.height)


@dataclass
class Battlefield:
    """Where everything stands. ``fighters`` maps an id to its base.

    What the queries share is built on the first query that needs it (most battlefields
    answer a few questions: a move's path, or no sight at all): the barriers and their
    numbers for sight, the fighters per level for paths."""

    table: Table
    fighters: Mapping[str, Base]
    scenery: tuple[Scenery, ...] = ()
    _ids: list[str] = field(init=False, repr=False)
    _index: dict[str, int] = field(init=False, repr=False)
    _searches: dict[tuple[int, float, tuple[bool, ...]], PathSearch] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._ids = list(self.fighters)
        self._index = {i: k for k, i in enumerate(self._ids)}
        self._searches = {}
        self._corridors: Corridors | None = None

    @cached_property
    def _keys(self) -> list[Base | Scenery]:
        """The fighters' bases (in ``_ids`` order), then the scenery."""
        return [*(self.fighters[i] for i in self._ids), *self.scenery]

    @cached_property
    def _barriers(self) -> list[Barrier]:
        """II-D-3: what may block sight, one per :attr:`_keys`."""
        barriers = [_base_barrier(self.fighters[i]) for i in self._ids]
        return barriers + [_scenery_barrier(s) for s in self.scenery]

    @cached_property
    def _key_ids(self) -> list[int]:
        """The sight keys' number of each of :attr:`_keys` (:func:`_key_id`)."""
        return [_key_id(k) for k in self._keys]

    @cached_property
    def _level_ids(self) -> dict[int, list[str]]:
        """The fighters at each level (0 and 1 always), for paths (V-A)."""
        levels = sorted({b.level for b in self.fighters.values()} | {0, 1})
        return {lv: [i for i in self._ids if self.fighters[i].level == lv] for lv in levels}

    @cached_property
    def _level_index(self) -> dict[int, dict[str, int]]:
        return {lv: {i: k for k, i in enumerate(ids)} for lv, ids in self._level_ids.items()}

    def distance(self, a: str, b: str) -> float:
        return distance(self.fighters[a], self.fighters[b])

    def in_contact(self, a: str, b: str) -> bool:
        return in_contact(self.fighters[a], self.fighters[b])

    def contacts(self, a: str) -> list[str]:
        """Ids of the fighters in contact with ``a`` (II-E), in the battlefield's order: those
        whose footprint lies within 0.01 cm of his and :func:`in_contact` with him. A fighter
        whose centre is farther than the two outer radii and 0.01 cm (and
        :data:`NEAR_SLACK_CM`) is not measured: no point of his footprint is that near."""
        me = self.fighters[a]
        reach = outer_radius(me) + 0.01 + NEAR_SLACK_CM
        out = []
        for i in self._ids:
            b = self.fighters[i]
            if i == a or math.hypot(b.x - me.x, b.y - me.y) > reach + outer_radius(b):
                continue
            if shapely.dwithin(me.polygon, b.polygon, 0.01) and in_contact(me, b):
                out.append(i)
        return out

    def sight(self, source: str, target: str) -> Sight:
        """II-D-3: ``source`` looking at ``target`` past every other fighter and scenery."""
        s, t = self.fighters[source], self.fighters[target]
        if in_contact(s, t):
            return Sight.SEES  # II-D-4
        if s.level != 0 or t.level != 0:
            return line_of_sight(s, t)  # II-F-1: no barrier counts
        chosen = self._chosen(source, target)
        # the same bases and scenery in the same order give the same answer, whatever
        # battlefield they are on: answers are kept across battlefields
        key = self._sight_key(source, target, chosen)
        seen = _SIGHTS.get(key)
        if seen is None:
            seen = line_of_sight(s, t, [self._barriers[i] for i in chosen])
            _SIGHTS[key] = seen
            if len(_SIGHTS) > _SIGHTS_SIZE:
                _SIGHTS.popitem(last=False)
        return seen

    def sees(self, source: str, target: str) -> bool:
        """``sight(source, target).any`` (V-B-3: what a charge or a shot asks), answered by
        :func:`~.sight.sees`, which skips the overlay telling full from partial sight."""
        s, t = self.fighters[source], self.fighters[target]
        if in_contact(s, t):
            return True  # II-D-4
        if s.level != 0 or t.level != 0:
            return line_of_sight(s, t).any  # II-F-1: no barrier counts
        chosen = self._chosen(source, target)
        key = self._sight_key(source, target, chosen)
        seen = _SIGHTS.get(key)
        if seen is not None:
            return seen.any
        known = _SEES.get(key)
        if known is None:
            known = sees(s, t, [self._barriers[i] for i in chosen])
            _SEES[key] = known
            if len(_SEES) > _SIGHTS_SIZE:
                _SEES.popitem(last=False)
        return known

    def _sight_key(
        self, source: str, target: str, chosen: list[int]
    ) -> tuple[int, int, tuple[int, ...]]:
        ids = self._key_ids
        index = self._index
        return (ids[index[source]], ids[index[target]], tuple(ids[i] for i in chosen))

    def _chosen(self, source: str, target: str) -> list[int]:
        """The fighters and scenery (indices, ascending) that may meet the hull of
        ``source``'s sight and ``target``'s base: the only possible barriers between them
        (:class:`~.sight.Corridors`)."""
        corridors = self._corridors
        if corridors is None:  # built on the first sight question (numpy, no GEOS call)
            corridors = self._corridors = Corridors(list(self.fighters.values()), self._barriers)
        s, t = self.fighters[source], self.fighters[target]
        return corridors.between(s, self._index[source], t, self._index[target])

    def sight_to_scenery(self, source: str, element: Scenery) -> Sight:
        """II-D-3: ``source`` looking at the element of scenery ``element`` past every other
        fighter and element (its own footprint is the target, no barrier)."""
        s = self.fighters[source]
        barriers = [
            b
            for k, b in zip(self._keys, self._barriers, strict=True)
            if k is not s and not (isinstance(k, Scenery) and k.name == element.name)
        ]
        return sight_of_shape(s, element.footprint, element.height, barriers)

    def path(
        self,
        mover: str,
        goal: tuple[float, float] | str,
        *,
        pass_through: Collection[str] = (),
        move_at_most_mov: bool = False,
        reach: float = math.inf,
    ) -> Path | None:
        """V-A: the path of ``mover``'s sight to a point or to fighter ``goal``'s base;
        ``reach``: only wanted if at most that long (see :func:`~.paths.shortest_path`)."""
        m = self.fighters[mover]
        blocking = tuple(
            m.level == 0 and not crossable(s, m.size, move_at_most_mov) for s in self.scenery
        )
        search = self._path_search(m.level, m.width, blocking)
        at_level = self._level_index[m.level]
        skip = [at_level[i] for i in (mover, *pass_through) if i in at_level]
        if isinstance(goal, str):
            if goal in at_level:
                skip.append(at_level[goal])
            end: tuple[float, float] | Base = self.fighters[goal]
            return search.query(m.sight, end, skip=skip, reach=reach)
        return search.query(m.sight, goal, skip=skip, reach=reach)

    def _path_search(self, level: int, width: float, blocking: tuple[bool, ...]) -> PathSearch:
        """V-A: the obstacles of a move at ``level`` (every fighter there, the scenery flagged
        in ``blocking``) for a base ``width`` cm wide; built once per key."""
        key = (level, width, blocking)
        search = self._searches.get(key)
        if search is None:
            ids = self._level_ids[level]
            shapes = [self.fighters[i].polygon for i in ids]
            shapes += [s.footprint for s, b in zip(self.scenery, blocking, strict=True) if b]
            search = PathSearch(shapes, width, self.table.area)
            self._searches[key] = search
        return search

    def contact_position(
        self,
        mover: str,
        target: str,
        *,
        reference: tuple[float, float] | None = None,
        accept: Callable[[ContactPlacement], bool] | None = None,
    ) -> ContactPlacement | None:
        """Nearest legal place in contact with ``target``; fighters already in contact with
        the target may be pushed slightly (II-E-1); ``accept`` may refuse places (the pushed
        fighters are indices into the fighters but ``mover`` and ``target``, in order)."""
        m, t = self.fighters[mover], self.fighters[target]
        ids = [i for i in self._ids if i not in (mover, target)]
        others = [self.fighters[i] for i in ids]
        pushable = [k for k, b in enumerate(others) if in_contact(b, t)]
        blocking = [s.footprint for s in self.scenery if not s.passable]
        return nearest_contact_position(
            m,
            t,
            others,
            blocking,
            reference=reference,
            table=self.table.area,
            pushable=pushable,
            accept=accept,
        )
