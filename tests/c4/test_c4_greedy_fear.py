"""The C4 greedy weighs an assault's Courage test against Fear (# C4 Moving a Unit > Assault,
``c4.morale``, ``data/c4/morale.toml``): the exact chance of passing (several dice keep the
best, # C4 Universal table of resolution) and the cost of a rout (``agents.c4``)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from c4flow_support import feed
from confrontation.agents.c4 import C4GreedyAgent, assault_worth, pass_chance
from confrontation.c4 import morale
from confrontation.c4.choices import ChooseFirst, PickCard, UnitAction
from confrontation.c4.morale import courage_chance
from confrontation.c4.state import C4State, Fighter, Stats, Unit, new_game
from confrontation.c4.step import question, start, step
from confrontation.c4.views import redact
from confrontation.dice import ScriptedRoller
from confrontation.engine.core.frozen import evolve

BRAVE = Stats("brave", att_dice=1, att=3, strength=3, defense=3, res=3, courage=3)
GHOUL = Stats("ghoul", att_dice=1, att=3, strength=3, defense=3, res=3, fear=5)
DREAD = Stats("dread", att_dice=1, att=3, strength=3, defense=3, res=3, fear=3)
PROFILES = (BRAVE, GHOUL, DREAD)


Spots = list[tuple[float, float]]


def row(
    uid: str, owner: int, profile: str, spots: Spots, kinds: tuple[str, ...] = ()
) -> tuple[list[Fighter], Unit]:
    fs = [
        Fighter(f"{uid}{k + 1}", uid, profile, x, y, 1.25, 1, 1) for k, (x, y) in enumerate(spots)
    ]
    for k, kind in enumerate(kinds):
        fs[k + 1] = evolve(fs[k + 1], kind=kind)
    return fs, Unit(uid, owner, uid, "infantry", tuple(f.id for f in fs), fs[0].id)


def game(*parts: tuple[list[Fighter], Unit]) -> C4State:
    fighters = tuple(f for fs, _ in parts for f in fs)
    units = tuple(u for _, u in parts)
    return new_game(fighters, units, mode="barbarian", profiles=PROFILES)


def line(y: float, x: float = 60.0) -> list[tuple[float, float]]:
    return [(x, y), (x + 3, y), (x + 6, y)]


def greedy_action(state: C4State, unit: str) -> UnitAction:
    """The greedy's answer when player 1 activates ``unit`` (through ``step()``)."""
    state, _ = start(state)
    state, _ = feed(state, 5, 2, ChooseFirst(0), PickCard(unit))
    asked = question(state)
    assert asked is not None and asked.player == 0
    choice = C4GreedyAgent().choose(redact(state, 0), asked, asked.choices)
    assert isinstance(choice, UnitAction)
    step(state, choice)  # a legal answer
    return choice


@pytest.mark.parametrize(("value", "difficulty"), [(3, 5), (3, 3), (5, 2), (1, 9), (9, 1)])
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_the_chance_is_exactly_the_share_of_faces_that_pass(
    value: int, difficulty: int, dice: int
) -> None:
    # every tuple of faces rolled through c4.morale.courage_test, the one the game rolls
    passed = 0
    for faces in itertools.product(range(1, 7), repeat=dice):
        passed += morale.courage_test(ScriptedRoller(list(faces)), value, difficulty, dice).success
    assert courage_chance(value, difficulty, dice) == Fraction(passed, 6**dice)


def test_the_unit_s_chance_counts_its_standard_bearer_and_fear_immunity() -> None:
    a = row("a", 0, "brave", line(20), kinds=("standard_bearer",))
    e = row("e", 1, "ghoul", line(32.5))
    state = game(a, e)
    assert pass_chance(state, "a", "e") == 1 - Fraction(4, 6) ** 2  # 5+ on two dice
    assert pass_chance(state, "e", "a") is None  # the brave cause no Fear
    d = row("d", 1, "dread", line(32.5))
    assert pass_chance(game(row("g", 0, "ghoul", line(20)), d), "g", "d") is None  # immune


@pytest.mark.rule("C4-ASSAULT")
def test_the_greedy_assaults_the_enemy_that_causes_no_fear_rather_than_the_nearer_one() -> None:
    # Courage 3 against Fear 5: 1/3 to pass, a rout 2/3 of the time — not worth it
    a = row("a", 0, "brave", line(20))
    ghoul = row("e", 1, "ghoul", line(32.5))  # nearer
    brave = row("f", 1, "brave", line(38.0, x=75.0))  # farther, still within 2 x MOV
    state = game(a, ghoul, brave)
    assert assault_worth(state, "a", "e") < 0 < assault_worth(state, "a", "f")
    choice = greedy_action(state, "a")
    assert (choice.action, choice.target) == ("assault", "f")


@pytest.mark.rule("C4-ASSAULT")
def test_a_poor_chance_in_reach_is_no_assault() -> None:
    state = game(row("a", 0, "brave", line(20)), row("e", 1, "ghoul", line(32.5)))
    assert greedy_action(state, "a").action == "hold"
    # a standard bearer and a musician: 1 - (2/3)^3 = 19/27 to pass, worth the assault
    bold = row("a", 0, "brave", line(20), kinds=("standard_bearer", "musician"))
    state = game(bold, row("e", 1, "ghoul", line(32.5)))
    assert assault_worth(state, "a", "e") > 0
    choice = greedy_action(state, "a")
    assert (choice.action, choice.target) == ("assault", "e")


def test_an_assault_that_may_rout_the_target_is_worth_more() -> None:
    # the ghouls assaulting: the brave take the test against Fear 5 (2/3 to fail)
    state = game(row("g", 0, "ghoul", line(20)), row("b", 1, "brave", line(32.5)))
    assert assault_worth(state, "g", "b") == 1 + Fraction(2, 3) / 2
