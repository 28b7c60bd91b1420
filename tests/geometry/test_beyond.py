"""``beyond``: a cheap lower bound for "is the enemy within reach of a move?" (issue 22).
When it says yes, every path of the mover's sight to the enemy's base is longer than the
reach; so skipping the path search changes no answer."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import Base, Battlefield, Scenery
from confrontation.geometry.measure import beyond


@pytest.mark.rule("V-A", "V-B-3")
@settings(max_examples=30, deadline=None)
@given(fighters(n_max=8), scenery(), st.floats(0.5, 40))
def test_beyond_means_every_path_is_longer(
    placed: dict[str, Base], elements: tuple[Scenery, ...], reach: float
) -> None:
    field = Battlefield(TABLE, placed, elements)
    ids = list(placed)
    mover = ids[0]
    for enemy in ids[1:]:
        start = Point(placed[mover].sight)
        straight = start.distance(placed[enemy].polygon)
        if beyond(placed[mover], placed[enemy], reach):
            assert straight > reach
            path = field.path(mover, enemy)
            assert path is None or path.length > reach
        else:  # the bound is tight for a lone pair: the straight line is within reach
            assert straight <= reach + 1e-6 + 0.05  # round bases: polygon vs circle


@pytest.mark.rule("V-B-3")
def test_beyond_on_a_line() -> None:
    me = Base.of("normal", "square", 10, 30, 0)
    foe = Base.of("normal", "round", 40, 30, 0)
    gap = Point(me.sight).distance(foe.polygon)
    assert not beyond(me, foe, math.ceil(gap))
    assert beyond(me, foe, gap - 0.1)
