"""Chapters V and VI played through the engine: the worked examples and rule sentences that
involve its sequencing (announcing, measuring after declaring, charge markers, the Defense
counter, the Reaper's shot with fixed dice, the unmoving shot, the assault-shooting order).
The pure arithmetic is tested in test_v_movement.py and test_vi_shooting.py."""

from __future__ import annotations

import dataclasses
import math

import pytest

from confrontation.engine.actions.movement import turned
from confrontation.engine.core.events import (
    AssaultFellShort,
    Charged,
    Disengaged,
    DisengageFailed,
    Event,
    FighterKilled,
    Moved,
    ShotFired,
    ShotHit,
    ShotMissed,
    TestRolled,
    Wounded,
)
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import (
    FREE_FACING,
    Announce,
    AnnouncementsDone,
    DieFace,
    EndActivation,
    KeepResult,
    Place,
    Redirect,
    RotateCharged,
    Shoot,
    TakeCover,
    Walk,
)
from confrontation.engine.core.registry import IllegalChoice
from confrontation.engine.core.state import GameState
from confrontation.engine.record import event_line, read_log, replay
from confrontation.engine.step import legal, question, refusal, step
from confrontation.engine.table.field import field_of, piece_of
from confrontation.geometry.measure import distance
from confrontation.geometry.scenery import Scenery
from engine_support import activate, answer, fighter, only, profile, skirmish

P1, P2 = 0, 1


def announce(state: GameState, log: list[Event], *choices: Announce) -> GameState:
    for choice in choices:
        assert choice in legal(state), choice
        state = answer(state, choice, log)
    return answer(state, AnnouncementsDone(), log)


# --- V-B-3 assaults -------------------------------------------------------------------------


@pytest.mark.rule("V-B-3", "V-D")
def test_a_charge_measured_after_declaring_ends_in_contact_with_the_charged_marker() -> None:
    a, z = fighter("A"), fighter("Z")
    state = skirmish([[(a, 1)], [(z, 1)]], {"p1-c1-1": (30, 20, 0), "p2-c1-1": (42, 20, 180)})
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    options = legal(state)
    assert Announce("p1-c1-1", "charge", "p2-c1-1") in options  # Z is seen: a charge
    assert not any(isinstance(c, Walk | Shoot | EndActivation) for c in options)  # IV-B-2
    state = announce(state, log, Announce("p1-c1-1", "charge", "p2-c1-1"))
    [charged] = only(log, Charged)
    assert charged == Charged("p1-c1-1", ("p2-c1-1",), 9.5, ("p2-c1-1",))
    assert field_of(state).enemies_in_contact("p1-c1-1") == ["p2-c1-1"]
    assert state.fighter("p2-c1-1").charged and state.fighter("p2-c1-1").attacked
    told = narrate(log)
    assert "Round 1 — A (p1-c1-1) charges Z (p2-c1-1) (9.5 cm); Z (p2-c1-1) charged." in told


@pytest.mark.rule("V-B-3")
def test_charge_penalty_examples_a_and_b_through_the_engine() -> None:
    # A's charge on Z (both Power 1) penalises Z; B's (Power 1) on Y (Power 2) does not.
    ab, z, y = fighter("Charger"), fighter("Z"), fighter("Y", size="large", power=2)
    positions = {
        "p1-c1-1": (30, 15, 0),
        "p1-c1-2": (30, 45, 0),
        "p2-c1-1": (42, 15, 180),
        "p2-c2-1": (43, 45, 180),
    }
    state = skirmish([[(ab, 2)], [(z, 1), (y, 1)]], positions)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = announce(
        state,
        log,
        Announce("p1-c1-1", "charge", "p2-c1-1"),
        Announce("p1-c1-2", "charge", "p2-c2-1"),
    )
    charges = only(log, Charged)
    assert [(c.fighter, c.targets, c.penalised) for c in charges] == [
        ("p1-c1-1", ("p2-c1-1",), ("p2-c1-1",)),
        ("p1-c1-2", ("p2-c2-1",), ()),
    ]
    assert state.fighter("p2-c1-1").charged and not state.fighter("p2-c2-1").charged


