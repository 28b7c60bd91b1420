"""Every agent answers with a legal choice, and the same seed gives the same answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import decision_states

from confrontation.agents import make
from confrontation.engine.core.views import redact
from confrontation.sim.game import GameConfig, play_game

SEEDS = (11, 12)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.sampled_from(SEEDS),
    pick=st.floats(0, 1, exclude_max=True),
    name=st.sampled_from(["random", "greedy"]),
    agent_seed=st.integers(0, 1000),
)
def test_agents_answer_legally_in_random_positions(
    seed: int, pick: float, name: str, agent_seed: int
) -> None:
    states = decision_states(seed)
    state, asked = states[int(pick * len(states))]
    assert asked.player is not None
    agent = make(name, seed=agent_seed, player=asked.player)
    choice = agent.choose(redact(state, asked.player), asked, asked.choices)
    assert choice in asked.choices


@settings(max_examples=10, deadline=None)
@given(seed=st.sampled_from(SEEDS), pick=st.floats(0, 1, exclude_max=True))
def test_mcts_answers_legally_within_its_budget(seed: int, pick: float) -> None:
    states = [(s, q) for s, q in decision_states(seed) if len(q.choices) > 1]
    state, asked = states[int(pick * len(states))]
    assert asked.player is not None
    agent = make(
        "mcts",
        seed=5,
        player=asked.player,
        iterations=3,
        kinds=[asked.kind],
        max_steps=12,
        outside_combat=True,
        announcements=False,  # searched by their own sweeps (test_mcts.py)
        finale=False,  # its games run to the end, whatever max_steps (test_endgame.py)
    )
    choice = agent.choose(redact(state, asked.player), asked, asked.choices)
    assert choice in asked.choices
    assert agent.searched == 1  # type: ignore[attr-defined]


def test_same_seed_same_answers() -> None:
    states = decision_states(SEEDS[0])
    for name in ("random", "greedy"):
        first = [make(name, seed=4, player=0) for _ in range(2)]
        answers = [
            [a.choose(redact(s, q.player or 0), q, q.choices) for s, q in states if q.player == 0]
            for a in first
        ]
        assert answers[0] == answers[1]


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    def game(seed: int) -> tuple[object, ...]:
        config = GameConfig(
            armies=("goblin-raiders", "goblin-raiders"),
            agents=("greedy", "greedy"),
            seed=seed,
            rounds=1,
        )
        return play_game(config).events

    assert game(3) == game(3)
    assert game(3) != game(4)
