"""Occupation, control and capture of objectives (XX-C-2, XX-C-3, XX-C-4) through the rules.

- **Occupation** (XX-C-2): "Pour occuper un objectif, un camp doit remplir certaines
  conditions en termes d'effectif et de valeur dans le périmètre associé à cet objectif":
  a player occupies an objective when his fighters counted there (``scenarios.control``)
  reach its ``effectif`` and its ``value`` — at least one fighter, whatever the thresholds.
  "Si deux camps adverses remplissent les conditions d'occupation pour un même objectif, ils
  l'occupent tous les deux."
- **Control** (XX-C-3): "l'effectif et la valeur du camp dans la zone définie doivent être
  tous deux strictement supérieurs à ceux de l'adversaire": a player controls an objective
  he occupies when his effectif and his value there are both strictly greater than every
  other player's (docs/rulings.md "XX-C-3").
- **Capture** (XX-C-4): "La cible est associée à un certain périmètre de contrôle ... Au
  terme de la partie, le joueur qui contrôle ce périmètre capture la cible."
- **One zone per fighter** (XX-C-3): "Si un combattant se trouve à cheval sur plusieurs
  objectifs, le joueur qui le contrôle doit décider pour lequel il est comptabilisé." At
  the maintenance step "markers", before the victory conditions are checked, each fighter
  standing in several zones is given to one of them by his player (a ``count_for``
  question) — in the last round, and in every round of a scenario with ``round``
  conditions; the choice holds until the next maintenance phase.

The condition kinds ``occupy``, ``control-objective`` (parameter ``objective``) and
``capture`` (``target``, ``profile``, ``perimeter``) are registered in the rules value.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel
from shapely.geometry.base import BaseGeometry

from confrontation.engine.core.events import Event
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator, listed
from confrontation.engine.core.questions import Choice, Option, Question
from confrontation.engine.core.registry import EngineError, Handler, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import GameState, Pending, player_name
from confrontation.geometry.render import Mark
from confrontation.scenarios.base import BasicScenario
from confrontation.scenarios.conditions import BONUS, CONDITION, Bonus, Condition, ConditionKind
from confrontation.scenarios.control import (
    Control,
    capture_targets,
    capture_zone,
    controller,
    objective_shape,
    objective_zone,
    scenario_of,
    tally,
    zoned,
    zones,
    zones_of,
)
from confrontation.scenarios.objectives import (
    CAPTURE,
    CONTROL_OBJECTIVE,
    OCCUPY,
    CaptureParams,
    Objective,
    ObjectiveParams,
)

# --- occupation, control, capture --------------------------------------------------------------


def objective_key(objective: Objective) -> str:
    """The zone key of ``objective`` (``scenarios.control``)."""
    return f"objective:{objective.name}"


def occupiers(objective: Objective, held: Control) -> tuple[int, ...]:
    """XX-C-2: the players whose effectif and valeur reach the objective's thresholds (at
    least one fighter counted there)."""
    return tuple(
        p
        for p, (power, value) in enumerate(zip(held.powers, held.values, strict=True))
        if held.fighters[p] and power >= objective.effectif and value >= objective.value
    )


def holder(objective: Objective, held: Control) -> int | None:
    """XX-C-3: the player who controls the objective — he occupies it, and his effectif and
    valeur are both strictly greater than every other player's — or None."""
    best = controller(held.powers, held.values)
    return best if best is not None and best in occupiers(objective, held) else None


def occupies(state: GameState, objective: Objective, player: int) -> bool:
    """Does ``player`` occupy ``objective`` now (XX-C-2)?"""
    return player in occupiers(objective, tally(state, objective_key(objective)))


def controls(state: GameState, objective: Objective, player: int) -> bool:
    """Does ``player`` control ``objective`` now (XX-C-3)?"""
    return holder(objective, tally(state, objective_key(objective))) == player


def captures(state: GameState, params: CaptureParams, player: int) -> bool:
    """XX-C-4: ``player`` controls the perimeter of one of his capture targets still in play
    (his effectif and valeur there both strictly greater than every other player's)."""
    for target in capture_targets(state, player, params):
        if not state.fighter(target).in_play:
            continue
        held = tally(state, f"capture:{target}:{params.perimeter:g}")
        if controller(held.powers, held.values) == player:
            return True
    return False


def _objective(state: GameState, name: str) -> Objective:
    scenario = scenario_of(state)
    if scenario is None:
        raise EngineError("objectives need a scenario (XX-C)")
    try:
        return scenario.objectives.objective(name)
    except KeyError:
        raise EngineError(f"the scenario has no objective {name!r} (XX-C)") from None


