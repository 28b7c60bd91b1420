"""What the fighter actions of chapters V and VI share: the action under way, characteristic
tests and wound rolls as chance steps, and wounds applied to the state.

An action (walk, run, charge, shoot…) lives in ``state.activation.current.action`` as an
:class:`~.state.ActionInProgress` while it asks questions and rolls dice. Its module
contributes a *resume* function for its kind to the ruleset (``rules.resume``): after each die or
answer that belongs to the shared machinery here (a test, a wound roll), the action's resume
function decides what comes next, and calls :func:`finish` when the action is over.

- A **test** (II-A): :func:`start_test` puts a :class:`~.state.TestInProgress` on the
  action; every die is a ``test_die`` chance step; a 6 asks its player ``test_raise``
  (CLARIFICATIONS §2: a raise is a decision); the :class:`~.events.TestRolled` event closes it.
- A **wound roll** (II-B-1): :func:`start_wound` asks two ``wound_die`` chance steps;
  :func:`apply_wound_roll` reads them (unmoving shot: one row down, VI-B-2) and wounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from confrontation.dice import FACES
from confrontation.engine.core.events import Event, FighterKilled, TestRaised, TestRolled, Wounded
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.hooks import move_ended
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.questions import Choice, DieFace, KeepResult, Option, Question, Raise
from confrontation.engine.core.registry import EngineError, Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import (
    KILLED_LEVELS,
    ActionInProgress,
    Activation,
    ActivationStage,
    GameState,
    Pending,
    TestInProgress,
    player_name,
)
from confrontation.engine.table.field import field_of, has_field
from confrontation.rules.wounds import WoundResult, read_wound

# --- the activation and its action -----------------------------------------------------------


def activation_of(state: GameState) -> Activation:
    """The activation under way."""
    if state.activation is None or state.activation.current is None:
        raise EngineError("no activation is under way")
    return state.activation.current


def with_activation(state: GameState, current: Activation) -> GameState:
    assert state.activation is not None
    return evolve(state, activation=evolve(state.activation, current=current))


def action_of(state: GameState) -> ActionInProgress:
    action = activation_of(state).action
    if action is None:
        raise EngineError("no fighter action is under way")
    return action


def with_action(state: GameState, action: ActionInProgress | None) -> GameState:
    return with_activation(state, evolve(activation_of(state), action=action))


def update(state: GameState, **changes: object) -> GameState:
    """The state with the action under way changed."""
    return with_action(state, evolve(action_of(state), **changes))


def ask(state: GameState, kind: str, player: int | None) -> GameState:
    """Set the next question (``player`` None: a die)."""
    return evolve(state, pending=Pending(kind, player))


def resume(state: GameState) -> Transition:
    """Hand the action under way back to its module."""
    return rules_of(state).resumes[action_of(state).kind](state)


def mark_moved(state: GameState, fighter: str) -> GameState:
    current = activation_of(state)
    if fighter in current.moved:
        return state
    return with_activation(state, evolve(current, moved=(*current.moved, fighter)))


MOVES = frozenset({"walk", "run", "cover", "charge", "engage"})
"""The actions that move the fighter (V-B): the end of one is the end of a move."""


def finish(state: GameState) -> Transition:
    """The action under way is over: hidden scouts it brought into contact are spotted
    (XX-E-2), then the next exclusive action, or back to the question of the activation
    (IV-B-2).

    A movement action after which the fighter stands elsewhere first runs the ``move-end``
    hooks (``engine.core.hooks``: XX-D-1, picking up a token). When one asks a question,
    the action waits for the answer; its handler calls :func:`finish` again."""
    action = action_of(state)
    events: list[Event] = []
    if action.kind in MOVES and action.fighter in activation_of(state).moved:
        state, events = move_ended(state, action.fighter, action.kind)
        if state.pending is not None:
            return state, events
    state = with_action(state, None)
    state, spotted = reveal_spotted(state)
    current = activation_of(state)
    if current.stage in (ActivationStage.SHOTS, ActivationStage.MOVES):
        state, more = rules_of(state).resumes["next_exclusive"](state)
        return state, [*events, *spotted, *more]
    return state, [*events, *spotted]


# --- hidden scouts (XX-E-2) --------------------------------------------------------------------


@dataclass(frozen=True)
class ScoutRevealed(Event):
    """XX-E-2: the hidden scout ``fighter`` is spotted by ``by`` and revealed to every side
    opposed to him (``to``: players, and the neutral side when neutral fighters play)."""

    kind = "scout_revealed"
    fighter: str
    by: str
    to: tuple[int, ...]


def reveal(state: GameState, scout: str, by: str) -> Transition:
    """XX-E-2: "lorsqu'un Éclaireur est repéré par un combattant Neutre, sa présence est
    révélée à tous ses adversaires, quel que soit leur camp. De même, lorsqu'un Éclaireur est
    repéré par un adversaire contrôlé par un autre joueur, sa présence est révélée à tous les
    éventuels combattants Neutres." Whoever spots him — a neutral fighter or another player's —
    he is no longer hidden from any side (the state keeps one ``hidden`` flag for all his
    adversaries: docs/rulings.md "XX-E-2"). The function a Scout plug-in calls too."""
    fighter = state.fighter(scout)
    if not fighter.hidden:
        return state, []
    sides = sorted({f.player for f in state.fighters if f.player != fighter.player and f.alive})
    state = state.with_fighters(evolve(fighter, hidden=False))
    return state, [ScoutRevealed(scout, by, tuple(sides))]


def reveal_spotted(state: GameState) -> Transition:
    """XX-E-2 (docs/rulings.md): a hidden fighter in base contact with an enemy — of another
    player or neutral — is spotted by him (the nearest id first) and revealed."""
    if not any(f.hidden and f.in_play for f in state.fighters) or not has_field(state):
        return state, []
    here = field_of(state)
    events: list[Event] = []
    for fighter in state.fighters:
        if not (fighter.hidden and fighter.in_play):
            continue
        spotters = here.enemies_in_contact(fighter.id)
        if spotters:
            state, told = reveal(state, fighter.id, min(spotters))
            events += told
    return state, events


# --- tests (II-A) ------------------------------------------------------------------------------


def start_test(
    state: GameState, purpose: str, player: int, value: int, difficulty: int
) -> GameState:
    """Roll a one-die test of ``value`` against ``difficulty`` for ``player``."""
    test = TestInProgress(purpose, player, value, difficulty)
    return ask(update(state, test=test), QuestionKind.TEST_DIE, None)


def _test(state: GameState) -> TestInProgress:
    test = action_of(state).test
    if test is None:
        raise EngineError("no test is on the table")
    return test


def _faces(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _test_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    test = _test(state)
    test = evolve(test, chain=(*test.chain, choice.face), awaiting=False)
    state = update(state, test=test)
    if test.may_raise:
        return ask(state, QuestionKind.TEST_RAISE, test.player), []
    return _test_over(state)


def _test_over(state: GameState) -> Transition:
    test = _test(state)
    action = action_of(state)
    event = TestRolled(
        action.fighter, test.purpose, test.chain, test.final, test.difficulty, test.success
    )
    state, events = resume(state)
    return state, [event, *events]


def _test_die_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    test = _test(state)
    action = action_of(state)
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    prompt = (
        f"{player_name(test.player)} rolls for {action.fighter}'s {test.purpose} test "
        f"(value {test.value}, difficulty {test.difficulty})"
    )
    return Question(QuestionKind.TEST_DIE, None, prompt, options)


def _raise_legal(state: GameState) -> list[Choice]:
    return [Raise(), KeepResult()]


def _raise_apply(state: GameState, choice: Choice) -> Transition:
    test = _test(state)
    if isinstance(choice, Raise):
        state = update(state, test=evolve(test, awaiting=True))
        return ask(state, QuestionKind.TEST_DIE, None), [TestRaised(test.player, test.purpose)]
    state = update(state, test=evolve(test, stopped=True))
    return _test_over(state)


def _raise_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    test = _test(state)
    verdict = "succeeds" if test.success else "fails"
    prompt = (
        f"{player_name(test.player)}: the {test.purpose} test shows a 6 (final {test.final}, "
        f"difficulty {test.difficulty}: it {verdict} as it stands). Raise?"
    )
    options = (
        Option(Raise(), "raise", "roll again and add the die; a 1 makes the natural result 1"),
        Option(KeepResult(), "keep", f"keep {test.final}"),
    )
    return Question(QuestionKind.TEST_RAISE, test.player, prompt, options)


# --- wound rolls (II-B) ------------------------------------------------------------------------


def start_wound(state: GameState) -> GameState:
    """Two ``wound_die`` chance steps."""
    return ask(update(state, wound=()), QuestionKind.WOUND_DIE, None)


def _wound_die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    action = action_of(state)
    state = update(state, wound=(*action.wound, choice.face))
    if len(action.wound) + 1 < 2:
        return ask(state, QuestionKind.WOUND_DIE, None), []
    return resume(state)


def _wound_die_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    action = action_of(state)
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    prompt = f"Wound roll on {action.victim}: die {len(action.wound) + 1} of 2 (II-B-1)"
    return Question(QuestionKind.WOUND_DIE, None, prompt, options)


def apply_wound_roll(
    state: GameState,
    victim: str,
    by: str,
    dice: tuple[int, ...],
    strength: int,
    resistance: int,
    unmoving: bool,
) -> Transition:
    """Read the wound dice (II-B-1, VI-B-2) and wound ``victim`` (II-B-3, II-B-5)."""
    roll = read_wound(dice, strength, resistance, unmoving=unmoving)
    fighter = state.fighter(victim)
    if roll.result is WoundResult.STUNNED:
        fighter = evolve(fighter, stunned=True)
    elif roll.result is not WoundResult.NONE:
        fighter = evolve(fighter, wounds=min(fighter.wounds + roll.result.levels, KILLED_LEVELS))
    events: list[Event] = [
        Wounded(victim, by, dice, roll.location.key, roll.result.key, fighter.wounds)
    ]
    if not fighter.alive:
        events.append(FighterKilled(victim, by))
    return state.with_fighters(fighter), events


def _subject(state: GameState) -> int | None:
    action = action_of(state)
    return state.fighter(action.fighter).player


def _tell(n: Narrator, event: Event) -> str | None:
    if isinstance(event, ScoutRevealed):
        sides = ", ".join(player_name(p) for p in event.to)
        return (
            f"{n.fighter(event.fighter)} is spotted by {n.fighter(event.by)}: the hidden scout "
            f"is revealed to {sides} (XX-E-2)."
        )
    return None


def contribute(rules: RulesBuilder) -> None:
    """Tests and wound rolls shared by the actions (II-A, II-B); hidden scouts (XX-E-2)."""
    rules.sentence(ScoutRevealed.kind, _tell)
    rules.handler(
        Handler(
            QuestionKind.TEST_DIE, _faces, _test_die_apply, _test_die_describe, subject=_subject
        )
    )
    rules.handler(Handler(QuestionKind.TEST_RAISE, _raise_legal, _raise_apply, _raise_describe))
    rules.handler(
        Handler(
            QuestionKind.WOUND_DIE, _faces, _wound_die_apply, _wound_die_describe, subject=_subject
        )
    )
