"""The last round of a scenario won on areas (III-A-2): the search imagines its movement
decisions to the end of the game and judges them by the result (agents/endgame.py)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence

import pytest
from positions import position_in_game
from shapely.geometry import Point

from confrontation.agents import endgame
from confrontation.agents.greedy import GreedyAgent, area_shape
from confrontation.agents.mcts import WIN, MctsAgent, outcome
from confrontation.engine.combat.phase import stay_in_place
from confrontation.engine.core.questions import Choice, ChooseFirst, Place, PlaceCard, Question
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import GameState, Phase
from confrontation.engine.step import game_roller, is_over, step
from confrontation.scenarios.control import scenario_of
from confrontation.sim.game import GameConfig, play_on, play_until


def _in_round(
    seed: int, nth: int, kind: str, rounds_left: int
) -> tuple[GameState, Question, list[Choice]]:
    """The ``nth`` ``kind`` question with a choice, ``rounds_left`` - 1 rounds before the end."""

    def keep(state: GameState, asked: Question, legal: Sequence[Choice]) -> bool:
        return (
            asked.kind == kind and len(legal) > 1 and state.round == state.rounds - rounds_left + 1
        )

    return position_in_game(seed, nth, keep)


@pytest.mark.rule("III-A-2")
def test_only_the_movements_of_the_last_round_are_searched() -> None:
    state, asked, _ = _in_round(2000, 0, "activation", rounds_left=2)
    assert not endgame.last_round(state) and not endgame.searched(state, asked)
    state, asked, _ = _in_round(2000, 0, "activation", rounds_left=1)
    assert endgame.last_round(state) and endgame.searched(state, asked)
    scenario = scenario_of(state)
    assert scenario is not None
    # Execution is won by a kill (III-A-2), not on the areas held at the end
    killing = dataclasses.replace(state, scenario=dataclasses.replace(scenario, goal="execution"))
    assert not endgame.last_round(killing)


@pytest.mark.rule("III-A-2")
def test_the_first_round_is_searched_only_in_a_game_of_one_round() -> None:
    state, asked, _ = _in_round(2000, 0, "activation", rounds_left=1)

    def at(round_: int, rounds: int) -> GameState:
        return dataclasses.replace(state, round=round_, rounds=rounds)

    assert not endgame.searched(at(1, 2), asked, rounds=2)  # a whole game to imagine
    assert endgame.searched(at(2, 2), asked, rounds=2)
    assert endgame.searched(at(1, 1), asked, rounds=2)  # the only round is the last
    assert endgame.searched(at(2, 3), asked, rounds=2)
    assert not endgame.searched(at(1, 3), asked, rounds=3)


@pytest.mark.rule("III-A-2")
def test_a_moves_end_candidates_stand_in_each_area_it_reaches() -> None:
    state, asked, legal = _in_round(1000, 0, "destination", rounds_left=1)
    assert asked.player is not None
    greedy = GreedyAgent(1, asked.player).choose(state, asked, legal)
    options = endgame.candidates(state, legal, greedy, width=7)
    assert options[0] == greedy and len(set(options)) == len(options) <= 7
    assert set(options) <= set(legal)
    scenario = scenario_of(state)
    assert scenario is not None
    places = [c for c in legal if isinstance(c, Place)]
    for area in scenario.areas:
        shape = area_shape(state, area)
        if any(shape.contains(Point(p.x, p.y)) for p in places):
            assert any(isinstance(c, Place) and shape.contains(Point(c.x, c.y)) for c in options), (
                area.name
            )
    assert len(endgame.candidates(state, legal, greedy, width=2)) == 2


@pytest.mark.rule("III-A-2")
def test_the_result_outweighs_any_fight() -> None:
    state, _, _ = _in_round(2000, 0, "activation", rounds_left=1)
    assert outcome(state, 0) == 0.0  # not over yet
    won = dataclasses.replace(state, phase=Phase.OVER, winner=1)
    assert outcome(won, 1) == WIN == -outcome(won, 0) and WIN >= 200  # a whole army's worth
    drawn = dataclasses.replace(state, phase=Phase.OVER, winner=None)
    assert outcome(drawn, 0) == outcome(drawn, 1) == 0.0


def _last_round_of(seed: int) -> tuple[GameState, list[GreedyAgent]]:
    """The first position of the last round of a seeded greedy game on the demo mirror, and
    the two greedy agents as they stand there."""
    state, players = play_until(GameConfig(armies=("lion-vanguard", "lion-vanguard"), seed=seed), 1)
    assert state.round == state.rounds
    greedy = [p for p in players if isinstance(p, GreedyAgent)]
    assert len(greedy) == len(players)
    return state, greedy


@pytest.mark.rule("III-A-2")
@pytest.mark.parametrize(("me", "seed"), [(0, 1001), (1, 1039)])
def test_searching_the_last_round_wins_a_game_greedy_play_draws(me: int, seed: int) -> None:
    # The seed-1001 and seed-1039 greedy games are 1-1 draws. Searching its last-round moves
    # (and nothing else), Player 1 wins the first, Player 2 the second. (Seed 1000, a 0-0 draw
    # either side won, changed with the open deployment band of III-A-1, CLARIFICATIONS §9;
    # seed 1011, 1-1, became 2-1 with the shortest paths of V-A.)
    state, players = _last_round_of(seed)
    end = play_on(state, copy.deepcopy(players), game_roller(state))
    drawn = end.scores
    assert drawn[0] == drawn[1] and end.winner is None
    for finale in (True, False):
        greedy = copy.deepcopy(players)
        agent = MctsAgent(7, me, kinds=(), announcements=False, finale=finale)
        agent.greedy = greedy[me]  # the same fallback, with the same dice
        agents: list[GreedyAgent | MctsAgent] = list(greedy)
        agents[me] = agent
        end = play_on(state, agents, game_roller(state))
        if finale:
            assert end.winner == me and end.scores[me] > end.scores[1 - me]
            assert agent.searched > 0 and agent.overruled > 0
        else:  # the option off: the greedy game
            assert end.scores == drawn and agent.searched == 0


@pytest.mark.rule("IV-B-1")
def test_who_speaks_first_in_the_last_round_is_searched_among_both_answers() -> None:
    state, asked, legal = _in_round(1000, 0, "choose_first", rounds_left=1)
    assert endgame.searched(state, asked)
    assert asked.player is not None
    greedy = GreedyAgent(1, asked.player).choose(state, asked, legal)
    options = endgame.candidates(state, legal, greedy, width=7)
    assert options[0] == greedy and set(options) == set(legal) == {
        ChooseFirst(0),
        ChooseFirst(1),
    }
    earlier, asked, _ = _in_round(1000, 0, "choose_first", rounds_left=2)
    assert not endgame.searched(earlier, asked)


@pytest.mark.rule("IV-A-1")
def test_the_last_rounds_sequence_is_searched_card_by_card_with_finale_cards() -> None:
    state, asked, legal = _in_round(1000, 0, "place_card", rounds_left=1)
    assert asked.player is not None and len(legal) >= 3
    assert not endgame.searched(state, asked)  # off by default
    assert endgame.searched(state, asked, cards=True)
    greedy = GreedyAgent(1, asked.player).choose(state, asked, legal)
    options = endgame.candidates(state, legal, greedy, width=7)
    assert options[0] == greedy and set(options) == set(legal)  # every card, the greedy first
    assert all(isinstance(c, PlaceCard) for c in options)
    earlier, asked_earlier, _ = _in_round(1000, 0, "place_card", rounds_left=2)
    assert not endgame.searched(earlier, asked_earlier, cards=True)
    assert endgame.searched(earlier, asked_earlier, rounds=2, cards=True)
    agent = MctsAgent(
        3, asked.player, kinds=(), announcements=False, finale_cards=True, finale_sweeps=2
    )
    assert agent.choose(state, asked, legal) in legal and agent.searched == 1
    plain = MctsAgent(3, asked.player, kinds=(), announcements=False)
    assert plain.choose(state, asked, legal) in legal and plain.searched == 0


@pytest.mark.rule("III-A-2")
def test_the_round_before_is_searched_to_the_end_only_with_finale_rounds() -> None:
    # seed 1002: the seed-1000 game changed with the open deployment band (III-A-1,
    # CLARIFICATIONS §9: the deployment grid moved) and has no destination in its round 5
    state, asked, legal = _in_round(1002, 0, "destination", rounds_left=2)
    assert asked.player is not None
    me = asked.player
    assert not endgame.searched(state, asked) and endgame.searched(state, asked, rounds=2)
    agent = MctsAgent(3, me, kinds=(), announcements=False, finale_rounds=2)
    assert agent.choose(state, asked, legal) in legal and agent.searched == 1
    assert MctsAgent(3, me, kinds=(), announcements=False).choose(state, asked, legal) in legal
    after = step(state, legal[0])[0]
    agent._fight = None
    agent._to_the_end = True  # what the last rounds' search imagines: the whole game
    after = with_rules(after, rules_of(after).with_pursuits(stay_in_place))
    end, _ = agent._rollout(after, state.phase, 1)
    assert is_over(end)
    # any other search of the round (here an announcement's) stops at the end of the
    # combat phase, although the step that ends it may start the last round
    agent._to_the_end = False
    end, _ = agent._rollout(after, state.phase, 1)
    assert not is_over(end) and end.round == state.round + 1


@pytest.mark.rule("III-A-2")
@pytest.mark.parametrize("final_only", [False, True])
def test_a_final_imagines_more_games_of_the_greedy_answer_and_its_best_rival(
    final_only: bool,
) -> None:
    state, asked, legal = _in_round(1000, 0, "destination", rounds_left=1)
    assert asked.player is not None
    agent = MctsAgent(
        3,
        asked.player,
        kinds=(),
        finale_sweeps=2,
        finale_finals=3,
        final_only=final_only,
        prune_after=0,  # the whole search, not the race: every sweep is imagined
    )
    seen: list[dict[Choice, list[float]]] = []
    verdict = agent._verdict

    def spy(
        options: Sequence[Choice], samples: dict[Choice, list[float]], greedy: Choice
    ) -> Choice:
        seen.append({c: list(samples[c]) for c in options})
        return verdict(options, samples, greedy)

    agent._verdict = spy  # type: ignore[method-assign]
    greedy = copy.deepcopy(agent.greedy).choose(state, asked, legal)
    assert agent.choose(state, asked, legal) in legal
    (finalists,) = seen
    # two sweeps of every candidate, then three more of the greedy answer and the best other;
    # with final_only the verdict is on those three alone (the first two chose the rival)
    assert len(finalists) == 2 and greedy in finalists
    assert [len(v) for v in finalists.values()] == ([3, 3] if final_only else [5, 5])
