"""The pushes of one walk share their work (issue 22, thirteenth round): the places a
fighter is pushed to, which of them touch the target, the bases near him but the newcomer
(``_PushKit``), and the walk's places to push from screened like its blocker. Every answer is
the frozen search's (``ref_contact_31.py``): whole walks that push from place after place,
pushes asked one after another with one kit, and the touching screen against
:func:`in_contact` place by place."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
import ref_contact_31
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from confrontation.geometry import Base, Table, in_contact
from confrontation.geometry.bases import Shape
from confrontation.geometry.contact import (
    ContactPlacement,
    ContactSearch,
    _push,
    _PushKit,
    _PushPlaces,
)

TABLE = Table()


def _turned(x: float, y: float, turn: float) -> tuple[float, float]:
    """(x, y) turned by ``turn`` degrees about the target's centre (50, 30)."""
    a = math.radians(turn)
    dx, dy = x - 50.0, y - 30.0
    return 50.0 + dx * math.cos(a) - dy * math.sin(a), 30.0 + dx * math.sin(a) + dy * math.cos(a)


#: the outward normals of a target's sides before it is turned: south, north, west, east
SIDES = ((0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0))


def _ringed(
    turn: float, gap: float, slides: list[float], side_mm: float = 37.5, sides: str = "SNWE"
) -> tuple[Base, list[Base]]:
    """A square target ``side_mm`` wide turned by ``turn`` degrees, and normal fighters
    facing it, each ``gap`` cm from it on a side (``sides``: S, N, W, E, in turn) and slid
    along it by its slide."""
    target = Base(50.0, 30.0, 90 + turn, "square", side_mm, side_mm, "titan")
    half = target.width / 2.0 + 2.5 / 2.0 + gap
    ring = []
    for side, slide in zip(sides, slides, strict=True):
        nx, ny = SIDES["SNWE".index(side)]
        x, y = 50.0 + nx * half - ny * slide, 30.0 + ny * half + nx * slide
        facing = math.degrees(math.atan2(-ny, -nx)) + turn
        ring.append(Base.of("normal", "square", *_turned(x, y, turn), facing))
    return target, ring


def _refusing(seed: int) -> Callable[[ContactPlacement], bool]:
    """A deterministic ``accept`` refusing most places (pushes from many places are tried)."""
    return lambda p: (int(p.base.x * 1000) * 7 + int(p.base.y * 1000) + seed) % 5 == 0


ring_turns = st.sampled_from([0.0, 22.5, 45.0, 90.0]) | st.floats(0.0, 90.0)
gaps = st.sampled_from([0.0, 0.001, 0.004, 0.005]) | st.floats(0.0, 0.006)
shifts = st.lists(st.floats(-0.6, 0.6), min_size=4, max_size=4)
bystanders = st.lists(
    st.tuples(st.sampled_from(["round", "square"]), st.floats(42.0, 58.0), st.floats(22.0, 38.0)),
    max_size=6,
)


@pytest.mark.rule("II-E-1")
@settings(max_examples=30, deadline=None)
@given(ring_turns, gaps, shifts, bystanders, st.booleans(), st.integers(0, 4))
def test_a_walk_that_pushes_answers_as_the_frozen_search(
    turn: float,
    gap: float,
    slid: list[float],
    extra: list[tuple[Shape, float, float]],
    rock: bool,
    seed: int,
) -> None:
    """No free place round a ringed target: the walk pushes from place after place (one
    kit), asked again with other ``accept`` tests; the same answers as the frozen search."""
    target, ring = _ringed(turn, gap, slid)
    others = ring + [Base.of("small", shape, x, y) for shape, x, y in extra]
    obstacles = [box(5.0, 5.0, 8.0, 8.0)] + ([box(47.0, 21.0, 48.2, 23.0)] if rock else [])
    mover = Base.of("normal", "square", *_turned(50.0, 10.0, turn), 90 + turn)
    push = [k for k, o in enumerate(others) if in_contact(o, target)]
    search = ContactSearch(mover, target, others, obstacles, table=TABLE.area, pushable=push)
    for accept in (_refusing(seed), None, _refusing(seed + 1)):
        got = search.nearest(None, accept)
        want = ref_contact_31.nearest_contact_position(
            mover,
            target,
            others,
            obstacles,
            table=TABLE.area,
            pushable=push,
            accept=accept,
        )
        assert got == want


