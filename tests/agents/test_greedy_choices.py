"""The greedy agent prefers the better of two obvious options in small positions."""

from __future__ import annotations

import pytest
from positions import HERO, PEASANT, duel_game, first_question, held_in_contact

from confrontation.agents.greedy import GreedyAgent
from confrontation.engine.combat.questions import AllocateDice, Defend
from confrontation.engine.core.questions import Announce, Raise, Shoot
from confrontation.engine.step import question, step
from engine_support import activate, fighter, skirmish

PAIR = (("p1-c1-1", "p2-c1-1"),)


@pytest.mark.rule("VII-C-1")
def test_a_much_stronger_fighter_attacks_with_every_die_and_the_weaker_defends() -> None:
    greedy = [GreedyAgent(1, 0), GreedyAgent(2, 1)]
    state, asked = first_question(held_in_contact(duel_game(), PAIR), "allocate_dice", greedy)
    seen = {}
    while asked.kind == "allocate_dice":
        choice = greedy[asked.player or 0].choose(state, asked, asked.choices)
        assert isinstance(choice, AllocateDice)
        seen[choice.fighter] = choice
        state, _ = step(state, choice)
        nxt = question(state)
        assert nxt is not None
        asked = nxt
    assert (seen["p1-c1-1"].attack, seen["p1-c1-1"].defence) == (2, 0)
    assert (seen["p2-c1-1"].attack, seen["p2-c1-1"].defence) == (0, 2)


@pytest.mark.rule("VII-C-4")
def test_defence_dice_are_spent_against_a_deadly_attack() -> None:
    greedy = [GreedyAgent(1, 0), GreedyAgent(2, 1)]
    state, asked = first_question(held_in_contact(duel_game(), PAIR), "defend", greedy)
    choice = greedy[1].choose(state, asked, asked.choices)
    assert asked.player == 1
    assert Defend(0) in asked.choices
    assert isinstance(choice, Defend) and choice.dice >= 1


@pytest.mark.rule("V-B-3")
def test_charges_what_it_beats_and_not_what_beats_it() -> None:
    positions = {"p1-c1-1": (20.0, 30.0, 0.0), "p2-c1-1": (32.0, 30.0, 180.0)}
    state = skirmish([[(HERO, 1)], [(PEASANT, 1)]], positions)
    hero_turn = activate(state, "p1-c1")
    asked = question(hero_turn)
    assert asked is not None
    choice = GreedyAgent(0, 0).choose(hero_turn, asked, asked.choices)
    assert choice == Announce("p1-c1-1", "charge", "p2-c1-1")

    peasant_turn = activate(state, "p2-c1")
    asked = question(peasant_turn)
    assert asked is not None
    assert Announce("p2-c1-1", "charge", "p1-c1-1") in asked.choices
    choice = GreedyAgent(0, 1).choose(peasant_turn, asked, asked.choices)
    assert not (isinstance(choice, Announce) and choice.action == "charge")


@pytest.mark.rule("VI-A-1")
def test_shoots_the_target_in_range_not_the_one_beyond_it() -> None:
    archer = fighter("Archer", aim=4, aim_str=6, ranges=(10.0, 20.0, 30.0), mov=5.0)
    positions = {
        "p1-c1-1": (20.0, 30.0, 0.0),
        "p2-c1-1": (100.0, 30.0, 180.0),  # 80 cm: beyond the long range
        "p2-c2-1": (37.0, 30.0, 180.0),  # within the medium range, beyond a charge
    }
    state = skirmish([[(archer, 1)], [(PEASANT, 1), (PEASANT, 1)]], positions)
    state = activate(state, "p1-c1")
    greedy = GreedyAgent(0, 0)
    for _ in range(5):
        asked = question(state)
        assert asked is not None and asked.player == 0
        choice = greedy.choose(state, asked, asked.choices)
        if isinstance(choice, Shoot):
            assert choice.target == "p2-c2-1"
            assert choice.still  # the unmoving shot: a wound row more (VI-B-2)
            return
        state, _ = step(state, choice)
    raise AssertionError("the archer never shot")


@pytest.mark.rule("II-A-1")
def test_raises_while_failing_and_keeps_once_through() -> None:
    from confrontation.agents.greedy import _raise_to
    from confrontation.engine.core.questions import KeepResult

    assert _raise_to(7, 9) == Raise()
    assert _raise_to(9, 9) == KeepResult()
