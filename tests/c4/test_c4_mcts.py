"""The C4 search agent (``agents.c4mcts``): it searches unit actions, reproducibly."""

from __future__ import annotations

from confrontation.agents.c4 import C4GreedyAgent, C4RandomAgent
from confrontation.agents.c4mcts import C4MctsAgent, candidates, value
from confrontation.c4.choices import UnitAction
from confrontation.c4.state import C4State
from confrontation.c4.step import is_over, question, roll, run, start, step
from confrontation.c4.views import redact
from confrontation.dice import SeededRoller
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Question
from confrontation.sim.c4game import C4Config, build, play_c4


def _first_action() -> tuple[C4State, Question]:
    """The default game played on to its first unit action question."""
    state, _ = start(build(C4Config(seed=4, rounds=1)))
    dice, agent = SeededRoller(4), C4GreedyAgent(0)
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
        elif isinstance(asked.choices[0], UnitAction):
            return state, asked
        else:
            state, _ = step(state, agent.choose(state, asked, asked.choices))
    raise AssertionError("no unit acted")


def test_candidates_begin_with_greedy_and_are_legal() -> None:
    state, asked = _first_action()
    acts = [c for c in asked.choices if isinstance(c, UnitAction)]
    greedy = C4GreedyAgent(0).choose(state, asked, acts)
    assert isinstance(greedy, UnitAction)
    found = candidates(state, acts, greedy)
    assert found[0] == greedy and len(found) >= 2
    assert all(c in acts for c in found) and len(set(found)) == len(found)


def test_the_search_answers_legally_and_reproducibly() -> None:
    state, asked = _first_action()
    assert asked.player is not None
    view = redact(state, asked.player)
    legal = asked.choices
    one = C4MctsAgent(7, iterations=6).choose(view, asked, legal)
    two = C4MctsAgent(7, iterations=6).choose(view, asked, legal)
    assert one == two and one in legal


def test_a_whole_game_searches_and_replays_identically() -> None:
    config = C4Config(agents=("mcts", "random"), seed=2, rounds=1)
    mcts = C4MctsAgent(21, iterations=4)
    first = play_c4(config, agents=[mcts, C4RandomAgent(1)])
    assert mcts.searched > 0
    again = play_c4(config, agents=[C4MctsAgent(21, iterations=4), C4RandomAgent(1)])
    assert again.events == first.events


def test_value_counts_fighters_lost_and_the_result() -> None:
    state, _ = start(build(C4Config(seed=1, rounds=1)))
    mine = {u.id for u in state.units if u.owner == 0}
    fewer = evolve(state, fighters=tuple(f for f in state.fighters if f.unit in mine))
    assert value(state, state, 0) == 0.0
    assert value(state, fewer, 0) > 0 > value(state, fewer, 1)
    over, _ = run(fewer, [C4RandomAgent(0), C4RandomAgent(1)])
    assert is_over(over) and value(state, over, 0) == 1.0
