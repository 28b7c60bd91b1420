"""Control of an area (III-A-2, XX-C-1, XX-C-3) and who counts where (XX-C).

"A player is said to control an area if, on the one hand, the sum of the powers of his
fighters present in the area is greater than the enemy fighters and, on the other hand, if
the sum of the strategic values of his fighters is greater than the strategic values of the
enemy fighters. Any other case results in a disputed zone. For the calculation of the sum of
the strategic values, a combatant with a serious wound will suffer a penalty of -5 to his
strategic value (min. 0) and a combatant with a critical wound -10." (III-A-2)

Who counts (XX-C-1, XX-C-2, XX-B-3): fighters alive and on the table, at level 0, neither
routed nor hidden nor neutral, not summoned unless of the army's people, not put on the
battlefield in the round of the count; in an area, those whose whole base lies in it
(XX-C-2's "zone": "l'intégralité de son socle").

The scenario's **zones** are its areas, its objectives (XX-C-2: a zone around the objective,
or base contact with it) and the control perimeters of its capture targets (XX-C-4). "Un
même combattant ne peut pas être pris en compte pour l'occupation et/ou le contrôle de
plusieurs zones" (XX-C-3): a fighter standing in several counts for the one his player chose
at the last maintenance phase (``Objectives.counted``, asked by ``scenarios.occupation``),
otherwise for the first of them (areas, then objectives, then capture perimeters, in the
file's order).

With three players or more (XX-F) a player controls an area when his Power and his value
are both strictly greater than those of every other player (docs/rulings.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from confrontation.engine.core.state import NEUTRAL, Fighter, GameState
from confrontation.engine.table.field import base_of, table_of
from confrontation.geometry.contact import CONTACT_TOLERANCE_CM, side_on_shape
from confrontation.geometry.measure import geometry_distance
from confrontation.geometry.table import Table
from confrontation.geometry.table import Zone as TableZone
from confrontation.scenarios.base import Area, BasicScenario, area_geometry
from confrontation.scenarios.c3 import C3_SWITCHES, variant
from confrontation.scenarios.conditions import Bonus, Condition
from confrontation.scenarios.objectives import CAPTURE, CaptureParams, Objective

SERIOUS_LEVELS = 2
"""II-B-3: a Serious wound is the second wound level, Critical the third."""
CRITICAL_LEVELS = 3


def wounded_value(
    value: int, wound_levels: int, serious_penalty: int = 5, critical_penalty: int = 10
) -> int:
    """A fighter's strategic value for control (III-A-2, XX-C-1): −5 at a Serious wound,
    −10 at a Critical wound, never below 0."""
    if wound_levels >= CRITICAL_LEVELS:
        value -= critical_penalty
    elif wound_levels >= SERIOUS_LEVELS:
        value -= serious_penalty
    return max(value, 0)


def controller(powers: Sequence[int], values: Sequence[int]) -> int | None:
    """III-A-2 / XX-C-3: the player whose Powers **and** strategic values are both strictly
    greater than the enemy's — with three players or more, than each other player's (one
    entry per player); None for a disputed area."""
    players = range(len(powers))
    for player in players:
        if all(
            powers[player] > powers[other] and values[player] > values[other]
            for other in players
            if other != player
        ):
            return player
    return None


@dataclass(frozen=True)
class Control:
    """What each player has in an area (one entry per player) and who controls it (None:
    disputed)."""

    area: str
    powers: tuple[int, ...]
    values: tuple[int, ...]
    fighters: tuple[tuple[str, ...], ...]

    @property
    def controller(self) -> int | None:
        return controller(self.powers, self.values)


def scenario_of(state: GameState) -> BasicScenario | None:
    """The state's basic scenario, if it has one."""
    return state.scenario if isinstance(state.scenario, BasicScenario) else None


def fighter_value(state: GameState, fighter: Fighter) -> int:
    """The strategic value of ``fighter`` with his equipment (I-D-2), before wounds; a
    summoned fighter's is "le coût en PA indiqué sur sa carte de référence" (XX-B-3)."""
    if fighter.summoned:
        return state.profile(fighter.profile).ap
    scenario = scenario_of(state)
    if scenario is not None:
        for card, value in scenario.values:
            if card == fighter.card:
                return value
    return state.profile(fighter.profile).ap


