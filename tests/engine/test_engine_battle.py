"""Random play on a table: set-up, deployment, movement and shooting by random agents never
reach an illegal state, and the record replays to the same game.

Chapter VII is not plugged into the engine yet: these games use a TEST-ONLY combat phase
(``engine_support.passing_combat``) that resolves nothing, so fighters may stay in contact
from one round to the next.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.engine.core.events import Charged, Engaged, Event, Moved
from confrontation.engine.core.questions import Question
from confrontation.engine.core.state import GameState, state_from_json, state_to_json
from confrontation.engine.record import replay
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import start
from confrontation.engine.table.field import destinations, field_of
from confrontation.geometry.bases import max_enemies_in_contact
from confrontation.geometry.measure import distance, wholly_within
from engine_support import KindAgent, fighter, passing_combat_phase, play_out, profile

POTENTIAL = {"walk": 1, "run": 2, "cover": 1, "charge": 2, "engage": 2}


def armies(seed: int, rounds: int = 2) -> GameState:
    reaper, wolfen = profile("alahan-reaper"), profile("wolfen-hunter")
    soldier, archer = (
        fighter("Soldier"),
        fighter("Archer", aim=3, aim_str=4, ranges=(10.0, 20.0, 30.0)),
    )
    specs = [
        SideSpec("Lions", "lion", ((reaper, 2), (soldier, 2))),
        SideSpec("Wolves", "lion", ((wolfen, 1), (soldier, 2), (archer, 1))),
    ]
    return on_battlefield(game_from_specs(specs, rounds=rounds, seed=seed))


def check(state: GameState, events: list[Event]) -> None:
    """The invariants of a legal position and of the events of one step."""
    if state.battleground is None or state.battleground.scenery is None:
        return
    here = field_of(state)
    ids = list(here.ids())
    for fighter_id in ids:
        assert wholly_within(here.base(fighter_id), here.table.area), f"{fighter_id} off table"
    for k, a in enumerate(ids):
        for b in ids[k + 1 :]:
            overlap = here.base(a).polygon.intersection(here.base(b).polygon).area
            assert overlap < 1e-3, f"{a} and {b} overlap ({overlap:.4f} cm²)"
    for fighter_id in ids:  # II-E-3: never more enemies in contact than the size allows
        size = state.profile(state.fighter(fighter_id).profile).size
        count = len(here.enemies_in_contact(fighter_id))
        assert count <= max_enemies_in_contact(size), f"{fighter_id} ({size}) touches {count}"
    for event in events:
        if isinstance(event, Charged | Engaged) and state.fighter(event.fighter).in_play:
            for target in event.targets:
                if state.fighter(target).in_play:
                    assert target in here.enemies_in_contact(event.fighter), (
                        "assault not in contact"
                    )
        if isinstance(event, Moved) and state.fighter(event.fighter).in_play:
            mov = state.profile(state.fighter(event.fighter).profile).mov
            assert event.distance <= mov * POTENTIAL[event.action] + 1e-6, event
            if event.action in ("walk", "run", "cover"):
                me = state.fighter(event.fighter).player
                for other in ids:
                    if here.owners[other] != me:
                        gap = distance(here.base(event.fighter), here.base(other))
                        assert gap > 0.0, f"{event.action} of {event.fighter} ends in contact"


def play(seed: int, rounds: int = 4) -> tuple[GameState, list[Event]]:
    state, log = start(passing_combat_phase(armies(seed, rounds)))
    agents = [KindAgent(seed + 100), KindAgent(seed + 200)]

    def after(state: GameState, _: Question, events: list[Event]) -> None:
        check(state, events)
        log.extend(events)

    return play_out(state, agents, after), log


@pytest.mark.rule("III-B-2", "IV-B-2", "V-B", "V-D", "VI-A", "II-E")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_games_stay_legal_and_replay(seed: int) -> None:
    final, log = play(seed)
    kinds = {e.kind for e in log}
    assert {"deployed", "moved", "action_announced"} <= kinds
    assert replay(log) == final
    again, log_again = play(seed)
    assert again == final and log_again == log  # same seed, same game
    assert state_from_json(state_to_json(final)) == final


def crowd(seed: int) -> GameState:
    """Eight soldiers (MOV 15) in a ring 12 cm round two small imps (II-E-3 limit: 3)."""
    soldier, imp = fighter("Soldier", mov=15.0), fighter("Imp", size="small", mov=5.0)
    specs = [
        SideSpec("Many", "lion", ((soldier, 4), (soldier, 4))),
        SideSpec("Few", "lion", ((imp, 2),)),
    ]
    state = game_from_specs(specs, rounds=4, seed=seed)
    state = on_battlefield(state, scenery=(), zones=(0, 1), deploy=False)
    positions = {"p2-c1-1": (55.0, 30.0, 0.0), "p2-c1-2": (65.0, 30.0, 180.0)}
    for k in range(8):
        a = 2 * math.pi * k / 8
        spot = (60 + 12 * math.cos(a), 30 + 12 * math.sin(a), (math.degrees(a) + 180) % 360)
        positions[f"p1-c{1 + k // 4}-{1 + k % 4}"] = spot
    return place(state, positions)


@pytest.mark.rule("II-E-3")
def test_random_crowds_never_pass_the_contact_limits() -> None:
    """II-E-3 / CLARIFICATIONS §9: "A fighter already touched by his limit cannot be charged
    or engaged by one more enemy." Eight soldiers assail two small imps in seeded random
    games: after every step nobody touches more enemies than his size allows (``check``),
    and the imps do reach their limit of 3."""
    most = 0
    for seed in range(1, 13):
        state, _ = start(passing_combat_phase(crowd(seed)))
        agents = [KindAgent(seed + 100), KindAgent(seed + 200)]

        def after(state: GameState, _: Question, events: list[Event]) -> None:
            nonlocal most
            check(state, events)
            here = field_of(state)
            most = max([most, *(len(here.enemies_in_contact(i)) for i in here.ids())])

        play_out(state, agents, after)
    assert most == 3


@settings(max_examples=15, deadline=None)
@given(
    x=st.floats(10, 110),
    y=st.floats(5, 55),
    facing=st.floats(0, 359),
    ex=st.floats(10, 110),
    ey=st.floats(5, 55),
)
def test_every_walk_destination_is_legal(
    x: float, y: float, facing: float, ex: float, ey: float
) -> None:
    if math.dist((x, y), (ex, ey)) < 4.0:
        return
    specs = [
        SideSpec("A", "lion", ((fighter("Walker"), 1),)),
        SideSpec("B", "lion", ((fighter("Enemy"), 1),)),
    ]
    state = on_battlefield(game_from_specs(specs), scenery=(), zones=(0, 1), deploy=False)
    state = place(state, {"p1-c1-1": (x, y, facing), "p2-c1-1": (ex, ey, 0.0)})
    here = field_of(state)
    start_base = here.base("p1-c1-1")
    for spot in destinations(state, "p1-c1-1", 10.0):
        base = start_base.moved(spot.x, spot.y, spot.facing)
        assert math.dist(base.sight, start_base.sight) <= 10.0 + 1e-6
        assert distance(base, here.base("p2-c1-1")) > 0.0
        assert wholly_within(base, here.table.area)