@pytest.mark.rule("V-B-3", "IV-B-2")
def test_charge_penalty_example_f_and_g_add_up_in_the_same_round() -> None:
    # F and G (Power 1) charge W (Power 2) in the same turn: W is penalised by the second.
    fg, w = fighter("F"), fighter("W", size="large", power=2)
    positions = {"p1-c1-1": (33, 26, 0), "p1-c1-2": (33, 34, 0), "p2-c1-1": (45, 30, 180)}
    state = skirmish([[(fg, 2)], [(w, 1)]], positions)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = announce(
        state,
        log,
        Announce("p1-c1-1", "charge", "p2-c1-1"),
        Announce("p1-c1-2", "charge", "p2-c1-1"),
    )
    charges = only(log, Charged)
    assert [c.penalised for c in charges] == [(), ("p2-c1-1",)]
    assert state.fighter("p2-c1-1").charged


@pytest.mark.rule("V-B-3")
@pytest.mark.parametrize(("power", "size", "penalised"), [(1, "normal", False), (2, "large", True)])
def test_charge_penalty_examples_h_and_i_charging_two_fighters(
    power: int, size: str, penalised: bool
) -> None:
    # H (Power 1) charging V and U (Power 1) penalises neither; I (Power 2) penalises both.
    charger, vu = fighter("Charger", size=size, power=power), fighter("V")
    positions = {"p1-c1-1": (33, 31.25, 0), "p2-c1-1": (45, 30, 180), "p2-c1-2": (45, 32.5, 180)}
    state = skirmish([[(charger, 1)], [(vu, 2)]], positions)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = announce(state, log, Announce("p1-c1-1", "charge", "p2-c1-1"))
    if state.pending is not None and state.pending.kind == "assault_contact":
        both = [
            c
            for c in legal(state)
            if isinstance(c, Place) and _contacts_both(state, c, ("p2-c1-1", "p2-c1-2"))
        ]
        assert both, "a place in contact with both V and U is offered"
        state = answer(state, both[0], log)
    [charged] = only(log, Charged)
    assert charged.targets == ("p2-c1-1", "p2-c1-2")
    assert charged.penalised == (("p2-c1-1", "p2-c1-2") if penalised else ())


def _contacts_both(state: GameState, place: Place, targets: tuple[str, ...]) -> bool:
    from confrontation.geometry.contact import in_contact

    here = field_of(state)
    base = here.base("p1-c1-1").moved(place.x, place.y, place.facing)
    return all(in_contact(base, here.base(t)) for t in targets)


@pytest.mark.rule("V-B-3")
@pytest.mark.parametrize(("size", "power", "offered"), [("normal", 1, True), ("large", 2, False)])
def test_a_charger_may_turn_only_charged_fighters_of_no_greater_total_power(
    size: str, power: int, offered: bool
) -> None:
    a, b = fighter("A"), fighter("B", size=size, power=power)
    state = skirmish([[(a, 1)], [(b, 1)]], {"p1-c1-1": (30, 30, 0), "p2-c1-1": (42, 30, 90)})
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = announce(state, log, Announce("p1-c1-1", "charge", "p2-c1-1"))
    if not offered:
        assert state.pending is None or state.pending.kind != "rotate_charged"
        return
    assert state.pending is not None and state.pending.kind == "rotate_charged"
    assert legal(state) == [RotateCharged(()), RotateCharged(("p2-c1-1",))]
    state = answer(state, RotateCharged(("p2-c1-1",)), log)
    assert abs(state.fighter("p2-c1-1").facing % 360 - 180) < 1.0  # now facing A
    assert field_of(state).enemies_in_contact("p1-c1-1") == ["p2-c1-1"]


@pytest.mark.rule("V-B-3")
def test_an_assault_out_of_reach_moves_the_whole_potential_towards_the_target() -> None:
    a, z = fighter("A"), fighter("Z")
    state = skirmish([[(a, 1)], [(z, 1)]], {"p1-c1-1": (20, 30, 0), "p2-c1-1": (60, 30, 180)})
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = announce(state, log, Announce("p1-c1-1", "charge", "p2-c1-1"))
    [fell] = only(log, AssaultFellShort)
    assert fell.distance == 37.5 and 19.5 <= fell.moved <= 20.0
    assert not only(log, Charged) and not field_of(state).enemies_in_contact("p1-c1-1")


