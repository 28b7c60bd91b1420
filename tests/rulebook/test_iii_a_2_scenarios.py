"""III-A-2 basic scenarios and the control examples of chapter 20 (XX-C-1, XX-C-2, French).

Control sums Powers and strategic values, Serious −5 and Critical −10 (minimum 0); the
scenarios' round limits and victory points are read from the bundled scenario files.
"""

from __future__ import annotations

import pytest

from confrontation.scenarios import controller, resolve, wounded_value
from confrontation.scenarios.control import area_vp

LIGHT, SERIOUS, CRITICAL = 1, 2, 3


@pytest.mark.rule("III-A-2", "XX-C-1")
def test_khor_warrior_seriously_wounded_counts_18() -> None:
    # "Un guerrier Khor compte pour 23 ... En Blessure grave, ... 23 - 5 = 18 points."
    assert wounded_value(23, SERIOUS) == 18


@pytest.mark.rule("III-A-2", "XX-C-1")
def test_keltois_warrior_critically_wounded_counts_0() -> None:
    # "Un guerrier Keltois compte pour 8 ... En Blessure critique ... Il compte donc pour 0."
    assert wounded_value(8, CRITICAL) == 0


@pytest.mark.rule("III-A-2", "XX-C-2")
def test_wolfen_on_the_hill_power_8_value_121() -> None:
    # Four large Wolfen Fangs worth 34: one Light, one Serious, one Critical wound.
    wolfen = [(2, 34, 0), (2, 34, LIGHT), (2, 34, SERIOUS), (2, 34, CRITICAL)]
    power = sum(p for p, _, _ in wolfen)
    value = sum(wounded_value(v, w) for _, v, w in wolfen)
    assert (power, value) == (8, 121)
    # Six warriors of the Abyss worth 9: two Serious, two Critical.
    abyss = [(1, 9, 0), (1, 9, 0), (1, 9, SERIOUS), (1, 9, SERIOUS)]
    abyss += [(1, 9, CRITICAL), (1, 9, CRITICAL)]
    power_b = sum(p for p, _, _ in abyss)
    value_b = sum(wounded_value(v, w) for _, v, w in abyss)
    assert (power_b, value_b) == (6, 26)
    # Both on the hill: the Wolfen have more Power and more value, so they control it.
    assert controller((power, power_b), (value, value_b)) == 0


@pytest.mark.rule("III-A-2")
def test_control_needs_both_sums_strictly_greater() -> None:
    assert controller((3, 2), (40, 30)) == 0
    assert controller((3, 2), (30, 40)) is None  # more Power, less value: disputed
    assert controller((2, 2), (50, 30)) is None  # equal Power: disputed
    assert controller((1, 4), (10, 60)) == 1


@pytest.mark.rule("III-A-2")
def test_bloodbath_six_rounds_the_entire_battlefield() -> None:
    bloodbath = resolve("bloodbath")
    assert bloodbath.rounds == 6 and bloodbath.goal == "control"
    assert [(a.shape, a.owner) for a in bloodbath.areas] == [("table", None)]


@pytest.mark.rule("III-A-2")
def test_conquest_one_vp_own_area_two_centre_three_enemy_area() -> None:
    conquest = resolve("conquest")
    assert conquest.rounds == 6
    own1, own2, centre = conquest.record().areas  # a two-player game's areas
    assert (own1.shape, own1.owner, own2.shape, own2.owner) == ("deployment", 0, "deployment", 1)
    assert centre.shape == "centre"
    assert [area_vp(own1, 0), area_vp(own1, 1)] == [1, 3]
    assert [area_vp(own2, 1), area_vp(own2, 0)] == [1, 3]
    assert [area_vp(centre, 0), area_vp(centre, 1)] == [2, 2]
    # The variation: restricted areas (campsites, a watchtower in the middle).
    assert [a.shape for a in resolve("conquest:campsites").areas] == ["circle"] * 3


@pytest.mark.rule("III-A-2")
def test_execution_five_rounds_highest_value_or_a_random_card() -> None:
    execution = resolve("execution")
    assert (execution.rounds, execution.goal, execution.target) == (5, "execution", "highest-value")
    assert resolve("execution:random-card").target == "random-card"
