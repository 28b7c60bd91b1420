"""The eighth round's shortcuts (shapefree, issue 22) answer as the geometry they replace:
spot checks and deployment checks settled by bounding boxes, distances between square bases
kept per pair of bases, kept contacts that skip far bases before asking GEOS, and the
bounds of shapes kept per shape -- checked over whole games and on random shapes."""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from confrontation.engine.table import field as table_field
from confrontation.engine.table.field import (
    APART_CM,
    Field,
    _base,
    _bounds,
    _box_gap,
    _Deployable,
    _may_touch,
    _outer_box,
    _outer_boxes,
    on_area,
)
from confrontation.geometry import measure
from confrontation.geometry.bases import Base, size_rank
from confrontation.sim.game import GameConfig, play_game

_xy = st.floats(min_value=0.0, max_value=120.0, allow_nan=False)
_facing = st.floats(min_value=0.0, max_value=360.0, allow_nan=False)
_side = st.sampled_from([20.0, 25.0, 37.5, 40.0, 50.0])
_bases = st.builds(
    lambda x, y, f, w, d, shape: Base(x, y, f, shape, w, d),
    _xy,
    _xy,
    _facing,
    _side,
    _side,
    st.sampled_from(["square", "square", "round"]),
)


def _fresh_distance(a: Base, b: Base) -> float:
    """:func:`measure.distance` without its kept answers."""
    if a.shape == "square" and b.shape == "square":
        return float(a.polygon.distance(b.polygon))
    return measure.distance(a, b)


def _full_overlap(here: Field, mover: str, base: Base) -> float:
    others = here.others(mover)
    return 0.0 if others.is_empty else float(base.polygon.intersection(others).area)


def _full_spot_problem(
    here: Field, mover: str, base: Base, enemies_apart: bool, at_most_mov: bool, area: object
) -> str | None:
    """:meth:`Field.spot_problem` with every test made on the shapes (no box, no circle)."""
    limits = area if area is not None else here.table.area
    if not on_area(limits, base.polygon):
        return "off the table" if area is None else "out of the area"
    if _full_overlap(here, mover, base) > 1e-4:
        return "on another fighter's base"
    for shape in here.blocked_for(base.size, at_most_mov):
        if base.polygon.intersection(shape).area > 1e-4:
            return "on scenery he cannot cross"
    if enemies_apart:
        me = here.owners[mover]
        for other in here.ids():
            if here.owners[other] == me or other == mover:
                continue
            if _fresh_distance(base, here.base(other)) < APART_CM:
                return "in contact with an enemy"
    return None


