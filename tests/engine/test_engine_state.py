"""The state is plain data: JSON round trip, equality, hashing, copy-on-write clones."""

from __future__ import annotations

import dataclasses
import json

import pytest

from confrontation.agents.random import RandomAgent
from confrontation.armylists.load import bundled_army_files, load_army
from confrontation.engine.core.codec import decode, encode
from confrontation.engine.core.events import Event, event_from_data, event_to_data
from confrontation.engine.core.questions import Choice, PlaceCard, TacticsFighter
from confrontation.engine.core.state import GameState, state_from_json, state_to_json
from confrontation.engine.setup.game import new_game
from confrontation.engine.step import run


def bundled_game(seed: int = 0, rounds: int = 2) -> GameState:
    files = {f.stem: f for f in bundled_army_files()}
    armies = [load_army(files["lion-vanguard"]), load_army(files["goblin-raiders"])]
    return new_game(armies, rounds=rounds, seed=seed)


def states_along_a_game(seed: int) -> list[GameState]:
    """Every state a random game passes through (one per answer or die)."""
    state = bundled_game(seed)
    seen = []
    agents = [RandomAgent(seed * 2 + 1), RandomAgent(seed * 2 + 2)]
    while state.phase.value != "over":
        state, _ = run(state, agents, max_steps=1)
        seen.append(state)
    return seen


def test_new_game_makes_one_card_per_army_list_entry() -> None:
    files = {f.stem: f for f in bundled_army_files()}
    army = load_army(files["lion-vanguard"])
    state = bundled_game()
    cards = state.cards_of(0)
    assert [c.profile for c in cards] == [c.profile.id for c in army.cards]
    assert [len(c.fighters) for c in cards] == [c.count for c in army.cards]
    assert all(state.fighter(f).card == c.id for c in cards for f in c.fighters)
    assert state.side(0).people == army.people and state.side(0).alliance_way == "light"
    assert len(state.fighters) == sum(len(c.fighters) for c in state.cards)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_of_a_game_survives_a_json_round_trip(seed: int) -> None:
    for state in states_along_a_game(seed):
        text = state_to_json(state)
        again = state_from_json(text)
        assert again == state
        assert state_to_json(again) == text
        json.loads(text)  # plain JSON


def test_states_are_hashable_and_equal_by_value() -> None:
    state = bundled_game()
    same = state_from_json(state_to_json(state))
    assert state is not same and state == same and hash(state) == hash(same)
    assert len({state, same}) == 1


def test_a_change_shares_the_untouched_parts_with_its_parent() -> None:
    state = bundled_game()
    hurt = dataclasses.replace(state.fighters[0], wounds=1)
    child = state.with_fighters(hurt)
    assert child.fighters[0].wounds == 1 and state.fighters[0].wounds == 0
    assert child.cards is state.cards and child.profiles is state.profiles
    assert all(a is b for a, b in zip(child.fighters[1:], state.fighters[1:], strict=True))


def test_events_and_choices_round_trip_through_json() -> None:
    state = bundled_game(seed=3)
    _, events = run(state, [RandomAgent(1), RandomAgent(2)])
    for event in events:
        data = json.loads(json.dumps(event_to_data(event)))
        assert event_from_data(data) == event
    for choice in (PlaceCard("p1-c1"), TacticsFighter(None), TacticsFighter("p2-c1-1")):
        assert decode(Choice, json.loads(json.dumps(encode(choice)))) == choice


def test_a_malformed_record_names_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="unknown Event kind 'nonsense'"):
        event_from_data({"kind": "nonsense"})
    with pytest.raises(KeyError, match="lacks the field 'round'"):
        decode(Event, {"kind": "round_started"})
