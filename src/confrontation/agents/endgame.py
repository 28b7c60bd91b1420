"""The last rounds of a control scenario: where the search stands its fighters.

Conquest is won on the areas held when the last round ends (III-A-2): a fighter leaving his
own deployment area, or one power short in the centre, turns a win into a draw. In the last
rounds the search agent (:mod:`confrontation.agents.mcts`) imagines its movement decisions
to the end of the game and judges them by the result; this module says when that applies and
which answers are worth imagining.
"""

from __future__ import annotations

from collections.abc import Sequence

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from confrontation.agents.assess import shot_value
from confrontation.agents.greedy import area_shape, position_value
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    ChooseFirst,
    ChoosePlace,
    EndActivation,
    FighterDone,
    Place,
    PlaceCard,
    PlayReserve,
    PlayReserveAndTop,
    PlayTop,
    PutInReserve,
    Question,
    Redirect,
    Refuse,
    Shoot,
    Walk,
)
from confrontation.engine.core.state import GameState, Phase
from confrontation.scenarios.control import scenario_of

MOVES = frozenset({QuestionKind.FLOOR, QuestionKind.ACTIVATION, QuestionKind.DESTINATION})
"""The questions searched in the last round: which card to play (IV-B-1), announcements,
cumulative actions (walk, shoot, wait) and where a move ends (IV-B-2, V-B)."""


def last_round(state: GameState, rounds: int = 1) -> bool:
    """The last round (of the last ``rounds``) of a scenario won on the areas held at its
    end (III-A-2), never the first of a game of several rounds: there the armies stand in
    their deployment areas and every imagined game would be a whole game (a game shortened
    to two rounds took four minutes with the first searched, one without)."""
    scenario = scenario_of(state)
    first = 1 if state.rounds > 1 else 0
    return (
        scenario is not None
        and scenario.goal == "control"
        and state.battleground is not None
        and state.round > max(state.rounds - rounds, first)
    )


def searched(state: GameState, question: Question, rounds: int = 1, cards: bool = False) -> bool:
    """A movement decision (:data:`MOVES`) of the activation phase of the last ``rounds``
    rounds, or who speaks first in them (IV-B-1: the last to move sees where the enemy
    stands; with three players or more the place taken in the speaking order, XX-F-3); with
    ``cards``, also the order of the activation sequence (IV-A-1: which card goes next)."""
    if not last_round(state, rounds):
        return False
    if cards and question.kind == QuestionKind.PLACE_CARD and state.phase is Phase.STRATEGIC:
        return True
    return question.kind in (QuestionKind.CHOOSE_FIRST, QuestionKind.CHOOSE_PLACE) or (
        question.kind in MOVES and state.phase is Phase.ACTIVATION
    )


def candidates(
    state: GameState,
    legal: Sequence[Choice],
    greedy: Choice,
    width: int,
    assaults: Sequence[Choice] = (),
) -> list[Choice]:
    """The answers worth imagining in the last round, the greedy answer first, ``width`` at
    most: for a move's end, the best place (by the greedy judgement) wholly inside each area
    scored, the shortest move and staying put; for an announcement, announcing nothing more,
    each fighter's run and the ``assaults`` given; for a cumulative action, each fighter's
    walk, the best shot and being done (keeping his place); at the floor, for who speaks
    first (or the place in the speaking order) and for the next card of the sequence, every
    answer."""
    options: list[Choice] = [greedy]

    def add(choice: Choice | None) -> None:
        if choice is not None and choice in legal and choice not in options:
            options.append(choice)

    places = [c for c in legal if isinstance(c, Place)]
    if places:
        add(Redirect())
        mover = _mover(state)
        if mover is not None:
            fighter = state.fighter(mover)
            for shape in _areas(state):
                inside = [p for p in places if shape.contains(Point(p.x, p.y))]
                if inside:
                    add(max(inside, key=lambda p: position_value(state, fighter, p.x, p.y)))
            add(min(places, key=lambda p: (p.x - fighter.x) ** 2 + (p.y - fighter.y) ** 2))
    else:
        add(AnnouncementsDone())
        add(EndActivation())
        for c in legal:
            walk = isinstance(c, Walk) and c.method is None
            run = isinstance(c, Announce) and c.action == "run" and c.method is None
            if walk or run or isinstance(c, FighterDone):
                add(c)
        shots = [c for c in legal if isinstance(c, Shoot)]
        if shots:
            add(max(shots, key=lambda c: shot_value(state, c.fighter, c.target, unmoving=c.still)))
        for c in assaults:
            add(c)
        # the floor, who speaks first (IV-B-1, XX-F-3), the next card (IV-A-1)
        for c in legal:
            if isinstance(
                c,
                PlayTop
                | PutInReserve
                | PlayReserve
                | PlayReserveAndTop
                | Refuse
                | ChooseFirst
                | ChoosePlace
                | PlaceCard,
            ):
                add(c)
    return options[:width]


def _mover(state: GameState) -> str | None:
    current = state.activation.current if state.activation is not None else None
    if current is None or current.action is None:
        return None
    return current.action.fighter


def _areas(state: GameState) -> list[BaseGeometry]:
    """Every scored area, shrunk so that a base centred inside lies wholly in it."""
    scenario = scenario_of(state)
    if scenario is None:
        return []
    return [area_shape(state, area) for area in scenario.areas]
