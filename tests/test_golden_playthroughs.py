"""Golden playthroughs (tests/golden/): seeded whole games must stay the same games.

A change that makes one of them differ must say why, and record it anew with
``python scripts/golden.py --write`` (which prints where each game parts from its record).
"""

from __future__ import annotations

import pytest

from confrontation.engine.core.events import GameEnded
from confrontation.engine.record import replay
from golden_support import (
    GoldenGame,
    divergence,
    games,
    narration,
    play,
    recorded,
    recorded_narration,
    recorded_result,
    result_text,
    text_divergence,
)

GAMES = games()


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_seeded_game_is_played_exactly_as_recorded(game: GoldenGame) -> None:
    result = play(game)
    where = divergence(recorded(game), list(result.events))
    assert where is None, f"{game.name} differs from its record ({where}); see tests/golden"
    told = text_divergence(recorded_narration(game), narration(result.events))
    assert told is None, f"{game.name}'s narration differs ({told}); see tests/golden"
    summed = text_divergence(recorded_result(game), result_text(result))
    assert summed is None, f"{game.name}'s result differs ({summed}); see tests/golden"


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_record_replays_from_its_own_inputs(game: GoldenGame) -> None:
    log = recorded(game)
    ended = [e for e in log if isinstance(e, GameEnded)]
    assert ended, "a golden game is played to its end"
    final = replay(log)  # checks every event the engine produces against the record
    assert final.winner == ended[-1].winner


def test_the_golden_games_are_whole_games_of_different_settings() -> None:
    """The manifest covers the three basic scenarios and both kinds of simple agent."""
    scenarios = {g.config.scenario.split(":")[0] for g in GAMES}
    agents = {a for g in GAMES for a in g.config.agents}
    assert {"conquest", "bloodbath", "execution"} <= scenarios
    assert {"greedy", "random"} <= agents
