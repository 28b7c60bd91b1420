"""The basic scenarios with three to six players (III-A-2, XX-C, XX-F-1): control of an area
with one entry per player, victory points and the winner, Execution's targets among every
other player, the scenarios a layout cannot hold."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.dice import ScriptedRoller
from confrontation.engine.core.events import Event, FighterKilled
from confrontation.engine.core.questions import Choice, EndActivation, Option, Question
from confrontation.engine.core.registry import Handler, Transition
from confrontation.engine.core.state import GameState, Pending, Phase, ProfileSummary
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import is_chance, roll, start, step
from confrontation.scenarios import (
    AreaControlled,
    ObjectiveScored,
    TargetsSet,
    control,
    controller,
    install,
    load_scenario,
    provisional_vp,
    resolve,
)
from confrontation.scenarios.base import Area, BasicScenario
from confrontation.scenarios.basic import score
from confrontation.scenarios.control import geometry
from engine_support import fighter, plugged

FOOT = fighter("Footman", ap=20)
HERO = fighter("Hero", ap=45)
CHAMPION = fighter("Champion", ap=60)
Positions = Mapping[str, tuple[float, float, float]]

# players-3: area 1 x 0-45 y 0-45, area 2 x 75-120 y 0-45, area 3 x 37.5-82.5 y 75-120;
# the centre is the circle of 15 cm about (60, 56.25).


def battle(
    players: int,
    scenario: str,
    positions: Positions,
    *,
    zones: tuple[int, ...] | None = None,
    cards: Sequence[Sequence[tuple[ProfileSummary, int]]] | None = None,
) -> GameState:
    """``players`` sides (a hero and two footmen each, unless ``cards``) on their layout,
    fighters at ``positions``, playing ``scenario`` for one round."""
    cards = cards or [[(HERO, 1), (FOOT, 2)]] * players
    specs = [SideSpec(f"Side {k + 1}", "lion", tuple(side)) for k, side in enumerate(cards)]
    state = game_from_specs(specs, rounds=1)
    zones = zones or tuple(range(players))
    state = on_battlefield(state, scenery=(), zones=zones, deploy=False)
    return install(place(state, positions), resolve(scenario), rounds=1)


def area(state: GameState, name: str) -> Area:
    assert isinstance(state.scenario, BasicScenario)
    return next(a for a in state.scenario.areas if a.name == name)


# --- control -------------------------------------------------------------------------------------


def _oracle(powers: Sequence[int], values: Sequence[int]) -> int | None:
    winners = [
        p
        for p in range(len(powers))
        if all(
            powers[p] > powers[q] and values[p] > values[q] for q in range(len(powers)) if q != p
        )
    ]
    assert len(winners) <= 1
    return winners[0] if winners else None


@pytest.mark.rule("XX-C-3")
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 80)), min_size=2, max_size=6))
def test_a_player_controls_when_he_beats_every_other_player_in_both(
    hands: list[tuple[int, int]],
) -> None:
    powers, values = [h[0] for h in hands], [h[1] for h in hands]
    assert controller(powers, values) == _oracle(powers, values)
    if len(hands) == 2:  # the two-player rule as it always was
        (p0, v0), (p1, v1) = hands
        expected = 0 if p0 > p1 and v0 > v1 else 1 if p1 > p0 and v1 > v0 else None
        assert controller(powers, values) == expected


@pytest.mark.rule("XX-C-3", "XX-F")
def test_each_other_player_is_compared_on_his_own_not_their_sum() -> None:
    # Player 1: Power 2, value 65; Players 2 and 3: Power 1 each (2 together), value 45 and 20
    assert controller((2, 1, 1), (65, 45, 20)) == 0
    assert controller((2, 2, 1), (65, 45, 20)) is None  # equal Power with Player 2
    assert controller((0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0)) is None


@pytest.mark.rule("III-A-2", "XX-F-1")
def test_three_players_conquest_scores_every_players_area_and_the_centre() -> None:
    state = battle(
        3,
        "conquest",
        {
            "p1-c1-1": (20, 20, 45),  # Player 1 holds his own area: 1 VP
            "p1-c2-1": (30, 10, 45),
            "p3-c1-1": (90, 20, 135),  # Player 3 holds Player 2's area: 3 VP
            "p3-c2-1": (100, 10, 135),
            "p2-c2-1": (110, 35, 135),  # outdone by Player 3 in his own area
            "p2-c1-1": (60, 56, 270),  # Player 2 holds the centre: 2 VP
        },
    )
    names = [a.name for a in area_names(state)]
    assert names == [
        "Player 1's deployment area",
        "Player 2's deployment area",
        "Player 3's deployment area",
        "the centre",
    ]
    checked = control(state, area(state, "Player 2's deployment area"))
    assert (checked.powers, checked.values) == ((0, 1, 2), (0, 20, 65))
    assert checked.fighters == ((), ("p2-c2-1",), ("p3-c1-1", "p3-c2-1"))
    assert checked.controller == 2
    end, events = score(state)
    assert [e for e in events if isinstance(e, AreaControlled)] == [
        AreaControlled("Player 1's deployment area", (2, 0, 0), (65, 0, 0), 0),
        AreaControlled("Player 2's deployment area", (0, 1, 2), (0, 20, 65), 2),
        AreaControlled("Player 3's deployment area", (0, 0, 0), (0, 0, 0), None),
        AreaControlled("the centre", (0, 1, 0), (0, 45, 0), 1),
    ]
    assert [e for e in events if isinstance(e, ObjectiveScored)] == [
        ObjectiveScored(0, "Player 1's deployment area", 1),
        ObjectiveScored(2, "Player 2's deployment area", 3),
        ObjectiveScored(1, "the centre", 2),
    ]
    assert end.scores == (1, 2, 3) and end.winner == 2
    assert provisional_vp(state) == (1, 2, 3)


def area_names(state: GameState) -> tuple[Area, ...]:
    assert isinstance(state.scenario, BasicScenario)
    return state.scenario.areas


@pytest.mark.rule("III-A-2", "XX-F")
def test_a_tie_for_the_most_vp_is_a_draw() -> None:
    state = battle(
        3,
        "conquest",
        {
            "p1-c1-1": (90, 20, 0),  # Player 1 holds Player 2's area: 3 VP
            "p2-c1-1": (20, 20, 0),  # Player 2 holds Player 1's area: 3 VP
            "p3-c1-1": (60, 100, 0),  # Player 3 holds his own: 1 VP
        },
    )
    end, _ = score(state)
    assert end.scores == (3, 3, 1) and end.winner is None


@pytest.mark.rule("III-A-2", "XX-F-1")
def test_a_players_area_is_the_one_he_took() -> None:
    # Player 1 in area 3 (top), Player 2 in area 1, Player 3 in area 2
    state = battle(
        3,
        "conquest",
        {"p1-c1-1": (60, 100, 270), "p2-c1-1": (20, 20, 45), "p3-c1-1": (20, 40, 45)},
        zones=(2, 0, 1),
    )
    own = geometry(state, area(state, "Player 1's deployment area"))
    assert own.bounds == (37.5, 75.0, 82.5, 120.0)
    end, _ = score(state)
    # Player 1 holds his own (top) area; Players 2 and 3 dispute Player 2's (area 1)
    assert end.scores == (1, 0, 0) and end.winner == 0
    centre = geometry(state, area(state, "the centre"))
    assert centre.area == pytest.approx(math.pi * 15.0**2, rel=0.01)
    assert centre.centroid.coords[0] == pytest.approx((60.0, 56.25))


@pytest.mark.rule("III-A-2", "XX-F")
@pytest.mark.parametrize("players", [4, 5, 6])
def test_bloodbath_with_more_players(players: int) -> None:
    # Player 2 outdoes every other player one by one (not all of them together)
    positions: dict[str, tuple[float, float, float]] = {
        "p2-c1-1": (90, 20, 90),
        "p2-c2-1": (95, 30, 90),
    }
    for p in range(1, players + 1):
        if p != 2:
            positions[f"p{p}-c1-1"] = (20 + 8 * p, 60, 0)
    state = battle(players, "bloodbath", positions)
    end, events = score(state)
    checked = next(e for e in events if isinstance(e, AreaControlled))
    assert checked.powers == (1, 2, *[1] * (players - 2))
    assert end.scores == (0, 1, *[0] * (players - 2)) and end.winner == 1


# --- scenarios a layout cannot hold --------------------------------------------------------------


@pytest.mark.rule("XX-F-1")
def test_areas_placed_by_coordinates_are_for_two_players() -> None:
    campsites = resolve("conquest:campsites")
    state = game_from_specs([SideSpec(f"S{k}", "lion", ((FOOT, 1),)) for k in range(3)])
    with pytest.raises(ValueError, match=r"^XX-F-1: scenario 'conquest:campsites' places "):
        install(on_battlefield(state, scenery=()), campsites)
    with pytest.raises(ValueError, match="two-player table; a game of 3 players deploys on a"):
        campsites.battlefield(3)
    assert campsites.battlefield(2) == ("120x60", "width")
    assert resolve("conquest").battlefield(4) == (None, None)


@pytest.mark.rule("XX-F-1")
def test_two_player_conquest_keeps_its_three_areas() -> None:
    record = resolve("conquest").record()
    assert [(a.name, a.owner) for a in record.areas] == [
        ("Player 1's deployment area", 0),
        ("Player 2's deployment area", 1),
        ("the centre", None),
    ]
    assert record.targets == ((), ())
    assert len(resolve("conquest").record(players=5).areas) == 6


@pytest.mark.rule("XX-F-1")
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            'shape = "rect"\nowner = 3\nx0 = 0.0\ny0 = 0.0\nx1 = 5.0\ny1 = 5.0\n',
            "a 'rect' area is for two-player games (XX-F-1): its owner is 1 or 2",
        ),
        (
            'shape = "deployment"\nowner = 3\n',
            "areas 'the battlefield' and 'the camp' overlap with 3 players (XX-C-3",
        ),
        ('shape = "deployment"\nowner = 7\n', "areas[2].owner: Input should be 1, 2, 3, 4, 5 or 6"),
    ],
)
def test_a_scenario_file_for_more_players_is_checked(
    tmp_path: Path, extra: str, message: str
) -> None:
    path = tmp_path / "camp.toml"
    path.write_text(
        'name = "Camp"\nrounds = 4\ngoal = "control"\n\n[[areas]]\nname = "the battlefield"\n'
        'shape = "table"\nvp = 1\n\n[[areas]]\nname = "the camp"\n' + extra,
        encoding="utf-8",
    )
    with pytest.raises(LoadError) as caught:
        load_scenario(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)


# --- Execution -----------------------------------------------------------------------------------


def execution(variation: str = "") -> GameState:
    """Player 1: a hero (45) and two footmen; Player 2: a champion (60) and two footmen;
    Player 3: a hero (45) and two footmen."""
    cards = [
        [(HERO, 1), (FOOT, 2)],
        [(CHAMPION, 1), (FOOT, 2)],
        [(HERO, 1), (FOOT, 2)],
    ]
    positions = {
        "p1-c1-1": (20, 20, 45),
        "p1-c2-1": (30, 10, 45),
        "p2-c1-1": (90, 20, 135),
        "p2-c2-1": (100, 10, 135),
        "p3-c1-1": (60, 100, 270),
        "p3-c2-1": (50, 100, 270),
    }
    name = "execution" + (f":{variation}" if variation else "")
    state = battle(3, name, positions, cards=cards)
    return dataclasses.replace(state, rounds=5)


KILL = "test_kill"


def killing(victim: str, by: str | None) -> Handler:
    """A stand-in for a wound roll: answering kills ``victim`` (by ``by``) and asks again."""

    def apply(state: GameState, choice: Choice) -> Transition:
        dead = dataclasses.replace(state.fighter(victim), wounds=4)
        state = dataclasses.replace(state.with_fighters(dead), pending=Pending(KILL, 0))
        events: list[Event] = [FighterKilled(victim, by=by)]
        return state, events

    def describe(state: GameState, choices: Sequence[Choice]) -> Question:
        return Question(KILL, 0, "kill", tuple(Option(c, "kill") for c in choices))

    return Handler(KILL, lambda s: [EndActivation()], apply, describe)


def kill(state: GameState, victim: str, by: str | None) -> GameState:
    state = dataclasses.replace(state, pending=Pending(KILL, 0))
    after, _ = step(plugged(state, handlers=[killing(victim, by)]), EndActivation())
    return after


@pytest.mark.rule("III-A-2", "XX-F")
def test_execution_targets_the_most_valuable_fighter_of_all_the_other_players() -> None:
    state = execution()
    assert isinstance(state.scenario, BasicScenario)
    assert state.scenario.targets == (
        ("p2-c1-1",),  # the champion (60) outvalues Player 3's hero (45)
        ("p1-c1-1", "p3-c1-1"),  # two heroes of 45: either will do
        ("p2-c1-1",),
    )


@pytest.mark.rule("III-A-2", "XX-F")
@pytest.mark.parametrize(
    ("by", "winner"),
    [("p1-c2-1", 0), ("p3-c2-1", 2), ("p2-c2-1", None), (None, None)],
)
def test_only_a_players_own_kill_of_his_target_wins(by: str | None, winner: int | None) -> None:
    end = kill(execution(), "p2-c1-1", by)
    if winner is None:  # killed by his own side or by nobody: no player has done it
        assert end.phase is not Phase.OVER and end.winner is None
    else:
        assert end.phase is Phase.OVER and end.winner == winner
        assert end.scores == tuple(1 if p == winner else 0 for p in range(3))


@pytest.mark.rule("III-A-2", "XX-F")
def test_killing_one_of_two_equal_targets_wins() -> None:
    end = kill(execution(), "p3-c1-1", "p2-c2-1")
    assert end.phase is Phase.OVER and end.winner == 1


@pytest.mark.rule("III-A-2", "XX-F")
def test_each_player_draws_a_card_of_the_other_players() -> None:
    state, events = start(execution("random-card"))
    assert isinstance(state.scenario, BasicScenario) and state.scenario.targets == ((), (), ())
    # four enemy cards each: one die, faces 5 and 6 rolled again; value = face - 1
    faces = iter([5, 1, 6, 4, 2])
    while is_chance(state) and state.pending is not None and state.pending.kind == "scenario_draw":
        state, happened = roll(state, ScriptedRoller([next(faces)]))
        events.extend(happened)
    assert [e for e in events if isinstance(e, TargetsSet)] == [
        TargetsSet(0, ("p2-c1-1",), "p2-c1"),  # 1: the first of p2-c1, p2-c2, p3-c1, p3-c2
        TargetsSet(1, ("p3-c2-1", "p3-c2-2"), "p3-c2"),  # 4: the last of p1 and p3's cards
        TargetsSet(2, ("p1-c2-1", "p1-c2-2"), "p1-c2"),  # 2: the second of p1 and p2's cards
    ]
    end = kill(kill(state, "p1-c2-1", "p3-c1-1"), "p1-c2-2", "p3-c1-1")
    assert end.phase is Phase.OVER and end.winner == 2
