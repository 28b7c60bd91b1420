"""Attacking elements of scenery in the combat phase (C3 tournament rules, ``000_…``,
"Assault and combat with elements of scenery"; CLARIFICATIONS §6), through the engine.

Square 25 mm bases; facing 0° looks along +x. The Conscript (ATT 2, STR 4) stands at
(30, 30) with his front edge at x = 31.25; the gate (impassable) is the strip x 31.25–32.75,
y 25–35, touching it.

The damage results expected below are read by hand on the Injury Table of CLARIFICATIONS §1
(column = lowest die, row = highest die + STR − RES) and the SP table of C3 (Stunned 0, Light
1, Serious 2, Critical 3, Killed 4).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from confrontation.engine.combat import events as ce
from confrontation.engine.combat import scenery_attack as sa
from confrontation.engine.combat.questions import AllocateDice, NameFighter
from confrontation.engine.core.events import PhaseEnded
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import KeepResult, Raise
from confrontation.engine.core.state import (
    GameState,
    Phase,
    ProfileSummary,
    SceneryPiece,
    state_from_json,
    state_to_json,
)
from confrontation.engine.step import legal
from confrontation.engine.table.field import field_of
from engine_support import Script, fighter, only, profile, skirmish

CONSCRIPT = "p1-c1-1"
ENEMY = "p2-c1-1"
GATE = ((31.25, 25.0), (32.75, 25.0), (32.75, 35.0), (31.25, 35.0))


def _gate(points: int = 3, resistance: int = 4) -> SceneryPiece:
    return SceneryPiece("gate", GATE, "very-large", False, True, points, resistance)


def _alone(gate: SceneryPiece, attacker: ProfileSummary | None = None) -> GameState:
    """The Conscript (or ``attacker``) touching the gate, the enemy far away."""
    mine = attacker if attacker is not None else profile("griffin-conscript")
    cards = [[(mine, 1)], [(profile("dawn-warrior"), 1)]]
    positions = {CONSCRIPT: (30.0, 30.0, 0.0), ENEMY: (100.0, 50.0, 180.0)}
    return skirmish(cards, positions, scenery=[gate])


# --- combat dice: the C3 example ----------------------------------------------------------


@pytest.mark.rule("C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY")
def test_a_conscript_in_contact_with_scenery_alone_has_two_combat_dice() -> None:
    # "A Griffin Conscript in contact with an element of scenery will have two combat dice."
    script = Script(_alone(_gate()), phase=Phase.COMBAT)
    assert script.asked == "attack_scenery"
    assert legal(script.state) == [
        sa.AttackScenery(CONSCRIPT, ()),
        sa.AttackScenery(CONSCRIPT, (("gate", 1),)),
        sa.AttackScenery(CONSCRIPT, (("gate", 2),)),
    ]


@pytest.mark.rule("C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY", "VII-C-1")
def test_with_an_enemy_too_he_still_has_just_two_dice_and_assigns_them_together() -> None:
    # "The same Conscript in contact with scenery and an enemy will still have just two combat
    # dice." The Dawn Warrior touches his back; the gate his front.
    cards = [[(profile("griffin-conscript"), 1)], [(profile("dawn-warrior"), 1)]]
    positions = {CONSCRIPT: (30.0, 30.0, 0.0), ENEMY: (27.5, 30.0, 0.0)}
    script = Script(skirmish(cards, positions, scenery=[_gate()]), phase=Phase.COMBAT)
    script.play(5, 1)  # the Authority roll: one combat, nobody to name
    # The Conscript (11 AP) allocates first: 1 + 1 opponent = 2 dice, the gate adds none.
    assert set(legal(script.state)) == {AllocateDice(CONSCRIPT, a, 2 - a) for a in (0, 1, 2)}
    script.play(AllocateDice(CONSCRIPT, 2, 0))
    # "He must assign his attacks against it and his opponents at the same time."
    assert script.asked == "attack_scenery"
    assert sa.AttackScenery(CONSCRIPT, (("gate", 2),)) in legal(script.state)
    events = script.play(sa.AttackScenery(CONSCRIPT, (("gate", 1),)), 2, 1, 2)
    # The attack on the gate is rolled at once: 2 + 2 = 4 hits; damage 1 and 2: legs, row
    # 2 + 4 - 4 = 2, Stunned: no SP lost.
    assert only(events, sa.SceneryAttackRolled) == [
        sa.SceneryAttackRolled(CONSCRIPT, "gate", 2, (2,), 2, 4, True)
    ]
    assert only(events, sa.SceneryDamaged) == [
        sa.SceneryDamaged("gate", CONSCRIPT, (1, 2), 4, 4, 2, "stunned", 0, 3)
    ]
    assert script.asked == "allocate_dice"  # the Dawn Warrior's turn to allocate
    fight = script.state.combat.fight if script.state.combat else None
    assert fight is not None and fight.board.fighter(CONSCRIPT).attack_left == 1
    # The rest of the combat: the Dawn Warrior all in attack; the Conscript wins the
    # initiative (5 + 2 against 1 + 3) and makes his one attack (no defence: straight to the
    # wound roll, 1-1, nothing); the Dawn Warrior's two attacks stun him (1-1: row 2, legs).
    script.play(AllocateDice(ENEMY, 2, 0), 5, 1, 1, 1, 1, 1, 1, 1)
    [resolved] = only(script.events, ce.CombatResolved)
    assert isinstance(resolved, ce.CombatResolved)
    dice = {d[0]: d[1:] for d in resolved.dice}
    assert dice[CONSCRIPT] == (2, 2, 0)  # allocated = used (1 on the gate, 1 attack) + lost
    assert _phase_over(script)


def _phase_over(script: Script) -> bool:
    ended = [e for e in script.events if isinstance(e, PhaseEnded) and e.phase == "combat"]
    return len(ended) == 1 and script.state.phase is not Phase.COMBAT


# --- the attack test: no defence, fails only on a final result ≤ 0 --------------------------


@pytest.mark.rule("C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY", "II-A-4")
@pytest.mark.parametrize(("att", "face", "hit"), [(2, 1, True), (-1, 2, True), (-1, 1, False)])
def test_the_attack_test_fails_only_on_a_final_result_of_0_or_less(
    att: int, face: int, hit: bool
) -> None:
    # Under Confédé a natural 1 is no automatic failure (CLARIFICATIONS §6): ATT 2 with a 1
    # is 3, a hit; ATT -1 needs a 2.
    clumsy = fighter("Clumsy", att=att, strength=4)
    script = Script(_alone(_gate(), clumsy), phase=Phase.COMBAT)
    events = script.play(sa.AttackScenery(CONSCRIPT, (("gate", 1),)), face)
    [rolled] = only(events, sa.SceneryAttackRolled)
    assert rolled == sa.SceneryAttackRolled(CONSCRIPT, "gate", att, (face,), face, face + att, hit)
    if hit:
        assert script.asked == "scenery_damage_die"
    else:
        assert not only(events, sa.SceneryDamaged)
        assert _phase_over(script)


@pytest.mark.rule("C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY", "II-A-1")
def test_a_failing_six_may_be_raised_a_succeeding_one_is_not_asked() -> None:
    hopeless = fighter("Hopeless", att=-6, strength=4)
    script = Script(_alone(_gate(), hopeless), phase=Phase.COMBAT)
    script.play(sa.AttackScenery(CONSCRIPT, (("gate", 1),)), 6)
    assert script.asked == "scenery_attack_raise"  # 6 - 6 = 0 fails: raise?
    events = script.play(Raise(), 2)
    assert only(events, sa.SceneryAttackRolled) == [
        sa.SceneryAttackRolled(CONSCRIPT, "gate", -6, (6, 2), 8, 2, True)
    ]
    keeper = Script(_alone(_gate(), hopeless), phase=Phase.COMBAT)
    events = keeper.play(sa.AttackScenery(CONSCRIPT, (("gate", 1),)), 6, KeepResult())
    assert [e.hit for e in only(events, sa.SceneryAttackRolled)] == [False]
    able = Script(_alone(_gate()), phase=Phase.COMBAT)
    able.play(sa.AttackScenery(CONSCRIPT, (("gate", 1),)), 6)
    assert able.asked == "scenery_damage_die"  # 6 + 2 = 8 already hits


# --- the structure points table ----------------------------------------------------------


@pytest.mark.rule("C3-DAMAGING-ELEMENTS-OF-SCENERY")
@pytest.mark.parametrize(
    ("dice", "resistance", "row", "result", "lost"),
    [
        ((1, 1), 10, -5, "none", 0),  # legs, < 0
        ((1, 2), 6, 0, "stunned", 0),  # legs, 0/1: Stunned, no effect
        ((1, 4), 4, 4, "light", 1),  # legs, 4/5
        ((2, 6), 4, 6, "serious", 2),  # arms, 6/7
        ((5, 5), 4, 5, "critical", 3),  # head, 4/5
        ((5, 6), 4, 6, "killed", 4),  # head, 6/7
        ((6, 6), 7, 3, "critical", 3),  # a double 6 is read in the head column, 2/3: not 4 SP
    ],
)
def test_structure_points_lost_per_damage_result(
    dice: tuple[int, int], resistance: int, row: int, result: str, lost: int
) -> None:
    script = Script(_alone(_gate(points=10, resistance=resistance)), phase=Phase.COMBAT)
    events = script.play(sa.AttackScenery(CONSCRIPT, (("gate", 1),)), 3, *dice)
    assert only(events, sa.SceneryDamaged) == [
        sa.SceneryDamaged("gate", CONSCRIPT, dice, 4, resistance, row, result, lost, 10 - lost)
    ]
    ground = script.state.battleground
    assert ground is not None and ground.scenery is not None
    [gate] = ground.scenery
    assert gate.structure_points == 10 - lost


# --- destruction ---------------------------------------------------------------------------


@pytest.mark.rule(
    "C3-DAMAGING-ELEMENTS-OF-SCENERY", "C3-ELEMENTS-OF-SCENERY-AND-PURSUIT-MOVEMENT", "V-A"
)
def test_a_destroyed_element_leaves_the_table_and_grants_no_pursuit() -> None:
    state = _alone(_gate(points=3, resistance=4))
    before = field_of(state)
    assert [s.name for s in before.scenery] == ["gate"]
    script = Script(state, phase=Phase.COMBAT)
    # First die: 4 + 2 hits; 2 and 5: arms, row 5, Light: 1 SP (2 left). Second: 3 + 2 hits;
    # 5 and 5: head, row 5, Critical: 3 SP, the last 2.
    events = script.play(sa.AttackScenery(CONSCRIPT, (("gate", 2),)), 4, 2, 5, 3, 5, 5)
    assert only(events, sa.SceneryDamaged) == [
        sa.SceneryDamaged("gate", CONSCRIPT, (2, 5), 4, 4, 5, "light", 1, 2),
        sa.SceneryDamaged("gate", CONSCRIPT, (5, 5), 4, 4, 5, "critical", 2, 0),
    ]
    assert only(events, sa.SceneryDestroyed) == [sa.SceneryDestroyed("gate", CONSCRIPT)]
    ground = script.state.battleground
    assert ground is not None and ground.scenery == ()
    # No pursuit move: the element is no fighter of a combat.
    assert not only(script.events, ce.Pursued)
    assert _phase_over(script)
    # The way through the gate is open now: nothing blocks the Conscript's move straight on.
    moved = dataclasses.replace(script.state, phase=Phase.ACTIVATION)
    path = field_of(moved).path(CONSCRIPT, (45.0, 30.0))
    assert path is not None and path.length == pytest.approx(45.0 - 31.25, abs=0.01)
    blocked = field_of(state).path(CONSCRIPT, (45.0, 30.0))
    assert blocked is not None and blocked.length > 45.0 - 31.25 + 1.0
    # The narration tells the damage and the destruction.
    told = narrate(script.events)
    assert any("2 SP lost, 0 left" in line for line in told)
    assert any("Gate is destroyed" in line for line in told)  # round 0: sentences capitalised


@pytest.mark.rule("C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY")
def test_declining_the_attack_ends_the_phase_and_the_element_is_untouched() -> None:
    script = Script(_alone(_gate()), phase=Phase.COMBAT)
    events = script.play(sa.AttackScenery(CONSCRIPT, ()))
    assert not only(events, sa.SceneryAttacksAssigned)
    assert _phase_over(script)
    ground = script.state.battleground
    assert ground is not None and ground.scenery == (_gate(),)


@pytest.mark.rule("C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY", "C3-DAMAGING-ELEMENTS-OF-SCENERY")
def test_inalterable_scenery_and_fighters_not_in_contact_attack_nothing() -> None:
    inalterable = dataclasses.replace(_gate(), structure_points=None, resistance=None)
    script = Script(_alone(inalterable), phase=Phase.COMBAT)
    assert _phase_over(script)
    apart = _alone(_gate())
    apart = apart.with_fighters(dataclasses.replace(apart.fighter(CONSCRIPT), x=28.0))
    assert sa.scenery_contacts(apart) == ()
    assert _phase_over(Script(apart, phase=Phase.COMBAT))


# --- pursuit: only from contact at the start of the phase, never after a pursuit move --------


@pytest.mark.rule("C3-ELEMENTS-OF-SCENERY-AND-PURSUIT-MOVEMENT", "VII-C-6")
def test_no_scenery_attack_after_a_pursuit_move() -> None:
    # The Guard B touches the gate, Y and Z. When he allocates his dice he puts none on the
    # gate: he is not asked again. Had he pursued (even staying in place, a move of 0 cm), he
    # could not attack it any more (C3), though he still touches it.
    guard, warrior = profile("praetorian-guard"), profile("dawn-warrior")
    b, y, z = "p1-c1-1", "p2-c1-1", "p2-c1-2"
    positions = {b: (30.0, 30.0, 0.0), y: (27.5, 30.0, 0.0), z: (30.0, 27.5, 90.0)}
    script = Script(
        skirmish([[(guard, 1)], [(warrior, 2)]], positions, scenery=[_gate()]), phase=Phase.COMBAT
    )
    assert script.state.combat is not None
    assert (b, "gate") in script.state.combat.scenery.contacts
    # One melee Y-B-Z, B against both; Player 2 names Y for the Authority roll.
    script.play(NameFighter(y), 5, 1)
    script.play(AllocateDice(y, 0, 2), AllocateDice(z, 0, 2), AllocateDice(b, 3, 0))
    assert script.asked == "attack_scenery"
    script.play(sa.AttackScenery(b, ()))
    assert sa.targets(script.state, b) == ()  # placed once: no second offer
    # A progress where B had not been asked but has pursued: no target either.
    progress = script.state.combat
    assert progress is not None
    fresh = dataclasses.replace(progress.scenery, asked=())
    pursued = dataclasses.replace(progress, scenery=fresh, pursued=(b,))
    assert sa.targets(dataclasses.replace(script.state, combat=pursued), b) == ()
    not_yet = dataclasses.replace(progress, scenery=fresh)
    assert sa.targets(dataclasses.replace(script.state, combat=not_yet), b) == ("gate",)


@pytest.mark.rule("C3-ELEMENTS-OF-SCENERY-AND-PURSUIT-MOVEMENT")
def test_contact_made_during_the_phase_gives_no_attack() -> None:
    # Contacts are taken when the phase begins. Two Guards fight elsewhere (the phase waits
    # for their Authority dice); the Conscript, away from the gate then, is put against it
    # (as a pursuit move would): he touches it, but has no target.
    guard, warrior = profile("praetorian-guard"), profile("dawn-warrior")
    cards = [[(profile("griffin-conscript"), 1), (guard, 1)], [(warrior, 2)]]
    positions = {
        CONSCRIPT: (20.0, 30.0, 0.0),
        "p1-c2-1": (80.0, 30.0, 0.0),
        ENEMY: (82.5, 30.0, 180.0),
        "p2-c1-2": (110.0, 50.0, 180.0),
    }
    script = Script(skirmish(cards, positions, scenery=[_gate()]), phase=Phase.COMBAT)
    assert script.asked == "contest_die"
    assert script.state.combat is not None and script.state.combat.scenery.contacts == ()
    moved = script.state.with_fighters(dataclasses.replace(script.state.fighter(CONSCRIPT), x=30.0))
    assert sa.scenery_contacts(moved) == ((CONSCRIPT, "gate"),)
    assert sa.targets(moved, CONSCRIPT) == ()
    assert sa.standalone(moved) is None


# --- the data: which elements can be damaged -------------------------------------------------


@pytest.mark.rule("C3-TYPES-OF-SCENERY", "C3-STANDARD-SCENERY", "C3-DAMAGING-ELEMENTS-OF-SCENERY")
def test_bundled_kinds_standard_scenery_is_inalterable() -> None:
    kinds = sa.load_scenery_structure()
    for standard in ("house", "ruins", "wall", "hill", "forest", "pond"):
        assert not kinds[standard].destructible
    assert kinds["objective"] == sa.ElementKind("objective", True, 5, 8)
    house = SceneryPiece("house-1", GATE)
    objective = SceneryPiece("objective-2", GATE, scenario=True)
    assert sa.structured(house) == house
    assert sa.structured(objective).structure_points == 5
    assert sa.structured(objective).resistance == 8
    unknown = SceneryPiece("statue", GATE)
    assert sa.structured(unknown) == unknown
    given = dataclasses.replace(objective, structure_points=2, resistance=3)
    assert sa.structured(given) == given  # the scenario's own values win
    state = sa.with_structure(_alone(objective))
    ground = state.battleground
    assert ground is not None and ground.scenery is not None
    assert ground.scenery[0].structure_points == 5


@pytest.mark.rule("C3-DAMAGING-ELEMENTS-OF-SCENERY")
def test_a_users_file_replaces_the_kinds_and_bad_files_name_the_key(tmp_path: Path) -> None:
    good = tmp_path / "kinds.toml"
    good.write_text(
        "[kinds.statue]\ndestructible = true\nstructure_points = 2\nresistance = 9\n", "utf-8"
    )
    kinds = sa.load_scenery_structure(good)
    assert sa.structured(SceneryPiece("statue-1", GATE), kinds).structure_points == 2
    bad = tmp_path / "bad.toml"
    bad.write_text("[kinds.statue]\ndestructible = true\nstructure_points = 0\n", "utf-8")
    with pytest.raises(sa.SceneryStructureError, match=r"bad\.toml.*kinds\.statue\.structure"):
        sa.load_scenery_structure(bad)
    with pytest.raises(sa.SceneryStructureError, match="cannot read"):
        sa.load_scenery_structure(tmp_path / "missing.toml")


@pytest.mark.rule("C3-ATTACKS-AGAINST-ELEMENTS-OF-SCENERY")
def test_a_scenery_attack_in_progress_round_trips_through_json() -> None:
    script = Script(_alone(_gate()), phase=Phase.COMBAT)
    script.play(sa.AttackScenery(CONSCRIPT, (("gate", 2),)), 4)
    assert script.state.combat is not None and script.state.combat.scenery.busy
    assert state_from_json(state_to_json(script.state)) == script.state
