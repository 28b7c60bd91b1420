"""The shapes the C4 flow shares: a question :class:`Handler`, ``Transition``, ``ask``, and
the random draw of a card from a shuffled deck with d6 chance steps.

A shuffled deck is drawn from at random when a card is drawn (``docs/rulings.md``, 002): a
uniform pick among ``k`` cards needs ``m`` dice with 6**m ≥ k; the faces read as base-6 digits
give v in [0, 6**m); v below the largest multiple of k is accepted (card ``v // (6**m // k)``
of the sorted pool: with 2 cards, faces 1-3 the first, 4-6 the second), any other v rolls the
``m`` dice again. Every card has the same chance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from confrontation.c4.state import C4State, Pending
from confrontation.dice import FACES
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Choice, DieFace, Option, Question

Transition = tuple[C4State, list[Event]]
"""A new state and the events that led to it."""


@dataclass(frozen=True)
class Handler:
    """One kind of question: its legal choices, how a choice applies (the pending question is
    already cleared), how it reads, and for a die whose it is (``subject``)."""

    kind: str
    legal: Callable[[C4State], list[Choice]]
    apply: Callable[[C4State, Choice], Transition]
    describe: Callable[[C4State, Sequence[Choice]], Question]
    subject: Callable[[C4State], int | None] | None = None
    free: Callable[[C4State, Choice], str | None] | None = None
    """Judges an answer ``legal`` does not list (None: accepted; else why not): a walk's or
    run's destination anywhere, where ``legal`` lists a finite menu for agents."""


def ask(state: C4State, kind: str, player: int | None) -> C4State:
    """The state waiting for ``player`` (None: a die) to answer a ``kind`` question."""
    return evolve(state, pending=Pending(kind, player))


def dice_needed(k: int) -> int:
    """How many d6 a uniform pick among ``k`` cards rolls at a time (0 for one card)."""
    if k < 1:
        raise ValueError("nothing to draw from")
    m = 0
    while 6**m < k:
        m += 1
    return m


def pick(k: int, digits: Sequence[int]) -> int | None:
    """The index picked among ``k`` by these d6 faces (exactly ``dice_needed(k)`` of them),
    or None: the faces are rejected and rolled again."""
    m = dice_needed(k)
    if len(digits) != m:
        raise ValueError(f"a pick among {k} reads {m} dice, not {len(digits)}")
    v = 0
    for face in digits:
        v = v * 6 + (face - 1)
    limit = k * (6**m // k)
    return v // (6**m // k) if v < limit else None


def die_legal(state: C4State) -> list[Choice]:
    """A chance step's answers: the six faces."""
    return [DieFace(f) for f in FACES]


def die_describe(prompt: str) -> Callable[[C4State, Sequence[Choice]], Question]:
    """A chance step's question: the faces, 1/6 each."""

    def describe(state: C4State, choices: Sequence[Choice]) -> Question:
        assert state.pending is not None
        options = tuple(
            Option(c, str(c.face), probability=Fraction(1, len(FACES)))
            for c in choices
            if isinstance(c, DieFace)
        )
        return Question(state.pending.kind, None, prompt, options)

    return describe
