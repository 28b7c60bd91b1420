"""Distances (V-A, II-C) and contact (II-E) -- table-driven."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import box

from confrontation.geometry import (
    Base,
    Table,
    distance,
    geometry_distance,
    in_contact,
    nearest_contact_position,
    point_distance,
    sight_touches,
    touching,
    wholly_within,
    within,
)

SIZES = ["small", "normal", "large", "very-large"]


@pytest.mark.rule("V-A")
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # two 25 mm squares, side by side, 5 cm between centres -> 2.5 cm edge to edge
        (Base.of("normal", "square", 0, 0), Base.of("normal", "square", 5, 0), 2.5),
        # two 30 mm rounds, 10 cm between centres -> 7 cm
        (Base.of("normal", "round", 0, 0), Base.of("normal", "round", 0, 10), 7.0),
        # round 40 mm and square 25 mm: 10 - 2 - 1.25
        (Base.of("large", "round", 0, 0), Base.of("normal", "square", 10, 0), 6.75),
        # diagonal squares: corner to corner, (5 - 2.5) * sqrt 2
        (Base.of("normal", "square", 0, 0), Base.of("normal", "square", 5, 5), 2.5 * math.sqrt(2)),
        # a square turned 45°: its corner is 1.25 * sqrt 2 from its centre
        (
            Base.of("normal", "square", 0, 0, 45),
            Base.of("normal", "square", 5, 0),
            5 - 1.25 - 1.25 * math.sqrt(2),
        ),
        # overlapping -> 0
        (Base.of("normal", "round", 0, 0), Base.of("normal", "round", 1, 0), 0.0),
    ],
)
def test_distance_edge_to_edge(a: Base, b: Base, expected: float) -> None:
    assert distance(a, b) == pytest.approx(expected)
    assert distance(b, a) == pytest.approx(expected)


@pytest.mark.rule("V-A", "II-C-1")
def test_point_and_scenery_distance_and_partially_within() -> None:
    b = Base.of("normal", "square", 10, 10)
    assert point_distance(b, 10, 20) == pytest.approx(8.75)
    assert point_distance(b, 10, 10) == 0.0
    assert geometry_distance(b, box(20, 0, 30, 30)) == pytest.approx(8.75)
    r = Base.of("normal", "round", 10, 10)
    assert geometry_distance(r, box(20, 0, 30, 30)) == pytest.approx(8.5)
    far = Base.of("normal", "round", 20, 10)  # centre 10 away, edge 7 away
    assert within(r, far, 7.0) and not within(r, far, 6.9)  # partially within counts
    assert wholly_within(b, box(0, 0, 20, 20)) and not wholly_within(b, box(0, 0, 10.5, 20))


def _flush(a_size: str, b_size: str, shape: str, shift: float) -> tuple[Base, Base]:
    """Two bases, b just right of a, touching, b's centre raised by ``shift`` cm."""
    a = Base.of(a_size, shape, 0, 0, 0)  # type: ignore[arg-type]
    b0 = Base.of(b_size, shape, 0, 0, 180)  # type: ignore[arg-type]
    return a, b0.moved(a.depth / 2 + b0.depth / 2, shift)


@pytest.mark.rule("II-E-1")
@pytest.mark.parametrize("a_size", SIZES)
@pytest.mark.parametrize("b_size", SIZES)
def test_square_contact_needs_half_a_side(a_size: str, b_size: str) -> None:
    a, b = _flush(a_size, b_size, "square", 0.0)
    assert in_contact(a, b) and in_contact(b, a)
    # shift b along the shared edge until exactly half of the smaller side still touches
    small_side = min(a.width, b.width)
    big_side = max(a.width, b.width)
    edge = (a.width + b.width) / 2  # shift at which the sides only meet at a corner
    at_half = edge - small_side / 2  # overlap = half of the smaller side
    a2, b2 = _flush(a_size, b_size, "square", at_half - 0.003)  # 0.03 mm more than half
    assert in_contact(a2, b2) and in_contact(b2, a2)
    a3, b3 = _flush(a_size, b_size, "square", at_half + 0.02)  # 0.2 mm less than half
    assert touching(a3, b3)
    assert not in_contact(a3, b3) and not in_contact(b3, a3)
    assert big_side >= small_side
    apart = b.moved(b.x + 0.01, b.y)  # 0.1 mm gap > 0.05 mm tolerance
    assert not in_contact(a, apart)
    within_tol = b.moved(b.x + 0.004, b.y)
    assert in_contact(a, within_tol)


@pytest.mark.rule("II-E-2", "II-E")
@pytest.mark.parametrize("a_size", SIZES)
@pytest.mark.parametrize("b_size", SIZES)
@pytest.mark.parametrize("angle", [0, 37, 90, 200])
def test_round_contact_any_touch(a_size: str, b_size: str, angle: float) -> None:
    a = Base.of(a_size, "round", 20, 20)
    b0 = Base.of(b_size, "round", 0, 0)
    d = a.radius + b0.radius
    t = math.radians(angle)
    b = b0.moved(20 + d * math.cos(t), 20 + d * math.sin(t))
    assert in_contact(a, b) and in_contact(b, a)
    b_far = b0.moved(20 + (d + 0.01) * math.cos(t), 20 + (d + 0.01) * math.sin(t))
    assert not in_contact(a, b_far)