def counts(fighter: Fighter) -> bool:
    """XX-C-1 / XX-C-2: alive on the table, at level 0, not routed, not hidden; never a
    passive individual (XX-E-6: "pas comptabilisés dans l'effectif de leur camp")."""
    return (
        fighter.in_play
        and fighter.altitude == 0
        and not fighter.routed
        and not fighter.hidden
        and not fighter.passive
    )


def of_the_army(state: GameState, fighter: Fighter) -> bool:
    """XX-B-3: a summoned fighter counts for the victory conditions (objectives, counters,
    tokens) only if he belongs to the army's people; any other fighter does."""
    if not fighter.summoned:
        return True
    if fighter.player == NEUTRAL:
        return False
    return state.profile(fighter.profile).people == state.side(fighter.player).people


def eligible(state: GameState, fighter: Fighter) -> bool:
    """XX-C-1, XX-C-2, XX-B-3: the fighter counts for the occupation or the control of a
    zone — :func:`counts`, a player's (not neutral), :func:`of_the_army`, and not put on the
    battlefield (summoned, resurrected, 'Reinforcement') in the round of the count."""
    return (
        counts(fighter)
        and fighter.player != NEUTRAL
        and of_the_army(state, fighter)
        and not (fighter.placed and fighter.placed == state.round)
    )


def table(state: GameState) -> Table:
    """The state's table (with its deployment areas)."""
    if state.battleground is None:
        raise ValueError("control needs a table (setup.on_battlefield)")
    return table_of(state.battleground)


def drawn_table(state: GameState) -> Table:
    """The table as a picture shows it: the scenario's areas in place of the deployment
    areas when it has some (III-A-2), else the deployment areas."""
    board = table(state)
    scenario = scenario_of(state)
    if scenario is None or not scenario.areas:
        return board
    zones = tuple(TableZone(a.name, geometry(state, a)) for a in scenario.areas)
    return type(board)(board.width, board.height, zones)


def geometry(state: GameState, area: Area) -> BaseGeometry:
    """Where ``area`` lies in this game."""
    ground = state.battleground
    if ground is None:
        raise ValueError("control needs a table (setup.on_battlefield)")
    return area_geometry(area, table(state), ground.split, ground.zones)


def present(state: GameState, where: BaseGeometry) -> Iterable[Fighter]:
    """The fighters who count (:func:`eligible`) and whose whole base lies in ``where``."""
    grown = where.buffer(1e-6)
    for fighter in state.fighters:
        if eligible(state, fighter) and grown.covers(base_of(state, fighter).polygon):
            yield fighter


def control(state: GameState, area: Area) -> Control:
    """Powers, values and control of ``area`` now (III-A-2); with objectives or capture
    perimeters on the table, the fighters counted elsewhere are left out (XX-C-3)."""
    if zoned(state):
        return tally(state, f"area:{area.name}", area.name)
    return _sum(state, area.name, present(state, geometry(state, area)))


def _sum(state: GameState, name: str, fighters: Iterable[Fighter]) -> Control:
    """XX-C-1: each player's Power (effectif) and strategic value (valeur) of ``fighters``."""
    scenario = scenario_of(state)
    serious, critical = (
        (scenario.serious_penalty, scenario.critical_penalty) if scenario else (5, 10)
    )
    players = len(state.players)
    powers = [0] * players
    values = [0] * players
    ids: list[list[str]] = [[] for _ in range(players)]
    for fighter in fighters:
        if fighter.player == NEUTRAL:
            continue  # XX-E: neutral fighters belong to no player and control nothing
        powers[fighter.player] += state.profile(fighter.profile).power
        values[fighter.player] += wounded_value(
            fighter_value(state, fighter), fighter.wounds, serious, critical
        )
        ids[fighter.player].append(fighter.id)
    return Control(name, tuple(powers), tuple(values), tuple(tuple(i) for i in ids))


# --- the zones of XX-C: areas, objectives, capture perimeters ----------------------------------

C3_SWITCHES["contact"] = (
    "C3-CONTROL-OF-OBJECTIVES: a square base counts in contact with an objective with more "
    "than half of one base edge on it (XX-C-2: at least half)"
)


