"""The cached / vectorised geometry gives the same answers as the plain implementation it
replaced (frozen in tests/geometry/ref_*.py), on random layouts (hypothesis)."""

from __future__ import annotations

import pytest
import ref_contact
import ref_paths
import ref_sight
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from confrontation.geometry import (
    Barrier,
    Base,
    Battlefield,
    Scenery,
    Table,
    in_contact,
    line_of_sight,
    shortest_path,
)
from confrontation.geometry.bases import Shape
from confrontation.geometry.paths import Path as FastPath
from confrontation.geometry.paths import PathSearch

size = st.sampled_from(["small", "normal", "normal", "large", "very-large"])
shape: st.SearchStrategy[Shape] = st.sampled_from(["square", "round"])
TABLE = Table()


@st.composite
def fighters(draw: st.DrawFn, n_max: int = 12) -> dict[str, Base]:
    """Up to ``n_max`` bases that don't overlap (some touching), either side of the table."""
    out: dict[str, Base] = {}
    for k in range(draw(st.integers(2, n_max))):
        b = Base.of(
            draw(size),
            draw(shape),
            draw(st.floats(4, 116)),
            draw(st.floats(4, 56)),
            draw(st.sampled_from([0.0, 90.0, 180.0, 270.0, 37.0])),
        )
        if any(b.polygon.intersects(o.polygon.buffer(-1e-3)) for o in out.values()):
            continue
        out[f"f{k}"] = b
    assume(len(out) >= 2)
    return out


@st.composite
def scenery(draw: st.DrawFn) -> tuple[Scenery, ...]:
    out = []
    for k in range(draw(st.integers(0, 4))):
        x, y = draw(st.floats(15, 105)), draw(st.floats(8, 52))
        w, d = draw(st.floats(1, 15)), draw(st.floats(1, 15))
        out.append(
            Scenery.rect(
                f"s{k}",
                x,
                y,
                w,
                d,
                draw(st.floats(0, 180)),
                height=draw(size),
                passable=draw(st.booleans()),
            )
        )
    return tuple(out)


def same_path(fast: FastPath | None, ref: ref_paths.Path | None) -> None:
    """Both unreachable, or both as long and from the same start. (Two paths of exactly the
    same length, e.g. round either side of a symmetric obstacle, may be resolved either way:
    the length is what the rules use.)"""
    assert (fast is None) == (ref is None)
    if fast is None or ref is None:
        return
    assert fast.length == pytest.approx(ref.length, abs=1e-9)
    assert fast.points[0] == ref.points[0]


@pytest.mark.rule("V-A")
@settings(max_examples=25)
@given(fighters(), scenery(), st.data())
def test_battlefield_paths_equal_the_plain_search(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    # scenery stands clear of the bases (a base can't stand in an impassable element)
    elements = tuple(
        e for e in elements if not any(e.footprint.intersects(b.polygon) for b in placed.values())
    )
    field = Battlefield(TABLE, placed, elements)
    ids = list(placed)
    for _ in range(4):  # several queries on one battlefield: its cached search is reused
        mover = data.draw(st.sampled_from(ids))
        goal = data.draw(st.sampled_from([i for i in ids if i != mover]))
        friends = data.draw(st.lists(st.sampled_from(ids), max_size=2))
        at_most = data.draw(st.booleans())
        m = placed[mover]
        skip = {mover, goal, *friends}
        obstacles = ref_paths.move_obstacles(
            m, [b for i, b in placed.items() if i not in skip], elements, move_at_most_mov=at_most
        )
        ref = ref_paths.shortest_path(m.sight, placed[goal], obstacles, m.width, table=TABLE.area)
        fast = field.path(mover, goal, pass_through=friends, move_at_most_mov=at_most)
        same_path(fast, ref)
        point = (data.draw(st.floats(1, 119)), data.draw(st.floats(1, 59)))
        obstacles = ref_paths.move_obstacles(
            m, [b for i, b in placed.items() if i not in {mover, *friends}], elements
        )
        ref = ref_paths.shortest_path(m.sight, point, obstacles, m.width, table=TABLE.area)
        same_path(field.path(mover, point, pass_through=friends), ref)


@pytest.mark.rule("V-A")
@settings(max_examples=25)
@given(
    st.lists(
        st.tuples(st.floats(15, 100), st.floats(2, 55), st.floats(0.3, 14), st.floats(0.3, 14)),
        max_size=6,
    ),
    st.tuples(st.floats(3, 117), st.floats(3, 57)),
    st.tuples(st.floats(3, 117), st.floats(3, 57)),
    st.floats(2.0, 6.0),
    st.booleans(),
)
def test_shortest_path_function_equals_the_plain_search(
    boxes: list[tuple[float, float, float, float]],
    start: tuple[float, float],
    goal: tuple[float, float],
    width: float,
    on_table: bool,
) -> None:
    obstacles = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    table = TABLE.area if on_table else None
    ref = ref_paths.shortest_path(start, goal, obstacles, width, table=table)
    same_path(shortest_path(start, goal, obstacles, width, table=table), ref)
    same_path(shortest_path(start, goal, obstacles, width, table=table), ref)  # cached search
    target = Base.of("normal", "round", *goal)
    if not any(o.intersects(target.polygon) for o in obstacles):
        ref = ref_paths.shortest_path(start, target, obstacles, width, table=table)
        search = PathSearch(obstacles, width, table)
        search.query(start, goal)  # a second query on the same search
        same_path(search.query(start, target), ref)


@pytest.mark.rule("II-D-2", "II-D-3", "II-D-4", "II-F-1")
@settings(max_examples=25)
@given(fighters(), scenery(), st.data())
def test_sight_equals_the_plain_computation(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    field = Battlefield(TABLE, placed, elements)
    ids = list(placed)
    ref_barriers = {i: ref_sight.Barrier.of_base(b) for i, b in placed.items()}
    ref_scenery = [ref_sight.Barrier(s.footprint, s.height) for s in elements]
    for _ in range(6):
        a = data.draw(st.sampled_from(ids))
        b = data.draw(st.sampled_from([i for i in ids if i != a]))
        barriers = [ref_barriers[i] for i in ids if i not in (a, b)] + ref_scenery
        ref = ref_sight.line_of_sight(placed[a], placed[b], barriers)
        assert field.sight(a, b).value == ref.value
        fast_barriers = [Barrier.of_base(placed[i]) for i in ids if i not in (a, b)]
        fast_barriers += [Barrier(s.footprint, s.height) for s in elements]
        assert line_of_sight(placed[a], placed[b], fast_barriers).value == ref.value


@pytest.mark.rule("II-E-1", "II-E-2", "V-B-3")
@settings(max_examples=20)
@given(fighters(n_max=8), scenery(), st.data())
def test_contact_placement_equals_the_plain_search(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    field = Battlefield(TABLE, placed, elements)
    ids = list(placed)
    for _ in range(2):
        mover = data.draw(st.sampled_from(ids))
        target = data.draw(st.sampled_from([i for i in ids if i != mover]))
        m, t = placed[mover], placed[target]
        others = [placed[i] for i in ids if i not in (mover, target)]
        pushable = [k for k, o in enumerate(others) if in_contact(o, t)]
        blocking = [s.footprint for s in elements if not s.passable]
        ref = ref_contact.nearest_contact_position(
            m, t, others, blocking, table=TABLE.area, pushable=pushable
        )
        fast = field.contact_position(mover, target)
        assert (fast is None) == (ref is None)
        if fast is not None and ref is not None:
            assert fast.base == ref.base
            assert fast.pushed == ref.pushed
