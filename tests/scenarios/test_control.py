"""Control of an area (III-A-2, XX-C-1, XX-C-3) on a table with fighters placed by hand."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.engine.core.state import GameState
from confrontation.scenarios import control, controller, install, resolve, wounded_value
from confrontation.scenarios.base import Area, BasicScenario
from engine_support import fighter, skirmish

# Profiles: a normal fighter (Power 1) worth 20 AP, a large one (Power 2) worth 30 AP.
SMALL = fighter("Footman", ap=20)
BIG = fighter("Ogre", size="large", power=2, ap=30)


def conquest(positions: Mapping[str, tuple[float, float, float]], **values: int) -> GameState:
    """Player 1 with two footmen and an ogre, Player 2 the same, on a 120x60 table
    (Player 1 in deployment area 1, x 10-45; the centre is x 45-75)."""
    cards = [[(SMALL, 2), (BIG, 1)], [(SMALL, 2), (BIG, 1)]]
    state = skirmish(cards, positions)
    return install(state, resolve("conquest"), values=values or None)


def area(state: GameState, name: str) -> Area:
    assert isinstance(state.scenario, BasicScenario)
    return next(a for a in state.scenario.areas if a.name == name)


@pytest.mark.rule("III-A-2")
def test_powers_and_values_both_greater_control_the_area() -> None:
    state = conquest(
        {
            "p1-c1-1": (55, 20, 0),  # footman 20 AP, Power 1
            "p1-c2-1": (60, 40, 0),  # ogre 30 AP, Power 2
            "p2-c1-1": (65, 20, 180),  # footman 20 AP, Power 1
            "p2-c1-2": (100, 30, 180),  # in his own deployment area
        }
    )
    checked = control(state, area(state, "the centre"))
    assert checked.powers == (3, 1)
    assert checked.values == (50, 20)
    assert checked.controller == 0


@pytest.mark.rule("III-A-2")
def test_more_power_but_less_value_is_a_disputed_area() -> None:
    # Player 1: two footmen (Power 2, 40 AP); Player 2: an ogre and a footman (Power 3,
    # 50 AP): Player 2 controls. Valued at 40 AP each, Player 1's footmen are worth 80: more
    # value but less Power, so nobody controls.
    positions = {
        "p1-c1-1": (55, 20, 0),
        "p1-c1-2": (55, 40, 0),
        "p2-c2-1": (68, 30, 180),
        "p2-c1-1": (70, 50, 180),
    }
    state = conquest(positions)
    assert control(state, area(state, "the centre")).controller == 1
    richer = conquest(positions, **{"p1-c1": 40})  # Player 1's footmen now 40 AP each
    checked = control(richer, area(richer, "the centre"))
    assert checked.powers == (2, 3) and checked.values == (80, 50)
    assert checked.controller is None


@pytest.mark.rule("III-A-2")
def test_serious_and_critical_wounds_lower_the_value() -> None:
    positions = {"p1-c2-1": (60, 30, 0), "p2-c1-1": (70, 20, 180), "p2-c1-2": (70, 40, 180)}
    state = conquest(positions)
    centre = area(state, "the centre")
    assert control(state, centre).values == (30, 40)
    ogre = state.fighter("p1-c2-1")
    for levels, value in ((1, 30), (2, 25), (3, 20)):
        hurt = state.with_fighters(dataclasses.replace(ogre, wounds=levels))
        assert control(hurt, centre).values == (value, 40)
    footman = state.fighter("p2-c1-1")
    critical = state.with_fighters(dataclasses.replace(footman, wounds=3))
    assert control(critical, centre).values == (30, 30)  # 20 - 10 = 10, plus 20


@pytest.mark.rule("III-A-2")
def test_only_fighters_wholly_inside_count_and_not_routed_flying_hidden_or_dead() -> None:
    positions = {
        "p1-c1-1": (45.0, 20, 0),  # straddles the line between area 1 and the centre
        "p1-c1-2": (60, 20, 0),
        "p1-c2-1": (60, 40, 0),
        "p2-c1-1": (70, 30, 180),
    }
    state = conquest(positions)
    centre = area(state, "the centre")
    assert control(state, centre).fighters == (("p1-c1-2", "p1-c2-1"), ("p2-c1-1",))
    for change in ({"routed": True}, {"altitude": 1}, {"hidden": True}, {"wounds": 4}):
        f = dataclasses.replace(state.fighter("p1-c2-1"), **change)
        assert control(state.with_fighters(f), centre).fighters[0] == ("p1-c1-2",)


@pytest.mark.rule("III-A-2")
def test_the_deployment_areas_follow_the_players_choice() -> None:
    state = conquest({"p1-c1-1": (20, 30, 0)})
    own = area(state, "Player 1's deployment area")
    assert control(state, own).controller == 0
    assert state.battleground is not None
    swapped = dataclasses.replace(
        state, battleground=dataclasses.replace(state.battleground, zones=(1, 0))
    )
    assert control(swapped, own).controller is None
    assert control(swapped, area(swapped, "Player 2's deployment area")).controller == 0


@given(
    st.tuples(st.integers(0, 20), st.integers(0, 20)),
    st.tuples(st.integers(0, 300), st.integers(0, 300)),
)
def test_at_most_one_controller_and_only_with_both_sums_greater(
    powers: tuple[int, int], values: tuple[int, int]
) -> None:
    who = controller(powers, values)
    if who is None:
        assert not (powers[0] > powers[1] and values[0] > values[1])
        assert not (powers[1] > powers[0] and values[1] > values[0])
    else:
        assert powers[who] > powers[1 - who] and values[who] > values[1 - who]


@given(st.integers(0, 100), st.integers(0, 4))
def test_wounded_value_never_negative_and_never_above_the_value(value: int, levels: int) -> None:
    assert 0 <= wounded_value(value, levels) <= value


@pytest.mark.rule("III-A-1", "III-A-2")
def test_a_base_on_the_15_cm_line_is_in_no_area_and_the_centre_keeps_its_bound() -> None:
    """III-A-1: deployment areas lie "more than 15 cm" from the median line (CLARIFICATIONS
    §9: "both bounds are open"); Conquest's neutral area is the band within 15 cm of it
    (docs/rulings.md, III-A-2). A footman whose edge touches the 15 cm line from his own side
    is wholly in neither; one touching it from the centre's side is in the centre."""
    state = conquest(
        {
            "p1-c1-1": (60 - 15 - 1.25, 20, 0),  # x 42.5-45: on the line, area 1's side
            "p1-c1-2": (60 - 15 + 1.25, 40, 0),  # x 45-47.5: on the line, the centre's side
            "p2-c1-1": (100, 30, 180),
        }
    )
    mine = control(state, area(state, "Player 1's deployment area"))
    centre = control(state, area(state, "the centre"))
    assert mine.fighters[0] == ()
    assert centre.fighters[0] == ("p1-c1-2",)
    moved = conquest({"p1-c1-1": (60 - 15.5 - 1.25, 20, 0), "p2-c1-1": (100, 30, 180)})
    assert control(moved, area(moved, "Player 1's deployment area")).fighters[0] == ("p1-c1-1",)