# --- V-B-1 walks and V-C disengagement ---------------------------------------------------------


@pytest.mark.rule("V-B-1", "V-D")
def test_walk_destinations_are_within_mov_and_never_in_contact() -> None:
    a, z = fighter("A"), fighter("Z")
    state = skirmish([[(a, 1)], [(z, 1)]], {"p1-c1-1": (30, 30, 0), "p2-c1-1": (40, 30, 180)})
    state = activate(state, "p1-c1")
    state = answer(state, AnnouncementsDone(), [])
    state = answer(state, Walk("p1-c1-1"), [])
    assert state.pending is not None and state.pending.kind == "destination"
    here = field_of(state)
    start = here.base("p1-c1-1")
    places = [c for c in legal(state) if isinstance(c, Place)]
    assert len(places) >= 8
    for place in places:
        end = start.moved(place.x, place.y, place.facing)
        moved = ((end.sight[0] - start.sight[0]) ** 2 + (end.sight[1] - start.sight[1]) ** 2) ** 0.5
        assert moved <= 10.0 + 1e-6
        assert distance(end, here.base("p2-c1-1")) > 0.0
    log: list[Event] = []
    state = answer(state, places[0], log)
    assert only(log, Moved) and state.fighter("p1-c1-1").walked
    assert Walk("p1-c1-1") not in legal(state)  # V-B-1: one walk per round


def _walking(action: str = "walk") -> tuple[GameState, list[Event], Place]:
    """A walks (or runs) with Z 10 cm away; the destination farthest from Z (room round it)."""
    a, z = fighter("A"), fighter("Z")
    positions = {"p1-c1-1": (30, 30, 0), "p2-c1-1": (40, 30, 180)}
    state = skirmish([[(a, 1)], [(z, 1)]], positions)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    if action == "walk":
        state = answer(state, AnnouncementsDone(), log)
        state = answer(state, Walk("p1-c1-1"), log)
    else:
        state = announce(state, log, Announce("p1-c1-1", action))
    assert state.pending is not None and state.pending.kind == "destination"
    places = [c for c in legal(state) if isinstance(c, Place)]
    far = max(places, key=lambda c: (c.x - 40) ** 2 + (c.y - 30) ** 2)
    return state, log, far


@pytest.mark.rule("V-B-1", "V-A")
def test_a_walk_ends_facing_any_angle_the_player_gives() -> None:
    """V-B-1: "At the end of a walk a fighter can be turned in any direction, at the
    controlling player's choice"; CLARIFICATIONS §9: "a person must be able to give any
    angle". The base turns about its sight (V-A), so the move's length does not change; the
    record keeps the angle and replays."""
    state, log, far = _walking()
    question_ = question(state)
    assert question_ is not None and question_.free == FREE_FACING
    here = field_of(state)
    start = here.base("p1-c1-1")
    facing = turned(state, far, 137.5)
    assert facing not in legal(state)  # not among the listed ones: a free answer
    assert refusal(state, facing) is None
    state = answer(state, facing, log)
    walker = state.fighter("p1-c1-1")
    assert walker.facing == 137.5
    end = field_of(state).base("p1-c1-1")
    assert end.sight == pytest.approx(start.moved(far.x, far.y, far.facing).sight, abs=1e-3)
    [moved] = only(log, Moved)
    assert moved.facing == 137.5 and moved.distance == pytest.approx(
        math.dist(start.sight, end.sight), abs=0.01
    )
    text = "".join(event_line(e) + "\n" for e in log)
    assert replay(read_log(text.splitlines())) == state


@pytest.mark.rule("V-B-2", "V-B-4")
@pytest.mark.parametrize("action", ["run", "cover"])
def test_a_run_or_a_move_under_cover_ends_facing_any_angle(action: str) -> None:
    """V-B-2: "At the end of a run, a fighter can be oriented in any direction, at the choice
    of the player controlling it" (CLARIFICATIONS §9, "Facing after a move"); a move under
    cover is a movement action too (V-A: "any rotation ... around his sight is free")."""
    state, log, far = _walking(action)
    state = answer(state, turned(state, far, 301.25), log)
    assert state.fighter("p1-c1-1").facing == 301.25


