"""``sees`` (the cheap "sees at least partly?") answers ``line_of_sight(...).any`` exactly,
fresh or from the caches kept across battlefields (issue 22)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fast_equivalence import TABLE, fighters, scenery

from confrontation.geometry import Barrier, Base, Battlefield, Scenery, Sight, line_of_sight
from confrontation.geometry import field as geometry_field
from confrontation.geometry.sight import sees


def _barriers(
    placed: dict[str, Base], elements: tuple[Scenery, ...], a: str, b: str
) -> list[Barrier]:
    out = [Barrier.of_base(placed[i]) for i in placed if i not in (a, b)]
    return out + [Barrier(s.footprint, s.height) for s in elements]


@pytest.mark.rule("II-D-3", "II-D-4", "II-F-1")
@settings(max_examples=40)
@given(fighters(), scenery())
def test_sees_is_line_of_sight_any(placed: dict[str, Base], elements: tuple[Scenery, ...]) -> None:
    geometry_field._SEES.clear()
    field = Battlefield(TABLE, placed, elements)
    for a in placed:
        for b in placed:
            if a == b:
                continue
            full = line_of_sight(placed[a], placed[b], _barriers(placed, elements, a, b))
            assert sees(placed[a], placed[b], _barriers(placed, elements, a, b)) == full.any
            assert field.sees(a, b) == full.any  # fresh (nothing cached for the pair)
            assert field.sight(a, b) is full
            assert field.sees(a, b) == full.any  # now from the full answer's cache


@pytest.mark.rule("II-D-3")
def test_sees_says_no_behind_a_wall_and_yes_past_its_end() -> None:
    geometry_field._SEES.clear()
    me, foe = Base.of("normal", "square", 10, 30, 0), Base.of("normal", "square", 60, 30, 0)
    wall = Scenery.rect("wall", 35, 30, 2, 20, 0, height="large", passable=False)
    field = Battlefield(TABLE, {"me": me, "foe": foe}, (wall,))
    assert line_of_sight(me, foe, [Barrier(wall.footprint, wall.height)]) is Sight.NONE
    assert not field.sees("me", "foe")
    # the foe steps aside: a new battlefield, a new answer (the cache is keyed by the bases)
    aside = Base.of("normal", "square", 60, 55, 0)
    moved = Battlefield(TABLE, {"me": me, "foe": aside}, (wall,))
    assert line_of_sight(me, aside, [Barrier(wall.footprint, wall.height)]).any
    assert moved.sees("me", "foe")
    assert not Battlefield(TABLE, {"me": me, "foe": foe}, (wall,)).sees("me", "foe")


@pytest.mark.rule("II-D-3")
@settings(max_examples=60)
@given(st.floats(40, 80), st.floats(5, 55), st.floats(0.5, 30))
def test_sees_behind_walls_of_any_length(x: float, y: float, length: float) -> None:
    """Targets behind walls of every length: hidden, partly and wholly seen all occur."""
    me, foe = Base.of("normal", "round", 10, 30, 0), Base.of("small", "square", x, y, 0)
    wall = Scenery.rect("wall", 30, 30, 1, length, 0, height="large", passable=False)
    full = line_of_sight(me, foe, [Barrier(wall.footprint, wall.height)])
    geometry_field._SEES.clear()
    assert Battlefield(TABLE, {"me": me, "foe": foe}, (wall,)).sees("me", "foe") == full.any


@pytest.mark.rule("II-D-3")
@pytest.mark.parametrize("overlap", [-1.0, 0.0, 0.5, 2.0])
def test_two_walls_hide_together_what_neither_hides_alone(overlap: float) -> None:
    """Two large walls, each hiding half the target: hidden together only if they meet."""
    me, foe = Base.of("normal", "round", 10, 30, 0), Base.of("normal", "square", 60, 30, 0)
    mid = 1.5 - overlap / 2.0  # each wall 3 cm long, ``overlap`` cm across y = 30
    walls = (
        Scenery.rect("north", 30, 30 + mid, 1, 3, 0, height="large", passable=False),
        Scenery.rect("south", 30, 30 - mid, 1, 3, 0, height="large", passable=False),
    )
    barriers = [Barrier(w.footprint, w.height) for w in walls]
    full = line_of_sight(me, foe, barriers)
    geometry_field._SEES.clear()
    assert Battlefield(TABLE, {"me": me, "foe": foe}, walls).sees("me", "foe") == full.any
    assert (full is Sight.NONE) == (overlap >= 0.0)
