"""The contact round of issue 22 answers as the code it replaced (frozen in
``ref_contact_31.py``): a :class:`ContactSearch` asked again and again -- other references,
other ``accept`` tests -- gives what a fresh search gives each time, pushes tried one ring at a
time give the pushes of the whole list, and every contact placement of whole games is the
old one."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np
import pytest
import ref_contact_31
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box
from test_fast_equivalence import fighters, scenery

from confrontation.engine.table import field as table_field
from confrontation.engine.table.field import Field
from confrontation.geometry import Base, Battlefield, Scenery, Table, in_contact
from confrontation.geometry.bases import Shape
from confrontation.geometry.contact import (
    _PUSH_COS,
    _PUSH_RADII,
    _PUSH_SIN,
    ContactPlacement,
    ContactSearch,
    _Edge,
    _moved_polygons,
    _polygons,
    _push,
)
from confrontation.sim.game import GameConfig, play_game

TABLE = Table()


def _refusing(seed: int) -> Callable[[ContactPlacement], bool]:
    """A deterministic ``accept`` that refuses about half the places (by their position)."""
    return lambda p: (int(p.base.x * 1000) + int(p.base.y * 1000) + seed) % 2 == 0


@pytest.mark.rule("II-E-1", "II-E-3", "V-B-3")
@settings(max_examples=40, deadline=None)
@given(fighters(n_max=8), scenery(), st.data())
def test_a_kept_search_answers_as_a_fresh_one(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    ids = list(placed)
    mover = data.draw(st.sampled_from(ids))
    target = data.draw(st.sampled_from([i for i in ids if i != mover]))
    m, t = placed[mover], placed[target]
    others = [placed[i] for i in ids if i not in (mover, target)]
    pushable = [k for k, o in enumerate(others) if in_contact(o, t)]
    blocking = [s.footprint for s in elements if not s.passable]
    search = ContactSearch(m, t, others, blocking, table=TABLE.area, pushable=lambda: pushable)
    refs = [m.sight, *(o.centre for o in others[:2])]
    for _ in range(4):
        ref = data.draw(st.sampled_from(refs))
        which = data.draw(st.sampled_from([None, 0, 1, 2]))
        accept = None if which is None else _refusing(which)
        got = search.nearest(ref, accept)
        want = ref_contact_31.nearest_contact_position(
            m,
            t,
            others,
            blocking,
            reference=ref,
            table=TABLE.area,
            pushable=pushable,
            accept=accept,
        )
        assert got == want


@pytest.mark.rule("II-E-1")
def test_pushes_tried_ring_by_ring_are_those_of_the_whole_list() -> None:
    mover, target, ring = _ringed()
    placed = ContactSearch(mover, target, ring, table=TABLE.area, pushable=[0, 1, 2, 3]).nearest()
    assert placed is not None and placed.pushed
    tried = 0
    for dx in (-0.4, -0.1, 0.0, 0.1, 0.3):
        new = placed.base.moved(placed.base.x + dx, placed.base.y)
        got = _push(new, target, ring, [0, 1, 2, 3], [], TABLE.area)
        assert got == ref_contact_31._push(new, target, ring, [0, 1, 2, 3], [], TABLE.area)
        tried += got is not None
    assert tried > 2
    assert placed == ref_contact_31.nearest_contact_position(
        mover, target, ring, table=TABLE.area, pushable=[0, 1, 2, 3]
    )


@pytest.fixture
def checked_placements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every contact placement of the games played checked against the old search; yields
    the number of placements checked (and how many of them asked a kept search again)."""
    counts = [0, 0]
    contact_position = Field.contact_position

    def checked(
        self: Field,
        mover: str,
        target: str,
        reference: tuple[float, float] | None = None,
        accept: Callable[[ContactPlacement], bool] | None = None,
    ) -> ContactPlacement | None:
        again = (mover, target) in self._placing
        got = contact_position(self, mover, target, reference, accept)
        here: Battlefield = self.battlefield
        t = here.fighters[target]
        others = [b for i, b in here.fighters.items() if i not in (mover, target)]
        want = ref_contact_31.nearest_contact_position(
            here.fighters[mover],
            t,
            others,
            [s.footprint for s in here.scenery if not s.passable],
            reference=reference,
            table=here.table.area,
            pushable=[k for k, b in enumerate(others) if in_contact(b, t)],
            accept=accept,
        )
        assert got == want
        counts[0] += 1
        counts[1] += again
        return got

    monkeypatch.setattr(Field, "contact_position", checked)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    yield counts
    table_field._FIELDS.clear()
    table_field._LAST.clear()


def test_every_placement_of_whole_games_is_the_old_one(checked_placements: list[int]) -> None:
    for seed in (0, 1, 2):
        play_game(GameConfig(agents=("greedy", "greedy"), seed=seed))
    play_game(GameConfig(agents=("random", "random"), seed=2))
    checked, again = checked_placements
    assert checked > 50 and again > 5


