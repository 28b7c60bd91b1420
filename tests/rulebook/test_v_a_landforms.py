"""V-A landforms of the fighter's own size, played through the engine on a real table.

The book (V-A): "In the case of a wall or any type of landform, a fighter can pass through it
without penalty if the landform is smaller. If it is of the same size, he can cross it if he
does not move more than MOV x 1. Landforms larger than the fighter are uncrossable."

CLARIFICATIONS §9: "'He can cross it if he does not move more than MOV × 1' counts the
distance the fighter actually moves in that movement, whatever the action: a run, an assault
or a pursuit whose whole path is at most MOV × 1 cm may cross a landform of his size; a longer
one may not."

Square 25 mm bases; facing 0° looks along +x, so a fighter at (x, y, 0) has his sight at
(x + 1.25, y). Every fighter here is of normal size, MOV 10, and every wall is a passable
landform of normal height: the fighters' own size.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from confrontation.agents.greedy import _reachable
from confrontation.engine.combat import events as ce
from confrontation.engine.combat.questions import AllocateDice, Defend, Pursue
from confrontation.engine.core.events import (
    AssaultFellShort,
    Charged,
    Engaged,
    Event,
    FighterKilled,
    Moved,
    ShotFired,
    ShotMissed,
)
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    DieFace,
    KeepResult,
    Place,
    Redirect,
    TakeCover,
)
from confrontation.engine.core.state import GameState, Phase, SceneryPiece
from confrontation.engine.step import advance, legal, question, step
from confrontation.engine.table.field import field_of, piece_of
from confrontation.geometry.scenery import Scenery
from engine_support import activate, answer, fighter, only, profile, skirmish

A, Z = "p1-c1-1", "p2-c1-1"


def _wall(x: float, y: float, width: float, depth: float) -> SceneryPiece:
    """A passable landform of normal height (a normal-size fighter's own size)."""
    return piece_of(Scenery.rect("wall", x, y, width, depth, height="normal"))


# A wall 1 cm thick from y = 10 to y = 50 across x = 34.5-35.5: going round it is long.
WALL = _wall(35.0, 30.0, 1.0, 40.0)
WALL_SHAPE = Scenery.rect("wall", 35.0, 30.0, 1.0, 40.0, height="normal").footprint


def _assault(target_x: float) -> tuple[GameState, list[Event]]:
    """A (MOV 10, at (30, 30) facing the wall) assaults Z standing behind the wall, the edge
    of Z's base ``target_x - 1.25 - 31.25`` cm from A's sight. The wall hides Z (it is as
    large as both): the assault is an engagement (V-B-3)."""
    positions = {A: (30.0, 30.0, 0.0), Z: (target_x, 30.0, 180.0)}
    state = skirmish([[(fighter("A"), 1)], [(fighter("Z"), 1)]], positions, scenery=[WALL])
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    [declared] = [
        c
        for c in legal(state)
        if isinstance(c, Announce) and c.fighter == A and c.target == Z and not c.shoot
    ]
    assert declared.action == "engage"  # not seen through a wall of his size
    state = answer(state, declared, log)
    state = answer(state, AnnouncementsDone(), log)
    return state, log


@pytest.mark.rule("V-A", "V-B-3")
def test_an_assault_of_at_most_mov_x_1_crosses_a_landform_of_his_size() -> None:
    """V-A: "If it is of the same size, he can cross it if he does not move more than
    MOV x 1"; §9: "an assault ... whose whole path is at most MOV × 1 cm may cross a
    landform of his size". Z's base is 7.5 cm from A's sight straight across the wall:
    the assault (potential MOV x 2 = 20) reaches contact by crossing it (the way round is
    about 44 cm: today's engine went round and fell short)."""
    state, log = _assault(40.0)
    assert not only(log, AssaultFellShort)
    [engaged] = only(log, Engaged)
    assert engaged == Engaged(A, (Z,), 7.5)
    assert field_of(state).enemies_in_contact(A) == [Z]
    a = state.fighter(A)
    assert a.x > 35.5  # on the far side of the wall


@pytest.mark.rule("V-A", "V-B-3")
def test_an_assault_longer_than_mov_x_1_goes_round_the_landform_of_his_size() -> None:
    """§9: "a longer one may not": Z 12.5 cm from A's sight across the wall; crossing
    would be a move of more than MOV x 1 (10 cm), so the assault is measured round the
    wall (about 45 cm, more than its potential of 20 cm) and falls short, moving the whole
    potential along that way (V-B-3) — never through the wall. (Today's engine went round
    too; this is the other half of the rule, kept beside the first.)"""
    state, log = _assault(45.0)
    [fell] = only(log, AssaultFellShort)
    assert fell.distance is not None and fell.distance > 40.0  # measured round the wall
    assert not only(log, Engaged) and not only(log, Charged)
    a = state.fighter(A)
    assert a.x < 34.5 - 1.0  # still on his side of the wall, gone along it
    assert abs(a.y - 30.0) > 9.0


@pytest.mark.rule("V-A", "V-B-3")
def test_an_assault_within_mov_x_1_may_end_on_a_landform_of_his_size() -> None:
    """V-A: "If it is of the same size, he can cross it if he does not move more than
    MOV x 1"; a movement allowed to cross the landform may end on it (docs/rulings.md, "V-A —
    ending a movement on a landform"), as a walk may. Z stands with his back against the wall
    (his base touches its far face): the only places in contact are partly on the wall. A's
    sight moves 4.25 cm (at most MOV x 1 = 10): he engages Z with his base over the wall
    (the engine refused any place on the wall to an assault and let it fall short)."""
    state, log = _assault(35.5 + 1.25)
    assert not only(log, AssaultFellShort)
    [engaged] = only(log, Engaged)
    assert engaged.targets == (Z,) and engaged.distance == pytest.approx(4.25, abs=0.01)
    here = field_of(state)
    assert here.enemies_in_contact(A) == [Z]
    assert here.base(A).polygon.intersection(WALL_SHAPE).area > 1.0  # standing on the wall


@pytest.mark.rule("V-A", "V-B-2")
def test_a_run_is_offered_destinations_across_a_landform_of_his_size_within_mov_x_1() -> None:
    """V-A: "he can cross it if he does not move more than MOV x 1"; §9: "a run ... whose
    whole path is at most MOV × 1 cm may cross a landform of his size; a longer one may
    not". A runs (potential 20 cm) with the wall 3.25 cm in front of his sight: the
    engine offers places beyond the wall reached by a move of at most 10 cm (today it
    offered none), and none beyond it farther than that."""
    positions = {A: (30.0, 30.0, 0.0), Z: (100.0, 30.0, 180.0)}
    state = skirmish([[(fighter("A"), 1)], [(fighter("Z"), 1)]], positions, scenery=[WALL])
    state = activate(state, "p1-c1")
    state = answer(state, Announce(A, "run"), [])
    state = answer(state, AnnouncementsDone(), [])
    assert state.pending is not None and state.pending.kind == "destination"
    start = field_of(state).base(A)
    across = []
    for place in legal(state):
        if not isinstance(place, Place):
            continue
        end = start.moved(place.x, place.y, place.facing)
        moved = math.dist(start.sight, end.sight)
        assert moved <= 20.0 + 1e-6
        if min(x for x, _ in end.corners()) >= 35.5:  # wholly beyond the wall
            assert moved <= 10.0 + 1e-6, (place, moved)
            across.append(place)
    assert across
    log: list[Event] = []
    state = answer(state, across[0], log)
    [went] = only(log, Moved)
    assert went.distance <= 10.0 and state.fighter(A).x == across[0].x


def _reaper_redirect() -> tuple[GameState, list[Event]]:
    """A Reaper (MOV 10) charges a fighter 12.5 cm away with an assault shot and kills him
    before moving (VI-B-3; faces as in test_v_vi_engine): he then goes where the target
    stood (12.25 cm) and may turn the rest of his charge into a run (V-B-3). Behind that
    spot stands a wall of his size."""
    wall = _wall(48.5, 30.0, 1.0, 40.0)
    reaper, target = profile("alahan-reaper"), fighter("Target")
    # a second enemy far off: the game goes on once the target falls (XX-A-4, wiped out)
    positions = {A: (30.0, 30.0, 0.0), Z: (45.0, 30.0, 180.0), "p2-c2-1": (110.0, 55.0, 180.0)}
    cards = [[(reaper, 1)], [(target, 1), (fighter("Far"), 1)]]
    state = skirmish(cards, positions, scenery=[wall])
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = answer(state, Announce(A, "charge", Z, shoot=True), log)
    state = answer(state, AnnouncementsDone(), log)
    if state.pending is not None and state.pending.kind == "take_cover":
        state = answer(state, TakeCover(False), log)
    for face in (5, 6, 6):  # hit (AIM 4 + 5), then a double 6: Killed Outright
        state = answer(state, DieFace(face), log)
    assert only(log, FighterKilled) == [FighterKilled(Z, A)]
    assert state.pending is not None and state.pending.kind == "redirect"
    return state, log


@pytest.mark.rule("V-A", "V-B-3")
def test_a_redirected_run_after_more_than_mov_x_1_may_not_cross_a_landform_of_his_size() -> None:
    """§9 counts "the distance the fighter actually moves in that movement": after
    12.25 cm towards where his target stood, the Reaper's run with the 7.75 cm left is a
    movement of more than MOV x 1 (10 cm) in all, so it may not cross the wall of his size
    (today's engine judged the 7.75 cm alone and offered places beyond it)."""
    state, log = _reaper_redirect()
    [went] = only(log, Moved)
    assert went.distance == pytest.approx(12.25)
    state = answer(state, Redirect(run=True), log)
    assert state.pending is not None and state.pending.kind == "destination"
    start = field_of(state).base(A)
    places = [c for c in legal(state) if isinstance(c, Place)]
    assert places
    for place in places:
        end = start.moved(place.x, place.y, place.facing)
        assert math.dist(start.sight, end.sight) <= 7.75 + 1e-6
        assert max(x for x, _ in end.corners()) <= 48.0 + 1e-6, place  # this side of it


# --- pursuit (VII-C-6) --------------------------------------------------------------------

B, Y, X = "p1-c1-1", "p2-c1-1", "p2-c1-2"


def _pursuit() -> tuple[GameState, list[Event]]:
    """A Praetorian Guard B (MOV 10: pursuit 5 cm), facing down the table, kills the Dawn
    Warrior Y touching his right side (6-6: killed outright). X stands below B beyond a
    wall of their size lying 1.25 cm below B's base: 4.85 cm from B's sight straight
    across it, more than 20 cm round it."""
    wall = _wall(50.0, 27.0, 20.0, 1.0)  # y 26.5-27.5, x 40-60
    positions = {B: (50.0, 30.0, 270.0), Y: (52.5, 30.0, 180.0), X: (50.0, 22.65, 90.0)}
    cards = [[(profile("praetorian-guard"), 1)], [(profile("dawn-warrior"), 2)]]
    state = skirmish(cards, positions, scenery=[wall])
    state, log = advance(dataclasses.replace(state, phase=Phase.COMBAT))
    script: list[Choice | int] = [
        6,
        1,
        KeepResult(),
        AllocateDice(Y, 0, 2),
        AllocateDice(B, 2, 0),
        6,
        1,
        KeepResult(),
        Defend(0),
        6,
        6,
    ]
    for item in script:
        asked = question(state)
        assert asked is not None, item
        if asked.kind == "name_fighter":  # authority: Player 1's fighter speaks first
            choice: Choice = next(c for c in legal(state) if getattr(c, "fighter", None) == B)
            state, events = step(state, choice)
            log.extend(events)
            asked = question(state)
            assert asked is not None
        choice = DieFace(item) if isinstance(item, int) else item
        assert choice in legal(state), (choice, asked.kind)
        state, events = step(state, choice)
        log.extend(events)
    assert not state.fighter(Y).alive
    return state, log


@pytest.mark.rule("V-A", "VII-C-6")
def test_a_pursuit_crosses_a_landform_of_his_size() -> None:
    """§9: "a pursuit ... whose whole path is at most MOV × 1 cm may cross a landform of
    his size" (V-A: "he can cross it if he does not move more than MOV x 1"). B's pursuit
    (MOV/2 = 5 cm) engages X 4.85 cm away across the wall; today's engine measured the way
    round and offered no such move."""
    state, _ = _pursuit()
    asked = question(state)
    assert asked is not None and asked.kind == "pursue"
    moves = [c for c in legal(state) if isinstance(c, Pursue) and X in c.engage]
    assert len(moves) == 1
    [move] = moves
    assert move.distance == pytest.approx(4.85, abs=0.01)
    state, events = step(state, move)
    [pursued] = only(events, ce.Pursued)
    assert pursued.engaged == (X,)
    assert field_of(state).enemies_in_contact(B) == [X]
    assert state.fighter(B).y < 26.5  # beyond the wall


# --- the AI's reach estimate ----------------------------------------------------------------


@pytest.mark.rule("V-A", "V-B-3")
def test_the_greedy_agent_knows_an_assault_crosses_a_landform_within_mov_x_1() -> None:
    """The agents' reach estimate follows §9: Z 7.5 cm away across the wall is within the
    assault's reach (today: judged out of reach, the way round being 44 cm); 12.5 cm away
    across it (a move of more than MOV x 1) he is not."""
    for target_x, reached in ((40.0, True), (45.0, False)):
        positions = {A: (30.0, 30.0, 0.0), Z: (target_x, 30.0, 180.0)}
        state = skirmish([[(fighter("A"), 1)], [(fighter("Z"), 1)]], positions, scenery=[WALL])
        assert _reachable(state, state.fighter(A), state.fighter(Z)) is reached


# --- the reach of an assault shot (VI-B-3) ----------------------------------------------------


@pytest.mark.rule("V-A", "VI-B-3")
def test_an_assault_shot_reaches_across_a_landform_within_mov_x_1() -> None:
    """VI-B-3 fires an assault shot only at a target the assault can reach; §9: "an assault
    ... whose whole path is at most MOV × 1 cm may cross a landform of his size". Two walls
    of the Reaper's size leave a 1 cm slit he sees through but cannot pass (V-A: narrower
    than his base); the target stands 7.5 cm away across them: the shot is fired (today's
    engine measured the 44 cm way round and lost it as beyond reach)."""
    walls = [_wall(35.0, 19.75, 1.0, 19.5), _wall(35.0, 40.25, 1.0, 19.5)]  # slit y 29.5-30.5
    reaper, target = profile("alahan-reaper"), fighter("Target")
    positions = {A: (30.0, 30.0, 0.0), Z: (40.0, 30.0, 180.0)}
    state = skirmish([[(reaper, 1)], [(target, 1)]], positions, scenery=walls)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    assert field_of(state).sight(A, Z).any  # seen through the slit: a charge
    state = answer(state, Announce(A, "charge", Z, shoot=True), log)
    state = answer(state, AnnouncementsDone(), log)
    if state.pending is not None and state.pending.kind == "take_cover":
        state = answer(state, TakeCover(False), log)
    assert not [m for m in only(log, ShotMissed) if "beyond the reach" in m.reason]
    [fired] = only(log, ShotFired)
    assert fired.shooter == A and fired.distance == 7.5  # 7, +1 partially seen (VI-A-3)
