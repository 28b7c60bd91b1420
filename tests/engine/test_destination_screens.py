"""The tenth round's screens of the destinations (dest3, issue 22) never contradict the
computations they spare: a spot the numpy screen calls free (or taken) is one
``Field.spot_problem`` finds nothing (or something) at -- on every spot of whole games and on
random bases, round ones included, and random scenery."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.engine.table import field as table_field
from confrontation.engine.table.field import Field
from confrontation.geometry.bases import Base
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
    A square overlapping a long base along its length, not known. A round base's circle 0.1 cm
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
    assert here.spot_screen("f0", [over], [False]) == [None]
    assert here.spot_problem("f0", over, enemies_apart=True) == "on another fighter's base"
    corner = math.hypot(1.25, 1.25)
    gap = corner + 1.5 + 0.1  # a 30 mm round base, diagonally off the corner
    round_ = Base(20.0, 40.0, 90.0, "round", 30.0, 30.0)
    here = _field(
        [(20.0, 40.0, 90.0, "round", 30.0, 30.0), (40.0, 20.0, 0.0, "square", 25.0, 25.0)], []
    )
    away = round_.moved(40.0 + gap / math.sqrt(2.0), 20.0 + gap / math.sqrt(2.0))
    assert here.spot_screen("f0", [away], [False]) == [True]
    assert here.spot_problem("f0", away, enemies_apart=True) is None