@dataclass(frozen=True, eq=False)
class Zone:
    """A place fighters count in: ``key`` "area:<name>", "objective:<name>" or
    "capture:<target>:<perimeter>"; ``shape`` the whole base must lie in, or with
    ``contact`` the objective the base must be in contact with (XX-C-2)."""

    key: str
    name: str
    shape: BaseGeometry
    contact: bool = False
    round: bool = False


def objective_shape(state: GameState, objective: Objective) -> BaseGeometry:
    """Where ``objective`` lies in this game (a player's, turned half a turn about the
    table's centre when he deploys in area 2)."""
    ground = state.battleground
    if ground is None:
        raise ValueError("objectives need a table (setup.on_battlefield)")
    zones, owner = ground.zones, objective.owner
    turned = owner is not None and zones is not None and zones[owner] == 1
    return _shape(objective.shape, objective.coords, ground.width, ground.height, turned)


def objective_places(objective: Objective, width: float, height: float) -> list[BaseGeometry]:
    """Every place ``objective`` may lie before the deployment areas are chosen: where the
    file says, and turned half a turn too for a player's own (XX-A-2)."""
    turns = (False, True) if objective.owner is not None else (False,)
    return [_shape(objective.shape, objective.coords, width, height, t) for t in turns]


@lru_cache(maxsize=256)
def _shape(
    shape: str, coords: tuple[float, ...], width: float, height: float, turned: bool
) -> BaseGeometry:
    if shape == "circle":
        x, y, r = coords
        return Point(width - x if turned else x, height - y if turned else y).buffer(r, 32)
    x0, y0, x1, y1 = coords
    if turned:
        x0, y0, x1, y1 = width - x0, height - y0, width - x1, height - y1
    return box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def objective_zone(state: GameState, objective: Objective) -> Zone:
    """XX-C-2: the zone of ``objective`` — base contact with it, or the whole base within
    its ``perimeter``."""
    shape = objective_shape(state, objective)
    key = f"objective:{objective.name}"
    if objective.mode == "contact":
        return Zone(key, objective.name, shape, True, objective.shape == "circle")
    if objective.perimeter:
        shape = _grown(shape, objective.perimeter)
    return Zone(key, objective.name, shape)


@lru_cache(maxsize=256)
def _grown(shape: BaseGeometry, perimeter: float) -> BaseGeometry:
    return shape.buffer(perimeter, 32)


def capture_targets(state: GameState, player: int, params: CaptureParams) -> tuple[str, ...]:
    """XX-C-4: the fighters ``player`` may capture — the other players' fighters with the
    highest strategic value (alive or not: the army's composition fixes them), or the
    fighters of ``params.profile`` who are not his."""
    if params.target == "profile":
        return tuple(
            f.id for f in state.fighters if f.profile == params.profile and f.player != player
        )
    enemies = [f for f in state.fighters if f.player not in (player, NEUTRAL)]
    if not enemies:
        return ()
    best = max(fighter_value(state, f) for f in enemies)
    return tuple(f.id for f in enemies if fighter_value(state, f) == best)


def capture_zone(state: GameState, target: str, perimeter: float) -> Zone:
    """XX-C-4: the control perimeter of ``target`` (the whole base within ``perimeter`` cm
    of his base)."""
    fighter = state.fighter(target)
    shape = base_of(state, fighter).polygon.buffer(perimeter, 32)
    return Zone(f"capture:{target}:{perimeter:g}", fighter.id, shape)


def captures_of(scenario: BasicScenario) -> tuple[tuple[Condition | Bonus, CaptureParams], ...]:
    """The scenario's capture conditions and bonuses with their parameters."""
    items: Sequence[Condition | Bonus] = (*scenario.conditions, *scenario.bonuses)
    return tuple(
        (item, CaptureParams.model_validate(json.loads(item.params)))
        for item in items
        if item.kind == CAPTURE
    )


