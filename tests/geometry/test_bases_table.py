"""Bases (I-B), size limits (II-E-3), field of view (II-D-2) and tables (III-A-1)."""

from __future__ import annotations

import pytest

from confrontation.geometry import Base, Table, in_field_of_view, max_enemies_in_contact
from confrontation.geometry.bases import load_base_table
from confrontation.geometry.table import OPEN_BOUND_CM


@pytest.mark.rule("I-B")
@pytest.mark.parametrize(
    ("size", "kind", "square", "round_mm"),
    [
        ("small", None, (25, 25), 30),
        ("normal", None, (25, 25), 30),
        ("large", None, (37.5, 37.5), 40),
        ("large", "cavalry", (25, 50), 50),
        ("large", "ophidian", (50, 50), 50),
        ("very-large", None, (50, 50), 60),
        ("very-large", "war-machine", (50, 50), 60),
    ],
)
def test_base_sizes(
    size: str, kind: str | None, square: tuple[float, float], round_mm: float
) -> None:
    s = Base.of(size, "square", 0, 0, kind=kind)
    r = Base.of(size, "round", 0, 0, kind=kind)
    assert (s.width_mm, s.depth_mm) == square
    assert r.width_mm == r.depth_mm == round_mm
    assert s.polygon.area == pytest.approx(square[0] * square[1] / 100)


def test_unknown_size_and_shape_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown size"):
        Base.of("huge", "square", 0, 0)
    with pytest.raises(ValueError, match="shape"):
        Base.of("normal", "hexagon", 0, 0)  # type: ignore[arg-type]


def test_base_file_can_be_replaced(tmp_path: pytest.TempPathFactory) -> None:
    from pathlib import Path

    text = (Path(__file__).parents[2] / "src/confrontation/data/bases.toml").read_text()
    f = Path(str(tmp_path)) / "bases.toml"
    f.write_text(text.replace("round = 30.0", "round = 32.0", 1))
    assert load_base_table(f).dimensions("small", "round") == (32.0, 32.0)


@pytest.mark.rule("II-E-3")
@pytest.mark.parametrize(
    ("size", "n"), [("small", 3), ("normal", 4), ("large", 6), ("very-large", 8), ("titan", 16)]
)
def test_enemies_in_contact_by_size(size: str, n: int) -> None:
    assert max_enemies_in_contact(size) == n


@pytest.mark.rule("II-D-2", "II-F-1")
@pytest.mark.parametrize(
    ("facing", "point", "level", "seen"),
    [
        (90, (10, 20), 0, True),  # straight ahead
        (90, (30, 11.25), 0, True),  # on the line of the front edge: 180° inclusive
        (90, (30, 11.0), 0, False),  # just behind that line
        (90, (10, 0), 0, False),  # behind
        (90, (10, 0), 1, True),  # 360° at level 1
        (0, (20, 10), 0, True),
        (0, (0, 10), 0, False),
        (180, (0, 10), 0, True),
        (270, (10, 0), 0, True),
        (45, (20, 20), 0, True),
        (45, (0, 0), 0, False),
    ],
)
def test_field_of_view(facing: float, point: tuple[float, float], level: int, seen: bool) -> None:
    viewer = Base.of("normal", "square", 10, 10, facing, level=level)
    assert in_field_of_view(viewer, *point) is seen


@pytest.mark.rule("II-D-2")
def test_sight_is_the_front_centre() -> None:
    assert Base.of("normal", "square", 10, 10, 0).sight == pytest.approx((11.25, 10))
    assert Base.of("large", "round", 10, 10, 90).sight == pytest.approx((10, 12))
    cav = Base.of("large", "square", 10, 10, 90, kind="cavalry")
    assert cav.sight == pytest.approx((10, 12.5))


T = OPEN_BOUND_CM


@pytest.mark.rule("III-A-1")
@pytest.mark.parametrize(
    ("fmt", "split", "one", "two"),
    [
        # III-A-1 "more than 15 cm and less than 50 cm": both bounds open (CLARIFICATIONS §9),
        # T short of each; the table's edges stay closed
        ("120x60", "width", (10 + T, 0, 45 - T, 60), (75 + T, 0, 110 - T, 60)),
        ("120x60", "length", (0, 0, 120, 15 - T), (0, 45 + T, 120, 60)),
        ("90x90", "width", (0, 0, 30 - T, 90), (60 + T, 0, 90, 90)),
        ("60x60", "length", (0, 0, 60, 15 - T), (0, 45 + T, 60, 60)),
    ],
)
def test_line_of_battle_zones(
    fmt: str, split: str, one: tuple[float, ...], two: tuple[float, ...]
) -> None:
    a, b = Table.of(fmt).line_of_battle(split)  # type: ignore[arg-type]
    assert a.area.bounds == pytest.approx(one, abs=1e-9)
    assert b.area.bounds == pytest.approx(two, abs=1e-9)


def test_unknown_table_format() -> None:
    with pytest.raises(ValueError, match="120x60"):
        Table.of("100x100")
