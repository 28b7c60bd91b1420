"""The one run loop (``engine.core.door``): a toy game through it, and both games' ``run``
going through it with their own door."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import pytest

from confrontation.c4 import step as c4step
from confrontation.c4.state import C4State
from confrontation.c4.views import redact as c4_redact
from confrontation.dice import ScriptedRoller
from confrontation.engine.core import door
from confrontation.engine.core.events import Event
from confrontation.engine.core.questions import Choice, DieFace, Question
from confrontation.engine.core.registry import EngineError
from confrontation.sim.c4game import C4Config, build


@dataclass(frozen=True)
class Wait:
    player: int | None


@dataclass(frozen=True)
class Toy:
    """Players 0 and 1 add 1 or 2 in turn, a die after each; over at ``total >= 10``."""

    total: int = 0
    turn: int = 0
    secret: int = 7
    waiting: Wait | None = None
    viewer: int | None = None


def _step(state: Toy, choice: Choice) -> tuple[Toy, list[Event]]:
    assert state.waiting is not None
    if state.waiting.player is None:
        assert isinstance(choice, DieFace)
        return replace(state, waiting=Wait(state.turn)), []
    assert isinstance(choice, DieFace)  # the toy's answers: how much to add
    total = state.total + choice.face
    over = total >= 10
    return replace(
        state, total=total, turn=1 - state.turn, waiting=None if over else Wait(None)
    ), []


TOY = door.Door[Toy](
    is_over=lambda s: s.total >= 10,
    pending=lambda s: s.waiting,
    start=lambda s: (replace(s, waiting=Wait(0)), []),
    ask=lambda s, agent: (Question("add", s.turn, "", ()), [DieFace(1), DieFace(2)]),
    view=lambda s, p: replace(s, secret=0, viewer=p),
    step=_step,
    roll=lambda s, r: _step(s, DieFace(r.d6())),
    game_roller=lambda s: ScriptedRoller([3] * 100),
)


class Adder:
    def __init__(self, amount: int) -> None:
        self.amount = amount
        self.seen: list[Toy] = []

    def choose(self, state: Toy, question: Question, legal: Sequence[Choice]) -> Choice:
        self.seen.append(state)
        return DieFace(self.amount)


def test_run_starts_plays_to_the_end_and_shows_each_player_his_view() -> None:
    a, b = Adder(1), Adder(2)
    final, _ = door.run(TOY, Toy(), [a, b])
    assert final.total == 10  # 1+2+1+2+1+2+1
    assert len(a.seen) == 4 and len(b.seen) == 3
    assert {s.viewer for s in a.seen} == {0} and {s.viewer for s in b.seen} == {1}
    assert all(s.secret == 0 for s in a.seen + b.seen)


def test_max_steps_counts_answers_and_dice() -> None:
    final, _ = door.run(TOY, Toy(), [Adder(1), Adder(1)], max_steps=5)
    assert final.total == 3  # answer, die, answer, die, answer


def test_play_stops_when_until_holds_and_uses_the_dice_given() -> None:
    dice = ScriptedRoller([1] * 100)
    final = door.play(
        TOY,
        replace(Toy(), waiting=Wait(0)),
        [Adder(2), Adder(2)],
        dice,
        until=lambda s: s.total >= 4,
    )
    assert final.total == 4
    assert dice.rolled == 1  # the die after the first answer only


def test_a_game_waiting_for_nothing_is_an_error() -> None:
    stuck = replace(Toy(), total=1)  # not over, nothing pending, not started by play
    with pytest.raises(EngineError, match="neither over nor waiting"):
        door.play(TOY, stuck, [Adder(1), Adder(1)], ScriptedRoller([]))


class Recorder:
    """A C4 agent that keeps what it was shown and answers the first choice."""

    def __init__(self) -> None:
        self.shown: list[tuple[C4State, Question]] = []

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        self.shown.append((state, question))
        return legal[0]


def test_c4_run_goes_through_the_shared_loop_with_its_door(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[door.Door[C4State]] = []
    original = door.run

    def spy(d: door.Door[C4State], *args: object, **kwargs: object) -> tuple[C4State, list[Event]]:
        seen.append(d)
        return original(d, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(door, "run", spy)
    state = build(C4Config(seed=3, mode="general"))
    agents = [Recorder(), Recorder()]
    final, events = c4step.run(state, agents, max_steps=60)
    assert seen == [c4step.DOOR]
    assert events and final.dice_rolled > 0
    for p, agent in enumerate(agents):
        assert agent.shown, "both players answered"
        for view, asked in agent.shown:
            assert asked.player == p
            assert c4_redact(view, p) == view  # already the player's view
