"""A scenario's mechanics in a C4 game: control of zones scored in the control phase
(``# C4 Playing a game``: "review of which objectives have been fulfilled") and victory by
VP or CP (issue 25; the rules data is a :class:`~.state.Battle` in the state, built from a
scenario file by ``sim.c4scenario``).

Control by units (docs/rulings.md, "002 — scenarios in a C4 game"; CLARIFICATIONS §8: the
pack's 50 % unit rules apply to C4 units):

- a unit **holds** a zone when strictly more than half of its fighters still on the
  battlefield are in it — wholly inside a zone or an area, within 10 cm of a flag (CP-FLAG);
  a unit in rout holds nothing (CLARIFICATIONS §5);
- an **area** (chapter 20 / III-A-2) is controlled by the player whose holding units have
  the more fighters in it; equal numbers: nobody;
- a pack **zone** or **flag** is controlled by the one player who holds it when no fighter
  of another player (not in rout) is in it or touches it (a zone), or is within 10 cm (a
  flag) — such a fighter *contests* it; the player **dominates** it when his Commander
  (``tactical.commander``) is in a holding unit and himself wholly inside (a zone) or in
  base contact (a flag); a Commander dominates at most one element (the one worth the most
  more than its control, the first in the file among equals).

What to call: :func:`holds`, :func:`controller` (pure), :func:`score` (the control phase's
scoring: events and the new state), :func:`finish` (the end of the game by points),
:func:`describe` (a sentence for this module's events).

Sections (docs/rules-index.toml): C4-PLAYING-A-GAME.
"""

from __future__ import annotations

from functools import lru_cache

from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from confrontation.c4 import tactical
from confrontation.c4.events import C4KillBox, C4PointsScored, ZoneControlled
from confrontation.c4.state import Battle, C4State, Fighter, Zone
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve

FLAG_REACH_CM = 10.0
"""CP-FLAG (CLARIFICATIONS §8): control and contest within 10 cm of the flag."""
CONTACT_CM = 0.1
"""Base contact with a flag (the engine's contact tolerance)."""
KILL_BOX_CM = 35.0
KILL_BOX_CP = 2
EPS = 1e-6


@lru_cache(maxsize=256)
def shape(zone: Zone) -> BaseGeometry:
    """The zone's footprint as a shapely polygon."""
    return Polygon(zone.outline)


def _disc(f: Fighter) -> BaseGeometry:
    return Point(f.x, f.y).buffer(f.radius, quad_segs=16)


def inside(f: Fighter, zone: Zone) -> bool:
    """The fighter counts in the zone: wholly inside (area, zone), within 10 cm (flag)."""
    where = shape(zone)
    if zone.kind == "flag":
        return bool(where.distance(Point(f.x, f.y)) - f.radius <= FLAG_REACH_CM + EPS)
    return bool(where.buffer(EPS).contains(_disc(f)))


def touches(f: Fighter, zone: Zone) -> bool:
    """The fighter contests the zone: any part of his base in it (zone, area), within
    10 cm (flag)."""
    where = shape(zone)
    if zone.kind == "flag":
        return inside(f, zone)
    centre = Point(f.x, f.y)
    return bool(where.distance(centre) < f.radius - EPS or where.contains(centre))


def holds(state: C4State, unit_id: str, zone: Zone) -> bool:
    """The pack's unit rule: more than 50 % of the unit's fighters count in the zone; a unit in
    rout holds nothing."""
    unit = state.unit(unit_id)
    members = state.members(unit_id)
    if unit.rout or not members:
        return False
    count = sum(1 for f in members if inside(f, zone))
    return 2 * count > len(members)


def holders(state: C4State, zone: Zone) -> dict[int, int]:
    """Each player holding the zone → his holding units' fighters in it."""
    out: dict[int, int] = {}
    for u in state.units:
        if holds(state, u.id, zone):
            n = sum(1 for f in state.members(u.id) if inside(f, zone))
            out[u.owner] = out.get(u.owner, 0) + n
    return out


def _contesters(state: C4State, zone: Zone) -> set[int]:
    """The players with a fighter (of a unit not in rout) in or touching the zone."""
    out: set[int] = set()
    for u in state.units:
        if u.rout:
            continue
        if any(touches(f, zone) for f in state.members(u.id)):
            out.add(u.owner)
    return out


def controller(state: C4State, zone: Zone) -> tuple[int | None, bool]:
    """(the player who controls the zone or None, whether it is contested)."""
    held = holders(state, zone)
    if not held:
        return None, False
    if zone.kind == "area":
        best = max(held.values())
        top = [p for p, n in held.items() if n == best]
        return (top[0], False) if len(top) == 1 else (None, True)
    if len(held) > 1:
        return None, True
    (player,) = held
    if _contesters(state, zone) - {player}:
        return None, True
    return player, False


