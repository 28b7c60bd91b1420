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

Two questions of the phase (:data:`HANDLERS`): Incursion's flag removed at random
(``Kind.FLAG_DIE``, a die for player None at the end of round ``Battle.remove_flag_after``,
before any scoring; CP-INCURSION-SPECIAL-RULES) and the element a Commander who could dominate
several dominates (``Kind.DOMINATE``, asked of his player before the scoring; CP-DOMINATE).

For the integrator: :func:`drive` is the phase's driver; :func:`scores` the default score;
:data:`HANDLERS` its questions (registered with the activation phase's).

Sections (docs/rules-index.toml): C4-PLAYING-A-GAME.
"""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.c4 import battle as scenario
from confrontation.c4 import tactical
from confrontation.c4.choices import DominateZone
from confrontation.c4.events import C4GameEnded
from confrontation.c4.handlers import (
    Handler,
    Transition,
    ask,
    dice_needed,
    die_describe,
    die_legal,
    pick,
)
from confrontation.c4.state import C4State, Kind, Phase
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Choice, DieFace, Option, Question


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
    if scenario.removing_flag(state):  # CP-INCURSION-SPECIAL-RULES: a flag removed at random
        flags = [z for z in state.battle.zones if z.kind == "flag"]
        if dice_needed(len(flags)) == 0:
            gone, removed = scenario.remove_flag(state, 0)
            gone, after = _battle_drive(gone)
            return gone, [*removed, *after]
        return ask(state, Kind.FLAG_DIE, None), []
    left = scores(state)
    wiped = any(s == 0 for s in left)
    last = state.round >= state.rounds or wiped
    events: list[Event] = []
    killed = scenario.assassinated(state)
    scoring = state.battle.scoring
    scored = killed or scenario.scoring_now(state, last) or (last and scoring == "end")
    chooser = scenario.must_choose(state) if scored and scoring != "conditions" else None
    if chooser is not None:  # CP-DOMINATE: his Commander dominates one element; which?
        return ask(state, Kind.DOMINATE, chooser), []
    if scoring == "conditions":
        state, events = scenario.score_conditions(state, last)
    elif scored:
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


# --- the phase's questions ----------------------------------------------------------------------


def _flag_count(state: C4State) -> int:
    assert state.battle is not None
    return sum(1 for z in state.battle.zones if z.kind == "flag")


def _flag_apply(state: C4State, choice: Choice) -> Transition:
    """CP-INCURSION-SPECIAL-RULES: the die picks one flag, each as likely (``handlers.pick``;
    a face beyond a fair draw is rolled again — the driver asks anew)."""
    assert isinstance(choice, DieFace)
    index = pick(_flag_count(state), [choice.face])
    if index is None:
        return ask(state, Kind.FLAG_DIE, None), []
    return scenario.remove_flag(state, index)


def _dominate_legal(state: C4State) -> list[Choice]:
    assert state.pending is not None and state.pending.player is not None
    return [DominateZone(z.name) for z in scenario.could_dominate(state, state.pending.player)]


def _dominate_apply(state: C4State, choice: Choice) -> Transition:
    assert isinstance(choice, DominateZone)
    battle = state.battle
    player = scenario.must_choose(state)
    assert battle is not None and player is not None
    named = (*battle.dominating, (player, choice.zone))
    return evolve(state, battle=evolve(battle, dominating=named)), []


def _dominate_describe(state: C4State, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None and state.pending.player is not None
    player = state.pending.player
    battle = state.battle
    assert battle is not None
    options = []
    for c in choices:
        assert isinstance(c, DominateZone)
        zone = next(z for z in battle.zones if z.name == c.zone)
        points = zone.dominate[player] if player < len(zone.dominate) else 0
        options.append(Option(c, f"{c.zone} ({points} points)"))
    prompt = (
        f"Player {player + 1}: your Commander can dominate only one element at this scoring "
        "(CP-DOMINATE); which?"
    )
    return Question(Kind.DOMINATE, player, prompt, tuple(options))


HANDLERS: dict[str, Handler] = {
    Kind.FLAG_DIE: Handler(
        Kind.FLAG_DIE,
        die_legal,
        _flag_apply,
        die_describe("Incursion: a die removes one flag at random (CP-INCURSION)"),
    ),
    Kind.DOMINATE: Handler(Kind.DOMINATE, _dominate_legal, _dominate_apply, _dominate_describe),
}
"""The control phase's questions (``c4.step`` reads them with the activation phase's)."""
