"""Rulebook diagrams of II-D-3, II-E-1, II-E-2, II-F-1 and V-A, rebuilt with coordinates.

The diagrams themselves are not in the documents; each test builds a position that
satisfies everything the text states about it and says what it assumed. Units: cm, origin
at the table's lower-left corner, facing in degrees (90 = up the table).
"""

from __future__ import annotations

import math

import pytest
from shapely.geometry import LineString, box

from confrontation.geometry import (
    Barrier,
    Base,
    Battlefield,
    Scenery,
    Sight,
    Table,
    contact_by_move_possible,
    in_contact,
    line_of_sight,
    point_distance,
    sight_touches,
    touching,
)
from confrontation.geometry.contact import _clip_length, half_side_touching


def sq(x: float, y: float, facing: float = 90.0, size: str = "normal") -> Base:
    return Base.of(size, "square", x, y, facing)


def rd(x: float, y: float, facing: float = 90.0, size: str = "normal") -> Base:
    return Base.of(size, "round", x, y, facing)


@pytest.mark.rule("II-E-1")
def test_a_and_z_in_contact_after_a_move_by_a() -> None:
    # Assumed: 25 mm squares; A faces up with its front side flush against Z's lower side,
    # Z faces right (its sight on its right side, away from A).
    a, z = sq(10, 10, 90), sq(10, 12.5, 0)
    assert in_contact(a, z) and in_contact(z, a)
    assert sight_touches(a, z)
    assert not sight_touches(z, a)  # "Z could not have contacted A in this way"
    assert contact_by_move_possible(a, z)
    assert not contact_by_move_possible(z, a)


@pytest.mark.rule("II-E-1")
def test_b_and_y_touch_but_are_not_in_contact() -> None:
    # Assumed: side by side, offset so that only 5 mm of their 25 mm sides touch.
    b, y = sq(20, 10), sq(22.5, 12.0)
    assert touching(b, y)
    assert not in_contact(b, y) and not in_contact(y, b)


@pytest.mark.rule("II-E-1", "II-E")
def test_c_x_and_w_in_contact_though_x_has_less_than_half_a_side_touching() -> None:
    # Assumed: X is large (37.5 mm square) -- the only way for C to touch X with half of
    # its side while X touches C with less than half of its own. C (normal, 25 mm) faces X
    # from below with 16.25 mm of its front side against X's lower side (>= 12.5, half of
    # C's side; < 18.75, half of X's). X faces right. W is flush against C's left side,
    # facing C.
    x = sq(40, 20, 0, size="large")
    c = sq(38.5, 16.875, 90)
    w = sq(36.0, 16.875, 0)
    lower_x = min(x.sides(), key=lambda s: s[0][1] + s[1][1])
    shared = _clip_length(*lower_x, c, 0.005)
    assert 1.25 <= shared < 1.875
    assert half_side_touching(c, x)
    assert not half_side_touching(x, c)  # "X has less than half of his base in contact"
    assert in_contact(c, x) and in_contact(x, c)  # bilateral
    assert in_contact(c, w) and in_contact(w, c)
    assert sight_touches(c, x) and not sight_touches(x, c)  # "it is C who has moved"
    assert contact_by_move_possible(c, x) and not contact_by_move_possible(x, c)


@pytest.mark.rule("II-E-2")
def test_round_a_and_z_in_contact_by_z_moving() -> None:
    # Assumed: 30 mm rounds; Z touches A at 30° from A's centre, facing A; A faces down.
    a = rd(10, 10, 270)
    ang = math.radians(30)
    z = rd(10 + 3 * math.cos(ang), 10 + 3 * math.sin(ang), 210)
    assert in_contact(a, z) and in_contact(z, a)
    assert contact_by_move_possible(z, a)
    assert not contact_by_move_possible(a, z)


@pytest.mark.rule("II-E-2")
def test_b_x_y_in_contact_by_the_move_of_b_or_of_x_and_y() -> None:
    # Assumed: B faces X (above it); X faces B; Y, to B's right, faces B.
    b, x, y = rd(30, 10, 90), rd(30, 13, 270), rd(33, 10, 180)
    assert in_contact(b, x) and in_contact(b, y)
    assert not in_contact(x, y)
    assert contact_by_move_possible(b, x)  # B may have moved...
    assert contact_by_move_possible(x, b) and contact_by_move_possible(y, b)  # ...or X and Y


