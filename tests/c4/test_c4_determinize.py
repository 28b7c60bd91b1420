"""The C4 search's determinizations (``c4.determinize``): sampled games agree with the
player's view, keep every player's cards, can be played on, vary with the dice; and the mcts
agent's answer depends only on its view (# C4 Tactical Phase, # C4 Drawing the Cards)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4flow_support import RandomAgent, feed, game
from confrontation.agents import c4mcts
from confrontation.agents.c4 import C4GreedyAgent
from confrontation.agents.c4mcts import C4MctsAgent
from confrontation.c4.choices import ChooseFirst, DrawCard, PlaceCard, PutInReserve, UnitAction
from confrontation.c4.determinize import determinize, index_below, shuffled
from confrontation.c4.modes import Mode
from confrontation.c4.state import C4State
from confrontation.c4.step import is_over, legal, question, roll, run, start, step
from confrontation.c4.views import redact
from confrontation.dice import Roller, ScriptedRoller, SeededRoller
from confrontation.engine.core.questions import Question
from confrontation.sim.c4game import C4Config, build


def cards_of(state: C4State, player: int) -> list[str]:
    """Every card ``player`` holds anywhere: sequence, reserve, deck, drawn, being built."""
    side = state.sides[player]
    cards = [*side.sequence, *((side.reserve,) if side.reserve else ())]
    act = state.activation
    if act is not None:
        cards += [c for c in act.deck if state.unit(c).owner == player]
        if act.drawn is not None and act.drawer == player:
            cards.append(act.drawn)
    if state.tactical is not None:
        cards += state.tactical.building[player]
    return sorted(cards)


def test_index_below_is_uniform_and_reads_the_dice() -> None:
    assert index_below(1, ScriptedRoller([])) == 0  # one card: no die
    assert index_below(2, ScriptedRoller([3])) == 0 and index_below(2, ScriptedRoller([4])) == 1
    assert index_below(4, ScriptedRoller([6, 6, 1])) == 0  # 5 and 6 rejected, then 1
    dice = SeededRoller(1)
    counts = Counter(index_below(3, dice) for _ in range(3000))
    assert set(counts) == {0, 1, 2} and min(counts.values()) > 900


def test_shuffled_ignores_the_order_given_and_reaches_every_order() -> None:
    cards = ["c", "a", "b"]
    assert shuffled(cards, SeededRoller(5)) == shuffled(sorted(cards), SeededRoller(5))
    orders = {shuffled(cards, SeededRoller(seed)) for seed in range(60)}
    assert len(orders) == 6 and all(sorted(o) == ["a", "b", "c"] for o in orders)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(list(Mode)), st.integers(0, 10_000), st.integers(1, 60), st.integers(0, 99))
def test_samples_agree_with_the_view_and_can_be_played_on(
    name: Mode, seed: int, steps: int, deal: int
) -> None:
    state, _ = run(game(name.value, seed=seed), [RandomAgent(seed)] * 2, max_steps=steps)
    for player in range(2):
        sample = determinize(state, player, SeededRoller(deal))
        assert redact(sample, player) == redact(state, player)  # he cannot tell them apart
        assert sample.sides[player] == state.sides[player]  # his own side untouched
        for p in range(2):
            assert cards_of(sample, p) == cards_of(state, p)  # every player keeps his cards
        if state.pending is not None and state.pending.player == player:
            assert legal(sample) == legal(state)
        played, _ = run(sample, [RandomAgent(deal)] * 2, max_steps=40)  # a legal game
        assert played.round >= sample.round


def test_general_samples_deal_the_face_down_sequence_at_random() -> None:
    # C4 Ordering the activation sequence > General: each player places his cards face down
    state, _ = start(game("general", units=3))
    state, _ = feed(state, PlaceCard("p1u2"), PlaceCard("p1u3"), PlaceCard("p2u3"))
    state, _ = feed(state, PlaceCard("p2u1"), 5, 2, ChooseFirst(0))
    orders = {determinize(state, 0, SeededRoller(s)).sides[1].sequence for s in range(40)}
    assert len(orders) == 6  # every order of player 2's three cards
    assert state.sides[1].sequence in orders
    mine = {determinize(state, 0, SeededRoller(s)).sides[0].sequence for s in range(10)}
    assert mine == {state.sides[0].sequence}  # his own order he knows


def test_marauder_samples_deal_the_card_drawn_unseen() -> None:
    # C4 Ordering the activation sequence > Marauder: the first active player draws the first card
    # without revealing it
    state, _ = start(game("marauder"))
    state, _ = feed(state, 5, 2, ChooseFirst(0))
    state, _ = feed(state, DrawCard(), 1)
    assert state.activation is not None and state.activation.drawn is not None
    drawn = {determinize(state, 1, SeededRoller(s)).activation.drawn for s in range(30)}  # type: ignore[union-attr]
    assert drawn == {"p1u1", "p1u2"}  # player 2 does not know which of his two it is
    own = {determinize(state, 0, SeededRoller(s)).activation.drawn for s in range(10)}  # type: ignore[union-attr]
    assert own == {state.activation.drawn}


def _unit_action(state: C4State, round: int = 1) -> tuple[C4State, Question]:
    """``state`` played on (greedy) to a unit action question of round ``round`` or later
    with something hidden."""
    dice, agent = SeededRoller(4), C4GreedyAgent(0)
    while not is_over(state):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
            continue
        p = asked.player
        hidden = any(determinize(state, p, SeededRoller(s)) != redact(state, p) for s in range(6))
        if isinstance(asked.choices[0], UnitAction) and hidden and state.round >= round:
            return state, asked
        state, _ = step(state, agent.choose(state, asked, asked.choices))
    raise AssertionError("no unit acted with a secret hidden")


def _marauder_reserve() -> C4State:
    """A Marauder game played on (greedy) until a player puts a drawn card in reserve (greedy
    never does: this player does at his first chance)."""
    state, _ = start(game("marauder", units=3, seed=4))
    dice, agent = SeededRoller(4), C4GreedyAgent(0)
    while all(side.reserve is None for side in state.sides):
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            state, _ = roll(state, dice)
        elif PutInReserve() in asked.choices:
            state, _ = step(state, PutInReserve())
        else:
            state, _ = step(state, agent.choose(state, asked, asked.choices))
    return state


@pytest.mark.parametrize(
    ("position", "round"),
    [(lambda: start(build(C4Config(seed=4, mode="general")))[0], 2), (_marauder_reserve, 1)],
    ids=["general", "marauder"],
)
def test_the_decision_depends_only_on_the_view(position: Callable[[], C4State], round: int) -> None:
    # the search's rollouts (values and all) are the same for two games that differ only in
    # what the player cannot see: it plays on its own deals of his view
    state, asked = _unit_action(position(), round)
    assert asked.player is not None
    other = next(
        s
        for s in (determinize(state, asked.player, SeededRoller(k)) for k in range(20))
        if s != state
    )  # the same game but for what the player cannot see
    assert redact(other, asked.player) == redact(state, asked.player)
    one, two = C4MctsAgent(7, iterations=8), C4MctsAgent(7, iterations=8)
    assert one.choose(state, asked, asked.choices) == two.choose(other, asked, asked.choices)
    assert one.searched == two.searched == 1
    assert one.last_search == two.last_search  # the same rollouts, value for value


def test_every_iteration_plays_on_its_own_deal_of_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    state, asked = _unit_action(_marauder_reserve())
    assert asked.player is not None
    dealt: list[C4State] = []

    def spy(view: C4State, player: int, dice: Roller) -> C4State:
        assert view == redact(state, player) and player == asked.player  # the view only
        world = determinize(view, player, dice)
        dealt.append(world)
        return world

    monkeypatch.setattr(c4mcts, "determinize", spy)
    agent = C4MctsAgent(7, iterations=10)
    agent.choose(state, asked, asked.choices)
    assert agent.searched == 1 and len(dealt) == 10  # a deal per iteration
    assert len(set(dealt)) > 1  # dealt at random
