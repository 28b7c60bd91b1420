"""rules/effects.py: the data file, parsing, and properties of dispersion (II-C)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.dice import ScriptedRoller
from confrontation.rules.effects import (
    AreaOfEffect,
    Duration,
    DurationKind,
    EffectsTableError,
    Keyword,
    Range,
    area_radius_distribution,
    default_effects_table,
    deviate,
    ends_this_turn,
    landing_distribution,
    load_effects_table,
    parse_area,
    parse_duration,
    parse_keyword,
    parse_range,
    roll_dispersion,
)

BUNDLED = Path(__file__).resolve().parents[2] / "src/confrontation/data/effects.toml"


@pytest.mark.rule("II-C-5", "II-C-3", "II-C-4")
def test_a_users_file_replaces_the_tables(tmp_path: Path) -> None:
    text = BUNDLED.read_text("utf-8")
    mine = text.replace("2 = 60\n", "2 = 90\n").replace('"gagne" = "kept"', '"gagne" = "while"')
    path = tmp_path / "effects.toml"
    path.write_text(mine, "utf-8")
    table = load_effects_table(path)
    assert table.source == str(path)
    assert table.direction[2] == 90.0 and default_effects_table().direction[2] == 60.0
    assert deviate((0, 0), (0, 10), 1, 2, table).point == pytest.approx((4.0, 10.0))
    assert parse_keyword("Gagne", table) is Keyword.BENEFIT
    assert parse_keyword("gagne") is Keyword.WIN


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("6 = 14\n", ""), "dispersion.distance: face 6 is missing"),
        (lambda t: t.replace("6 = 14\n", "7 = 14\n"), "key '7': a face is 1 to 6"),
        (lambda t: t.replace("1 = 4\n", '1 = "four"\n'), "key '1': expected a number"),
        (lambda t: t.replace("1 = 4\n", "1 = -4\n"), "a distance is never negative"),
        (lambda t: t.replace('"instant" = "instant"', '"instant" = "soon"'), "key 'instant'"),
        (lambda t: t + "\n[extra]\n", "unknown key 'extra'"),
        (lambda t: t + "\n[[[", "not valid TOML"),
    ],
)
def test_a_malformed_file_is_named_with_its_key(tmp_path: Path, edit: object, message: str) -> None:
    path = tmp_path / "bad.toml"
    assert callable(edit)
    path.write_text(edit(BUNDLED.read_text("utf-8")), "utf-8")
    with pytest.raises(EffectsTableError, match=message) as info:
        load_effects_table(path)
    assert str(info.value).startswith(str(path))


def test_an_unreadable_file() -> None:
    with pytest.raises(EffectsTableError, match="cannot read"):
        load_effects_table("/nonexistent/effects.toml")


@pytest.mark.rule("II-C-1", "II-C-2", "II-C-3", "II-C-4")
@pytest.mark.parametrize("text", ["", "fifteen", "15 inches", "0d6", "-3 cm", "d8"])
def test_unreadable_effect_texts(text: str) -> None:
    with pytest.raises(ValueError, match="area of effect"):
        parse_area(text)
    with pytest.raises(ValueError, match="range"):
        parse_range(text)
    with pytest.raises(ValueError, match="duration"):
        parse_duration(text)
    with pytest.raises(ValueError, match="keyword"):
        parse_keyword(text)


@pytest.mark.rule("II-C-1", "II-C-3")
def test_inconsistent_records_are_refused() -> None:
    with pytest.raises(ValueError):
        AreaOfEffect(one_fighter=True, radius_cm=5)
    with pytest.raises(ValueError):
        AreaOfEffect(radius_cm=5, dice=1)
    with pytest.raises(ValueError):
        Range(-1)
    with pytest.raises(ValueError):
        Duration(DurationKind.TURNS)
    with pytest.raises(ValueError):
        Duration(DurationKind.INSTANT, maintain_cost=1)
    with pytest.raises(ValueError):
        ends_this_turn(Duration(DurationKind.END_OF_TURN), 3, 2)
    with pytest.raises(ValueError, match="d6 face"):
        deviate((0, 0), (0, 1), 7, 1)
    with pytest.raises(ValueError, match="straight on"):
        deviate((5, 5), (5, 5), 1, 1)


@pytest.mark.rule("II-C-1")
@given(st.integers(1, 4))
def test_rolled_radius_distribution_is_the_sum_of_natural_dice(dice: int) -> None:
    dist = area_radius_distribution(AreaOfEffect(dice=dice))
    assert sum(dist.values()) == 1
    assert min(dist) == dice and max(dist) == 6 * dice
    mean = sum((Fraction(int(r)) * p for r, p in dist.items()), Fraction(0))
    assert mean == Fraction(7, 2) * dice


@pytest.mark.rule("II-C-3")
@given(st.integers(1, 10), st.integers(1, 10), st.integers(0, 12))
def test_an_effect_of_n_turns_is_active_in_exactly_n_maintenance_phases(
    n: int, applied: int, extra: int
) -> None:
    d = Duration(DurationKind.TURNS, turns=n)
    turns = range(applied, applied + n + extra)
    first_end = next(t for t in turns if ends_this_turn(d, applied, t))
    assert first_end - applied + 1 == n


points = st.tuples(st.floats(-100, 100), st.floats(-100, 100))


@pytest.mark.rule("II-C-5")
@given(points, st.floats(1, 80), st.floats(0, 360), st.integers(1, 6), st.integers(1, 6))
def test_dispersion_geometry(
    origin: tuple[float, float], reach: float, angle: float, dist_face: int, dir_face: int
) -> None:
    a = math.radians(angle)
    impact = (origin[0] + reach * math.cos(a), origin[1] + reach * math.sin(a))
    dev = deviate(origin, impact, dist_face, dir_face)
    moved = (dev.point[0] - impact[0], dev.point[1] - impact[1])
    assert math.hypot(*moved) == pytest.approx(2 * dist_face + 2, abs=1e-9)
    # the angle turned from "straight on" is (face - 1) x 60° clockwise
    ahead = (impact[0] - origin[0], impact[1] - origin[1])
    cross = ahead[0] * moved[1] - ahead[1] * moved[0]  # > 0: turned counter-clockwise
    dot = ahead[0] * moved[0] + ahead[1] * moved[1]
    turned = (-math.degrees(math.atan2(cross, dot))) % 360
    assert min(abs(turned - 60 * (dir_face - 1)), 360 - abs(turned - 60 * (dir_face - 1))) < 1e-6
    roller = ScriptedRoller([dist_face, dir_face])
    assert roll_dispersion(origin, impact, roller) == dev


@pytest.mark.rule("II-C-5")
def test_the_distribution_is_the_36_face_pairs() -> None:
    landings = landing_distribution((0, 0), (10, 0))
    assert sorted((x.deviation.distance_face, x.deviation.direction_face) for x in landings) == [
        (d, r) for d in range(1, 7) for r in range(1, 7)
    ]
    assert sum(x.probability for x in landings) == 1
    # with no line of fire (impact on the origin), a heading stands in for it
    up = deviate((5, 5), (5, 5), 1, 1, heading_deg=90)
    assert up.point == pytest.approx((5, 9))
