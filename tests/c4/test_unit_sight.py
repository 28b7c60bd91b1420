"""Sight and range for units (``# Field of vision and line of sigth``, ``# Measuring
Distance``, ``# Unit Ranged Attack > Choice of the target and the marksmen``, ``# Unit
Ranged Attack > Measuring the range``)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.c4.formation import Member
from confrontation.c4.sight import (
    can_target,
    marksmen_who_see,
    range_band,
    range_distance,
    sees,
    sees_unit,
)
from confrontation.geometry import Scenery

R = 1.25
#: an example tape (the bundled bands are c4-rules' data)
BANDS = ((10.0, 2), (20.0, 4), (30.0, 6))


@pytest.mark.rule("C4-FIELD-OF-VISION-AND-LINE-OF-SIGHT")
def test_a_fighter_sees_all_round() -> None:
    # Field of vision and line of sigth: "All miniatures have a 360° field of vision."
    me = Member("m", 50, 30, R)
    for x, y in ((70, 30), (30, 30), (50, 50), (50, 10)):
        assert sees(me, Member("t", x, y, R))


@pytest.mark.rule("C4-FIELD-OF-VISION-AND-LINE-OF-SIGHT")
def test_a_wall_hides_and_flat_scenery_does_not() -> None:
    # Field of vision and line of sigth: "without crossing any obstacle"
    me, them = Member("m", 20, 30, R), Member("t", 40, 30, R)
    wall = Scenery.rect("wall", 30, 30, 2, 20, height="large", passable=False)
    flat = Scenery.rect("pond", 30, 30, 2, 20, height="flat")
    assert not sees(me, them, scenery=[wall])
    assert sees(me, them, scenery=[flat])


def test_other_units_fighters_block() -> None:
    me, them = Member("m", 20, 30, R), Member("t", 40, 30, R)
    screen = [Member(f"s{i}", 30, 30 + 2 * R * i, R) for i in range(-3, 4)]
    assert not sees(me, them, others=screen)
    assert sees(me, them)


@pytest.mark.rule("C4-CHOICE-OF-THE-TARGET-AND-THE-MARKSMEN")
def test_only_marksmen_who_see_a_target_fighter_shoot() -> None:
    # Unit Ranged Attack > Choice of the target and the marksmen: "Only the marksmen who can
    # see a fighter of the targeted unit can shoot."
    wall = Scenery.rect("wall", 30, 20, 2, 10, height="large", passable=False)
    hidden, clear = Member("a", 20, 20, R), Member("b", 20, 40, R)
    target = [Member("t", 40, 20, R)]
    assert marksmen_who_see([hidden, clear], target, scenery=[wall]) == ("b",)
    assert sees_unit(clear, target, scenery=[wall])


def test_an_engaged_unit_cannot_be_targeted() -> None:
    # Choice of the target and the marksmen: "It is impossible to target an engaged unit."
    shooters = [Member("a", 20, 30, R)]
    free = [Member("t", 40, 30, R), Member("u", 42.5, 30, R)]
    engaged = [Member("t", 40, 30, R), Member("u", 42.5, 30, R, engaged=True)]
    assert can_target(shooters, free)
    assert not can_target(shooters, engaged)
    wall = Scenery.rect("wall", 30, 30, 2, 20, height="large", passable=False)
    assert not can_target(shooters, free, scenery=[wall])  # sees no fighter of it


@pytest.mark.rule("C4-MEASURING-DISTANCE", "C4-MEASURING-THE-RANGE")
def test_range_is_leader_to_leader_edge_to_edge() -> None:
    # Measuring Distance: "from the edge of the leader's base to the edge of the enemy
    # leader's base"
    assert range_distance(Member("a", 0, 0, R), Member("b", 22.5, 0, R)) == pytest.approx(20)
    assert range_distance(Member("a", 0, 0, R), Member("b", 2.0, 0, R)) == 0


@pytest.mark.rule("C4-MEASURING-DISTANCE")
def test_partly_within_is_the_shorter_band() -> None:
    # Measuring Distance: "only partially within a certain distance is always considered to
    # be in the shorter of the two distances"
    assert range_band(10.0, BANDS) == 2
    assert range_band(10.01, BANDS) == 4
    assert range_band(0.0, BANDS) == 2
    assert range_band(30.0, BANDS) == 6
    assert range_band(30.5, BANDS) is None


def test_bands_must_grow() -> None:
    with pytest.raises(ValueError):
        range_band(5, ((10.0, 2), (10.0, 4)))


@given(st.floats(0, 40), st.floats(0, 40))
def test_range_band_is_monotone(a: float, b: float) -> None:
    """Invariant: a longer range never gives an easier (lower) difficulty or a band."""
    near, far = sorted((a, b))
    dn, df = range_band(near, BANDS), range_band(far, BANDS)
    if dn is None:
        assert df is None
    elif df is not None:
        assert df >= dn


@given(st.lists(st.tuples(st.floats(-5, 40), st.integers(0, 9)), max_size=5))
def test_bad_bands_raise_or_answer(bands: list[tuple[float, int]]) -> None:
    """Bad input: bands that do not grow raise ValueError; any answer is one of theirs."""
    grows = all(b[0] > a[0] for a, b in itertools.pairwise(bands))
    grows = grows and all(limit >= 0 for limit, _ in bands)
    try:
        got = range_band(20.0, bands)
    except ValueError:
        assert not grows
        return
    assert got is None or got in {d for _, d in bands}
