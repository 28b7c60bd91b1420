"""An unstored batch plays each game without keeping its events (issue 22, the sweep): the
same outcome as :func:`~confrontation.sim.game.play_game`, seed for seed."""

from __future__ import annotations

import pytest

from confrontation.engine.core.events import GameEnded
from confrontation.sim.batch import config_for, plan, play_outcome, play_spec
from confrontation.sim.game import play_game
from confrontation.sim.saved import outcome_of


@pytest.mark.parametrize("agents", [("random", "random"), ("greedy", "random")])
def test_the_outcome_alone_is_the_games_outcome(agents: tuple[str, str]) -> None:
    for spec in plan(2, agents, seed=22):
        config = config_for(spec)
        whole = play_game(config)
        lean = play_outcome(config)
        assert outcome_of(lean) == outcome_of(whole)
        assert (lean.winner, lean.rounds, lean.players) == (
            whole.winner,
            whole.rounds,
            whole.players,
        )
        assert lean.state == whole.state
        assert lean.outcome == whole.outcome is not None
        assert len(lean.events) == 1 and isinstance(lean.events[0], GameEnded)
        assert play_spec(spec).events is None  # an unstored batch sends the outcome alone


def test_a_stored_batch_still_gets_every_event() -> None:
    spec = plan(1, ("random", "random"), seed=3, keep_events=True)[0]
    sent = play_spec(spec)
    assert sent.events == list(play_game(config_for(spec)).events)
    assert sent.setup is not None
