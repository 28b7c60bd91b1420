"""Games of two to six players (XX-F) through the game runner's plumbing: the config's
counts, the result and its JSON document for every player, and what the store keeps."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.sim.game import (
    GameConfig,
    GameSetupError,
    check_players,
    load_armies,
    result_document,
)
from confrontation.sim.saved import config_of, outcome_of, setup_of
from confrontation.store import Outcome
from players_support import AGENTS3, ARMIES3, NAMES3, config3, finished3


@pytest.mark.rule("XX-F")
@pytest.mark.parametrize(
    ("armies", "agents", "message"),
    [
        (1, 1, "armies: a game has 2 to 6 players (XX-F), not 1 army"),
        (7, 7, "armies: a game has 2 to 6 players (XX-F), not 7 armies"),
        (0, 0, "armies: a game has 2 to 6 players (XX-F), not 0 armies"),
        (3, 2, "agents: one agent per army: 2 agents for 3 armies (XX-F)"),
        (2, 3, "agents: one agent per army: 3 agents for 2 armies (XX-F)"),
    ],
)
def test_a_config_has_two_to_six_armies_and_an_agent_for_each(
    armies: int, agents: int, message: str
) -> None:
    """XX-F: battles of more than two factions; six players at most (the state's limit)."""
    with pytest.raises(GameSetupError) as raised:
        GameConfig(armies=("lion-vanguard",) * armies, agents=("random",) * agents)
    assert str(raised.value) == message
    assert "\n" not in str(raised.value)


@pytest.mark.rule("XX-F")
@given(st.integers(min_value=-2, max_value=9), st.integers(min_value=-2, max_value=9))
def test_check_players_accepts_exactly_two_to_six_matching_counts(armies: int, agents: int) -> None:
    """XX-F: two to six players, one agent for each army."""
    good = 2 <= armies <= 6 and agents == armies
    try:
        check_players(armies, agents, names=("--armies", "--agents"))
    except GameSetupError as error:
        assert not good
        assert str(error).startswith(("--armies: ", "--agents: "))
    else:
        assert good


def test_agent_options_default_to_none_for_each_agent_and_must_match() -> None:
    assert GameConfig().agent_options == ({}, {})
    assert config3().agent_options == ({}, {}, {})
    options: tuple[dict[str, Any], ...] = ({"iterations": 2}, {}, {"seconds": 1.0})
    assert config3(agent_options=options).agent_options == options
    with pytest.raises(GameSetupError, match="agent_options: one set of options per agent"):
        config3(agent_options=({}, {}))


@pytest.mark.rule("XX-F")
def test_three_armies_load_player_1_first() -> None:
    """XX-F: each faction its own army, in the players' order."""
    assert tuple(a.name for a in load_armies(ARMIES3)) == NAMES3
    with pytest.raises(GameSetupError, match="not 7 armies"):
        load_armies(ARMIES3 * 2 + ARMIES3[:1])


@pytest.mark.rule("XX-F")
def test_the_result_document_lists_every_player() -> None:
    """XX-F: a battle of three factions has three results; XX-A-5 losses for each."""
    result = finished3((1, 3, 0), 1, killed=2)
    document = result_document(result)
    assert document["winner"] == 1 and document["rounds"] == 3
    assert [p["army"] for p in document["players"]] == list(NAMES3)
    assert [p["agent"] for p in document["players"]] == list(AGENTS3)
    assert [p["vp"] for p in document["players"]] == [1, 3, 0]
    losses = [p["losses_ap"] for p in document["players"]]
    assert losses[0] == losses[1] == 0 and losses[2] > 0
    assert {f["player"] for f in document["fighters"]} == {0, 1, 2}
    assert document["outcome"]["result"] == "0-1-0"
    assert result.leaders() == (1,)


@pytest.mark.rule("XX-F")
def test_a_draw_of_three_is_shared_by_the_best_scores() -> None:
    """XX-F (docs/rulings.md): several players sharing the best score draw; the others lose."""
    result = finished3((2, 0, 2), None)
    assert result.leaders() == (0, 2)
    assert result_document(result)["outcome"]["result"] == "1/2-0-1/2"
    assert finished3((1, 1, 1), None).leaders() == (0, 1, 2)
    assert result_document(finished3((1, 1, 1), None))["outcome"]["result"] == "1/3-1/3-1/3"


@pytest.mark.rule("XX-F")
def test_what_the_store_keeps_of_a_three_player_game_gives_it_back() -> None:
    """XX-F: every player's army and agent is kept, so the game can be continued."""
    config = config3(seed=12, rounds=2, agent_options=({}, {"x": 1}, {}))
    setup = setup_of(config)
    assert setup.agents == AGENTS3
    assert tuple(a.name for a in setup.armies) == NAMES3
    assert all(a.source for a in setup.armies)
    with config_of(setup) as again:
        assert again == config
    assert outcome_of(finished3((1, 3, 0), 1, killed=0)).vp == (1, 3, 0)
    losses = outcome_of(finished3((1, 3, 0), 1, killed=0)).losses
    assert len(losses) == 3 and losses[0] > 0 and losses[1:] == (0, 0)
    assert isinstance(outcome_of(finished3((0, 0, 0), None)), Outcome)
