"""Charging, engaging and shooting elements of scenery (C3 tournament rules, ``000_…``,
"Assault and combat with elements of scenery", "Shooting Elements of Scenery";
CLARIFICATIONS §6), through ``step()``; the destruction as a scenario event.

Square 25 mm bases; facing 0° looks along +x. The Conscript (MOV 10: an assault reaches
20 cm) stands at (30, 30), his front edge at x = 31.25. The gate (impassable, very large,
3 SP, RES 4) is the strip x 45–46.5, y 25–35: 13.75 cm in front of him.
"""

from __future__ import annotations

import dataclasses

import pytest

from confrontation.engine.actions.scenery import (
    AssaultScenery,
    SceneryAssaulted,
    SceneryShot,
    SceneryShotMissed,
    ShootScenery,
)
from confrontation.engine.combat import events as ce
from confrontation.engine.combat import scenery_attack as sa
from confrontation.engine.combat.questions import AllocateDice
from confrontation.engine.core.events import Charged, Engaged
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import AnnouncementsDone, DieFace
from confrontation.engine.core.state import (
    GameState,
    Phase,
    ProfileSummary,
    SceneryPiece,
    state_from_json,
    state_to_json,
)
from confrontation.engine.step import legal, step
from confrontation.engine.table.field import field_of, scenery_of
from confrontation.geometry.measure import geometry_distance
from confrontation.scenarios.conditions import Condition
from confrontation.scenarios.parties import destroyed
from confrontation.scenarios.victory import fulfils
from engine_support import Script, activate, fighter, only, profile, skirmish

ME, FRIEND, ENEMY = "p1-c1-1", "p1-c2-1", "p2-c1-1"


def _gate(x0: float = 45.0, points: int | None = 3) -> SceneryPiece:
    outline = ((x0, 25.0), (x0 + 1.5, 25.0), (x0 + 1.5, 35.0), (x0, 35.0))
    return SceneryPiece("gate", outline, "very-large", False, True, points, 4 if points else None)


ARCHER = fighter("Archer", aim=4, aim_str=5, ranges=(10.0, 20.0, 30.0))


def _game(
    gate: SceneryPiece,
    me: ProfileSummary | None = None,
    facing: float = 0.0,
    enemy: tuple[float, float, float] = (100.0, 50.0, 180.0),
    friend: tuple[float, float, float] | None = None,
) -> GameState:
    mine = [(me or profile("griffin-conscript"), 1)]
    positions = {ME: (30.0, 30.0, facing), ENEMY: enemy}
    if friend is not None:
        mine.append((fighter("Friend"), 1))
        positions[FRIEND] = friend
    return skirmish([mine, [(profile("dawn-warrior"), 1)]], positions, scenery=[gate])


def _touches(state: GameState, fighter_id: str) -> bool:
    ground = state.battleground
    assert ground is not None and ground.scenery
    piece = ground.scenery[0]
    base = field_of(state).base(fighter_id)
    return geometry_distance(base, scenery_of(piece).footprint) <= 0.005


# --- assaults --------------------------------------------------------------------------------


@pytest.mark.rule("C3-ASSAULTING-ELEMENTS-OF-SCENERY", "V-B-3")
def test_charging_an_element_with_structure_points() -> None:
    # "Unless Charging an element of scenery with Structure Points, all assaults against
    # elements of scenery are considered to be Engagements": he sees the gate, he charges it.
    state = activate(_game(_gate()), "p1-c1")
    offered = [c for c in legal(state) if isinstance(c, AssaultScenery)]
    assert offered == [AssaultScenery(ME, "gate", "charge")]
    state, events = step(state, offered[0])
    state, more = step(state, AnnouncementsDone())
    events += more
    [assaulted] = only(events, SceneryAssaulted)
    assert assaulted.reached and assaulted.action == "charge"
    assert assaulted.distance == pytest.approx(13.75, abs=0.05)
    assert _touches(state, ME)
    # "No bonuses from abilities like Charging Strength": nobody is charged, no penalty.
    assert not only(events, Charged) and not only(events, Engaged)
    assert state.charges == () and not state.fighter(ME).charged
    assert "charges gate (13.7" in "\n".join(narrate(events))
    # In contact at the beginning of the combat phase: he attacks it with his 2 dice.
    script = Script(dataclasses.replace(state, activation=None, pending=None), phase=Phase.COMBAT)
    assert script.asked == "attack_scenery"
    assert sa.AttackScenery(ME, (("gate", 2),)) in legal(script.state)