def _occupy(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, ObjectiveParams)
    return occupies(state, _objective(state, params.objective), player)


def _control(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, ObjectiveParams)
    return controls(state, _objective(state, params.objective), player)


def _capture(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    assert isinstance(params, CaptureParams)
    return captures(state, params, player)


def _objective_aim(
    state: GameState, item: object, player: int, params: BaseModel
) -> list[BaseGeometry]:
    """Where to stand (agents): the objective's zone, or the objective itself in contact mode."""
    assert isinstance(params, ObjectiveParams)
    if state.battleground is None:
        return []
    return [objective_zone(state, _objective(state, params.objective)).shape]


def _capture_aim(
    state: GameState, item: object, player: int, params: BaseModel
) -> list[BaseGeometry]:
    """Where to stand (agents): round the capture targets still in play."""
    assert isinstance(params, CaptureParams)
    if state.battleground is None:
        return []
    return [
        capture_zone(state, target, params.perimeter).shape
        for target in capture_targets(state, player, params)
        if state.fighter(target).in_play
    ]


def _capture_spare(state: GameState, item: object, player: int, params: BaseModel) -> list[str]:
    """Whom to keep alive (agents): the capture targets (XX-C-4: a dead one is not captured)."""
    assert isinstance(params, CaptureParams)
    return list(capture_targets(state, player, params))


KINDS = (
    ConditionKind(
        OCCUPY,
        "XX-C-2",
        _occupy,
        ObjectiveParams,
        "occupies the objective `objective` (its effectif and value reached)",
        aim=_objective_aim,
    ),
    ConditionKind(
        CONTROL_OBJECTIVE,
        "XX-C-3",
        _control,
        ObjectiveParams,
        "controls the objective `objective` (occupies it, effectif and value both higher "
        "than every other player's)",
        aim=_objective_aim,
    ),
    ConditionKind(
        CAPTURE,
        "XX-C-4",
        _capture,
        CaptureParams,
        "controls the `perimeter` (cm) around a capture target: the enemy with the highest "
        "strategic value, or a fighter of `profile`",
        aim=_capture_aim,
        spare=_capture_spare,
    ),
)


# --- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ObjectiveHeld(Event):
    """An objective some condition asks to occupy or control, counted at the end of a round
    (XX-C-1..3): each player's effectif and valeur there, who occupies it, who controls it."""

    kind = "objective_held"
    objective: str
    powers: tuple[int, ...]
    values: tuple[int, ...]
    occupiers: tuple[int, ...]
    controller: int | None


@dataclass(frozen=True)
class CountsFor(Event):
    """XX-C-3: ``fighter``, standing on several objectives, counts for ``zone`` only."""

    kind = "counts_for"
    fighter: str
    zone: str


@dataclass(frozen=True)
class CountFor(Choice):
    """XX-C-3: ``fighter`` counts for the zone ``zone`` (a key of ``scenarios.control``)."""

    kind = "count_for"
    fighter: str
    zone: str


# --- XX-C-3: the player chooses where a fighter counts ------------------------------------------


def _record(state: GameState) -> BasicScenario:
    scenario = scenario_of(state)
    assert scenario is not None
    return scenario


def _with_counted(state: GameState, counted: tuple[tuple[str, str], ...]) -> GameState:
    scenario = _record(state)
    record = dataclasses.replace(
        scenario, objectives=dataclasses.replace(scenario.objectives, counted=counted)
    )
    return dataclasses.replace(state, scenario=record)


def _asking(state: GameState) -> str | None:
    """The next fighter standing in several zones whose player has not chosen yet."""
    chosen = {f for f, _ in _record(state).objectives.counted}
    for fighter in state.fighters:
        if fighter.id not in chosen and len(zones_of(state, fighter)) > 1:
            return fighter.id
    return None


def _matters(state: GameState, scenario: BasicScenario) -> bool:
    """The choice is asked in the last round, and every round if some condition is checked
    at the end of each round (XX-A-4)."""
    return state.round >= state.rounds or any(c.when == "round" for c in scenario.conditions)


def choose_zones(state: GameState) -> Transition:
    """Maintenance (step "markers"): XX-C-3's choices for this round, then each objective
    counted (:class:`ObjectiveHeld`)."""
    scenario = scenario_of(state)
    if scenario is None or not zoned(state):
        return state, []
    state = _with_counted(state, ())
    if not _matters(state, scenario):
        return state, _held(state)
    return _next(state)


def _next(state: GameState) -> Transition:
    fighter = _asking(state)
    if fighter is not None:
        player = state.fighter(fighter).player
        return dataclasses.replace(state, pending=Pending(QuestionKind.COUNT_FOR, player)), []
    return state, _held(state)


def _disputed(scenario: BasicScenario) -> set[str]:
    """The objectives some condition or bonus asks to occupy or control."""
    items: tuple[Condition | Bonus, ...] = (*scenario.conditions, *scenario.bonuses)
    return {
        json.loads(item.params)["objective"]
        for item in items
        if item.kind in (OCCUPY, CONTROL_OBJECTIVE)
    }


def _held(state: GameState) -> list[Event]:
    """Each objective to occupy or control, counted (:class:`ObjectiveHeld`)."""
    events: list[Event] = []
    scenario = _record(state)
    disputed = _disputed(scenario)
    for objective in scenario.objectives.items:
        if objective.name not in disputed:
            continue
        held = tally(state, objective_key(objective))
        events.append(
            ObjectiveHeld(
                objective.name,
                held.powers,
                held.values,
                occupiers(objective, held),
                holder(objective, held),
            )
        )
    return events


def _count_legal(state: GameState) -> list[Choice]:
    fighter = _asking(state)
    assert fighter is not None
    return [CountFor(fighter, key) for key in zones_of(state, state.fighter(fighter))]


def _count_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, CountFor)
    counted = (*_record(state).objectives.counted, (choice.fighter, choice.zone))
    state = _with_counted(state, counted)
    state, events = _next(state)
    return state, [CountsFor(choice.fighter, choice.zone), *events]


