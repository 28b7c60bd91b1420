"""The contacts of a battlefield found among the near bases (issue 22, eleventh round, move8):
the same fighters as the tree of every base's shape gave, on random layouts and in whole games."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.strtree import STRtree
from test_fast_equivalence import TABLE, fighters, shape, size

from confrontation.geometry import Base, Battlefield
from confrontation.geometry.contact import in_contact, nearest_contact_position
from confrontation.sim.game import GameConfig, play_game

_CONTACTS = Battlefield.contacts


def _by_tree(field: Battlefield, a: str) -> list[str]:
    """The contacts as the battlefield found them before (an STRtree of every barrier's
    shape, asked for those within 0.01 cm, then :func:`in_contact`), sorted."""
    ids = list(field.fighters)
    shapes = [field.fighters[i].polygon for i in ids]
    shapes += [s.footprint for s in field.scenery]
    me = field.fighters[a]
    near = STRtree(shapes).query(me.polygon, predicate="dwithin", distance=0.01)
    found = [
        ids[i]
        for i in near.tolist()
        if i < len(ids) and ids[i] != a and in_contact(me, field.fighters[ids[i]])
    ]
    return sorted(found)


@pytest.mark.rule("II-E")
@settings(max_examples=60)
@given(fighters(n_max=20))
def test_near_contacts_are_the_trees(placed: dict[str, Base]) -> None:
    """Every fighter's contacts on random layouts (some bases touching)."""
    field = Battlefield(TABLE, placed)
    for a in placed:
        found = field.contacts(a)
        assert found == [i for i in placed if i in found]  # the battlefield's order
        assert sorted(found) == _by_tree(field, a)


@pytest.mark.rule("II-E")
@settings(max_examples=80)
@given(
    size,
    shape,
    size,
    shape,
    st.floats(0.0, 359.0),
    st.floats(-180.0, 180.0),
)
def test_near_contacts_of_bases_placed_in_contact(
    size_a: str, shape_a: str, size_b: str, shape_b: str, facing: float, towards: float
) -> None:
    """A base placed in contact with another (round ones touch with their centres the two
    radii apart: on the screen's bound) is found by both, as the tree finds it."""
    target = Base.of(size_a, shape_a, 60.0, 30.0, facing)  # type: ignore[arg-type]
    mover = Base.of(size_b, shape_b, 0.0, 0.0, 0.0)  # type: ignore[arg-type]
    a = math.radians(towards)
    placed = nearest_contact_position(
        mover, target, reference=(60.0 + 20.0 * math.cos(a), 30.0 + 20.0 * math.sin(a))
    )
    assume(placed is not None)
    assert placed is not None
    field = Battlefield(TABLE, {"t": target, "m": placed.base})
    for one in ("t", "m"):
        assert field.contacts(one) == _by_tree(field, one)


@contextmanager
def _checked() -> Iterator[list[int]]:
    """Every ``Battlefield.contacts`` of the games compared with the tree's; yields
    [questions, contacts found]."""
    counts = [0, 0]

    def contacts(self: Battlefield, a: str) -> list[str]:
        found = _CONTACTS(self, a)
        assert sorted(found) == _by_tree(self, a)
        counts[0] += 1
        counts[1] += len(found)
        return found

    Battlefield.contacts = contacts  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        Battlefield.contacts = _CONTACTS  # type: ignore[method-assign]


@pytest.mark.rule("II-E")
def test_near_contacts_over_whole_games() -> None:
    """A greedy and a random game: the same contacts at every question, and some found."""
    with _checked() as counts:
        play_game(GameConfig(agents=("greedy", "greedy"), seed=5))
        play_game(GameConfig(agents=("random", "random"), seed=3))
    assert counts[0] > 50
    assert counts[1] > 20