def dominates(state: C4State, player: int, zone: Zone) -> bool:
    """The player's Commander is in a unit holding the zone and himself wholly inside (zone)
    or in base contact (flag)."""
    chief = tactical.commander(state, player)
    if chief is None or not holds(state, chief.unit, zone):
        return False
    if zone.kind == "flag":
        return bool(shape(zone).distance(Point(chief.x, chief.y)) - chief.radius <= CONTACT_CM)
    return inside(chief, zone)


def _points(values: tuple[int, ...], player: int) -> int:
    return values[player] if player < len(values) else 0


def _in_kill_box(state: C4State, f: Fighter) -> bool:
    """003 Kill Box: the base wholly within 35 cm of a table edge."""
    edge = min(f.x, f.y, state.width - f.x, state.height - f.y)
    return edge + f.radius <= KILL_BOX_CM + EPS


def score(state: C4State) -> tuple[C4State, list[Event]]:
    """Score the battle's zones now (the control phase): events and the points added."""
    battle = state.battle
    assert battle is not None
    gains = [0] * state.players
    events: list[Event] = []
    owners: dict[str, tuple[int | None, bool]] = {
        z.name: controller(state, z) for z in battle.zones
    }
    # a Commander dominates at most one element: the one worth the most over its control
    chosen: dict[int, str] = {}
    for player in range(state.players):
        best: tuple[int, str] | None = None
        for z in battle.zones:
            if z.kind == "area" or owners[z.name][0] != player:
                continue
            extra = _points(z.dominate, player) - _points(z.control, player)
            if (best is None or extra > best[0]) and dominates(state, player, z):
                best = (extra, z.name)
        if best is not None and best[0] > 0:
            chosen[player] = best[1]
    for z in battle.zones:
        who, contested = owners[z.name]
        points = 0
        dominated = False
        if who is not None:
            dominated = chosen.get(who) == z.name
            points = _points(z.dominate if dominated else z.control, who)
            gains[who] += points
        events.append(ZoneControlled(state.round, z.name, who, points, dominated, contested))
    if battle.kill_box:  # 003 Kill Box: the opponent gains 2 CP
        for player in range(state.players):
            chief = tactical.commander(state, player)
            if chief is not None and _in_kill_box(state, chief):
                for other in range(state.players):
                    if other != player:
                        gains[other] += KILL_BOX_CP
                events.append(C4KillBox(state.round, player, KILL_BOX_CP))
    totals = tuple(p + g for p, g in zip(battle.points, gains, strict=True))
    unit = "VP" if battle.scoring == "end" else "CP"
    events.append(C4PointsScored(state.round, tuple(gains), totals, unit))
    return evolve(state, battle=evolve(battle, points=totals)), events


def scoring_now(state: C4State, last: bool) -> bool:
    """Whether this control phase scores: every round from ``first`` ("round"), the last
    ("end")."""
    battle = state.battle
    assert battle is not None
    if battle.scoring == "end":
        return last
    return state.round >= battle.first


def scenario_victor(battle: Battle) -> int | None:
    """003 scenario victory: ``win_at`` points or more and more than every opponent."""
    if not battle.win_at:
        return None
    best = max(battle.points)
    top = [p for p, n in enumerate(battle.points) if n == best]
    return top[0] if best >= battle.win_at and len(top) == 1 else None


def final_winner(state: C4State) -> tuple[int | None, str]:
    """The winner at the end of the game and why: the more points; the pack breaks a tie by
    the Commanders still in play (its first tiebreaker; ruling: the others need strategic
    values C4 does not have)."""
    battle = state.battle
    assert battle is not None
    best = max(battle.points)
    top = [p for p, n in enumerate(battle.points) if n == best]
    if len(top) == 1:
        return top[0], ""
    if battle.scoring == "round":
        chiefs = {p: tactical.commander(state, p) is not None for p in top}
        alive = [p for p in top if chiefs[p]]
        if len(alive) == 1:
            return alive[0], " (tiebreaker: the only Commander in play)"
    return None, ""


def describe(event: Event) -> str | None:
    """A sentence for this module's events (None for others)."""
    match event:
        case ZoneControlled():
            if event.player is None:
                how = "contested" if event.contested else "held by nobody"
                return f"{event.zone}: {how}."
            verb = "dominates" if event.dominated else "controls"
            return f"Player {event.player + 1} {verb} {event.zone}: {event.points} point(s)."
        case C4KillBox():
            return (
                f"Player {event.player + 1}'s Commander is in the Kill Box: his opponent gains"
                f" {event.points} CP."
            )
        case C4PointsScored():
            gains = "-".join(map(str, event.gains))
            totals = "-".join(map(str, event.totals))
            return f"Round {event.round} scores {gains} {event.unit}: {totals} in all."
    return None
