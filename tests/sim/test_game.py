"""sim.game.play_game: whole games from a config — reproducible, replayable, scored."""

from __future__ import annotations

import pytest

from confrontation.armylists.load import LoadError
from confrontation.engine.core.events import Event, FighterKilled, GameEnded, GameStarted
from confrontation.engine.core.outcome import Termination
from confrontation.engine.core.state import Phase
from confrontation.engine.record import replay
from confrontation.scenarios import BasicScenario, ObjectiveScored
from confrontation.sim.game import GameConfig, GameSetupError, play_game, result_document

ARMIES = ("lion-vanguard", "goblin-raiders")


def config(seed: int, scenario: str = "conquest", rounds: int = 1) -> GameConfig:
    return GameConfig(
        scenario=scenario, armies=ARMIES, agents=("random", "random"), seed=seed, rounds=rounds
    )


def test_a_game_is_played_to_its_end_and_scored() -> None:
    seen: list[Event] = []
    result = play_game(config(1), on_event=seen.append)
    assert result.state.phase is Phase.OVER and result.rounds == 1
    assert list(result.events) == seen  # every event reaches on_event, in order
    assert isinstance(seen[0], GameStarted) and isinstance(seen[-1], GameEnded)
    ended = seen[-1]
    assert ended.scores == result.state.scores == (result.players[0].vp, result.players[1].vp)
    assert ended.winner == result.winner
    scored = [0, 0]
    for event in seen:
        if isinstance(event, ObjectiveScored):
            scored[event.player] += event.vp
    assert tuple(scored) == ended.scores
    assert result.players[0].army == "Lion Vanguard"
    assert result.players[1].army == "No-Dan-Kar Raiders"
    assert result.scenario == "Conquest" and result.state.scenario is not None


def test_the_same_config_gives_the_same_game_and_other_seeds_other_games() -> None:
    first = play_game(config(7))
    again = play_game(config(7))
    assert first.events == again.events
    assert result_document(first) == result_document(again)
    other = play_game(config(8))
    assert other.events != first.events


def test_the_record_replays_to_the_final_state() -> None:
    result = play_game(config(3, "execution:random-card"))
    assert replay(list(result.events)) == result.state


def test_the_scenario_round_limit_and_the_override() -> None:
    assert play_game(config(2, "bloodbath:small-table", rounds=2)).rounds == 2
    assert config(2).rounds == 1


def test_unknown_agents_and_armies_are_setup_errors() -> None:
    with pytest.raises(GameSetupError, match="nobody"):
        play_game(GameConfig(agents=("nobody", "random"), armies=ARMIES))
    with pytest.raises(LoadError, match="nowhere: no such army file"):
        play_game(GameConfig(armies=("lion-vanguard", "nowhere"), agents=("random", "random")))
    with pytest.raises(GameSetupError, match="at least one round"):
        play_game(GameConfig(armies=ARMIES, agents=("random", "random"), rounds=0))


@pytest.mark.rule("III-A-2")
def test_a_real_execution_game_ends_on_the_step_that_kills_the_target() -> None:
    for seed in range(3, 9):  # greedy shooters go for the target; one of these kills him
        result = play_game(
            GameConfig(
                scenario="execution",
                armies=ARMIES,
                agents=("greedy", "greedy"),
                seed=seed,
            )
        )
        if result.winner is not None:
            break
    else:
        pytest.fail("no Execution game of these seeds was won")
    scenario = result.state.scenario
    assert isinstance(scenario, BasicScenario)
    events = list(result.events)
    kill = max(i for i, e in enumerate(events) if isinstance(e, FighterKilled))
    killed = events[kill]
    assert isinstance(killed, FighterKilled)
    assert killed.fighter in scenario.targets[result.winner]
    assert events[kill + 1 :] == [
        ObjectiveScored(result.winner, "execution", 1),
        GameEnded(result.reason, result.state.scores, result.winner),
    ]
    assert result.outcome is not None
    assert result.outcome.termination is Termination.EXECUTION
    assert result.outcome.winner == result.winner and result.outcome.result() in ("1-0", "0-1")
    assert result.rounds <= 5 and replay(events) == result.state
