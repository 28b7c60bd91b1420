"""Control of an area (III-A-2, XX-C-1, XX-C-3).

"A player is said to control an area if, on the one hand, the sum of the powers of his
fighters present in the area is greater than the enemy fighters and, on the other hand, if
the sum of the strategic values of his fighters is greater than the strategic values of the
enemy fighters. Any other case results in a disputed zone. For the calculation of the sum of
the strategic values, a combatant with a serious wound will suffer a penalty of -5 to his
strategic value (min. 0) and a combatant with a critical wound -10." (III-A-2)

Who counts (XX-C-1, XX-C-2): fighters alive and on the table, at level 0, neither routed nor
hidden, whose whole base lies in the area (XX-C-2's "zone": "l'intégralité de son socle").

With three players or more (XX-F) a player controls an area when his Power and his value
are both strictly greater than those of every other player (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shapely.geometry.base import BaseGeometry

from confrontation.engine.core.state import NEUTRAL, Fighter, GameState
from confrontation.engine.table.field import base_of, table_of
from confrontation.geometry.table import Table
from confrontation.scenarios.base import Area, BasicScenario, area_geometry

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
    """The strategic value of ``fighter`` with his equipment (I-D-2), before wounds."""
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


def table(state: GameState) -> Table:
    """The state's table (with its deployment areas)."""
    if state.battleground is None:
        raise ValueError("control needs a table (setup.on_battlefield)")
    return table_of(state.battleground)


def geometry(state: GameState, area: Area) -> BaseGeometry:
    """Where ``area`` lies in this game."""
    ground = state.battleground
    if ground is None:
        raise ValueError("control needs a table (setup.on_battlefield)")
    return area_geometry(area, table(state), ground.split, ground.zones)


def present(state: GameState, where: BaseGeometry) -> Iterable[Fighter]:
    """The fighters who count and whose whole base lies in ``where``."""
    grown = where.buffer(1e-6)
    for fighter in state.fighters:
        if counts(fighter) and grown.covers(base_of(state, fighter).polygon):
            yield fighter


def control(state: GameState, area: Area) -> Control:
    """Powers, values and control of ``area`` now (III-A-2)."""
    scenario = scenario_of(state)
    serious, critical = (
        (scenario.serious_penalty, scenario.critical_penalty) if scenario else (5, 10)
    )
    players = len(state.players)
    powers = [0] * players
    values = [0] * players
    ids: list[list[str]] = [[] for _ in range(players)]
    for fighter in present(state, geometry(state, area)):
        if fighter.player == NEUTRAL:
            continue  # XX-E: neutral fighters belong to no player and control nothing
        powers[fighter.player] += state.profile(fighter.profile).power
        values[fighter.player] += wounded_value(
            fighter_value(state, fighter), fighter.wounds, serious, critical
        )
        ids[fighter.player].append(fighter.id)
    return Control(area.name, tuple(powers), tuple(values), tuple(tuple(i) for i in ids))


def area_vp(area: Area, player: int) -> int:
    """The victory points ``player`` scores for controlling ``area`` (III-A-2, Conquest): an
    owned area gives ``vp`` to its owner and ``vp_enemy`` to any other player."""
    if area.owner is None or area.owner == player:
        return area.vp
    return area.vp_enemy
