"""Rulebook II-C, application of game effects: every worked example, with fixed coordinates
and fixed dice. Units: cm, origin at the table's lower-left corner, 90° = up the table."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from confrontation.dice import ScriptedRoller
from confrontation.geometry import Base
from confrontation.geometry.areas import fighters_in_area, marker_in_contact, reach, touches
from confrontation.rules.effects import (
    AreaOfEffect,
    Condition,
    DurationKind,
    Keyword,
    Situation,
    active,
    area_radius_distribution,
    default_effects_table,
    deviate,
    dispersion_distribution,
    ends_this_turn,
    needs_line_of_sight,
    p_landing,
    parse_area,
    parse_duration,
    parse_keyword,
    parse_range,
    roll_area_radius,
    roll_dispersion,
)


def sq(x: float, y: float, facing: float = 90.0) -> Base:
    return Base.of("normal", "square", x, y, facing)  # 25 mm square


# --- II-C-1 ---------------------------------------------------------------------------------


@pytest.mark.rule("II-C-1")
def test_area_of_effect_15cm_around_a_point() -> None:
    # 'Area of effect: 15cm': the effect acts within a radius of 15 cm around the point.
    area = parse_area("15cm")
    assert area == AreaOfEffect(radius_cm=15.0) and not area.one_fighter
    radius = roll_area_radius(area, ScriptedRoller([]))  # a fixed radius rolls nothing
    assert radius == 15.0
    point = (60.0, 30.0)
    fighters = {
        "edge_at_15": sq(60 + 15 + 1.25, 30),  # its near edge exactly 15 cm away
        "edge_at_14.9": sq(60, 30 - 14.9 - 1.25),
        "edge_at_15.1": sq(60 - 15.1 - 1.25, 30),
        # partially within: centre 15.5 cm away, but the base reaches 14.25 cm
        "partly": sq(60, 30 + 15.5),
    }
    assert fighters_in_area(point, radius, fighters) == ["edge_at_15", "edge_at_14.9", "partly"]


@pytest.mark.rule("II-C-1")
def test_area_of_effect_15cm_around_the_base_of_a_fighter() -> None:
    caster = sq(60, 30)  # edges at x 58.75..61.25
    fighters = {
        "caster": caster,
        "right_15": sq(61.25 + 15 + 1.25, 30),
        "right_16": sq(61.25 + 16 + 1.25, 30),
        "above_15": sq(60, 31.25 + 15 + 1.25),
    }
    # measured from the edge of the caster's base, not its centre
    assert fighters_in_area(caster, 15, fighters) == ["caster", "right_15", "above_15"]
    assert not touches((60, 30), 15, fighters["right_15"])  # from the centre it would miss


@pytest.mark.rule("II-C-1")
def test_area_rolled_with_dice_adds_natural_results_and_never_rerolls_a_six() -> None:
    area = parse_area("2d6 cm")
    assert area.rolled and area.dice == 2
    roller = ScriptedRoller([6, 3, 4])  # a re-rolled 6 would take the 3 and give 6+3+4
    assert roll_area_radius(area, roller) == 9.0
    assert roller.rolled == 2 and roller.remaining == 1
    dist = area_radius_distribution(area)
    assert sum(dist.values()) == 1
    assert dist[7.0] == Fraction(6, 36) and dist[12.0] == Fraction(1, 36)
    assert min(dist) == 2.0 and max(dist) == 12.0


@pytest.mark.rule("II-C-1")
def test_area_is_rolled_again_each_time_and_resolved_however_small() -> None:
    area = parse_area("1d6cm")
    roller = ScriptedRoller([1, 5])
    first, second = roll_area_radius(area, roller), roll_area_radius(area, roller)
    assert (first, second) == (1.0, 5.0)  # recalculated at each use in the same turn
    caster = sq(60, 30)
    friend = sq(60 + 1.25 + 3 + 1.25, 30)  # 3 cm from the caster's edge
    # a radius of 1 cm is too small to reach anyone but the caster: still resolved
    assert fighters_in_area(caster, first, {"c": caster, "f": friend}) == ["c"]
    assert fighters_in_area(caster, second, {"c": caster, "f": friend}) == ["c", "f"]


# --- II-C-2 ---------------------------------------------------------------------------------


@pytest.mark.rule("II-C-2", "II-C-1")
def test_gust_of_wind_range_20_cm_area_one_fighter() -> None:
    rng, area = parse_range("20 cm"), parse_area("one fighter")
    assert area.one_fighter and rng.cm == 20.0 and not rng.contact
    magician = sq(60, 10)  # front edge at y = 11.25
    at_20 = sq(60, 11.25 + 20 + 1.25)
    at_20_5 = sq(60, 11.25 + 20.5 + 1.25)
    assert reach(magician, at_20) == pytest.approx(20.0)
    assert rng.reaches(reach(magician, at_20))
    assert not rng.reaches(reach(magician, at_20_5))
    # one fighter, at range: a ranged interaction on one target needs sight (II-D-3)
    assert needs_line_of_sight(area)


@pytest.mark.rule("II-C", "II-C-2", "II-C-1")
def test_veil_of_fog_range_contact_area_30_cm_around_its_marker() -> None:
    rng, area = parse_range("contact"), parse_area("30 cm")
    assert rng.contact
    magician = sq(60, 10)
    marker = marker_in_contact(magician, (90, 10))  # a marker against his right side
    assert marker == pytest.approx((61.25, 10.0))
    assert rng.reaches(reach(magician, marker))
    assert not rng.reaches(reach(magician, (62.0, 10.0)))  # 0.75 cm away: not in contact
    combatants = {
        "magician": magician,
        "friend_29": sq(61.25 + 29 + 1.25, 10),
        "enemy_30": sq(61.25, 10 + 30 + 1.25),
        "enemy_31": sq(61.25 - 31 - 1.25, 10),
    }
    assert fighters_in_area(marker, area.radius_cm, combatants) == [
        "magician",
        "friend_29",
        "enemy_30",
    ]
    # everyone within X cm of the effect's origin: no line of sight needed (II-D-3)
    assert not needs_line_of_sight(area)


# --- II-C-3 ---------------------------------------------------------------------------------


@pytest.mark.rule("II-C-3")
def test_instant_turns_and_end_of_game() -> None:
    instant = parse_duration("Instant")
    assert instant.kind is DurationKind.INSTANT and ends_this_turn(instant, 2, 2)
    three = parse_duration("3 turns")
    assert three.kind is DurationKind.TURNS and three.turns == 3
    assert [ends_this_turn(three, 2, t) for t in (2, 3, 4)] == [False, False, True]
    game = parse_duration("until the end of the game")
    assert game.kind is DurationKind.END_OF_GAME
    assert not any(ends_this_turn(game, 1, t) for t in range(1, 20))


@pytest.mark.rule("II-C-3")
def test_maintain_x_lasts_to_the_end_of_the_turn_unless_x_is_sacrificed() -> None:
    spell = parse_duration("Maintain/2")
    assert spell.kind is DurationKind.MAINTAIN and spell.maintain_cost == 2
    assert ends_this_turn(spell, 3, 3)  # nothing paid: ends with the turn
    assert not ends_this_turn(spell, 3, 3, maintained=True)  # 2 gems paid: into turn 4
    assert ends_this_turn(spell, 3, 4)  # turn 4's maintenance: pay again or it ends
    assert not ends_this_turn(spell, 3, 4, maintained=True)


# --- II-C-4 ---------------------------------------------------------------------------------

WITHIN_5_FRIENDS = Condition(within_cm=5.0, side="friend")


def _situation(caster: Base | None, fighter: Base, friendly: bool = True) -> Situation:
    return Situation(None if caster is None else reach(caster, fighter), friendly)


@pytest.mark.rule("II-C-4", "II-C-3")
def test_win_ini_plus_2_kept_whatever_the_caster_does_afterwards() -> None:
    # A spell (duration: until the end of the turn): all friendly combatants within 5 cm
    # win INI+2.
    assert parse_keyword("win") is Keyword.WIN
    assert parse_duration("until the end of the turn").kind is DurationKind.END_OF_TURN
    caster = sq(60, 30)
    near, far = sq(60 + 1.25 + 4 + 1.25, 30), sq(60 + 1.25 + 6 + 1.25, 30)
    enemy_near = sq(60, 30 + 1.25 + 2 + 1.25)
    at_spell = {
        "near": _situation(caster, near),
        "far": _situation(caster, far),
        "enemy": _situation(caster, enemy_near, friendly=False),
    }
    # later: the caster has walked away (or died: no origin at all), the far friend came close
    moved = caster.moved(10, 50)
    later = {
        "near": _situation(moved, near),
        "far": _situation(caster, sq(60 + 1.25 + 2 + 1.25, 30)),
        "enemy": _situation(None, enemy_near, friendly=False),
    }
    have = {
        k: active(Keyword.WIN, WITHIN_5_FRIENDS, at_application=at_spell[k], now=later[k])
        for k in at_spell
    }
    assert have == {"near": True, "far": False, "enemy": False}
    dead_caster = Situation(None, True)
    assert active(Keyword.WIN, WITHIN_5_FRIENDS, at_application=at_spell["near"], now=dead_caster)
    # until the end of the turn: gone after this turn's maintenance phase
    assert not active(
        Keyword.WIN,
        WITHIN_5_FRIENDS,
        at_application=at_spell["near"],
        now=dead_caster,
        expired=True,
    )


@pytest.mark.rule("II-C-4")
def test_benefit_for_plus_2_only_inside_the_aura_of_the_monk() -> None:
    # A miracle (duration: until the end of the turn): every friendly fighter benefits from
    # FOR+2 as long as he is within 5 cm of the caster. (The book's example says "win FOR+2"
    # but explains 'benefit': ruling II-C-4 in docs/rulings.md.)
    assert parse_keyword("benefit") is Keyword.BENEFIT
    monk = sq(60, 30)
    inside, outside = sq(60 + 1.25 + 3 + 1.25, 30), sq(60 + 1.25 + 9 + 1.25, 30)
    called = {"leaver": _situation(monk, inside), "comer": _situation(monk, outside)}
    # the leaver walks out of the aura, the comer walks into it
    now = {
        "leaver": _situation(monk, inside.moved(80, 30)),
        "comer": _situation(monk, outside.moved(60, 30 + 1.25 + 5 + 1.25)),
    }
    assert active(
        Keyword.BENEFIT, WITHIN_5_FRIENDS, at_application=called["leaver"], now=called["leaver"]
    )
    assert not active(
        Keyword.BENEFIT, WITHIN_5_FRIENDS, at_application=called["comer"], now=called["comer"]
    )
    assert not active(
        Keyword.BENEFIT, WITHIN_5_FRIENDS, at_application=called["leaver"], now=now["leaver"]
    )
    assert active(
        Keyword.BENEFIT, WITHIN_5_FRIENDS, at_application=called["comer"], now=now["comer"]
    )
    # the same positions under 'win': the leaver keeps it, the comer never gets it
    assert active(Keyword.WIN, WITHIN_5_FRIENDS, at_application=called["leaver"], now=now["leaver"])
    assert not active(
        Keyword.WIN, WITHIN_5_FRIENDS, at_application=called["comer"], now=now["comer"]
    )


# --- II-C-5 ---------------------------------------------------------------------------------


@pytest.mark.rule("II-C-5")
def test_deviation_distance_table() -> None:
    t = default_effects_table()
    assert [t.distance[f] for f in range(1, 7)] == [4, 6, 8, 10, 12, 14]
    for face, cm in zip(range(1, 7), [4, 6, 8, 10, 12, 14], strict=True):
        d = deviate((0, 0), (0, 20), face, 1)
        assert d.distance_cm == cm
        assert math.dist(d.point, (0, 20)) == pytest.approx(cm)


@pytest.mark.rule("II-C-5")
def test_direction_1_is_straight_on_then_clockwise_60_degrees_apart() -> None:
    # Origin (the artillery) at (10, 10), point of impact 20 cm straight up the table. Up
    # the table is north; clockwise from north: 2 is 60° towards the east, 4 straight back.
    origin, impact, d = (10.0, 10.0), (10.0, 30.0), 10.0
    expected = {
        1: (10.0, 40.0),
        2: (10 + d * math.sin(math.radians(60)), 30 + d * math.cos(math.radians(60))),
        3: (10 + d * math.sin(math.radians(120)), 30 + d * math.cos(math.radians(120))),
        4: (10.0, 20.0),
        5: (10 - d * math.sin(math.radians(120)), 30 + d * math.cos(math.radians(120))),
        6: (10 - d * math.sin(math.radians(60)), 30 + d * math.cos(math.radians(60))),
    }
    for face, point in expected.items():
        assert deviate(origin, impact, 4, face).point == pytest.approx(point)


@pytest.mark.rule("II-C-5")
def test_dispersion_rolls_distance_then_direction_and_the_template_follows() -> None:
    roller = ScriptedRoller([3, 2])  # first d6: 8 cm; second d6: direction 2
    dev = roll_dispersion((0.0, 0.0), (20.0, 0.0), roller)  # fired along +x (east)
    assert (dev.distance_face, dev.direction_face, dev.distance_cm) == (3, 2, 8.0)
    # clockwise from east is south-east: 60° below the line of fire
    assert dev.point == pytest.approx((20 + 4.0, -8 * math.sin(math.radians(60))))
    # a 5 cm template moved with the point of impact
    fighters = {"on_impact": sq(20, 0, 180), "on_landing": sq(24, -7, 180)}
    assert fighters_in_area((20.0, 0.0), 5, fighters) == ["on_impact"]
    assert fighters_in_area(dev.point, 5, fighters) == ["on_landing"]


@pytest.mark.rule("II-C-5")
def test_exact_distribution_of_the_landing_point() -> None:
    origin, impact = (0.0, 0.0), (0.0, 20.0)
    dist = dispersion_distribution(origin, impact)
    assert len(dist) == 36 and set(dist.values()) == {Fraction(1, 36)}
    assert sum(dist.values()) == 1
    # farther from the origin: directions 1, 2 and 6 (a forward component), whatever the
    # distance; 3, 4, 5 come closer (for any deviation under 20 cm): exactly one half
    assert p_landing(origin, impact, lambda p: math.hypot(*p) > 20) == Fraction(1, 2)
    # within 10 cm of the intended point: distance faces 1 to 4
    assert p_landing(origin, impact, lambda p: math.dist(p, impact) <= 10 + 1e-9) == Fraction(2, 3)
    # a fighter 12 cm straight behind the impact is touched by a 3 cm template when the
    # point lands within 3 cm of his base (y 6.75 to 9.25): direction 4 (straight back) at
    # 8, 10, 12 or 14 cm; the other directions land too far to the side
    target = sq(0, 20 - 12, 90)
    assert p_landing(origin, impact, lambda p: touches(p, 3, target)) == Fraction(4, 36)
