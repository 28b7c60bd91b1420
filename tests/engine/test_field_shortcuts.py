"""The fifth round's geometry shortcuts (issue 22) answer as the computations they replace:
corridors tested through a tree against the union of the obstacles, spots' overlap summed
base by base against the union of the other bases, the vectorised straight-move bound
against the loop, and contacts kept from the last field against fresh ones."""

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
from confrontation.engine.table.field import Field, _Obstacles, _outside, _segment_gap
from confrontation.geometry.bases import Base
from confrontation.geometry.table import Table
from confrontation.sim.game import GameConfig, play_game

TABLE = Table(120.0, 60.0)

_coord = st.floats(min_value=-5.0, max_value=125.0, allow_nan=False)
_boxes = st.lists(st.tuples(_coord, _coord, st.floats(0.5, 8.0), st.floats(0.5, 8.0)), max_size=12)
_segments = st.lists(st.tuples(_coord, _coord, _coord, _coord), min_size=1, max_size=8)


def _obstacles(boxes: list[tuple[float, float, float, float]]) -> _Obstacles:
    shapes = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    circles = [(x + w / 2.0, y + h / 2.0, math.hypot(w, h) / 2.0) for x, y, w, h in boxes]
    return _Obstacles(TABLE, list(shapes), circles)


@settings(max_examples=150, deadline=None)
@given(_boxes, _segments, st.floats(0.5, 6.0))
def test_corridor_hits_are_those_of_the_union(
    boxes: list[tuple[float, float, float, float]],
    segments: list[tuple[float, float, float, float]],
    width: float,
) -> None:
    obstacles = _obstacles(boxes)
    lines = shapely.linestrings(np.array([[(a, b), (c, d)] for a, b, c, d in segments]))
    corridors = shapely.buffer(lines, width / 2.0 - 0.01, quad_segs=16)
    union = shapely.unary_union([*obstacles.shapes, _outside(TABLE)])
    assert obstacles.hits(corridors) == shapely.intersects(union, corridors).tolist()


@settings(max_examples=150, deadline=None)
@given(_boxes, _segments, st.floats(0.5, 6.0))
def test_the_straight_move_bound_is_the_loop(
    boxes: list[tuple[float, float, float, float]],
    segments: list[tuple[float, float, float, float]],
    width: float,
) -> None:
    obstacles = _obstacles(boxes)
    reach = width / 2.0
    for x0, y0, x1, y1 in segments:
        a, b = (x0, y0), (x1, y1)
        inside = all(
            reach < x < TABLE.width - reach and reach < y < TABLE.height - reach for x, y in (a, b)
        )
        loop = inside and all(
            _segment_gap(a, b, x, y) > r + reach + 1e-9 for x, y, r in obstacles.circles
        )
        assert obstacles.surely_clear(a, b, reach) == loop


@pytest.fixture
def checked_fields(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every contacts and overlap answer of the games played checked against the full
    computation; yields the number of answers checked (contacts, overlaps)."""
    counts = [0, 0]
    contacts, overlap = Field.contacts, Field.overlap

    def checked_contacts(self: Field, fighter_id: str) -> list[str]:
        got = contacts(self, fighter_id)
        assert got == sorted(self.battlefield.contacts(fighter_id))
        counts[0] += 1
        return got

    def checked_overlap(self: Field, mover: str, base: Base, bounds: tuple[float, ...]) -> float:
        got = overlap(self, mover, base, bounds)
        others = self.others(mover)
        union = 0.0 if others.is_empty else float(base.polygon.intersection(others).area)
        assert (got > 1e-4) == (union > 1e-4)
        assert got == pytest.approx(union, abs=1e-9)
        counts[1] += 1
        return got

    monkeypatch.setattr(Field, "contacts", checked_contacts)
    monkeypatch.setattr(Field, "overlap", checked_overlap)
    table_field._FIELDS.clear()
    table_field._LAST.clear()
    yield counts
    table_field._FIELDS.clear()
    table_field._LAST.clear()


def test_kept_contacts_and_summed_overlaps_are_the_full_ones(checked_fields: list[int]) -> None:
    play_game(GameConfig(agents=("greedy", "greedy"), seed=1))
    play_game(GameConfig(agents=("random", "random"), seed=2))
    contacts, overlaps = checked_fields
    assert contacts > 100 and overlaps > 100
