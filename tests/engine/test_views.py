"""``redact``: the view hides the other players' secrets and keeps the state's battlefield."""

from __future__ import annotations

from confrontation.engine.core.state import Phase
from confrontation.engine.core.views import redact
from confrontation.engine.table.field import field_of
from confrontation.sim.game import GameConfig, play_until


def test_a_view_keeps_the_states_battlefield_and_nothing_else_of_its_scratch() -> None:
    config = GameConfig(agents=("random", "random"), seed=4, rounds=2)
    state, _ = play_until(config, rounds_left=1)  # round 2 begins: decks and a reserve
    assert state.phase is Phase.STRATEGIC and state.round == 2
    assert "field" not in redact(state, 0).scratch  # nothing to keep yet
    here = field_of(state)
    state.scratch["legal"] = "the state's own"
    views = [redact(state, player) for player in state.players]
    assert all(view is not state for view in views)
    for view in views:
        assert view.scratch["field"] is here and "legal" not in view.scratch
        assert field_of(view) is here
        assert view.fighters is state.fighters