@pytest.mark.rule("V-B-1")
@pytest.mark.parametrize("angle", [360.0, -10.0, math.nan, math.inf])
def test_a_facing_outside_0_to_360_degrees_is_refused(angle: float) -> None:
    """CLARIFICATIONS §9: "a person must be able to give any angle" — an angle, from 0° up to
    360° (excluded); anything else is refused with a clear error."""
    state, _, far = _walking()
    with pytest.raises(IllegalChoice, match="at least 0° and less than 360°"):
        step(state, Place(far.x, far.y, angle))


@pytest.mark.rule("V-B-1", "V-B")
def test_a_free_facing_keeps_a_listed_sight_and_a_legal_base() -> None:
    """The facing is free, the destination is not: a place whose sight is no listed
    destination's is refused, and so is a turn that would put the base on Z's (V-B-1: "a
    fighter can never reach an enemy at the end of a walk")."""
    state, _, far = _walking()
    with pytest.raises(IllegalChoice, match="no listed destination"):
        step(state, Place(far.x + 3, far.y, 10.0))
    near = Place(35.25, 30.0, 0.0)  # straight at Z, stopping 0.5 cm short of his base
    assert near in legal(state)
    with pytest.raises(IllegalChoice, match="his base would be on another fighter's base"):
        step(state, turned(state, near, 137.5))


def _in_contact_game(ini: int = 3) -> GameState:
    a, b = fighter("A", ini=ini, strength=5), fighter("B", size="small", strength=2)
    state = skirmish([[(a, 1)], [(b, 1)]], {"p1-c1-1": (30, 30, 0), "p2-c1-1": (32.5, 30, 180)})
    assert field_of(state).enemies_in_contact("p1-c1-1") == ["p2-c1-1"]
    return state


@pytest.mark.rule("V-C")
def test_a_failed_disengagement_gives_the_defense_counter() -> None:
    state = activate(_in_contact_game(), "p1-c1")
    options = legal(state)
    assert Announce("p1-c1-1", "engage", "p2-c1-1", "agility") in options
    assert Announce("p1-c1-1", "engage", "p2-c1-1", "force") in options  # bigger, STR 5 - 2
    assert Announce("p1-c1-1", "run") not in options  # not free of enemies
    log: list[Event] = []
    state = answer(state, AnnouncementsDone(), log)
    state = answer(state, Walk("p1-c1-1", "agility"), log)
    state = answer(state, DieFace(2), log)  # INI 3 + 2 = 5 < 4 + 2 x 1
    [test] = only(log, TestRolled)
    assert (test.final, test.difficulty, test.success) == (5, 6, False)
    assert only(log, DisengageFailed) and state.fighter("p1-c1-1").defence
    assert field_of(state).enemies_in_contact("p1-c1-1") == ["p2-c1-1"]


@pytest.mark.rule("V-C", "V-B-1")
def test_a_successful_disengagement_allows_a_walk_of_mov_x_1_out_of_contact() -> None:
    state = activate(_in_contact_game(), "p1-c1")
    log: list[Event] = []
    state = answer(state, AnnouncementsDone(), log)
    state = answer(state, Walk("p1-c1-1", "force"), log)
    state = answer(state, DieFace(3), log)  # STR 5 - 2 = 3, + 3 = 6 >= 6
    assert only(log, Disengaged)
    places = [c for c in legal(state) if isinstance(c, Place)]
    assert places
    state = answer(state, places[0], log)
    assert not field_of(state).enemies_in_contact("p1-c1-1")
    assert not state.fighter("p1-c1-1").defence


@pytest.mark.rule("V-C")
def test_a_fighter_charged_in_this_activation_phase_may_not_disengage() -> None:
    state = activate(_in_contact_game(), "p1-c1")
    attacked = dataclasses.replace(state.fighter("p1-c1-1"), attacked=True)
    state = state.with_fighters(attacked)
    assert legal(state) == [AnnouncementsDone()]


