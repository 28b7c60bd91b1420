"""The greedy and search agents go for a scenario's victory conditions (XX-A-4): positions
where the objective, not the fight, must win the choice."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from confrontation.agents.assess import material, provisional, spares
from confrontation.agents.greedy import (
    GreedyAgent,
    aim_distance,
    announce_value,
    goal_distance,
    my_aims,
    position_value,
    routed_aim_distance,
    walk_pays,
)
from confrontation.engine.core.questions import Announce
from confrontation.engine.core.state import GameState, MaintenanceProgress, Phase
from confrontation.engine.step import question
from confrontation.engine.table.field import piece_of
from confrontation.geometry.scenery import Scenery
from confrontation.scenarios.base import load_scenario
from confrontation.scenarios.basic import install
from confrontation.scenarios.counters import CounterChoice
from engine_support import Script, fighter, skirmish

HILL = """
name = "A small hill"
rounds = 6
goal = "conditions"

[[objectives]]
name = "the hill"
shape = "circle"
x = 60.0
y = 30.0
radius = 6.0
mode = "zone"
effectif = 1
value = 10

[[conditions]]
id = "take"
kind = "occupy"
objective = "the hill"
"""

GRANARIES = """
name = "Two granaries"
rounds = 1
goal = "conditions"

[[objectives]]
name = "mine"
shape = "rect"
owner = 1
x0 = 50.0
y0 = 20.0
x1 = 70.0
y1 = 40.0
mode = "contact"
counters = 2
add = "all"
remove = "all"

[[conditions]]
id = "blaze"
kind = "counters"
of = "enemy"
at_least = 4

[[conditions]]
id = "saved"
kind = "counters"
of = "own"
fewest = true
"""

SOLDIER = fighter("Soldier", ini=3, att=4, strength=4, defense=4, res=4, power=1, ap=20)
PEASANT = fighter("Peasant", ini=1, att=-2, strength=1, defense=1, res=2, power=1, ap=10)


def _install(tmp_path: Path, state: GameState, text: str) -> GameState:
    path = tmp_path / "scenario.toml"
    path.write_text(text, encoding="utf-8")
    return install(state, load_scenario(path))


def _hill(tmp_path: Path, me: tuple[float, float], foe: tuple[float, float]) -> GameState:
    state = skirmish(
        [[(SOLDIER, 1)], [(PEASANT, 1)]],
        {"p1-c1-1": (*me, 0.0), "p2-c1-1": (*foe, 0.0)},
        rounds=6,
    )
    return _install(tmp_path, state, HILL)


def test_a_fighter_with_no_enemy_in_reach_walks_to_the_objective(tmp_path: Path) -> None:
    """No enemy within his charge reach: the hill (30 cm east) draws him, not the peasant
    far to the north-west; a place inside the hill beats a place toward the enemy."""
    state = _hill(tmp_path, (30.0, 30.0), (5.0, 55.0))
    me = state.fighter("p1-c1-1")
    assert my_aims(state, me)
    assert goal_distance(state, me, 30.0, 30.0) > 20.0  # the hill, not the enemy
    assert walk_pays(state, me.id)
    inside = position_value(state, me, 60.0, 30.0)
    toward_enemy = position_value(state, me, 20.0, 40.0)
    assert inside > toward_enemy
    # without the scenario the enemy is his goal: he would walk the other way
    plain = dataclasses.replace(state, scenario=None)
    assert position_value(plain, me, 20.0, 40.0) > position_value(plain, me, 60.0, 30.0)


def test_a_fighter_holding_the_objective_with_the_threshold_does_not_leave(
    tmp_path: Path,
) -> None:
    """He alone makes the hill's effectif (1): a weak enemy 10 cm away is worth a charge
    without the scenario, not when the charge takes him off the hill; nor does he walk."""
    state = _hill(tmp_path, (60.0, 30.0), (60.0, 47.0))
    me = state.fighter("p1-c1-1")
    charge = Announce("p1-c1-1", "charge", "p2-c1-1")
    plain = dataclasses.replace(state, scenario=None)
    assert announce_value(plain, charge) is not None
    assert announce_value(state, charge) is None
    assert not walk_pays(state, me.id)
    assert position_value(state, me, 60.0, 30.0) > position_value(state, me, 60.0, 40.0)


CAMP = """
[[objectives]]
name = "the camp"
shape = "circle"
x = 20.0
y = 30.0
radius = 6.0
mode = "zone"

