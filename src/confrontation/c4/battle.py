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

The pack's end (CLARIFICATIONS §8; docs/rulings.md "002 — scenarios in a C4 game"): the
**assassination victory** (:func:`assassinated`: every player had a Commander and at most one
still has one — an Incarnate with Authority, ``tactical.commander``; checked at the end of
every activation), and the four **tiebreakers** (:func:`tiebreakers`: Commanders in play, CP,
army points in play doubled in the scenario's area, army points destroyed), units valued by
the pack's 50 % rule (:func:`unit_value`).

Chapter-20 ``conditions`` scenarios (scoring "conditions", :func:`score_conditions`): the
kinds that fit units — ``area``, ``commander-in-area``, ``commander-alive``,
``kill-commander``, ``inflict-losses`` — checked at the end of every round (``round``: met for
good) and after the last one; the Commander is the one designated at the start
(``Battle.chiefs``, XX-B-1).

What to call: :func:`holds`, :func:`controller` (pure), :func:`score` (the control phase's
scoring: events and the new state), :func:`final_winner` (the end of the game by points and
tiebreakers), :func:`with_setup` (the Commanders and army points a battle needs, from the
cards), :func:`describe` (a sentence for this module's events).

Sections (docs/rules-index.toml): C4-PLAYING-A-GAME.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache

import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from confrontation.c4 import tactical
from confrontation.c4.cards import Card
from confrontation.c4.events import C4FlagRemoved, C4KillBox, C4PointsScored, ZoneControlled
from confrontation.c4.state import Battle, C4State, Condition, Fighter, Zone
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


@lru_cache(maxsize=256)
def _grown(zone: Zone) -> tuple[BaseGeometry, tuple[float, float, float, float]]:
    """The zone's footprint grown by EPS (prepared: asked again and again) and its box."""
    grown = shape(zone).buffer(EPS)
    shapely.prepare(grown)
    x0, y0, x1, y1 = grown.bounds
    return grown, (x0, y0, x1, y1)


def inside(f: Fighter, zone: Zone) -> bool:
    """The fighter counts in the zone: wholly inside (area, zone), within 10 cm (flag)."""
    where = shape(zone)
    if zone.kind == "flag":
        return bool(where.distance(Point(f.x, f.y)) - f.radius <= FLAG_REACH_CM + EPS)
    grown, (x0, y0, x1, y1) = _grown(zone)
    # the disc reaches its circle's box (it has a vertex on each axis): a box not inside
    # the zone's is not wholly inside (1e-9 cm spared for rounding)
    r = f.radius - 1e-9
    if f.x - r < x0 or f.x + r > x1 or f.y - r < y0 or f.y + r > y1:
        return False
    return bool(grown.contains(_disc(f)))


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


def could_dominate(state: C4State, player: int) -> list[Zone]:
    """CP-DOMINATE: the elements the player's Commander would dominate now — controlled by the
    player, the Commander placed to dominate, and dominating worth more than controlling; he
    dominates only one (CLARIFICATIONS §8), so with two or more the player chooses
    (``Kind.DOMINATE``, ``c4.control``)."""
    battle = state.battle
    if battle is None:
        return []
    out = []
    for z in battle.zones:
        if z.kind == "area":
            continue
        if _points(z.dominate, player) <= _points(z.control, player):
            continue
        if dominates(state, player, z) and controller(state, z)[0] == player:
            out.append(z)
    return out


def best_domination(state: C4State, player: int, zones: list[Zone]) -> Zone:
    """The element worth the most over its control (the first in the file among equals)."""
    return max(
        zones,
        key=lambda z: (_points(z.dominate, player) - _points(z.control, player), -zones.index(z)),
    )


def must_choose(state: C4State) -> int | None:
    """The first player whose Commander could dominate several elements and who has not yet
    named the one he dominates at this scoring (None: nobody)."""
    battle = state.battle
    if battle is None:
        return None
    named = {p for p, _ in battle.dominating}
    for player in range(state.players):
        if player not in named and len(could_dominate(state, player)) > 1:
            return player
    return None


def score(state: C4State) -> tuple[C4State, list[Event]]:
    """Score the battle's zones now (the control phase): events and the points added; the
    players' answers to ``Kind.DOMINATE`` are used and cleared."""
    battle = state.battle
    assert battle is not None
    gains = [0] * state.players
    events: list[Event] = []
    owners: dict[str, tuple[int | None, bool]] = {
        z.name: controller(state, z) for z in battle.zones
    }
    # a Commander dominates at most one element: the player's choice among several (CP-DOMINATE)
    chosen: dict[int, str] = {}
    named = dict(battle.dominating)
    for player in range(state.players):
        options = could_dominate(state, player)
        if not options:
            continue
        names = [z.name for z in options]
        pick = named.get(player)
        chosen[player] = pick if pick in names else best_domination(state, player, options).name
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
    return evolve(state, battle=evolve(battle, points=totals, dominating=())), events


def remove_flag(state: C4State, index: int) -> tuple[C4State, list[Event]]:
    """CP-INCURSION-SPECIAL-RULES: the battle's ``index``-th flag (in the file's order) taken
    off the table — its zone and its scenery piece (named as the flag)."""
    battle = state.battle
    assert battle is not None
    flags = [z for z in battle.zones if z.kind == "flag"]
    flag = flags[index]
    zones = tuple(z for z in battle.zones if z.name != flag.name)
    scenery = tuple(p for p in state.scenery if p.name != flag.name)
    battle = evolve(battle, zones=zones, removed=(*battle.removed, flag.name))
    return evolve(state, battle=battle, scenery=scenery), [C4FlagRemoved(state.round, flag.name)]


def removing_flag(state: C4State) -> bool:
    """Whether this control phase removes a flag at random first (Incursion: the end of round
    ``remove_flag_after``, once, with flags left)."""
    battle = state.battle
    if battle is None or not battle.remove_flag_after or battle.removed:
        return False
    flags = [z for z in battle.zones if z.kind == "flag"]
    return state.round == battle.remove_flag_after and bool(flags)


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


def with_setup(state: C4State, cards: Mapping[str, Card]) -> C4State:
    """The battle with each player's Commander at the start (``chiefs``) and each fighter's
    army points (``worth``: the card's cost per standard fighter, a special's own cost)."""
    battle = state.battle
    if battle is None:
        return state
    chiefs = tuple((c.id if (c := tactical.commander(state, p)) else "") for p in range(2))
    worth = []
    for f in state.fighters:
        card_id, _, profile = f.profile.partition("/")
        card = cards.get(card_id)
        if card is None:
            continue
        cost = card.cost if profile == card.standard.id else (card.profile(profile).cost or 0)
        worth.append((f.id, cost))
    return evolve(state, battle=evolve(battle, chiefs=chiefs, worth=tuple(worth)))


def commanders_in_play(state: C4State) -> tuple[int, ...]:
    """Per player, 1 if he still has a Commander (an Incarnate with Authority), else 0."""
    return tuple(int(tactical.commander(state, p) is not None) for p in range(state.players))


def assassinated(state: C4State) -> bool:
    """CP-ASSASSINATION-VICTORY (CLARIFICATIONS §8): in a pack battle where every player had a
    Commander, at most one player still has one."""
    battle = state.battle
    if battle is None or battle.scoring != "round" or not battle.chiefs:
        return False
    if not all(battle.chiefs):
        return False
    return sum(commanders_in_play(state)) <= 1


def _worth(battle: Battle) -> dict[str, int]:
    return dict(battle.worth)


def unit_value(state: C4State, unit_id: str, area: BaseGeometry | None = None) -> int:
    """CP-3RD-TIEBREAKER: the unit's army points in play — all of them while it keeps 50 % or
    more of its starting number (rounded up), half of them (rounded up) below, none when it
    is gone; doubled when all its remaining fighters are wholly inside ``area``."""
    battle = state.battle
    assert battle is not None
    worth = _worth(battle)
    unit = state.unit(unit_id)
    left = state.members(unit_id)
    if not left:
        return 0
    cost = sum(worth.get(f, 0) for f in unit.fighters)
    value = cost if len(left) >= math.ceil(len(unit.fighters) / 2) else math.ceil(cost / 2)
    if area is not None and all(area.buffer(EPS).contains(_disc(f)) for f in left):
        value *= 2
    return value


def tiebreak_area(state: C4State, player: int) -> BaseGeometry | None:
    """The scenario's area for the 3rd tiebreaker: every zone, the enemy's zones, within 10 cm
    of every flag, or none (``Battle.tiebreak``)."""
    battle = state.battle
    assert battle is not None
    shapes: list[BaseGeometry] = []
    for z in battle.zones:
        if battle.tiebreak == "flags" and z.kind == "flag":
            shapes.append(shape(z).buffer(FLAG_REACH_CM, quad_segs=16))
        elif z.kind == "zone" and (
            battle.tiebreak == "zones"
            or (battle.tiebreak == "enemy-zones" and z.side is not None and z.side != player)
        ):
            shapes.append(shape(z))
    if not shapes:
        return None
    area = shapes[0]
    for more in shapes[1:]:
        area = area.union(more)
    return area


def value_in_play(state: C4State, player: int) -> int:
    """CP-3RD-TIEBREAKER: the player's units' values, doubled in the scenario's area."""
    area = tiebreak_area(state, player)
    return sum(unit_value(state, u.id, area) for u in state.units if u.owner == player)


def value_destroyed(state: C4State, player: int) -> int:
    """CP-4TH-TIEBREAKER: the army points ``player`` destroyed — his opponents' units' cost
    less their value still in play (undoubled)."""
    battle = state.battle
    assert battle is not None
    worth = _worth(battle)
    total = 0
    for u in state.units:
        if u.owner != player:
            total += sum(worth.get(f, 0) for f in u.fighters) - unit_value(state, u.id)
    return total


def tiebreakers(state: C4State) -> tuple[int, tuple[int, ...], int | None]:
    """CP-1ST … CP-4TH-TIEBREAKER: the first that tells the players apart — (number, figures,
    winner); (5, the last figures, None) when all four leave them level."""
    battle = state.battle
    assert battle is not None
    players = range(state.players)
    figures = [
        commanders_in_play(state),  # CP-1ST-TIEBREAKER
        battle.points,  # CP-2ND-TIEBREAKER
        tuple(value_in_play(state, p) for p in players),  # CP-3RD-TIEBREAKER
        tuple(value_destroyed(state, p) for p in players),  # CP-4TH-TIEBREAKER
    ]
    for number, figure in enumerate(figures, start=1):
        best = max(figure)
        top = [p for p, v in enumerate(figure) if v == best]
        if len(top) == 1:
            return number, tuple(figure), top[0]
    return 5, tuple(figures[-1]), None


ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
TIEBREAK_WHAT = {
    1: "Commanders in play",
    2: "CP",
    3: "army points in play",
    4: "army points destroyed",
}


def final_winner(state: C4State) -> tuple[int | None, str]:
    """The winner at the end of the game and why: VP (areas, conditions) — the more wins,
    equal is a draw; the pack's CP — its four tiebreakers in order (CLARIFICATIONS §8)."""
    battle = state.battle
    assert battle is not None
    if battle.scoring != "round":
        best = max(battle.points)
        top = [p for p, n in enumerate(battle.points) if n == best]
        return (top[0], "") if len(top) == 1 else (None, "")
    number, figures, winner = tiebreakers(state)
    shown = "-".join(map(str, figures))
    if winner is None:
        return None, f" (every tiebreaker level: army points destroyed {shown})"
    if number == 2:  # the more CP: no tiebreaker to tell
        return winner, ""
    return winner, f" ({ORDINAL[number]} tiebreaker: {TIEBREAK_WHAT[number]} {shown})"


# --- chapter-20 victory conditions (scoring "conditions") --------------------------------------


def _chief(state: C4State, player: int) -> Fighter | None:
    """XX-B-1: the player's Commander designated at the start, if still on the battlefield."""
    battle = state.battle
    assert battle is not None
    if player >= len(battle.chiefs) or not battle.chiefs[player]:
        return None
    return next((f for f in state.fighters if f.id == battle.chiefs[player]), None)


def losses(state: C4State, player: int) -> int:
    """The army points of ``player``'s fighters no longer on the battlefield."""
    battle = state.battle
    assert battle is not None
    present = {f.id for f in state.fighters}
    mine = {f for u in state.units if u.owner == player for f in u.fighters}
    return sum(v for f, v in battle.worth if f in mine and f not in present)


def fulfils(state: C4State, condition: Condition, player: int) -> bool:
    """Whether ``player`` fulfils ``condition`` now (XX-A-4, XX-B-1)."""
    battle = state.battle
    assert battle is not None
    zones = {z.name: z for z in battle.zones}
    match condition.kind:
        case "area":
            return controller(state, zones[condition.area])[0] == player
        case "commander-in-area":
            chief = _chief(state, player)
            return chief is not None and inside(chief, zones[condition.area])
        case "commander-alive":
            return _chief(state, player) is not None
        case "kill-commander":
            return any(
                battle.chiefs[p] and _chief(state, p) is None
                for p in range(state.players)
                if p != player and p < len(battle.chiefs)
            )
        case "inflict-losses":
            mine = losses(state, player)
            return all(losses(state, p) > mine for p in range(state.players) if p != player)
    raise ValueError(f"condition kind {condition.kind!r} is not played in C4")


CONDITION_KINDS = (
    "area",
    "commander-in-area",
    "commander-alive",
    "kill-commander",
    "inflict-losses",
)
"""The chapter-20 condition kinds C4 units play (docs/rulings.md)."""


def score_conditions(state: C4State, last: bool) -> tuple[C4State, list[Event]]:
    """The end of a round: ``round`` conditions met are met for good; after the last round
    every condition is scored (``end`` ones as they stand) into VP."""
    battle = state.battle
    assert battle is not None
    met = set(battle.met)
    for c in battle.conditions:
        if c.when == "round":
            for p in range(state.players):
                concerned = not c.players or p in c.players
                if (c.id, p) not in met and concerned and fulfils(state, c, p):
                    met.add((c.id, p))
    battle = evolve(battle, met=tuple(sorted(met)))
    state = evolve(state, battle=battle)
    if not last:
        return state, []
    gains = [0] * state.players
    for c in battle.conditions:
        for p in range(state.players):
            if c.players and p not in c.players:
                continue
            ok = (c.id, p) in met if c.when == "round" else fulfils(state, c, p)
            if ok:
                gains[p] += c.vp
    totals = tuple(a + g for a, g in zip(battle.points, gains, strict=True))
    event = C4PointsScored(state.round, tuple(gains), totals, "VP")
    return evolve(state, battle=evolve(battle, points=totals)), [event]


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
        case C4FlagRemoved():
            return f"The flag {event.flag} is removed from the table at random (Incursion)."
        case C4PointsScored():
            gains = "-".join(map(str, event.gains))
            totals = "-".join(map(str, event.totals))
            return f"Round {event.round} scores {gains} {event.unit}: {totals} in all."
    return None
