"""The tenth round's screens of the destinations (dest3, issue 22) never contradict the
computations they spare: a spot the numpy screen calls free (or taken) is one
``Field.spot_problem`` finds nothing (or something) at, a corridor the exact bounds call met
(or clear) is one GEOS finds meeting an obstacle (or none) -- on every spot and corridor of
whole games and on random bases, round ones included, and random scenery."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.engine.table import field as table_field
from confrontation.engine.table.field import Field, _Obstacles
from confrontation.geometry.bases import Base
from confrontation.geometry.contact import outer_radius
from confrontation.geometry.field import Battlefield
from confrontation.geometry.scenery import Scenery
from confrontation.geometry.table import Table
from confrontation.sim.game import GameConfig, play_game

TABLE = Table(120.0, 60.0)


@pytest.fixture
def screened(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[Any, int]]:
    """Every spot screened in the games played checked against ``Field.spot_problem``;
    yields how many spots got each answer."""
    counts: dict[Any, int] = {True: 0, False: 0, None: 0}
    screen = Field.spot_screen

    def checked(self: Field, mover: str, spots: list[Base], short: list[bool]) -> list[Any]:
        got = screen(self, mover, spots, short)
        for spot, flag, known in zip(spots, short, got, strict=True):
            problem = self.spot_problem(mover, spot, enemies_apart=True, at_most_mov=flag)
            if known is not None:
                assert (problem is None) is known, (spot, problem)
            counts[known] += 1
        return got

    monkeypatch.setattr(Field, "spot_screen", checked)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    yield counts
    table_field._FIELDS.clear()
    table_field._LAST.clear()


def test_every_spot_screened_in_whole_games_is_as_spot_problem_says(
    screened: dict[Any, int],
) -> None:
    play_game(GameConfig(agents=("greedy", "greedy"), seed=1))
    play_game(GameConfig(agents=("random", "random"), seed=2))
    total = sum(screened.values())
    # the screen settles most spots, both ways
    assert total > 300 and screened[True] > total // 2 and screened[False] > total // 20


_xy = st.floats(min_value=-3.0, max_value=123.0, allow_nan=False)
_facing = st.floats(min_value=0.0, max_value=360.0, allow_nan=False)
_shape = st.sampled_from(["square", "square", "round"])
_side = st.sampled_from([25.0, 37.5, 50.0])
_bases = st.lists(st.tuples(_xy, _xy, _facing, _shape, _side, _side), min_size=1, max_size=10)
_scenery = st.lists(
    st.tuples(
        _xy,
        _xy,
        st.floats(0.5, 15.0),
        st.floats(0.5, 15.0),
        _facing,
        st.sampled_from(["impassable", "normal", "large"]),
    ),
    max_size=4,
)
# spots: near a base (offset and turn) or anywhere
_spots = st.lists(
    st.tuples(st.integers(0, 9), st.floats(-6.0, 6.0), st.floats(-6.0, 6.0), _facing),
    min_size=1,
    max_size=12,
)


def _field(
    bases: list[tuple[float, float, float, str, float, float]],
    scenery: list[tuple[float, float, float, float, float, str]],
) -> Field:
    placed = {
        f"f{k}": Base(x, y, facing, cast(Any, shape), w, d)
        for k, (x, y, facing, shape, w, d) in enumerate(bases)
    }
    elements = tuple(
        Scenery.rect(
            f"s{k}",
            x,
            y,
            w,
            d,
            angle,
            height="normal" if kind == "impassable" else kind,
            passable=kind != "impassable",
        )
        for k, (x, y, w, d, angle, kind) in enumerate(scenery)
    )
    return Field(
        ground=cast(Any, None),
        table=TABLE,
        scenery=elements,
        battlefield=Battlefield(TABLE, placed, elements),
        owners={i: k % 2 for k, i in enumerate(placed)},
    )


@settings(max_examples=300, deadline=None)
@given(_bases, _scenery, _spots, st.booleans())
def test_the_screen_never_contradicts_spot_problem(
    bases: list[tuple[float, float, float, str, float, float]],
    scenery: list[tuple[float, float, float, float, float, str]],
    spots: list[tuple[int, float, float, float]],
    short: bool,
) -> None:
    here = _field(bases, scenery)
    mover = "f0"
    template = here.base(mover)
    ids = list(here.ids())
    places = []
    for k, dx, dy, facing in spots:
        near = here.base(ids[k % len(ids)])
        places.append(template.moved(near.x + dx, near.y + dy, facing))
    flags = [short if k % 3 else not short for k in range(len(places))]
    got = here.spot_screen(mover, places, flags)
    for spot, flag, known in zip(places, flags, got, strict=True):
        problem = here.spot_problem(mover, spot, enemies_apart=True, at_most_mov=flag)
        if known is not None:
            assert (problem is None) is known, (spot, problem)


def test_the_screen_is_tight_enough_to_matter() -> None:
    """A 2.5 cm square beside an enemy's: 0.1 cm apart, free; 0.001 cm apart, not known
    (``spot_problem`` measures: too close to an enemy); overlapping by 0.5 cm, taken; touching,
    not known. Off the table by 1 cm, taken; 0.01 cm inside its edge, free; on it, not known.
    A square overlapping a long base along its length, or a corner 0.1 cm deep, taken; 0.01
    cm deep, not known. A round base's circle 0.1 cm
    clear of an enemy square's corner, free."""
    here = _field(
        [(20.0, 20.0, 90.0, "square", 25.0, 25.0), (40.0, 20.0, 90.0, "square", 25.0, 25.0)], []
    )
    t = here.base("f0")
    spots = [
        t.moved(40.0 - 2.6, 20.0),
        t.moved(40.0 - 2.501, 20.0),
        t.moved(40.0 - 2.0, 20.0),
        t.moved(40.0 - 2.5, 20.0),
        t.moved(0.25, 20.0),
        t.moved(1.25 + 0.01, 40.0),  # 0.01 cm inside the edge
    ]
    assert here.spot_screen("f0", spots, [False] * 6) == [True, None, False, None, False, True]
    assert here.spot_screen("f0", [t.moved(1.25, 40.0)], [False]) == [None]  # on the edge
    assert here.spot_problem("f0", t.moved(1.25, 40.0), enemies_apart=True) is None
    # a 2.5 x 5 cm base facing along x: a square 3.25 cm ahead of its centre overlaps it
    here = _field(
        [(20.0, 20.0, 0.0, "square", 25.0, 25.0), (40.0, 20.0, 0.0, "square", 25.0, 50.0)], []
    )
    over = here.base("f0").moved(40.0 + 3.25, 20.0, 0.0)
    assert here.spot_screen("f0", [over], [False]) == [False]  # its corners inside
    assert here.spot_problem("f0", over, enemies_apart=True) == "on another fighter's base"
    # squares turned 45°, overlapping corner to corner by 0.1 cm / 0.01 cm along x
    corner = 1.25 * math.sqrt(2.0)
    deep = here.base("f0").moved(40.0 + 2.5 + corner - 0.1, 20.0, 45.0)
    shallow = here.base("f0").moved(40.0 + 2.5 + corner - 0.01, 20.0, 45.0)
    assert here.spot_screen("f0", [deep, shallow], [False, False]) == [False, None]
    assert here.spot_problem("f0", deep, enemies_apart=True) == "on another fighter's base"
    corner = math.hypot(1.25, 1.25)
    gap = corner + 1.5 + 0.1  # a 30 mm round base, diagonally off the corner
    round_ = Base(20.0, 40.0, 90.0, "round", 30.0, 30.0)
    here = _field(
        [(20.0, 40.0, 90.0, "round", 30.0, 30.0), (40.0, 20.0, 0.0, "square", 25.0, 25.0)], []
    )
    away = round_.moved(40.0 + gap / math.sqrt(2.0), 20.0 + gap / math.sqrt(2.0))
    assert here.spot_screen("f0", [away], [False]) == [True]
    assert here.spot_problem("f0", away, enemies_apart=True) is None


