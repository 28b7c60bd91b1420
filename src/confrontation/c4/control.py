"""The control phase (``# C4 Playing a game``: "The players assess the consequences of the
preceding phases … The round ends with this phase") and the end of the game.

The document defines no more of it than that (mana and faith belong to the missing mystic
chapters; objectives to the battle). The default battle (ruling, ``docs/rulings.md`` 002):
``rounds`` rounds (6 by default), or until a player has no fighter left; each player scores
the fighters he still has on the battlefield; the higher score wins, equal scores draw.
For the integrator: :func:`drive` is the phase's driver; :func:`scores` the default score
(replace it with a battle's objectives).

Sections (docs/rules-index.toml): C4-PLAYING-A-GAME.
"""

from __future__ import annotations

from confrontation.c4 import tactical
from confrontation.c4.events import C4GameEnded
from confrontation.c4.handlers import Transition
from confrontation.c4.state import C4State, Phase
from confrontation.engine.core.frozen import evolve


def scores(state: C4State) -> tuple[int, ...]:
    """Each player's fighters still on the battlefield."""
    owner = {u.id: u.owner for u in state.units}
    counts = [0] * state.players
    for f in state.fighters:
        counts[owner[f.unit]] += 1
    return tuple(counts)


def drive(state: C4State) -> Transition:
    """End the round: the next round's tactical phase, or the end of the game."""
    score = scores(state)
    wiped = any(s == 0 for s in score)
    if state.round >= state.rounds or wiped:
        best = max(score)
        top = [p for p, s in enumerate(score) if s == best]
        winner = top[0] if len(top) == 1 else None
        reason = "a company has no fighter left" if wiped else f"{state.rounds} rounds played"
        state = evolve(state, phase=Phase.OVER, pending=None)
        return state, [C4GameEnded(reason, score, winner)]
    return tactical.begin_round(evolve(state, round=state.round + 1))
