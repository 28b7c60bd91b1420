"""II-E-3 — the number of enemies in contact with a fighter, enforced by the engine.

Book, II-E-3: "According to its size, the number of enemies that can come into contact with a
fighter is limited (whatever the "real size" of its base): Small size: 3. Regular size: 4.
Large size: 6. Very large or " Enormous/X ": 8. Titan: 16."

CLARIFICATIONS §9: "The limit by size (3, 4, 6, 8, 16 enemies) binds every placement that
creates contact: charges, engagements, pursuits, disengagements followed by an engagement,
deployment and any game effect. A fighter already touched by his limit cannot be charged or
engaged by one more enemy, and a multiple charge may not bring a target past his limit."

The positions: a target on a round base in the middle of the table, assailants on round bases
(30 mm) in a ring round him, each going straight for him (a normal-size target on a round base
is the issue's own case: "a fifth can reach a normal-size fighter on a round base").
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from confrontation.engine.combat.pursuit import table_pursuits
from confrontation.engine.combat.questions import AllocateDice, NameFighter, Pursue
from confrontation.engine.core.events import (
    ActionAnnounced,
    AssaultFellShort,
    Charged,
    Engaged,
    Event,
)
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    DieFace,
    EndActivation,
    KeepResult,
    Place,
    PlayTop,
)
from confrontation.engine.core.state import GameState, Phase
from confrontation.engine.neutral import NeutralSpec, add_neutrals
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import advance, is_chance, legal, start
from confrontation.engine.table.contact_limits import (
    ContactLimitError,
    limit_of,
    position_problems,
)
from confrontation.engine.table.field import field_of
from confrontation.geometry.contact import in_contact
from engine_support import activate, answer, fighter, only, skirmish

TARGET = "p2-c1-1"
CENTRE = (60.0, 30.0)
LIMITS = {"small": 3, "normal": 4, "large": 6, "very-large": 8}


def _ring(size: str, action: str) -> dict[str, tuple[float, float, float]]:
    """The assailants 9 cm from the target's centre: card 1 holds the limit's number of them,
    evenly round him, and one more half-way between the first two; card 2 one more half-way
    between the next two. They face him for a charge (he is seen), away for an engagement."""
    limit = LIMITS[size]
    step_ = 360.0 / limit
    angles = [step_ * k for k in range(limit)] + [step_ / 2.0, step_ * 1.5]
    ids = [f"p1-c1-{k}" for k in range(1, limit + 2)] + ["p1-c2-1"]
    positions: dict[str, tuple[float, float, float]] = {TARGET: (*CENTRE, 180.0)}
    for fighter_id, angle in zip(ids, angles, strict=True):
        x = CENTRE[0] + 9.0 * math.cos(math.radians(angle))
        y = CENTRE[1] + 9.0 * math.sin(math.radians(angle))
        facing = (angle + 180.0) % 360.0 if action == "charge" else angle
        positions[fighter_id] = (round(x, 4), round(y, 4), round(facing, 3))
    return positions


def _game(size: str, action: str) -> GameState:
    target = fighter("Target", size=size, base="round")
    assailant = fighter("Assailant", base="round", mov=20.0)
    limit = LIMITS[size]
    cards = [[(assailant, limit + 1), (assailant, 1)], [(target, 1)]]
    return skirmish(cards, _ring(size, action))


def _until_card(state: GameState, card: str, log: list[Event]) -> GameState:
    """Answer the questions the dullest way (end activations, play the top card) until the
    fighters of ``card`` are asked what they do."""
    while True:
        assert state.pending is not None
        current = None if state.activation is None else state.activation.current
        if state.pending.kind == "activation" and current is not None and card in current.cards:
            return state
        options = legal(state)
        choice: Choice = options[0]
        for preferred in (AnnouncementsDone(), EndActivation(), PlayTop()):
            if preferred in options:
                choice = preferred
                break
        state = answer(state, choice, log)


@pytest.mark.rule("II-E-3", "V-B-3")
@pytest.mark.parametrize("action", ["charge", "engage"])
@pytest.mark.parametrize("size", list(LIMITS))
def test_assaults_reach_the_limit_and_the_next_one_is_refused(size: str, action: str) -> None:
    """II-E-3 (small 3, regular 4, large 6, very large 8) and §9: "A fighter already touched
    by his limit cannot be charged or engaged by one more enemy." One more assailant than
    the limit is announced in one activation: the limit is reached, the last one cannot make
    contact (he falls short, V-B-3); in a later activation nobody may even announce an
    assault on him."""
    limit = LIMITS[size]
    state = _game(size, action)
    assert limit_of(state, TARGET) == limit
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    assailants = [f"p1-c1-{k}" for k in range(1, limit + 2)]
    for a in assailants:
        choice = Announce(a, action, TARGET)
        assert choice in legal(state)  # nobody touches him yet
        state = answer(state, choice, log)
    state = answer(state, AnnouncementsDone(), log)
    made = only(log, Charged) if action == "charge" else only(log, Engaged)
    assert [e.fighter for e in made] == assailants[:limit]
    [short] = only(log, AssaultFellShort)
    assert (short.fighter, short.target) == (assailants[-1], TARGET)
    assert sorted(field_of(state).enemies_in_contact(TARGET)) == assailants[:limit]
    state = _until_card(state, "p1-c2", log)
    last = "p1-c2-1"
    options = legal(state)
    assert Announce(last, "charge", TARGET) not in options
    assert Announce(last, "engage", TARGET) not in options
    assert position_problems(state) == []


@pytest.mark.rule("II-E-3", "V-B-3")
def test_a_multiple_charge_may_not_bring_a_target_past_his_limit() -> None:
    """§9: "a multiple charge may not bring a target past his limit." Two small fighters side
    by side; the upper one (T2) already has three enemies (north, east, and one on the upper
    half of his west side). A charger coming from the west at T1's upper corner would touch
    both (a multiple charge): that place is not offered; he charges T1 alone."""
    small, soldier = fighter("Small", size="small"), fighter("Soldier")
    t1, t2 = "p2-c1-1", "p2-c1-2"
    positions = {
        t1: (60.0, 30.0, 180.0),
        t2: (60.0, 32.5, 180.0),
        "p1-c2-1": (60.0, 35.0, 270.0),  # north of T2
        "p1-c2-2": (62.5, 32.5, 180.0),  # east of T2
        "p1-c2-3": (57.5, 33.75, 0.0),  # upper half of T2's west side
        "p1-c1-1": (48.0, 31.25, 0.0),  # the charger, level with T1's upper corner
    }
    state = skirmish([[(soldier, 1), (soldier, 3)], [(small, 2)]], positions)
    here = field_of(state)
    assert sorted(here.enemies_in_contact(t2)) == ["p1-c2-1", "p1-c2-2", "p1-c2-3"]
    assert here.enemies_in_contact(t1) == []
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = answer(state, Announce("p1-c1-1", "charge", t1), log)
    state = answer(state, AnnouncementsDone(), log)
    if state.pending is not None and state.pending.kind == "assault_contact":
        # any place offered touches T1 only
        here = field_of(state)
        template = here.base("p1-c1-1")
        for c in legal(state):
            assert isinstance(c, Place)
            assert not in_contact(template.moved(c.x, c.y, c.facing), here.base(t2))
        state = answer(state, legal(state)[0], log)
    [charged] = only(log, Charged)
    assert charged.targets == (t1,)
    assert len(field_of(state).enemies_in_contact(t2)) == 3


@pytest.mark.rule("II-E-3", "V-B-3")
def test_a_multiple_charge_reaches_the_limit_and_the_next_charger_is_refused() -> None:
    """§9: a multiple charge counts for every fighter it touches. T2 (small) has two enemies;
    the charger's place touches T1 and T2 (a multiple charge): T2 reaches his limit of 3.
    In the next activation a fighter who sees T2 may not announce a charge on him."""
    small, soldier = fighter("Small", size="small"), fighter("Soldier")
    t1, t2 = "p2-c1-1", "p2-c1-2"
    positions = {
        t1: (60.0, 30.0, 180.0),
        t2: (60.0, 32.5, 180.0),
        "p1-c2-1": (60.0, 35.0, 270.0),  # north of T2
        "p1-c2-2": (57.5, 33.75, 0.0),  # upper half of T2's west side
        "p1-c1-1": (48.0, 31.25, 0.0),  # level with T1's upper corner
        "p1-c3-1": (72.0, 32.5, 180.0),  # east of T2, seeing him
    }
    cards = [[(soldier, 1), (soldier, 2), (soldier, 1)], [(small, 2)]]
    state = skirmish(cards, positions)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    state = answer(state, Announce("p1-c1-1", "charge", t1), log)
    state = answer(state, AnnouncementsDone(), log)
    if state.pending is not None and state.pending.kind == "assault_contact":
        here = field_of(state)
        template = here.base("p1-c1-1")
        both = [
            c
            for c in legal(state)
            if isinstance(c, Place)
            and in_contact(template.moved(c.x, c.y, c.facing), here.base(t2))
        ]
        state = answer(state, both[0], log)
    [charged] = only(log, Charged)
    assert charged.targets == (t1, t2)
    assert sorted(field_of(state).enemies_in_contact(t2)) == ["p1-c1-1", "p1-c2-1", "p1-c2-2"]
    state = _until_card(state, "p1-c3", log)
    options = legal(state)
    assert Announce("p1-c3-1", "charge", t1) in options  # T1 has room (one enemy)
    assert Announce("p1-c3-1", "charge", t2) not in options


@pytest.mark.rule("II-E-3", "V-C")
def test_a_disengagement_followed_by_an_engagement_respects_the_limit() -> None:
    """§9: "disengagements followed by an engagement" are bound too. A fighter in contact with
    one enemy may disengage to engage another (V-C), but not one touched by his limit."""
    small, soldier = fighter("Small", size="small"), fighter("Soldier")
    t = "p2-c2-1"
    positions = {
        "p2-c1-1": (40.0, 30.0, 180.0),  # the enemy he is in contact with
        "p1-c1-1": (37.5, 30.0, 0.0),  # the fighter who would disengage
        t: (44.0, 30.0, 180.0),  # small, touched by three: north, east, south
        "p1-c2-1": (44.0, 32.5, 270.0),
        "p1-c2-2": (46.5, 30.0, 180.0),
        "p1-c2-3": (44.0, 27.5, 90.0),
    }
    state = skirmish([[(soldier, 1), (soldier, 3)], [(soldier, 1), (small, 1)]], positions)
    log: list[Event] = []
    state = activate(state, "p1-c1", log)
    options = legal(state)
    engage = [c for c in options if isinstance(c, Announce) and c.method is not None]
    assert engage and {c.target for c in engage} == {"p2-c1-1"}  # T is not offered


@pytest.mark.rule("II-E-3", "VII-C-6")
def test_a_pursuit_may_not_engage_a_fighter_at_his_limit() -> None:
    """§9: pursuits are bound. A Guard free to pursue (MOV 10: 5 cm) has two enemies within
    reach; the small one is touched by three already: only the other may be engaged."""
    small, soldier = fighter("Small", size="small"), fighter("Soldier")
    t, other = "p2-c1-1", "p2-c2-1"
    positions = {
        "p1-c1-1": (40.0, 30.0, 0.0),  # the pursuer
        t: (44.0, 30.0, 180.0),
        "p1-c2-1": (44.0, 32.5, 270.0),
        "p1-c2-2": (46.5, 30.0, 180.0),
        "p1-c2-3": (44.0, 27.5, 90.0),
        other: (40.0, 35.0, 270.0),
    }
    state = skirmish([[(soldier, 1), (soldier, 3)], [(small, 1), (soldier, 1)]], positions)
    moves = table_pursuits(state, "p1-c1-1", 5)
    engaged = {e for m in moves for e in m.engage}
    assert other in engaged and t not in engaged
    # with room left (one of the three gone), he may engage him: the limit is what refused
    freer = place(state, {"p1-c2-2": (100.0, 50.0, 180.0)})
    assert t in {e for m in table_pursuits(freer, "p1-c1-1", 5) for e in m.engage}


@pytest.mark.rule("II-E-3")
def test_a_scripted_position_past_the_limit_is_reported_with_the_section() -> None:
    """§9: "any game effect" — a position a user scripts that puts a small fighter in contact
    with four enemies is refused with the section named."""
    small, soldier = fighter("Small", size="small"), fighter("Soldier")
    positions = {
        "p2-c1-1": (44.0, 30.0, 180.0),
        "p1-c1-1": (41.5, 30.0, 0.0),
        "p1-c1-2": (44.0, 32.5, 270.0),
        "p1-c1-3": (46.5, 30.0, 180.0),
    }
    state = skirmish([[(soldier, 4)], [(small, 1)]], positions)  # three: legal
    with pytest.raises(ContactLimitError) as error:
        place(state, {"p1-c1-4": (44.0, 27.5, 90.0)})
    assert str(error.value) == (
        "II-E-3: fighter p2-c1-1 (small) is in contact with 4 enemies, more than 3"
    )
    assert isinstance(error.value, ValueError)


@pytest.mark.rule("II-E-3", "XX-E")
def test_neutral_fighters_count_as_enemies_and_are_refused_past_the_limit() -> None:
    """XX-E: neutral fighters are enemies of both players; a neutral put in contact with a
    small fighter already touched by three enemies is refused (II-E-3)."""
    small, soldier = fighter("Small", size="small"), fighter("Soldier")
    positions = {
        "p2-c1-1": (44.0, 30.0, 180.0),
        "p1-c1-1": (41.5, 30.0, 0.0),
        "p1-c1-2": (44.0, 32.5, 270.0),
        "p1-c1-3": (46.5, 30.0, 180.0),
    }
    state = skirmish([[(soldier, 3)], [(small, 1)]], positions)
    with pytest.raises(ContactLimitError, match="II-E-3: fighter p2-c1-1"):
        add_neutrals(state, [NeutralSpec(soldier, 44.0, 27.5, 90.0)])


@pytest.mark.rule("II-E-3", "XX-E-1")
def test_a_neutral_whose_nearest_fighter_is_at_his_limit_assaults_the_nearest_he_may() -> None:
    """XX-E-1 with II-E-3 (ruling "II-E-3 — contact limits"): a neutral fighter assaults the
    nearest non-neutral fighter; a small imp touched by three enemies already "cannot be
    charged or engaged by one more enemy" (§9), so the beast assaults the nearest fighter he
    may still reach: the guard touching the imp's north side."""
    imp, guard = fighter("Imp", size="small"), fighter("Guard")
    positions = {
        "p1-c1-1": (50.0, 30.0, 0.0),  # the imp
        "p2-c1-1": (50.0, 32.5, 270.0),  # north of him
        "p2-c1-2": (50.0, 27.5, 90.0),  # south
        "p2-c1-3": (47.5, 30.0, 0.0),  # west
    }
    state = skirmish([[(imp, 1)], [(guard, 3)]], positions)
    # the beast, east of the imp and facing him: the imp is the nearest (12.01 cm)
    state = add_neutrals(state, [NeutralSpec(fighter("Beast"), 62.0, 30.5, 180.0)])
    faces = iter([5, 2])
    state, log = start(state)
    while state.pending is not None and state.pending.kind != "floor":
        choice = DieFace(next(faces)) if is_chance(state) else legal(state)[0]
        state = answer(state, choice, log)
    [announced] = only(log, ActionAnnounced)
    assert (announced.fighter, announced.target) == ("n-c1-1", "p2-c1-1")
    assert len(field_of(state).enemies_in_contact("p1-c1-1")) == 3