[[conditions]]
id = "camp"
kind = "occupy"
objective = "the camp"
"""


def test_surplus_fighters_leave_a_held_objective_to_its_share(tmp_path: Path) -> None:
    """Two aims wanted by one condition each: the four fighters standing in the camp are
    shared half and half — two stay (the first by worth, then name), two go for the hill."""
    from shapely.geometry import Point

    spots = [(18.0, 28.0), (22.0, 28.0), (18.0, 32.0), (22.0, 32.0)]
    positions = {f"p1-c1-{n + 1}": (x, y, 0.0) for n, (x, y) in enumerate(spots)}
    state = skirmish([[(SOLDIER, 4)], [(PEASANT, 1)]], positions | {"p2-c1-1": (110.0, 55.0, 0.0)})
    state = _install(tmp_path, state, HILL + CAMP)
    for fid, stays in (
        ("p1-c1-1", True),
        ("p1-c1-2", True),
        ("p1-c1-3", False),
        ("p1-c1-4", False),
    ):
        me = state.fighter(fid)
        (aim,) = my_aims(state, me)
        assert aim.shape.contains(Point(20.0, 30.0) if stays else Point(60.0, 30.0))
        assert walk_pays(state, fid) is not stays


def _granaries(tmp_path: Path) -> GameState:
    # Player 1's granary; Player 1's fighter touches it from the west (x = 48.75)
    state = skirmish(
        [[(SOLDIER, 1)], [(SOLDIER, 1)]],
        {"p1-c1-1": (48.75, 30.0, 0.0), "p2-c1-1": (110.0, 10.0, 0.0)},
        rounds=1,
    )
    state = _install(tmp_path, state, GRANARIES)
    return dataclasses.replace(state, phase=Phase.MAINTENANCE, maintenance=MaintenanceProgress())


def test_greedy_removes_counters_from_his_own_granary(tmp_path: Path) -> None:
    """XX-B-2: at his own burning granary, he puts the fire out (his "saved" condition; the
    enemy's "blaze" counts his granary's counters) rather than adding or doing nothing."""
    script = Script(_granaries(tmp_path))
    asked = question(script.state)
    assert asked is not None and asked.kind == "counters"
    assert set(asked.choices) >= {
        CounterChoice("p1-c1-1", "mine", "add"),
        CounterChoice("p1-c1-1", "mine", "remove"),
    }
    choice = GreedyAgent(seed=0).choose(script.state, asked, asked.choices)
    assert choice == CounterChoice("p1-c1-1", "mine", "remove")


def test_greedy_adds_counters_to_the_enemy_granary(tmp_path: Path) -> None:
    """XX-B-2: the same granary seen by its enemy: Player 2 adds counters (his "blaze")."""
    state = _granaries(tmp_path)
    state = state.with_fighters(
        dataclasses.replace(state.fighter("p1-c1-1"), x=110.0, y=50.0),
        dataclasses.replace(state.fighter("p2-c1-1"), x=48.75, y=30.0),
    )
    script = Script(state)
    asked = question(script.state)
    assert asked is not None and asked.kind == "counters" and asked.player == 1
    choice = GreedyAgent(seed=0).choose(script.state, asked, asked.choices)
    assert choice == CounterChoice("p2-c1-1", "mine", "add")


def test_the_search_counts_the_conditions_met_now(tmp_path: Path) -> None:
    """mcts's evaluation (``material``) counts the VP of the conditions a player would
    fulfil if the game ended now: standing on the hill is worth 10 AP more."""
    on = _hill(tmp_path, (60.0, 30.0), (5.0, 55.0))
    off = _hill(tmp_path, (30.0, 30.0), (5.0, 55.0))
    assert provisional(on) == (1, 0)
    assert provisional(off) == (0, 0)
    assert material(on, 0) - material(off, 0) == 10.0


def test_a_wall_in_the_way_is_walked_round_not_pressed_against(tmp_path: Path) -> None:
    """V-A: a house stands between the soldier and the hill. Measured straight, the place
    pressed against the house's middle looks nearest the hill; measured along the way round
    it (the most direct legal way, V-A), the place by the house's corner is nearer, and that
    is what the agent reads."""
    house = piece_of(Scenery.rect("house", 45, 34, 2, 24, height="very-large", passable=False))
    state = skirmish(
        [[(SOLDIER, 1)], [(PEASANT, 1)]],
        {"p1-c1-1": (30.0, 30.0, 0.0), "p2-c1-1": (5.0, 55.0, 0.0)},
        scenery=[house],
        rounds=6,
    )
    state = _install(tmp_path, state, HILL)
    me = state.fighter("p1-c1-1")
    [aim] = my_aims(state, me)
    against, corner = (42.0, 30.0), (40.0, 19.0)
    assert aim_distance(state, me, *against, aim) < aim_distance(state, me, *corner, aim)
    routed_against = routed_aim_distance(state, me, *against, aim)
    assert routed_against > routed_aim_distance(state, me, *corner, aim)
    assert routed_against >= aim_distance(state, me, *against, aim)
    assert position_value(state, me, *corner) > position_value(state, me, *against)


CAPTURE = """
name = "Take him alive"
rounds = 6
goal = "conditions"

