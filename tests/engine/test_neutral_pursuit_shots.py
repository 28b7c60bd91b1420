"""XX-E-5: when a neutral fighter is killed by fighters of both players, the player with the
best initiative result pursues first or lets his opponent pursue first; XX-F-4: a shot into a
melee of three sides (a neutral fighter in it) hits, when the target is not hit, the nearest
fighter to the shooter of a side other than the target's."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

import pytest

from confrontation.engine.combat.phase import PursueFirst
from confrontation.engine.combat.questions import AllocateDice, MakeAttack, NameFighter, Pursue
from confrontation.engine.core.events import Event, ShotHit, Wounded
from confrontation.engine.core.questions import AnnouncementsDone, Choice, DieFace, Shoot
from confrontation.engine.core.state import NEUTRAL, GameState, Phase, ProfileSummary
from confrontation.engine.neutral import NeutralSpec, add_neutrals
from confrontation.engine.setup.game import SideSpec, game_from_specs
from confrontation.engine.step import advance, legal, question, step
from confrontation.engine.table.field import field_of
from engine_support import activate, answer, fighter, plugged, profile, skirmish

JACKAL, CLONE, SENTINEL, ANIMAL = "p1-c1-1", "p2-c1-1", "p2-c2-1", "n-c1-1"
E = TypeVar("E", bound=Event)


def _of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def _card(pid: str, ap: int, res: int = 12) -> ProfileSummary:
    return ProfileSummary(pid, pid.title(), "x", 3, ini=3, att=3, strength=0, res=res, ap=ap)


def _combat() -> GameState:
    """The XX-E-4 animal (RES 1) against a jackal (Orc) and a clone and a sentinel (Scorpion)."""
    orc = SideSpec("Orcs", "orc", ((_card("jackal", 23), 1),))
    scorpion = SideSpec(
        "Scorpion", "scorpion", ((_card("clone", 10), 1), (_card("sentinel", 27), 1))
    )
    state = add_neutrals(game_from_specs([orc, scorpion]), [NeutralSpec(_card("animal", 35, 1))])
    return dataclasses.replace(state, phase=Phase.COMBAT)


def _play(state: GameState, *inputs: Choice | int) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for item in inputs:
        choice = DieFace(item) if isinstance(item, int) else item
        assert choice in legal(state), f"{choice!r} at {state.pending}"
        state, happened = step(state, choice)
        events.extend(happened)
    return state, events


def _step_aside(state: GameState, fighter: str, reach: int) -> list[Pursue]:
    me = state.fighter(fighter)
    return [
        Pursue(fighter, (), "stay in place"),
        Pursue(fighter, (), "step", x=me.x + 1, y=me.y, facing=0.0, distance=1.0),
    ]


@pytest.mark.rule("XX-E-5", "XX-F-6")
@pytest.mark.parametrize(
    ("first", "order"),
    [(1, [CLONE, SENTINEL, JACKAL]), (0, [JACKAL, CLONE, SENTINEL])],
)
def test_the_best_initiative_pursues_first_or_lets_his_opponent(
    first: int, order: list[str]
) -> None:
    star = [(ANIMAL, JACKAL), (ANIMAL, CLONE), (ANIMAL, SENTINEL)]
    state, _ = advance(plugged(_combat(), contacts=lambda s: list(star), pursuits=_step_aside))
    state, _ = _play(
        state,
        NameFighter(SENTINEL), 4, 2,  # the Authority roll: Scorpion
        AllocateDice(CLONE, 1, 1), AllocateDice(JACKAL, 1, 1), AllocateDice(SENTINEL, 2, 0),
        NameFighter(SENTINEL), 1, 5, 3,  # initiative: Orc 4, Scorpion 8, animal 6
        MakeAttack(CLONE, ANIMAL), 6, 6,  # killed outright
    )  # fmt: skip
    asked = question(state)
    # Scorpion, best initiative, is asked (not the Orc, not the dead animal's side).
    assert asked is not None and (asked.kind, asked.player) == ("pursue_first", 1)
    assert {c for c in asked.choices} == {PursueFirst(1), PursueFirst(0)}
    state, _ = _play(state, PursueFirst(first))
    pursuers = []
    for _ in range(3):
        q = question(state)
        assert q is not None and q.kind == "pursue" and q.player != NEUTRAL
        move = q.choices[1]
        assert isinstance(move, Pursue)
        pursuers.append(move.fighter)
        state, _ = step(state, move)
    assert pursuers == order


# --- XX-F-4 ------------------------------------------------------------------------------------


def _melee_of_three() -> GameState:
    """A Reaper (player 1) shoots at a beast (neutral) in contact with his friend and with an
    enemy guard (player 2); the guard is nearer to the Reaper than the friend."""
    reaper, friend, guard = profile("alahan-reaper"), fighter("Friend"), fighter("Guard")
    positions = {
        "p1-c1-1": (30, 28, 0),
        "p1-c2-1": (45, 32.5, 270),
        "p2-c1-1": (45, 27.5, 90),
    }
    state = skirmish([[(reaper, 1), (friend, 1)], [(guard, 1)]], positions)
    return add_neutrals(state, [NeutralSpec(fighter("Beast"), 45, 30, 180)])


@pytest.mark.rule("XX-F-4", "VI-B-1")
@pytest.mark.parametrize(
    ("face", "victim"),
    [(2, "p2-c1-1"), (5, ANIMAL)],
)
def test_a_shot_into_a_melee_of_three_sides(face: int, victim: str) -> None:
    state = _melee_of_three()
    assert sorted(field_of(state).contacts(ANIMAL)) == ["p1-c2-1", "p2-c1-1"]
    log: list[Event] = []
    state = activate(state, "p1-c1", log)  # the beast, engaged, waits for the end
    state = answer(state, AnnouncementsDone(), log)
    state = answer(state, Shoot("p1-c1-1", ANIMAL), log)
    state = answer(state, DieFace(5), log)  # AIM 4 + 5: hit
    assert state.pending is not None and state.pending.kind == "distribution_die"
    for die in (face, 1, 2):  # the distribution, then a harmless wound roll
        state = answer(state, DieFace(die), log)
    # 1-3: not the friend of VI-B-1 but the guard, nearer the shooter (XX-F-4).
    assert _of(log, ShotHit) == [ShotHit("p1-c1-1", ANIMAL, victim, face)]
    assert _of(log, Wounded)[0].fighter == victim


@pytest.mark.rule("XX-F-4", "VI-B-1")
def test_with_the_friend_nearer_the_friend_is_hit_as_in_a_melee_of_two() -> None:
    state = _melee_of_three()
    # The guard steps to the far side: the friend is now the nearest to the shooter.
    state = state.with_fighters(dataclasses.replace(state.fighter("p2-c1-1"), x=47.5, y=29))
    assert sorted(field_of(state).contacts(ANIMAL)) == ["p1-c2-1", "p2-c1-1"]
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = answer(state, AnnouncementsDone(), log)
    state = answer(state, Shoot("p1-c1-1", ANIMAL), log)
    for die in (5, 3, 1, 2):
        state = answer(state, DieFace(die), log)
    assert _of(log, ShotHit) == [ShotHit("p1-c1-1", ANIMAL, "p1-c2-1", 3)]