@pytest.mark.rule("II-E-3", "III-B-2")
def test_no_deployment_spot_puts_a_fighter_past_his_limit() -> None:
    """§9: deployment is bound too. A small neutral imp stands in Player 1's deployment area
    (a scenario may put one there) next to a spot of the deployment grid: while he is touched
    by two of Player 1's fighters that spot is offered; once three touch him, it is not."""
    soldier, imp = fighter("Soldier"), fighter("Imp", size="small")
    specs = [SideSpec("A", "lion", ((soldier, 4),)), SideSpec("B", "lion", ((soldier, 1),))]
    state = on_battlefield(game_from_specs(specs), scenery=(), zones=(0, 1))
    state, log = start(state)
    dice = iter([5, 2] * 10)
    while state.pending is None or (state.pending.kind, state.pending.player) != ("deploy", 0):
        choice = DieFace(next(dice)) if is_chance(state) else legal(state)[0]
        state = answer(state, choice, log)
    assert "p1-c1-1" not in field_of(state).owners  # the next to deploy
    spots = [c for c in legal(state) if isinstance(c, Place)]
    spot = min(spots, key=lambda c: math.dist((c.x, c.y), (25.0, 30.0)))
    # the imp east of the spot, touching its front; fighters north, south and east of him
    x, y = spot.x + 2.5, spot.y
    state = add_neutrals(state, [NeutralSpec(imp, x, y, 180.0)])
    two = place(state, {"p1-c1-2": (x, y + 2.5, 270.0), "p1-c1-3": (x, y - 2.5, 90.0)})
    assert spot in legal(two)
    three = place(two, {"p1-c1-4": (x + 2.5, y, 180.0)})
    assert len(field_of(three).enemies_in_contact("n-c1-1")) == 3
    offered = [c for c in legal(three) if isinstance(c, Place)]
    assert spot not in offered
    template = field_of(three).base("p1-c1-2")
    imp_base = field_of(three).base("n-c1-1")
    assert not any(in_contact(template.moved(c.x, c.y, c.facing), imp_base) for c in offered)


