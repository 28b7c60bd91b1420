"""Chapter XX-E (neutral fighters) and XX-F-5 (combats of three sides) THROUGH THE ENGINE:
the XX-E-4 wild animal against a Jackal warrior (Orc player) and a Dirz clone and a Danakil
sentinel (Scorpion player), with the engine answering every question of the animal by the
rules and the players answering theirs.

The book gives no dice: the faces here make every wound harmless (STR 0 against RES 12, a
highest die of 2: no damage) so that the example's attack order plays out in full. The
animal's War Fury (its fifth die) is an ability the documents do not define (CLARIFICATIONS
§5): the test plugs it in through a ruleset derived with ``with_dice_bonus``, as a user would.
"""

from __future__ import annotations

import dataclasses

import pytest

from confrontation.engine.combat import events as ce
from confrontation.engine.combat.questions import AllocateDice, Defend, MakeAttack, NameFighter
from confrontation.engine.core import events as ev
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.state import NEUTRAL, GameState, Phase, ProfileSummary
from confrontation.engine.neutral import NeutralDecided, NeutralSpec, add_neutrals
from confrontation.engine.setup.game import SideSpec, game_from_specs
from engine_support import Script, only, plugged

ORC, SCORPION = 0, 1
JACKAL, CLONE, SENTINEL = "p1-c1-1", "p2-c1-1", "p2-c2-1"
ANIMAL = "n-c1-1"


def _card(pid: str, name: str, people: str, ap: int, ini: int = 3) -> ProfileSummary:
    # Harmless blows both ways: STR 0 against RES 12.
    return ProfileSummary(
        pid, name, people, 3, ini=ini, att=3, strength=0, defense=3, res=12, ap=ap
    )


def _game(animal_ini: int = 3) -> GameState:
    orc = SideSpec("Orcs", "orc", ((_card("jackal", "Jackal warrior", "orc", 23), 1),))
    scorpion = SideSpec(
        "Scorpion",
        "scorpion",
        (
            (_card("clone", "Dirz clone", "scorpion", 10), 1),
            (_card("sentinel", "Danakil sentinel", "scorpion", 27), 1),
        ),
    )
    state = game_from_specs([orc, scorpion])
    animal = _card("wild-animal", "Wild animal", "wild", 35, ini=animal_ini)
    state = add_neutrals(state, [NeutralSpec(animal)])
    return dataclasses.replace(state, phase=Phase.COMBAT)


def animal_in_contact(state: GameState) -> GameState:
    pairs = [(ANIMAL, JACKAL), (ANIMAL, CLONE), (ANIMAL, SENTINEL)]

    def war_fury(state: GameState, fighter: str) -> int:
        return 1 if state.fighter(fighter).profile == "wild-animal" else 0

    return plugged(state, contacts=lambda state: list(pairs), dice_bonus=war_fury)


HARMLESS = (1, 2)  # legs, 2 + 0 - 12 < 0: no damage


def _to_initiative(script: Script) -> None:
    # VII-B: the Authority roll between the two players only (the animal is no player).
    assert script.asked == "name_fighter"
    script.play(NameFighter(SENTINEL), 4, 2)
    # Allocation in ascending strategic value: the clone (10), the jackal (23), the sentinel
    # (27); the animal (35) needs no answer: all five dice in attack (XX-E-4).
    script.play(AllocateDice(CLONE, 1, 1), AllocateDice(JACKAL, 1, 1), AllocateDice(SENTINEL, 2, 0))


