"""Current values (II-A-4), wound penalties and Stunned (II-B-4, II-B-5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.rules.characteristics import (
    WOUND_PENALISED,
    Characteristic,
    HealthState,
    Modifiers,
    current_value,
    divide_up,
    half_up,
    wound_penalty,
)

C = Characteristic

health_states = st.builds(HealthState, st.integers(0, 4), st.booleans())
modifiers = st.builds(
    Modifiers,
    st.none() | st.integers(-5, 20),
    st.integers(0, 15),
    st.integers(0, 15),
)


@pytest.mark.rule("II-A-4")
def test_replacement_then_penalties_then_bonuses() -> None:
    # Reference 5 replaced by 2, then a malus of 1, then a bonus of 3.
    assert current_value(C.ATT, 5, Modifiers(replacement=2, penalties=1, bonuses=3)) == 4
    # Wound penalties are maluses: they apply to the replaced value too.
    assert current_value(C.ATT, 5, Modifiers(replacement=2), HealthState(2)) == 0


@pytest.mark.rule("II-A-4")
def test_no_bound_except_movement_and_resistance() -> None:
    assert current_value(C.ATT, 1, Modifiers(penalties=5)) == -4
    assert current_value(C.DEF, 9, Modifiers(bonuses=20)) == 29
    assert current_value(C.MOV, 10, Modifiers(penalties=15)) == 0
    assert current_value(C.RES, 4, Modifiers(penalties=9)) == 1
    assert current_value(C.RES, 0) == 1
    # The bounds hold on the current value, not on the steps (docs/rulings.md, II-A-4).
    assert current_value(C.MOV, 10, Modifiers(penalties=15, bonuses=10)) == 5


@pytest.mark.rule("II-A-4")
@pytest.mark.parametrize(
    ("value", "half"), [(0, 0), (1, 1), (4, 2), (5, 3), (15, 8), (-1, 0), (-3, -1), (-4, -2)]
)
def test_halves_round_up(value: int, half: int) -> None:
    assert half_up(value) == half


@pytest.mark.rule("II-A-4")
def test_divide_up() -> None:
    assert divide_up(10, 3) == 4
    assert divide_up(9, 3) == 3
    with pytest.raises(ValueError, match="divisor"):
        divide_up(1, 0)


@pytest.mark.rule("II-B-4")
def test_wound_penalties_hit_the_listed_characteristics_only() -> None:
    light = HealthState(1)
    for characteristic in Characteristic:
        expected = 6 - 1 if characteristic in WOUND_PENALISED else 6
        assert current_value(characteristic, 6, health=light) == expected, characteristic
    assert {C.INI, C.ATT, C.DEF, C.AIM, C.STR, C.POW} <= WOUND_PENALISED
    assert not {C.MOV, C.RES, C.DIS, C.COURAGE, C.FEAR, C.AIM_STR} & WOUND_PENALISED


@pytest.mark.rule("II-B-4")
@pytest.mark.parametrize(
    ("levels", "stunned", "penalty"),
    [(0, False, 0), (0, True, 1), (1, False, 1), (1, True, 2), (2, True, 3), (3, False, 3)],
)
def test_wound_penalty_per_level_and_stunned(levels: int, stunned: bool, penalty: int) -> None:
    assert wound_penalty(HealthState(levels, stunned)) == penalty


@pytest.mark.rule("II-B-5")
def test_stunned_ends_with_the_round_wounds_stay() -> None:
    health = HealthState(2, stunned=True)
    after = health.end_of_round()
    assert after == HealthState(2, stunned=False)
    assert current_value(C.ATT, 4, health=after) == 2
    assert HealthState(1).end_of_round() == HealthState(1)


@pytest.mark.rule("II-B-2")
def test_health_state_bounds() -> None:
    assert HealthState(4).killed and not HealthState(3).killed
    with pytest.raises(ValueError, match="wound levels"):
        HealthState(5)
    with pytest.raises(ValueError, match="wound levels"):
        HealthState(-1)


def test_modifiers_validate_and_combine() -> None:
    with pytest.raises(ValueError, match="penalties"):
        Modifiers(penalties=-1)
    with pytest.raises(ValueError, match="bonuses"):
        Modifiers(bonuses=-2)
    assert Modifiers(3, 1, 0) + Modifiers(None, 2, 4) == Modifiers(3, 3, 4)
    with pytest.raises(ValueError, match="replacements"):
        Modifiers(replacement=3) + Modifiers(replacement=4)


def test_characteristic_parse() -> None:
    assert Characteristic.parse("str") is C.STR
    assert Characteristic.parse("COU") is C.COURAGE
    assert Characteristic.parse("courage") is C.COURAGE
    with pytest.raises(ValueError, match="unknown characteristic 'XYZ'"):
        Characteristic.parse("XYZ")


@pytest.mark.rule("II-A-4")
@given(st.integers(-10, 20), modifiers, health_states)
def test_movement_and_resistance_never_below_their_minimum(
    reference: int, mods: Modifiers, health: HealthState
) -> None:
    assert current_value(C.MOV, reference, mods, health) >= 0
    assert current_value(C.RES, reference, mods, health) >= 1


@pytest.mark.rule("II-A-4", "II-B-4")
@given(st.sampled_from(list(Characteristic)), st.integers(-10, 20), modifiers, health_states)
def test_current_value_formula(
    characteristic: Characteristic, reference: int, mods: Modifiers, health: HealthState
) -> None:
    base = reference if mods.replacement is None else mods.replacement
    wounds = health.wound_levels + health.stunned if characteristic in WOUND_PENALISED else 0
    raw = base - mods.penalties - wounds + mods.bonuses
    floor = {C.MOV: 0, C.RES: 1}.get(characteristic)
    expected = raw if floor is None else max(raw, floor)
    assert current_value(characteristic, reference, mods, health) == expected


@pytest.mark.rule("II-B-4")
@given(st.sampled_from(sorted(WOUND_PENALISED, key=str)), st.integers(-5, 12), health_states)
def test_more_wounds_never_raise_a_penalised_value(
    characteristic: Characteristic, reference: int, health: HealthState
) -> None:
    worse = HealthState(min(health.wound_levels + 1, 4), health.stunned)
    assert current_value(characteristic, reference, health=worse) <= current_value(
        characteristic, reference, health=health
    )