@pytest.mark.rule("C3-ASSAULTING-ELEMENTS-OF-SCENERY", "V-B-3")
def test_an_element_he_does_not_see_is_engaged() -> None:
    # Facing away from the gate: he cannot see it at the start, an engagement (V-B-3).
    state = activate(_game(_gate(), facing=180.0), "p1-c1")
    offered = [c for c in legal(state) if isinstance(c, AssaultScenery)]
    assert offered == [AssaultScenery(ME, "gate", "engage")]
    state, _ = step(state, offered[0])
    state, events = step(state, AnnouncementsDone())
    [assaulted] = only(events, SceneryAssaulted)
    assert assaulted.reached and assaulted.action == "engage"
    assert _touches(state, ME)


@pytest.mark.rule("C3-ASSAULTING-ELEMENTS-OF-SCENERY", "C3-DAMAGING-ELEMENTS-OF-SCENERY")
def test_inalterable_scenery_is_no_target_and_nor_is_an_element_already_touched() -> None:
    state = activate(_game(_gate(points=None)), "p1-c1")
    assert not [c for c in legal(state) if isinstance(c, AssaultScenery)]
    touching = activate(_game(_gate(x0=31.25)), "p1-c1")  # his front edge on the gate
    assert not [c for c in legal(touching) if isinstance(c, AssaultScenery)]
    # an enemy in contact: no assault without disengaging (the engine offers none)
    engaged = activate(_game(_gate(), enemy=(27.5, 30.0, 0.0)), "p1-c1")
    assert not [c for c in legal(engaged) if isinstance(c, AssaultScenery)]


@pytest.mark.rule("C3-ASSAULTING-ELEMENTS-OF-SCENERY", "V-B-3")
def test_too_far_he_moves_his_whole_potential_towards_it() -> None:
    # The gate 28.75 cm away: he moves 20 cm towards it and does not touch it.
    state = activate(_game(_gate(x0=60.0)), "p1-c1")
    state, _ = step(state, AssaultScenery(ME, "gate", "charge"))
    state, events = step(state, AnnouncementsDone())
    [assaulted] = only(events, SceneryAssaulted)
    assert not assaulted.reached
    assert assaulted.measured == pytest.approx(28.75, abs=0.05)
    assert 19.0 <= assaulted.distance <= 20.0
    assert not _touches(state, ME)
    assert state.fighter(ME).x > 48.0


# --- shots -------------------------------------------------------------------------------------


@pytest.mark.rule("C3-SHOOTING-ELEMENTS-OF-SCENERY", "C3-DAMAGING-ELEMENTS-OF-SCENERY", "VI-A-3")
def test_shooting_an_element_destroys_it_and_the_scenario_sees_it() -> None:
    # 13.75 cm: medium range (7), very large target (-2): difficulty 5. AIM 4 + 3 = 7 hits.
    # Damage 5 and 6: highest 6 + STR 5 - RES 4 = 7, head: killed outright, 4 SP: destroyed.
    state = activate(_game(_gate(), me=ARCHER), "p1-c1")
    state, _ = step(state, AnnouncementsDone())
    assert ShootScenery(ME, "gate") in legal(state)
    state, events = step(state, ShootScenery(ME, "gate"))
    [shot] = only(events, SceneryShot)
    assert (shot.band, shot.difficulty) == ("medium", 5)
    for face in (3, 5, 6):
        state, more = step(state, DieFace(face))
        events += more
    assert only(events, sa.SceneryDamaged) == [
        sa.SceneryDamaged("gate", ME, (5, 6), 5, 4, 7, "killed", 3, 0)
    ]
    assert only(events, sa.SceneryDestroyed) == [sa.SceneryDestroyed("gate", ME)]
    ground = state.battleground
    assert ground is not None and ground.scenery == () and ground.destroyed == ("gate",)
    # "destroyed" as a scenario event: the condition kind "destroy"
    assert destroyed(state, "gate")
    condition = Condition("sabotage", "destroy", params='{"element":"gate"}')
    assert fulfils(state, condition, 0)
    intact = Condition("hold", "intact", params='{"element":"gate"}')
    assert not fulfils(state, intact, 1)
    assert state_from_json(state_to_json(state)) == state


