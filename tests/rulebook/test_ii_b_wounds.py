"""Rulebook worked examples of II-A-4 and II-B (wounds), replayed with fixed dice.

The wound-table examples are those CLARIFICATIONS §1 lists; the Praetorian Guard and Dawn
warrior examples come from the melee example of chapter VII.
"""

from __future__ import annotations

import pytest

from confrontation.dice import ScriptedRoller
from confrontation.rules.characteristics import (
    Characteristic,
    HealthState,
    current_value,
)
from confrontation.rules.wounds import (
    Location,
    WoundResult,
    apply_wound,
    roll_wound,
)

C = Characteristic


@pytest.mark.rule("II-B-1")
def test_goblin_bushi_light_wound_in_the_belly() -> None:
    # Alahan guard STR 3 against a Goblin bûshi RES 5; dice '3' and '5'.
    roller = ScriptedRoller([3, 5])
    wound = roll_wound(roller, strength=3, resistance=5)
    assert roller.remaining == 0
    assert wound.kept == (3, 5)
    assert wound.location is Location.BELLY
    assert wound.row == 5 + 3 - 5 == 3
    assert wound.label == "2/3"
    assert wound.result is WoundResult.LIGHT


@pytest.mark.rule("II-B-1")
def test_praetorian_guard_stunned_in_the_arm() -> None:
    # A Dawn warrior (STR 7) wounds the Praetorian Guard (RES 11): '2' and '3'.
    wound = roll_wound(ScriptedRoller([2, 3]), strength=7, resistance=11)
    assert wound.location is Location.ARMS
    assert wound.row == 3 + 7 - 11 == -1
    assert wound.result is WoundResult.STUNNED


@pytest.mark.rule("II-B-1")
def test_praetorian_guard_light_wound_in_the_belly() -> None:
    # Arkeon Sanath (STR 7) against the Praetorian Guard (RES 11): '3' and '5'.
    wound = roll_wound(ScriptedRoller([5, 3]), strength=7, resistance=11)
    assert wound.location is Location.BELLY
    assert wound.row == 5 + 7 - 11 == 1
    assert wound.result is WoundResult.LIGHT


@pytest.mark.rule("II-B-1")
@pytest.mark.parametrize("strength", [6, 7])
def test_praetorian_guard_killed_outright_by_a_double_six(strength: int) -> None:
    # The first Dawn warrior, in Light wound (STR 7 - 1 = 6), rolls '6' and '6': the table
    # would read 6 + 6 - 11 = 1 in the head (Serious), but 6-6 is Killed Outright.
    wound = roll_wound(ScriptedRoller([6, 6]), strength=strength, resistance=11)
    assert wound.double_six
    assert wound.row == 6 + strength - 11
    assert wound.location is Location.HEAD
    assert wound.result is WoundResult.KILLED
    # The book: he was in Light wound; a Serious would only make it Critical, 6-6 kills.
    assert apply_wound(HealthState(1), wound.result).killed
    assert not apply_wound(HealthState(1), WoundResult.SERIOUS).killed


@pytest.mark.rule("II-B-1")
def test_dawn_warrior_light_wound_in_the_arm() -> None:
    # The Praetorian Guard (current STR 6) against a Dawn warrior (RES 7): '2' and '6'.
    wound = roll_wound(ScriptedRoller([2, 6]), strength=6, resistance=7)
    assert wound.location is Location.ARMS
    assert wound.row == 6 + 6 - 7 == 5
    assert wound.result is WoundResult.LIGHT


@pytest.mark.rule("II-B-1")
def test_second_dawn_warrior_serious_wound_in_the_chest() -> None:
    wound = roll_wound(ScriptedRoller([4, 5]), strength=6, resistance=7)
    assert wound.location is Location.CHEST
    assert wound.row == 5 + 6 - 7 == 4
    assert wound.result is WoundResult.SERIOUS


@pytest.mark.rule("II-B", "II-B-1", "II-B-4", "II-B-5")
def test_praetorian_guard_light_wound_and_stunned_lose_two() -> None:
    # "Under the effect of a Light Wound and a Stunned, his current ATT and FOR values are
    # 3 (5-2) and 6 (8-2)": the wounds of the two rolls above, applied in order.
    guard = HealthState()
    guard = apply_wound(guard, roll_wound(ScriptedRoller([2, 3]), 7, 11).result)
    guard = apply_wound(guard, roll_wound(ScriptedRoller([3, 5]), 7, 11).result)
    assert guard == HealthState(wound_levels=1, stunned=True)
    assert current_value(C.ATT, 5, health=guard) == 3
    assert current_value(C.STR, 8, health=guard) == 6
    # The Dawn warrior in Light wound: STR 7 - 1 = 6.
    assert current_value(C.STR, 7, health=HealthState(1)) == 6


@pytest.mark.rule("II-B-3")
def test_wound_levels_are_cumulative() -> None:
    serious = apply_wound(HealthState(), WoundResult.SERIOUS)
    assert serious.wound_levels == 2 and serious.name == "serious wound"
    critical = apply_wound(serious, WoundResult.LIGHT)
    assert critical.wound_levels == 3 and critical.name == "critical wound"
    assert not critical.killed
    dead = apply_wound(critical, WoundResult.LIGHT)
    assert dead.killed and dead.name == "killed"


@pytest.mark.rule("II-B-3")
def test_stunned_adds_no_wound_level() -> None:
    serious = HealthState(2)
    stunned = apply_wound(serious, WoundResult.STUNNED)
    assert stunned.wound_levels == 2
    assert stunned.stunned


@pytest.mark.rule("II-B-4")
def test_serious_wound_and_stunned_suffer_minus_three() -> None:
    fighter = HealthState(wound_levels=2, stunned=True)
    for characteristic in (C.INI, C.ATT, C.DEF, C.AIM, C.STR, C.POW):
        assert current_value(characteristic, 5, health=fighter) == 5 - 2 - 1


@pytest.mark.rule("II-A-4", "II-B-4")
def test_attack_three_with_a_serious_wound() -> None:
    # ATT 3 in Serious wound rolls '4': current ATT 3 - 2 = 1, final result 4 + 1 = 5.
    attack = current_value(C.ATT, 3, health=HealthState(2))
    assert attack == 1
    assert ScriptedRoller([4]).d6() + attack == 5


@pytest.mark.rule("II-A-4", "II-B-4")
def test_attack_one_with_a_critical_wound_fails() -> None:
    # ATT 1 in Critical wound rolls '2': current ATT 1 - 3 = -2, final result 0: failure.
    attack = current_value(C.ATT, 1, health=HealthState(3))
    assert attack == -2
    final = ScriptedRoller([2]).d6() + attack
    assert final == 0  # II-A-4: a final result of 0 or less is an automatic failure


@pytest.mark.rule("II-B-1", "II-A-4")
def test_a_wound_roll_has_no_automatic_failure_and_no_raise() -> None:
    # Dice '6' and '1', STR 1 against RES 11: row 6 + 1 - 11 = -4 still reads the table
    # (legs: no damage); the '6' is not re-rolled: the roller is asked for two dice only.
    roller = ScriptedRoller([6, 1, 6])
    wound = roll_wound(roller, strength=1, resistance=11)
    assert roller.remaining == 1
    assert wound.row == -4
    assert wound.location is Location.LEGS
    assert wound.result is WoundResult.NONE
    assert roll_wound(ScriptedRoller([2, 2]), 1, 11).result is WoundResult.STUNNED
