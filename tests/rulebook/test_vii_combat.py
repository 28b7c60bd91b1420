"""Rulebook worked examples of chapter VII (close combat), replayed with fixed dice and fixed
coordinates.

VII-A and VII-C-6 illustrate their examples with diagrams that the text of the rulebook lost;
the positions below are rebuilt from the sentences (which fighters touch which) and the tests
check the book's stated answers: how many melees, who is in none, how many ways to split, which
combat is resolved at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from confrontation.dice import PendingTest, RaisePolicy, ScriptedRoller, roll_opposed
from confrontation.engine.core.melee import (
    Combat,
    combat_of,
    enemy_contacts,
    melees,
    pursuit_melee,
    splits,
    who_splits,
)
from confrontation.geometry import Base, distance, in_contact
from confrontation.rules.characteristics import Characteristic, HealthState
from confrontation.rules.combat import (
    Allocant,
    Allocation,
    AttackRecord,
    Combatant,
    CombatDecisions,
    CombatState,
    DefenceChoice,
    Stats,
    allocation_order,
    combat_dice,
    fight,
    initiative_value,
    may_pursue,
    pursuit_distance,
)
from confrontation.rules.wounds import Location, WoundResult

C = Characteristic


def _contacts(bases: dict[str, Base]) -> list[tuple[str, str]]:
    ids = sorted(bases)
    return [
        (a, b) for i, a in enumerate(ids) for b in ids[i + 1 :] if in_contact(bases[a], bases[b])
    ]


def _row(names: str, y: float = 0.0) -> dict[str, Base]:
    """Square 25 mm bases side by side along x, in the order of ``names``."""
    return {name: Base(2.5 * i, y) for i, name in enumerate(names)}


# ---------------------------------------------------------------------------------------------
# VII-A: melees and their separation
# ---------------------------------------------------------------------------------------------


@pytest.mark.rule("VII-A", "II-E")
def test_top_chain_of_five_is_one_melee() -> None:
    # "The 5 fighters circled in red constitute a melee: each is in contact with an enemy and
    # they all form an unbroken chain with alternating friends and enemies."
    bases = _row("AXBYC")
    sides = {"A": "blue", "B": "blue", "C": "blue", "X": "red", "Y": "red"}
    graph = enemy_contacts(sides, _contacts(bases))
    assert melees(graph) == (frozenset("AXBYC"),)


@pytest.mark.rule("VII-A", "II-E")
def test_bottom_chain_broken_by_friends_in_contact() -> None:
    # "The chain is interrupted each time there are two friendly fighters in contact ('D and E',
    # 'T and U'). Thus there will be two separate melees ... The U fighter does not participate
    # in either melee because he is not in contact with an enemy fighter."
    bases = _row("CSDETU")
    sides = {"C": "a", "D": "a", "E": "a", "S": "z", "T": "z", "U": "z"}
    contacts = _contacts(bases)
    assert ("D", "E") in contacts and ("T", "U") in contacts  # friends do touch
    graph = enemy_contacts(sides, contacts)
    found = melees(graph)
    assert found == (frozenset("CSD"), frozenset("ET"))
    assert not any("U" in melee for melee in found)


@pytest.mark.rule("VII-A")
def test_this_melee_can_be_separated_in_three_ways() -> None:
    # Rebuilt diagram: A touches X, Y and Z; B touches Y and Z. X can only fight A, so A is in
    # X's combat; Y and Z go to A or to B, and B must keep one: three ways, as the book says.
    sides = {"A": "griffin", "B": "griffin", "X": "scorpion", "Y": "scorpion", "Z": "scorpion"}
    graph = enemy_contacts(sides, [("A", "X"), ("A", "Y"), ("A", "Z"), ("B", "Y"), ("B", "Z")])
    options = splits(graph, melees(graph)[0])
    assert options == (
        (Combat.of("A", ["X"]), Combat.of("B", ["Y", "Z"])),
        (Combat.of("A", ["X", "Y"]), Combat.of("B", ["Z"])),
        (Combat.of("A", ["X", "Z"]), Combat.of("B", ["Y"])),
    )
    assert who_splits(graph, melees(graph)[0]).needs_roll


# ---------------------------------------------------------------------------------------------
# VII-C: the Praetorian Guard against two Dawn Warriors and Arkeon Sanath
# ---------------------------------------------------------------------------------------------

GUARD = "praetorian-guard"
DW1, DW2, ARKEON = "dawn-warrior-1", "dawn-warrior-2", "arkeon-sanath"

# The reference values the book uses (data/profiles griffin.toml, scorpion.toml).
GUARD_STATS = Stats(ini=3, att=5, str_=8, def_=5, res=11)
DAWN_STATS = Stats(ini=3, att=3, str_=7, def_=3, res=7)
ARKEON_STATS = Stats(ini=5, att=5, str_=7, def_=6, res=9)


@pytest.mark.rule("VII-C-1")
def test_allocation_order_and_dice() -> None:
    fighters = [
        Allocant(GUARD, "griffin", 49),
        Allocant(ARKEON, "scorpion", 74),
        Allocant(DW1, "scorpion", 19),
        Allocant(DW2, "scorpion", 19),
    ]
    # "The two dawn warriors must first allocate ... It is then up to the Praetorian Guard ...
    # Finally, his opponent places Arkeon Sanath's two dice."
    assert allocation_order(fighters, chooser="griffin") == (DW1, DW2, GUARD, ARKEON)
    assert combat_dice(1) == 1 + 1 == 2  # each Dirz fighter faces only the Guard
    assert combat_dice(3) == 1 + 3 == 4  # the Guard faces three opponents


@pytest.mark.rule("VII-C-2")
def test_initiative_eight_against_nine() -> None:
    guard_value = initiative_value(GUARD_STATS.ini, 1)
    arkeon_value = initiative_value(ARKEON_STATS.ini, 3)
    assert (guard_value, arkeon_value) == (3, 5 + 2) == (3, 7)
    roller = ScriptedRoller([5, 2])
    result = roll_opposed(roller, guard_value, arkeon_value)
    assert (result.a.natural, result.a.final) == (5, 8)
    assert (result.b.natural, result.b.final) == (2, 9)
    assert not result.a_wins  # Arkeon Sanath and the Dawn Warriors attack first


def _example_state() -> CombatState:
    return CombatState(
        centre=GUARD,
        fighters=(
            Combatant(DW1, "scorpion", DAWN_STATS, Allocation(2, 0), strategic_value=19),
            Combatant(DW2, "scorpion", DAWN_STATS, Allocation(1, 1), strategic_value=19),
            Combatant(GUARD, "griffin", GUARD_STATS, Allocation(3, 1), strategic_value=49),
            Combatant(ARKEON, "scorpion", ARKEON_STATS, Allocation(1, 1), strategic_value=74),
        ),
        side_order=("scorpion", "griffin"),
    )


def _book_plan(state: CombatState, side: str) -> Sequence[tuple[str, str]]:
    if side == "scorpion":  # the dawn warriors, then Arkeon Sanath
        return [(f, GUARD) for f in (DW1, DW2, ARKEON) if state.fighter(f).attack_left]
    return [(GUARD, t) for t in (DW1, DW2, ARKEON)][: state.fighter(GUARD).attack_left]


def _book_defence(
    state: CombatState, attacker: str, target: str, choices: tuple[DefenceChoice, ...]
) -> DefenceChoice:
    # Every fighter with a defence die uses it against the first attack on him.
    return DefenceChoice(1) if DefenceChoice(1) in choices else DefenceChoice(0)


def _guard_raises(pending: PendingTest, needed: int | None) -> bool:
    return True  # "He decides to roll again"


# Faces in the book's order (the initiative is rolled before, see the test above).
BOOK_DICE = [
    4, 2,  # DW1 attacks, the Guard defends: 4+3=7 against 2+5=7, parried
    2, 3,  # DW2: straight to the wound roll, arm, 3+7-11=-1, Stunned
    3, 5,  # Arkeon Sanath: wound roll, belly, 5+7-11=1, Light
    2, 6,  # the Guard on DW1 (no defence): wound 6+6-7=5, arm, Light
    6, 4, 6, 1, 4, 5,  # on DW2: 6, raise 4 → 13; defence 6, raise 1 → 4; wound 5+6-7=4 chest
    4, 2,  # on Arkeon: 4+3=7 against 2+6=8, blocked
    6, 6,  # second weapon combat: DW1's last attack die, wound 6-6: Killed Outright
]  # fmt: skip


# The combat's end, its attacks in order, and the roller (to check every face was used).
Replay = tuple[CombatState, tuple[AttackRecord, ...], ScriptedRoller]


@pytest.fixture(scope="module")
def replay() -> Replay:
    roller = ScriptedRoller(BOOK_DICE)
    decisions = CombatDecisions(
        plan=_book_plan,
        defend=_book_defence,
        raise_attack=_guard_raises,
        raise_defence=RaisePolicy.OPTIMAL,
    )
    final, records = fight(roller, _example_state(), decisions)
    return final, records, roller


@pytest.mark.rule("VII-C-3", "VII-C-4")
def test_first_attack_parried_and_the_defence_die_lost(replay: Replay) -> None:
    _, records, _ = replay
    first = records[0]
    assert (first.weapon_pass, first.attacker, first.target) == (1, DW1, GUARD)
    assert first.defence == DefenceChoice(1)
    assert first.attack_test is not None and first.defence_test is not None
    assert (first.attack_test.natural, first.attack_test.final) == (4, 4 + 3)
    assert (first.defence_test.natural, first.defence_test.final) == (2, 2 + 5)
    assert first.blocked and not first.hit and first.wound is None
    assert first.defence_dice_lost == 1  # "no longer has any dice placed in Defense"


@pytest.mark.rule("VII-C-4", "II-B-4")
def test_dawn_warrior_and_arkeon_wound_the_guard(replay: Replay) -> None:
    _, records, _ = replay
    second, third = records[1], records[2]
    assert (second.attacker, third.attacker) == (DW2, ARKEON)
    # No defence die left and no automatic failure possible: straight to the wound roll.
    assert second.attack_test is None and third.attack_test is None
    assert second.wound is not None and third.wound is not None
    assert second.wound.location is Location.ARMS
    assert second.wound.row == 3 + 7 - 11 == -1
    assert second.wound.result is WoundResult.STUNNED
    assert third.wound.location is Location.BELLY
    assert third.wound.row == 5 + 7 - 11 == 1
    assert third.wound.result is WoundResult.LIGHT
    assert third.health_after == HealthState(1, stunned=True)


@pytest.mark.rule("VII-C-3", "VII-C-4", "II-B-4")
def test_the_wounded_guard_attacks_all_three(replay: Replay) -> None:
    _, records, _ = replay
    on_dw1, on_dw2, on_arkeon = records[3], records[4], records[5]
    assert [r.target for r in (on_dw1, on_dw2, on_arkeon)] == [DW1, DW2, ARKEON]
    # "His current ATT and FOR values are 3 (5-2) and 6 (8-2)".
    for record in (on_dw1, on_dw2, on_arkeon):
        assert (record.attack_value, record.strength) == (5 - 2, 8 - 2)
    # DW1 has no defence die: wound '2' and '6', 6+6-7=5 in the arm, Light.
    assert on_dw1.attack_test is None and on_dw1.wound is not None
    assert on_dw1.wound.row == 6 + 6 - 7 == 5
    assert on_dw1.wound.location is Location.ARMS
    assert on_dw1.wound.result is WoundResult.LIGHT
    # DW2 defends: attack 6, raise, 4 → 6+4+3=13; defence 6, raise, 1 → 1+3=4; not blocked.
    assert on_dw2.attack_test is not None and on_dw2.defence_test is not None
    assert on_dw2.attack_test.faces == (6, 4) and on_dw2.attack_test.final == 6 + 4 + 3 == 13
    assert on_dw2.defence_test.faces == (6, 1) and on_dw2.defence_test.final == 1 + 3 == 4
    assert on_dw2.hit and on_dw2.defence_dice_lost == 1
    assert on_dw2.wound is not None and on_dw2.wound.row == 5 + 6 - 7 == 4
    assert on_dw2.wound.location is Location.CHEST
    assert on_dw2.wound.result is WoundResult.SERIOUS
    # Arkeon Sanath defends: 4+3=7 against 2+6=8, blocked.
    assert on_arkeon.attack_test is not None and on_arkeon.defence_test is not None
    assert on_arkeon.attack_test.final == 4 + 3 == 7
    assert on_arkeon.defence_test.final == 2 + 6 == 8
    assert on_arkeon.blocked


@pytest.mark.rule("VII-C-3", "VII-C-4", "II-B-1")
def test_second_weapon_combat_the_decapitation(replay: Replay) -> None:
    final, records, roller = replay
    assert len(records) == 7 and roller.remaining == 0
    last = records[6]
    assert (last.weapon_pass, last.attacker, last.target) == (2, DW1, GUARD)
    assert last.attack_test is None  # "makes the wound roll directly"
    assert last.strength == 7 - 1  # DW1 is in Light wound
    assert last.wound is not None and last.wound.kept == (6, 6)
    assert last.wound.row == 6 + 6 - 11 == 1 and last.wound.location is Location.HEAD
    assert last.wound.result is WoundResult.KILLED and last.killed
    assert not final.fighter(GUARD).alive
    # Arkeon Sanath and the warriors had used every other die in the first weapon combat.
    assert final.fighter(DW2).used == 2 and final.fighter(ARKEON).used == 2
    # Dice conserved: allocated = used + lost, for every fighter.
    for fighter in final.fighters:
        assert fighter.allocation.dice == fighter.used + fighter.lost
    # The survivors may pursue: every opponent of theirs in this combat was killed.
    assert all(may_pursue(final, f) for f in (DW1, DW2, ARKEON))


# ---------------------------------------------------------------------------------------------
# VII-C-6: pursuit
# ---------------------------------------------------------------------------------------------


@pytest.mark.rule("VII-C-6")
@pytest.mark.parametrize(("mov", "cm"), [(10, 5), (15, 8), (7.5, 4), (1, 1), (0, 0)])
def test_pursuit_distance_is_half_mov_rounded_up(mov: float, cm: int) -> None:
    assert pursuit_distance(mov) == cm


def _pursuit_field(with_x: bool) -> tuple[dict[str, Base], dict[str, str]]:
    # Rebuilt diagram: A fights Z, B fights Y just beside them (B also touching Z would make
    # one melee; here B is 3 cm from Z). B kills Y and moves MOV/2 = 5 cm to engage Z.
    bases = {
        "A": Base(0.0, 0.0, facing=90.0),
        "Z": Base(0.0, 2.5, facing=270.0),
        "B": Base(5.5, 0.0, facing=90.0),
        "Y": Base(5.5, 2.5, facing=270.0),
    }
    sides = {"A": "blue", "B": "blue", "Z": "red", "Y": "red"}
    if with_x:
        bases["X"] = Base(-2.5, 0.0, facing=0.0)
        sides["X"] = "red"
    return bases, sides


@pytest.mark.rule("VII-C-6", "VII-A")
@pytest.mark.parametrize("with_x", [False, True])
def test_pursuit_engages_z(with_x: bool) -> None:
    bases, sides = _pursuit_field(with_x)
    before = enemy_contacts(sides, _contacts(bases))
    assert ("B", "Z") not in before.edges
    # B has killed Y (removed), and pursues MOV/2 towards Z: Z is within reach.
    del bases["Y"], sides["Y"]
    reach = pursuit_distance(10)
    assert distance(bases["B"], bases["Z"]) <= reach
    bases["B"] = bases["B"].moved(2.5, 2.5, facing=180.0)  # along Z's flank
    after = enemy_contacts(sides, _contacts(bases))
    assert after.has_edge("B", "Z") and after.has_edge("A", "Z")
    melee = pursuit_melee(after, "B", fought={"B"})
    assert melee is not None
    decision = who_splits(after, melee, pursuer="B")
    assert decision.splitter == "blue"  # the pursuer's player separates (Note 2)
    if not with_x:
        # "The combat between Z and A and B is immediately resolved."
        assert decision.options == ((Combat.of("Z", ["A", "B"]),),)
    else:
        # "B's pursuit movement then results in a new separation of the melee into two combats.
        # Only the combat between Z and B is immediately resolved."
        assert decision.options == ((Combat.of("A", ["X"]), Combat.of("B", ["Z"])),)
        assert combat_of(decision.options[0], "B") == Combat.of("B", ["Z"])


@pytest.mark.rule("VII-C-6")
def test_staying_in_place_joins_the_unresolved_combat() -> None:
    # "Fighter B has just killed Fighter Y. He can either (1) stay in place and the combat
    # between Fighter Z and Fighters A and B is immediately resolved or (2) move MOV/2."
    # B touched Y and Z; the split gave B-Y and A-Z. Y is dead, B stays.
    sides = {"A": "blue", "B": "blue", "Z": "red"}
    graph = enemy_contacts(sides, [("A", "Z"), ("B", "Z")])
    melee = pursuit_melee(graph, "B", fought={"B"})
    assert melee == frozenset("ABZ")
    assert splits(graph, melee) == ((Combat.of("Z", ["A", "B"]),),)
    # If Z had already fought this phase, nothing would happen (VII-C-6 c).
    assert pursuit_melee(graph, "B", fought={"B", "Z", "A"}) is None
