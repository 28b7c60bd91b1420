"""Counters on objectives (XX-B-2) through the rules value.

"Certains scénarios utilisent des compteurs pour gérer certains effets (comme les
incendies). Ce ne sont pas des marqueurs. Les compteurs ne peuvent pas être portés, bougés
ou bloqués : ils ne représentent pas des objets physiques.

Un combattant peut ajouter/soustraire des compteurs pendant la phase d'entretien sur un
objectif/élément de scénario s'il est en contact socle à socle avec ce dernier.

Un combattant peut ajouter/soustraire (suivant les instructions du scénario) autant de
compteurs que sa Puissance (voir I-E-10), soit 1 compteur pour les petites et moyennes
tailles, 2 pour les grandes tailles et 3 pour les très grandes tailles / « Énorme/X », ...

Les combattants invoqués ne peuvent ajouter/soustraire des compteurs que s'ils appartiennent
au même peuple que l'armée.

Les combattants en déroute ne peuvent pas ajouter/soustraire des compteurs." (XX-B-2; the
same in C3-COUNTERS)

In the maintenance phase (step "various_effects", IV-D-3 4) each fighter in base contact
with an objective that has counters adds or removes as many as his Power, as the objective
says for his player (``add``, ``remove`` of ``scenarios.objectives``). His player is asked
(a ``counters`` question) only when he has a choice: the objective's counters are
``optional``, both adding and removing are open to him, or he touches several such
objectives (his Power goes to one of them). Every fighter's counters are then put on
together: an objective's new count is its count plus what was added minus what was
removed, never below 0 (docs/rulings.md "XX-B-2").

The condition kind ``counters`` compares the counters on an objective, or on the player's
own or the other players' objectives, with a number or with the other players' counts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel
from shapely.geometry.base import BaseGeometry

from confrontation.engine.core.events import Event
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.questions import Choice, Option, Question
from confrontation.engine.core.registry import Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import NEUTRAL, Fighter, GameState, Pending
from confrontation.scenarios.base import BasicScenario
from confrontation.scenarios.conditions import BONUS, CONDITION, ConditionKind
from confrontation.scenarios.control import (
    in_contact_with,
    objective_shape,
    of_the_army,
    scenario_of,
)
from confrontation.scenarios.objectives import COUNTERS, CountersParams, Objective, Objectives

ADD, REMOVE, NONE = "add", "remove", "none"


@dataclass(frozen=True)
class CounterChoice(Choice):
    """XX-B-2: ``fighter`` adds (``action`` "add") or removes ("remove") his Power in
    counters on ``objective``, or does nothing ("none", objective "")."""

    kind = "counter_choice"
    fighter: str
    objective: str
    action: str


@dataclass(frozen=True)
class CountersMoved(Event):
    """XX-B-2: ``fighter`` adds (``change`` > 0) or removes (< 0) counters on ``objective``."""

    kind = "counters_moved"
    fighter: str
    objective: str
    change: int


@dataclass(frozen=True)
class CountersCounted(Event):
    """XX-B-2: the counters on ``objective`` after the maintenance phase (``before``: before)."""

    kind = "counters_counted"
    objective: str
    before: int
    after: int


# --- who may do what ---------------------------------------------------------------------------


def can_act(state: GameState, fighter: Fighter) -> bool:
    """XX-B-2: a player's fighter in play at level 0, not routed, and if summoned of the
    army's people (XX-B-3)."""
    return (
        fighter.in_play
        and fighter.player != NEUTRAL
        and fighter.altitude == 0
        and not fighter.routed
        and of_the_army(state, fighter)
    )


def touches(state: GameState, fighter: Fighter, objective: Objective) -> bool:
    """XX-B-2: "en contact socle à socle" with the objective (the contact of XX-C-2)."""
    shape = objective_shape(state, objective)
    return in_contact_with(state, fighter, shape, objective.shape == "circle")


def options(state: GameState, fighter: Fighter) -> list[CounterChoice]:
    """What ``fighter`` may do with counters this maintenance phase (empty: nothing); "none"
    is one of them when an objective he touches has ``optional`` counters."""
    scenario = scenario_of(state)
    if scenario is None or not can_act(state, fighter):
        return []
    out: list[CounterChoice] = []
    optional = False
    for objective in scenario.objectives.items:
        if not objective.has_counters or not touches(state, fighter, objective):
            continue
        for action in (ADD, REMOVE):
            if objective.may(action, fighter.player):
                out.append(CounterChoice(fighter.id, objective.name, action))
                optional = optional or objective.optional
    if optional:
        out.append(CounterChoice(fighter.id, "", NONE))
    return out


# --- the maintenance hook and its question --------------------------------------------------------


def _record(state: GameState) -> BasicScenario:
    scenario = scenario_of(state)
    assert scenario is not None
    return scenario


def _with(state: GameState, objectives: Objectives) -> GameState:
    record = dataclasses.replace(_record(state), objectives=objectives)
    return dataclasses.replace(state, scenario=record)


def place_counters(state: GameState) -> Transition:
    """Maintenance (IV-D-3 4, "various effects"): the fighters in contact with objectives add
    or remove their counters (XX-B-2)."""
    scenario = scenario_of(state)
    if scenario is None or not any(o.has_counters for o in scenario.objectives.items):
        return state, []
    state = _with(state, dataclasses.replace(scenario.objectives, deciding=()))
    return _next(state)


def _asking(state: GameState) -> Fighter | None:
    """The next fighter whose player has a choice to make and has not made it."""
    decided = {f for f, _, _ in _record(state).objectives.deciding}
    for fighter in state.fighters:
        if fighter.id not in decided and len(options(state, fighter)) > 1:
            return fighter
    return None