# --- corridors settled by exact bounds (_Obstacles.settle_many) ------------------------------


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, int]]:
    """Every corridor settled in the games played checked against GEOS alone (the corridor
    built and tested), and every longest clear move against the ninth round's (circle
    bounds, then GEOS); yields how many corridors got each answer (1 met, 0 clear, -1
    unknown)."""
    counts = {1: 0, 0: 0, -1: 0}
    settle, longest = _Obstacles.settle_many, table_field._longest_clear

    def checked(self: _Obstacles, starts: Any, ends: Any, width: float) -> Any:
        got = settle(self, starts, ends, width)
        lines = [
            ((a.real, a.imag), (b.real, b.imag))
            for a, b in zip(starts.tolist(), ends.tolist(), strict=True)
        ]
        geos = table_field._corridor_geos_hits(lines, width, self)
        for answer, hit in zip(got.tolist(), geos, strict=True):
            if answer != -1:
                assert bool(answer) is hit
            counts[answer] += 1
        return got

    def checked_longest(
        heads: list[tuple[str, float, float, float, float]],
        sight: tuple[float, float],
        width: float,
        mov: float,
        near: _Obstacles,
        far: _Obstacles,
    ) -> list[float]:
        got = longest(heads, sight, width, mov, near, far)
        kept = near._rects, far._rects
        near._rects = far._rects = None
        try:
            assert got == longest(heads, sight, width, mov, near, far)
        finally:
            near._rects, far._rects = kept
        return got

    monkeypatch.setattr(_Obstacles, "settle_many", checked)
    monkeypatch.setattr(table_field, "_longest_clear", checked_longest)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    yield counts
    table_field._FIELDS.clear()
    table_field._LAST.clear()


