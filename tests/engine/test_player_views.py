"""``redact``: the view hides the other players' secrets and keeps the state's battlefield."""

from __future__ import annotations

from dataclasses import replace

import pytest

from confrontation.engine.core import views
from confrontation.engine.core.door import play
from confrontation.engine.core.state import FIELD_KEPT, GameState, Phase
from confrontation.engine.core.views import redact
from confrontation.engine.step import DOOR, game_roller, start
from confrontation.engine.table.field import field_of
from confrontation.sim.game import GameConfig, initial_state, make_players, play_until


def test_a_view_keeps_the_states_battlefield_and_nothing_else_of_its_scratch() -> None:
    config = GameConfig(agents=("random", "random"), seed=4, rounds=2)
    state, _ = play_until(config, rounds_left=1)  # round 2 begins: decks and a reserve
    assert state.phase is Phase.STRATEGIC and state.round == 2
    assert FIELD_KEPT not in redact(state, 0).__dict__  # nothing to keep yet
    here = field_of(state)
    state.scratch["legal"] = "the state's own"
    views = [redact(state, player) for player in state.players]
    assert all(view is not state for view in views)
    for view in views:
        assert view.__dict__[FIELD_KEPT] is here and "legal" not in view.scratch
        assert field_of(view) is here
        assert view.fighters is state.fighters


def _hidden_one_by_one(state: GameState, player: int) -> GameState:
    """The view built as it was first written: one copy of the state per player hidden."""
    for other in state.enemies(player):
        side = state.sides[other]
        pool = sorted(side.deck + ((side.reserve,) if side.reserve is not None else ()))
        if side.reserve is not None:
            hidden = replace(side, reserve=pool[0], deck=tuple(pool[1:]))
        else:
            hidden = replace(side, deck=tuple(pool))
        state = state.with_side(hidden)
        if state.strategic is not None:
            building = list(state.strategic.building)
            building[other] = tuple(sorted(building[other]))
            state = replace(state, strategic=replace(state.strategic, building=tuple(building)))
    return state


@pytest.mark.parametrize("players", [2, 3])
def test_views_along_a_game_are_the_secrets_hidden_one_player_at_a_time(players: int) -> None:
    config = GameConfig(armies=("goblin-raiders",) * players, agents=("random",) * players, seed=11)
    state, _ = start(initial_state(config)[0])
    agents, dice = make_players(config), game_roller(state)
    hiding = 0
    for _ in range(400):
        for player in state.players:
            view = redact(state, player)
            assert view == _hidden_one_by_one(state, player)
            hiding += view != state
        state = play(DOOR, state, agents, dice, max_steps=1)
    assert hiding > 50  # views that hide something


def test_views_kept_per_records_are_checked_by_the_same_comparison(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The comparison above fails when the kept views are looked up by a broken key (the
    player alone: the hidden sides of an earlier state)."""
    hide = views.hide
    kept: dict[int, tuple[object, ...]] = {}

    def broken(sides: object, strategic: object, player: int) -> tuple[object, ...]:
        if player not in kept:
            kept[player] = hide(sides, strategic, player)  # type: ignore[arg-type]
        return kept[player]

    monkeypatch.setattr(views, "_hidden", broken)
    config = GameConfig(agents=("random", "random"), seed=11)
    state, _ = start(initial_state(config)[0])
    agents, dice = make_players(config), game_roller(state)
    wrong = 0
    for _ in range(400):
        wrong += any(redact(state, p) != _hidden_one_by_one(state, p) for p in state.players)
        state = play(DOOR, state, agents, dice, max_steps=1)
    assert wrong > 0
