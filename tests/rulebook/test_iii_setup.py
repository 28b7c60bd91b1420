"""Chapter III through the engine: scenery laid with the game's dice (III-A-3), the choice of
deployment areas, the deployment sequence and Tactics roll (III-B-1), the drawing of the
deployment cards with reserve and refusals and the placing of the fighters (III-B-2), and
the scouts' restriction of the scenario rules (XX-A-3)."""

from __future__ import annotations

import pytest

from confrontation.agents.random import RandomAgent
from confrontation.engine.core.events import (
    Deployed,
    Event,
    PhaseStarted,
    RefusalsGranted,
    RoundStarted,
    SceneryLaid,
    ZoneChosen,
)
from confrontation.engine.core.questions import ChooseZone, Place, PutInReserve
from confrontation.engine.core.registry import IllegalChoice
from confrontation.engine.core.state import GameState, Phase, SceneryPiece
from confrontation.engine.record import replay
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield
from confrontation.engine.step import is_chance, legal, question, start, step
from confrontation.engine.table.field import (
    base_of,
    can_deploy,
    deployment_spots,
    deployment_zone,
    field_of,
    scenery_of,
)
from confrontation.geometry.measure import wholly_within
from confrontation.geometry.scenery import layout_problems
from engine_support import fighter


def sides(first: int = 3, second: int = 1) -> list[SideSpec]:
    a, b = fighter("Soldier"), fighter("Archer")
    return [
        SideSpec("Side 1", "lion", tuple((a, 2) for _ in range(first))),
        SideSpec("Side 2", "lion", tuple((b, 1) for _ in range(second))),
    ]


def set_up(state: GameState, seed: int = 3) -> tuple[GameState, list[Event]]:
    """Play the set-up with random answers and the game's dice until round 1 begins."""
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    from confrontation.engine.step import game_roller

    state, log = start(state)
    dice = game_roller(state)
    while not any(isinstance(e, RoundStarted) for e in log):
        asked = question(state)
        assert asked is not None
        choice = (
            asked.choices[dice.d6() - 1]
            if is_chance(state)
            else agents[asked.player].choose(state, asked, asked.choices)  # type: ignore[index]
        )
        state, events = step(state, choice)
        log.extend(events)
    return state, log


@pytest.mark.rule("III-A-1", "III-A-3", "III-B", "III-B-1", "III-B-2")
def test_a_whole_set_up_lays_scenery_chooses_areas_and_deploys_everybody() -> None:
    state = on_battlefield(game_from_specs(sides(), seed=11))
    state, log = set_up(state)
    [laid] = [e for e in log if isinstance(e, SceneryLaid)]
    assert state.battleground is not None and state.battleground.scenery is not None
    assert len(laid.elements) >= 4
    here = field_of(state)
    assert layout_problems(here.table, list(here.scenery)) == []
    zones = [e for e in log if isinstance(e, ZoneChosen)]
    assert sorted(z.zone for z in zones) == [0, 1]
    deployed = [e for e in log if isinstance(e, Deployed)]
    assert sorted(e.fighter for e in deployed) == sorted(f.id for f in state.fighters)
    for fighter_ in state.fighters:
        assert fighter_.on_table
        assert wholly_within(here.base(fighter_.id), deployment_zone(state, fighter_.player).area)
    assert state.phase is Phase.STRATEGIC and state.round == 1
    phases = [e.phase for e in log if isinstance(e, PhaseStarted)]
    assert phases[:2] == ["deployment", "strategic"]  # III-B-1 before III-B-2
    assert replay(log) == state  # the scenery dice are in the record


@pytest.mark.rule("III-B-2")
def test_the_deployment_draw_has_refusals_and_one_reserve() -> None:
    # three cards against one: two refusals for Player 2 (III-B-2 "Refuses")
    state = on_battlefield(game_from_specs(sides(3, 1)), scenery=())
    state, log = start(state)
    faces = iter([1, 5, 2])  # the zone die, then the Tactics roll: 5 against 2
    while state.pending is not None and state.pending.kind != "floor":
        choice = legal(state)[next(faces) - 1] if is_chance(state) else legal(state)[0]
        state, events = step(state, choice)
        log.extend(events)
    assert RefusalsGranted(1, 2) in log
    # Player 1 won the Tactics roll and speaks first
    assert state.pending is not None and state.pending.player == 0
    assert PutInReserve() in legal(state)


