"""XX-E-6, passive individuals, sentence by sentence through ``step()``: controlled by the
defender, not of his army (effectif, losses, Execution), their own card in his deck (one per
profile, counted for the refusals), no assault, every combat die in defence, the 15 cm leash
after a move and at the activation, its rout exception; the Escort scenario file."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

import pytest

from confrontation.engine.actions.scenery import AssaultScenery
from confrontation.engine.combat import events as ce
from confrontation.engine.combat import phase as combat_phase
from confrontation.engine.combat.questions import Pursue
from confrontation.engine.core.events import Event, RefusalsGranted
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    DieFace,
    Place,
    Walk,
)
from confrontation.engine.core.state import GameState, Phase, SceneryPiece
from confrontation.engine.step import is_chance, legal, start, step
from confrontation.engine.table.field import field_of
from confrontation.geometry.measure import distance
from confrontation.scenarios import control, losses_ap, resolve
from confrontation.scenarios.base import Area
from confrontation.scenarios.basic import highest_value_targets
from confrontation.scenarios.parties import PassiveEntry, PassiveSpec, install, protected
from engine_support import Script, activate, fighter, only, profile, skirmish

E = TypeVar("E", bound=Event)
SOLDIER, ENEMY = "p1-c1-1", "p2-c1-1"
CITIZEN, CITIZEN_2, MONK = "p1-c2-1", "p1-c2-2", "p1-c3-1"


def _passive(*where: tuple[float, float], monk: tuple[float, float] | None = None) -> PassiveSpec:
    people = [PassiveEntry(profile="cadwallon-citizen", x=x, y=y) for x, y in where]
    if monk is not None:
        people.append(PassiveEntry(profile="griffin-conscript", x=monk[0], y=monk[1]))
    return PassiveSpec(defender=1, individuals=people)


def _game(
    spec: PassiveSpec,
    soldier: tuple[float, float, float] = (30.0, 30.0, 0.0),
    enemy: tuple[float, float, float] = (100.0, 30.0, 180.0),
    scenery: Sequence[SceneryPiece] = (),
) -> GameState:
    cards = [[(fighter("Soldier", ap=20), 1)], [(fighter("Raider", ap=15), 1)]]
    state = skirmish(cards, {SOLDIER: soldier, ENEMY: enemy}, scenery=scenery)
    return install(state, (), spec)


# --- the card, the deck, the refusals -----------------------------------------------------


@pytest.mark.rule("XX-E-6", "IV-B-1")
def test_one_card_per_profile_in_the_defenders_deck_counted_for_the_refusals() -> None:
    # "Une carte les représentant doit être ajoutée à la pioche du joueur qui les contrôle. Si
    # la mission implique plusieurs individus passifs ayant le même profil, ces derniers sont
    # regroupés sur une seule carte, quel que soit leur nombre."
    state = _game(_passive((40.0, 30.0), (40.0, 36.0), monk=(40.0, 42.0)))
    cards = state.cards_of(0)
    assert [c.id for c in cards] == ["p1-c1", "p1-c2", "p1-c3"]
    assert cards[1].fighters == (CITIZEN, CITIZEN_2)
    assert cards[1].label == "2 × Cadwallon citizen (passive)"
    assert cards[2].fighters == (MONK,)
    assert all(state.fighter(f).passive for c in cards[1:] for f in c.fighters)
    assert not state.fighter(SOLDIER).passive
    # "Ils sont contrôlés par le Défenseur, comme s'il s'agissait de ses propres figurines."
    assert {state.fighter(f).player for f in (CITIZEN, CITIZEN_2, MONK)} == {0}
    # "Les cartes qui les représentent sont prises en compte pour déterminer le nombre de
    # refus": 3 cards against 1, the attacker gets 2 refusals.
    faces = iter([5, 2])  # the Tactics roll
    state, log = start(state)
    while state.pending is not None and state.pending.kind != "floor":
        choice: Choice = DieFace(next(faces, 3)) if is_chance(state) else legal(state)[0]
        state, events = step(state, choice)
        log.extend(events)
    assert sorted(state.side(0).deck) == ["p1-c1", "p1-c2", "p1-c3"]
    assert RefusalsGranted(1, 2) in log


# --- not of his army -----------------------------------------------------------------------------


@pytest.mark.rule("XX-E-6", "XX-C-1", "XX-A-5")
def test_they_are_not_in_his_effectif_nor_his_losses_nor_an_execution_target() -> None:
    # "Ils ne sont pas comptabilisés dans l'effectif de leur camp": alone in the area, the
    # citizen controls nothing for the defender.
    state = _game(_passive((60.0, 30.0)), soldier=(10.0, 30.0, 0.0))
    centre = Area("the centre", "rect", None, 1, 0, (50.0, 20.0, 70.0, 40.0))
    assert control(state, centre).controller is None
    soldier_there = state.with_fighters(dataclasses.replace(state.fighter(SOLDIER), x=55.0, y=30.0))
    assert control(soldier_there, centre).controller == 0
    # Killed, he is no loss of the defender's army; the enemy's Execution target is never he,
    # though his value (here 5 AP of a citizen) is all the defender has besides.
    dead = state.with_fighters(dataclasses.replace(state.fighter(CITIZEN), wounds=4))
    assert losses_ap(dead, 0) == 0
    assert highest_value_targets(state, 1) == (SOLDIER,)
    # the scenario conditions count them (XX-E-6: "des civils à protéger ou à éliminer")
    assert protected(state, 0) and not protected(dead, 0)


# --- no assault, defence only ------------------------------------------------------------------


@pytest.mark.rule("XX-E-6", "C3-ASSAULTING-ELEMENTS-OF-SCENERY")
def test_they_make_no_assault() -> None:
    # "Ils ne peuvent pas effectuer d'assaut": the raider in sight 20 cm away, a barricade
    # with structure points nearby — the citizen may run or move under cover, nothing else.
    barricade = SceneryPiece(
        "barricade", ((48.0, 20.0), (50.0, 20.0), (50.0, 25.0), (48.0, 25.0)), "small", True
    )
    barricade = dataclasses.replace(barricade, structure_points=3, resistance=6)
    state = _game(_passive((40.0, 30.0)), enemy=(62.5, 30.0, 180.0), scenery=[barricade])
    state = activate(state, "p1-c2")
    mine = [c for c in legal(state) if getattr(c, "fighter", None) == CITIZEN]
    assert sorted(c.action for c in mine if isinstance(c, Announce)) == ["cover", "run"]
    assert not [c for c in mine if isinstance(c, AssaultScenery)]
    # the soldier (his player's own fighter) may assault the raider (engage: the citizen
    # stands between them)
    soldier = activate(_game(_passive((40.0, 30.0)), enemy=(62.5, 30.0, 180.0)), "p1-c1")
    assert Announce(SOLDIER, "engage", ENEMY) in legal(soldier)


@pytest.mark.rule("XX-E-6", "VII-C-1")
def test_every_combat_die_in_defence() -> None:
    # "Ils placent toujours tous leurs dés de combat en défense, même si un effet de jeu les
    # oblige à en placer en attaque": no question, 2 dice, both in defence.
    state = _game(_passive((40.0, 30.0)), enemy=(42.5, 30.0, 180.0))
    assert field_of(state).enemies_in_contact(CITIZEN) == [ENEMY]
    script = Script(state, phase=Phase.COMBAT)
    script.play(5, 1)  # the Authority roll: one combat
    allocated = only(script.events, ce.DiceAllocated)
    assert ce.DiceAllocated(CITIZEN, 2, 0, 2) in allocated
    assert script.asked == "allocate_dice"  # the raider's allocation, not the citizen's


# --- the 15 cm leash -------------------------------------------------------------------------


def _walk_spots(state: GameState, who: str) -> list[Place]:
    state, _ = step(state, AnnouncementsDone())
    state, _ = step(state, Walk(who))
    return [c for c in legal(state) if isinstance(c, Place)]


@pytest.mark.rule("XX-E-6", "V-B-1")
def test_after_his_move_he_is_within_15_cm_of_a_friendly_fighter_unless_routed() -> None:
    # "Au terme de leur déplacement, ils doivent se trouver à 15cm ou moins d'un combattant
    # ami, sauf s'ils sont en déroute."
    state = _game(_passive((40.0, 30.0)))
    played = activate(state, "p1-c2")
    spots = _walk_spots(played, CITIZEN)
    assert spots
    here = field_of(played)
    template, soldier = here.base(CITIZEN), here.base(SOLDIER)
    gaps = [distance(template.moved(p.x, p.y, p.facing), soldier) for p in spots]
    assert max(gaps) <= 15.0 + 1e-9
    # Routed, he may end farther: "il peuvent s'éloigner de plus de 15cm de tout défenseur".
    routed = state.with_fighters(dataclasses.replace(state.fighter(CITIZEN), routed=True))
    played = activate(routed, "p1-c2")
    spots = _walk_spots(played, CITIZEN)
    gaps = [distance(template.moved(p.x, p.y, p.facing), soldier) for p in spots]
    assert max(gaps) > 15.0


@pytest.mark.rule("XX-E-6")
def test_beyond_15_cm_of_every_defender_when_activated_he_cannot_be_moved() -> None:
    # "Si l'un d'eux se trouve à plus de 15cm de tout défenseur au moment de son activation,
    # il ne peut pas être déplacé (sauf s'il est en déroute)."
    state = _game(_passive((60.0, 30.0)))  # 27.5 cm from the soldier's base
    played = activate(state, "p1-c2")
    assert played.activation is not None and played.activation.current is not None
    assert played.activation.current.tethered == (CITIZEN,)
    mine = [c for c in legal(played) if getattr(c, "fighter", None) == CITIZEN]
    assert mine == []  # no run, no move under cover
    state, _ = step(played, AnnouncementsDone())
    assert Walk(CITIZEN) not in legal(state)
    fresh = _game(_passive((60.0, 30.0)))
    routed = fresh.with_fighters(dataclasses.replace(fresh.fighter(CITIZEN), routed=True))
    played = activate(routed, "p1-c2")
    assert Announce(CITIZEN, "run") in legal(played)


@pytest.mark.rule("XX-E-6", "VII-C-6")
def test_a_pursuit_engages_nobody_and_keeps_to_the_leash() -> None:
    # A pursuit into contact would be an assault; the leash holds after any move.
    state = _game(_passive((40.0, 30.0)))
    moves = [
        Pursue(CITIZEN),  # stays
        Pursue(CITIZEN, (ENEMY,), "engage", 45.0, 30.0, 0.0, 5.0),
        Pursue(CITIZEN, (), "free move", 44.0, 30.0, 0.0, 4.0),  # 11.5 cm from the soldier
        Pursue(CITIZEN, (), "free move", 60.0, 30.0, 0.0, 20.0),  # 27.5 cm
    ]
    kept = combat_phase._passive_pursuit(state, CITIZEN, moves)
    assert kept == [moves[0], moves[2]]


# --- the Escort scenario -----------------------------------------------------------------------


@pytest.mark.rule("XX-E-6", "XX-A-4")
def test_the_escort_scenario_gives_player_1_three_citizens() -> None:
    scenario = resolve("escort")
    assert scenario.passive is not None and scenario.passive.defender == 1
    assert [e.profile for e in scenario.passive.individuals] == ["cadwallon-citizen"] * 3
    assert {c.kind for c in scenario.conditions} == {"protect", "hunt", "area"}
    assert profile("cadwallon-citizen").people == "immobilis"  # "pas du même peuple"


@pytest.mark.rule("XX-E-6", "III-A-2")
def test_their_card_is_never_drawn_as_an_execution_target() -> None:
    from confrontation.scenarios.basic import _enemy_cards

    state = _game(_passive((40.0, 30.0)))
    assert _enemy_cards(state, 1) == ["p1-c1"]
    assert _enemy_cards(state, 0) == ["p2-c1"]
