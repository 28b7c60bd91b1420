"""The fights formed at the end of the activation phase, scored without dice (agents/fights.py),
and the search that judges its announcements by them (``mcts:fights=expected``)."""

from __future__ import annotations

import dataclasses

import pytest
from positions import position_in_game

from confrontation.agents.assess import blow_of, hit_value
from confrontation.agents.fights import exchange, opponents
from confrontation.agents.mcts import MctsAgent, _assaults
from confrontation.engine.combat.phase import stay_in_place
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.ruleset import rules_of, with_rules
from confrontation.engine.core.state import GameState, Phase
from confrontation.engine.step import is_over, step


def _combat_begins(seed: int) -> tuple[GameState, Question, list[Choice]]:
    """The first question of a combat phase of a seeded greedy game with fighters in contact."""
    return position_in_game(
        seed, 0, lambda state, _, __: state.phase is Phase.COMBAT and bool(opponents(state))
    )


@pytest.mark.rule("VII-C-1")
def test_the_exchange_is_one_sides_gain_and_the_others_loss() -> None:
    state, _, _ = _combat_begins(2000)
    engaged = opponents(state)
    assert engaged and all(
        state.fighter(e).player != state.fighter(f).player
        for f, enemies in engaged.items()
        for e in enemies
    )
    assert exchange(state, 0) == pytest.approx(-exchange(state, 1))
    assert exchange(state, 0) != 0.0


@pytest.mark.rule("VII-C-1")
def test_one_against_one_is_one_attack_each_way_against_one_defence_die() -> None:
    state, _, _ = _combat_begins(2000)
    pairs = [(f, e[0]) for f, e in opponents(state).items() if len(e) == 1]
    one_on_one = [
        (f, e) for f, e in pairs if len(opponents(state)[e]) == 1 and state.fighter(f).player == 0
    ]
    assert one_on_one, "the seed-2000 position has a lone pair"
    f, e = one_on_one[0]
    alone = dataclasses.replace(
        state,
        fighters=tuple(x for x in state.fighters if x.id in (f, e)),
    )
    a, b = blow_of(alone, alone.fighter(f)), blow_of(alone, alone.fighter(e))
    # 1 + 1 dice each (VII-C-1): one attack, one defence die
    assert exchange(alone, 0) == pytest.approx(hit_value(a, b, 1) - hit_value(b, a, 1))


@pytest.mark.rule("V-B-3")
def test_a_charge_penalty_on_the_enemy_is_worth_something() -> None:
    state, _, _ = _combat_begins(2000)
    mine = next(f for f in opponents(state) if state.fighter(f).player == 0)
    enemies = set(opponents(state)[mine])
    calm = dataclasses.replace(
        state,
        fighters=tuple(
            dataclasses.replace(x, charged=False) if x.id in enemies else x for x in state.fighters
        ),
    )
    charged = dataclasses.replace(
        state,
        fighters=tuple(
            dataclasses.replace(x, charged=True) if x.id in enemies else x for x in state.fighters
        ),
    )
    assert exchange(charged, 0) > exchange(calm, 0)


def test_nobody_in_contact_is_worth_nothing() -> None:
    state, _, _ = position_in_game(2000, 0, lambda s, _, __: s.round == 1)
    assert opponents(state) == {} and exchange(state, 0) == 0.0


@pytest.mark.rule("IV-B-2")
def test_with_expected_fights_an_announcement_is_imagined_to_the_combat_phase_only() -> None:
    state, asked, legal = position_in_game(2000, 13, lambda s, _, legal: _assaults(s, legal))
    assert asked.player is not None
    agent = MctsAgent(3, asked.player, announcements=True, fights="expected")
    agent._fight = None
    agent._expected = True
    after = step(state, legal[0])[0]
    after = with_rules(after, rules_of(after).with_pursuits(stay_in_place))
    end, _ = agent._rollout(after, state.phase, 1)
    assert is_over(end) or (end.phase is Phase.COMBAT and end.round == state.round)
    # the search is judged there with the fights formed, and sets the flag back
    assert agent.choose(state, asked, legal) in legal
    assert agent._expected is False
    with pytest.raises(ValueError, match="fights"):
        MctsAgent(3, 0, fights="dreamt")
