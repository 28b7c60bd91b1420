"""agents.make: the four agents by name, one clear error for anything else."""

from __future__ import annotations

import pytest

from confrontation import agents
from confrontation.agents import UnknownAgent, make
from confrontation.agents.greedy import GreedyAgent
from confrontation.agents.human import HumanAgent
from confrontation.agents.mcts import MctsAgent
from confrontation.agents.random import RandomAgent


@pytest.mark.parametrize(
    ("name", "kind"),
    [("random", RandomAgent), ("greedy", GreedyAgent), ("mcts", MctsAgent), ("human", HumanAgent)],
)
def test_make_builds_each_agent_by_name(name: str, kind: type) -> None:
    assert isinstance(make(name, seed=3, player=1), kind)
    assert isinstance(make(name.upper(), seed=3, player=0), kind)


def test_unknown_name_is_one_line_naming_the_known_agents() -> None:
    with pytest.raises(UnknownAgent) as caught:
        make("alphazero", seed=0, player=0)
    message = str(caught.value)
    assert "\n" not in message
    assert "alphazero" in message
    for name in agents.AGENTS:
        assert name in message


def test_options_are_checked() -> None:
    with pytest.raises(UnknownAgent, match="takes no options"):
        make("greedy", seed=0, player=0, iterations=5)
    assert make("mcts", seed=0, player=0, iterations=5).iterations == 5  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="iterations"):
        make("mcts", seed=0, player=0, iterations=0)
    with pytest.raises(ValueError, match="player"):
        make("random", seed=0, player=6)
