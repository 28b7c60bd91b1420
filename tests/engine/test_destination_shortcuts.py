"""The contact round's shortcuts in the destinations (issue 22) answer as the code they
replace: the straight-move bound of many corridors at once as the bound of each, the longest
clear moves (every bound taken first) as a fraction at a time, and the headings (scenery
sorted by one bulk GEOS distance, grown outlines kept) as the plain ones -- on random
segments and on every call of whole games."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import MultiPoint, Point, box

from confrontation.engine.table import field as table_field
from confrontation.engine.table.field import (
    CLEARANCE_CM,
    DIRECTIONS,
    NEAREST,
    Field,
    _corridors_clear,
    _Obstacles,
)
from confrontation.geometry.measure import point_distance
from confrontation.geometry.table import Table
from confrontation.sim.game import GameConfig, play_game

TABLE = Table(120.0, 60.0)

_coord = st.floats(min_value=-5.0, max_value=125.0, allow_nan=False)
_boxes = st.lists(st.tuples(_coord, _coord, st.floats(0.5, 8.0), st.floats(0.5, 8.0)), max_size=12)
_segments = st.lists(st.tuples(_coord, _coord, _coord, _coord), min_size=1, max_size=12)


def _obstacles(boxes: list[tuple[float, float, float, float]]) -> _Obstacles:
    shapes = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    circles = [(x + w / 2.0, y + h / 2.0, math.hypot(w, h) / 2.0) for x, y, w, h in boxes]
    return _Obstacles(TABLE, list(shapes), circles)


@settings(max_examples=200, deadline=None)
@given(_boxes, _segments, st.floats(0.5, 6.0), st.booleans())
def test_the_bound_of_many_corridors_is_the_bound_of_each(
    boxes: list[tuple[float, float, float, float]],
    segments: list[tuple[float, float, float, float]],
    width: float,
    degenerate: bool,
) -> None:
    obstacles = _obstacles(boxes)
    pairs = [((a, b), (c, d)) for a, b, c, d in segments]
    if degenerate:  # a segment of no length
        pairs.append((pairs[0][0], pairs[0][0]))
    reach = width / 2.0
    assert obstacles.surely_clear_many(pairs, reach) == [
        obstacles.surely_clear(a, b, reach) for a, b in pairs
    ]


def _plain_longest_clear(
    heads: list[tuple[str, float, float, float, float]],
    sight: tuple[float, float],
    width: float,
    mov: float,
    near: _Obstacles,
    far: _Obstacles,
) -> list[float]:
    """``_longest_clear`` as it was at 50fb58f (a fraction at a time, bounds included)."""
    sx, sy = sight
    bests = [0.0] * len(heads)
    left = list(range(len(heads)))
    for fraction in (1.0, 0.75, 0.5, 0.25):
        travels = [heads[k][2] * fraction for k in left]
        ends = [
            (sx + heads[k][3] * t, sy + heads[k][4] * t) for k, t in zip(left, travels, strict=True)
        ]
        if near is far:
            clear = _corridors_clear((sx, sy), ends, width, far)
        else:
            clear = [False] * len(left)
            for obstacles, short in ((near, True), (far, False)):
                group = [n for n, t in enumerate(travels) if (t <= mov + 1e-6) is short]
                if not group:
                    continue
                found = _corridors_clear((sx, sy), [ends[n] for n in group], width, obstacles)
                for n, ok in zip(group, found, strict=True):
                    clear[n] = ok
        for k, ok in zip(left, clear, strict=True):
            if ok:
                bests[k] = heads[k][2] * fraction
        left = [k for k, ok in zip(left, clear, strict=True) if not ok]
    return bests


def _plain_headings(here: Field, mover: str) -> list[tuple[str, float, float]]:
    """``_headings`` as it was at 50fb58f."""
    me = here.owners[mover]
    base = here.base(mover)
    sx, sy = base.sight
    out: list[tuple[str, float, float]] = []
    enemies = sorted(
        (i for i in here.ids() if here.owners[i] != me),
        key=lambda i: point_distance(here.base(i), sx, sy),
    )
    for other in enemies[:NEAREST]:
        target = here.base(other)
        gap = point_distance(target, sx, sy)
        heading = math.degrees(math.atan2(target.y - sy, target.x - sx))
        out.append((f"towards {other}", heading, max(gap - CLEARANCE_CM, 0.0)))
    scenery = sorted(here.scenery, key=lambda e: float(e.footprint.distance(Point(sx, sy))))
    for element in scenery[:NEAREST]:
        ring = element.footprint.buffer(base.depth / 2.0 + 0.5)
        p = ring.exterior.interpolate(ring.exterior.project(Point(sx, sy)))
        heading = math.degrees(math.atan2(p.y - sy, p.x - sx))
        out.append((f"to {element.name}", heading, math.hypot(p.x - sx, p.y - sy)))
    cx, cy = here.table.width / 2.0, here.table.height / 2.0
    out.append(
        ("to the centre", math.degrees(math.atan2(cy - sy, cx - sx)), math.hypot(cx - sx, cy - sy))
    )
    for k in range(DIRECTIONS):
        out.append((f"heading {base.facing + 45.0 * k:.0f}°", base.facing + 45.0 * k, math.inf))
    return out


@pytest.fixture
def checked_destinations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every bulk bound, list of headings and longest clear move of the games played checked
    against the plain ones; yields how many segments, headings lists and calls with two sets
    of obstacles (landforms of his size) were checked."""
    counts = [0, 0, 0]
    many, headings = _Obstacles.surely_clear_many, table_field._headings
    longest = table_field._longest_clear

    def checked_many(
        self: _Obstacles,
        segments: list[tuple[tuple[float, float], tuple[float, float]]],
        reach: float,
    ) -> list[bool]:
        got = many(self, segments, reach)
        assert got == [self.surely_clear(a, b, reach) for a, b in segments]
        counts[0] += len(segments)
        return got

    def checked_headings(here: Field, mover: str) -> list[tuple[str, float, float]]:
        got = headings(here, mover)
        assert got == _plain_headings(here, mover)
        counts[1] += 1
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
        assert got == _plain_longest_clear(heads, sight, width, mov, near, far)
        counts[2] += near is not far
        return got

    monkeypatch.setattr(_Obstacles, "surely_clear_many", checked_many)
    monkeypatch.setattr(table_field, "_longest_clear", checked_longest)
    monkeypatch.setattr(table_field, "_headings", checked_headings)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    yield counts
    table_field._FIELDS.clear()
    table_field._LAST.clear()


