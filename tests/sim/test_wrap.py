"""``play_game(wrap=...)`` puts a stand-in in front of each agent without changing the game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState
from confrontation.engine.step import Agent
from confrontation.sim.game import GameConfig, play_game


def test_a_wrapped_agent_is_asked_every_question_and_the_game_is_the_same() -> None:
    config = GameConfig(armies=("goblin-raiders", "goblin-raiders"), seed=8, rounds=1)
    asked: Counter[int] = Counter()

    class Counting:
        def __init__(self, player: int, inner: Agent) -> None:
            self.player, self.inner = player, inner

        def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
            asked[self.player] += 1
            return self.inner.choose(state, question, legal)

    wrapped = play_game(config, wrap=Counting)
    plain = play_game(config)
    assert wrapped.events == plain.events
    assert asked[0] > 0 and asked[1] > 0
