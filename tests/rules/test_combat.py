"""Close combat arithmetic (rules/combat.py): VII-B, VII-C, scenery, three or more sides."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.dice import (
    PendingTest,
    RaisePolicy,
    Roller,
    ScriptedRoller,
    SeededRoller,
)
from confrontation.rules.characteristics import Characteristic, HealthState, Modifiers
from confrontation.rules.combat import (
    NO_DEFENCE,
    Allocant,
    Allocation,
    AllocationRule,
    Combatant,
    CombatDecisions,
    CombatState,
    DefenceChoice,
    PursuitContact,
    Stats,
    StructurePointsError,
    allocation_choices,
    allocation_order,
    allocation_rule,
    attack,
    attack_outcomes,
    attack_scenery,
    attacks_due,
    authority_candidates,
    authority_ranking,
    check_plan,
    combat_dice,
    combat_over,
    defence_choices,
    fight,
    load_structure_points,
    may_pursue,
    may_sustain,
    neutral_target_order,
    p_hit,
    pursuit_contact,
    rank_results,
    read_scenery_damage,
    roll_block,
    speaker,
)
from confrontation.rules.wounds import WoundResult

C = Characteristic
PLAIN = Stats(ini=3, att=3, str_=5, def_=3, res=7)


def _state(*fighters: Combatant, centre: str, order: Sequence[str]) -> CombatState:
    return CombatState(centre=centre, fighters=tuple(fighters), side_order=tuple(order))


# --- VII-B -----------------------------------------------------------------------------------


@pytest.mark.rule("VII-B")
def test_authority_candidates_skip_routed_fighters() -> None:
    fighters = [("a", "p1", True), ("b", "p1", False), ("z", "p2", False)]
    assert authority_candidates(fighters, "p1") == ("b",)
    assert authority_candidates([("a", "p1", True)], "p1") == ("a",)  # ruling: all routed
    with pytest.raises(ValueError, match="no fighter"):
        authority_candidates(fighters, "p3")


@pytest.mark.rule("VII-B", "XX-F-5")
def test_speaking_turns_alternate() -> None:
    assert [speaker(("p2", "p1"), t) for t in range(4)] == ["p2", "p1", "p2", "p1"]
    assert [speaker(("lion", "drune", "goblin"), t) for t in range(4)] == [
        "lion",
        "drune",
        "goblin",
        "lion",
    ]


@pytest.mark.rule("XX-F-5")
def test_rankings_group_ties_and_put_authority_first() -> None:
    assert rank_results({"a": 7, "b": 9, "c": 7, "d": -1, "e": 0}) == (
        ("b",),
        ("a", "c"),
        ("d", "e"),
    )
    assert authority_ranking({"a": (False, 12), "b": (True, 3), "c": (True, 5)}) == (
        ("c",),
        ("b",),
        ("a",),
    )


# --- VII-C-1 ---------------------------------------------------------------------------------


@pytest.mark.rule("VII-C-1", "C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY")
def test_combat_dice() -> None:
    assert [combat_dice(n) for n in (1, 2, 3)] == [2, 3, 4]
    assert combat_dice(0, scenery=True) == 2  # the Griffin Conscript against scenery
    assert combat_dice(1, scenery=True) == 2  # ... and against scenery and an enemy
    assert combat_dice(3, bonus=1) == 5  # the wild animal's War Fury (XX-E-4)
    with pytest.raises(ValueError):
        combat_dice(0)


@pytest.mark.rule("VII-C-1")
def test_equal_values_the_player_who_did_not_choose_allocates_first() -> None:
    fighters = [Allocant("g", "griffin", 20), Allocant("s", "scorpion", 20)]
    assert allocation_order(fighters, chooser="griffin") == ("s", "g")
    assert allocation_order(fighters, chooser="scorpion") == ("g", "s")
    # VII-C-1 Note: an effect that places dice after everybody else.
    late = [
        Allocant("a", "x", 5, timing=1),
        Allocant("b", "y", 50),
        Allocant("c", "x", 9, timing=1),
    ]
    assert allocation_order(late, chooser="x") == ("b", "a", "c")


@pytest.mark.rule("VII-C-1", "V-C", "XX-E-4", "XX-E-6")
def test_allocation_choices() -> None:
    assert allocation_choices(3) == (
        Allocation(3, 0),
        Allocation(2, 1),
        Allocation(1, 2),
        Allocation(0, 3),
    )
    assert allocation_choices(3, allocation_rule(defence_counter=True)) == (Allocation(0, 3),)
    assert allocation_choices(5, allocation_rule(neutral=True)) == (Allocation(5, 0),)
    # A neutral fighter with a Defense counter is forced to defend; passive always defends.
    assert allocation_rule(neutral=True, defence_counter=True) is AllocationRule.ALL_DEFENCE
    assert allocation_rule(passive=True) is AllocationRule.ALL_DEFENCE


# --- VII-C-3 ---------------------------------------------------------------------------------


@pytest.mark.rule("VII-C-3")
def test_a_lone_fighter_short_of_dice_chooses_his_targets() -> None:
    state = _state(
        Combatant("one", "a", PLAIN, Allocation(2, 0)),
        Combatant("x", "b", PLAIN, Allocation(1, 1)),
        Combatant("y", "b", PLAIN, Allocation(1, 1)),
        Combatant("z", "b", PLAIN, Allocation(1, 1)),
        centre="one",
        order=("a", "b"),
    )
    assert attacks_due(state, "one") == (
        frozenset({"x", "y"}),
        frozenset({"x", "z"}),
        frozenset({"y", "z"}),
    )
    assert attacks_due(state, "x") == (frozenset({"one"}),)
    check_plan(state, "a", [("one", "z"), ("one", "x")])
    with pytest.raises(ValueError, match="twice"):
        check_plan(state, "a", [("one", "x"), ("one", "x")])
    with pytest.raises(ValueError, match="must attack"):
        check_plan(state, "b", [("x", "one")])  # y and z must attack too


@pytest.mark.rule("VII-C-3")
def test_combat_is_over_without_usable_attack_dice() -> None:
    state = _state(
        Combatant("a", "a", PLAIN, Allocation(0, 2)),
        Combatant("b", "b", PLAIN, Allocation(0, 2)),
        centre="a",
        order=("a", "b"),
    )
    assert combat_over(state)
    final, records = fight(SeededRoller(1), state, CombatDecisions())
    assert records == ()
    assert all(f.lost == 2 and f.used == 0 for f in final.fighters)


# --- VII-C-4 ---------------------------------------------------------------------------------


def _duel(attacker: Stats = PLAIN, target: Stats = PLAIN, defence: int = 1) -> CombatState:
    return _state(
        Combatant("att", "a", attacker, Allocation(1, 1)),
        Combatant("def", "b", target, Allocation(2 - defence, defence)),
        centre="att",
        order=("a", "b"),
    )


@pytest.mark.rule("VII-C-4")
def test_automatic_failure_costs_no_defence_die() -> None:
    weak = Stats(ini=0, att=-2, str_=5, def_=3, res=7)
    state = _duel(attacker=weak)
    # Attack natural 1 - 2 = -1: automatic failure; no defence test, no die lost.
    new, record = attack(
        ScriptedRoller([1]), state, "att", "def", DefenceChoice(1), RaisePolicy.NEVER,
        RaisePolicy.OPTIMAL,
    )  # fmt: skip
    assert record.automatic_failure and not record.hit and record.defence_test is None
    assert record.defence_dice_lost == 0
    assert new.fighter("def").defence_left == 1
    assert new.fighter("att").attack_left == 0 and new.fighter("att").used == 1


@pytest.mark.rule("VII-C-4")
def test_undefended_attack_that_may_fail_is_rolled() -> None:
    weak = Stats(ini=0, att=-1, str_=5, def_=3, res=7)
    attack_test, defence_test = roll_block(
        ScriptedRoller([2]), -1, 3, 0, RaisePolicy.NEVER, RaisePolicy.OPTIMAL
    )
    assert attack_test is not None and attack_test.final == 1 and defence_test is None
    state = _duel(attacker=weak, defence=0)
    _, record = attack(
        ScriptedRoller([1]), state, "att", "def", NO_DEFENCE, RaisePolicy.NEVER, RaisePolicy.NEVER
    )
    assert record.automatic_failure and record.wound is None


@pytest.mark.rule("VII-C-4")
def test_failed_block_loses_the_defence_dice_and_a_kill_loses_the_rest() -> None:
    state = _state(
        Combatant("att", "a", Stats(3, 3, 20, 3, 7), Allocation(1, 1)),
        Combatant("def", "b", PLAIN, Allocation(1, 3), health=HealthState(3)),
        centre="att",
        order=("a", "b"),
    )
    # Attack 5 + 3 = 8; defence with two dice 2, 3 → 3 + 3 = 6: not blocked; wound 6+20-7.
    new, record = attack(
        ScriptedRoller([5, 2, 3, 1, 6]), state, "att", "def", DefenceChoice(2),
        RaisePolicy.NEVER, RaisePolicy.OPTIMAL,
    )  # fmt: skip
    assert record.hit and record.defence_dice_lost == 2 and record.killed
    assert record.dice_lost_on_death == 2  # one attack die and one defence die left
    target = new.fighter("def")
    assert (target.used, target.lost, target.dice_left) == (2, 2, 0)


@pytest.mark.rule("VII-C-4")
def test_attacker_raises_before_the_defence_and_defender_knows_the_target() -> None:
    seen: list[int | None] = []

    def defender(pending: PendingTest, needed: int | None) -> bool:
        seen.append(needed)
        return False

    attack_test, defence_test = roll_block(
        ScriptedRoller([6, 5, 6]), 3, 3, 1, RaisePolicy.ALWAYS, defender
    )
    assert attack_test is not None and attack_test.final == 6 + 5 + 3
    assert defence_test is not None and defence_test.final == 9
    assert seen == [14]


# --- VII-C-5 ---------------------------------------------------------------------------------


@pytest.mark.rule("VII-C-5")
def test_sustained_defence() -> None:
    balanced = Combatant("def", "b", PLAIN, Allocation(1, 1))
    assert may_sustain(balanced)
    assert DefenceChoice(1, True) in defence_choices(balanced)
    offensive = Combatant("o", "b", PLAIN, Allocation(2, 1))
    assert not may_sustain(offensive)  # more dice in attack than in defence
    two = Combatant("t", "b", PLAIN, Allocation(1, 2))
    assert not may_sustain(two)  # not his last defence die
    assert DefenceChoice(2, True) not in defence_choices(two)

    state = _state(
        Combatant("att", "a", PLAIN, Allocation(2, 0)),
        balanced,
        centre="att",
        order=("a", "b"),
    )
    # Attack 4 + 3 = 7; sustained defence at DEF 3 - 2 = 1: 6 → stop at 7: blocked, die kept.
    state, record = attack(
        ScriptedRoller([4, 6]), state, "att", "def", DefenceChoice(1, True), RaisePolicy.NEVER,
        RaisePolicy.OPTIMAL,
    )  # fmt: skip
    assert record.defence_value == 3 - 2 and record.blocked and record.defence_dice_lost == 0
    target = state.fighter("def")
    assert target.sustaining and target.defence_left == 1
    assert target.current(C.DEF) == 1  # DEF-2 until the end of the combat
    # It must be used again, sustained, against the next attack.
    assert defence_choices(target) == (DefenceChoice(1, True),)
    with pytest.raises(ValueError, match="cannot announce"):
        attack(ScriptedRoller([4, 6]), state, "att", "def", NO_DEFENCE, RaisePolicy.NEVER,
               RaisePolicy.NEVER)  # fmt: skip


@pytest.mark.rule("II-A-4", "V-B-3")
def test_modifiers_and_wounds_make_current_values() -> None:
    charged = Combatant(
        "c",
        "a",
        PLAIN,
        Allocation(1, 1),
        health=HealthState(1, stunned=True),
        modifiers=((C.ATT, Modifiers(penalties=1)), (C.DEF, Modifiers(penalties=1))),
    )
    assert charged.current(C.ATT) == 3 - 1 - 2
    assert charged.current(C.STR) == 5 - 2
    assert charged.current(C.RES) == 7


# --- VII-C-6 ---------------------------------------------------------------------------------


@pytest.mark.rule("VII-C-6", "XX-F-6")
def test_who_may_pursue() -> None:
    dead = HealthState(4)
    state = _state(
        Combatant("centre", "n", PLAIN, Allocation(3, 0), health=dead),
        Combatant("a", "x", PLAIN, Allocation(1, 0)),
        Combatant("b", "y", PLAIN, Allocation(1, 0)),
        centre="centre",
        order=("x", "n", "y"),
    )
    assert may_pursue(state, "a") and may_pursue(state, "b")  # both sides (XX-F-6)
    assert not may_pursue(state, "a", pursued_this_round=True)  # once per round
    assert not may_pursue(state, "centre")
    alive = _state(
        Combatant("centre", "n", PLAIN, Allocation(3, 0)),
        Combatant("a", "x", PLAIN, Allocation(1, 0), health=dead),
        Combatant("b", "y", PLAIN, Allocation(1, 0)),
        centre="centre",
        order=("x", "n", "y"),
    )
    assert not may_pursue(alive, "centre")  # b still fights him
    assert not may_pursue(alive, "b")


@pytest.mark.rule("VII-C-6")
def test_pursuit_contacts() -> None:
    assert pursuit_contact(has_fought=True, in_unresolved_combat=False) is PursuitContact.NOTHING
    assert pursuit_contact(has_fought=False, in_unresolved_combat=False) is (
        PursuitContact.NEW_COMBAT
    )
    assert pursuit_contact(has_fought=False, in_unresolved_combat=True) is (
        PursuitContact.JOIN_COMBAT
    )


# --- Scenery ---------------------------------------------------------------------------------


@pytest.mark.rule("C3-DAMAGING-ELEMENTS-OF-SCENERY", "C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY")
def test_scenery_attack() -> None:
    # Natural 1 + ATT 3 = 4 > 0: under Confédé a 1 is no automatic failure; no defence.
    # Damage 3, 5 with STR 7 against RES 9: belly, row 3 → Light: 1 SP.
    hit = attack_scenery(ScriptedRoller([1, 3, 5]), 3, 7, 9, structure_points=5)
    assert hit.hit and hit.wound is not None and hit.wound.result is WoundResult.LIGHT
    assert (hit.points_lost, hit.points_after, hit.destroyed) == (1, 4, False)
    miss = attack_scenery(ScriptedRoller([1]), -1, 7, 9, structure_points=5)
    assert not miss.hit and miss.points_after == 5
    # A double 6 is not exceptional: row 6 + 5 - 10 = 1, head → Serious, 2 SP (not 4).
    damage = read_scenery_damage((6, 6), 5, 10)
    assert damage.result is WoundResult.SERIOUS
    crush = attack_scenery(ScriptedRoller([4, 6, 6]), 3, 20, 5, structure_points=3)
    assert crush.points_lost == 4 and crush.destroyed


@pytest.mark.rule("C3-DAMAGING-ELEMENTS-OF-SCENERY")
def test_structure_points_table(tmp_path: Path) -> None:
    table = load_structure_points()
    assert [table(r) for r in WoundResult] == [0, 0, 1, 2, 3, 4]
    bad = tmp_path / "sp.toml"
    bad.write_text("[lost]\nnone = 0\nstunned = 0\nlight = 1\nserious = 2\ncritical = 3\n")
    with pytest.raises(StructurePointsError, match=r"sp\.toml: key 'lost\.killed'"):
        load_structure_points(bad)
    with pytest.raises(StructurePointsError, match="cannot read"):
        load_structure_points(tmp_path / "missing.toml")
    custom = tmp_path / "custom.toml"
    custom.write_text(
        "[lost]\nnone = 0\nstunned = 1\nlight = 1\nserious = 2\ncritical = 3\nkilled = 5\n"
    )
    assert load_structure_points(custom)(WoundResult.STUNNED) == 1


# --- XX-E-4: a neutral fighter against two sides ---------------------------------------------


@pytest.mark.rule("XX-E-4", "XX-F-5", "XX-E")
def test_wild_animal_against_two_players() -> None:
    harmless = Stats(ini=3, att=3, str_=0, def_=3, res=12)  # wounds of 1-1 do nothing
    state = _state(
        Combatant("animal", "neutral", harmless, Allocation(5, 0), strategic_value=40),
        Combatant("jackal", "orc", harmless, Allocation(1, 1), strategic_value=23),
        Combatant("clone", "scorpion", harmless, Allocation(1, 1), strategic_value=10),
        Combatant("sentinel", "scorpion", harmless, Allocation(2, 0), strategic_value=27),
        centre="animal",
        order=("scorpion", "neutral", "orc"),  # Scorpion best, then the animal, then the Orc
    )

    def plan(state: CombatState, side: str) -> list[tuple[str, str]]:
        if side != "neutral":
            return [(f.id, "animal") for f in state.side_fighters(side) if f.attack_left]
        due = attacks_due(state, "animal")
        if len(due) == 1:
            return [("animal", t) for t in sorted(due[0])]
        ranked = neutral_target_order(
            {t: (state.fighter(t).strategic_value, 0) for t in state.opponents("animal")}
        )
        chosen = [t for group in ranked for t in group][: state.fighter("animal").attack_left]
        return [("animal", t) for t in chosen]

    final, records = fight(ScriptedRoller([1] * 18), state, CombatDecisions(plan=plan))
    attacks = [(r.weapon_pass, r.attacker, r.target) for r in records]
    assert attacks == [
        (1, "clone", "animal"),
        (1, "sentinel", "animal"),
        (1, "animal", "clone"),
        (1, "animal", "jackal"),
        (1, "animal", "sentinel"),
        (1, "jackal", "animal"),
        (2, "sentinel", "animal"),
        (2, "animal", "clone"),  # two attacks left for three targets: the lowest values
        (2, "animal", "jackal"),
    ]
    assert all(f.allocation.dice == f.used + f.lost for f in final.fighters)


# --- Exact odds ------------------------------------------------------------------------------


class _Path:
    """A roller reading a fixed prefix of faces, asking for more beyond it (brute force)."""

    class Exhausted(Exception):
        pass

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self._rolled = 0

    @property
    def rolled(self) -> int:
        return self._rolled

    def d6(self) -> int:
        if self._rolled >= len(self.faces):
            raise _Path.Exhausted
        self._rolled += 1
        return self.faces[self._rolled - 1]


def _brute_p_hit(att: int, def_: int, dice: int, attack_policy: RaisePolicy) -> Fraction:
    total = Fraction(0)
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        roller: Roller = _Path(faces)
        try:
            a, d = roll_block(roller, att, def_, dice, attack_policy, RaisePolicy.OPTIMAL)
        except _Path.Exhausted:
            stack.extend([*faces, f] for f in range(1, 7))
            continue
        hit = (a is None or not a.automatic_failure) and (
            d is None or not d.succeeds(a.final if a else 0)
        )
        if hit:
            total += Fraction(1, 6 ** len(faces))
    return total


@pytest.mark.rule("VII-C-4")
@pytest.mark.parametrize(
    ("att", "def_", "dice"), [(3, 3, 1), (5, 2, 2), (1, 6, 1), (-2, 3, 1), (4, 4, 0), (-1, 0, 0)]
)
def test_p_hit_matches_brute_force(att: int, def_: int, dice: int) -> None:
    assert p_hit(att, def_, dice) == _brute_p_hit(att, def_, dice, RaisePolicy.NEVER)


@pytest.mark.rule("VII-C-4")
def test_p_hit_known_values_and_outcomes() -> None:
    assert p_hit(4, 4, 0) == 1
    # ATT 3 vs DEF 3, one die each, nobody raising past the first roll of the attacker:
    # blocked when defence natural (raising to reach) ≥ attack natural.
    assert p_hit(3, 3, 1) == _brute_p_hit(3, 3, 1, RaisePolicy.NEVER)
    assert p_hit(3, 3, 2) < p_hit(3, 3, 1)
    outcomes = attack_outcomes(3, 7, 3, 7, 1)
    assert sum(outcomes.values()) == 1
    assert outcomes[None] == 1 - p_hit(3, 3, 1)
    with pytest.raises(ValueError):
        p_hit(3, 3, 1, attack_policy=RaisePolicy.ALWAYS)


# --- Properties ------------------------------------------------------------------------------


@st.composite
def _combats(draw: st.DrawFn) -> CombatState:
    leaves = draw(st.integers(1, 4))
    stats = st.builds(
        Stats,
        ini=st.integers(0, 6),
        att=st.integers(-2, 6),
        str_=st.integers(0, 10),
        def_=st.integers(-2, 6),
        res=st.integers(1, 12),
    )

    def fighter(fid: str, side: str, opponents: int) -> Combatant:
        dice = combat_dice(opponents)
        a = draw(st.integers(0, dice))
        wounds = draw(st.integers(0, 3))
        return Combatant(fid, side, draw(stats), Allocation(a, dice - a), HealthState(wounds))

    centre = fighter("c", "one", leaves)
    others = [fighter(f"l{i}", "many", 1) for i in range(leaves)]
    order = draw(st.permutations(["one", "many"]))
    return CombatState(centre="c", fighters=(centre, *others), side_order=tuple(order))


@pytest.mark.rule("VII-C-3", "VII-C-4", "VII-C-5")
@given(_combats(), st.data(), st.integers(0, 2**32))
def test_dice_conserved_and_wounds_only_grow(
    state: CombatState, data: st.DataObject, seed: int
) -> None:
    def plan(state: CombatState, side: str) -> list[tuple[str, str]]:
        moves: list[tuple[str, str]] = []
        for f in state.side_fighters(side):
            due = attacks_due(state, f.id)
            chosen = data.draw(st.sampled_from(due))
            moves.extend((f.id, t) for t in sorted(chosen))
        return data.draw(st.permutations(moves))

    def defend(
        state: CombatState, attacker: str, target: str, choices: tuple[DefenceChoice, ...]
    ) -> DefenceChoice:
        return data.draw(st.sampled_from(choices))

    decisions = CombatDecisions(
        plan=plan,
        defend=defend,
        raise_attack=data.draw(st.sampled_from([RaisePolicy.NEVER, RaisePolicy.ALWAYS])),
        raise_defence=RaisePolicy.OPTIMAL,
    )
    final, records = fight(SeededRoller(seed), state, decisions)
    assert combat_over(final)
    for fighter in final.fighters:
        assert fighter.allocation.dice == fighter.used + fighter.lost
        start = state.fighter(fighter.id)
        assert fighter.health.wound_levels >= start.health.wound_levels
    used_attacks: dict[str, int] = {}
    per_pass: set[tuple[int, str, str]] = set()
    for record in records:
        used_attacks[record.attacker] = used_attacks.get(record.attacker, 0) + 1
        key = (record.weapon_pass, record.attacker, record.target)
        assert key not in per_pass  # each enemy attacked once per weapon combat
        per_pass.add(key)
        assert record.health_after.wound_levels >= record.health_before.wound_levels
        spent = record.defence.dice
        if record.automatic_failure or record.defence.sustained:
            assert record.defence_dice_lost == 0
        else:
            assert record.defence_dice_lost == spent
    for fid, n in used_attacks.items():
        assert n <= state.fighter(fid).allocation.attack


_COMBAT_STATS = (
    Characteristic.INI,
    Characteristic.ATT,
    Characteristic.STR,
    Characteristic.DEF,
    Characteristic.RES,
)


@given(
    st.tuples(*[st.integers(-3, 12)] * 5),
    st.integers(0, 4),
    st.booleans(),
    st.booleans(),
    st.lists(
        st.tuples(
            st.sampled_from(_COMBAT_STATS),
            st.builds(Modifiers, st.none(), st.integers(0, 3), st.integers(0, 3)),
        ),
        max_size=3,
    ),
    st.sampled_from(_COMBAT_STATS),
)
def test_a_combatants_current_value_is_the_rulebooks_sum(
    values: tuple[int, int, int, int, int],
    wounds: int,
    stunned: bool,
    sustaining: bool,
    modifiers: list[tuple[Characteristic, Modifiers]],
    characteristic: Characteristic,
) -> None:
    """II-A-4, II-B-4, VII-C-5 written out: the reference value, less the maluses (the
    effects', the wound penalty for INI/ATT/STR/DEF, a sustained defence's DEF-2), plus the
    bonuses, RES at least 1 — with and without effects of the moment."""
    stats = Stats(*values)
    health = HealthState(wounds, stunned)
    fighter = Combatant(
        "f", "a", stats, Allocation(1, 1), health, tuple(modifiers), sustaining=sustaining
    )
    reference = dict(zip(_COMBAT_STATS, values, strict=True))[characteristic]
    mine = [m for c, m in modifiers if c is characteristic]
    value = reference - sum(m.penalties for m in mine) + sum(m.bonuses for m in mine)
    if characteristic is not Characteristic.RES:
        value -= wounds + stunned
    if characteristic is Characteristic.DEF and sustaining:
        value -= 2
    if characteristic is Characteristic.RES:
        value = max(value, 1)
    assert fighter.current(characteristic) == value