def _next(state: GameState) -> Transition:
    fighter = _asking(state)
    if fighter is not None:
        pending = Pending(QuestionKind.COUNTERS, fighter.player)
        return dataclasses.replace(state, pending=pending), []
    return _resolve(state)


def _resolve(state: GameState) -> Transition:
    """Every fighter's counters put on together, each objective never below 0."""
    objectives = _record(state).objectives
    chosen = {f: (o, a) for f, o, a in objectives.deciding}
    changes: dict[str, int] = {}
    events: list[Event] = []
    for fighter in state.fighters:
        possible = options(state, fighter)
        if not possible:
            continue
        if len(possible) == 1:
            objective, action = possible[0].objective, possible[0].action
        else:
            objective, action = chosen[fighter.id]
        if action == NONE:
            continue
        power = state.profile(fighter.profile).power
        change = power if action == ADD else -power
        changes[objective] = changes.get(objective, 0) + change
        events.append(CountersMoved(fighter.id, objective, change))
    counters = []
    for name, before in objectives.counters:
        after = max(before + changes.get(name, 0), 0)
        counters.append((name, after))
        if name in changes:
            events.append(CountersCounted(name, before, after))
    state = _with(state, dataclasses.replace(objectives, counters=tuple(counters), deciding=()))
    return state, events


def _legal(state: GameState) -> list[Choice]:
    fighter = _asking(state)
    assert fighter is not None
    return list(options(state, fighter))


def _apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, CounterChoice)
    objectives = _record(state).objectives
    deciding = (*objectives.deciding, (choice.fighter, choice.objective, choice.action))
    return _next(_with(state, dataclasses.replace(objectives, deciding=deciding)))


def _describe(state: GameState, choices: Sequence[Choice]) -> Question:
    fighter = _asking(state)
    assert fighter is not None
    profile = state.profile(fighter.profile)
    prompt = (
        f"XX-B-2: {profile.name} ({fighter.id}) is in contact with an objective: "
        f"what does he do with his {profile.power} counter(s)?"
    )
    objectives = _record(state).objectives
    out = []
    for c in choices:
        assert isinstance(c, CounterChoice)
        if c.action == NONE:
            out.append(Option(c, "nothing"))
        else:
            now = objectives.count(c.objective)
            out.append(Option(c, f"{c.action} on {c.objective}", f"{now} counter(s) now"))
    return Question(QuestionKind.COUNTERS, fighter.player, prompt, tuple(out))


# --- the condition kind ---------------------------------------------------------------------------


def selection(scenario: BasicScenario, params: CountersParams, player: int) -> tuple[str, ...]:
    """The objectives whose counters ``params`` sums for ``player``."""
    if params.objective is not None:
        return (params.objective,)
    out = []
    for objective in scenario.objectives.items:
        if not objective.has_counters:
            continue
        mine = objective.owner == player
        other = objective.owner is not None and not mine
        if params.of == "all" or (params.of == "own" and mine) or (params.of == "enemy" and other):
            out.append(objective.name)
    return tuple(out)


def counted(state: GameState, params: CountersParams, player: int) -> int:
    """The counters on the objectives ``params`` names for ``player``."""
    scenario = _record(state)
    return sum(scenario.objectives.count(n) for n in selection(scenario, params, player))


def _check(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, CountersParams)
    if scenario_of(state) is None:
        return False
    mine = counted(state, params, player)
    if params.at_least is not None:
        return mine >= params.at_least
    if params.at_most is not None:
        return mine <= params.at_most
    others = [counted(state, params, p) for p in state.players if p != player]
    if params.most:
        return all(mine > n for n in others)
    return all(mine < n for n in others)


def _aim(state: GameState, item: object, player: int, params: BaseModel) -> list[BaseGeometry]:
    """Where to stand (agents): the objectives of the condition on which the player's fighters
    add counters, or remove some that are there."""
    assert isinstance(params, CountersParams)
    scenario = scenario_of(state)
    if scenario is None or state.battleground is None:
        return []
    out = []
    for name in selection(scenario, params, player):
        objective = scenario.objectives.objective(name)
        removing = objective.may(REMOVE, player) and scenario.objectives.count(name) > 0
        if objective.may(ADD, player) or removing:
            out.append(objective_shape(state, objective))
    return out


KIND = ConditionKind(
    COUNTERS,
    "XX-B-2",
    _check,
    CountersParams,
    "the counters on `objective` (or on the objectives `of` the player: own, enemy, all): "
    "`at_least` N, `at_most` N, the `most` or the `fewest` of all players",
    aim=_aim,
)


# --- narration -------------------------------------------------------------------------------


def _tell_moved(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, CountersMoved)
    n = abs(event.change)
    verb, way = ("adds", "to") if event.change > 0 else ("removes", "from")
    return f"{narrator.fighter(event.fighter)} {verb} {n} counter(s) {way} {event.objective}."


def _tell_counted(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, CountersCounted)
    return f"{event.objective}: {event.after} counter(s) (before: {event.before})."


def contribute(rules: RulesBuilder) -> None:
    """XX-B-2: the maintenance hook, its question, the condition kind, the narration."""
    rules.extension(CONDITION, KIND.name, KIND)
    rules.extension(BONUS, KIND.name, KIND)
    rules.maintenance_hook("various_effects", place_counters)
    rules.handler(Handler(QuestionKind.COUNTERS, _legal, _apply, _describe))
    rules.sentence(CountersMoved.kind, _tell_moved)
    rules.sentence(CountersCounted.kind, _tell_counted)
