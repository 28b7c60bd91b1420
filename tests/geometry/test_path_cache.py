"""Path answers kept across moves (``Field.inherit_paths``) equal answers computed from
scratch on the new battlefield (hypothesis, random layouts and moves)."""

from __future__ import annotations

from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.engine.core.state import Battleground
from confrontation.engine.table.field import Field
from confrontation.geometry import Base, Battlefield, Scenery
from confrontation.geometry.paths import Path


def field(placed: dict[str, Base], elements: tuple[Scenery, ...]) -> Field:
    return Field(
        ground=cast(Battleground, None),
        table=TABLE,
        scenery=elements,
        battlefield=Battlefield(TABLE, placed, elements),
        owners={i: k % 2 for k, i in enumerate(placed)},
    )


def same(kept: Path | None, fresh: Path | None, reach: float) -> None:
    """The same answer: both None, or as long from the same start to the same end (two
    paths exactly as long may go either way round); a bounded question may answer None
    for a path longer than its reach."""
    if reach < float("inf") and (fresh is None or fresh.length > reach + 1e-6):
        assert kept is None or kept.length > reach - 1e-6
        return
    assert (kept is None) == (fresh is None)
    if kept is None or fresh is None:
        return
    assert kept.length == pytest.approx(fresh.length, abs=1e-9)
    assert kept.points[0] == fresh.points[0]


@pytest.mark.rule("V-A")
@settings(max_examples=30, deadline=None)
@given(fighters(n_max=10), scenery(), st.data())
def test_paths_kept_across_a_move_equal_paths_from_scratch(
    placed: dict[str, Base], elements: tuple[Scenery, ...], data: st.DataObject
) -> None:
    elements = tuple(
        e for e in elements if not any(e.footprint.intersects(b.polygon) for b in placed.values())
    )
    ids = list(placed)
    before = field(placed, elements)
    questions: list[tuple[Any, ...]] = []
    for _ in range(8):
        mover = data.draw(st.sampled_from(ids))
        goal: str | tuple[float, float] = data.draw(st.sampled_from([i for i in ids if i != mover]))
        if data.draw(st.booleans()):
            goal = (data.draw(st.floats(1, 119)), data.draw(st.floats(1, 59)))
        reach = data.draw(st.sampled_from([float("inf"), 5.0, 12.0, 25.0, 60.0]))
        at_most = data.draw(st.booleans())
        questions.append((mover, goal, at_most, reach))
        before.path(mover, goal, at_most_mov=at_most, reach=reach)
    # one or two fighters move (anywhere on the table, off the other bases), or leave play
    moved = dict(placed)
    for who in data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=2, unique=True)):
        if data.draw(st.integers(0, 4)) == 0:
            moved.pop(who)
            continue
        b = moved[who]
        there = b.moved(data.draw(st.floats(4, 116)), data.draw(st.floats(4, 56)), b.facing)
        others = [o.polygon for i, o in moved.items() if i != who]
        if not any(there.polygon.intersects(o) for o in others):
            moved[who] = there
    after = field(moved, elements)
    after.inherit_paths(before)
    fresh = field(moved, elements)
    for mover, goal, at_most, reach in questions:
        if mover not in moved or (isinstance(goal, str) and goal not in moved):
            continue
        same(
            after.path(mover, goal, at_most_mov=at_most, reach=reach),
            fresh.path(mover, goal, at_most_mov=at_most),
            reach,
        )


def test_a_path_is_dropped_when_a_base_moves_onto_it() -> None:
    a = Base.of("normal", "square", 10.0, 30.0, 0.0)
    b = Base.of("normal", "square", 50.0, 10.0, 0.0)
    before = field({"a": a, "b": b}, ())
    straight = before.path("a", (90.0, 30.0))
    assert straight is not None and straight.length == pytest.approx(80.0 - a.depth / 2, abs=1e-6)
    after = field({"a": a, "b": b.moved(50.0, 30.0, 0.0)}, ())
    after.inherit_paths(before)
    round_b = after.path("a", (90.0, 30.0))
    assert round_b is not None and round_b.length > straight.length + 0.1
    # a base that moves far from the path leaves it
    away = field({"a": a, "b": b.moved(50.0, 5.0, 0.0)}, ())
    away.inherit_paths(before)
    assert away._paths[("a", (90.0, 30.0), (), False)] is straight
