"""Rulebook II-D (line of sight and field of view), II-D-1 (scenery elements), II-F (altitude
levels) and II-F-2 (interactions between levels 0 and 1): the statements of the text that the
diagrams of test_ii_d_e_f_geometry.py do not replay, checked against the geometry and the
rules. Units: cm, origin at the table's lower-left corner, 90° = up the table."""

from __future__ import annotations

from dataclasses import replace

import pytest
from shapely.geometry import box

from confrontation.geometry import (
    Base,
    Battlefield,
    Scenery,
    Sight,
    Table,
    in_contact,
    in_field_of_view,
    line_of_sight,
    move_obstacles,
)
from confrontation.geometry.areas import fighters_in_area
from confrontation.rules.altitude import (
    Interaction,
    Level,
    affects_level,
    altitude_level,
    interaction_allowed,
)
from confrontation.rules.shooting import default_shooting_table


def sq(x: float, y: float, facing: float = 90.0, size: str = "normal", level: int = 0) -> Base:
    return Base.of(size, "square", x, y, facing, level=level)


# --- II-D -----------------------------------------------------------------------------------


@pytest.mark.rule("II-D")
def test_an_enemy_not_visible_cannot_be_charged_or_shot_one_partly_visible_can() -> None:
    # "it is impossible to charge an enemy who is not visible or even to shoot at him": the
    # engine offers charges and shots only on targets with Sight.any (V-B-3, VI-A-1).
    house = Scenery.rect("house", 60, 25, 10, 4, height="very-large", passable=False)
    low_wall = Scenery.rect("wall", 60, 55, 10, 1, height="small")
    fighters = {"A": sq(60, 10), "hidden": sq(60, 40, 270), "behind_wall": sq(60, 58, 270)}
    shooter = dict(fighters, A=sq(80, 10))
    field = Battlefield(Table(), fighters, (house, low_wall))
    assert field.sight("A", "hidden") is Sight.NONE and not field.sight("A", "hidden").any
    aside = Battlefield(Table(), shooter, (house, low_wall))
    # from the side the house no longer hides it, and the low wall only partly
    assert aside.sight("A", "hidden").any
    assert aside.sight("A", "behind_wall") is Sight.PARTIAL and aside.sight("A", "behind_wall").any


@pytest.mark.rule("II-D", "II-D-2")
def test_sight_needs_the_field_of_view_not_only_a_clear_line() -> None:
    # Nothing on the table; the enemy 10 cm behind the fighter's back is not seen, the one
    # 10 cm in front is: seeing is line of sight within the field of view.
    a = sq(60, 30, 90)
    front, back = sq(60, 42.5, 270), sq(60, 17.5, 90)
    assert in_field_of_view(a, front.x, front.y) and not in_field_of_view(a, back.x, back.y)
    assert line_of_sight(a, front) is Sight.SEES
    assert line_of_sight(a, back) is Sight.NONE
    assert line_of_sight(a.facing_point(back.x, back.y), back) is Sight.SEES  # turned round


# --- II-D-1 ---------------------------------------------------------------------------------


def _grove() -> tuple[Scenery, ...]:
    # four trees (2 cm trunks, centres 3 cm apart) in a row between the shooter and the
    # target; the two middle trunks stand on either side of the straight line between them
    return tuple(Scenery.circle(f"tree{i}", 55.5 + 3 * i, 25, 2, height="large") for i in range(4))


@pytest.mark.rule("II-D-1")
def test_four_trees_are_not_an_impenetrable_forest() -> None:
    fighters = {"shooter": sq(60, 10), "target": sq(60, 40, 270)}
    trees = Battlefield(Table(), fighters, _grove())
    # lines pass between the trunks: the target is partly seen and may be targeted
    assert trees.sight("shooter", "target") is Sight.PARTIAL
    # the same ground declared a forest by the players' convention (one element whose
    # footprint is the whole grove) hides him
    forest = Scenery("forest", box(54.5, 24, 65.5, 26), height="large")
    assert Battlefield(Table(), fighters, (forest,)).sight("shooter", "target") is Sight.NONE