def test_every_corridor_settled_in_whole_games_is_as_geos_says(
    settled: dict[int, int],
) -> None:
    play_game(GameConfig(agents=("greedy", "greedy"), seed=1))
    play_game(GameConfig(agents=("random", "random"), seed=2))
    total = sum(settled.values())
    assert total > 1000 and settled[1] > total // 10 and settled[0] > total // 3
    assert settled[-1] < total // 50  # GEOS builds almost none


def _obstacles(
    bases: list[tuple[float, float, float, str, float, float]],
    scenery: list[tuple[float, float, float, float, float, str]],
) -> _Obstacles:
    here = _field(bases, scenery)
    placed = [here.base(i) for i in here.ids()]
    blocked = [e.footprint for e in here.scenery]
    circles = [(b.x, b.y, outer_radius(b)) for b in placed]
    cores = [(b.x, b.y, table_field._core(b)) for b in placed]
    for shape in blocked:
        x0, y0, x1, y1 = shape.bounds
        circles.append(((x0 + x1) / 2.0, (y0 + y1) / 2.0, math.hypot(x1 - x0, y1 - y0) / 2.0))
        core = table_field._scenery_core(shape)
        if core is not None:
            cores.append(core)
    rects = [
        (b.x, b.y, 1.0, 0.0, b.radius, b.radius, b.radius)
        if b.shape == "round"
        else (b.x, b.y, *b.front, b.depth / 2.0, b.width / 2.0, 0.0)
        for b in placed
    ]
    return _Obstacles(TABLE, [b.polygon for b in placed] + blocked, circles, cores, rects)


_ends = st.lists(
    st.tuples(
        st.floats(-8.0, 128.0), st.floats(-8.0, 68.0), st.floats(-8.0, 128.0), st.floats(-8.0, 68.0)
    ),
    min_size=1,
    max_size=16,
)


@settings(max_examples=300, deadline=None)
@given(_bases, _scenery, _ends, st.sampled_from([2.5, 3.75, 5.0]), st.integers(0, 9))
def test_a_settled_corridor_is_as_geos_says(
    bases: list[tuple[float, float, float, str, float, float]],
    scenery: list[tuple[float, float, float, float, float, str]],
    ends: list[tuple[float, float, float, float]],
    width: float,
    aim: int,
) -> None:
    """Random segments, some aimed at a base's side (passing within a few mm of it)."""
    obstacles = _obstacles(bases, [s for s in scenery if s[5] == "impassable"])
    target = bases[aim % len(bases)]
    lines = [((a, b), (c, d)) for a, b, c, d in ends]
    x, y = target[0], target[1]
    for k, (a, b, _, _) in enumerate(ends):
        side = width / 2.0 - 0.01 + target[4] / 20.0 + 0.002 * (k - 4)
        lines.append(((a, b), (x + side, y + (k - 8))))
    lines = [line for line in lines if math.dist(*line) > 1e-6]
    if not lines:
        return
    starts = np.array([complex(*a) for a, _ in lines])
    stops = np.array([complex(*b) for _, b in lines])
    got = obstacles.settle_many(starts, stops, width).tolist()
    geos = table_field._corridor_geos_hits(lines, width, obstacles)
    for answer, hit in zip(got, geos, strict=True):
        if answer != -1:
            assert bool(answer) is hit