[[conditions]]
id = "capture"
kind = "capture"
target = "highest-value"
perimeter = 5.0
"""


def test_capture_targets_are_spared_by_the_capturer_only(tmp_path: Path) -> None:
    """XX-C-4: "le joueur qui contrôle ce périmètre capture la cible" — a dead target is
    captured by nobody, so each player wants the enemy he would capture alive (the agents
    do not strike him), not his own fighters."""
    state = _hill(tmp_path, (30.0, 30.0), (40.0, 30.0))
    state = _install(tmp_path, state, CAPTURE)
    soldier, peasant = state.fighter("p1-c1-1"), state.fighter("p2-c1-1")
    assert spares(state, soldier.player, peasant.id)
    assert spares(state, peasant.player, soldier.id)
    assert not spares(state, soldier.player, soldier.id)
    assert not spares(_hill(tmp_path, (30.0, 30.0), (40.0, 30.0)), soldier.player, peasant.id)


SABOTAGE = """
name = "Sabotage"
rounds = 6
goal = "conditions"

[[scenario_scenery]]
name = "the powder store"
shape = "rect"
x = 60.0
y = 30.0
width = 8.0
depth = 8.0
passable = false
structure_points = 5
resistance = 8

[[conditions]]
id = "blown-up"
kind = "destroy"
element = "the powder store"
players = [2]

[[conditions]]
id = "standing"
kind = "intact"
element = "the powder store"
players = [1]
"""


def test_the_saboteur_attacks_the_element_the_keeper_guards_it(tmp_path: Path) -> None:
    """C3 "Damaging elements of scenery", XX-A-4: Player 2 must destroy the powder store,
    Player 1 keep it standing. Both stand round it; only Player 2 assaults it and gives it
    his dice, and nobody gives dice to an element no condition wants destroyed."""
    from shapely.geometry import Point

    from confrontation.agents.greedy import GreedyAgent, wreck_value
    from confrontation.engine.actions.scenery import AssaultScenery
    from confrontation.engine.combat.scenery_attack import AttackScenery
    from confrontation.engine.core.kinds import QuestionKind
    from confrontation.engine.core.questions import AnnouncementsDone, Question

    state = skirmish(
        [[(SOLDIER, 1)], [(SOLDIER, 1)]],
        {"p1-c1-1": (30.0, 30.0, 0.0), "p2-c1-1": (90.0, 30.0, 180.0)},
        rounds=6,
    )
    state = _install(tmp_path, state, SABOTAGE)
    keeper, saboteur = state.fighter("p1-c1-1"), state.fighter("p2-c1-1")
    assert wreck_value(state, saboteur.id, "the powder store") is not None
    assert wreck_value(state, keeper.id, "the powder store") is None
    for me in (keeper, saboteur):
        [aim] = my_aims(state, me)
        assert aim.shape.contains(Point(60.0, 35.5))  # touching the store's north side
        assert position_value(state, me, 60.0, 35.5) > position_value(state, me, 60.0, 45.0)
    agent = GreedyAgent(seed=1)
    attacks = [
        AttackScenery(saboteur.id, ()),
        AttackScenery(saboteur.id, (("the powder store", 1),)),
        AttackScenery(saboteur.id, (("the powder store", 2),)),
    ]
    ask = Question(QuestionKind.ATTACK_SCENERY, saboteur.player, "", ())
    assert agent.choose(state, ask, attacks) == attacks[2]
    keep = [AttackScenery(keeper.id, ()), AttackScenery(keeper.id, (("the powder store", 2),))]
    ask = Question(QuestionKind.ATTACK_SCENERY, keeper.player, "", ())
    assert agent.choose(state, ask, keep) == keep[0]
    for me, wanted in ((saboteur, True), (keeper, False)):
        assault = AssaultScenery(me.id, "the powder store", "charge")
        chosen = agent._announce(state, [AnnouncementsDone(), assault])
        assert (chosen == assault) is wanted