def test_every_bound_and_heading_of_whole_games_is_the_plain_one(
    checked_destinations: list[int],
) -> None:
    play_game(GameConfig(agents=("greedy", "greedy"), seed=1))
    play_game(GameConfig(agents=("random", "random"), seed=2))
    segments, headings, two_sets = checked_destinations
    assert segments > 1000 and headings > 20 and two_sets > 5


# --- ninth round (dest2): corridors shown to hit without GEOS --------------------------------


def _cored(boxes: list[tuple[float, float, float, float]]) -> _Obstacles:
    """Boxes as obstacles with their inscribed discs as cores (a square base's)."""
    shapes = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    circles = [(x + w / 2.0, y + h / 2.0, math.hypot(w, h) / 2.0) for x, y, w, h in boxes]
    cores = [(x + w / 2.0, y + h / 2.0, min(w, h) / 2.0) for x, y, w, h in boxes]
    return _Obstacles(TABLE, list(shapes), circles, cores)


_far = st.floats(min_value=-60.0, max_value=180.0, allow_nan=False)
# ends near the table's edges (0 and 120 across, 0 and 60 deep) and the outside's (-50)
_end_x = st.one_of(_far, st.floats(-3.0, 3.0), st.floats(117.0, 123.0), st.floats(-53.0, -47.0))
_end_y = st.one_of(_far, st.floats(-3.0, 3.0), st.floats(57.0, 63.0), st.floats(107.0, 113.0))


@settings(max_examples=300, deadline=None)
@given(
    _boxes,
    st.lists(st.tuples(_coord, _coord, _end_x, _end_y), min_size=1, max_size=12),
    st.floats(0.5, 6.0),
)
def test_a_corridor_surely_hit_is_hit_by_geos(
    boxes: list[tuple[float, float, float, float]],
    segments: list[tuple[float, float, float, float]],
    width: float,
) -> None:
    obstacles = _cored(boxes)
    lines = [((a, b), (c, d)) for a, b, c, d in segments if math.dist((a, b), (c, d)) > 1e-9]
    if not lines:
        return
    sure = obstacles.surely_hit_many(lines, width)
    geos = table_field._corridor_geos_hits(lines, width, obstacles)
    assert all(g for s, g in zip(sure, geos, strict=True) if s)
    assert table_field._corridor_hits(lines, width, obstacles) == geos


