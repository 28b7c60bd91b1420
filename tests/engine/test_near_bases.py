"""Questions about a move that look only at the bases near it (issue 22, eleventh round, move8):
each answers as the computation over every base does, over whole games."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from confrontation.engine.table import field as table_field
from confrontation.sim.game import GameConfig, play_game

_SWEPT = table_field._swept_bases
_ITER = table_field.iter_destinations


def _every_base(here: Any, base: Any, potential: float, skip: set[str]) -> list[Any]:
    """What :func:`_swept_bases` stands for: every base but ``skip``."""
    return [here.base(i) for i in here.ids() if i not in skip]


@contextmanager
def _checked_destinations() -> Iterator[list[int]]:
    """Every ``iter_destinations`` of the games run to its end twice, with the near bases and
    with every base, and compared spot by spot; yields [questions, bases left out]."""
    counts = [0, 0]

    def swept(here: Any, base: Any, potential: float, skip: set[str]) -> list[Any]:
        found = _SWEPT(here, base, potential, skip)
        counts[1] += len(_every_base(here, base, potential, skip)) - len(found)
        return found

    def checked(*args: Any, **kwargs: Any) -> Iterator[Any]:
        table_field._swept_bases = _every_base
        try:
            full = list(_ITER(*args, **kwargs))
        finally:
            table_field._swept_bases = swept
        near = list(_ITER(*args, **kwargs))
        assert near == full
        counts[0] += 1
        yield from near

    table_field._swept_bases = swept
    table_field.iter_destinations = checked
    try:
        yield counts
    finally:
        table_field._swept_bases = _SWEPT
        table_field.iter_destinations = _ITER


@pytest.mark.rule("V-A", "V-B-1")
def test_destinations_with_the_near_bases_are_those_with_every_base() -> None:
    """Walks, runs, moves under cover and pursuits' free moves of a greedy and a random game:
    the same spots in the same order, and bases were left out."""
    from confrontation.engine.combat import pursuit

    kept = pursuit.iter_destinations  # type: ignore[attr-defined]
    with _checked_destinations() as counts:
        pursuit.iter_destinations = table_field.iter_destinations  # type: ignore[attr-defined]
        try:
            play_game(GameConfig(agents=("greedy", "greedy"), seed=4))
            play_game(GameConfig(agents=("random", "random"), seed=1))
        finally:
            pursuit.iter_destinations = kept  # type: ignore[attr-defined]
    assert counts[0] > 30
    assert counts[1] > 100