def test_the_corridor_bounds_are_tight_enough_to_matter() -> None:
    """A 5 cm square at (60, 30) and an impassable 10 x 10 cm block at (20, 30): a corridor
    0.5 cm wide cutting the square's corner is met (its ends and the corners are farther
    than its radius); corridors 2.5 cm wide (radius 1.24, 0.998 of it 1.2375) passing 1.22
    cm from the block are met, 1.2385 cm not known, 1.26 cm clear; ending 1.239 cm from
    the table's edge not known, 1.2401 cm clear."""
    obstacles = _obstacles(
        [(60.0, 30.0, 0.0, "square", 50.0, 50.0)], [(20.0, 30.0, 10.0, 10.0, 0.0, "impassable")]
    )
    cut = 2.5 + 2.5 - 0.5  # x + y along the line cutting the corner (62.5, 32.5) by 0.5 cm
    corner = ((60.0 + cut - 3.0, 30.0 + 3.0), (60.0 + 3.0, 30.0 + cut - 3.0))
    lines = [corner]
    for gap in (1.22, 1.2385, 1.26):  # above the block's top side (y = 35)
        lines.append(((16.0, 35.0 + gap), (24.0, 35.0 + gap)))
    for gap in (1.239, 1.2401):  # ending near the table's right edge
        lines.append(((100.0, 50.0), (120.0 - gap, 50.0)))
    starts = np.array([complex(*a) for a, _ in lines])
    stops = np.array([complex(*b) for _, b in lines])
    got = obstacles.settle_many(starts[:1], stops[:1], 0.5).tolist()
    got += obstacles.settle_many(starts[1:], stops[1:], 2.5).tolist()
    assert got == [1, 1, -1, 0, -1, 0]
    geos = table_field._corridor_geos_hits(lines[:1], 0.5, obstacles)
    geos += table_field._corridor_geos_hits(lines[1:], 2.5, obstacles)
    assert [geos[k] for k in (0, 1, 3, 5)] == [True, True, False, False]


_point = st.tuples(st.floats(0.0, 120.0), st.floats(0.0, 60.0))


@settings(max_examples=300, deadline=None)
@given(st.lists(_point, max_size=12), st.lists(_point, max_size=8), st.booleans())
def test_the_nearest_enemy_of_many_moves_is_mins(
    points: list[tuple[float, float]], centres: list[tuple[float, float]], twins: bool
) -> None:
    """``_nearest`` finds what ``min`` finds, the first of equals included (``twins``: two
    centres equally far from every point, mirrored about it, and repeated ones)."""
    if twins and points and centres:
        x, y = points[0]
        cx, cy = centres[0]
        centres = [*centres, (2.0 * x - cx, 2.0 * y - cy), centres[0]]
    got = table_field._nearest(points, centres)
    want = [min(centres, key=lambda c: math.dist(c, p)) if centres else None for p in points]
    assert got == want


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_rect_gaps_past_the_float_range_answer_without_a_warning() -> None:
    # a segment of 1e-160 cm inside a rectangle 1e200 cm deep: the projections' quotients
    # pass the float range (they are clipped to the segment's ends), the answer is 0
    a, b = np.array([0j, 0j]), np.array([1e-160 + 0j, 1e-160 + 0j])
    rects = np.array([[0.0, 0.0, 1.0, 0.0, 1e200, 1.0], [0.0, 5.0, 1.0, 0.0, 1e200, 1.0]])
    gaps = table_field._rect_gaps(a, b, rects)
    assert gaps[0] == 0.0
    assert gaps[1] == pytest.approx(4.0)  # the second rectangle 5 cm aside, 1 cm half width
