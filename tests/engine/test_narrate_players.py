"""The narration of games of three players or more (XX-F); two-player sentences unchanged."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from confrontation.engine.core import events as ev
from confrontation.engine.core.narrate import Narrator, listed, narrate
from confrontation.engine.core.outcome import Outcome, Termination
from confrontation.sim.game import GameConfig, initial_state
from players_support import config3


def started(config: GameConfig) -> ev.GameStarted:
    return ev.GameStarted(initial_state(config)[0])


def test_lists_read_as_english() -> None:
    assert [listed([]), listed(["a"]), listed(["a", "b"]), listed(["a", "b", "c"])] == [
        "",
        "a",
        "a and b",
        "a, b and c",
    ]


@pytest.mark.rule("XX-F")
def test_a_game_of_three_is_told_with_every_player() -> None:
    """XX-F: a battle of three factions; a shared best score is a draw between them."""
    end = ev.GameEnded.of(Outcome(Termination.ROUNDS_PLAYED, None, (2, 0, 2)))
    lines = narrate([started(config3()), end])
    assert lines == [
        "A game of 6 round(s) between Player 1 (Lion Vanguard), Player 2 (No-Dan-Kar Raiders) "
        "and Player 3 (Akkylannie Crusade).",
        "The game ends (all rounds played); score 2, 0 and 2: a draw between Player 1 and "
        "Player 3.",
    ]
    won = ev.GameEnded.of(Outcome(Termination.ROUNDS_PLAYED, 2, (0, 1, 3)))
    assert Narrator().sentence(won) == (
        "the game ends (all rounds played); score 0, 1 and 3: Player 3 wins."
    )


@pytest.mark.rule("XX-F-3")
def test_the_tactics_roll_of_three_gives_every_result() -> None:
    """XX-F-3: every player rolls the Tactics roll."""
    rolled = ev.TacticsRolled(finals=cast(Any, (5, 9, 6)), winner=1)
    assert Narrator().sentence(rolled) == (
        "Player 2 wins the Tactics roll (Player 1 5, Player 2 9, Player 3 6)."
    )


def test_two_player_sentences_are_unchanged() -> None:
    state = initial_state(GameConfig(armies=("lion-vanguard", "goblin-raiders")))[0]
    narrator = Narrator()
    assert narrator.sentence(ev.GameStarted(dataclasses.replace(state, rounds=6))) == (
        "A game of 6 round(s): Player 1 (Lion Vanguard) against Player 2 (No-Dan-Kar Raiders)."
    )
    assert narrator.sentence(ev.GameEnded("all rounds played", (1, 1), None)) == (
        "the game ends (all rounds played); score 1 to 1: a draw."
    )
    assert narrator.sentence(ev.TacticsRolled((9, 7), 0)) == (
        "Player 1 wins the Tactics roll (9 to 7)."
    )
