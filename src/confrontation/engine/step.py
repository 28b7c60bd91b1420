"""The one door: ``legal(state)`` and ``step(state, choice) -> (state, events)``.

Every player decision and every die passes through :func:`step`. A die is a *chance step*:
the pending question belongs to no player, :func:`outcomes` gives its exact distribution
and :func:`roll` resolves it with a :class:`~confrontation.dice.Roller`. :func:`run` plays
a game with agents (``choose(state, question, legal) -> Choice``) until it ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from confrontation.dice import FACES, Roller, SeededRoller
from confrontation.engine import neutral
from confrontation.engine.core import door
from confrontation.engine.core.door import Door
from confrontation.engine.core.ending import watched
from confrontation.engine.core.events import ChoiceMade, DieRolled, Event, GameStarted
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.hooks import react, reactions
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import Choice, DieFace, Question
from confrontation.engine.core.registry import EngineError, IllegalChoice, Transition
from confrontation.engine.core.ruleset import rules_of
from confrontation.engine.core.state import NEUTRAL, GameState, Phase
from confrontation.engine.core.views import redact

MAX_DRIVES = 10_000
"""A safety net: phase drivers that make no progress this many times in a row are a bug."""


class Agent(Protocol):
    """Anything that answers questions: a human front-end, a random or a search agent."""

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """Pick one of ``legal`` (the options of ``question``) in ``state``."""
        ...


def is_over(state: GameState) -> bool:
    """The game has ended."""
    return state.phase is Phase.OVER


def is_chance(state: GameState) -> bool:
    """The game waits for a die, not for a player."""
    return state.pending is not None and state.pending.player is None


def legal(state: GameState) -> list[Choice]:
    """The choices ``step`` accepts now (die faces at a chance step; none once over).

    Computed once per state (``state.scratch``): asking, checking and describing share it
    (the state names its rules, which never change, so the cache needs no key).
    """
    return list(choices(state))


def choices(state: GameState) -> Sequence[Choice]:
    """:func:`legal` as the handler lists it, kept per state: a
    :class:`~.core.deferred.LazyChoices` works its costly parts out only when they are read
    (the activation question's "charge or engage?", V-B-3)."""
    if state.pending is None:
        return []
    cached: Sequence[Choice] | None = state.scratch.get("legal")
    if cached is None:
        cached = state.scratch["legal"] = rules_of(state).handler(state.pending.kind).legal(state)
    return cached


def question(state: GameState) -> Question | None:
    """The pending question as a person sees it (None when nothing is pending)."""
    if state.pending is None:
        return None
    handler = rules_of(state).handler(state.pending.kind)
    return handler.describe(state, legal(state))


BRIEF_KINDS = frozenset(
    {
        QuestionKind.ACTIVATION,
        QuestionKind.DESTINATION,
        QuestionKind.DEPLOY,
        QuestionKind.FLOOR,
        QuestionKind.PLACE_CARD,
    }
)
"""The questions whose options are their legal choices in order, one for one (so an agent
that reads only the choices may be given them without the options: describing a deployment
measures every place's nearest enemy; the floor and card questions are the most often asked
after the activations, tests/engine/test_deferred.py)."""


def brief_question(state: GameState) -> tuple[Question, Sequence[Choice]] | None:
    """The pending question and its choices for an agent that judges the choices, not their
    wording (``judges_choices = True``): for the :data:`BRIEF_KINDS` the question without its
    options and the lazy :func:`choices` (describing every option would work them all out),
    else :func:`question` and its choices. None when nothing is pending."""
    pending = state.pending
    if pending is None:
        return None
    if pending.kind in BRIEF_KINDS and pending.player is not None:
        return Question(pending.kind, pending.player, "", ()), choices(state)
    asked = question(state)
    assert asked is not None
    return asked, asked.choices


def asks(agent: object) -> bool:
    """Does ``agent`` read the questions' options (a person's front-end), not only the
    legal choices? Agents that do not say ``judges_choices = True``."""
    return not getattr(agent, "judges_choices", False)


def refusal(state: GameState, choice: Choice) -> str | None:
    """Why :func:`step` would refuse ``choice`` now (None: it accepts it).

    Accepted are the choices ``legal`` lists and, for a question that declares free answers
    (:attr:`~.questions.Question.free`), any answer its handler's ``free`` check accepts."""
    pending = state.pending
    if pending is None:
        return "nothing is pending: start the game with start() or it is over"
    if choice in choices(state):
        return None
    handler = rules_of(state).handler(pending.kind)
    if handler.free is not None and pending.player is not None:
        return handler.free(state, choice)
    return f"{choice!r} is not a legal answer to {str(pending.kind)!r}"


def step(state: GameState, choice: Choice) -> Transition:
    """Apply one answer (or one die face) to the pending question and move the game on."""
    pending = state.pending
    if pending is None:
        raise EngineError("nothing is pending: start the game with start() or it is over")
    rules = rules_of(state)
    handler = rules.handler(pending.kind)
    if choice not in choices(state):
        refused = refusal(state, choice)
        if refused is not None:
            raise IllegalChoice(refused)
    events: list[Event]
    if pending.player is None:
        if not isinstance(choice, DieFace):
            raise IllegalChoice(f"a chance step takes a die face, not {choice!r}")
        subject = handler.subject(state) if handler.subject else None
        events = [DieRolled(pending.kind, subject, choice.face)]
        state = evolve(state, pending=None, dice_rolled=state.dice_rolled + 1)
    else:
        events = [ChoiceMade(pending.player, pending.kind, choice)]
        state = evolve(state, pending=None)
    state, applied = handler.apply(state, choice)
    reacts = reactions(rules)
    if reacts:  # e.g. a carrier killed drops his tokens at once (XX-D-3)
        state, reacted = react(state, applied, reacts)
        if reacted:
            applied = [*applied, *reacted]
    events.extend(applied)
    watches = rules.watches
    if watches:  # an immediate victory ends the game before anything else happens
        ended = watched(state, applied, watches)
        if ended is not None:
            return ended[0], events + ended[1]
    state, advanced = advance(state)
    events.extend(advanced)
    if watches and state.phase is not Phase.OVER:
        ended = watched(state, advanced, watches)
        if ended is not None:
            return ended[0], events + ended[1]
    return state, events


def advance(state: GameState) -> Transition:
    """Run the phase drivers until a question or a die is pending, or the game is over.

    A question of the neutral side (XX-E) is no stop: the rules answer it at once
    (:func:`.neutral.decide`)."""
    events: list[Event] = []
    drives = 0
    reacts = reactions(rules_of(state))
    while (state.pending is None or state.pending.player == NEUTRAL) and not is_over(state):
        if state.pending is not None:
            state, driven = neutral.decide(state)
        else:
            state, driven = rules_of(state).drivers[state.phase](state)
        events.extend(driven)
        for hook in reacts:  # e.g. a carrier killed drops his tokens at once (XX-D-3)
            state, reacted = hook(state, driven)
            events.extend(reacted)
        drives += 1
        if drives > MAX_DRIVES:
            raise EngineError(f"the {state.phase} phase makes no progress")
    return state, events


def start(state: GameState) -> Transition:
    """Begin a game from its initial state: the :class:`GameStarted` event, then play on."""
    if state.pending is not None:
        raise EngineError("this game has already started")
    events: list[Event] = [GameStarted(state)]
    state, advanced = advance(state)
    events.extend(advanced)
    return state, events


def outcomes(state: GameState) -> list[tuple[DieFace, Fraction]]:
    """The exact distribution of the pending die: each face of a d6, 1/6 each."""
    if not is_chance(state):
        raise EngineError("no die is pending")
    faces = [c for c in legal(state) if isinstance(c, DieFace)]
    return [(face, Fraction(1, len(FACES))) for face in faces]


def roll(state: GameState, roller: Roller) -> Transition:
    """Resolve the pending die with one face from ``roller``."""
    if not is_chance(state):
        raise EngineError("no die is pending")
    return step(state, DieFace(roller.d6()))


def game_roller(state: GameState) -> SeededRoller:
    """The game's own die stream, resumed where the state left it."""
    return SeededRoller.at(state.seed, state.dice_rolled)


def ask(state: GameState, agent: object) -> tuple[Question, Sequence[Choice]]:
    """The pending question and its choices as ``agent`` reads them: in full for one that
    :func:`asks`, else :func:`brief_question`'s."""
    asked = question(state) if asks(agent) else None
    brief = (asked, asked.choices) if asked is not None else brief_question(state)
    if brief is None:
        raise EngineError("nothing is pending: start the game with start() or it is over")
    return brief


DOOR: Door[GameState] = Door(is_over, door.pending_of, start, ask, redact, step, roll, game_roller)
"""Confédé's door, for the shared loop (:mod:`.core.door`)."""


def run(
    state: GameState,
    agents: Mapping[int, Agent] | Sequence[Agent],
    roller: Roller | None = None,
    max_steps: int | None = None,
) -> Transition:
    """Play on until the game ends (or ``max_steps`` answers and dice): agents answer.

    Each agent sees the state as its player knows it (:func:`~.views.redact`). Without a
    ``roller`` the game's seeded stream is used (:func:`.core.door.run`).
    """
    return door.run(DOOR, state, agents, roller, max_steps)
