"""geometry/areas.py: areas of effect on the table (II-C-1, II-C-2, II-F-2)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.geometry import Base, point_distance
from confrontation.geometry.areas import (
    area_shape,
    fighters_in_area,
    marker_in_contact,
    reach,
    touches,
    wholly_inside,
)


@pytest.mark.rule("II-C-1")
def test_wholly_inside_against_touching() -> None:
    point = (50.0, 50.0)
    # a 25 mm square whose far corners are exactly 10 cm from the point
    half = 1.25
    c = 50 + math.sqrt(10**2 / 2) - half
    inside = Base.of("normal", "square", c, c)
    assert wholly_inside(point, 10, inside) and not wholly_inside(point, 9.9, inside)
    rnd = Base.of("normal", "round", 50, 58.5)  # 30 mm round: 10 cm to its far edge
    assert wholly_inside(point, 10, rnd) and not wholly_inside(point, 9.99, rnd)
    assert touches(point, 7, rnd) and not touches(point, 6.99, rnd)
    around = {"sq": inside, "rd": rnd}
    assert fighters_in_area(point, 10, around, wholly=True) == ["sq", "rd"]
    assert fighters_in_area(point, 9.99, around, wholly=True) == []
    # around a round base the area is the base grown by the radius
    caster = Base.of("normal", "round", 20, 20)
    assert wholly_inside(caster, 5, Base.of("normal", "round", 20, 25))  # 1.5 + 5 = 5 + 1.5
    assert not wholly_inside(caster, 5, Base.of("normal", "round", 20, 25.1))
    square_caster = Base.of("normal", "square", 80, 20)
    assert wholly_inside(square_caster, 5, Base.of("normal", "square", 80, 25))  # flush
    assert not wholly_inside(square_caster, 5, Base.of("normal", "square", 80, 25.1))


@pytest.mark.rule("II-C-2")
def test_marker_in_contact_with_a_round_base() -> None:
    caster = Base.of("normal", "round", 10, 10)  # radius 1.5 cm
    marker = marker_in_contact(caster, (10, 30), marker_radius=1.0)
    assert marker == pytest.approx((10, 12.5))
    assert reach(caster, marker) == pytest.approx(1.0)  # to the marker's centre
    with pytest.raises(ValueError):
        marker_in_contact(caster, (10, 10))
    with pytest.raises(ValueError):
        marker_in_contact(Base.of("normal", "square", 10, 10), (10.5, 10.5))
    with pytest.raises(ValueError):
        touches((0, 0), -1, caster)


@pytest.mark.rule("II-C-1")
@given(
    st.floats(0, 120), st.floats(0, 60), st.floats(0, 360), st.floats(0, 30),
    st.floats(0, 120), st.floats(0, 60),
)  # fmt: skip
def test_touches_agrees_with_the_drawn_area(
    x: float, y: float, facing: float, radius: float, px: float, py: float
) -> None:
    base = Base.of("normal", "square", x, y, facing)
    d = point_distance(base, px, py)
    if abs(d - radius) < 0.01:
        return  # the polygon of the drawn circle is a little inside the true one
    drawn = area_shape((px, py), radius).intersects(base.polygon)
    assert touches((px, py), radius, base) == drawn
    assert not wholly_inside((px, py), radius, base) or touches((px, py), radius, base)
