"""The issue-7 speed-ups give the answers of the code they replaced (frozen in
tests/geometry/ref_plain_paths.py and ref_contact.py), point for point, on random layouts:
the straight-line answer of a path query, contact placements tried nearest first with a bulk
overlap screen. (The whole search is no longer compared with the frozen one, whose answers
were not always the shortest path: tests/geometry/test_exact_paths.py checks it against an
exact brute-force reference.)"""

from __future__ import annotations

import math

import pytest
import ref_contact
import ref_plain_paths
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from confrontation.geometry import Base, Scenery, Table, in_contact
from confrontation.geometry.bases import Shape
from confrontation.geometry.contact import nearest_contact_position
from confrontation.geometry.paths import Path, PathSearch

TABLE = Table()
size = st.sampled_from(["small", "normal", "normal", "large", "very-large"])
shape: st.SearchStrategy[Shape] = st.sampled_from(["square", "round"])
facing = st.sampled_from([0.0, 90.0, 180.0, 270.0, 37.0, 121.5])


@st.composite
def bases(draw: st.DrawFn, n_max: int = 14, x: tuple[float, float] = (3, 117)) -> list[Base]:
    """Bases that don't overlap (some touching, some far apart)."""
    out: list[Base] = []
    for _ in range(draw(st.integers(1, n_max))):
        b = Base.of(
            draw(size), draw(shape), draw(st.floats(*x)), draw(st.floats(3, 57)), draw(facing)
        )
        if draw(st.booleans()) and out:  # put it against another base
            other = draw(st.sampled_from(out))
            angle = math.radians(draw(st.floats(0, 360)))
            gap = (other.width + b.width) / 2.0 + draw(st.sampled_from([0.0, 0.3, 1.5]))
            b = b.moved(other.x + gap * math.cos(angle), other.y + gap * math.sin(angle))
        if any(b.polygon.intersects(o.polygon.buffer(-1e-3)) for o in out):
            continue
        out.append(b)
    return out


@st.composite
def boxes(draw: st.DrawFn) -> list[Scenery]:
    out = []
    for k in range(draw(st.integers(0, 4))):
        x, y = draw(st.floats(10, 110)), draw(st.floats(6, 54))
        w, d = draw(st.floats(0.5, 15)), draw(st.floats(0.5, 15))
        out.append(Scenery.rect(f"s{k}", x, y, w, d, draw(st.floats(0, 180)), passable=False))
    return out


def same(fast: Path | None, ref: ref_plain_paths.Path | None) -> None:
    assert (fast is None) == (ref is None)
    if fast is not None and ref is not None:
        assert fast.points == ref.points


@pytest.mark.rule("V-A")
@settings(max_examples=80, deadline=None)
@given(bases(n_max=8), boxes(), st.data())
def test_straight_line_answer_is_the_search_answer(
    placed: list[Base], elements: list[Scenery], data: st.DataObject
) -> None:
    assume(len(placed) >= 2)
    mover = data.draw(st.sampled_from(placed))
    target = data.draw(st.sampled_from([b for b in placed if b is not mover]))
    others = [b.polygon for b in placed if b is not mover and b is not target]
    obstacles = others + [e.footprint for e in elements]
    # the mover and the target stay among the obstacles but are skipped, as Battlefield.path does
    search = PathSearch([mover.polygon, target.polygon, *obstacles], mover.width, TABLE.area)
    point = (data.draw(st.floats(1, 119)), data.draw(st.floats(1, 59)))
    for goal in (target, point):
        straight = search._straight(mover.sight, goal, skip=[0, 1])
        if straight is None:
            continue
        ref = ref_plain_paths._plain_search(
            mover.sight, goal, obstacles, mover.width, table=TABLE.area
        )
        same(straight, ref)


@pytest.mark.rule("V-A")
def test_straight_line_answer_applies_on_an_open_table() -> None:
    mover = Base.of("normal", "square", 20, 30, 0.0)
    target = Base.of("normal", "round", 60, 35, 180.0)
    rock = box(40, 45, 45, 50)  # far from the line
    search = PathSearch([rock], mover.width, TABLE.area)
    fast = search.query(mover.sight, target)
    ref = ref_plain_paths._plain_search(mover.sight, target, [rock], mover.width, table=TABLE.area)
    assert search.straight == 1 and search.queries == 0
    same(fast, ref)
    assert fast is not None and len(fast.points) == 2
    # a friend of the target against its far side cuts its edge, not the line to it
    friend = Base.of("normal", "square", 60, 35 + target.width, 180.0).polygon
    search = PathSearch([friend], mover.width, TABLE.area)
    beside = search.query(mover.sight, target)
    assert search.straight == 1
    same(
        beside,
        ref_plain_paths._plain_search(mover.sight, target, [friend], mover.width, table=TABLE.area),
    )
    # a rock across the line: the search is needed, and goes round it
    wall = box(38, 25, 40, 40)
    search = PathSearch([wall], mover.width, TABLE.area)
    around = search.query(mover.sight, target)
    assert search.straight == 0 and around is not None and len(around.points) > 2
    same(around, ref_plain_paths._plain_search(mover.sight, target, [wall], mover.width))


@st.composite
def crowd(draw: st.DrawFn) -> tuple[Base, Base, list[Base]]:
    """A target with fighters packed round it (most places in contact are taken)."""
    target = Base.of(draw(size), draw(shape), 60.0, 30.0, draw(facing))
    mover = Base.of(draw(size), draw(shape), draw(st.floats(20, 100)), 10.0, 90.0)
    others: list[Base] = []
    for _ in range(draw(st.integers(1, 7))):
        b = Base.of(draw(size), draw(shape), 0.0, 0.0, draw(facing))
        angle = math.radians(draw(st.floats(0, 360)))
        gap = (target.width + b.width) / 2.0 + draw(st.sampled_from([0.0, 0.001, 0.2, 1.0]))
        b = b.moved(target.x + gap * math.cos(angle), target.y + gap * math.sin(angle))
        if any(b.polygon.intersects(o.polygon.buffer(-1e-3)) for o in [target, mover, *others]):
            continue
        others.append(b)
    return mover, target, others


@pytest.mark.rule("II-E-1", "II-E-2", "V-B-3")
@settings(max_examples=50, deadline=None)
@given(crowd(), st.tuples(st.floats(40, 80), st.floats(10, 50)), st.booleans())
def test_crowded_placements_equal_the_frozen_search(
    placed: tuple[Base, Base, list[Base]], reference: tuple[float, float], refer: bool
) -> None:
    mover, target, others = placed
    pushable = [k for k, o in enumerate(others) if in_contact(o, target)]
    ref_point = reference if refer else None
    rocks = [box(58, 36, 62, 40)]
    fast = nearest_contact_position(
        mover, target, others, rocks, reference=ref_point, table=TABLE.area, pushable=pushable
    )
    ref = ref_contact.nearest_contact_position(
        mover, target, others, rocks, reference=ref_point, table=TABLE.area, pushable=pushable
    )
    assert (fast is None) == (ref is None)
    if fast is not None and ref is not None:
        assert fast.base == ref.base
        assert fast.pushed == ref.pushed
