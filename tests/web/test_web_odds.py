"""The odds beside shots (VI-A, VI-B) and attacks on scenery (C3), and the AI's hint there."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from confrontation.agents.advice import hint, option_odds
from confrontation.engine.actions.scenery import ShootScenery
from confrontation.engine.actions.shooting import chance_to_hit, difficulty_of
from confrontation.engine.combat import scenery_attack as sa
from confrontation.engine.core.questions import AnnouncementsDone, Choice, Shoot
from confrontation.engine.core.state import GameState, Phase, SceneryPiece
from confrontation.engine.step import question, step
from confrontation.rules.combat import load_structure_points, read_scenery_damage
from engine_support import Script, activate, fighter, profile, skirmish

ME, ENEMY = "p1-c1-1", "p2-c1-1"
ARCHER = fighter("Archer", aim=4, aim_str=5, ranges=(10.0, 20.0, 30.0))


def _shooting(enemy_x: float, scenery: tuple[SceneryPiece, ...] = ()) -> GameState:
    """The archer's activation, his announcements done: the cumulative actions (shots)."""
    cards = [[(ARCHER, 1)], [(profile("dawn-warrior"), 1)]]
    positions = {ME: (30.0, 30.0, 0.0), ENEMY: (enemy_x, 30.0, 180.0)}
    state = activate(skirmish(cards, positions, scenery=scenery), "p1-c1")
    state, _ = step(state, AnnouncementsDone())
    return state


def _odds_of(state: GameState, choice: Choice) -> dict[str, object]:
    asked = question(state)
    assert asked is not None
    index = asked.choices.index(choice)
    odds = option_odds(state, asked)[index]
    assert odds is not None
    return odds


def test_a_shot_shows_its_difficulty_the_shooting_test_and_the_wounds() -> None:
    state = _shooting(52.0)  # medium range
    difficulty = difficulty_of(state, ME, ENEMY)
    assert difficulty is not None
    odds = _odds_of(state, Shoot(ME, ENEMY))
    text = str(odds["text"])
    assert f"(difficulty {difficulty.total})" in text
    p_test = chance_to_hit(state, ME, ENEMY)  # the engine's own chance, for the agents
    assert f"Shooting test (difficulty {difficulty.total}) {float(p_test) * 100:.1f}%" in text
    assert odds["p"] == float(p_test)  # no friend touching him: every success hits him
    still = _odds_of(state, Shoot(ME, ENEMY, still=True))
    assert still["p"] == odds["p"] and still["text"] != odds["text"]  # VI-B-2: a row worse


def test_a_shot_beyond_the_long_range_is_shown_failing() -> None:
    state = _shooting(75.0)
    assert difficulty_of(state, ME, ENEMY) is None
    odds = _odds_of(state, Shoot(ME, ENEMY))
    assert odds["p"] == 0.0 and "beyond the long range" in str(odds["text"])


def test_the_ai_hint_is_given_beside_the_shots() -> None:
    state = _shooting(52.0)
    asked = question(state)
    assert asked is not None and any(isinstance(c, Shoot) for c in asked.choices)
    assert hint(state, asked) is not None


def _gate(points: int) -> SceneryPiece:
    outline = ((45.0, 25.0), (46.5, 25.0), (46.5, 35.0), (45.0, 35.0))
    return SceneryPiece("gate", outline, "very-large", False, True, points, 4)


def _damaging(strength: int, resistance: int) -> Fraction:
    """P(one damage roll costs at least one SP), counted die by die."""
    points = load_structure_points()
    hits = sum(
        1
        for dice in product(range(1, 7), repeat=2)
        if points(read_scenery_damage(dice, strength, resistance).result) > 0
    )
    return Fraction(hits, 36)


def test_a_shot_at_scenery_shows_the_test_and_the_damage() -> None:
    # 13.75 cm: medium range (7), very large (-2): difficulty 5; AIM 4 passes it for sure
    state = _shooting(100.0, (_gate(3),))
    odds = _odds_of(state, ShootScenery(ME, "gate"))
    assert "(difficulty 5) 100%" in str(odds["text"])
    assert odds["p"] == float(_damaging(5, 4))
    one_sp = _shooting(100.0, (_gate(1),))
    text = str(_odds_of(one_sp, ShootScenery(ME, "gate"))["text"])
    assert f"destroys it {float(_damaging(5, 4)) * 100:.1f}%" in text  # 1 SP: any damage


def test_attacks_on_scenery_show_the_chance_to_damage_and_destroy_it() -> None:
    cards = [[(profile("griffin-conscript"), 1)], [(profile("dawn-warrior"), 1)]]
    gate = SceneryPiece(
        "gate",
        ((31.25, 25.0), (32.75, 25.0), (32.75, 35.0), (31.25, 35.0)),
        "very-large",
        False,
        True,
        3,
        4,
    )
    positions = {ME: (30.0, 30.0, 0.0), ENEMY: (100.0, 50.0, 180.0)}
    script = Script(skirmish(cards, positions, scenery=[gate]), phase=Phase.COMBAT)
    assert script.asked == "attack_scenery"
    state = script.state
    asked = question(state)
    assert asked is not None
    odds = dict(zip(asked.choices, option_odds(state, asked), strict=True))
    assert odds[sa.AttackScenery(ME, ())] is None
    one = odds[sa.AttackScenery(ME, (("gate", 1),))]
    two = odds[sa.AttackScenery(ME, (("gate", 2),))]
    assert one is not None and two is not None
    # the attack test passes unless its final result is 0 or less (a positive ATT: always),
    # so one attack damages it as one damage roll (his STR against RES 4) does; two: either
    conscript = profile("griffin-conscript")
    assert conscript.att > 0
    p = _damaging(conscript.strength, 4)
    assert one["p"] == float(p)
    assert two["p"] == float(1 - (1 - p) ** 2)
    assert "destroyed" in str(two["text"]) and "SP expected" in str(two["text"])
    assert hint(state, asked) is not None
