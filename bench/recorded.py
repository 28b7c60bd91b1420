"""Bench helper: the positions where agents were asked a question in a seeded game."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState
from confrontation.engine.step import Agent
from confrontation.sim.game import GameConfig, play_game

Position = tuple[GameState, Question, list[Choice]]


def questions_met(
    config: GameConfig, keep: Callable[[GameState, Question], bool]
) -> list[Position]:
    """Every (state the agent saw, question, legal answers) of ``config``'s game that ``keep``
    accepts; the game is played as ``config`` says."""
    found: list[Position] = []

    class Recorder:
        def __init__(self, inner: Agent) -> None:
            self.inner = inner

        def choose(self, state: GameState, asked: Question, legal: Sequence[Choice]) -> Choice:
            if keep(state, asked):
                found.append((state, asked, list(legal)))
            return self.inner.choose(state, asked, legal)

    play_game(config, wrap=lambda _, agent: Recorder(agent))
    return found
