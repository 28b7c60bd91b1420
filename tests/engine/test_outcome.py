"""A game's end as a typed value (issue 20 §3): ``Termination`` and ``Outcome``, modelled on
python-chess, recorded as the ``GameEnded`` event the records have always held."""

from __future__ import annotations

import pytest

from confrontation.engine.core.events import GameEnded
from confrontation.engine.core.outcome import Outcome, Termination, leaders, sole_leader
from confrontation.engine.record import event_line, read_log

EXECUTED = Outcome(Termination.EXECUTION, 0, (1, 0), "Player 1 has killed his target")


@pytest.mark.rule("III-A-2")
def test_the_recorded_end_is_the_line_records_have_always_held() -> None:
    """III-A-2: the game ends after the scenario's last round, or at once in Execution (the
    player who kills his target "is declared the winner immediately"); the record keeps the
    same line for it as before the outcome was typed."""
    line = '{"kind":"game_ended","reason":"Execution: Player 1 has killed his target",'
    assert event_line(GameEnded.of(EXECUTED)) == line + '"scores":[1,0],"winner":0}'
    rounds = Outcome(Termination.ROUNDS_PLAYED, 1, (1, 3))
    assert event_line(GameEnded.of(rounds)) == (
        '{"kind":"game_ended","reason":"all rounds played","scores":[1,3],"winner":1}'
    )


@pytest.mark.rule("III-A-2")
def test_a_recorded_end_reads_back_as_its_outcome() -> None:
    """III-A-2: how the game ended (its last round played, or an Execution target killed)
    and who won come back typed from the record's line."""
    for outcome in (EXECUTED, Outcome(Termination.ROUNDS_PLAYED, None, (2, 2))):
        (event,) = read_log([event_line(GameEnded.of(outcome))])
        assert isinstance(event, GameEnded)
        assert event.outcome == outcome


def test_a_reason_that_names_no_termination_is_refused() -> None:
    with pytest.raises(ValueError, match="names no way a game ends"):
        Termination.parse("the players went home")
    with pytest.raises(ValueError):
        Termination.parse("Executions: Player 1")


def test_the_result_reads_as_in_chess() -> None:
    assert EXECUTED.result() == "1-0"
    assert Outcome(Termination.ROUNDS_PLAYED, 1, (1, 3)).result() == "0-1"
    assert Outcome(Termination.ROUNDS_PLAYED, None, (2, 2)).result() == "1/2-1/2"
    assert EXECUTED.reason == "Execution: Player 1 has killed his target"
    assert Termination.ROUNDS_PLAYED.reason() == "all rounds played"


@pytest.mark.rule("XX-F")
def test_with_three_players_a_draw_is_shared_by_the_best_scores() -> None:
    """XX-F (docs/rulings.md): the player with the most VP wins; several sharing the best
    score draw between them, the others lose."""
    assert leaders((2, 0, 2)) == (0, 2) and sole_leader((2, 0, 2)) is None
    assert leaders((1, 4, 0, 3)) == (1,) and sole_leader((1, 4, 0, 3)) == 1
    assert leaders((0, 0, 0)) == (0, 1, 2) and sole_leader((1, 1)) is None
    assert Outcome(Termination.ROUNDS_PLAYED, None, (2, 0, 2)).result() == "1/2-0-1/2"
    assert Outcome(Termination.ROUNDS_PLAYED, None, (1, 1, 1)).result() == "1/3-1/3-1/3"
    assert Outcome(Termination.ROUNDS_PLAYED, 2, (0, 1, 3)).result() == "0-0-1"
    ended = GameEnded.of(Outcome(Termination.ROUNDS_PLAYED, None, (2, 0, 2)))
    assert event_line(ended) == (
        '{"kind":"game_ended","reason":"all rounds played","scores":[2,0,2],"winner":null}'
    )
    assert read_log([event_line(ended)]) == [ended]