@pytest.mark.rule("XX-E-4", "XX-F-5", "XX-E", "VII-C-1", "VII-C-2", "VII-C-3")
def test_wild_animal_example_through_the_engine() -> None:
    script = Script(animal_in_contact(_game()))
    # One melee, one way to separate it (the animal against the three): nobody is asked.
    assert only(script.events, ce.CombatSplit)[0].combats[0].one == ANIMAL
    _to_initiative(script)
    allocated = only(script.events, ce.DiceAllocated)
    assert allocated == [
        ce.DiceAllocated(CLONE, 2, 1, 1),
        ce.DiceAllocated(JACKAL, 2, 1, 1),
        ce.DiceAllocated(SENTINEL, 2, 2, 0),
        ce.DiceAllocated(ANIMAL, 5, 5, 0),  # War Fury: 1 + 3 + 1, all in attack
    ]
    # "Chaque joueur procède à un test d'Initiative pour son propre camp. Puis, l'un des deux
    # joueurs effectue un test d'Initiative pour l'animal. Le joueur Scorpion remporte le jet,
    # l'animal obtient le second meilleur résultat et le joueur Orque le moins bon."
    assert script.asked == "name_fighter"
    events = script.play(NameFighter(SENTINEL), 1, 5, 3)  # Orc 1+3, Scorpion 5+3+1, animal 3+3
    assert only(events, ce.InitiativeRolled) == [
        ce.InitiativeRolled(
            (JACKAL, SENTINEL, ANIMAL), (3, 4, 3), (1, 5, 3), (4, 9, 6), (SCORPION, NEUTRAL, ORC)
        )
    ]
    # First weapon combat: the sentinel and the clone attack the animal; the animal attacks
    # each of its three opponents; the jackal attacks the animal.
    script.play(
        MakeAttack(CLONE, ANIMAL), *HARMLESS,  # the animal has no defence die: no question
        *HARMLESS,  # the sentinel's attack is the only one left: declared for the player
        Defend(0), *HARMLESS,  # the animal attacks the clone (10 AP) first
        Defend(0), *HARMLESS,  # then the jackal (23 AP)
        *HARMLESS,  # then the sentinel (27 AP), who has no defence die
        *HARMLESS,  # the jackal's only attack
        # Second weapon combat: the sentinel attacks the animal; the animal's 2 attacks go to
        # the clone and the jackal (lower strategic values than the sentinel's).
        *HARMLESS,
        Defend(0), *HARMLESS,
        Defend(0), *HARMLESS,
    )  # fmt: skip
    attacks = [
        (e.weapon_combat, e.attacker, e.target) for e in only(script.events, ce.AttackDeclared)
    ]
    assert attacks == [
        (1, CLONE, ANIMAL),
        (1, SENTINEL, ANIMAL),
        (1, ANIMAL, CLONE),
        (1, ANIMAL, JACKAL),
        (1, ANIMAL, SENTINEL),
        (1, JACKAL, ANIMAL),
        (2, SENTINEL, ANIMAL),
        (2, ANIMAL, CLONE),
        (2, ANIMAL, JACKAL),
    ]
    # The animal's attacks were decided by the rules, not asked.
    decided = [e.choice for e in only(script.events, NeutralDecided)]
    assert MakeAttack(ANIMAL, CLONE) in decided and MakeAttack(ANIMAL, JACKAL) in decided
    resolved = only(script.events, ce.CombatResolved)
    assert len(resolved) == 1
    for fighter, dice, used, lost in resolved[0].dice:
        assert dice == used + lost, fighter
    assert ev.PhaseEnded(1, "combat") in script.events  # nobody died: no pursuit, phase over
    assert "Neutral" in "\n".join(narrate(script.events))


@pytest.mark.rule("XX-E-3", "XX-E-4")
def test_the_neutral_always_raises_its_sixes() -> None:
    script = Script(animal_in_contact(_game()))
    _to_initiative(script)
    # The animal's initiative die shows a 6: re-rolled without a question (XX-E-3).
    events = script.play(NameFighter(SENTINEL), 1, 5, 6, 2)
    assert ev.TestRaised(NEUTRAL, "initiative") in events
    rolled = only(events, ce.InitiativeRolled)[0]
    assert rolled.finals == (4, 9, 6 + 2 + 3)
    assert rolled.order == (NEUTRAL, SCORPION, ORC)
    # The animal attacks first; the clone defends; the attack test's 6 is raised (6, 6, 1:
    # a raise showing 1 makes the natural 1 — the neutral raises anyway, XX-E-3).
    events = script.play(Defend(1), 6, 6, 1, 1)
    raises = [e for e in events if isinstance(e, ev.TestRaised)]
    assert raises == [ev.TestRaised(NEUTRAL, "attack"), ev.TestRaised(NEUTRAL, "attack")]
    assert any(isinstance(e, NeutralDecided) and e.question == "attack_raise" for e in events)