@pytest.mark.rule("V-C", "IV-B-2")
def test_no_disengagement_test_when_the_enemy_in_contact_fell_since_the_announcement() -> None:
    """docs/rulings.md, V-C: A announced an engagement of Y, disengaging from Z; Z falls
    before A's action is resolved (as to an assault shot, VI-B-3): nothing is left to
    disengage from, so no test, and the engagement goes on with its usual potential."""
    a, z, y = fighter("A", ini=3, strength=5), fighter("Z", size="small"), fighter("Y")
    positions = {"p1-c1-1": (30, 30, 0), "p2-c1-1": (32.5, 30, 180), "p2-c2-1": (30, 42, 270)}
    state = skirmish([[(a, 1)], [(z, 1), (y, 1)]], positions)
    state = activate(state, "p1-c1")
    engage = Announce("p1-c1-1", "engage", "p2-c2-1", "agility")
    assert engage in legal(state)
    log: list[Event] = []
    state = answer(state, engage, log)
    state = state.with_fighters(dataclasses.replace(state.fighter("p2-c1-1"), wounds=4))
    state = answer(state, AnnouncementsDone(), log)
    assert not only(log, TestRolled) and not only(log, Disengaged)
    assert field_of(state).enemies_in_contact("p1-c1-1") == ["p2-c2-1"]


# --- VI shooting -------------------------------------------------------------------------------


def _reaper_game() -> GameState:
    # VI-A-3: a Reaper, a partially visible Wolfen (large) at medium range (15 cm).
    wall = piece_of(Scenery.rect("wall", 40.0, 31.6, 0.6, 2.4, height="small"))
    reaper, wolfen = profile("alahan-reaper"), profile("wolfen-hunter")
    positions = {"p1-c1-1": (30, 30, 0), "p2-c1-1": (48.125, 30, 180)}
    return skirmish([[(reaper, 1)], [(wolfen, 1)]], positions, scenery=[wall])


@pytest.mark.rule("VI-A-1", "VI-A-3", "II-B-1")
def test_the_reapers_shot_through_the_engine() -> None:
    state = activate(_reaper_game(), "p1-c1")
    log: list[Event] = []
    state = answer(state, AnnouncementsDone(), log)
    assert Shoot("p1-c1-1", "p2-c1-1") in legal(state)
    state = answer(state, Shoot("p1-c1-1", "p2-c1-1"), log)
    state = answer(state, TakeCover(False), log)  # VI-A-2: the Wolfen could take cover
    [fired] = only(log, ShotFired)
    assert (fired.distance, fired.band, fired.difficulty) == (15.0, "medium", 7)
    assert fired.explain == "7 - 1 (large target) + 1 (partially visible) = 7"
    state = answer(state, DieFace(4), log)  # AIM 4 + 4 = 8 >= 7: hit
    state = answer(state, DieFace(3), log)
    state = answer(state, DieFace(5), log)  # wound: 5 + 6 - 8 = 3, lowest 3: belly -> Light
    assert only(log, ShotHit) == [ShotHit("p1-c1-1", "p2-c1-1", "p2-c1-1", None)]
    assert only(log, Wounded) == [Wounded("p2-c1-1", "p1-c1-1", (3, 5), "belly", "light", 1)]
    assert state.fighter("p2-c1-1").wounds == 1


@pytest.mark.rule("VI-B-2")
def test_an_unmoving_shot_reads_one_row_down_and_the_shooter_may_not_walk_after() -> None:
    state = activate(_reaper_game(), "p1-c1")
    log: list[Event] = []
    state = answer(state, AnnouncementsDone(), log)
    for choice in (Shoot("p1-c1-1", "p2-c1-1", still=True), TakeCover(False)):
        state = answer(state, choice, log)
    for face in (4, 3, 5):
        state = answer(state, DieFace(face), log)
    assert only(log, ShotFired)[0].unmoving
    # row 2/3 read one row down (4/5), belly: Serious
    assert only(log, Wounded) == [Wounded("p2-c1-1", "p1-c1-1", (3, 5), "belly", "serious", 2)]
    assert Walk("p1-c1-1") not in legal(state)


