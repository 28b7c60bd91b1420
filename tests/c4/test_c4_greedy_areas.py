"""The C4 greedy in scenarios scored after the last round (III-A-2 Conquest, XX-B-1 The
Standard; ``agents.c4.area_worth``, ``zone_value``): an area is worth its value if the unit
gets there in the rounds left and its player then outnumbers the enemy holders; a
chapter-20 ``round`` condition once met is no longer played for (XX-A-4)."""

from __future__ import annotations

import pytest

from confrontation.agents.c4 import LATE, OUTNUMBERED, area_worth, zone_value
from confrontation.c4 import battle as scenario
from confrontation.c4 import tactical
from confrontation.c4.state import C4State
from confrontation.engine.core.frozen import evolve
from confrontation.sim.c4game import C4Config, build


def _game(name: str) -> C4State:
    return build(C4Config(scenario=name, rounds_given=False))


def test_an_area_is_worth_its_value_when_reached_in_time_and_outnumbering() -> None:
    state = _game("conquest")
    centre = next(z for z in state.battle.zones if z.name == "the centre")  # type: ignore[union-attr]
    unit = state.units_of(0)[0]
    assert scenario.holders(state, centre) == {}
    assert area_worth(state, centre, unit, 2, 1.0) == pytest.approx(2 / 1.05)
    # farther than the runs left before the last round: a small share
    late = evolve(state, round=state.rounds)
    assert area_worth(late, centre, unit, 2, 1.5) == pytest.approx(2 * LATE / 1.075)


def test_an_area_the_enemy_holds_with_more_fighters_is_worth_less() -> None:
    state = _game("conquest")
    theirs = next(z for z in state.battle.zones if z.side == 1)  # type: ignore[union-attr]
    unit = min(state.units_of(0), key=lambda u: len(state.members(u.id)))
    # the enemy's units deploy inside their deployment area (x 75-110): they hold it
    held = scenario.holders(state, theirs)
    assert held.get(1, 0) >= len(state.members(unit.id))
    assert area_worth(state, theirs, unit, 3, 1.0) == pytest.approx(3 * OUTNUMBERED / 1.05)
    # they step 40 cm forward, out of it: nobody holds it, it is worth its whole value
    moved = {f.id: evolve(f, x=f.x - 40.0) for f in state.fighters if f.x > 70.0}
    state = state.with_fighters(moved)
    assert scenario.holders(state, theirs) == {}
    assert area_worth(state, theirs, unit, 3, 1.0) == pytest.approx(3 / 1.05)


def test_a_round_condition_once_met_is_no_longer_played_for() -> None:
    state = _game("standard")
    battle = state.battle
    assert battle is not None
    centre = battle.zones[0]
    chief = tactical.commander(state, 0)
    assert chief is not None
    unit = state.unit(chief.unit)
    before = zone_value(state, centre, unit)
    assert before > 0
    met = evolve(state, battle=evolve(battle, met=(("standard", 0),)))
    assert zone_value(met, centre, unit) == before - next(
        c.vp for c in battle.conditions if c.id == "standard"
    )
