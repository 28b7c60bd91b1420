"""XX-A-2: the neutral fighters (XX-E) and passive individuals (XX-E-6) a scenario places, put
on the table by the set-up after the scenery and before the die for the deployment areas
("Ensuite, placez les éléments mobiles et les combattants neutres spécifiés par le scénario"):
a set-up step of the rules (``deployment.SetupStep``)."""

from __future__ import annotations

import math

from confrontation.engine.core.events import Deployed, Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.registry import EngineError, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import NEUTRAL, Fighter, GameState
from confrontation.engine.setup.deployment import SETUP_STEPS, SetupStep
from confrontation.engine.table.field import Field, field_of, scenery_of
from confrontation.geometry.bases import Base

SPOT_SEARCH_CM = 30.0
"""How far from the scenario's place a free one is looked for (docs/rulings.md XX-A-2)."""


def place_scenario_fighters(state: GameState) -> Transition | None:
    """XX-A-2: "Ensuite, placez les éléments mobiles et les combattants neutres spécifiés par le
    scénario", after the scenery and before the die for the deployment areas. Each neutral
    fighter (XX-E) and passive individual (XX-E-6) not yet on the table goes to the place the
    scenario gave him, or — the scenery took it — the nearest free place (rings 1 cm apart,
    every 15°; docs/rulings.md). None: nobody to place."""
    waiting = [
        f
        for f in state.fighters
        if (f.player == NEUTRAL or f.passive) and f.alive and not f.on_table
    ]
    if not waiting:
        return None
    events: list[Event] = []
    for fighter in waiting:
        placed = evolve(fighter, on_table=True)
        state = state.with_fighters(placed)
        spot = _free_spot(state, placed)
        if spot is None:
            raise EngineError(
                f"XX-A-2: no free place within {SPOT_SEARCH_CM:g} cm of ({fighter.x:g}, "
                f"{fighter.y:g}) for {fighter.id}"
            )
        state = state.with_fighters(evolve(placed, x=spot[0], y=spot[1]))
        events.append(Deployed(fighter.id, spot[0], spot[1], fighter.facing))
    return state, events


def _free_spot(state: GameState, fighter: Fighter) -> tuple[float, float] | None:
    """The nearest place to the fighter's own where his base lies on the table, on no other
    base, no scenery he cannot cross and no scenario scenery, touching nobody."""
    here = field_of(state)
    template = here.base(fighter.id)
    ground = state.battleground
    assert ground is not None
    scenario = [scenery_of(p).footprint for p in ground.scenery or () if p.scenario]

    def free_at(x: float, y: float) -> bool:
        base = template.moved(x, y, fighter.facing)
        if here.spot_problem(fighter.id, base, enemies_apart=True) is not None:
            return False
        if any(other.polygon.distance(base.polygon) < 0.05 for other in _others(here, fighter)):
            return False
        return all(base.polygon.intersection(s).area <= 1e-4 for s in scenario)

    if free_at(fighter.x, fighter.y):
        return (fighter.x, fighter.y)
    radius = 1.0
    while radius <= SPOT_SEARCH_CM:
        for step in range(24):
            angle = math.radians(15.0 * step)
            x = round(fighter.x + radius * math.cos(angle), 4)
            y = round(fighter.y + radius * math.sin(angle), 4)
            if free_at(x, y):
                return (x, y)
        radius += 1.0
    return None


def _others(here: Field, fighter: Fighter) -> list[Base]:
    """The bases in play but his (nobody is placed touching another, friend or foe)."""
    return [here.base(i) for i in here.ids() if i != fighter.id]


def contribute(rules: RulesBuilder) -> None:
    """The set-up step that places the scenario's neutral fighters and passive individuals."""
    rules.extension(
        SETUP_STEPS,
        "scenario-fighters",
        SetupStep("scenario-fighters", "XX-A-2", place_scenario_fighters),
    )
