"""The battlefield kept on a state and carried to the next states (``FIELD_KEPT``: by
``evolve`` while the fighters, battleground and profiles are the same objects, by
``with_fighters`` while nobody replaced moved) is the field the state's own fighters make,
at every step of whole games; a broken carry is caught."""

from __future__ import annotations

from dataclasses import replace

import pytest

from confrontation.engine.core import state as state_module
from confrontation.engine.core.door import play
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import FIELD_KEPT, Fighter, GameState
from confrontation.engine.step import DOOR, game_roller, is_over, start
from confrontation.engine.table.field import Field, base_of, field_of
from confrontation.sim.game import GameConfig, initial_state, make_players


def _fresh_matches(state: GameState, here: Field) -> bool:
    """Is ``here`` made of ``state``'s fighters in play (their bases, in order, and owners)?"""
    playing = [f for f in state.fighters if f.in_play]
    bases = here.battlefield.fighters
    return (
        list(bases) == [f.id for f in playing]
        and all(bases[f.id] == base_of(state, f) for f in playing)
        and here.owners == {f.id: f.player for f in playing}
        and here.ground is state.battleground
    )


def _kept_fields(config: GameConfig, steps: int) -> tuple[int, int]:
    """Play ``steps`` answers and dice of ``config``'s game; at every state, compare the
    field it holds (carried over or looked up) with its fighters. (carried, wrong) counts."""
    state, _ = start(initial_state(config)[0])
    agents, dice = make_players(config), game_roller(state)
    carried = wrong = 0
    for _ in range(steps):
        if is_over(state):
            break
        state = play(DOOR, state, agents, dice, max_steps=1)
        here = state.__dict__.get(FIELD_KEPT)
        if isinstance(here, Field):
            carried += 1
            wrong += not _fresh_matches(state, here)
        elif state.battleground is not None and state.battleground.scenery is not None:
            wrong += not _fresh_matches(state, field_of(state))
    return carried, wrong


@pytest.mark.parametrize(("agents", "seed"), [(("greedy", "greedy"), 0), (("random", "random"), 1)])
def test_the_kept_field_is_the_fresh_one_along_whole_games(
    agents: tuple[str, str], seed: int
) -> None:
    carried, wrong = _kept_fields(GameConfig(agents=agents, seed=seed), 3000)
    assert carried > 300 and wrong == 0


def test_a_broken_carry_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """``with_fighters`` told that every replaced fighter stands still: some carried field
    is no longer the state's (the comparison above can fail)."""

    def anywhere(before: Fighter | None, after: Fighter) -> bool:
        return True

    monkeypatch.setattr(state_module, "same_place", anywhere)
    _, wrong = _kept_fields(GameConfig(agents=("random", "random"), seed=1), 3000)
    assert wrong > 0


def test_evolve_carries_the_field_only_while_its_records_are_the_same() -> None:
    config = GameConfig(agents=("random", "random"), seed=2)
    state, _ = start(initial_state(config)[0])
    agents, dice = make_players(config), game_roller(state)
    while state.battleground is None or state.battleground.scenery is None:
        state = play(DOOR, state, agents, dice, max_steps=1)
    here = field_of(state)
    assert evolve(state, round=state.round + 1).__dict__.get(FIELD_KEPT) is here
    assert evolve(state, fighters=state.fighters).__dict__.get(FIELD_KEPT) is here
    assert FIELD_KEPT not in evolve(state, fighters=tuple(state.fighters)[::-1]).__dict__
    moved = state.fighters[0]
    assert FIELD_KEPT not in state.with_fighters(replace(moved, x=moved.x + 1.0)).__dict__
    assert state.with_fighters(replace(moved, activated=True)).__dict__.get(FIELD_KEPT) is here


def test_a_new_field_reuses_the_bases_of_the_same_records_only() -> None:
    """A new field takes the last field's base of a fighter whose record is the very one it
    was made of; a moved fighter's base is made again (and a last field that claims the
    moved record as its own -- a broken key -- gives a base the comparison rejects)."""
    config = GameConfig(agents=("random", "random"), seed=3)
    state, _ = start(initial_state(config)[0])
    agents, dice = make_players(config), game_roller(state)
    while not any(f.in_play for f in state.fighters) or state.battleground is None:
        state = play(DOOR, state, agents, dice, max_steps=1)
    here = field_of(state)
    mover = next(f for f in state.fighters if f.in_play)
    moved = replace(mover, x=mover.x + 0.5)
    after = evolve(state, fighters=tuple(moved if f is mover else f for f in state.fighters))
    fresh = field_of(after)
    assert fresh is not here and _fresh_matches(after, fresh)
    others = [f for f in after.fighters if f.in_play and f is not moved]
    assert all(fresh.base(f.id) is here.base(f.id) for f in others)
    farther = replace(moved, x=moved.x + 0.5)
    fresh._records[mover.id] = farther  # broken: the record of another place, as if his
    third = evolve(after, fighters=tuple(farther if f is moved else f for f in after.fighters))
    assert not _fresh_matches(third, field_of(third))  # the old base reused: caught