def _ii_d_3_field(ruin_height: str = "normal") -> Battlefield:
    # Assumed layout: A (normal) at the bottom facing up. Y and Z in the open up-left and
    # up-right. V straight ahead with a small-size low wall in front of part of it; W right
    # behind V (V's shadow covers W). X (large) to the right, wholly behind a ruin of
    # normal size.
    fighters = {
        "A": sq(60, 10, 90),
        "Y": sq(50, 30),
        "Z": sq(70, 30),
        "V": sq(60, 25),
        "W": sq(60, 40),
        "X": sq(95, 30, size="large"),
    }
    ang = math.radians(28)
    scenery = (
        Scenery("wall", box(60.5, 20, 62.5, 21), height="small"),
        Scenery.rect(
            "ruin",
            60 + 15 * math.cos(ang),
            11.25 + 15 * math.sin(ang),
            6,
            6,
            28,
            height=ruin_height,
        ),
    )
    return Battlefield(Table(), fighters, scenery)


@pytest.mark.rule("II-D-3")
def test_a_sees_y_and_z_partially_v_and_x_not_w() -> None:
    field = _ii_d_3_field()
    assert field.sight("A", "Y") is Sight.SEES
    assert field.sight("A", "Z") is Sight.SEES
    assert field.sight("A", "V") is Sight.PARTIAL  # the low wall cuts some lines
    assert field.sight("A", "X") is Sight.PARTIAL  # every line cut, but the ruin < X
    assert field.sight("A", "W") is Sight.NONE  # V (normal) >= A and W
    a, v = field.fighters["A"], field.fighters["V"]
    assert line_of_sight(a, v) is Sight.SEES  # without the low wall, V is in full view


@pytest.mark.rule("II-D-3")
def test_the_same_ruin_hides_a_normal_fighter_and_a_large_ruin_hides_x() -> None:
    field = _ii_d_3_field()
    ruin = next(s for s in field.scenery if s.name == "ruin")
    hidden = sq(95, 30)  # a normal-size fighter where X stands
    assert line_of_sight(field.fighters["A"], hidden, [Barrier(ruin.footprint, "normal")]) is (
        Sight.NONE
    )
    assert _ii_d_3_field("large").sight("A", "X") is Sight.NONE


@pytest.mark.rule("II-D-4")
def test_contact_gives_sight_even_behind() -> None:
    a, b = sq(10, 10, 90), sq(10, 7.5, 0)  # b behind a, flush
    assert line_of_sight(a, b) is Sight.SEES


@pytest.mark.rule("II-F-1")
def test_altitude_levels_contact_and_sight() -> None:
    ground, flier = sq(10, 10, 90), Base.of("normal", "square", 10, 12.5, 0, level=1)
    assert not in_contact(ground, flier)  # contact only within level 1
    wall = Scenery("wall", box(0, 20, 30, 22), height="very-large")
    beyond_ground = sq(10, 30, 270)
    beyond_air = Base.of("normal", "square", 10, 30, 270, level=1)
    field = Battlefield(Table(), {"g": ground, "b0": beyond_ground, "b1": beyond_air}, (wall,))
    assert field.sight("g", "b0") is Sight.NONE
    assert field.sight("g", "b1") is Sight.SEES  # level-0 barriers don't block 0 <-> 1
    behind = sq(10, 0.5 + 1.25, 90)
    flier_high = Base.of("normal", "square", 10, 8, 90, level=1)
    assert line_of_sight(flier_high, behind) is Sight.SEES  # 360° at level 1
    assert line_of_sight(sq(10, 8, 90), behind) is Sight.NONE  # 180° at level 0


@pytest.mark.rule("V-A")
def test_z_goes_round_y_and_c_to_a() -> None:
    # Assumed: 30 mm rounds. Y and C stand across the straight line from Z's sight to A,
    # 3.2 cm apart (more than Z's 3 cm diameter).
    fighters = {
        "Z": rd(60, 10, 90),
        "Y": rd(59, 30),
        "C": rd(65.2, 30),
        "A": rd(60, 50, 270),
    }
    field = Battlefield(Table(), fighters)
    path = field.path("Z", "A")
    assert path is not None
    line = path.line()
    crossing = line.intersection(LineString([(0, 30), (120, 30)]))
    assert 60.5 < crossing.x < 63.7  # between Y (right edge 60.5) and C (left edge 63.7)
    assert point_distance(fighters["A"], *path.end) == pytest.approx(0, abs=1e-6)
    # no shorter than the straight line to A's edge, no longer than via the gap's middle
    straight = point_distance(fighters["A"], *fighters["Z"].sight)
    via_mid = math.dist((60, 11.5), (62.1, 30)) + point_distance(fighters["A"], 62.1, 30)
    assert straight < path.length <= via_mid + 1e-9
    for other in ("Y", "C"):
        assert not line.intersects(fighters[other].polygon.buffer(-0.01))

    narrow = dict(fighters, C=rd(64.3, 30))  # a 2.8 cm gap: Z can't pass
    detour = Battlefield(Table(), narrow).path("Z", "A")
    assert detour is not None
    x = detour.line().intersection(LineString([(0, 30), (120, 30)])).x
    assert not 60.5 < x < 62.8
    assert detour.length > path.length