@pytest.mark.rule("II-E-1")
@settings(max_examples=40, deadline=None)
@given(ring_turns, gaps, shifts, bystanders, st.lists(st.floats(-0.4, 0.4), min_size=3))
def test_pushes_sharing_one_kit_are_the_frozen_pushes(
    turn: float,
    gap: float,
    slid: list[float],
    extra: list[tuple[Shape, float, float]],
    moves: list[float],
) -> None:
    """Newcomers at several places on the south side of a target held by two fighters
    there, pushed with one kit (the near bases kept, the places and their contacts kept;
    when both are pushed, the second's near bases asked afresh): each answer is the frozen
    ``_push``."""
    slides = [-1.65 + slid[0] / 8, 1.65 + slid[1] / 8, slid[2], slid[3]]
    target, ring = _ringed(turn, gap, slides, 100.0, "SSNE")
    others = ring + [Base.of("small", shape, x, y) for shape, x, y in extra]
    obstacles = [box(47.0, 21.0, 48.2, 23.0)]
    kit = _PushKit(target, others, obstacles)
    for d in moves:
        x, y = _turned(50.0 + d, 30.0 - target.width / 2.0 - 1.25, turn)
        new = Base.of("normal", "square", x, y, 90 + turn)
        args = (new, target, others, [0, 1, 2, 3], obstacles, TABLE.area)
        want = ref_contact_31._push(*args)
        assert _push(*args, kit) == want
        assert _push(*args) == want


@pytest.mark.rule("II-E-1")
@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["round", "square"]),
    st.sampled_from(["small", "normal", "large"]),
    ring_turns,
    gaps,
    st.floats(-1.0, 1.0),
)
def test_the_touching_screen_keeps_every_place_in_contact(
    shape: Shape, size: str, turn: float, gap: float, slide: float
) -> None:
    """Every place a fighter next to the target may be pushed to that is in contact with
    it (:func:`in_contact`) is among ``_PushPlaces.touching``; and some are left out of it
    only when both bases are square."""
    target = Base.of("large", "square", 50, 30, 90 + turn)
    o = Base.of(size, shape, 0, 0)
    half = target.width / 2.0 + o.depth / 2.0 + gap
    x, y = _turned(50.0 + slide, 30.0 - half, turn)
    o = Base.of(size, shape, x, y, 90 + turn)
    places = _PushPlaces(o, target)
    for batch, (bx, _) in enumerate(places.batches):
        kept = set(places.touching(batch).tolist())
        touched = {
            k for k in range(len(bx)) if in_contact(o.moved(bx[k], by_(places, batch, k)), target)
        }
        assert touched <= kept
        if shape == "round":
            assert kept == set(range(len(bx)))
        for k in sorted(touched)[:3]:
            assert places.in_contact(batch, k) == o.moved(bx[k], by_(places, batch, k))


def by_(places: _PushPlaces, batch: int, k: int) -> float:
    """The y of place ``k`` of ``batch``."""
    return float(places.batches[batch][1][k])


def test_the_screen_leaves_out_most_places_of_squares() -> None:
    """The point of the screen: of a square's 320 places next to a square target, most are
    farther than the tolerance (pushed away from it) and are not asked."""
    target, ring = _ringed(0.0, 0.0, [0.0] * 4)
    places = _PushPlaces(ring[0], target)
    kept = sum(len(places.touching(b)) for b in range(len(places.batches)))
    assert 0 < kept < 200
    assert np.all(np.diff(places.touching(1)) > 0)


@pytest.mark.rule("II-E-1")
def test_a_second_push_sees_where_the_first_fighter_went() -> None:
    """Two fighters pushed for one newcomer (found by a random search): the second one's
    blocker holds the first one where he was pushed, not where he stood (the kit's near
    bases are only kept while nobody has been pushed)."""
    turn = 67.54848835971093
    target = Base(50.0, 30.0, 90 + turn, "square", 25.0, 25.0, "titan")
    others = [
        Base.of("normal", "square", 49.933777688412775, 27.322331300778508, turn),
        Base.of("normal", "square", 51.706373767707824, 27.58323990745359, 90 + turn),
    ]
    new = Base.of("normal", "square", 51.67713393036581, 25.391623389440845, 27.402162835495748)
    want = ref_contact_31._push(new, target, others, [0, 1], [], TABLE.area)
    assert want is not None and len(want) == 2
    kit = _PushKit(target, others, [])
    for _ in range(2):  # asked again: the kept places and contacts
        assert _push(new, target, others, [0, 1], [], TABLE.area, kit) == want
