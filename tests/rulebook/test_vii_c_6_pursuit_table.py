"""VII-C-6 pursuit moves on a real table: the engine's default pursuit finder
(:mod:`confrontation.engine.combat.pursuit`) with fighters placed at coordinates chosen to satisfy
the book's text, the contacts coming from the geometry.

Square 25 mm bases; facing 0° looks along +x, so a fighter at (x, y, 0) has his sight at
(x + 1.25, y). The Praetorian Guards (A, B) have MOV 10: a pursuit of 5 cm (MOV/2).
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from confrontation.engine.combat import events as ce
from confrontation.engine.combat.pursuit import table_pursuits
from confrontation.engine.combat.questions import AllocateDice, Defend, NameFighter, Pursue
from confrontation.engine.core.events import Event, PhaseEnded
from confrontation.engine.core.melee import Combat
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import KeepResult
from confrontation.engine.core.state import GameState, Phase
from confrontation.engine.step import legal, question
from confrontation.engine.table.field import field_of
from confrontation.geometry.contact import in_contact, sight_touches
from confrontation.rules.combat import pursuit_distance
from engine_support import Script, fighter, only, profile, skirmish

A, B = "p1-c1-1", "p1-c1-2"
X, Y, Z = "p2-c1-1", "p2-c1-2", "p2-c1-3"


def _guards_and_warriors(positions: dict[str, tuple[float, float, float]]) -> GameState:
    cards = [[(profile("praetorian-guard"), 2)], [(profile("dawn-warrior"), 3)]]
    return skirmish(cards, positions)


def _b_kills_y(script: Script) -> list[Event]:
    """Authority to Player 1 (B's combat first); B (49 AP) against Y (19 AP): Y places first,
    B wins the initiative, Y does not block, 6-6 kills him outright."""
    return script.play(
        NameFighter(B),
        NameFighter(Y),
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
    )


# --- example 1: "stay in place … or move MOV/2 in the direction of his choice" ---------------

# Z between A (on his left) and B (below him); Y to B's right, touching only B.
EXAMPLE_1 = {
    A: (47.5, 30.0, 0.0),
    Z: (50.0, 30.0, 180.0),
    B: (50.0, 27.5, 90.0),
    Y: (52.5, 27.5, 180.0),
    X: (100.0, 50.0, 180.0),
}


@pytest.mark.rule("VII-C-6", "VII-A")
def test_example_1_stay_in_place_resolves_z_against_a_and_b_at_once() -> None:
    script = Script(_guards_and_warriors(EXAMPLE_1), phase=Phase.COMBAT)
    # The geometry finds the chain A-Z-B-Y; Y touches only B: one way to separate it.
    assert only(script.events, ce.CombatSplit) == [
        ce.CombatSplit((A, B, Y, Z), (Combat.of(A, [Z]), Combat.of(B, [Y])), None)
    ]
    _b_kills_y(script)
    assert not script.state.fighter(Y).alive
    assert script.asked == "pursue"
    moves = [c for c in legal(script.state) if isinstance(c, Pursue)]
    stay = Pursue(B, (Z,), "stay in place")
    assert moves[0] == stay
    # (2) the free moves go in several directions, none further than MOV/2 = 5 cm.
    free = [m for m in moves if m.x is not None and not m.engage]
    assert free and all(0 < m.distance <= 5 for m in free)
    events = script.play(stay)
    assert only(events, ce.Pursued) == [
        ce.Pursued(B, 5, (Z,), "stay in place", 0.0, None, None, None)
    ]
    assert only(events, ce.CombatSplit) == [
        ce.CombatSplit((A, B, Z), (Combat.of(Z, [A, B]),), None)
    ]
    assert only(events, ce.CombatChosen) == [ce.CombatChosen(0, Combat.of(Z, [A, B]), 0, True)]
    assert script.state.fighter(B).x == 50.0 and script.state.fighter(B).y == 27.5


@pytest.mark.rule("VII-C-6")
def test_example_1_moving_away_leaves_a_against_z_for_a_later_turn() -> None:
    script = Script(_guards_and_warriors(EXAMPLE_1), phase=Phase.COMBAT)
    _b_kills_y(script)
    moves = [c for c in legal(script.state) if isinstance(c, Pursue)]
    away = max((m for m in moves if m.x is not None and not m.engage), key=lambda m: m.distance)
    events = script.play(away)
    [pursued] = only(events, ce.Pursued)
    assert isinstance(pursued, ce.Pursued)
    assert pursued.engaged == () and 0 < pursued.distance <= pursuit_distance(10)
    b = script.state.fighter(B)
    assert (b.x, b.y) == (away.x, away.y)
    # B's sight moved no further than the pursuit allows (V-A: the most direct way).
    before = field_of(_guards_and_warriors(EXAMPLE_1)).base(B).sight
    after = field_of(script.state).base(B).sight
    assert math.dist(before, after) <= 5 + 1e-6
    # No new melee: A against Z stays an ordinary combat, chosen in the next turn (VII-B).
    # The only combat left starts in Player 2's turn (turn 1), not as a pursuit combat.
    assert not only(events, ce.CombatSplit)
    assert only(events, ce.CombatChosen) == [ce.CombatChosen(1, Combat.of(A, [Z]), 1, False)]
    # The narration tells the distance.
    line = [s for s in narrate([*script.events]) if "pursues" in s]
    assert line and f"moving {pursued.distance:g} cm" in line[0]


# --- example 2: B engages Z; with X touching A, a new separation --------------------------


def _example_2(with_x: bool) -> dict[str, tuple[float, float, float]]:
    # A and Z face each other; B and Y fight 1 cm below Z (Y's top edge at 27.75, Z's bottom
    # edge at 28.75); with X: X touches A's back.
    return {
        A: (47.5, 30.0, 0.0),
        Z: (50.0, 30.0, 180.0),
        B: (50.0, 24.0, 90.0),
        Y: (50.0, 26.5, 270.0),
        X: (45.0, 30.0, 0.0) if with_x else (100.0, 50.0, 180.0),
    }


@pytest.mark.rule("VII-C-6", "VII-A", "V-B-3")
@pytest.mark.parametrize("with_x", [False, True])
def test_example_2_b_engages_z(with_x: bool) -> None:
    script = Script(_guards_and_warriors(_example_2(with_x)), phase=Phase.COMBAT)
    _b_kills_y(script)
    moves = [c for c in legal(script.state) if isinstance(c, Pursue)]
    [engage] = [m for m in moves if Z in m.engage]
    # From B's sight (50, 25.25) straight up to Z's lower edge (y = 28.75): 3.5 cm.
    assert engage.distance == pytest.approx(3.5, abs=0.01)
    events = script.play(engage)
    assert only(events, ce.Pursued)[0] == ce.Pursued(
        B, 5, (Z,), engage.label, engage.distance, engage.x, engage.y, engage.facing
    )
    here = field_of(script.state)
    # In contact with Z, his sight on Z's base and facing him (V-B-3); an engagement: no
    # charge penalty for Z.
    assert in_contact(here.base(B), here.base(Z)) and sight_touches(here.base(B), here.base(Z))
    assert not script.state.fighter(Z).charged and script.state.charges == ()
    chosen = only(events, ce.CombatChosen)
    if not with_x:
        assert only(events, ce.CombatSplit) == [
            ce.CombatSplit((A, B, Z), (Combat.of(Z, [A, B]),), None)
        ]
        assert chosen == [ce.CombatChosen(0, Combat.of(Z, [A, B]), 0, True)]
    else:
        # A against X and Z was the combat waiting; B's arrival splits the chain X-A-Z-B
        # again, by B's player: A against X, B against Z, only the latter at once.
        assert only(events, ce.CombatSplit) == [
            ce.CombatSplit((A, B, X, Z), (Combat.of(A, [X]), Combat.of(B, [Z])), None)
        ]
        assert chosen == [ce.CombatChosen(0, Combat.of(B, [Z]), 0, True)]
        assert script.state.combat is not None
        assert script.state.combat.combats == (Combat.of(A, [X]),)


# --- reach: MOV/2 rounded up, measured to the edge of the enemy's base ----------------------


def _lone_pursuer(gap: float, mov: float = 9.0) -> GameState:
    """B (MOV ``mov``) has just killed Y; Z stands straight ahead, ``gap`` cm from B's sight
    to Z's nearest edge."""
    guard = dataclasses.replace(profile("praetorian-guard"), mov=mov)
    cards = [[(guard, 1)], [(profile("dawn-warrior"), 2)]]
    b, y, z = "p1-c1-1", "p2-c1-1", "p2-c1-2"
    state = skirmish(
        cards,
        {b: (20.0, 30.0, 0.0), y: (40.0, 50.0, 0.0), z: (20.0 + 1.25 + gap + 1.25, 30.0, 180.0)},
    )
    dead = dataclasses.replace(state.fighter(y), wounds=4)
    return state.with_fighters(dead)


@pytest.mark.rule("VII-C-6")
@pytest.mark.parametrize(("mov", "reach"), [(9.0, 5), (10.0, 5), (7.0, 4), (1.0, 1)])
def test_reach_is_half_mov_rounded_up(mov: float, reach: int) -> None:
    assert pursuit_distance(mov) == reach
    near = _lone_pursuer(reach - 0.1, mov)
    far = _lone_pursuer(reach + 0.1, mov)
    z = "p2-c1-2"
    offered = [m for m in table_pursuits(near, "p1-c1-1", reach) if z in m.engage]
    assert len(offered) == 1 and offered[0].distance == pytest.approx(reach - 0.1, abs=0.01)
    assert not [m for m in table_pursuits(far, "p1-c1-1", reach) if z in m.engage]


@pytest.mark.rule("VII-C-6", "II-A-4")
def test_a_half_centimetre_mov_is_halved_then_rounded_up() -> None:
    """VII-C-6 a: "MOU/2 cm (rounded up to the next cm)"; CLARIFICATIONS §9: "Every division
    rounds up to the next whole number". A pursuer with MOV 12.5 (the Echahym's) pursues up
    to 7 cm (6.25 rounded up), not 6 (12.5 first rounded to 12 by the engine)."""
    guard = dataclasses.replace(profile("praetorian-guard"), mov=12.5)
    cards = [[(guard, 2)], [(profile("dawn-warrior"), 3)]]
    script = Script(skirmish(cards, EXAMPLE_1), phase=Phase.COMBAT)
    _b_kills_y(script)
    assert script.asked == "pursue"
    asked = question(script.state)
    assert asked is not None and "up to 7 cm" in asked.prompt
    events = script.play(Pursue(B, (Z,), "stay in place"))
    assert [e.reach for e in only(events, ce.Pursued)] == [7]


@pytest.mark.rule("VII-C-6", "V-A")
def test_the_reach_is_measured_along_the_path_round_an_obstacle() -> None:
    # A house (nobody crosses it) between B and Z: the straight gap is 4 cm, but the way
    # round is longer than 5 cm, so Z is out of reach.
    from confrontation.engine.core.state import SceneryPiece

    outline = ((23.0, 25.0), (24.5, 25.0), (24.5, 35.0), (23.0, 35.0))
    house = SceneryPiece("house", outline, "very-large", False)
    guard = profile("praetorian-guard")
    cards = [[(guard, 1)], [(profile("dawn-warrior"), 2)]]
    b, y, z = "p1-c1-1", "p2-c1-1", "p2-c1-2"
    positions = {b: (20.0, 30.0, 0.0), y: (40.0, 50.0, 0.0), z: (26.5, 30.0, 180.0)}
    open_table = skirmish(cards, positions)
    walled = skirmish(cards, positions, scenery=[house])

    def kill(state: GameState) -> GameState:
        return state.with_fighters(dataclasses.replace(state.fighter(y), wounds=4))

    assert [m for m in table_pursuits(kill(open_table), b, 5) if z in m.engage]
    assert not [m for m in table_pursuits(kill(walled), b, 5) if z in m.engage]


@pytest.mark.rule("VII-C-6")
def test_without_a_table_the_finder_stays_in_place() -> None:
    from confrontation.engine.setup.game import SideSpec, game_from_specs

    state = game_from_specs(
        [
            SideSpec("Blue", "griffin", ((profile("praetorian-guard"), 1),)),
            SideSpec("Red", "scorpion", ((profile("dawn-warrior"), 1),)),
        ]
    )
    assert table_pursuits(state, "p1-c1-1", 5) == [Pursue("p1-c1-1", (), "stay in place")]


def _phase_over(script: Script) -> bool:
    """The combat phase has ended (the game moved on to maintenance and beyond)."""
    ended = [e for e in script.events if isinstance(e, PhaseEnded) and e.phase == "combat"]
    return len(ended) == 1 and script.state.phase is not Phase.COMBAT


# --- once per round; an enemy who has already fought ----------------------------------------


@pytest.mark.rule("VII-C-6")
def test_a_pursuer_who_kills_again_does_not_pursue_twice_in_a_round() -> None:
    # B kills Y, pursues 3.5 cm into Z (1 cm beyond Y), kills Z in the combat that follows at
    # once, and may not pursue again this round (VII-C-6 a).
    positions = {
        B: (60.0, 24.0, 90.0),
        Y: (60.0, 26.5, 270.0),
        Z: (60.0, 30.0, 270.0),
        A: (10.0, 10.0, 0.0),
        X: (110.0, 50.0, 180.0),
    }
    script = Script(_guards_and_warriors(positions), phase=Phase.COMBAT)
    # One combat: nobody to name for the Authority roll; 5 against 1.
    script.play(5, 1)
    script.play(AllocateDice(Y, 0, 2), AllocateDice(B, 2, 0), 5, 1, Defend(0), 6, 6)
    assert not script.state.fighter(Y).alive
    [engage] = [m for m in legal(script.state) if isinstance(m, Pursue) and Z in m.engage]
    assert engage.distance == pytest.approx(3.5, abs=0.01)
    events = script.play(engage)
    assert only(events, ce.CombatChosen) == [ce.CombatChosen(0, Combat.of(B, [Z]), 0, True)]
    events = script.play(AllocateDice(Z, 0, 2), AllocateDice(B, 2, 0), 5, 1, Defend(0), 6, 6)
    assert not script.state.fighter(Z).alive
    # B's opponents are all dead again, but his pursuit of the round is spent: no question,
    # no second move; the phase ends.
    assert not only(events, ce.Pursued)
    assert [e.fighter for e in only(script.events, ce.Pursued)] == [B]
    assert _phase_over(script)


@pytest.mark.rule("VII-C-6")
def test_engaging_a_fighter_who_has_fought_brings_nothing() -> None:
    # A against X (resolved first: both keep their dice in defence, nobody is hurt), then B
    # against Y. B kills Y and engages X, who has already fought: nothing happens (VII-C-6 c).
    positions = {
        A: (57.5, 30.0, 0.0),
        X: (60.0, 30.0, 180.0),
        B: (60.0, 24.0, 90.0),
        Y: (60.0, 26.5, 270.0),
        Z: (110.0, 50.0, 180.0),
    }
    script = Script(_guards_and_warriors(positions), phase=Phase.COMBAT)
    script.play(NameFighter(A), NameFighter(X), 5, 1)
    script.play(AllocateDice(X, 0, 2), AllocateDice(A, 0, 2), 5, 1)
    # B against Y starts at once (Player 2's turn, the only combat left).
    assert script.state.combat is not None and script.state.combat.fought[:2] == (A, X)
    script.play(AllocateDice(Y, 0, 2), AllocateDice(B, 2, 0), 5, 1, Defend(0), 6, 6)
    [engage_x] = [m for m in legal(script.state) if isinstance(m, Pursue) and X in m.engage]
    events = script.play(engage_x)
    assert [e.fighter for e in only(events, ce.Pursued)] == [B]
    assert not only(events, ce.MeleeFound) and not only(events, ce.CombatChosen)
    assert _phase_over(script)
    here = field_of(script.state)
    assert in_contact(here.base(B), here.base(X))


@pytest.mark.rule("VII-C-6")
def test_a_slow_fighter_with_no_enemy_near_is_still_offered_free_moves() -> None:
    slow = fighter("Slow", mov=2.0)
    state = skirmish(
        [[(slow, 1)], [(profile("dawn-warrior"), 1)]],
        {"p1-c1-1": (30.0, 30.0, 0.0), "p2-c1-1": (90.0, 30.0, 180.0)},
    )
    moves = table_pursuits(state, "p1-c1-1", pursuit_distance(2.0))
    assert moves[0] == Pursue("p1-c1-1", (), "stay in place")
    assert len(moves) > 1 and all(m.distance <= 1 + 1e-6 for m in moves)
    assert not any(m.engage for m in moves)
