"""``evolve`` is ``dataclasses.replace`` without ``__init__``: same records, no stale caches."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.engine.core.frozen import evolve
from confrontation.sim.game import GameConfig, initial_state


@given(st.integers(0, 50), st.integers(0, 1))
def test_evolve_equals_replace_on_a_game_state(round_: int, first: int) -> None:
    state, _, _ = initial_state(GameConfig(seed=3))
    mine = evolve(state, round=round_, first_speaker=first)
    theirs = dataclasses.replace(state, round=round_, first_speaker=first)
    assert mine == theirs and hash(mine) == hash(theirs)
    assert mine.round == round_ and mine.fighters is state.fighters


def test_cached_properties_are_not_carried_over() -> None:
    state, _, _ = initial_state(GameConfig(seed=3))
    state.scratch["legal"] = "stale"
    gone = state.fighters[0]
    fewer = evolve(state, fighters=state.fighters[1:])
    assert "legal" not in fewer.scratch
    with pytest.raises(KeyError):
        fewer.fighter(gone.id)


def test_an_unknown_field_is_refused_as_replace_does() -> None:
    state, _, _ = initial_state(GameConfig(seed=3))
    with pytest.raises(TypeError, match="no field 'turn'"):
        evolve(state, turn=3)


def test_records_with_post_init_go_through_init() -> None:
    record = _Checked("a", 1)
    with pytest.raises(ValueError):
        evolve(record, count=-1)
    assert evolve(record, count=2) == _Checked("a", 2)


@dataclasses.dataclass(frozen=True)
class _Checked:
    name: str
    count: int

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("negative")
