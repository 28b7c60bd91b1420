"""The human agent driven through its input stream, and a whole game at a terminal."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pexpect
import pytest
from positions import decision_states
from rich.console import Console

from confrontation.agents.human import HumanAgent, HumanQuit
from confrontation.engine.questions import Question
from confrontation.engine.state import GameState


def _agent(answers: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    return HumanAgent(0, 0, stdin=io.StringIO(answers), console=console), out


def _asked() -> tuple[GameState, Question]:
    for state, asked in decision_states(11):
        if len(asked.choices) >= 3:
            return state, asked
    raise AssertionError("no question with three options")


def test_a_number_picks_that_option_after_help_and_bad_input() -> None:
    state, asked = _asked()
    agent, out = _agent("x\n?\n9999\n2\n")
    choice = agent.choose(state, asked, asked.choices)
    assert choice == asked.options[1].choice
    shown = out.getvalue()
    assert asked.prompt in shown
    for option in asked.options:
        assert option.label in shown
    assert "Type the number of an option" in shown  # the help
    assert shown.count("Please type a number") == 2  # "x" and "9999"


@pytest.mark.parametrize("answers", ["q\n", ""])
def test_q_or_the_end_of_input_quits_cleanly(answers: str) -> None:
    state, asked = _asked()
    agent, _ = _agent(answers)
    with pytest.raises(HumanQuit):
        agent.choose(state, asked, asked.choices)
    assert issubclass(HumanQuit, KeyboardInterrupt)


def test_a_whole_human_game_at_the_terminal_to_the_scoreboard(tmp_path: Path) -> None:
    command = Path(sys.executable).with_name("confrontation")
    args = [
        "play",
        "--agents",
        "human,random",
        "--armies",
        "bran-o-kor-horde",
        "bran-o-kor-horde",
        "--rounds",
        "1",
        "--seed",
        "5",
        "--no-store",
    ]
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb"}
    child = pexpect.spawn(
        str(command), args, env=env, encoding="utf-8", timeout=120, dimensions=(50, 120)
    )
    child.logfile_read = io.StringIO()
    answered = 0
    while True:
        found = child.expect([r"Your choice", r"losses \(AP\)", pexpect.EOF])
        if found == 0:
            child.sendline("1")
            answered += 1
            assert answered < 2000, "the game does not end"
            continue
        break
    assert found == 1, child.logfile_read.getvalue()[-2000:]
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert answered > 10
    transcript = child.logfile_read.getvalue()
    assert "Player 1" in transcript and "human" in transcript
