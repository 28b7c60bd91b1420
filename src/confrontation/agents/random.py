"""The random agent: a uniformly random legal choice, drawn with the project's d6 rollers."""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.dice import Roller, SeededRoller
from confrontation.engine.core.questions import Choice, Question
from confrontation.engine.core.state import GameState


def uniform_index(roller: Roller, n: int) -> int:
    """A uniform integer in ``[0, n)`` from d6 faces (base-6 digits, rejection sampling)."""
    if n < 1:
        raise ValueError("nothing to choose from")
    if n == 1:
        return 0
    digits, span = 1, 6
    while span < n:
        digits, span = digits + 1, span * 6
    limit = span - span % n  # accept only values that map evenly onto 0..n-1
    while True:
        value = 0
        for _ in range(digits):
            value = value * 6 + roller.d6() - 1
        if value < limit:
            return value % n


class RandomAgent:
    """Answers every question with a uniformly random legal choice."""

    judges_choices = True
    """It reads the legal choices, never the options' wording (``engine.step.asks``)."""

    def __init__(self, seed: int = 0, roller: Roller | None = None) -> None:
        self.roller = roller if roller is not None else SeededRoller(seed)

    def choose(self, state: GameState, question: Question, legal: Sequence[Choice]) -> Choice:
        """Any of ``legal``, each with the same chance."""
        return legal[uniform_index(self.roller, len(legal))]
