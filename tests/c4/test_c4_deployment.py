"""Where C4 units deploy (docs/rulings.md, "002 — where C4 units deploy (c4fix)"): every
fighter's base wholly inside his player's deployment area — III-A-1's line of battle across the
scenario's split, the default battle's along its length — for every scenario offered to C4
units and every game mode, units in scattered formation, no base on another or on impassable
scenery."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import pytest
from shapely.geometry import Point

from confrontation.c4.battle import inside
from confrontation.c4.company import bundled_companies
from confrontation.c4.formation import Formation, Member, formation_problems
from confrontation.c4.setup import deployment_areas
from confrontation.c4.state import C4State
from confrontation.engine.table.field import scenery_of
from confrontation.scenarios.base import bundled_scenarios, resolve
from confrontation.sim import c4game
from confrontation.sim.c4game import MODES, C4Config
from confrontation.sim.c4scenario import C4ScenarioError, C4Table, c4_battle
from confrontation.web.c4host import C4_SCENARIOS

SEEDS = (0, 3)


@functools.cache
def table(name: str, seed: int) -> C4Table:
    """``c4_battle`` once per scenario and seed (laying the scenery is the slow part)."""
    return c4_battle(name, seed)


@functools.cache
def offered() -> tuple[str | None, ...]:
    """The default battle, then every bundled scenario (and variation) C4 units can play."""
    names: list[str | None] = [None]
    for sid in bundled_scenarios():
        for name in (sid, *(f"{sid}:{v}" for v in resolve(sid).variations)):
            try:
                table(name, SEEDS[0])
            except C4ScenarioError:
                continue
            names.append(name)
    return tuple(names)


@pytest.fixture
def build(monkeypatch: pytest.MonkeyPatch) -> Callable[[C4Config], C4State]:
    """``sim.c4game.build`` with the scenario tables kept from one game to the next."""
    monkeypatch.setattr(c4game, "c4_battle", table)
    return c4game.build


def test_the_offered_scenarios_are_those_the_documents_name() -> None:
    names = set(offered())
    assert set(C4_SCENARIOS) <= names
    for name in ("standard", "assassination", "watchtower", "cp-incursion"):
        assert name in names


def _expected_area(state: C4State, player: int) -> tuple[float, float, float, float]:
    """III-A-1 (CLARIFICATIONS §9), worked out here: more than 15 cm and less than 50 cm from
    the median line, on the table; the line of battle across the width when the companies
    deploy along the west and east edges, else along the length."""
    across = state.edges == ("w", "e")
    size = state.width if across else state.height
    m = size / 2
    lo, hi = (max(0.0, m - 50), m - 15) if player == 0 else (m + 15, min(size, m + 50))
    if across:
        return (lo, 0.0, hi, state.height)
    return (0.0, lo, state.width, hi)


def _check(state: C4State) -> None:
    for unit in state.units:
        x0, y0, x1, y1 = _expected_area(state, unit.owner)
        members = state.members(unit.id)
        for f in members:
            # an open bound is not reached (III-A-1); a table edge may be touched
            left_ok = f.x - f.radius > x0 or (x0 == 0 and f.x - f.radius >= 0)
            right_ok = f.x + f.radius < x1 or (x1 == state.width and f.x + f.radius <= x1)
            low_ok = f.y - f.radius > y0 or (y0 == 0 and f.y - f.radius >= 0)
            high_ok = f.y + f.radius < y1 or (y1 == state.height and f.y + f.radius <= y1)
            assert left_ok and right_ok and low_ok and high_ok, (
                f"{f.id} at ({f.x:.2f}, {f.y:.2f}) r {f.radius} is not wholly inside "
                f"({x0}, {y0}, {x1}, {y1})"
            )
        laid = [Member(f.id, f.x, f.y, f.radius, f.standard, f.incarnate) for f in members]
        assert formation_problems(laid, unit.leader, Formation.SCATTERED) == []
    fighters = state.fighters
    for i, a in enumerate(fighters):
        for b in fighters[i + 1 :]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= a.radius + b.radius - 1e-6
    walls = [scenery_of(p).footprint for p in state.scenery if not scenery_of(p).passable]
    for f in fighters:
        disc = Point(f.x, f.y).buffer(f.radius - 0.01)
        assert not any(disc.intersects(w) for w in walls), f.id
    # the areas the scenario scores are those the companies deploy in (Conquest)
    if state.battle is not None:
        for zone in state.battle.zones:
            if zone.kind == "area" and zone.name.endswith("deployment area"):
                owner = zone.side
                assert owner is not None
                for unit in state.units:
                    if unit.owner == owner:
                        assert all(inside(f, zone) for f in state.members(unit.id)), zone.name


@pytest.mark.rule("C4-PLAYING-A-GAME")
@pytest.mark.parametrize("mode", MODES)
def test_every_fighter_deploys_inside_his_area_in_every_scenario_and_mode(
    mode: str, build: Callable[[C4Config], C4State]
) -> None:
    for name in offered():
        _check(build(C4Config(scenario=name, mode=mode, seed=SEEDS[0])))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_bundled_company_deploys_inside_its_area(
    seed: int, build: Callable[[C4Config], C4State]
) -> None:
    names = sorted(bundled_companies())
    pairs = list(zip(names, [*names[1:], names[0]], strict=True))
    for k, name in enumerate(offered()):
        for first, second in (pairs[k % len(pairs)], pairs[(k + 4) % len(pairs)]):
            for companies in ((first, second), (second, first)):
                _check(build(C4Config(companies=companies, scenario=name, seed=seed)))


def test_the_areas_are_the_line_of_battle() -> None:
    # the default battle on its 120 x 120 cm table: south and north, 15 to 50 cm from y = 60
    one, two = deployment_areas(120.0, 120.0, None)
    assert one[0] == 0.0 and one[2] == 120.0 and two[0] == 0.0 and two[2] == 120.0
    assert one[1] == pytest.approx(10.0, abs=0.01) and one[3] == pytest.approx(45.0, abs=0.01)
    assert two[1] == pytest.approx(75.0, abs=0.01) and two[3] == pytest.approx(110.0, abs=0.01)
    assert one[3] < 45.0 and two[1] > 75.0  # open bounds
    # Conquest's 120 x 60 table split across its width: west and east
    west, east = deployment_areas(120.0, 60.0, "width")
    assert west[0] == pytest.approx(10.0, abs=0.01) and west[2] == pytest.approx(45.0, abs=0.01)
    assert east[0] == pytest.approx(75.0, abs=0.01) and east[2] == pytest.approx(110.0, abs=0.01)


def test_a_crowded_area_is_refused_in_one_line() -> None:
    from confrontation.c4.setup import bundled_game

    with pytest.raises(ValueError, match=r"no room to deploy the unit of .* deployment area"):
        bundled_game(["griffin-vanguard", "lion-host"], width=6.0, height=120.0)
