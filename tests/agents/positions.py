"""Small positions for the agents' tests: a table-less duel held in contact, decision
states collected from seeded random games."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import pytest

from confrontation.agents.random import RandomAgent
from confrontation.dice import SeededRoller
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState
from confrontation.engine.core.views import redact
from confrontation.engine.setup.game import SideSpec, game_from_specs
from confrontation.engine.step import Agent, is_over, question, roll, start, step
from confrontation.sim.game import GameConfig, initial_state, play_game
from engine_support import fighter, plugged

HERO = fighter("Hero", ini=5, att=6, strength=10, defense=6, res=10)
PEASANT = fighter("Peasant", ini=1, att=-2, strength=1, defense=5, res=3)


def duel_game(seed: int = 0, rounds: int = 1) -> GameState:
    """A hero (Player 1) against a peasant (Player 2: harmless, but quick to parry), no table."""
    specs = [
        SideSpec("Heroes", "lion", ((HERO, 1),)),
        SideSpec("Peasants", "lion", ((PEASANT, 1),)),
    ]
    return game_from_specs(specs, rounds=rounds, seed=seed)


def held_in_contact(state: GameState, pairs: Sequence[tuple[str, str]]) -> GameState:
    """``state`` played with the fighters of ``pairs`` in contact whatever happens (no table)."""
    return plugged(state, contacts=lambda state: [p for p in pairs if _alive(state, p)])


def _alive(state: GameState, pair: tuple[str, str]) -> bool:
    return all(state.fighter(f).alive for f in pair)


def first_question(
    state: GameState, kind: str, agents: Sequence[Agent], seed: int = 0
) -> tuple[GameState, Question]:
    """Play on (seeded dice, ``agents``) to the first ``kind`` question with a choice."""
    state, _ = start(state)
    dice = SeededRoller(seed)
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        if asked.kind == kind and len(asked.choices) > 1:
            return state, asked
        choice = agents[asked.player].choose(redact(state, asked.player), asked, asked.choices)
        state, _ = step(state, choice)
    raise AssertionError(f"no {kind} question came up")


@lru_cache(maxsize=4)
def decision_states(seed: int, rounds: int = 2) -> tuple[tuple[GameState, Question], ...]:
    """Every player decision of a seeded game of random agents on a table (Conquest, small
    goblin armies), as (state, question)."""
    config = GameConfig(armies=("goblin-raiders", "goblin-raiders"), seed=seed, rounds=rounds)
    state, _, _ = initial_state(config)
    state, _ = start(state)
    dice = SeededRoller(seed)
    agents = (RandomAgent(seed + 1), RandomAgent(seed + 2))
    found: list[tuple[GameState, Question]] = []
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        found.append((state, asked))
        choice = agents[asked.player].choose(state, asked, asked.choices)
        state, _ = step(state, choice)
    return tuple(found)


class _Found(Exception):
    """Stops a game at the position looked for."""

    def __init__(self, state: GameState, asked: Question, legal: Sequence[Choice]) -> None:
        super().__init__()
        self.position = (state, asked, list(legal))


def position_in_game(
    seed: int,
    nth: int,
    keep: Callable[[GameState, Question, Sequence[Choice]], bool],
    scenario: str = "conquest",
) -> tuple[GameState, Question, list[Choice]]:
    """The ``nth`` question ``keep`` accepts (counted from 0) of a seeded greedy game on the
    demo mirror."""
    seen = 0

    class Stopper:
        def __init__(self, inner: Agent) -> None:
            self.inner = inner

        def choose(self, state: GameState, asked: Question, legal: Sequence[Choice]) -> Choice:
            nonlocal seen
            if asked.player is not None and keep(state, asked, legal):
                if seen == nth:
                    raise _Found(state, asked, legal)
                seen += 1
            return self.inner.choose(state, asked, legal)

    config = GameConfig(scenario=scenario, armies=("lion-vanguard", "lion-vanguard"), seed=seed)
    with pytest.raises(_Found) as found:
        play_game(config, wrap=lambda _, agent: Stopper(agent))
    return found.value.position
