"""XX-A-1, XX-A-2, XX-A-3 (and C3 "Situation", "Elements of Scenery", "Deployment") through the
engine: the scenario's scenery set up first, the standard scenery placed by the players in
turn after a d6 each, the 6 cm rule, the scenario's set-up steps before the die for the
deployment areas, and nobody deployed on scenario scenery nor scouts within MOV of it."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from confrontation.agents.greedy import GreedyAgent
from confrontation.agents.random import RandomAgent
from confrontation.armylists.load import LoadError
from confrontation.engine.core.events import (
    DieRolled,
    SceneryLaid,
    SceneryPlaced,
    SceneryRolled,
)
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Place, PlaceScenery
from confrontation.engine.core.registry import IllegalChoice, Transition
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import GameState, SceneryPiece
from confrontation.engine.setup.deployment import SETUP_STEPS, SetupStep
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield
from confrontation.engine.setup.scenery import element_of, placed_size, placements, templates
from confrontation.engine.step import game_roller, is_chance, legal, question, start, step
from confrontation.engine.table.field import base_of, scenery_of, table_of
from confrontation.geometry.scenery import layout_problems
from confrontation.scenarios import install, load_scenario, resolve
from engine_support import Script, fighter

TOWER = SceneryPiece(
    "the watchtower",
    ((55.0, 25.0), (65.0, 25.0), (65.0, 35.0), (55.0, 35.0)),
    height="very-large",
    passable=False,
    scenario=True,
    objective=True,
)
"""A 10 cm square building in the centre of the 120x60 table (x 55-65, y 25-35)."""
OBELISK = SceneryPiece(
    "obelisk", ((56.0, 26.0), (64.0, 26.0), (64.0, 34.0), (56.0, 34.0)), scenario=True
)
"""An 8 cm square scenario element in the centre (x 56-64, y 26-34)."""


def _specs(players: int = 2) -> list[SideSpec]:
    soldier = fighter("Soldier")
    return [SideSpec(f"Side {n + 1}", "lion", ((soldier, 1),)) for n in range(players)]


def _players_game(
    count: int = 4, fixed: tuple[SceneryPiece, ...] = (TOWER,), players: int = 2, seed: int = 0
) -> GameState:
    state = game_from_specs(_specs(players), seed=seed)
    return on_battlefield(state, fixed=fixed, placement="players", scenery_count=count)


def _first(state: GameState) -> PlaceScenery:
    """The first legal placement (the grid's order)."""
    choice = legal(state)[0]
    assert isinstance(choice, PlaceScenery)
    return choice


# --- the order of the set-up ------------------------------------------------------------------


@pytest.mark.rule("XX-A-2", "XX-A-1", "C3-AMOUNT-AND-PLACEMENT-OF-SCENERY", "C3-SCENARIO-SCENERY")
def test_the_scenario_scenery_first_then_the_highest_d6_places_first_and_they_alternate() -> None:
    """XX-A-2: "En premier sont placés les éléments fixes imposés par le scénario. Ensuite les
    éléments de décors standards, chaque joueur en plaçant un à tour de rôle. Chaque joueur
    lance 1d6 et le plus haut résultat place le premier élément." Player 1 rolls 2, Player 2
    rolls 5: Player 2 places first, then Player 1, Player 2, Player 1."""
    play = Script(_players_game(count=4))
    [set_up] = [e for e in play.events if isinstance(e, SceneryPlaced)]
    assert set_up == SceneryPlaced("the watchtower")  # before any die
    assert play.asked == "scenery_start_die"
    rolled = play.play(2, 5)
    assert [e.player for e in rolled if isinstance(e, DieRolled)] == [0, 1]
    assert SceneryRolled((0, 1), (2, 5), 1) in rolled
    placers = []
    for _ in range(4):
        asked = question(play.state)
        assert asked is not None and asked.kind == "place_scenery"
        placers.append(asked.player)
        play.play(_first(play.state))
    assert placers == [1, 0, 1, 0]
    [laid] = [e for e in play.events if isinstance(e, SceneryLaid)]
    assert laid.elements[0] == "the watchtower" and len(laid.elements) == 5
    ground = play.state.battleground
    assert ground is not None and ground.scenery is not None
    assert ground.scenery[0] == TOWER
    # XX-A-2: "Finalement, lancez 1d6 pour choisir les zones de déploiement."
    assert play.asked == "zone_die"


@pytest.mark.rule("XX-A-2", "C3-AMOUNT-AND-PLACEMENT-OF-SCENERY")
def test_a_tie_for_the_highest_d6_is_rolled_again_by_the_players_tied() -> None:
    """Three players (XX-F): 6, 6, 2 — Players 1 and 2 roll again (4 and 5); Player 2 places
    first, then the others in player order: Player 3, Player 1, Player 2."""
    play = Script(_players_game(count=4, fixed=(), players=3))
    first = play.play(6, 6, 2)
    assert SceneryRolled((0, 1, 2), (6, 6, 2), None) in first
    again = play.play(4, 5)
    assert [e.player for e in again if isinstance(e, DieRolled)] == [0, 1]
    assert SceneryRolled((0, 1), (4, 5), 1) in again
    placers = []
    while play.asked == "place_scenery":
        asked = question(play.state)
        assert asked is not None
        placers.append(asked.player)
        play.play(_first(play.state))
    assert placers == [1, 2, 0, 1]


@pytest.mark.rule("XX-A-2")
def test_two_players_tied_both_roll_again() -> None:
    play = Script(_players_game(count=2, fixed=()))
    assert SceneryRolled((0, 1), (3, 3), None) in play.play(3, 3)
    assert SceneryRolled((0, 1), (6, 1), 0) in play.play(6, 1)
    assert question(play.state) is not None and question(play.state).player == 0  # type: ignore[union-attr]


@pytest.mark.rule("XX-A-2", "C3-AMOUNT-AND-PLACEMENT-OF-SCENERY")
def test_every_element_is_6_cm_from_the_others_and_from_the_table_edges() -> None:
    """XX-A-2: "Tous les éléments de décors doivent être placés au minimum à 6cm les uns des
    autres ainsi qu'à 6cm ou plus d'un bord de table." A forest (16 cm across at the middle of
    its range) centred 18 cm right of an 8 cm obelisk's centre stands exactly 6 cm from it:
    offered; 6 cm closer it would overlap: refused. Centred 12 cm from the left edge, 4 cm from
    it: refused; 18 cm, 10 cm from it: offered."""
    play = Script(_players_game(count=2, fixed=(OBELISK,)))
    play.play(5, 1)
    assert placed_size(templates()["forest"]) == (16.0,)
    offered = legal(play.state)
    exactly = PlaceScenery("forest", 78.0, 30.0, 0.0)
    assert exactly in offered
    assert math.isclose(
        element_of(exactly, "f").footprint.distance(scenery_of(OBELISK).footprint), 6.0
    )
    for refused in (
        PlaceScenery("forest", 72.0, 30.0, 0.0),  # on the tower's edge
        PlaceScenery("forest", 12.0, 30.0, 0.0),  # 4 cm from the left edge
        PlaceScenery("forest", 60.0, 54.0, 0.0),  # off the top edge
    ):
        assert refused not in offered
        with pytest.raises(IllegalChoice):
            step(play.state, refused)
    assert PlaceScenery("forest", 18.0, 30.0, 0.0) in offered
    play.play(exactly)
    # the next element keeps 6 cm from the forest too
    forest = scenery_of(play.state.deployment.placed[-1]).footprint  # type: ignore[union-attr]
    for choice in legal(play.state):
        assert isinstance(choice, PlaceScenery)
        assert element_of(choice, "x").footprint.distance(forest) >= 6.0 - 1e-9


@pytest.mark.rule("XX-A-2", "C3-STANDARD-SCENERY")
def test_a_placement_is_a_kind_of_the_data_file_turned_on_the_grid_at_most_30_cm() -> None:
    """III-A-3 / XX-A-2: the kinds of data/scenery.toml at the middle of their ranges, no side
    over 30 cm; a rectangle is offered turned 0, 45, 90 and 135 degrees, a circle once."""
    play = Script(_players_game(count=1, fixed=()))
    play.play(6, 1)
    offered = [c for c in legal(play.state) if isinstance(c, PlaceScenery)]
    assert (
        {c.template for c in offered}
        == set(templates())
        == {
            "house",
            "ruins",
            "wall",
            "hill",
            "forest",
            "pond",
        }
    )
    assert {c.angle for c in offered if c.template == "wall"} == {0.0, 45.0, 90.0, 135.0}
    assert {c.angle for c in offered if c.template == "hill"} == {0.0}
    assert all(c.x % 6 == 0 and c.y % 6 == 0 for c in offered)
    wall = element_of(PlaceScenery("wall", 60.0, 30.0, 45.0), "wall-1")
    assert layout_problems(table_of(play.state.battleground), [wall], min_elements=0) == []  # type: ignore[arg-type]


@pytest.mark.rule("XX-A-2")
def test_the_placing_ends_when_a_player_has_no_legal_place_left() -> None:
    """docs/rulings.md XX-A-2: "Il n'y a pas de limite … à part la taille de la table". On a
    60x60 table 30 elements do not fit: the placing stops with the table full."""
    state = on_battlefield(
        game_from_specs(_specs()), "60x60", split="length", placement="players", scenery_count=30
    )
    play = Script(state)
    play.play(4, 3)
    placed = 0
    while play.asked == "place_scenery":
        play.play(_first(play.state))
        placed += 1
    assert 0 < placed < 30
    ground = play.state.battleground
    assert ground is not None and ground.scenery is not None and len(ground.scenery) == placed
    assert placements(ground, ground.scenery) == []
    assert play.asked == "zone_die"


@pytest.mark.rule("XX-A-2", "XX-A-1")
def test_the_random_layout_stays_and_keeps_6_cm_from_the_scenario_scenery() -> None:
    """The III-A-2 scenarios keep the engine's random layout (docs/rulings.md III-A-3); with
    scenario scenery it is laid after it, 6 cm away, and named after it."""
    state = on_battlefield(game_from_specs(_specs(), seed=4), fixed=(TOWER,), scenery_count=6)
    play = Script(state)
    assert play.asked == "scenery_die"
    play.play(*[3, 1, 4, 1, 5, 2, 6, 5, 3, 5, 2, 6])
    [laid] = [e for e in play.events if isinstance(e, SceneryLaid)]
    ground = play.state.battleground
    assert ground is not None and ground.scenery is not None
    assert laid.elements[0] == "the watchtower" and len(laid.elements) == 7
    assert [p.scenario for p in ground.scenery] == [True] + [False] * 6
    assert all(not name.endswith("-1") for name in laid.elements[1:])
    assert layout_problems(table_of(ground), [scenery_of(p) for p in ground.scenery]) == []


@pytest.mark.rule("XX-A-2", "XX-C-2", "XX-D-1")
@pytest.mark.parametrize("name", ["fire", "loot", "the-hill"])
@pytest.mark.parametrize("placement", ["random", "players"])
def test_standard_scenery_keeps_6_cm_from_objectives_and_tokens(name: str, placement: str) -> None:
    """docs/rulings.md XX-A-2: the standard scenery is placed before the scenario's tokens,
    and before the deployment areas say where a player's own objective lies; it keeps 6 cm
    from every place they may take (both ends of the table for a player's granary), as
    elements of scenery keep from each other, so that none is buried under a forest."""
    from shapely.geometry import Polygon

    state = on_battlefield(game_from_specs(_specs(), seed=4), scenery_count=5)
    state = install(state, resolve(name))
    ground = state.battleground
    assert ground is not None and ground.clear
    ground = evolve(ground, placement=placement)
    clear = [Polygon(outline) for outline in ground.clear]
    scenario = resolve(name)
    owned = [o for o in scenario.objectives if o.owner is not None]
    tokens = scenario.loot.tokens if scenario.loot is not None else ()
    assert len(clear) == len(scenario.objectives) + len(owned) + len(tokens)
    if placement == "players":
        offered = placements(ground, ground.fixed)
        assert offered
        for choice in offered:
            footprint = element_of(choice, choice.template).footprint
            assert all(footprint.distance(c) >= 6.0 - 1e-6 for c in clear)
        return
    for k in range(8):
        play = Script(evolve(state, battleground=ground))
        play.play(*[(5 * k + 7 * i * i) % 6 + 1 for i in range(12)])
        laid = play.state.battleground
        assert laid is not None and laid.scenery
        standard = [scenery_of(p).footprint for p in laid.scenery if not p.scenario]
        assert standard
        assert all(f.distance(c) >= 6.0 for f in standard for c in clear)


# --- the scenario's set-up steps (mobile elements, neutral fighters) ------------------------------


def _token_step(state: GameState) -> Transition | None:
    """A test set-up step: a token put in the middle of the table once."""
    ground = state.battleground
    assert ground is not None and ground.scenery is not None
    if any(p.name == "token" for p in ground.scenery):
        return None
    token = SceneryPiece("token", ((20.0, 20.0), (21.0, 20.0), (21.0, 21.0)), height="flat")
    ground = evolve(ground, scenery=(*ground.scenery, token))
    return evolve(state, battleground=ground), [SceneryPlaced("token")]


@pytest.mark.rule("XX-A-2", "C3-MOVEABLE-ELEMENTS")
def test_the_scenarios_set_up_steps_run_after_the_scenery_and_before_the_zone_die() -> None:
    """XX-A-2: "Ensuite, placez les éléments mobiles et les combattants neutres spécifiés par
    le scénario. Finalement, lancez 1d6 pour choisir les zones de déploiement." """
    state = _players_game(count=1)
    step_ = SetupStep("tokens", "XX-D", _token_step)
    play = Script(with_rules(state, rules_of(state).with_extension(SETUP_STEPS, "tokens", step_)))
    play.play(4, 2)
    happened = play.play(_first(play.state))
    laid = [i for i, e in enumerate(happened) if isinstance(e, SceneryLaid)]
    token = [i for i, e in enumerate(happened) if e == SceneryPlaced("token")]
    assert laid and token == [laid[0] + 1]  # once, right after the scenery
    assert play.asked == "zone_die"
    ground = play.state.battleground
    assert ground is not None and ground.scenery is not None
    assert [p.name for p in ground.scenery][-1] == "token"


# --- deployment (XX-A-3) ------------------------------------------------------------------------


SHRINE = SceneryPiece(
    "shrine", ((24.0, 24.0), (32.0, 24.0), (32.0, 32.0), (24.0, 32.0)), scenario=True
)
"""A small scenario element in deployment area 1 (x < 45)."""
POND = SceneryPiece(
    "pond", ((10.0, 40.0), (18.0, 40.0), (18.0, 48.0), (10.0, 48.0)), "flat", passable=False
)
HOUSE = SceneryPiece(
    "house", ((36.0, 6.0), (42.0, 6.0), (42.0, 14.0), (36.0, 14.0)), "very-large", passable=False
)


def _deploying() -> Iterator[tuple[GameState, str]]:
    """Player 1's scout and soldiers and Player 2's soldier deployed through ``step`` (zones
    given, Tactics 5 to 2, the first legal answer otherwise): each deploy question's state and
    the fighter it places."""
    scout = fighter("Scout", abilities=("Scout",), mov=10.0)
    soldier = fighter("Soldier")
    specs = [
        SideSpec("Side 1", "lion", ((scout, 1), (soldier, 3))),
        SideSpec("Side 2", "lion", ((soldier, 1),)),
    ]
    state = on_battlefield(
        game_from_specs(specs), scenery=(POND, HOUSE), fixed=(SHRINE,), zones=(0, 1)
    )
    state, _ = start(state)
    faces = iter([5, 2])
    while state.round == 0:
        pending = state.pending
        assert pending is not None
        if pending.kind == "deploy":
            current = state.activation.current  # type: ignore[union-attr]
            fighter_id = next(f for f in current.fighters if f not in current.done)  # type: ignore[union-attr]
            yield state, fighter_id
        choice = legal(state)[next(faces) - 1] if is_chance(state) else legal(state)[0]
        state, _ = step(state, choice)


@pytest.mark.rule("XX-A-3", "III-B-2", "C3-DEPLOYMENT")
def test_nobody_is_deployed_on_scenario_scenery_nor_in_scenery_he_cannot_enter() -> None:
    """XX-A-3: "Aucun combattant ou Nexus ne peut être déployé sur ou dans un décor de
    scénario, ni dans un élément de décor inaccessible ou impassable." The scout is kept more
    than his MOV (10 cm) from the shrine: "ne peuvent pas l'utiliser pour être déployés à MOU
    ou moins d'un objectif ou d'un décor de scénario"."""
    shrine = scenery_of(SHRINE).footprint
    blocked = [scenery_of(POND).footprint, scenery_of(HOUSE).footprint]
    seen = set()
    for state, fighter_id in _deploying():
        seen.add(fighter_id)
        template = base_of(state, state.fighter(fighter_id))
        spots = [c for c in legal(state) if isinstance(c, Place)]
        assert spots
        for spot in spots:
            base = template.moved(spot.x, spot.y, spot.facing).polygon
            assert not base.intersects(shrine)
            assert not any(base.intersects(b) for b in blocked)
            if fighter_id == "p1-c1-1":
                assert base.distance(shrine) > 10.0
        # a place on the shrine, or with the scout 8 cm from it, is refused
        on_shrine = Place(28.0, 28.0, 0.0)
        with pytest.raises(IllegalChoice):
            step(state, on_shrine)
        if fighter_id == "p1-c1-1":
            with pytest.raises(IllegalChoice):
                step(state, Place(28.0, 42.0, 0.0))
    assert {"p1-c1-1", "p1-c2-1", "p2-c1-1"} <= seen


@pytest.mark.rule("XX-A-3")
def test_soldiers_but_not_scouts_may_deploy_near_the_scenario_scenery() -> None:
    """Only the scouts (and special deployments) are kept beyond MOV: a soldier may stand
    2 cm from the shrine."""
    for state, fighter_id in _deploying():
        if fighter_id == "p1-c2-1":
            spots = [c for c in legal(state) if isinstance(c, Place)]
            template = base_of(state, state.fighter(fighter_id))
            near = min(
                template.moved(s.x, s.y, s.facing).polygon.distance(scenery_of(SHRINE).footprint)
                for s in spots
            )
            assert near < 5.0
            return
    raise AssertionError("the soldier was never deployed")


# --- agents -------------------------------------------------------------------------------------


@pytest.mark.rule("XX-A-2")
def test_greedy_and_random_place_the_scenery_legally_and_greedy_covers_the_middle() -> None:
    state, _ = start(_players_game(count=6, seed=9))
    agents: list[GreedyAgent | RandomAgent] = [GreedyAgent(1), RandomAgent(2)]
    dice = game_roller(state)
    greedy_places = []
    while state.battleground is not None and state.battleground.scenery is None:
        asked = question(state)
        assert asked is not None
        if is_chance(state):
            choice = asked.choices[dice.d6() - 1]
        else:
            assert asked.player is not None
            choice = agents[asked.player].choose(state, asked, asked.choices)
            assert choice in legal(state)
            if asked.player == 0:
                greedy_places.append(choice)
        state, _ = step(state, choice)
    assert greedy_places
    first = greedy_places[0]
    assert isinstance(first, PlaceScenery)
    assert first.template in ("forest", "ruins", "hill")  # hides a normal fighter, can be entered
    assert math.dist((first.x, first.y), (60.0, 30.0)) < 30.0
    ground = state.battleground
    assert ground is not None and ground.scenery is not None
    assert layout_problems(table_of(ground), [scenery_of(p) for p in ground.scenery]) == []


# --- invariants over random set-ups --------------------------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 2, 3]),
    count=st.integers(0, 9),
    tower=st.one_of(st.none(), st.tuples(st.integers(15, 45), st.integers(15, 45))),
)
@pytest.mark.rule("XX-A-2")
def test_random_set_ups_keep_the_placement_rules(
    seed: int, players: int, count: int, tower: tuple[int, int] | None
) -> None:
    """Whatever the dice and the answers: the scenario's element first; the highest d6 (ties
    rolled again by those tied) places first; the players in turn in player order; every
    element 6 cm from the others and the edges; the count reached or the table full; the zone
    die next."""
    fixed: tuple[SceneryPiece, ...] = ()
    if tower is not None:
        x, y = tower
        outline = ((x - 4.0, y - 4.0), (x + 4.0, y - 4.0), (x + 4.0, y + 4.0), (x - 4.0, y + 4.0))
        fixed = (SceneryPiece("obelisk", outline, scenario=True),)
    state, log = start(_players_game(count, fixed, players, seed))
    agents = [RandomAgent(seed + p) for p in range(players)]
    dice = game_roller(state)
    while state.battleground is not None and state.battleground.scenery is None:
        asked = question(state)
        assert asked is not None
        if is_chance(state):
            choice = asked.choices[dice.d6() - 1]
        else:
            assert asked.player is not None
            choice = agents[asked.player].choose(state, asked, asked.choices)
        state, events = step(state, choice)
        log.extend(events)
    ground = state.battleground
    assert ground is not None and ground.scenery is not None
    placed = [e for e in log if isinstance(e, SceneryPlaced)]
    rolls = [e for e in log if isinstance(e, SceneryRolled)]
    assert [e.element for e in placed[: len(fixed)]] == [p.name for p in fixed]
    assert all(e.player is None for e in placed[: len(fixed)])
    standard = placed[len(fixed) :]
    if count and standard:
        rolling = tuple(range(players))
        for roll in rolls:
            assert roll.players == rolling
            top = max(roll.faces)
            tied = tuple(p for p, f in zip(roll.players, roll.faces, strict=True) if f == top)
            assert roll.first == (tied[0] if len(tied) == 1 else None)
            rolling = tied
        first = rolls[-1].first
        assert first is not None
        assert [e.player for e in standard] == [(first + k) % players for k in range(len(standard))]
    assert len(standard) <= count
    if len(standard) < count:
        assert placements(ground, ground.scenery) == []
    assert ground.scenery[: len(fixed)] == fixed
    assert (
        layout_problems(table_of(ground), [scenery_of(p) for p in ground.scenery], min_elements=0)
        == []
    )
    assert state.pending is not None and state.pending.kind == "zone_die"


