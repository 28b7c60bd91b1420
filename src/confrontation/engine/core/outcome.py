"""How a game ended, as a value: python-chess's ``Termination`` and ``Outcome`` are the model.

:class:`Termination` says why a game is over; :class:`Outcome` is the termination with the
winner (None: a draw, or no scenario decided one) and the victory points. The record keeps the
end as ``GameEnded(reason, scores, winner)``, whose ``reason`` text is the termination's value,
alone or followed by ``": "`` and a detail (``"Execution: Player 1 has killed his target"``):
:meth:`Termination.parse` reads it back, so records stay as they were and every end is typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple

__all__ = ["Ending", "Outcome", "Termination", "leaders", "sole_leader"]


def leaders(scores: Sequence[int]) -> tuple[int, ...]:
    """The players (0-based) with the best score: all of them when nobody scored more."""
    best = max(scores, default=0)
    return tuple(p for p, score in enumerate(scores) if score == best)


def sole_leader(scores: Sequence[int]) -> int | None:
    """The one player with the best score; None, a draw, when several share it (XX-F: with
    three players or more too, docs/rulings.md)."""
    best = leaders(scores)
    return best[0] if len(best) == 1 else None


class Termination(StrEnum):
    """Why a game is over (the values head the recorded ``reason`` text)."""

    ROUNDS_PLAYED = "all rounds played"
    """III-A-2: the scenario's last round is over; the scenario's scoring decides."""
    EXECUTION = "Execution"
    """III-A-2 Execution: a player's target is killed, "declared the winner immediately"."""
    SCENARIO_VICTORY = "scenario victory"
    """CP-SCENARIO-VICTORY (003): a player reaches the scenario's control points."""
    WIPED_OUT = "army wiped out"
    """XX-A-4 (docs/rulings.md): every fighter of an army is dead (with three players or more,
    of every army but one at most): the game ends at once, scored as after the last round."""
    ASSASSINATION = "assassination"
    """CP-ASSASSINATION-VICTORY (003): only one player still has his Commander in play (none:
    all fell at once, the tiebreakers decide)."""

    def reason(self, detail: str = "") -> str:
        """The recorded text: the value, with ``": "`` and the detail if there is one."""
        return f"{self.value}: {detail}" if detail else self.value

    @classmethod
    def parse(cls, reason: str) -> tuple[Termination, str]:
        """The termination and the detail of a recorded ``reason`` text (a ``ValueError`` if
        it names no termination)."""
        for termination in cls:
            if reason == termination.value:
                return termination, ""
            if reason.startswith(f"{termination.value}: "):
                return termination, reason[len(termination.value) + 2 :]
        raise ValueError(f"{reason!r} names no way a game ends ({', '.join(cls)})")


class Ending(NamedTuple):
    """What ends a game at once (a scenario's watch): why, who won, and a detail."""

    termination: Termination
    winner: int | None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: why it ended, the winner (0-based; None: a draw or no winner) and
    each player's victory points."""

    termination: Termination
    winner: int | None
    scores: tuple[int, ...]
    detail: str = ""

    @property
    def reason(self) -> str:
        """The text the record keeps (``GameEnded.reason``)."""
        return self.termination.reason(self.detail)

    def points(self) -> tuple[Fraction, ...]:
        """Each player's share of the game: 1 to the winner, 0 to the others; a draw shares
        the point equally between the players with the best score (all of them with two
        players: a draw of two players is a tie)."""
        players = range(len(self.scores))
        if self.winner is None:
            shared = leaders(self.scores)
            return tuple(Fraction(int(p in shared), len(shared)) for p in players)
        return tuple(Fraction(int(p == self.winner)) for p in players)

    def result(self) -> str:
        """The result as in chess: ``1-0``, ``0-1``, ``1/2-1/2`` (one figure per player:
        ``1/2-0-1/2`` when Players 1 and 3 share the best score of three)."""
        return "-".join(str(share) for share in self.points())
