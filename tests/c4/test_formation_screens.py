"""The quick routes of the C4 lay-outs (``# Units > Unit formation``, ``# Moving a Unit``)
answer as the plain ones they replace (issue 22, thirteenth round): :func:`in_formation`
is ``not formation_problems``, :func:`fits` screens shapes by boxes and makes only the discs
in doubt, :func:`lay_out` gives up at once when the leader's own place does not fit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from confrontation.c4.formation import (
    Formation,
    Member,
    fits,
    formation_problems,
    in_formation,
    lay_out,
    member_base,
)
from confrontation.geometry import CONTACT_TOLERANCE_CM

pytestmark = pytest.mark.rule("C4-UNIT-FORMATION")


def plain_fits(
    members: Iterable[Member],
    obstacles: Sequence[BaseGeometry] = (),
    table: BaseGeometry | None = None,
) -> bool:
    """``fits`` as it was: every disc made and asked about every shape."""
    for m in members:
        disc = Point(m.x, m.y).buffer(m.radius - CONTACT_TOLERANCE_CM, quad_segs=8)
        if table is not None and not table.covers(disc):
            return False
        if any(disc.intersects(o) for o in obstacles):
            return False
    return True


coordinate = st.floats(-5.0, 25.0, allow_nan=False)
radius = st.sampled_from([1.25, 1.5, 2.0, 2.5])


@st.composite
def members(draw: st.DrawFn, least: int = 1) -> list[Member]:
    n = draw(st.integers(least, 9))
    return [
        Member(
            f"m{k}",
            draw(coordinate),
            draw(coordinate),
            draw(radius),
            engaged=draw(st.booleans()),
        )
        for k in range(n)
    ]


@st.composite
def shapes(draw: st.DrawFn) -> list[BaseGeometry]:
    out: list[BaseGeometry] = []
    for _ in range(draw(st.integers(0, 6))):
        x, y = draw(coordinate), draw(coordinate)
        kind = draw(st.sampled_from(["base", "grown base", "wall"]))
        if kind == "wall":
            out.append(box(x, y, x + draw(st.floats(0.1, 8.0)), y + draw(st.floats(0.1, 3.0))))
        else:
            base = member_base(Member("o", x, y, draw(radius))).polygon
            out.append(base.buffer(0.02) if kind == "grown base" else base)
    return out


TABLES: list[BaseGeometry | None] = [
    None,
    box(0.0, 0.0, 20.0, 20.0),
    Polygon([(0, 0), (20, 0), (20, 10), (10, 10), (10, 20), (0, 20)]),  # not a box
]


@settings(max_examples=150, deadline=None)
@given(members(), shapes(), st.sampled_from(TABLES))
def test_fits_answers_as_every_disc_asked_about_every_shape(
    placed: list[Member], obstacles: list[BaseGeometry], table: BaseGeometry | None
) -> None:
    assert fits(placed, obstacles, table) == plain_fits(placed, obstacles, table)


def test_fits_on_the_edge_and_against_a_touching_base() -> None:
    # bases whose disc just touches the table's edge or a neighbour's base: the box screens
    # must leave these to GEOS, which decides them as before
    table = box(0.0, 0.0, 20.0, 20.0)
    r = 1.25
    for x in (r - CONTACT_TOLERANCE_CM, r - CONTACT_TOLERANCE_CM - 1e-9, r, 19.0):
        m = Member("a", x, 10.0, r)
        assert fits([m], (), table) == plain_fits([m], (), table)
    wall = box(10.0, 0.0, 11.0, 20.0)
    for x in (10.0 - r + CONTACT_TOLERANCE_CM, 10.0 - r + CONTACT_TOLERANCE_CM - 1e-9, 7.0):
        m = Member("a", x, 5.0, r)
        assert fits([m], [wall], table) == plain_fits([m], [wall], table)
    assert not fits([Member("a", 10.0, 5.0, r)], [wall], table)
    assert not fits([Member("a", 0.5, 5.0, r)], [], table)  # off the table's edge


@settings(max_examples=200, deadline=None)
@given(members(), st.sampled_from(list(Formation)), st.floats(0.0, 360.0))
def test_in_formation_is_no_formation_problem(
    placed: list[Member], formation: Formation, facing: float
) -> None:
    leader = placed[0].id
    assert in_formation(placed, leader, formation, facing) == (
        not formation_problems(placed, leader, formation, facing)
    )


def test_in_formation_on_the_limits() -> None:
    # scattered: 2.5 cm to a neighbour and 10 cm to the leader are in, a hair more is out
    lead = Member("L", 0.0, 0.0, 1.0)
    for d, ok in ((2.5, True), (2.5 + CONTACT_TOLERANCE_CM + 1e-6, False)):
        pair = [lead, Member("b", 2.0 + d, 0.0, 1.0)]
        assert in_formation(pair, "L", Formation.SCATTERED) is ok
        assert ok == (not formation_problems(pair, "L", Formation.SCATTERED))
    alone = [lead]
    assert in_formation(alone, "L", Formation.SCATTERED)
    overlap = [lead, Member("b", 1.5, 0.0, 1.0)]
    assert not in_formation(overlap, "L", Formation.SCATTERED)


def plain_lay_out(
    members: Sequence[Member],
    leader: str,
    at: tuple[float, float],
    facing: float,
    formation: Formation,
    obstacles: Sequence[BaseGeometry],
    table: BaseGeometry | None,
) -> tuple[Member, ...] | None:
    """``lay_out`` as it was: every width tried, the plain formation and fit tests."""
    from confrontation.c4.formation import _placed, default_per_rank

    n = len(members)
    want = default_per_rank(n)
    for w in sorted(range(1, n + 1), key=lambda w: (abs(w - want), -w)):
        placed = _placed(members, leader, at, facing, formation, w)
        free = [Member(m.id, m.x, m.y, m.radius, m.standard, m.incarnate) for m in placed]
        if formation_problems(free, leader, formation, facing):
            continue
        if plain_fits(placed, obstacles, table):
            return tuple(placed)
    return None


@settings(max_examples=120, deadline=None)
@given(
    members(least=1),
    st.tuples(coordinate, coordinate),
    st.floats(0.0, 360.0),
    st.sampled_from(list(Formation)),
    shapes(),
    st.sampled_from(TABLES),
)
def test_lay_out_is_the_plain_lay_out(
    unit: list[Member],
    at: tuple[float, float],
    facing: float,
    formation: Formation,
    obstacles: list[BaseGeometry],
    table: BaseGeometry | None,
) -> None:
    leader = unit[len(unit) // 2].id
    got = lay_out(unit, leader, at, facing, formation, obstacles=obstacles, table=table)
    assert got == plain_lay_out(unit, leader, at, facing, formation, obstacles, table)
    if got is not None:  # the shortcut's premise: the leader's centre is ``at`` exactly
        assert next(m.centre for m in got if m.id == leader) == at


@pytest.mark.parametrize("formation", list(Formation))
def test_the_leaders_new_place_decides_not_where_he_stands(formation: Formation) -> None:
    # the shortcut tests the leader's disc at ``at``: standing in a wall does not stop a
    # lay-out in the open, and a place in the wall stops every width
    wall = box(0.0, 0.0, 4.0, 4.0)
    table = box(-30.0, -30.0, 30.0, 30.0)
    unit = [Member(f"m{k}", 2.0 + k * 0.1, 2.0, 1.25) for k in range(4)]
    leader = unit[2].id
    got = lay_out(unit, leader, (15.0, 15.0), 90.0, formation, obstacles=[wall], table=table)
    assert got is not None
    assert got == plain_lay_out(unit, leader, (15.0, 15.0), 90.0, formation, [wall], table)
    away = [m.at(m.x + 15.0, m.y + 15.0) for m in unit]
    assert lay_out(away, leader, (2.0, 2.0), 90.0, formation, obstacles=[wall], table=table) is None