def _full_deployable(check: _Deployable, base: Base) -> bool:
    """:class:`_Deployable` with every test made on the shapes."""
    here = check.here
    if not on_area(check.area, base.polygon):
        return False
    if _full_overlap(here, check.fighter_id, base) > 1e-4:
        return False
    rank = size_rank(base.size)
    for element in here.scenery:
        if (not element.passable or element.rank >= rank) and base.polygon.intersects(
            element.footprint
        ):
            return False
    for shape, _ in check.scenario:
        if base.polygon.intersects(shape):
            return False
        if check.scout_mov is not None and float(base.polygon.distance(shape)) <= check.scout_mov:
            return False
    return True


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Every spot check and deployment check of the games played compared with the full
    computation; yields how many answers were compared (and how many said no)."""
    counts = {
        "spots": 0,
        "spot refusals": 0,
        "deployments": 0,
        "deployment refusals": 0,
        "cleared by boxes": 0,
    }
    spot_problem, deploy = Field.spot_problem, _Deployable.__call__
    surely_clear = _Deployable.surely_clear

    def checked_spot(
        self: Field,
        mover: str,
        base: Base,
        *,
        enemies_apart: bool,
        at_most_mov: bool = False,
        area: object = None,
    ) -> str | None:
        got = spot_problem(
            self,
            mover,
            base,
            enemies_apart=enemies_apart,
            at_most_mov=at_most_mov,
            area=area,
        )
        assert got == _full_spot_problem(self, mover, base, enemies_apart, at_most_mov, area)
        counts["spots"] += 1
        counts["spot refusals"] += got is not None
        return got

    def checked_deploy(self: _Deployable, base: Base) -> bool:
        got = deploy(self, base)
        assert got == _full_deployable(self, base)
        counts["deployments"] += 1
        counts["deployment refusals"] += not got
        return got

    def checked_clear(
        self: _Deployable, template: Base, facing: float, places: list[tuple[float, float]]
    ) -> list[bool]:
        got = surely_clear(self, template, facing, places)
        for (x, y), clear in zip(places, got, strict=True):
            if clear:
                assert _full_deployable(self, template.moved(x, y, facing))
                counts["cleared by boxes"] += 1
        return got

    monkeypatch.setattr(Field, "spot_problem", checked_spot)
    monkeypatch.setattr(_Deployable, "surely_clear", checked_clear)
    monkeypatch.setattr(_Deployable, "__call__", checked_deploy)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    yield counts
    table_field._FIELDS.clear()
    table_field._LAST.clear()


def test_spot_and_deployment_checks_are_the_full_ones(checked: dict[str, int]) -> None:
    measure._SQUARE_GAPS.clear()
    play_game(GameConfig(agents=("greedy", "greedy"), seed=1))
    play_game(GameConfig(agents=("random", "random"), seed=2))
    assert checked["spots"] > 100 and checked["spot refusals"] > 10
    assert checked["deployments"] > 100 and checked["deployment refusals"] > 10
    assert checked["cleared by boxes"] > 100
    # the distances kept per pair of square bases are the ones GEOS gives now
    kept = list(measure._SQUARE_GAPS.items())
    assert len(kept) > 100
    for (a, b), gap in kept:
        assert gap == float(a.polygon.distance(b.polygon))


@settings(max_examples=300, deadline=None)
@given(_bases, _bases)
def test_square_distances_kept_are_exact(a: Base, b: Base) -> None:
    first = measure.distance(a, b)
    assert measure.distance(a, b) == first == _fresh_distance(a, b)
    moved = a.moved(a.x + 0.5, a.y)
    assert measure.distance(moved, b) == _fresh_distance(moved, b)


@settings(max_examples=300, deadline=None)
@given(_bases, _bases, st.floats(min_value=0.0, max_value=2.0))
def test_far_bases_cannot_touch(a: Base, b: Base, gap: float) -> None:
    if not _may_touch(a, b, gap):
        assert not shapely.dwithin(a.polygon, b.polygon, gap)
        assert float(a.polygon.distance(b.polygon)) > gap


@settings(max_examples=300, deadline=None)
@given(
    _bases,
    st.tuples(_xy, _xy, st.floats(0.1, 30.0), st.floats(0.1, 30.0)),
    st.floats(min_value=0.0, max_value=20.0),
)
def test_box_gap_is_a_lower_bound(base: Base, rect: tuple[float, ...], mov: float) -> None:
    x, y, w, h = rect
    shape = box(x, y, x + w, y + h)
    gap = _box_gap(_outer_box(base), _bounds(shape))
    assert gap <= float(base.polygon.distance(shape)) + 1e-9
    if gap > mov + 1e-6:  # the deployment check then skips GEOS: it would say "farther"
        assert float(base.polygon.distance(shape)) > mov


def test_bounds_are_kept_per_shape_object() -> None:
    for k in range(200):  # new shapes may reuse a freed id: each gets its own bounds
        shape = box(k, 2 * k, k + 1.5, 2 * k + 0.5)
        assert _bounds(shape) == shape.bounds
        assert _bounds(shape) == shape.bounds
    assert math.isclose(_bounds(box(0, 0, 1, 1))[2], 1.0)


@settings(max_examples=200, deadline=None)
@given(_bases, st.lists(st.tuples(_xy, _xy), min_size=1, max_size=6))
def test_outer_boxes_of_many_places_are_those_of_each(
    template: Base, places: list[tuple[float, float]]
) -> None:
    xs = np.array([p[0] for p in places])
    ys = np.array([p[1] for p in places])
    boxes = _outer_boxes(template, template.facing, xs, ys)
    for k, (x, y) in enumerate(places):
        one = _outer_box(template.moved(x, y))
        assert tuple(float(b[k]) for b in boxes) == one


@settings(max_examples=300, deadline=None)
@given(_bases)
def test_base_bounds_are_the_polygons(base: Base) -> None:
    assert base.bounds == base.polygon.bounds


def test_kept_bases_keep_the_sign_of_zero() -> None:
    plus = _base("normal", "square", 10.0, 10.0, 0.0, 0, (1.0, 1.0, 1.0))
    minus = _base("normal", "square", 10.0, 10.0, -0.0, 0, (1.0, 1.0, -1.0))
    assert math.copysign(1.0, plus.facing) == 1.0
    assert math.copysign(1.0, minus.facing) == -1.0
    assert _base("normal", "square", 10.0, 10.0, 0.0, 0, (1.0, 1.0, 1.0)) is plus