@pytest.mark.rule("II-D-1", "II-D-3")
def test_the_size_agreed_for_a_scenery_element_decides_what_it_hides() -> None:
    # "define at the beginning of the game the size of some scenery elements relative to the
    # size of the fighters": the same ruin, agreed small / normal / large / flat.
    ruin = Scenery.rect("ruin", 60, 25, 12, 4)
    fighters = {
        "A": sq(60, 10),
        "B": sq(60, 40, 270),
        "big": sq(60, 40, 270, size="large"),
    }

    def sight(height: str, target: str) -> Sight:
        field = Battlefield(
            Table(),
            {"A": fighters["A"], target: fighters[target]},
            (replace(ruin, height=height),),
        )
        return field.sight("A", target)

    assert sight("small", "B") is Sight.PARTIAL  # smaller than both: looked over
    assert sight("normal", "B") is Sight.NONE  # as large as both: hides
    assert sight("normal", "big") is Sight.PARTIAL  # smaller than the large target
    assert sight("large", "big") is Sight.NONE
    assert sight("flat", "B") is Sight.SEES  # a flat element (a road, a pond) hides nothing


# --- II-F -----------------------------------------------------------------------------------


@pytest.mark.rule("II-F")
def test_two_altitude_levels() -> None:
    assert [int(v) for v in Level] == [0, 1]
    assert altitude_level() is Level.GROUND  # on the ground, or on a scenery element
    assert altitude_level(flying=True) is Level.AIR  # a move in flight (Flight/X)
    assert altitude_level(raised_by_effect=True) is Level.AIR  # a spell, a miracle...
    on_the_ground = sq(60, 30)
    flying = replace(on_the_ground, level=altitude_level(flying=True))
    # a fighter over another one at level 0 is not in contact with him (II-F-1)
    assert flying.polygon.equals(on_the_ground.polygon)
    assert not in_contact(on_the_ground, flying)


# --- II-F-2 ---------------------------------------------------------------------------------


@pytest.mark.rule("II-F-2")
def test_a_game_effect_affects_only_the_level_of_the_fighter_generating_it() -> None:
    caster = sq(60, 30)
    fighters = {
        "caster": caster,
        "friend": sq(64, 30),
        "flier": sq(60, 34, level=1),
        "far_flier": sq(60, 60, level=1),
    }
    assert fighters_in_area(caster, 10, fighters, level=caster.level) == ["caster", "friend"]
    airborne = sq(60, 30, level=1)
    around_flier = {**fighters, "caster": airborne}
    assert fighters_in_area(airborne, 10, around_flier, level=1) == ["caster", "flier"]
    # unless the text of the effect says it reaches both levels
    assert fighters_in_area(caster, 10, fighters, level=None) == ["caster", "friend", "flier"]
    assert affects_level(0, 0) and affects_level(1, 1)
    assert not affects_level(0, 1) and not affects_level(1, 0)
    assert affects_level(0, 1, both_levels=True)
    with pytest.raises(ValueError, match="0 or 1"):
        affects_level(0, 2)


@pytest.mark.rule("II-F-2", "II-F-1")
def test_what_may_and_may_not_cross_between_levels_0_and_1() -> None:
    ground, flier = sq(60, 30), sq(60, 32.5, 270, level=1)
    # contact (hence charges and close combat) only within a level
    assert not in_contact(ground, flier)
    assert not interaction_allowed(Interaction.CONTACT, 0, 1)
    assert interaction_allowed(Interaction.CONTACT, 1, 1)
    # sight crosses, even past a barrier at level 0
    wall = Scenery.rect("wall", 60, 45, 20, 2, height="very-large", passable=False)
    far_flier = sq(60, 55, 270, level=1)
    field = Battlefield(Table(), {"g": ground, "f": far_flier}, (wall,))
    assert field.sight("g", "f") is Sight.SEES
    assert interaction_allowed(Interaction.SIGHT, 0, 1)
    # shots cross too, with the altitude modifier of the shooting rules (VI-A-3)
    assert interaction_allowed(Interaction.SHOT, 1, 0)
    assert default_shooting_table().altitude > 0
    # effects: only the generating level, unless their text says otherwise
    assert not interaction_allowed(Interaction.EFFECT, 0, 1)
    assert interaction_allowed(Interaction.EFFECT, 0, 1, both_levels=True)
    # a flier's move goes over the fighters and the scenery of level 0
    walkers = [sq(60, 40), sq(70, 40)]
    assert move_obstacles(flier, walkers, [wall]) == []
    assert len(move_obstacles(ground, walkers, [wall])) == 3
