"""Scoring the victory conditions of a chapter-20 scenario (XX-A-4) through the rules value.

``round`` conditions are checked at the end of every round's maintenance phase (the hook of
the "markers" step, the last) and kept once met (:class:`ConditionMet`); ``end`` conditions
when the game ends (``scenarios.basic.score`` calls :func:`score_conditions`). The kind
``area`` (control of one of the scenario's areas, III-A-2 / XX-C-3) is defined here; the
mechanics' modules contribute theirs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field
from shapely.geometry.base import BaseGeometry

from confrontation.engine.core.events import Event
from confrontation.engine.core.narrate import Narrator
from confrontation.engine.core.registry import EngineError, Transition
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import GameState, player_name
from confrontation.scenarios.base import BasicScenario
from confrontation.scenarios.conditions import (
    BONUS,
    CONDITION,
    Bonus,
    Condition,
    ConditionKind,
    params_of,
)
from confrontation.scenarios.control import control, geometry, scenario_of


@dataclass(frozen=True)
class ConditionMet(Event):
    """``player`` fulfils the victory condition ``condition`` worth ``vp`` (XX-A-4); ``when``
    "round": met during the game and kept, "end": checked as the game ends."""

    kind = "condition_met"
    player: int
    condition: str
    vp: int
    when: str = "end"


def kind_of(state: GameState, table: str, name: str) -> ConditionKind:
    """The kind ``name`` of the extension table ``table`` in the state's rules."""
    kind = rules_of(state).extension(table, name)
    if not isinstance(kind, ConditionKind):
        raise EngineError(f"the rules {state.rules} have no {table} kind {name!r} (XX-A-4)")
    return kind


def fulfils(state: GameState, item: Condition | Bonus, player: int) -> bool:
    """Does ``player`` fulfil ``item`` in ``state`` (a condition concerning him)?"""
    if not item.concerns(player):
        return False
    table = CONDITION if isinstance(item, Condition) else BONUS
    kind = kind_of(state, table, item.kind)
    return kind.check(state, item, player, params_of(kind, item))


def aims(state: GameState, player: int) -> list[BaseGeometry]:
    """Where the scenario's conditions not yet kept want ``player``'s fighters (agents)."""
    scenario = scenario_of(state)
    if scenario is None:
        return []
    out: list[BaseGeometry] = []
    met = set(scenario.met)
    items: tuple[Condition | Bonus, ...] = (*scenario.conditions, *scenario.bonuses)
    for item in items:
        if not item.concerns(player) or (player, item.id) in met:
            continue
        table = CONDITION if isinstance(item, Condition) else BONUS
        kind = kind_of(state, table, item.kind)
        if kind.aim is not None:
            out.extend(kind.aim(state, item, player, params_of(kind, item)))
    return out


def prey(state: GameState, player: int) -> set[str]:
    """The fighters whose death fulfils one of ``player``'s conditions or bonuses (agents)."""
    return _hooked(state, player, "prey")


def spared(state: GameState, player: int) -> set[str]:
    """The fighters ``player`` must keep alive for one of his conditions or bonuses: a
    capture target (XX-C-4) killed can no longer be captured (agents)."""
    return _hooked(state, player, "spare")


def wrecked(state: GameState, player: int) -> set[str]:
    """The elements of scenery (by name) whose destruction fulfils one of ``player``'s
    conditions or bonuses (C3 "Damaging elements of scenery"; agents)."""
    return _hooked(state, player, "wreck")


def _hooked(state: GameState, player: int, hook: str) -> set[str]:
    scenario = scenario_of(state)
    found: set[str] = set()
    if scenario is None:
        return found
    items: tuple[Condition | Bonus, ...] = (*scenario.conditions, *scenario.bonuses)
    for item in items:
        if not item.concerns(player):
            continue
        table = CONDITION if isinstance(item, Condition) else BONUS
        kind = kind_of(state, table, item.kind)
        answer = getattr(kind, hook)
        if answer is not None:
            found.update(answer(state, item, player, params_of(kind, item)))
    return found


def score_conditions(state: GameState, scenario: BasicScenario) -> tuple[list[int], list[Event]]:
    """Each player's victory points as the game ends: the ``round`` conditions met during
    the game, the ``end`` conditions met now (XX-A-4)."""
    vp = [0] * len(state.players)
    events: list[Event] = []
    met = set(scenario.met)
    for condition in scenario.conditions:
        for player in state.players:
            if condition.when == "round":
                if (player, condition.id) in met:
                    vp[player] += condition.vp
                continue
            if fulfils(state, condition, player):
                vp[player] += condition.vp
                events.append(ConditionMet(player, condition.id, condition.vp, "end"))
    return vp, events


def check_round(state: GameState) -> Transition:
    """Maintenance (end of the round): the ``round`` conditions met now are kept (XX-A-4)."""
    scenario = scenario_of(state)
    if scenario is None or not scenario.conditions:
        return state, []
    met = list(scenario.met)
    events: list[Event] = []
    for condition in scenario.conditions:
        if condition.when != "round":
            continue
        for player in state.players:
            if (player, condition.id) not in met and fulfils(state, condition, player):
                met.append((player, condition.id))
                events.append(ConditionMet(player, condition.id, condition.vp, "round"))
    if not events:
        return state, []
    record = dataclasses.replace(scenario, met=tuple(met))
    return dataclasses.replace(state, scenario=record), events


# --- the kind "area" ---------------------------------------------------------------------------


class AreaParams(BaseModel):
    """``area``: the name of one of the scenario's ``[[areas]]``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    area: str = Field(min_length=1)


def _controls_area(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """III-A-2, XX-C-3: ``player`` controls the named area (Power and value both higher)."""
    assert isinstance(params, AreaParams)
    scenario = scenario_of(state)
    if scenario is None:
        return False
    for area in scenario.areas:
        if area.name == params.area:
            return control(state, area).controller == player
    raise EngineError(f"the scenario has no area {params.area!r} (XX-A-4 condition)")


def area_aim(state: GameState, item: object, player: int, params: BaseModel) -> list[BaseGeometry]:
    """The computer players' aim: the area named by ``params`` (``AreaParams``)."""
    assert isinstance(params, AreaParams)
    scenario = scenario_of(state)
    if scenario is None or state.battleground is None:
        return []
    return [geometry(state, a) for a in scenario.areas if a.name == params.area]


AREA = ConditionKind(
    "area",
    "XX-C-3",
    _controls_area,
    AreaParams,
    "controls the area named `area` (Power and value both higher than every other player's)",
    aim=area_aim,
)


def _tell(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, ConditionMet)
    scenario = narrator.state.scenario if narrator.state is not None else None
    text = event.condition
    if isinstance(scenario, BasicScenario):
        text = next((c.text or c.id for c in scenario.conditions if c.id == event.condition), text)
    return f"{player_name(event.player)} fulfils a victory condition ({text}): {event.vp} VP."


def contribute(rules: RulesBuilder) -> None:
    """The victory conditions' checks, the kind ``area`` and the narration (XX-A-4)."""
    rules.extension(CONDITION, AREA.name, AREA)
    rules.extension(BONUS, AREA.name, AREA)
    rules.maintenance_hook("markers", check_round)
    rules.sentence(ConditionMet.kind, _tell)
