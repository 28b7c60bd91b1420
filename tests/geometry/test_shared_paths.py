"""Path graphs share the neighbours of their corners and their goal legs with later graphs of
the same base width and table (``paths._Shared``): a graph built after others, on a
battlefield where a few fighters moved, answers exactly as a graph built from scratch
(``PathGraph.share = False``), point for point, and finds the same (segment, entry) pairs.
Touching-pair entries are only tested where they can block: every choice of active entries
blocks the same segments as with every pair tested."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from path_modes import graph_mode  # noqa: F401
from shapely.geometry import box

from confrontation.geometry import Base, Battlefield, Scenery, Table, paths
from confrontation.geometry.bases import Shape
from confrontation.geometry.paths import Path, PathGraph

TABLE = Table()
size = st.sampled_from(["small", "normal", "normal", "large"])
shape: st.SearchStrategy[Shape] = st.sampled_from(["square", "round"])


@contextmanager
def sharing(on: bool) -> Iterator[None]:
    was = PathGraph.share
    PathGraph.share = on
    try:
        yield
    finally:
        PathGraph.share = was


@st.composite
def layouts(draw: st.DrawFn) -> tuple[dict[str, Base], tuple[Scenery, ...]]:
    """Up to 10 bases, some in contact (touching inflated shapes: pair entries), and a few
    impassable walls clear of them."""
    out: dict[str, Base] = {}
    for k in range(draw(st.integers(3, 10))):
        b = Base.of(
            draw(size),
            draw(shape),
            draw(st.floats(4, 116)),
            draw(st.floats(4, 56)),
            draw(st.sampled_from([0.0, 90.0, 37.0])),
        )
        if len(out) > 0 and draw(st.booleans()):  # against another base
            other = draw(st.sampled_from(list(out.values())))
            angle = math.radians(draw(st.floats(0, 360)))
            gap = (other.width + b.width) / 2.0 + draw(st.sampled_from([0.0, 0.2, 1.0]))
            b = b.moved(other.x + gap * math.cos(angle), other.y + gap * math.sin(angle))
        if any(b.polygon.intersects(o.polygon.buffer(-1e-3)) for o in out.values()):
            continue
        out[f"f{k}"] = b
    assume(len(out) >= 3)
    walls = []
    for k in range(draw(st.integers(0, 3))):
        wall = Scenery.rect(
            f"w{k}",
            draw(st.floats(15, 105)),
            draw(st.floats(8, 52)),
            draw(st.floats(1, 12)),
            draw(st.floats(1, 4)),
            draw(st.floats(0, 180)),
            passable=False,
        )
        if not any(wall.footprint.intersects(b.polygon) for b in out.values()):
            walls.append(wall)
    return out, tuple(walls)


def moved(placed: dict[str, Base], data: st.DataObject) -> dict[str, Base]:
    """The same bases, one of them moved a little (if the new place is free)."""
    who = data.draw(st.sampled_from(sorted(placed)))
    b = placed[who]
    there = b.moved(
        min(max(b.x + data.draw(st.floats(-6, 6)), 3.0), 117.0),
        min(max(b.y + data.draw(st.floats(-6, 6)), 3.0), 57.0),
    )
    if any(there.polygon.intersects(o.polygon) for i, o in placed.items() if i != who):
        return placed
    return {**placed, who: there}


def points(path: Path | None) -> tuple[tuple[float, float], ...] | None:
    return None if path is None else path.points


def pairs(got: tuple[np.ndarray, ...]) -> set[tuple[int, int]]:
    _, _, li, ei = got
    return set(zip(li.tolist(), ei.tolist(), strict=True))


@pytest.mark.rule("V-A")
@settings(max_examples=20, deadline=None)
@given(layouts(), st.data())
def test_graphs_after_moves_answer_as_graphs_built_from_scratch(
    layout: tuple[dict[str, Base], tuple[Scenery, ...]], data: st.DataObject
) -> None:
    placed, walls = layout
    paths._SHARED.clear()
    for _ in range(3):  # three battlefields, a fighter moved between each
        with sharing(True):
            shared = Battlefield(TABLE, placed, walls)
        with sharing(False):
            fresh = Battlefield(TABLE, placed, walls)
        ids = sorted(placed)
        for _ in range(4):  # the first query of a graph is the plain search; then the graph
            mover = data.draw(st.sampled_from(ids))
            goal = data.draw(st.sampled_from([i for i in ids if i != mover]))
            friends = tuple(data.draw(st.lists(st.sampled_from(ids), max_size=2)))
            point = (data.draw(st.floats(2, 118)), data.draw(st.floats(2, 58)))
            for target in (goal, point):
                with sharing(True):
                    a = shared.path(mover, target, pass_through=friends)
                with sharing(False):
                    b = fresh.path(mover, target, pass_through=friends)
                assert points(a) == points(b)
        # every corner a shared graph looked at has the neighbours found from scratch
        for key, graph in shared._graphs.items():
            if not graph._built:
                continue
            with sharing(False):
                alone = PathGraph(*graph._args)
                alone._build()
            for u in list(graph._adj):
                mine, theirs = graph._neighbours(u), alone._neighbours(u)
                assert np.array_equal(mine[0], theirs[0])
                assert np.array_equal(mine[1], theirs[1])
                assert pairs(mine) == pairs(theirs), key
        placed = moved(placed, data)


@pytest.mark.rule("V-A")
@settings(max_examples=20, deadline=None)
@given(layouts(), st.data())
def test_pair_entries_skipped_only_where_they_cannot_block(
    layout: tuple[dict[str, Base], tuple[Scenery, ...]], data: st.DataObject
) -> None:
    placed, walls = layout
    obstacles = [b.polygon for b in placed.values()] + [w.footprint for w in walls]
    width = data.draw(st.sampled_from([b.width for b in placed.values()]))
    with sharing(False):
        graph = PathGraph(obstacles, width, TABLE.area, obstacles[: len(placed)])
        graph._build()
    assume(len(graph.corners) > 0)
    for u in data.draw(
        st.lists(st.integers(0, len(graph.corners) - 1), min_size=1, max_size=4, unique=True)
    ):
        idx, _, li, ei = graph._neighbours(u)
        if not len(idx):
            continue
        p = (float(graph.corners[u, 0]), float(graph.corners[u, 1]))
        # every pair, every entry (the frame included), tested the plain way
        all_l, all_e = graph.hits(p, graph.corners[idx, :2], graph.round)
        assert pairs((idx, idx, li, ei)) <= pairs((idx, idx, all_l, all_e))
        for _ in range(5):  # active entries as a query sets them
            act = graph.active.copy()
            act[: graph.n] = (
                data.draw(st.lists(st.booleans(), min_size=graph.n, max_size=graph.n))
                & ~graph.empty
            )
            if len(graph.pi):
                act[graph.pair0 :] = act[graph.pi] & act[graph.pj]
            k = data.draw(st.integers(-1, len(placed) - 1))
            if k >= 0:
                act[graph.target0 + k] = True
            kept = np.bincount(li[act[ei]], minlength=len(idx)) == 0
            plain = np.bincount(all_l[act[all_e]], minlength=len(idx)) == 0
            assert np.array_equal(kept, plain)


@pytest.mark.rule("V-A")
def test_the_shared_store_is_bounded() -> None:
    paths._SHARED.clear()
    store = paths._shared(1.25, TABLE.area)
    assert paths._shared(1.25, TABLE.area) is store
    store.corners_of(np.arange(6.0 * (paths._SHARED_IDS + 1)).reshape(-1, 6))
    assert store.full
    assert paths._shared(1.25, TABLE.area) is not store  # replaced by an empty one
    for k in range(paths._SHARED_SIZE + 3):
        paths._shared(1.0 + k, TABLE.area)
    assert len(paths._SHARED) == paths._SHARED_SIZE


@pytest.mark.rule("V-A")
@pytest.mark.parametrize("share", [True, False])
def test_a_seam_one_base_wide_stays_closed_between_corners(share: bool) -> None:
    """Two walls exactly one base width apart: their inflated shapes touch along an edge
    and only the pair's entry closes the seam. The graph's legs from corner to corner must
    not slip through it (V-A), whatever the store holds."""
    width = 2.5
    walls = [box(50, 20, 52, 30), box(50, 30 + width, 52, 40), box(56, 29, 58, 33.5)]
    paths._SHARED.clear()
    with sharing(share):
        for _ in range(2):  # the second graph takes the first one's records
            graph = PathGraph(walls, width, TABLE.area)
            for start, goal in (
                ((45.0, 31.25), (60.5, 31.25)),
                ((45.0, 31.0), (60.5, 31.6)),
                ((47.0, 25.0), (55.0, 37.0)),
            ):
                graph.query(start, goal)  # the plain search, then the graph
                path = graph.query(start, goal)
                assert path is not None
                assert max(y for _, y in path.points) > 41.0  # round the top of the wall
