"""Chapter V (movement): the V-D summary table, the conditions of V-B-1..4, the assault rules
and every charge-penalty example (fighters A to I) of V-B-3, disengagement (V-C)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.dice import RaisePolicy, ScriptedRoller
from confrontation.rules.characteristics import Characteristic, current_value
from confrontation.rules.charge import (
    AssaultKind,
    Charge,
    RedirectChoice,
    assault_kind,
    assault_move,
    charge_modifiers,
    charge_pressure,
    may_rotate_charged,
    penalised_fighters,
    redirect_options,
    redirected_kind,
    rotatable_sets,
)
from confrontation.rules.disengage import (
    DisengageMethod,
    Enemy,
    can_try_disengaging,
    disengage_difficulty,
    disengage_value,
    p_disengage,
    roll_disengage,
)
from confrontation.rules.movement import (
    ActionKind,
    ContactRule,
    MoveSituation,
    ShootingAfter,
    activation_problem,
    allowed_actions,
    can_cross_landform,
    default_movement_table,
    end_position_legal,
    may_rotate,
    may_take_cover_as_reaction,
    movement_potential,
)

C = Characteristic
TABLE = default_movement_table()


# --- V-D: the summary table -----------------------------------------------------------------

# Action, MOV 10 → potential, after disengagement, contact after moving, usable after
# disengagement, type: the five rows of V-D as printed.
V_D = [
    ("walk", 10, 10, ContactRule.FORBIDDEN, True, ActionKind.CUMULATIVE),
    ("run", 20, None, ContactRule.FORBIDDEN, False, ActionKind.EXCLUSIVE),
    ("charge", 20, None, ContactRule.REQUIRED, False, ActionKind.EXCLUSIVE),
    ("engage", 20, 10, ContactRule.REQUIRED, True, ActionKind.EXCLUSIVE),
    ("cover", 10, None, ContactRule.FORBIDDEN, False, ActionKind.EXCLUSIVE),
]


@pytest.mark.rule("V-D")
@pytest.mark.parametrize(("name", "potential", "disengaged", "contact", "after", "kind"), V_D)
def test_summary_table_row(
    name: str,
    potential: int,
    disengaged: int | None,
    contact: ContactRule,
    after: bool,
    kind: ActionKind,
) -> None:
    action = TABLE[name]
    assert movement_potential(action, 10) == potential
    assert action.contact is contact
    assert action.after_disengagement is after
    assert action.kind is kind
    if disengaged is None:
        with pytest.raises(ValueError, match="cannot follow a disengagement"):
            movement_potential(action, 10, disengaged=True)
    else:
        assert movement_potential(action, 10, disengaged=True) == disengaged


@pytest.mark.rule("V-D")
def test_the_table_has_exactly_the_five_actions_of_v_d() -> None:
    assert sorted(TABLE.actions) == ["charge", "cover", "engage", "run", "walk"]
    assert TABLE["walk"].name == "Walk"  # V-D's "March"


@pytest.mark.rule("V-D", "V-B-1", "V-B-2", "V-B-3", "V-B-4")
def test_end_of_move_contact() -> None:
    for name in ("walk", "run", "cover"):
        assert not end_position_legal(TABLE[name], in_contact_with_enemy=True)
        assert end_position_legal(TABLE[name], in_contact_with_enemy=False)
    assert end_position_legal(TABLE["charge"], in_contact_with_enemy=True)


@pytest.mark.rule("V-B-1", "V-B-2", "V-B-3", "V-B-4", "VI-B-3")
def test_what_each_action_allows_for_shooting() -> None:
    assert TABLE["walk"].shooting is ShootingAfter.ANY
    assert TABLE["run"].shooting is ShootingAfter.NONE
    assert TABLE["cover"].shooting is ShootingAfter.NONE
    assert TABLE["charge"].shooting is ShootingAfter.ASSAULT
    assert TABLE["engage"].shooting is ShootingAfter.ASSAULT


@pytest.mark.rule("V-A")
def test_current_mov_zero_moves_nothing_and_cannot_turn() -> None:
    assert movement_potential(TABLE["run"], 0) == 0
    assert not may_rotate(0)
    assert may_rotate(0.5)
    with pytest.raises(ValueError, match="MOV"):
        movement_potential(TABLE["walk"], -1)


@pytest.mark.rule("V-A")
def test_crossing_a_landform() -> None:
    # Smaller: freely; same size: only within MOV x 1; larger: never.
    assert can_cross_landform(landform_size=1, fighter_size=2, distance=20, mov=10)
    assert can_cross_landform(landform_size=2, fighter_size=2, distance=10, mov=10)
    assert not can_cross_landform(landform_size=2, fighter_size=2, distance=10.5, mov=10)
    assert not can_cross_landform(landform_size=3, fighter_size=2, distance=1, mov=10)


# --- V-B: conditions ---------------------------------------------------------------------------


def _ids(situation: MoveSituation) -> dict[str, bool]:
    return {action.id: needs for action, needs in allowed_actions(situation)}


@pytest.mark.rule("V-B-1", "V-B-2", "V-B-3", "V-B-4")
def test_a_free_fighter_may_take_every_action() -> None:
    assert _ids(MoveSituation()) == {
        "walk": False,
        "run": False,
        "charge": False,
        "engage": False,
        "cover": False,
    }


@pytest.mark.rule("V-B-3")
def test_no_charge_without_an_enemy_in_sight() -> None:
    assert "charge" not in _ids(MoveSituation(sees_an_enemy=False))
    assert "engage" in _ids(MoveSituation(sees_an_enemy=False))


@pytest.mark.rule("V-B-1", "V-B-2", "V-B-3", "V-B-4", "V-C")
def test_a_fighter_in_contact_walks_or_engages_only_by_disengaging() -> None:
    assert _ids(MoveSituation(in_contact=True)) == {"walk": True, "engage": True}


@pytest.mark.rule("V-B-1", "V-C")
def test_a_fighter_attacked_this_phase_or_at_his_contact_limit_cannot_move() -> None:
    assert _ids(MoveSituation(in_contact=True, attacked_this_phase=True)) == {}
    assert _ids(MoveSituation(in_contact=True, at_contact_limit=True)) == {}


@pytest.mark.rule("V-B-1")
def test_only_one_walk_per_round() -> None:
    assert "walk" not in _ids(MoveSituation(walked_this_round=True))
    # "a combatant cannot walk from MOV/2, shoot, then walk again from MOV/2"
    assert activation_problem(["walk", "shoot", "walk"]) == "only one walk per round (V-B-1)"
    assert activation_problem(["walk", "shoot"]) is None
    assert activation_problem(["shoot", "walk", "spell", "miracle"]) is None


@pytest.mark.rule("V-B-2", "V-B-3", "V-B-4", "VI-B-3")
def test_exclusive_actions_stand_alone() -> None:
    assert activation_problem(["run", "shoot"]) is not None
    assert activation_problem(["cover"]) is None
    assert activation_problem(["charge"], assault_shots=1) is None
    assert activation_problem(["engage"], assault_shots=1) is None
    assert (
        activation_problem(["charge"], assault_shots=2)
        == "only one shot during an assault (VI-B-3)"
    )
    assert activation_problem(["run"], assault_shots=1) == "no shot with a run (V-D)"
    assert activation_problem(["walk"], assault_shots=1) is not None
    assert activation_problem(["fly"]) == "unknown action 'fly'"


@pytest.mark.rule("V-B-4", "VI-A-2")
def test_move_under_cover() -> None:
    assert TABLE["cover"].target_bonus == 2
    assert may_take_cover_as_reaction(activated=False, free_of_enemy=True)
    assert not may_take_cover_as_reaction(activated=True, free_of_enemy=True)
    assert not may_take_cover_as_reaction(activated=False, free_of_enemy=False)


# --- V-B-3: assaults ------------------------------------------------------------------------


@pytest.mark.rule("V-B-3")
def test_charge_or_engage() -> None:
    assert assault_kind(free_of_enemy=True, sees_target=True) is AssaultKind.CHARGE
    assert assault_kind(free_of_enemy=True, sees_target=False) is AssaultKind.ENGAGE
    assert assault_kind(free_of_enemy=False, sees_target=True) is AssaultKind.ENGAGE


@pytest.mark.rule("V-B-3")
def test_an_assault_falling_short_moves_its_whole_potential() -> None:
    # MOV 10 charge: 20 cm potential.
    assert assault_move(distance=12.5, potential=20).contact
    assert assault_move(distance=12.5, potential=20).moved == 12.5
    short = assault_move(distance=23, potential=20)
    assert (short.moved, short.contact) == (20, False)


def _charge(round: int, charger: str, power: int, **targets: int) -> Charge:
    return Charge(round, charger, power, targets)


@pytest.mark.rule("V-B-3")
def test_example_a_and_b() -> None:
    # A, B and Z are of power 1, Y of power 2: A's charge on Z penalises Z, B's on Y does not.
    charges = [_charge(1, "A", 1, Z=1), _charge(1, "B", 1, Y=2)]
    assert penalised_fighters(charges, 1) == {"Z"}


@pytest.mark.rule("V-B-3")
def test_example_c_d_e_charge_in_different_rounds() -> None:
    # C, D, E (power 1) charge X (power 2) in three different rounds: never a penalty.
    charges = [_charge(r, name, 1, X=2) for r, name in ((1, "C"), (2, "D"), (3, "E"))]
    for round in (1, 2, 3):
        assert charge_pressure(charges, "X", round) == 1
        assert penalised_fighters(charges, round) == frozenset()


@pytest.mark.rule("V-B-3")
def test_example_f_and_g_charge_in_the_same_round() -> None:
    # F and G (power 1) charge W (power 2) in the same round: W suffers the penalty.
    charges = [_charge(4, "F", 1, W=2), _charge(4, "G", 1, W=2)]
    assert charge_pressure(charges, "W", 4) == 2
    assert penalised_fighters(charges, 4) == {"W"}
    # After F alone, W is not penalised yet.
    assert penalised_fighters(charges[:1], 4) == frozenset()


@pytest.mark.rule("V-B-3")
def test_example_h_on_two_fighters_of_power_1() -> None:
    # H (power 1) charges V and U (power 1): no charge penalty.
    charges = [_charge(1, "H", 1, V=1, U=1)]
    assert penalised_fighters(charges, 1) == frozenset()
    assert charge_pressure(charges, "V", 1) == Fraction(1, 2)


@pytest.mark.rule("V-B-3")
def test_example_i_on_two_fighters_of_power_1() -> None:
    # I (power 2) charges T and S (power 1): both suffer charge penalties.
    charges = [_charge(1, "I", 2, T=1, S=1)]
    assert penalised_fighters(charges, 1) == {"T", "S"}


@pytest.mark.rule("V-B-3")
def test_all_nine_examples_together() -> None:
    charges = [
        _charge(1, "A", 1, Z=1),
        _charge(1, "B", 1, Y=2),
        _charge(1, "C", 1, X=2),
        _charge(2, "D", 1, X=2),
        _charge(3, "E", 1, X=2),
        _charge(1, "F", 1, W=2),
        _charge(1, "G", 1, W=2),
        _charge(1, "H", 1, V=1, U=1),
        _charge(1, "I", 2, T=1, S=1),
    ]
    assert penalised_fighters(charges, 1) == {"Z", "W", "T", "S"}


@pytest.mark.rule("V-B-3")
def test_the_charge_penalty_is_minus_one_in_ini_att_def_and_aim() -> None:
    for characteristic in (C.INI, C.ATT, C.DEF, C.AIM):
        assert current_value(characteristic, 4, charge_modifiers(characteristic, True)) == 3
        assert current_value(characteristic, 4, charge_modifiers(characteristic, False)) == 4
    for characteristic in (C.STR, C.RES, C.MOV, C.COURAGE):
        assert current_value(characteristic, 4, charge_modifiers(characteristic, True)) == 4


@pytest.mark.rule("V-B-3")
def test_rotating_charged_fighters_examples() -> None:
    # A (power 2) charges Y and Z (power 1): he may turn Y, or Z, or both.
    free = {"Y": (1, True), "Z": (1, True)}
    assert rotatable_sets(2, free) == [{"Y"}, {"Z"}, {"Y", "Z"}]
    # A (power 2) charges B (power 1) and C (power 3): he may only turn B.
    assert rotatable_sets(2, {"B": (1, True), "C": (3, True)}) == [{"B"}]


@pytest.mark.rule("V-B-3")
def test_rotating_conditions() -> None:
    assert not may_rotate_charged(2, [(1, False)])  # not free of contact
    assert not may_rotate_charged(2, [(1, True)], square_base=False)
    assert not may_rotate_charged(2, [(1, True)], battlefield_unchanged=False)
    assert may_rotate_charged(2, [(2, True)])
    assert not may_rotate_charged(2, [(2, True), (1, True)])


@pytest.mark.rule("V-B-3")
def test_redirecting_a_failed_assault() -> None:
    # A charge of 20 cm whose target died to a shot after 8 cm of movement.
    options = redirect_options(potential=20, moved=8)
    assert options == {RedirectChoice.REDIRECT: 12, RedirectChoice.STAY: 0, RedirectChoice.RUN: 12}
    assert redirected_kind(AssaultKind.CHARGE, sees_new_target=True) is AssaultKind.CHARGE
    assert redirected_kind(AssaultKind.CHARGE, sees_new_target=False) is AssaultKind.ENGAGE
    assert redirected_kind(AssaultKind.ENGAGE, sees_new_target=True) is AssaultKind.ENGAGE
    with pytest.raises(ValueError):
        redirect_options(potential=20, moved=21)


powers = st.integers(min_value=1, max_value=6)


@pytest.mark.rule("V-B-3")
@given(
    charger=st.integers(min_value=0, max_value=8),
    targets=st.lists(powers, min_size=1, max_size=4),
)
def test_one_charger_penalises_all_or_none(charger: int, targets: list[int]) -> None:
    # One charger on several fighters is set against their cumulative power.
    names = {f"t{i}": p for i, p in enumerate(targets)}
    penalised = penalised_fighters([Charge(1, "c", charger, names)], 1)
    assert penalised == (frozenset(names) if charger >= sum(targets) else frozenset())


@pytest.mark.rule("V-B-3")
@given(
    st.lists(
        st.tuples(
            st.integers(0, 4), st.dictionaries(st.sampled_from("TUVWXYZ"), powers, min_size=1)
        ),
        min_size=1,
        max_size=5,
    )
)
def test_another_charger_never_lifts_a_penalty(raw: list[tuple[int, dict[str, int]]]) -> None:
    # Powers of one fighter must agree between charges.
    power_of = {name: p for _, targets in raw for name, p in targets.items()}
    charges = [
        Charge(1, f"c{i}", power, {n: power_of[n] for n in targets})
        for i, (power, targets) in enumerate(raw)
    ]
    for k in range(1, len(charges)):
        assert penalised_fighters(charges[:k], 1) <= penalised_fighters(charges, 1)


# --- V-C: disengagement ---------------------------------------------------------------------


@pytest.mark.rule("V-C")
@pytest.mark.parametrize(("enemies", "difficulty"), [(1, 6), (2, 8), (3, 10), (5, 14)])
def test_difficulty_is_4_plus_2_per_enemy(enemies: int, difficulty: int) -> None:
    assert disengage_difficulty(enemies) == difficulty


@pytest.mark.rule("V-C", "II-E-3")
def test_who_may_try() -> None:
    # A fighter of regular size (at most 4 enemies in contact).
    assert can_try_disengaging(enemies_in_contact=1, max_enemies=4, attacked_this_phase=False)
    assert can_try_disengaging(enemies_in_contact=3, max_enemies=4, attacked_this_phase=False)
    assert not can_try_disengaging(enemies_in_contact=4, max_enemies=4, attacked_this_phase=False)
    assert not can_try_disengaging(enemies_in_contact=1, max_enemies=4, attacked_this_phase=True)
    assert not can_try_disengaging(enemies_in_contact=0, max_enemies=4, attacked_this_phase=False)


@pytest.mark.rule("V-C")
def test_by_agility_an_initiative_test() -> None:
    # INI 3 against two enemies: difficulty 8, a '5' gives 8 and succeeds.
    two = [Enemy(size=2, strength=3), Enemy(size=2, strength=4)]
    out = roll_disengage(ScriptedRoller([5]), DisengageMethod.AGILITY, 3, 4, 2, two)
    assert (out.difficulty, out.value, out.test.final) == (8, 3, 8)
    assert out.success and not out.defense_counter
    # A '4' gives 7: failure, and the Defense counter.
    out = roll_disengage(ScriptedRoller([4]), DisengageMethod.AGILITY, 3, 4, 2, two)
    assert not out.success and out.defense_counter
    assert movement_potential(TABLE["walk"], 10, disengaged=True) == 10


@pytest.mark.rule("V-C")
def test_by_force_strength_less_the_strongest_enemy() -> None:
    # A large fighter (size 3, STR 7) against two normal-size enemies of STR 3 and 4.
    two = [Enemy(size=2, strength=3), Enemy(size=2, strength=4)]
    assert disengage_value(DisengageMethod.FORCE, 2, 7, 3, two) == 7 - 4
    # '6' raised to '6','1' would be 1; stop on the 6: 3 + 6 = 9 >= 8.
    out = roll_disengage(
        ScriptedRoller([6]), DisengageMethod.FORCE, 2, 7, 3, two, decide=RaisePolicy.NEVER
    )
    assert (out.difficulty, out.value, out.test.final, out.success) == (8, 3, 9, True)


@pytest.mark.rule("V-C")
def test_force_needs_a_bigger_fighter_and_a_positive_strength() -> None:
    same_size = [Enemy(size=3, strength=1)]
    assert disengage_value(DisengageMethod.FORCE, 2, 7, 3, same_size) is None
    strong = [Enemy(size=2, strength=7)]
    assert disengage_value(DisengageMethod.FORCE, 2, 7, 3, strong) is None  # falls to 0
    assert p_disengage(DisengageMethod.FORCE, 2, 7, 3, strong) == 0
    with pytest.raises(ValueError, match="impossible"):
        roll_disengage(ScriptedRoller([6]), DisengageMethod.FORCE, 2, 7, 3, strong)


@pytest.mark.rule("V-C")
def test_disengagement_odds() -> None:
    one = [Enemy(size=2, strength=3)]
    # INI 3, difficulty 6: a natural 3 or more, 4 faces in 6.
    assert p_disengage(DisengageMethod.AGILITY, 3, 0, 2, one) == Fraction(2, 3)
    # INI 0, difficulty 6: a 6 (stop): 1/6.
    assert p_disengage(DisengageMethod.AGILITY, 0, 0, 2, one) == Fraction(1, 6)
    # INI 0 against two enemies, difficulty 8: a 6 then a raise of 2-6 (a 1 makes it 1): 5/36.
    two = [Enemy(size=2, strength=3)] * 2
    assert p_disengage(DisengageMethod.AGILITY, 0, 0, 2, two) == Fraction(5, 36)