@pytest.mark.rule("III-A-3")
def test_a_die_decides_who_chooses_his_deployment_area() -> None:
    state = on_battlefield(game_from_specs(sides()), scenery=())
    state, _ = start(state)
    assert state.pending is not None and state.pending.kind == "zone_die"
    state, _ = step(state, legal(state)[4])  # a 5: Player 2 chooses
    assert state.pending is not None and state.pending.player == 1
    state, events = step(state, ChooseZone(0))
    assert ZoneChosen(1, 0) in events and ZoneChosen(0, 1) in events


@pytest.mark.rule("III-B-2", "XX-A-3")
def test_deployment_spots_avoid_scenario_scenery_and_keep_scouts_beyond_mov() -> None:
    shrine = SceneryPiece(
        "shrine", ((20.0, 25.0), (26.0, 25.0), (26.0, 31.0), (20.0, 31.0)), scenario=True
    )
    scout, soldier = fighter("Scout", abilities=("Scout",)), fighter("Soldier")
    specs = [
        SideSpec("Side 1", "lion", ((scout, 1), (soldier, 1))),
        SideSpec("Side 2", "lion", ((soldier, 1),)),
    ]
    state = on_battlefield(game_from_specs(specs), scenery=(shrine,), zones=(0, 1))
    state, _ = start(state)
    footprint = scenery_of(shrine).footprint
    template = field_of(state)
    assert template.table.zones[0].area.bounds[2] >= 26.0  # the shrine is in area 1
    for fighter_id, margin in (("p1-c1-1", 10.0), ("p1-c2-1", 0.0)):
        spots = deployment_spots(state, state.fighter(fighter_id))
        assert spots
        for spot in spots:
            from confrontation.geometry.bases import Base

            base = Base.of("normal", "square", spot.x, spot.y, spot.facing)
            gap = float(base.polygon.distance(footprint))
            assert gap > margin if margin else not base.polygon.intersects(footprint)


def _at_first_deployment() -> GameState:
    """Three soldiers (Player 1, area 1: x < 45) against an archer (Player 2, area 2: x > 75)
    on an empty 120x60 table split across its width (median line x = 60), at the first
    deployment question."""
    state = on_battlefield(game_from_specs(sides()), scenery=(), zones=(0, 1))
    state, _ = start(state)
    faces = iter([5, 2])  # the deployment Tactics roll: Player 1 wins
    while state.pending is not None and state.pending.kind != "deploy":
        choice = legal(state)[next(faces) - 1] if is_chance(state) else legal(state)[0]
        state, _ = step(state, choice)
    return state


@pytest.mark.rule("III-A-1", "III-B-2")
def test_the_deployment_band_is_open_at_15_and_at_50_cm() -> None:
    """III-A-1: a deployment area lies "more than 15 cm and less than 50 cm" from the median
    line; CLARIFICATIONS §9: "both bounds are open". A base whose edge is exactly 15 cm (or
    50 cm) from the median line is outside; one at 15.5 cm (49.5 cm) is inside."""
    state = _at_first_deployment()
    soldier = state.fighter("p1-c1-1")
    half = base_of(state, soldier).width / 2  # 1.25: facing 0°, the base spans x ± 1.25
    assert not can_deploy(state, soldier, 60 - 15 - half, 30, 0.0)
    assert can_deploy(state, soldier, 60 - 15.5 - half, 30, 0.0)
    assert not can_deploy(state, soldier, 60 - 50 + half, 30, 0.0)
    assert can_deploy(state, soldier, 60 - 49.5 + half, 30, 0.0)
    # nothing offered touches either line, in either area
    for fighter_id in ("p1-c1-1", "p2-c1-1"):
        fighter_ = state.fighter(fighter_id)
        spots = deployment_spots(state, fighter_)
        assert spots
        for spot in spots:
            placed = base_of(state, fighter_).moved(spot.x, spot.y, spot.facing)
            x0, _, x1, _ = placed.polygon.bounds
            gaps = (abs(x0 - 60), abs(x1 - 60))
            assert min(gaps) > 15 and max(gaps) < 50, (fighter_id, spot)
    # the old grid's first column, its base's edge on the 50 cm line, is refused
    assert state.pending is not None and state.pending.kind == "deploy"
    with pytest.raises(IllegalChoice):
        step(state, Place(60 - 50 + half, 1.25, 0.0))
