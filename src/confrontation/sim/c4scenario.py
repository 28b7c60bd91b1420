"""Confédé's scenario files played in a C4 game (``play --rules c4 --scenario NAME``).

What to call: :func:`c4_battle` ``(name, seed)`` → :class:`C4Table`: the scenario's table
(size, line of battle), its scenery laid (the scenario's own elements — flags — then its
standard elements by the seeded layout of III-A-3, kept clear of the deployment strips and
of the zones) and the :class:`~confrontation.c4.state.Battle` the C4 control phase scores
(``c4.battle``). A scenario whose mechanics do not fit units is refused with one line naming
it (:class:`C4ScenarioError`): what fits is

- ``goal = "control"`` (III-A-2 / chapter 20 areas: victory points after the last round),
- ``goal = "control-points"`` (the 003 pack) whose scoring lines are zones and flags only
  (``cp-zone``, ``cp-flag``), with its Kill Box and scenario victory; objectives to destroy
  (``cp-destroyed``, ``cp-objective``: C4 has no scenery attack) do not fit; a flag removed
  at random (Incursion, ``remove_flag_after``) is a die of the C4 control phase;
- ``goal = "conditions"`` (chapter 20, XX-A-4) whose conditions are all of the kinds units
  play (``area``, ``commander-in-area``, ``commander-alive``, ``kill-commander``,
  ``inflict-losses``): The Standard, Assassination, Watchtower; victory points after the
  last round, the bonuses left out;
- with two players, and no neutral fighters, tokens, passive individuals or XX-C objectives.

Rulings: docs/rulings.md, "002 — scenarios in a C4 game".
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from confrontation.armylists.load import LoadError
from confrontation.c4.battle import CONDITION_KINDS
from confrontation.c4.state import Battle, Condition, Zone
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import SceneryPiece
from confrontation.engine.table.field import piece_of, scenery_of
from confrontation.geometry import Table
from confrontation.geometry.scenery import random_layout
from confrontation.geometry.table import FORMATS
from confrontation.scenarios.base import Scenario, area_geometry, resolve
from confrontation.scenarios.cp_pack import CpElement, shape_of

CLEAR_DEPTH_CM = 22.0
"""Ruling: no standard scenery within this distance of a deploying edge (the C4 companies
deploy there, ``c4.setup``)."""
ZONE_LINES = {"cp-zone": "zone", "cp-flag": "flag"}


class C4ScenarioError(ValueError):
    """A scenario that cannot be played with C4 units (one line naming it)."""


@dataclass(frozen=True)
class C4Table:
    """What a scenario gives a C4 game: its id, rounds, table, line of battle, scenery, battle."""

    scenario: str
    rounds: int
    width: float
    height: float
    split: str
    scenery: tuple[SceneryPiece, ...]
    battle: Battle


def _outline(shape: BaseGeometry) -> tuple[tuple[float, float], ...]:
    coords = shape.exterior.coords[:-1]
    return tuple((round(float(x), 4), round(float(y), 4)) for x, y in coords)


def _refuse(scenario: Scenario, why: str) -> C4ScenarioError:
    return C4ScenarioError(f"scenario {scenario.name!r} does not fit C4 units: {why}")


def _areas(scenario: Scenario, table: Table) -> tuple[Zone, ...]:
    """III-A-2 areas: ``vp`` to the owner (or anyone for an area with no owner), ``vp_enemy``
    to the other player."""
    zones = []
    for area in scenario.areas:
        if area.owner is not None and area.owner > 1:
            continue  # areas of players not in a two-player game
        where = area_geometry(area, table, scenario.split, (0, 1))
        control = tuple(
            area.vp if area.owner is None or area.owner == p else area.vp_enemy for p in (0, 1)
        )
        zones.append(Zone(area.name, "area", _outline(where), control, side=area.owner))
    return tuple(zones)


def _relation(element: CpElement, player: int) -> str:
    if element.side is None:
        return "neutral"
    return "friendly" if element.side == player else "enemy"


def _pack(scenario: Scenario) -> tuple[Zone, ...]:
    """003 zones and flags with the CP of the first scoring line naming each for a player."""
    assert scenario.control_points is not None
    lines = []
    for condition in scenario.conditions:
        if condition.kind not in ZONE_LINES:
            raise _refuse(scenario, f"its condition {condition.kind!r} ({condition.text})")
        params = json.loads(condition.params)
        lines.append((ZONE_LINES[condition.kind], params))
    zones = []
    for element in scenario.control_points.elements:
        if element.kind not in ("zone", "flag"):
            raise _refuse(scenario, f"its {element.kind} {element.name!r}")
        control, dominate = [0, 0], [0, 0]
        for player in (0, 1):
            rel = _relation(element, player)
            for kind, params in lines:
                whose = params.get("whose", "any")
                if kind == element.kind and whose in ("any", rel):
                    control[player] = int(params.get("control", 0))
                    dominate[player] = int(params.get("dominate", 0))
                    break
        outline = _outline(shape_of(element))
        side = element.side if element.side is not None and element.side < 2 else None
        zones.append(
            Zone(element.name, element.kind, outline, tuple(control), tuple(dominate), side)
        )
    return tuple(zones)


def _battle(scenario: Scenario, table: Table) -> Battle:
    if scenario.goal == "control":
        return Battle(scenario.name, scenario.section, "end", _areas(scenario, table))
    if scenario.goal == "control-points":
        cp = scenario.control_points
        assert cp is not None
        return Battle(
            scenario.name,
            scenario.section,
            "round",
            _pack(scenario),
            first=cp.from_round,
            win_at=cp.win_at,
            kill_box=cp.kill_box,
            tiebreak=cp.tiebreak,
            remove_flag_after=cp.remove_flag_after,
        )
    if scenario.goal == "conditions":
        return _conditions(scenario, table)
    raise _refuse(
        scenario, f"its goal {scenario.goal!r} (C4 plays 'control', 'control-points', 'conditions')"
    )


def _conditions(scenario: Scenario, table: Table) -> Battle:
    """XX-A-4 victory conditions whose kinds fit units (``c4.battle.CONDITION_KINDS``): VP
    after the last round; the areas they name are scored by units as chapter 20's are; the
    bonuses (XX-A-5: goal-average for a tournament's tiebreak) are left out (ruling)."""
    conditions = []
    for c in scenario.conditions:
        if c.kind not in CONDITION_KINDS:
            raise _refuse(scenario, f"its condition {c.kind!r} ({c.text})")
        params = json.loads(c.params)
        players = tuple(p for p in c.players if p < 2)
        if c.players and not players:
            continue  # a condition of players not in a two-player game
        conditions.append(
            Condition(c.id, c.kind, c.vp, c.when, players, str(params.get("area", "")))
        )
    zones = tuple(evolve(z, control=(0, 0)) for z in _areas(scenario, table))
    names = {z.name for z in zones}
    for kept in conditions:
        if kept.area and kept.area not in names:
            raise _refuse(scenario, f"its condition {kept.id!r} names no area {kept.area!r}")
    return Battle(
        scenario.name, scenario.section, "conditions", zones, conditions=tuple(conditions)
    )


def _strips(table: Table, split: str) -> list[BaseGeometry]:
    w, h, d = table.width, table.height, CLEAR_DEPTH_CM
    if split == "width":
        return [box(0, 0, d, h), box(w - d, 0, w, h)]
    return [box(0, 0, w, d), box(0, h - d, w, h)]


def lay_scenery(
    scenario: Scenario, table: Table, battle: Battle, seed: int
) -> tuple[SceneryPiece, ...]:
    """The scenario's own elements, then as many of its standard elements as fit (down to
    none: ruling) by the seeded random layout, off the deployment strips and the zones."""
    fixed = tuple(scenario.scenario_scenery)
    existing = [scenery_of(p) for p in fixed]
    clear = _strips(table, scenario.split)
    clear += [box(*_bounds(z)) for z in battle.zones if z.kind != "area"]
    for count in range(scenario.scenery, -1, -1):
        rng = np.random.default_rng(seed)
        try:
            laid = random_layout(table, rng, count, existing=existing, clear=clear)
        except ValueError:
            continue
        return (*fixed, *(piece_of(e) for e in laid))
    return fixed


def _bounds(zone: Zone) -> tuple[float, float, float, float]:
    xs = [x for x, _ in zone.outline]
    ys = [y for _, y in zone.outline]
    return min(xs), min(ys), max(xs), max(ys)


def c4_battle(name: str, seed: int) -> C4Table:
    """The scenario ``name`` (bundled id, ``id:variation`` or file) as a C4 table and battle;
    a :class:`C4ScenarioError` (one line) if it does not exist or does not fit units."""
    try:
        scenario = resolve(name)
    except LoadError as error:
        raise C4ScenarioError(str(error)) from None
    width, height = FORMATS[scenario.table]
    table = Table(width, height)
    split = scenario.split if scenario.split in ("width", "length") else "width"
    battle = _battle(scenario, table)
    for what, present in (  # the C4 Commander is the company's (``c4.tactical.commander``)
        ("neutral fighters", scenario.neutrals),
        ("passive individuals", scenario.passive),
        ("tokens", scenario.loot),
        ("objectives (XX-C)", scenario.objectives),
    ):
        if present:
            raise _refuse(scenario, f"its {what}")
    scenery = lay_scenery(scenario, table, battle, seed)
    return C4Table(scenario.id, scenario.rounds, width, height, split, scenery, battle)
