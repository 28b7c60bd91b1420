"""The cached / vectorised geometry gives the same answers as the plain implementation it
replaced (frozen in tests/geometry/ref_*.py), on random layouts (hypothesis)."""

from __future__ import annotations

import math

import pytest
import ref_paths
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from confrontation.geometry import Base, Battlefield, Scenery, Table, shortest_path
from confrontation.geometry.paths import Path as FastPath
from confrontation.geometry.paths import PathGraph

size = st.sampled_from(["small", "normal", "normal", "large", "very-large"])
shape = st.sampled_from(["square", "round"])
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
    assert (fast is None) == (ref is None)
    if fast is None or ref is None:
        return
    assert fast.length == pytest.approx(ref.length, abs=1e-9)
    assert len(fast.points) == len(ref.points)
    for a, b in zip(fast.points, ref.points, strict=True):
        assert math.dist(a, b) <= 1e-9


@pytest.mark.rule("V-A")
@settings(max_examples=25)
@given(fighters(), scenery(), st.data())
def test_battlefield_paths_equal_the_plain_search(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    field = Battlefield(TABLE, placed, elements)
    ids = list(placed)
    for _ in range(4):  # several queries on one battlefield: the cached graph is reused
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
    same_path(shortest_path(start, goal, obstacles, width, table=table), ref)  # cached graph
    target = Base.of("normal", "round", *goal)
    if not any(o.intersects(target.polygon) for o in obstacles):
        ref = ref_paths.shortest_path(start, target, obstacles, width, table=table)
        same_path(PathGraph(obstacles, width, table).query(start, target), ref)
