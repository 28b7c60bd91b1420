"""``evolve`` is ``dataclasses.replace`` without ``__init__``: same records, no stale caches."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.engine.core.frozen import evolve, kept
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


def test_look_up_tables_are_kept_while_their_field_is_unchanged() -> None:
    """``GameState.__evolve_keeps__``: ``fighter()`` of an evolved copy reads the same table
    while the fighters are the same tuple, and a new one as soon as they change."""
    state, _, _ = initial_state(GameConfig(seed=3))
    first = state.fighters[0]
    assert state.fighter(first.id) is first
    table = state.__dict__["_fighters_by_id"]
    later = evolve(state, round=2)
    assert later.__dict__.get("_fighters_by_id") is table
    moved = dataclasses.replace(first, x=first.x + 1)
    changed = later.with_fighters(moved)
    assert "_fighters_by_id" not in changed.__dict__
    assert changed.fighter(first.id) == moved and later.fighter(first.id) is first


def test_kept_computes_once_per_instance_and_is_a_descriptor_on_the_class() -> None:
    calls: list[int] = []

    @dataclasses.dataclass(frozen=True)
    class Counted:
        value: int

        @kept
        def double(self) -> int:
            calls.append(self.value)
            return 2 * self.value

    one, two = Counted(1), Counted(2)
    assert (one.double, one.double, two.double) == (2, 2, 4)
    assert calls == [1, 2]
    assert isinstance(Counted.__dict__["double"], kept)
    assert evolve(one, value=5).double == 10  # not carried over: not in __evolve_keeps__


@given(st.integers(0, 50))
def test_evolve_of_a_state_with_caches_copies_the_fields_only(round_: int) -> None:
    state, _, _ = initial_state(GameConfig(seed=3))
    state.scratch["legal"] = "stale"
    state.fighter(state.fighters[0].id)
    mine = evolve(state, round=round_)
    assert mine == dataclasses.replace(state, round=round_)
    names = {f.name for f in dataclasses.fields(state)}
    assert set(mine.__dict__) - names <= set(type(state).__evolve_keeps__)
