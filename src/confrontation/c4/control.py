"""The control phase (``# C4 Playing a game``: "The players assess the consequences of the
preceding phases … review of which objectives have been fulfilled. The round ends with this
phase") and the end of the game.

The default battle (ruling, ``docs/rulings.md`` 002): ``rounds`` rounds (6 by default), or
until a player has no fighter left; each player scores the fighters he still has on the
battlefield; the higher score wins, equal scores draw.

A scenario's battle (``state.battle``, :mod:`.battle`; docs/rulings.md "002 — scenarios in a
C4 game"): its zones are scored here — every control phase from its first scoring round
(control points, 003: ``win_at`` CP and more than the opponent win at once) or after the last
round (victory points, III-A-2); the game ends after the last round, or when a company has no
fighter left, and the higher VP/CP wins (the pack: its tiebreakers, ``battle.final_winner``);
the pack's assassination victory (``battle.assassinated``; the activation phase hands over to
this phase as soon as it happens) scores once more and ends the game; a chapter-20
``conditions`` battle scores its conditions (``battle.score_conditions``).

For the integrator: :func:`drive` is the phase's driver; :func:`scores` the default score.

Sections (docs/rules-index.toml): C4-PLAYING-A-GAME.
"""

from __future__ import annotations

from confrontation.c4 import battle as scenario
from confrontation.c4 import tactical
from confrontation.c4.events import C4GameEnded
from confrontation.c4.handlers import Transition
from confrontation.c4.state import C4State, Phase
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve


def scores(state: C4State) -> tuple[int, ...]:
    """Each player's fighters still on the battlefield."""
    owner = {u.id: u.owner for u in state.units}
    counts = [0] * state.players
    for f in state.fighters:
        counts[owner[f.unit]] += 1
    return tuple(counts)


def _battle_drive(state: C4State) -> Transition:
    """The control phase of a scenario: score, then the assassination or scenario victory, the
    end by points and tiebreakers, or the next round."""
    assert state.battle is not None
    left = scores(state)
    wiped = any(s == 0 for s in left)
    last = state.round >= state.rounds or wiped
    events: list[Event] = []
    killed = scenario.assassinated(state)
    scoring = state.battle.scoring
    if scoring == "conditions":
        state, events = scenario.score_conditions(state, last)
    elif killed or scenario.scoring_now(state, last) or (last and scoring == "end"):
        # CP-ASSASSINATION-VICTORY: "Conduct control point scoring upon an assassination"
        state, events = scenario.score(state)
    battle = state.battle
    assert battle is not None
    points = battle.points
    if killed:  # CP-ASSASSINATION-VICTORY: the scoring does not make a scenario victory
        alive = scenario.commanders_in_play(state)
        state = evolve(state, phase=Phase.OVER, pending=None)
        if sum(alive) == 1:
            sole = alive.index(1)
            reason = f"assassination: only Player {sole + 1} has a Commander in play"
            return state, [*events, C4GameEnded(reason, points, sole)]
        who, why = scenario.final_winner(state)
        reason = "assassination: every Commander has fallen" + why
        return state, [*events, C4GameEnded(reason, points, who)]
    victor = scenario.scenario_victor(battle)
    if victor is not None and scoring == "round":
        reason = f"Player {victor + 1} has {points[victor]} CP (003 scenario victory)"
        state = evolve(state, phase=Phase.OVER, pending=None)
        return state, [*events, C4GameEnded(reason, points, victor)]
    if last:
        winner, why = scenario.final_winner(state)
        reason = "a company has no fighter left" if wiped else f"{state.rounds} rounds played"
        state = evolve(state, phase=Phase.OVER, pending=None)
        return state, [*events, C4GameEnded(reason + why, points, winner)]
    state, more = tactical.begin_round(evolve(state, round=state.round + 1))
    return state, [*events, *more]


def drive(state: C4State) -> Transition:
    """End the round: the next round's tactical phase, or the end of the game."""
    if state.battle is not None:
        return _battle_drive(state)
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