@pytest.mark.rule("VI-A-2", "V-B-4")
def test_a_target_that_takes_cover_is_harder_to_hit_and_must_move_under_cover() -> None:
    state = activate(_reaper_game(), "p1-c1")
    log: list[Event] = []
    state = answer(state, AnnouncementsDone(), log)
    state = answer(state, Shoot("p1-c1-1", "p2-c1-1"), log)
    state = answer(state, TakeCover(True), log)
    assert only(log, ShotFired)[0].difficulty == 9
    assert state.fighter("p2-c1-1").must_cover
    state = answer(state, DieFace(1), log)
    assert only(log, ShotMissed)
    state = answer(state, EndActivation(), log)
    # the Wolfen's card: his only exclusive action is the move under cover
    assert state.pending is not None and state.pending.kind == "floor"
    from confrontation.engine.core.questions import PlayTop

    state = answer(state, PlayTop(), log)
    assert legal(state) == [Announce("p2-c1-1", "cover")]


@pytest.mark.rule("VI-B-1")
def test_a_shot_into_a_melee_may_hit_the_shooters_friend() -> None:
    reaper, friend, enemy = profile("alahan-reaper"), fighter("Friend"), fighter("Enemy")
    positions = {"p1-c1-1": (30, 30, 0), "p1-c2-1": (45, 32.5, 270), "p2-c1-1": (45, 30, 180)}
    state = skirmish([[(reaper, 1), (friend, 1)], [(enemy, 1)]], positions)
    assert field_of(state).contacts("p2-c1-1") == ["p1-c2-1"]
    state = activate(state, "p1-c1")
    log: list[Event] = []
    state = answer(state, AnnouncementsDone(), log)
    state = answer(state, Shoot("p1-c1-1", "p2-c1-1"), log)  # engaged: no cover reaction
    for face in (5, 2, 1, 2):  # hit; distribution 2 -> the friend; a light wound roll
        state = answer(state, DieFace(face), log)
    assert only(log, ShotHit) == [ShotHit("p1-c1-1", "p2-c1-1", "p1-c2-1", 2)]
    assert only(log, Wounded)[0].fighter == "p1-c2-1"


@pytest.mark.rule("VI-B-3", "V-B-3")
def test_assault_shots_are_all_resolved_before_any_figure_moves() -> None:
    # Two Reapers charge the same target with an assault shot; the first kills it: the
    # second's shot is lost, and both may then redirect their assaults.
    reaper, target = profile("alahan-reaper"), fighter("Target")
    positions = {"p1-c1-1": (30, 27, 0), "p1-c1-2": (30, 33, 0), "p2-c1-1": (45, 30, 180)}
    state = skirmish([[(reaper, 2)], [(target, 1)]], positions)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = announce(
        state,
        log,
        Announce("p1-c1-1", "charge", "p2-c1-1", shoot=True),
        Announce("p1-c1-2", "charge", "p2-c1-1", shoot=True),
    )
    state = answer(state, TakeCover(False), log)
    fired = only(log, ShotFired)[0]
    assert fired.difficulty == 7 and fired.band == ""
    for face in (5, 6, 6):  # hit (AIM 4 + 5), then a double 6: Killed Outright
        state = answer(state, DieFace(face), log)
    assert only(log, FighterKilled) == [FighterKilled("p2-c1-1", "p1-c1-1")]
    lost = only(log, ShotMissed)
    assert [m.shooter for m in lost] == ["p1-c1-2"] and "eliminated" in lost[0].reason
    while state.pending is not None and state.pending.kind == "redirect":
        assert Redirect() in legal(state)
        state = answer(state, Redirect(), log)
    kinds = [e.kind for e in log]
    assert only(log, Moved)  # each went towards where the target stood, then stayed
    assert kinds.index("shot_missed") < kinds.index("moved")  # every shot before any move


@pytest.mark.rule("VI-B-3")
def test_an_assault_shot_beyond_the_reach_of_the_charge_is_not_fired() -> None:
    reaper, target = profile("alahan-reaper"), fighter("Target")
    positions = {"p1-c1-1": (20, 30, 0), "p2-c1-1": (60, 30, 180)}
    state = skirmish([[(reaper, 1)], [(target, 1)]], positions)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = announce(state, log, Announce("p1-c1-1", "charge", "p2-c1-1", shoot=True))
    if state.pending is not None and state.pending.kind == "take_cover":
        state = answer(state, TakeCover(False), log)
    [missed] = only(log, ShotMissed)
    assert "beyond the reach" in missed.reason
    assert not only(log, ShotFired) and only(log, AssaultFellShort)
    assert KeepResult not in {type(c) for c in legal(state)}
