"""The human agent driven through its input stream, and a whole game at a terminal."""

from __future__ import annotations

import io
import math
import os
import sys
from pathlib import Path

import pexpect
import pytest
from positions import decision_states
from rich.console import Console

from confrontation.agents.human import HumanAgent, HumanQuit
from confrontation.engine.actions.movement import turned
from confrontation.engine.core.questions import AnnouncementsDone, Place, Question, Walk
from confrontation.engine.core.state import GameState
from confrontation.engine.step import question, refusal, step
from confrontation.engine.table.field import field_of
from engine_support import activate, answer, fighter, skirmish


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


def _walk_destination() -> tuple[GameState, Question, int]:
    """A (p1-c1-1, at x 30) walks; Z (p2-c1-1) stands at x 40: the destination question and
    the number of an option well off the line to Z (its offered facing is not 0°)."""
    a, z = fighter("A"), fighter("Z")
    state = skirmish([[(a, 1)], [(z, 1)]], {"p1-c1-1": (30, 30, 0), "p2-c1-1": (40, 30, 180)})
    state = activate(state, "p1-c1")
    state = answer(state, AnnouncementsDone(), [])
    state = answer(state, Walk("p1-c1-1"), [])
    asked = question(state)
    assert asked is not None and asked.kind == "destination"
    places = [(n, o.choice) for n, o in enumerate(asked.options, start=1)]
    spots = [(n, c) for n, c in places if isinstance(c, Place)]
    # off Z's line, far from him: every facing leaves room
    aside = max(spots, key=lambda p: (abs(p[1].y - 30), -p[1].x))
    return state, asked, aside[0]


@pytest.mark.rule("V-B-1")
@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("137.5", 137.5),
        ("137.5°", 137.5),
        ("median", 0.0),  # Player 1 faces the median line (x = 60) along +x
        ("stood", 0.0),
        ("p2-c1-1", None),  # straight at Z
        ("z", None),  # by name
    ],
)
def test_the_terminal_player_gives_the_facing_after_a_walk(
    typed: str, expected: float | None
) -> None:
    """V-B-1: "At the end of a walk a fighter can be turned in any direction, at the
    controlling player's choice"; CLARIFICATIONS §9: "a person must be able to give any
    angle". The terminal player picks a destination, then names an enemy, the median line,
    or types an angle; bad angles get a one-line error and the question again."""
    state, asked, number = _walk_destination()
    agent, out = _agent(f"{number}\n400\nnowhere\n{typed}\n")
    choice = agent.choose(state, asked, asked.choices)
    assert isinstance(choice, Place)
    assert refusal(state, choice) is None  # step accepts it
    shown = out.getvalue()
    assert "An angle is at least 0 and less than 360 degrees, not 400." in shown
    assert "Type an enemy's id or name" in shown
    listed = asked.options[number - 1].choice
    assert isinstance(listed, Place) and listed.facing % 360 != 0.0
    if expected is None:  # facing Z: the angle from the (unmoved) sight to Z's centre
        sx, sy = field_of(state).base("p1-c1-1").moved(listed.x, listed.y, listed.facing).sight
        expected = round(math.degrees(math.atan2(30 - sy, 40 - sx)) % 360, 1)
    assert choice.facing == pytest.approx(expected, abs=1e-9)
    assert choice in (listed, turned(state, listed, expected))
    after, _ = step(state, choice)
    assert after.fighter("p1-c1-1").facing == pytest.approx(expected, abs=1e-9)


def test_enter_keeps_the_offered_facing() -> None:
    state, asked, number = _walk_destination()
    agent, _ = _agent(f"{number}\n\n")
    assert agent.choose(state, asked, asked.choices) == asked.options[number - 1].choice


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
        found = child.expect([r"Your choice", r"losses \(AP\)", pexpect.EOF, r"Facing \(Enter"])
        if found in (0, 3):
            child.sendline("1" if found == 0 else "")  # the facing offered (V-B-1)
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