@pytest.mark.rule("II-E-1")
@settings(max_examples=40, deadline=None)
@given(fighters(n_max=10), scenery(), st.data())
def test_the_boxed_screen_flags_what_the_full_screen_flags(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    ids = list(placed)
    mover = data.draw(st.sampled_from(ids))
    target = data.draw(st.sampled_from([i for i in ids if i != mover]))
    m, t = placed[mover], placed[target]
    others = [placed[i] for i in ids if i not in (mover, target)]
    blocking = [s.footprint for s in elements if not s.passable]
    search = ContactSearch(m, t, others, blocking, table=TABLE.area)
    blocker = search.blocker()
    assert search.room is not None
    edge = _Edge(m, t, m.sight)
    ks = np.arange(edge.count)
    boxed = edge.surely_blocked(ks, blocker, search.room)
    assert boxed.tolist() == edge.surely_blocked(ks, blocker).tolist()


def _ringed() -> tuple[Base, Base, list[Base]]:
    """A newcomer, a large target and the four fighters ringing it: 6.25 mm free at each
    end of a side, so the newcomer needs a push to reach it (II-E-1)."""
    target = Base.of("large", "square", 50, 30)
    ring = [
        Base.of("normal", "square", 50, 26.875, 90),
        Base.of("normal", "square", 50, 33.125, 270),
        Base.of("normal", "square", 46.875, 30, 0),
        Base.of("normal", "square", 53.125, 30, 180),
    ]
    return Base.of("normal", "square", 50, 10), target, ring


def _ring() -> tuple[Base, list[Base], Base]:
    """A large target ringed by four fighters, and the place a newcomer takes by pushing."""
    mover, target, ring = _ringed()
    placed = ContactSearch(mover, target, ring, table=TABLE.area, pushable=[0, 1, 2, 3]).nearest()
    assert placed is not None and placed.pushed
    return target, ring, placed.base


#: far from the ring: bases and a shape no push can meet
FAR = [Base.of("normal", "square", 10.0 + 4 * k, 80.0) for k in range(10)]


@pytest.mark.rule("II-E-1")
@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(44.0, 56.0), st.floats(22.0, 38.0)), max_size=8),
    st.floats(-0.4, 0.3),
    st.booleans(),
)
def test_a_push_looks_only_at_what_it_could_meet(
    extra: list[tuple[float, float]], dx: float, rock: bool
) -> None:
    """``_push`` builds its blocker of the bases and shapes near the pushed fighter alone
    (``_near_push``): the same pushes as the old search, which merged every base on the
    table, with bystanders close enough to block a push and far ones alike."""
    target, ring, place = _ring()
    others = ring + [Base.of("small", "round", x, y) for x, y in extra] + FAR
    obstacles = [box(5.0, 5.0, 8.0, 8.0)] + ([box(47.0, 22.0, 48.2, 24.0)] if rock else [])
    new = place.moved(place.x + dx, place.y)
    got = _push(new, target, others, [0, 1, 2, 3], obstacles, TABLE.area)
    assert got == ref_contact_31._push(new, target, others, [0, 1, 2, 3], obstacles, TABLE.area)


@pytest.mark.rule("II-E-1")
def test_a_near_bystander_still_blocks_a_push() -> None:
    """The case the screen must not lose: a base just beyond the pushed fighter, where the
    push would go, is in its blocker (and far bases change nothing)."""
    target, ring, place = _ring()
    alone = _push(place, target, ring, [0, 1, 2, 3], [], TABLE.area)
    assert alone is not None
    assert _push(place, target, ring + FAR, [0, 1, 2, 3], [], TABLE.area) == alone
    (i, moved), *_ = alone
    pushed = ring[i]
    # a bystander where the push went, just clear of the pushed fighter's old place
    away = (moved.x - pushed.x, moved.y - pushed.y)
    size = math.hypot(*away)
    by = pushed.moved(pushed.x + away[0] / size * 2.6, pushed.y + away[1] / size * 2.6)
    crowded = [*ring, by]
    got = _push(place, target, crowded, [0, 1, 2, 3], [], TABLE.area)
    assert got != alone
    assert got == ref_contact_31._push(place, target, crowded, [0, 1, 2, 3], [], TABLE.area)
    # the same with a rock where the push went
    rock = by.polygon.envelope
    got = _push(place, target, ring, [0, 1, 2, 3], [rock], TABLE.area)
    assert got != alone
    assert got == ref_contact_31._push(place, target, ring, [0, 1, 2, 3], [rock], TABLE.area)


@pytest.mark.rule("II-E-1")
@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["round", "square"]),
    st.sampled_from(["small", "normal", "large", "very-large"]),
    st.floats(0.0, 360.0),
    st.floats(5.0, 115.0),
    st.floats(5.0, 115.0),
)
def test_pushed_places_built_in_bulk_are_the_bases_footprints(
    shape: Shape, size: str, facing: float, x: float, y: float
) -> None:
    """``_moved_polygons`` gives, vertex for vertex, the footprints of the moved bases that
    the pushes used to build one by one (``_polygons`` of ``Base.moved``)."""
    base = Base.of(size, shape, x, y, facing)
    xs = x + _PUSH_RADII[:, None] * _PUSH_COS[None, :]
    ys = y + _PUSH_RADII[:, None] * _PUSH_SIN[None, :]
    bulk = _moved_polygons(base, xs.ravel(), ys.ravel())
    one_by_one = _polygons([base.moved(a, b) for a, b in zip(xs.ravel(), ys.ravel(), strict=True)])
    for got, want in zip(bulk, one_by_one, strict=True):
        assert np.array_equal(shapely.get_coordinates(got), shapely.get_coordinates(want))


@pytest.mark.rule("II-E-1")
def test_pushes_are_the_nearest_whichever_ring_frees_them() -> None:
    """The first ring and the farther ones, tried in batches: the push found is the
    nearest, as when every place was tried ring after ring."""
    target, ring, place = _ring()
    lengths = set()
    for dy in (-0.61, -0.55, -0.3, 0.0):
        new = place.moved(place.x, place.y + dy)
        got = _push(new, target, ring, [0, 1, 2, 3], [], TABLE.area)
        assert got == ref_contact_31._push(new, target, ring, [0, 1, 2, 3], [], TABLE.area)
        assert got
        (i, pushed), *_ = got
        lengths.add(round(math.hypot(pushed.x - ring[i].x, pushed.y - ring[i].y), 3))
    assert {0.05, 0.1} <= lengths and len(lengths) == 4
