"""Batches of games of three to six players (XX-F): seats and armies turn round, wins and
figures per agent."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.sim.batch import BatchResult, GameOutcome, config_for, plan, wilson
from confrontation.sim.game import GameSetupError
from confrontation.store import Outcome


@pytest.mark.rule("XX-F")
def test_nine_games_give_each_of_three_agents_each_army_from_each_seat() -> None:
    """XX-F: no player keeps a place in the order; over n² games all is balanced."""
    specs = plan(9, ("a", "b", "c"), ("A", "B", "C"), seed=1)
    for agent in range(3):
        seen = {(s.seats.index(agent), s.armies[s.seats.index(agent)]) for s in specs}
        assert seen == {(seat, army) for seat in range(3) for army in "ABC"}
    assert [s.agents for s in specs[:3]] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert [s.armies for s in specs[::3]] == [("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B")]


@given(st.integers(min_value=2, max_value=6), st.integers(min_value=1, max_value=2))
def test_every_n_squared_games_are_balanced(players: int, rounds: int) -> None:
    agents = tuple(f"agent{i}" for i in range(players))
    armies = tuple(f"army{i}" for i in range(players))
    options = tuple({"k": i} for i in range(players))
    specs = plan(players * players * rounds, agents, armies, agent_options=options)
    seats: Counter[tuple[int, int, str | None]] = Counter()
    for spec in specs:
        assert sorted(spec.seats) == list(range(players))
        assert sorted(a or "" for a in spec.armies) == sorted(armies)
        assert spec.agents == tuple(agents[s] for s in spec.seats)
        assert spec.agent_options == tuple(options[s] for s in spec.seats)  # options follow
        for player, seat in enumerate(spec.seats):
            seats[(seat, player, spec.armies[player])] += 1
    assert set(seats.values()) == {rounds}
    assert len(seats) == players**3


@pytest.mark.rule("XX-F")
def test_a_batch_of_three_needs_three_named_armies() -> None:
    with pytest.raises(GameSetupError, match="needs all its armies named"):
        plan(3, ("a", "b", "c"), (None, None, None))
    with pytest.raises(GameSetupError, match="3 agents for 2 armies"):
        plan(3, ("a", "b", "c"))
    with pytest.raises(GameSetupError, match="not 7 armies"):
        plan(3, ("a",) * 7, ("A",) * 7)
    with pytest.raises(GameSetupError, match="agent_options"):
        plan(3, ("a", "b", "c"), ("A", "B", "C"), agent_options=({}, {}))


def test_a_game_of_three_is_configured_for_its_three_seats() -> None:
    spec = plan(2, ("a", "b", "c"), ("A", "B", "C"), agent_options=({}, {"x": 1}, {}))[1]
    config = config_for(spec)
    assert config.agents == ("b", "c", "a") and config.armies == ("A", "B", "C")
    assert config.agent_options == ({"x": 1}, {}, {})


@pytest.mark.rule("XX-F")
def test_wins_and_figures_are_counted_per_agent_for_three_players() -> None:
    """XX-F: each agent's wins wherever it sat; a shared best score is a draw."""
    specs = plan(3, ("first", "second", "third"), ("A", "B", "C"))
    # game 0: seats (0, 1, 2), player 2 wins → third; game 1: seats (1, 2, 0), player 0
    # wins → second; game 2: seats (2, 0, 1), a draw.
    results = [(2, (0, 1, 3)), (0, (2, 1, 0)), (None, (1, 1, 0))]
    outcomes = [
        GameOutcome(i, Outcome(w, vp, (0, 10 * i, 5), 6)) for i, (w, vp) in enumerate(results)
    ]
    batch = BatchResult(
        specs, outcomes, 1.5, ("first", "second", "third"), ("A", "B", "C"), None, 0
    )
    assert batch.players == 3
    assert batch.wins() == (0, 1, 1) and batch.draws() == 1
    records = batch.records()
    assert [r.name for r in records] == ["first", "second", "third"]
    # first sat player 0, 2, 1: VP 0 + 0 + 1; second: 1 + 2 + 0; third: 3 + 1 + 1
    assert [r.mean_vp for r in records] == pytest.approx([1 / 3, 1.0, 5 / 3])
    assert records[1].interval == wilson(1, 3)
    document = batch.to_json()
    assert document["wins"] == [0, 1, 1] and document["draws"] == 1
    assert len(document["win_rate_95"]) == 3 and len(document["mean_losses_ap"]) == 3
    assert document["results"][1]["agents"] == ["second", "third", "first"]
    assert document["results"][1]["vp"] == [2, 1, 0]
