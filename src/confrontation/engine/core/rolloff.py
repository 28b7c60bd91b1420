"""Who decides first whether to raise in an opposed test, and the roll-off (II-A-3).

One rule for every opposed roll of the game — the Tactics roll (IV-A-2, also before the
deployment), the Discipline test that separates a melee (VII-A), the Authority roll (VII-B),
the initiative (VII-C-2), with three sides or more too (XX-F-5) — CLARIFICATIONS §9:

- a final result ≤ 0 is an automatic failure: a side that fails loses to a side that does
  not, two failures are a tie, rolled again (:func:`confrontation.dice.rank_opposed`);
- of the sides showing a 6, the one with the lower result decides first whether to raise;
  when their results are equal, "each side rolls a d6, again until the faces differ, and the
  lower face decides first". Those dice are chance steps of the game (``rolloff_die``), rolled
  through ``step`` like any other die, so a record replays them; :class:`~.events.RolledOff`
  tells the outcome.

The phases call :func:`confrontation.dice.next_decider` (pure: who decides now, or the
roll-off due); the ``rolloff_die`` handler here finds the roll-off under way in the Tactics
roll (``state.strategic``) or in the combat phase's contest.
"""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.dice import FACES, RollOff
from confrontation.engine.core.events import Event, RolledOff
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import Choice, DieFace, Option, Question
from confrontation.engine.core.registry import EngineError, Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import GameState, Phase, player_name

# --- the chance step ---------------------------------------------------------------------------


def _holder(state: GameState) -> tuple[str, RollOff]:
    """Where the roll-off under way lives: ("tactics", …) or (the combat contest's purpose, …)."""
    strategic = state.strategic
    if state.phase is Phase.STRATEGIC and strategic is not None and strategic.rolloff is not None:
        return "tactics", strategic.rolloff
    combat = state.combat
    if combat is not None and combat.contest is not None and combat.contest.rolloff is not None:
        return combat.contest.purpose, combat.contest.rolloff
    raise EngineError("no roll-off is under way")


def _store(state: GameState, rolloff: RollOff) -> GameState:
    if state.phase is Phase.STRATEGIC and state.strategic is not None:
        return evolve(state, strategic=evolve(state.strategic, rolloff=rolloff))
    assert state.combat is not None and state.combat.contest is not None
    contest = evolve(state.combat.contest, rolloff=rolloff)
    return evolve(state, combat=evolve(state.combat, contest=contest))


def _roller(state: GameState) -> int | None:
    return _holder(state)[1].due


def _legal(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    purpose, rolloff = _holder(state)
    rolloff = rolloff.add(choice.face)
    events: list[Event] = []
    if rolloff.due is None:
        first = rolloff.order[0]
        events.append(RolledOff(purpose, rolloff.sides, rolloff.finals, rolloff.faces, first))
    return _store(state, rolloff), events


def _describe(state: GameState, choices: Sequence[Choice]) -> Question:
    _, rolloff = _holder(state)
    side = rolloff.due
    assert side is not None
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    others = ", ".join(player_name(s) for s in rolloff.sides if s != side)
    prompt = (
        f"{player_name(side)} rolls the roll-off against {others}: the lower face decides "
        "first whether to raise (II-A-3)"
    )
    return Question(QuestionKind.ROLLOFF_DIE, None, prompt, options)


def contribute(rules: RulesBuilder) -> None:
    """The roll-off die (II-A-3)."""
    rules.handler(Handler(QuestionKind.ROLLOFF_DIE, _legal, _apply, _describe, subject=_roller))
