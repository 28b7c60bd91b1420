"""``best_of`` (issue 22): the exact maximum from upper bounds down, and the greedy agent's
shot-value bound is an upper bound of the shot value in played positions."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from confrontation.agents.assess import best_of, shot_value, shot_value_bound
from confrontation.engine.step import is_over, legal, start, step
from confrontation.engine.table.field import has_field
from confrontation.sim.game import GameConfig, initial_state


@given(
    st.lists(
        st.tuples(st.floats(0, 100), st.floats(0, 50)),
        max_size=12,
    )
)
def test_best_of_is_the_maximum_of_the_exact_values(pairs: list[tuple[float, float]]) -> None:
    asked: list[int] = []

    def exact(k: int) -> float:
        asked.append(k)
        return pairs[k][0]

    items = list(range(len(pairs)))
    got = best_of(items, lambda k: pairs[k][0] + pairs[k][1], exact)
    assert got == max((v for v, _ in pairs), default=0.0)
    # every item whose bound passes the maximum is asked, none whose bound is below it
    assert all(pairs[k][0] + pairs[k][1] >= got for k in asked)
    assert all(k in asked for k in items if pairs[k][0] + pairs[k][1] > got)


def test_the_shot_bound_is_at_least_the_shot_value() -> None:
    state, _ = start(initial_state(GameConfig(seed=3))[0])
    checked = 0
    while not is_over(state) and checked < 400:
        if has_field(state):
            shooters = [f for f in state.fighters if f.in_play and state.profile(f.profile).shooter]
            for me in shooters:
                for it in state.fighters:
                    if it.player == me.player or not it.in_play:
                        continue
                    for unmoving in (True, False):
                        exact = shot_value(state, me.id, it.id, unmoving=unmoving)
                        bound = shot_value_bound(state, me.id, it.id, unmoving=unmoving)
                        assert bound >= exact
                        checked += 1
        state, _ = step(state, legal(state)[0])
    assert checked > 0