@pytest.mark.rule("II-E-2", "II-E")
def test_mixed_round_and_square_contact_any_touch() -> None:
    sq = Base.of("normal", "square", 0, 0, 0)
    # the round base touches only the square's corner: contact (ruling, docs/rulings.md)
    r = Base.of("normal", "round", 0, 0)
    off = 1.25 + 1.5 / math.sqrt(2)
    corner = r.moved(off, off)
    assert in_contact(sq, corner) and in_contact(corner, sq)


@pytest.mark.rule("II-E-1", "V-B-3")
@pytest.mark.parametrize("target_shape", ["square", "round"])
@pytest.mark.parametrize("mover_shape", ["square", "round"])
@pytest.mark.parametrize("mover_size", ["normal", "large", "very-large"])
def test_nearest_contact_position(target_shape: str, mover_shape: str, mover_size: str) -> None:
    target = Base.of("normal", target_shape, 50, 30)  # type: ignore[arg-type]
    mover = Base.of(mover_size, mover_shape, 50, 10)  # type: ignore[arg-type]
    wall = box(40, 33.5, 60, 36)  # behind the target: its far side is not free
    placed = nearest_contact_position(
        mover, target, [], [wall], reference=mover.sight, table=Table().area
    )
    assert placed is not None
    p = placed.base
    assert in_contact(p, target) and sight_touches(p, target)
    assert p.y < target.y  # the near side, towards the reference
    assert p.x == pytest.approx(50, abs=0.06)
    assert not p.polygon.buffer(-0.01).intersects(wall)
    assert not p.polygon.buffer(-0.01).intersects(target.polygon)


@pytest.mark.rule("II-E-1")
def test_contact_position_goes_round_a_fighter_in_the_way_or_pushes_it() -> None:
    target = Base.of("normal", "square", 50, 30)
    mover = Base.of("normal", "square", 50, 10)
    blocker = Base.of("normal", "square", 50, 27.5, 90)  # flush below the target
    placed = nearest_contact_position(mover, target, [blocker], reference=mover.sight)
    assert placed is not None and not placed.pushed
    assert not placed.base.polygon.buffer(-0.01).intersects(blocker.polygon)
    # a large target (37.5 mm) with a normal fighter in the middle of each side: 6.25 mm
    # free at each end of a side, less than the 12.5 mm a 25 mm square needs, so the
    # mover needs a push (6.25 mm <= 1 cm) of a fighter in contact with the target
    target = Base.of("large", "square", 50, 30)
    ring = [
        Base.of("normal", "square", 50, 26.875, 90),
        Base.of("normal", "square", 50, 33.125, 270),
        Base.of("normal", "square", 46.875, 30, 0),
        Base.of("normal", "square", 53.125, 30, 180),
    ]
    none = nearest_contact_position(mover, target, ring, reference=mover.sight)
    assert none is None  # no free edge and no push allowed
    pushed = nearest_contact_position(
        mover, target, ring, reference=mover.sight, pushable=[0, 1, 2, 3]
    )
    assert pushed is not None and pushed.pushed
    everyone = [pushed.base, *(dict(pushed.pushed).get(i, b) for i, b in enumerate(ring))]
    for i, x in enumerate(everyone):
        assert in_contact(x, target)
        for y in everyone[i + 1 :]:
            assert not x.polygon.buffer(-0.006).intersects(y.polygon.buffer(-0.006))
    for i, moved in pushed.pushed:
        assert math.dist(moved.centre, ring[i].centre) <= 1.0 + 1e-9


@pytest.mark.rule("II-E-3")
def test_contact_position_skips_the_places_the_caller_refuses() -> None:
    """``accept`` (the engine's II-E-3 contact limits) refuses places: the nearest accepted
    one is returned, free or with a push (II-E-1); none accepted, none returned."""
    target = Base.of("normal", "square", 50, 30)
    mover = Base.of("normal", "square", 50, 10)
    nearest = nearest_contact_position(mover, target, reference=mover.sight)
    assert nearest is not None and nearest.base.y < target.y  # below the target
    above = nearest_contact_position(
        mover, target, reference=mover.sight, accept=lambda p: p.base.y > target.y
    )
    assert above is not None and above.base.y > target.y and in_contact(above.base, target)
    assert nearest_contact_position(mover, target, accept=lambda p: False) is None
    # with pushes: the large target ringed as above, every pushed placement refused
    large = Base.of("large", "square", 50, 30)
    ring = [
        Base.of("normal", "square", 50, 26.875, 90),
        Base.of("normal", "square", 50, 33.125, 270),
        Base.of("normal", "square", 46.875, 30, 0),
        Base.of("normal", "square", 53.125, 30, 180),
    ]
    refused = nearest_contact_position(
        mover, large, ring, reference=mover.sight, pushable=[0, 1, 2, 3], accept=lambda p: False
    )
    assert refused is None