@pytest.mark.rule("C3-SHOOTING-ELEMENTS-OF-SCENERY", "VI-A-1")
def test_beyond_the_long_range_the_shot_fails() -> None:
    state = activate(_game(_gate(x0=65.0), me=ARCHER), "p1-c1")  # 33.75 cm
    state, _ = step(state, AnnouncementsDone())
    state, events = step(state, ShootScenery(ME, "gate"))
    [missed] = only(events, SceneryShotMissed)
    assert missed.reason.startswith("out of range (33.75 cm")


@pytest.mark.rule("C3-SHOOTING-ELEMENTS-OF-SCENERY", "VI-B-1")
def test_no_distribution_roll_even_with_a_friend_touching_the_element() -> None:
    # "Elements of scenery are never considered when distributing shots targeting either a
    # fighter or the element of scenery itself": his friend touches the gate's far side; the
    # hit goes straight to the damage roll.
    state = activate(_game(_gate(), me=ARCHER, friend=(47.75, 30.0, 180.0)), "p1-c1")
    state, _ = step(state, AnnouncementsDone())
    state, _ = step(state, ShootScenery(ME, "gate"))
    state, _ = step(state, DieFace(3))
    assert state.pending is not None and state.pending.kind == "wound_die"


@pytest.mark.rule("C3-SHOOTING-ELEMENTS-OF-SCENERY")
def test_a_failed_test_misses_and_the_element_keeps_its_points() -> None:
    state = activate(_game(_gate(), me=ARCHER), "p1-c1")
    state, _ = step(state, AnnouncementsDone())
    state, _ = step(state, ShootScenery(ME, "gate"))
    state, events = step(state, DieFace(1))  # 1 + 4 = 5 against 5: hits
    assert state.pending is not None and state.pending.kind == "wound_die"
    weak = dataclasses.replace(ARCHER, aim=1)
    state = activate(_game(_gate(), me=weak), "p1-c1")
    state, _ = step(state, AnnouncementsDone())
    state, _ = step(state, ShootScenery(ME, "gate"))
    state, events = step(state, DieFace(2))  # 2 + 1 = 3 < 5
    [missed] = only(events, SceneryShotMissed)
    assert missed.reason == "the Shooting test failed"
    ground = state.battleground
    assert ground is not None and ground.scenery is not None
    assert ground.scenery[0].structure_points == 3


@pytest.mark.rule("C3-SPLITTING-FRAYS-INVOLVING-ELEMENTS-OF-SCENERY")
def test_an_element_joins_no_fray_and_every_fighter_touching_it_may_attack_it() -> None:
    # "Elements of scenery are not taken into account during the splitting of frays. A fighter
    # always has the option to attack an element of scenery with which it is in base contact,
    # even if attacks have already been made against that element earlier in the combat
    # phase." Two fighters touch the gate, one of them an enemy too: one combat of two
    # fighters (the gate is in none); both attack the gate.
    state = _game(_gate(x0=31.25), friend=(30.0, 26.25, 0.0), enemy=(27.5, 30.0, 0.0))
    script = Script(state, phase=Phase.COMBAT)
    [split] = only(script.events, ce.CombatSplit)
    assert [sorted(c.fighters) for c in split.combats] == [[ME, ENEMY]]
    script.play(5, 1)  # the Authority roll
    script.play(AllocateDice(ME, 2, 0), sa.AttackScenery(ME, (("gate", 1),)), 1, 1, 2)
    assert only(script.events, sa.SceneryDamaged)[0].left == 3  # 2 + 4 - 4: stunned, no SP
    script.play(AllocateDice(ENEMY, 2, 0), 5, 1, 1, 1, 1, 1, 1, 1)
    assert script.asked == "attack_scenery"  # the friend, after the fighters' combats
    assert sa.AttackScenery(FRIEND, (("gate", 2),)) in legal(script.state)