@pytest.mark.rule("II-E-3", "VII-C-6")
def test_a_pursuit_reaches_the_limit_and_the_next_pursuer_is_refused() -> None:
    """§9: pursuits are bound. Guard B kills his only enemy (Authority, initiative and a 6-6
    wound with fixed dice) and pursues (MOV 10: 5 cm), engaging a small imp touched by two
    enemies already: the imp reaches his limit of 3. Guard C, 3.6 cm from the imp's free
    south side, could engage him by a pursuit before; now no pursuit move of his does."""
    guard = fighter("Guard", ap=30, ini=4, att=5, strength=8)
    imp, weak = fighter("Imp", size="small", ap=10, res=12), fighter("Weak", ap=5, res=1)
    b, c, y, t = "p1-c1-1", "p1-c3-1", "p2-c1-1", "p2-c2-1"
    positions = {
        b: (40.0, 30.0, 0.0),
        y: (42.5, 30.0, 180.0),  # B's enemy, in contact with him
        t: (44.0, 34.5, 180.0),  # the imp
        "p1-c2-1": (44.0, 37.0, 270.0),  # north of the imp
        "p1-c2-2": (46.5, 34.5, 180.0),  # east of the imp
        c: (46.0, 28.5, 90.0),  # south-east of the imp, touching nobody
    }
    cards = [[(guard, 1), (guard, 2), (guard, 1)], [(weak, 1), (imp, 1)]]
    state = skirmish(cards, positions)
    assert t in {e for m in table_pursuits(state, c, 5) for e in m.engage}
    state, log = advance(dataclasses.replace(state, phase=Phase.COMBAT))
    script: list[Choice | int] = [
        *(NameFighter(b), NameFighter(y), 6, 1, KeepResult()),  # Authority: Player 1
        *(AllocateDice(y, 2, 0), AllocateDice(b, 2, 0)),
        *(6, 6, KeepResult(), KeepResult()),  # initiative: B first
        *(6, 6),  # B's wound roll kills Y
    ]
    for item in script:
        choice = DieFace(item) if isinstance(item, int) else item
        assert choice in legal(state), choice
        state = answer(state, choice, log)
    assert not state.fighter(y).alive
    assert state.pending is not None and state.pending.kind == "pursue"
    [engage] = [m for m in legal(state) if isinstance(m, Pursue) and t in m.engage]
    state = answer(state, engage, log)
    assert sorted(field_of(state).enemies_in_contact(t)) == [b, "p1-c2-1", "p1-c2-2"]
    assert t not in {e for m in table_pursuits(state, c, 5) for e in m.engage}
