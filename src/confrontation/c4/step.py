"""The one door of a C4 game, the same as the engine's (``engine.step``): ``start``,
``legal``, ``question``, ``step``, ``advance``, ``outcomes``, ``roll``, ``run``.

Build the initial state with :func:`confrontation.c4.state.new_game`, then::

    state, events = start(state)                 # runs until the first question or die
    while not is_over(state):
        q = question(state)                      # q.player None: a die (a chance step)
        state, happened = roll(state, roller) if q.player is None else step(state, choice)

or ``run(state, agents)`` with agents answering ``choose(view, question, legal)`` where
``view`` is :func:`confrontation.c4.views.redact` of the state for that player. Every die
is a ``DieFace`` answer to a question for player None (so a log of ``ChoiceMade`` and
``DieRolled`` replays the game: :func:`replay`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from confrontation.c4 import activation, control, tactical
from confrontation.c4.events import C4GameStarted
from confrontation.c4.handlers import Handler, Transition
from confrontation.c4.state import C4State, Phase
from confrontation.c4.views import redact
from confrontation.dice import FACES, Roller, SeededRoller
from confrontation.engine.core import door
from confrontation.engine.core.door import Door
from confrontation.engine.core.events import ChoiceMade, DieRolled, Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Choice, DieFace, Question
from confrontation.engine.core.registry import EngineError, IllegalChoice

HANDLERS: dict[str, Handler] = {**tactical.HANDLERS, **activation.HANDLERS}
"""Every kind of question a C4 game asks, by kind."""

DRIVERS = {
    Phase.TACTICAL: tactical.drive,
    Phase.ACTIVATION: activation.drive,
    Phase.CONTROL: control.drive,
}
MAX_DRIVES = 10_000


class Agent(Protocol):
    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice: ...


def is_over(state: C4State) -> bool:
    return state.phase is Phase.OVER


def is_chance(state: C4State) -> bool:
    return state.pending is not None and state.pending.player is None


def _handler(state: C4State) -> Handler:
    assert state.pending is not None
    return HANDLERS[state.pending.kind]


def legal(state: C4State) -> list[Choice]:
    """The choices :func:`step` accepts now (die faces at a chance step; none once over)."""
    if state.pending is None:
        return []
    return _handler(state).legal(state)


def question(state: C4State) -> Question | None:
    """The pending question as a person sees it."""
    if state.pending is None:
        return None
    return _handler(state).describe(state, legal(state))


def refusal(state: C4State, choice: Choice) -> str | None:
    """Why :func:`step` would refuse ``choice`` now (None: it accepts it): not listed by
    :func:`legal` and, for a question with free answers, not a valid one."""
    pending = state.pending
    if pending is None:
        return "nothing is pending: start the game with start() or it is over"
    handler = _handler(state)
    if choice in handler.legal(state):
        return None
    if handler.free is not None and pending.player is not None:
        return handler.free(state, choice)
    return f"{choice!r} is not a legal answer to {str(pending.kind)!r}"


def step(state: C4State, choice: Choice) -> Transition:
    """Apply one answer (or die face) to the pending question and move the game on."""
    pending = state.pending
    if pending is None:
        raise EngineError("nothing is pending: start the game with start() or it is over")
    handler = _handler(state)
    refused = refusal(state, choice)
    if refused is not None:
        raise IllegalChoice(refused)
    events: list[Event]
    if pending.player is None:
        assert isinstance(choice, DieFace)
        subject = handler.subject(state) if handler.subject else None
        events = [DieRolled(pending.kind, subject, choice.face)]
        state = evolve(state, pending=None, dice_rolled=state.dice_rolled + 1)
    else:
        events = [ChoiceMade(pending.player, pending.kind, choice)]
        state = evolve(state, pending=None)
    state, applied = handler.apply(state, choice)
    events.extend(applied)
    state, advanced = advance(state)
    events.extend(advanced)
    return state, events


def advance(state: C4State) -> Transition:
    """Run the phase drivers until a question or a die is pending, or the game is over."""
    events: list[Event] = []
    drives = 0
    while state.pending is None and not is_over(state):
        state, driven = DRIVERS[state.phase](state)
        events.extend(driven)
        drives += 1
        if drives > MAX_DRIVES:
            raise EngineError(f"the C4 {state.phase} phase makes no progress")
    return state, events


def start(state: C4State) -> Transition:
    """Begin a game from :func:`~.state.new_game`'s state."""
    if state.pending is not None or state.tactical is not None:
        raise EngineError("this game has already started")
    events: list[Event] = [C4GameStarted(state)]
    state, advanced = advance(state)
    return state, events + advanced


def outcomes(state: C4State) -> list[tuple[DieFace, Fraction]]:
    """The pending die's exact distribution: each face 1/6."""
    if not is_chance(state):
        raise EngineError("no die is pending")
    return [(DieFace(f), Fraction(1, len(FACES))) for f in FACES]


def roll(state: C4State, roller: Roller) -> Transition:
    """Resolve the pending die with a face from ``roller``."""
    if not is_chance(state):
        raise EngineError("no die is pending")
    return step(state, DieFace(roller.d6()))


def game_roller(state: C4State) -> SeededRoller:
    """The game's own die stream, resumed where the state left it."""
    return SeededRoller.at(state.seed, state.dice_rolled)


def ask(state: C4State, agent: object) -> tuple[Question, Sequence[Choice]]:
    """The pending question and its choices (every C4 agent reads them in full)."""
    asked = question(state)
    if asked is None:
        raise EngineError("nothing is pending: start the game with start() or it is over")
    return asked, asked.choices


DOOR: Door[C4State] = Door(is_over, door.pending_of, start, ask, redact, step, roll, game_roller)
"""C4's door, for the loop it shares with the engine (:mod:`confrontation.engine.core.door`)."""


def run(
    state: C4State,
    agents: Mapping[int, Agent] | Sequence[Agent],
    roller: Roller | None = None,
    max_steps: int | None = None,
) -> Transition:
    """Play on until the game ends (or ``max_steps``); each agent sees its player's view."""
    return door.run(DOOR, state, agents, roller, max_steps)


def replay(events: Sequence[Event]) -> C4State:
    """Re-run a record (its ``C4GameStarted`` then every ``ChoiceMade``/``DieRolled``)."""
    if not events or not isinstance(events[0], C4GameStarted):
        raise ValueError("a C4 record begins with C4GameStarted")
    state, _ = start(events[0].state)
    for event in events[1:]:
        if isinstance(event, ChoiceMade):
            state, _ = step(state, event.choice)
        elif isinstance(event, DieRolled):
            state, _ = step(state, DieFace(event.face))
    return state