def test_the_hit_bound_is_tight_enough_to_matter() -> None:
    """A corridor through a base's centre and those ending within reach of the table's edge
    are known hit; those passing 0.02 cm clear of the base, ending short of the edge, or
    wholly beyond the outside are not (and GEOS agrees)."""
    obstacles = _cored([(50.0, 20.0, 2.5, 2.5)])
    lines = [((40.0, 21.25), (60.0, 21.25)), ((100.0, 30.0), (119.5, 30.0))]
    clear = 21.25 + 1.25 + 1.49 + 0.02  # 0.02 cm past the side of the base
    lines.append(((40.0, clear), (60.0, clear)))
    lines += [((100.0, 30.0), (118.6, 30.0)), ((100.0, 30.0), (118.4, 30.0))]
    lines += [((10.0, 30.0), (1.4, 30.0)), ((10.0, 30.0), (1.6, 30.0))]
    lines.append(((175.0, 30.0), (178.0, 30.0)))  # wholly beyond the outside: nothing met
    got = obstacles.surely_hit_many(lines, 3.0)
    assert got == [True, True, False, True, False, True, False, False]
    assert table_field._corridor_geos_hits(lines, 3.0, obstacles) == [
        True,
        True,
        False,
        True,
        False,
        True,
        False,
        False,
    ]


def test_every_corridor_of_whole_games_is_tested_as_geos_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every corridor test of a greedy and a random game (destinations and goals) against
    GEOS alone: every corridor the bound says is hit is hit, every answer of
    ``_corridor_hits`` is GEOS's, and the bound settles many."""
    counts = [0, 0, 0]
    hits, geos = table_field._corridor_hits, table_field._corridor_geos_hits
    sure_many = _Obstacles.surely_hit_many

    def checked_sure(obs: _Obstacles, lines: list[table_field.Segment], width: float) -> list[bool]:
        got = sure_many(obs, lines, width)
        if lines:
            assert all(g for s, g in zip(got, geos(lines, width, obs), strict=True) if s)
        counts[0] += len(lines)
        counts[1] += sum(got)
        return got

    def checked_hits(lines: list[table_field.Segment], width: float, obs: _Obstacles) -> list[bool]:
        got = hits(lines, width, obs)
        assert got == geos(lines, width, obs)
        counts[2] += len(lines)
        return got

    longest = table_field._longest_clear

    def ninth_round_longest(
        heads: list[tuple[str, float, float, float, float]],
        sight: tuple[float, float],
        width: float,
        mov: float,
        near: _Obstacles,
        far: _Obstacles,
    ) -> list[float]:
        """``_longest_clear`` by this round's bounds (the tenth round's exact screen,
        ``_Obstacles.settle_many``, is checked in tests/engine/test_destination_screens.py)."""
        kept = near._rects, far._rects
        near._rects = far._rects = None
        try:
            return longest(heads, sight, width, mov, near, far)
        finally:
            near._rects, far._rects = kept

    monkeypatch.setattr(_Obstacles, "surely_hit_many", checked_sure)
    monkeypatch.setattr(table_field, "_corridor_hits", checked_hits)
    monkeypatch.setattr(table_field, "_longest_clear", ninth_round_longest)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    try:
        play_game(GameConfig(agents=("greedy", "greedy"), seed=1))
        play_game(GameConfig(agents=("random", "random"), seed=2))
    finally:
        table_field._FIELDS.clear()
        table_field._LAST.clear()
    tested, settled, _ = counts
    assert tested > 300 and settled > tested // 3  # (goals: none in these games)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0.0, 40.0), st.floats(0.0, 40.0)), min_size=3, max_size=8, unique=True
    )
)
def test_a_scenery_core_lies_inside_its_footprint(points: list[tuple[float, float]]) -> None:
    """The disc kept for a scenery footprint (here the hull of some points) is inside it:
    its centre inside and 32 points of its circle covered."""
    shape = MultiPoint(points).convex_hull
    core = table_field._scenery_core(shape)
    if shape.area < 1e-6:
        assert core is None
        return
    if core is None:
        return
    x, y, r = core
    assert shape.contains(Point(x, y))
    for k in range(32):
        a = 2.0 * math.pi * k / 32
        assert shape.covers(Point(x + r * math.cos(a), y + r * math.sin(a)))