def zones(state: GameState) -> tuple[Zone, ...]:
    """The scenario's zones now: areas, objectives, the perimeters of the capture targets in
    play (cached per state)."""
    cached = state.scratch.get("xx-c-zones")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    scenario = scenario_of(state)
    found: list[Zone] = []
    if scenario is not None and state.battleground is not None:
        for area in scenario.areas:
            found.append(Zone(f"area:{area.name}", area.name, geometry(state, area)))
        found.extend(objective_zone(state, o) for o in scenario.objectives.items)
        keys = {z.key for z in found}
        for item, params in captures_of(scenario):
            for player in state.players:
                if not item.concerns(player):
                    continue
                for target in capture_targets(state, player, params):
                    if not state.fighter(target).in_play:
                        continue
                    zone = capture_zone(state, target, params.perimeter)
                    if zone.key not in keys:
                        keys.add(zone.key)
                        found.append(zone)
    result = tuple(found)
    state.scratch["xx-c-zones"] = result
    return result


def zoned(state: GameState) -> bool:
    """The scenario has objectives or capture perimeters (zones beside its areas)."""
    scenario = scenario_of(state)
    if scenario is None:
        return False
    items: tuple[Condition | Bonus, ...] = (*scenario.conditions, *scenario.bonuses)
    return bool(scenario.objectives.items) or any(c.kind == CAPTURE for c in items)


def contact_c3(state: GameState) -> bool:
    """The rules count a square base in contact with more than half of one side (the C3
    switch ``contact``, ``scenarios.c3``)."""
    return variant(state, "contact") == "c3"


def in_contact_with(state: GameState, fighter: Fighter, shape: BaseGeometry, round_: bool) -> bool:
    """XX-C-2: the fighter's base is in contact with the objective ``shape`` — touching it
    (a round base, or a round objective: as mixed pairs in II-E) or with half of one side of
    a square base on it (C3 variant: more than half)."""
    base = base_of(state, fighter)
    if base.level != 0 or geometry_distance(base, shape) > CONTACT_TOLERANCE_CM:
        return False
    if base.shape == "round" or round_:
        return True
    return side_on_shape(base, shape, more_than_half=contact_c3(state))


def is_in(state: GameState, fighter: Fighter, zone: Zone) -> bool:
    """Whether the fighter stands in ``zone`` (eligibility aside)."""
    if zone.contact:
        return in_contact_with(state, fighter, zone.shape, zone.round)
    return bool(_cover(zone.shape).covers(base_of(state, fighter).polygon))


@lru_cache(maxsize=256)
def _cover(shape: BaseGeometry) -> BaseGeometry:
    return shape.buffer(1e-6)


def zones_of(state: GameState, fighter: Fighter) -> tuple[str, ...]:
    """The keys of the zones ``fighter`` counts in, before XX-C-3's choice (none if he is
    not :func:`eligible`)."""
    if not eligible(state, fighter):
        return ()
    return tuple(z.key for z in zones(state) if is_in(state, fighter, z))


def allocation(state: GameState) -> dict[str, str]:
    """XX-C-3: the one zone each fighter counts for (fighter id → zone key): his player's
    choice at the last maintenance phase if it is still one of his zones, otherwise the
    first (cached per state)."""
    cached = state.scratch.get("xx-c-allocation")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    scenario = scenario_of(state)
    chosen = dict(scenario.objectives.counted) if scenario is not None else {}
    out: dict[str, str] = {}
    for fighter in state.fighters:
        keys = zones_of(state, fighter)
        if keys:
            choice = chosen.get(fighter.id)
            out[fighter.id] = choice if choice in keys else keys[0]
    state.scratch["xx-c-allocation"] = out
    return out


def tally(state: GameState, key: str, name: str | None = None) -> Control:
    """XX-C-1: each player's effectif and valeur in the zone ``key`` (the fighters counted
    there, XX-C-3)."""
    counted = allocation(state)
    fighters = (f for f in state.fighters if counted.get(f.id) == key)
    return _sum(state, name if name is not None else key.split(":", 1)[1], fighters)


def area_vp(area: Area, player: int) -> int:
    """The victory points ``player`` scores for controlling ``area`` (III-A-2, Conquest): an
    owned area gives ``vp`` to its owner and ``vp_enemy`` to any other player."""
    if area.owner is None or area.owner == player:
        return area.vp
    return area.vp_enemy