def zone_label(state: GameState, key: str) -> str:
    """A zone as a person reads it."""
    for zone in zones(state):
        if zone.key == key:
            if key.startswith("capture:"):
                return f"the perimeter of {zone.name}"
            return zone.name
    return key


def _count_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    fighter = _asking(state)
    assert fighter is not None
    profile = state.profile(state.fighter(fighter).profile).name
    prompt = (
        f"XX-C-3: {profile} ({fighter}) stands on several objectives: which one does he count for?"
    )
    options = tuple(
        Option(c, zone_label(state, c.zone)) for c in choices if isinstance(c, CountFor)
    )
    return Question(QuestionKind.COUNT_FOR, state.fighter(fighter).player, prompt, options)


# --- the picture ------------------------------------------------------------------------------


def marks(state: GameState) -> list[Mark]:
    """What the scenario puts on the table, for the battlefield SVG: each objective (its zone
    around it, its thresholds, who holds it, its counters) and the capture perimeters."""
    scenario = scenario_of(state)
    if scenario is None or state.battleground is None:
        return []
    out = []
    for objective in scenario.objectives.items:
        zone = objective_zone(state, objective)
        held = tally(state, zone.key)
        notes = ["contact" if zone.contact else "zone"]
        if objective.effectif or objective.value:
            notes.append(f"{objective.effectif}/{objective.value}")
        taker = holder(objective, held)
        if taker is not None:
            notes.append(f"held by {player_name(taker)}")
        out.append(
            Mark(
                objective.name,
                objective_shape(state, objective),
                None if zone.contact or not objective.perimeter else zone.shape,
                " · ".join(notes),
                scenario.objectives.count(objective.name) if objective.has_counters else None,
            )
        )
    for zone in zones(state):
        if zone.key.startswith("capture:"):
            out.append(Mark("capture", zone.shape, filled=False))
    return out


# --- narration -------------------------------------------------------------------------------


def _tell_held(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, ObjectiveHeld)
    powers = " to ".join(map(str, event.powers))
    values = " to ".join(map(str, event.values))
    if event.controller is not None:
        who = f"controlled by {player_name(event.controller)}"
    elif event.occupiers:
        who = f"occupied by {listed([player_name(p) for p in event.occupiers])}, not controlled"
    else:
        who = "occupied by nobody"
    return f"{event.objective}: effectif {powers}, value {values} — {who}."


def _tell_counts(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, CountsFor)
    place = event.zone.split(":", 1)[1]
    if event.zone.startswith("capture:"):
        place = f"the perimeter of {narrator.fighter(place.split(':')[0])}"
    return f"{narrator.fighter(event.fighter)} counts for {place} only (XX-C-3)."


def contribute(rules: RulesBuilder) -> None:
    """XX-C's condition kinds, the XX-C-3 choice (a maintenance hook and its question) and
    the narration."""
    for kind in KINDS:
        rules.extension(CONDITION, kind.name, kind)
        rules.extension(BONUS, kind.name, kind)
    rules.maintenance_hook("markers", choose_zones)
    rules.handler(Handler(QuestionKind.COUNT_FOR, _count_legal, _count_apply, _count_describe))
    rules.sentence(ObjectiveHeld.kind, _tell_held)
    rules.sentence(CountsFor.kind, _tell_counts)
