"""Destinations computed a few headings at a time (``iter_destinations``, what pursuits'
free moves use) are the destinations computed all at once, in the same order, whatever
the batch; a pursuit that stops early offers the moves the whole list would give."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.engine.combat import pursuit
from confrontation.engine.core.state import GameState
from confrontation.engine.table import field as table_field
from confrontation.engine.table.field import destinations, field_of, has_field, iter_destinations
from confrontation.sim.game import GameConfig


@cache
def _game_states(seed: int) -> list[GameState]:
    """States of a seeded game (the choices picked by a fixed rule) that have a battlefield."""
    from confrontation.engine.step import game_roller, is_chance, is_over, question, start, step
    from confrontation.sim.game import initial_state

    state, _ = start(initial_state(GameConfig(agents=("random", "random"), seed=seed))[0])
    dice = game_roller(state)
    out: list[GameState] = []
    k = 0
    while not is_over(state) and k < 400:
        asked = question(state)
        assert asked is not None
        if is_chance(state):
            choice = asked.choices[dice.d6() - 1]
        else:
            choice = asked.choices[(k * 7919) % len(asked.choices)]
        state, _ = step(state, choice)
        if k % 25 == 0 and has_field(state) and any(True for _ in field_of(state).ids()):
            out.append(state)
        k += 1
    return out


@pytest.mark.rule("V-B-1")
@settings(max_examples=12, deadline=None)
@given(
    st.integers(0, 5),
    st.integers(0, 1000),
    st.sampled_from([2.0, 5.0, 10.0, 20.0]),
    st.sampled_from([1, 2, 4, 6]),
)
def test_lazy_destinations_equal_all_at_once(
    seed: int, pick: int, potential: float, batch: int
) -> None:
    states = _game_states(seed)
    if not states:
        return
    state = states[pick % len(states)]
    ids = list(field_of(state).ids())
    if not ids:
        return
    mover = ids[pick % len(ids)]
    mov = potential / 2.0
    whole = destinations(state, mover, potential, mov=mov)
    lazy = list(iter_destinations(state, mover, potential, mov=mov, batch=batch))
    assert lazy == whole
    # a caller who stops early sees the first spots of the whole list
    some = iter_destinations(state, mover, potential, mov=mov, batch=batch)
    assert [s for _, s in zip(range(3), some, strict=False)] == whole[:3]


def test_pursuit_free_moves_do_not_change_with_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pursuit moves offered are those offered with every destination computed first."""
    states = _game_states(4)
    assert states
    checked = 0
    for state in states:
        for fighter in list(field_of(state).ids())[:4]:
            lazy = pursuit.table_pursuits(state, fighter, 5)
            with monkeypatch.context() as m:
                m.setattr(
                    pursuit,
                    "iter_destinations",
                    lambda *a, batch=None, **kw: iter(table_field.destinations(*a, **kw)),
                )
                eager = pursuit.table_pursuits(state, fighter, 5)
            assert lazy == eager
            checked += 1
    assert checked > 0