# --- scenario files ---------------------------------------------------------------------------

WATCH = """\
name = "Tower"
rounds = 4
goal = "control"
scenery = 3
scenery_placement = "players"

[[areas]]
name = "the field"
shape = "table"
vp = 1

[[scenario_scenery]]
name = "the tower"
shape = "rect"
x = 60.0
y = 30.0
width = 10.0
depth = 10.0
height = "very-large"
passable = false
objective = true
structure_points = 8
resistance = 10

[[scenario_scenery]]
name = "the well"
shape = "circle"
x = 20.0
y = 30.0
diameter = 6.0
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tower.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.rule(
    "XX-A-1",
    "XX-A-2",
    "C3-SITUATION",
    "C3-SCENARIO-SCENERY",
    "C3-ELEMENTS-OF-SCENERY",
    "C3-TYPES-OF-SCENERY",
)
def test_a_scenario_file_gives_its_scenery_and_the_placement_and_install_sets_them_up(
    tmp_path: Path,
) -> None:
    scenario = load_scenario(_write(tmp_path, WATCH))
    tower, well = scenario.scenario_scenery
    assert (tower.name, tower.height, tower.passable, tower.scenario, tower.objective) == (
        "the tower",
        "very-large",
        False,
        True,
        True,
    )
    assert (tower.structure_points, tower.resistance) == (8, 10)
    assert (well.structure_points, well.resistance, well.objective) == (None, None, False)
    assert scenario.scenery_placement == "players" and scenario.scenery == 3
    state = on_battlefield(game_from_specs(_specs()), scenery_count=scenario.scenery)
    state = install(state, scenario)
    ground = state.battleground
    assert ground is not None
    assert (ground.fixed, ground.placement, ground.scenery) == ((tower, well), "players", None)
    play = Script(state)
    assert [e for e in play.events if isinstance(e, SceneryPlaced)] == [
        SceneryPlaced("the tower"),
        SceneryPlaced("the well"),
    ]
    assert play.asked == "scenery_start_die"
    with pytest.raises(ValueError, match="XX-F-1: scenario 'tower' places 'the tower'"):
        scenario.check_players(3)


def test_the_iii_a_2_scenarios_keep_the_random_layout_and_the_bundled_watchtower_loads() -> None:
    for name in ("bloodbath", "conquest", "execution"):
        scenario = resolve(name)
        assert scenario.scenery_placement == "random" and scenario.scenario_scenery == ()
    watch = resolve("watchtower")
    assert watch.scenery_placement == "players"
    assert [p.name for p in watch.scenario_scenery] == ["the watchtower"]
    assert resolve("watchtower:random-scenery").scenery_placement == "random"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("x = 20.0", "x = 69.0"),
            "tower.toml:27: scenario_scenery[2].shape: 'the tower' and 'the well' are 1.0 cm "
            "apart: elements of scenery are 6 cm or more apart (XX-A-2)",
        ),
        (
            ("x = 20.0", "x = 8.0"),
            "scenario_scenery[2].shape: 'the well' is 5.0 cm from an edge of",
        ),
        (("x = 20.0", "x = 5.0"), "'the well' is 2.0 cm from an edge of the 120x60 table"),
        (("x = 20.0", "x = -50.0"), "'the well' is off the 120x60 table"),
        (("width = 10.0", "width = 31.0"), "'the tower' is 10.0x31.0 cm: an element of scenery"),
        (("resistance = 10\n", ""), "structure_points and resistance go together"),
        (('height = "very-large"', 'height = "towering"'), "unknown height 'towering'"),
        (('name = "the well"', 'name = "the tower"'), "scenario scenery 'the tower' appears twice"),
        (('name = "the well"', 'name = "well-2"'), "ends in '-<number>'"),
        (("diameter = 6.0", "width = 6.0"), "a 'circle' element needs diameter"),
        (("depth = 10.0", "depth = 10.0\ndiameter = 3.0"), "diameter does not belong to a 'rect'"),
        (("diameter = 6.0", "diameter = 6.0\nangle = 3.0"), "angle does not belong to a 'circle'"),
        (("structure_points = 8", "structure_points = 0"), "greater than or equal to 1"),
        (("objective = true", "objective = true\ncolour = 1"), "colour: unknown key"),
        (
            ('scenery_placement = "players"', 'scenery_placement = "organiser"'),
            "scenery_placement",
        ),
        (
            ("scenery = 3", "scenery = 1"),
            "tower.toml:4: scenery: 3 elements of scenery in all (2 scenario, 1 standard): at "
            "least 4 are needed",
        ),
    ],
)
def test_a_bad_scenery_entry_is_one_line_naming_file_line_and_key(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    path = _write(tmp_path, WATCH.replace(*change, 1))
    with pytest.raises(LoadError) as caught:
        load_scenario(path)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_scenario_may_lower_the_minimum_and_give_a_polygon(tmp_path: Path) -> None:
    """XX-A-2: "un minimum de 4 éléments de décor, sauf si le contraire est précisé"."""
    text = WATCH.replace("scenery = 3", "scenery = 0\nmin_scenery = 2").replace(
        'shape = "circle"\nx = 20.0\ny = 30.0\ndiameter = 6.0',
        'shape = "polygon"\npoints = [[15.0, 25.0], [25.0, 25.0], [20.0, 35.0]]',
    )
    scenario = load_scenario(_write(tmp_path, text))
    assert scenario.scenery == 0
    assert scenario.scenario_scenery[1].outline == ((15.0, 25.0), (25.0, 25.0), (20.0, 35.0))
    with pytest.raises(LoadError, match="crosses itself"):
        load_scenario(
            _write(
                tmp_path,
                text.replace("[20.0, 35.0]]", "[15.0, 35.0], [25.0, 35.0]]"),
            )
        )


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


_VALUES = st.one_of(
    st.integers(-50, 200),
    st.floats(-50, 200, allow_nan=False),
    st.booleans(),
    st.sampled_from(["rect", "circle", "polygon", "very-large", "flat", "x", ""]),
    st.lists(st.lists(st.floats(0, 120, allow_nan=False), max_size=3), max_size=5),
)
_KEYS = st.sampled_from(
    [
        "name",
        "shape",
        "x",
        "y",
        "width",
        "depth",
        "angle",
        "diameter",
        "points",
        "height",
        "passable",
        "objective",
        "structure_points",
        "resistance",
        "colour",
    ]
)


_PLAUSIBLE = st.builds(
    lambda n, x, y, d, h: (
        {"name": f"stone {n}", "shape": "circle", "x": x, "y": y, "diameter": d}
        | ({"height": h} if h else {})
    ),
    st.integers(0, 9),
    st.floats(0, 120, allow_nan=False),
    st.floats(0, 60, allow_nan=False),
    st.floats(0.5, 40, allow_nan=False),
    st.sampled_from(["", "flat", "large", "huge"]),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(_PLAUSIBLE, st.dictionaries(_KEYS, _VALUES, max_size=9)), max_size=3))
def test_any_scenery_entries_load_or_fail_in_one_line(
    tmp_path_factory: object, entries: list[dict[str, object]]
) -> None:
    """Hypothesis: whatever a user writes under [[scenario_scenery]], the loader returns a
    scenario whose elements respect XX-A-2 or raises one LoadError line — never a traceback."""
    text = (
        'name = "Fuzz"\nrounds = 3\ngoal = "control"\n\n[[areas]]\nname = "all"\nshape = "table"\n'
    )
    for entry in entries:
        text += "\n[[scenario_scenery]]\n" + "".join(
            f"{key} = {_toml_value(value)}\n" for key, value in entry.items()
        )
    directory = Path(str(tmp_path_factory.mktemp("fuzz")))  # type: ignore[attr-defined]
    path = directory / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    try:
        scenario = load_scenario(path)
    except LoadError as error:
        assert "\n" not in str(error) and str(error).startswith(str(path))
        event("refused")
        return
    event("loaded")
    pieces = [scenery_of(p) for p in scenario.scenario_scenery]
    from confrontation.geometry.table import Table

    assert layout_problems(Table(120.0, 60.0), pieces, min_elements=0) == []
    assert len(pieces) + scenario.scenery >= 4


@pytest.mark.rule("XX-A-2", "XX-A-3")
def test_the_watchtower_is_played_to_the_end_from_the_cli(tmp_path: Path) -> None:
    """`confrontation play --scenario watchtower --agents greedy,random`: the tower set up
    first, the players' six elements, a whole game, the SVG showing the objective apart."""
    from typer.testing import CliRunner

    from confrontation.cli import app

    svg, log = tmp_path / "end.svg", tmp_path / "game.jsonl"
    args = ["play", "--scenario", "watchtower", "--agents", "greedy,random", "--seed", "7"]
    result = CliRunner().invoke(app, [*args, "--no-store", "--svg", str(svg), "--log", str(log)])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "The watchtower is set up where the scenario places it (XX-A-2)." in out
    assert out.count(" places ") >= 7  # who places first, then six elements
    assert "The scenery is laid: the watchtower, " in out
    assert "End of the game" in out and "all rounds played" in out
    drawn = svg.read_text(encoding="utf-8")
    assert "★ the watchtower (objective, Inalterable)" in drawn
    assert 'stroke="#d4a017"' in drawn
    from confrontation.engine.record import read_log, replay

    final = replay(read_log(log.read_text(encoding="utf-8").splitlines()))
    fighters = [f for f in final.fighters if f.on_table]
    assert fighters and final.battleground is not None and final.battleground.scenery
