"""Agents that play C4 (``confrontation.c4``, the unit-based ruleset): random and greedy.

Both answer ``choose(view, question, legal)`` like the engine's agents, ``view`` being the
player's :func:`confrontation.c4.views.redact` of the game. Their dice are keyed to the
number of answers they have given (``decisions``), so a game resumed from its record goes on
exactly as it would have (:func:`confrontation.sim.c4game.play_c4` sets ``decisions``).

- :class:`C4RandomAgent`: a uniformly random legal answer.
- :class:`C4GreedyAgent`: engaged units fight; a unit with marksmen shoots, without moving,
  the salvo that is expected to do the most damage (leader-to-leader range on the tape, the
  universal table); otherwise it assaults the nearest enemy unit within twice its Movement,
  or runs towards the nearest one — weighing each assault by the exact chance of passing its
  Courage test against Fear and the cost of a rout (:func:`assault_worth`): a poor chance is
  no assault (a shot first, another target, or holding); the rest (sequences, cards,
  Authority) as listed, the
  first active player being itself. In a scenario (``state.battle``, ``c4.battle``) it plays
  for the objectives first (:func:`objective_action`): a unit holding a zone stays in it
  (shooting or assaulting its contesters), the others go for the zone worth the most to them
  for the distance (the Commander's unit for the one he would dominate), assaulting an enemy
  unit that holds or contests it on the way; an enemy Commander's unit within reach is
  assaulted first (the pack's assassination victory).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from confrontation.agents.random import uniform_index
from confrontation.c4 import battle as scenario
from confrontation.c4 import morale, tactical
from confrontation.c4.actions import enemies, unit_gap, unit_mov
from confrontation.c4.choices import ChooseFirst, DominateZone, Raise, UnitAction
from confrontation.c4.resolution import minimum_roll
from confrontation.c4.salvo import shot_difficulty
from confrontation.c4.state import C4State, Unit, Zone
from confrontation.dice import SeededRoller
from confrontation.engine.core.questions import Choice, Question


class C4RandomAgent:
    """Any legal answer, each with the same chance."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.decisions = 0

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        roller = SeededRoller.keyed(self.seed, f"c4-random-{self.decisions}")
        self.decisions += 1
        return legal[uniform_index(roller, len(legal))]


def success_chance(action: int, difficulty: int) -> Fraction:
    """The chance that one die succeeds (its first face; re-rolled 6s ignored)."""
    need = minimum_roll(action, difficulty)
    return Fraction(7 - need, 6)


ASSAULT_GAIN = Fraction(1)
"""What an assault that takes place is worth to the greedy (the unit engages)."""
ROUT_COST = Fraction(1)
"""What the assaulting unit's rout costs it (its activation lost, a rally test or a flight
next round): an assault whose Courage test fails at least half the time (no Fear of its own
answering) is not worth it."""
TARGET_ROUT_GAIN = Fraction(1, 2)
"""What the assaulted unit's rout is worth (it flees before the assault)."""


def pass_chance(state: C4State, tester: str, enemy: str) -> Fraction | None:
    """The chance that ``tester`` passes the assault's test against ``enemy`` (None: it takes
    none — no Fear, immune, or the data names no such test), read as ``c4.morale.assault_test``
    reads the rules."""
    test = morale.facing(state, tester, enemy, morale.default_morale())
    if test is None or test.immune:
        return None
    return morale.courage_chance(test.value, test.fear, test.dice)


def assault_worth(state: C4State, unit_id: str, target: str) -> Fraction:
    """The greedy's value of assaulting ``target`` (``# C4 Moving a Unit > Assault``, the test
    of ``data/c4/morale.toml``): the chance ``p`` the unit passes its Courage test (1 with
    none) times :data:`ASSAULT_GAIN` plus, if the target then tests, its chance of failing
    times :data:`TARGET_ROUT_GAIN`; less ``(1 - p)`` × :data:`ROUT_COST`."""
    rules = morale.default_morale()
    p = Fraction(1)
    if "assaulting" in rules.tests:
        p = pass_chance(state, unit_id, target) or Fraction(1)
    gain = ASSAULT_GAIN
    if "assaulted" in rules.tests:
        theirs = pass_chance(state, target, unit_id)
        if theirs is not None:
            gain += (1 - theirs) * TARGET_ROUT_GAIN
    return p * gain - (1 - p) * ROUT_COST


def expected_salvo(state: C4State, unit_id: str, target: str) -> float:
    """The damage the unit's salvos at ``target`` are expected to do (every marksman taken
    to see it; 0 out of range)."""
    total = 0.0
    leader = state.fighter(state.unit(unit_id).leader)
    their = state.fighter(state.unit(target).leader)
    distance = max(
        ((leader.x - their.x) ** 2 + (leader.y - their.y) ** 2) ** 0.5
        - leader.radius
        - their.radius,
        0.0,
    )
    targets = state.members(target)
    res = max((s.res for f in targets if (s := state.stats(f.profile))), default=0)
    for f in state.members(unit_id):
        stats = state.stats(f.profile)
        if not f.ranged or stats is None or stats.ranged_dice < 1:
            continue
        difficulty = shot_difficulty(distance, stats.reach)
        if difficulty is None:
            continue
        hit = success_chance(stats.ranged, difficulty)
        wound = success_chance(stats.ranged_strength, res)
        total += float(stats.ranged_dice * hit * wound)
    return total


class C4GreedyAgent:
    """The greedy C4 player (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.decisions = 0
        self.reason: str | None = None
        """Why the last answer was chosen, in one line (the browser's hint shows it)."""

    def choose(self, state: C4State, question: Question, legal: Sequence[Choice]) -> Choice:
        self.decisions += 1
        self.reason = None
        me = question.player
        for c in legal:
            if isinstance(c, ChooseFirst) and c.player == me:
                self.reason = "it takes the first activation itself"
                return c
        if any(isinstance(c, Raise) for c in legal):
            self.reason = "it always re-rolls a 6"
            return next(c for c in legal if isinstance(c, Raise))
        spots = [c for c in legal if isinstance(c, DominateZone)]
        if spots and me is not None:  # CP-DOMINATE: the element adding the most CP
            self.reason = "the element whose domination adds the most CP"
            return dominate_choice(state, me, spots)
        acts = [c for c in legal if isinstance(c, UnitAction)]
        if not acts:
            self.reason = "it takes the first answer listed"
            return legal[0]
        return self._act(state, acts)

    def _act(self, state: C4State, acts: list[UnitAction]) -> UnitAction:
        unit_id = acts[0].unit
        unit = state.unit(unit_id)
        if unit.engaged:
            self.reason = "an engaged unit fights"
            return next(a for a in acts if a.action == "hold")
        shots = [a for a in acts if a.action == "walk_shoot"]
        best: tuple[float, UnitAction] | None = None
        for a in shots:
            assert a.target is not None
            value = expected_salvo(state, unit_id, a.target)
            if value > 0 and (best is None or value > best[0]):
                best = (value, a)
        aim = objective_action(state, unit, acts, best[1] if best is not None else None)
        if aim is not None:
            self.reason = "the scenario's objectives come first"
            return aim
        if best is not None:
            self.reason = f"the salvo expected to do the most damage ({best[0]:.2f} points)"
            return best[1]
        foes = sorted(enemies(state, unit), key=lambda e: (unit_gap(state, unit_id, e.id), e.id))
        if not foes:
            self.reason = "no enemy is left"
            return next(a for a in acts if a.action == "hold")
        reach = 2 * unit_mov(state, unit_id)
        worth = {e.id: assault_worth(state, unit_id, e.id) for e in foes}
        # the assault worth the most among those in reach (the nearest among equals), if the
        # Courage test makes it worth trying at all
        assaults = [
            (-worth[e.id], i, a)
            for i, e in enumerate(foes)
            if unit_gap(state, unit_id, e.id) <= reach and worth[e.id] > 0
            for a in acts
            if a.action == "assault" and a.target == e.id
        ]
        if assaults:
            self.reason = (
                "the enemy unit within twice its Movement most worth assaulting, "
                "its Courage test against Fear counted"
            )
            return min(assaults, key=lambda t: (t[0], t[1]))[2]
        # run towards the nearest enemy worth assaulting; none: the nearest (a poor chance in
        # reach: hold, and let the enemy come)
        goals = [e for e in foes if worth[e.id] > 0]
        if not goals:
            if unit_gap(state, unit_id, foes[0].id) <= reach:
                self.reason = "its Courage test makes every assault in reach a poor chance"
                return next(a for a in acts if a.action == "hold")
            goals = foes
        nearest = goals[0]
        their = state.fighter(nearest.leader)
        runs = [a for a in acts if a.action == "run"]
        if not runs:
            self.reason = "it takes the first action listed"
            return acts[0]
        self.reason = "no shot and no assault worth it in reach: it runs towards the nearest"
        return min(runs, key=lambda a: ((a.x - their.x) ** 2 + (a.y - their.y) ** 2, a.x, a.y))


def dominate_choice(state: C4State, player: int, spots: Sequence[DominateZone]) -> DominateZone:
    """The element whose domination adds the most CP over its control (the first offered
    among equals)."""
    names = [c.zone for c in spots]
    zones = [z for z in scenario.could_dominate(state, player) if z.name in names]
    if not zones:
        return spots[0]
    best = scenario.best_domination(state, player, zones)
    return next(c for c in spots if c.zone == best.name)


SHARED = 0.3
"""A zone the unit holds with another of its player's units is worth this share of its value
to it (the other may go elsewhere)."""
WHOLE_TABLE = 0.8
"""A zone covering this share of the table or more (Bloodbath's battlefield) is no place to
go to: the greedy fights there as in the default battle."""


def zone_value(state: C4State, zone: Zone, unit: Unit) -> int:
    """What the zone is worth to the unit's player: its control points, or its domination
    points for the Commander's unit; in a chapter-20 ``conditions`` battle the VP of the
    conditions naming it (``commander-in-area`` only for the Commander's unit)."""
    me = unit.owner
    value = zone.control[me] if me < len(zone.control) else 0
    chief = tactical.commander(state, me)
    leads = chief is not None and chief.unit == unit.id
    if leads and me < len(zone.dominate):
        value = max(value, zone.dominate[me])
    battle = state.battle
    met = set(battle.met) if battle is not None else set()
    for c in battle.conditions if battle is not None else ():
        if c.when == "round" and (c.id, me) in met:
            continue  # XX-A-4: once met, met for good; nothing more to gain there
        mine = c.area == zone.name and (not c.players or me in c.players)
        if mine and (c.kind == "area" or (c.kind == "commander-in-area" and leads)):
            value += c.vp
    return value


def zone_goal(state: C4State, zone: Zone, unit: Unit) -> tuple[float, float]:
    """Where the unit's leader goes for the zone: its centre; for a flag (impassable) the
    point of its edge nearest the leader, in base contact."""
    shape = scenario.shape(zone)
    cx, cy = shape.centroid.x, shape.centroid.y
    if zone.kind != "flag":
        return cx, cy
    leader = state.fighter(unit.leader)
    d = math.hypot(leader.x - cx, leader.y - cy) or 1.0
    reach = shape.exterior.distance(shape.centroid) + leader.radius + 0.3
    return cx + (leader.x - cx) * reach / d, cy + (leader.y - cy) * reach / d


LATE = 0.2
"""An area scored after the last round that the unit cannot reach before then is worth this
share of its value."""
OUTNUMBERED = 0.5
"""An area whose enemy holders would still have as many fighters in it as the player once the
unit is there is worth this share of its value (it must fight for it)."""


def area_worth(state: C4State, zone: Zone, unit: Unit, value: int, runs: float) -> float:
    """What going to an area scored at the end (III-A-2, chapter 20: the player with more
    fighters of holding units in it) is worth: its value if the unit gets there in the
    rounds left (``runs``: the distance in runs of 2 × MOV) and its player then outnumbers the
    enemy holders there; :data:`LATE` / :data:`OUTNUMBERED` shares otherwise; a little less
    the farther it is."""
    held = scenario.holders(state, zone)
    mine = held.get(unit.owner, 0) + len(state.members(unit.id))
    theirs = max((n for p, n in held.items() if p != unit.owner), default=0)
    left = state.rounds - state.round + 1
    worth = float(value)
    if math.ceil(runs) > left:
        worth *= LATE
    if mine <= theirs:
        worth *= OUTNUMBERED
    return worth / (1.0 + 0.05 * runs)


def _covers_table(state: C4State, zone: Zone) -> bool:
    return bool(scenario.shape(zone).area >= WHOLE_TABLE * state.width * state.height)


def _assault(state: C4State, acts: Sequence[UnitAction], target: str) -> UnitAction | None:
    """The assault on ``target`` if it is offered and worth its Courage test
    (:func:`assault_worth` above 0)."""
    if not acts or assault_worth(state, acts[0].unit, target) <= 0:
        return None
    return next((a for a in acts if a.action == "assault" and a.target == target), None)


def _in_or_near(state: C4State, unit_id: str, zone: Zone) -> bool:
    return any(scenario.touches(f, zone) for f in state.members(unit_id))


def objective_action(
    state: C4State, unit: Unit, acts: Sequence[UnitAction], shot: UnitAction | None
) -> UnitAction | None:
    """The action a scenario's objectives call for (None: fight as in the default battle).

    1. an enemy Commander's unit within assault reach is assaulted (assassination, 003);
    2. each zone worth points is weighed: one the unit holds at its value (times
       :data:`SHARED` if another of its player's units holds it too), one it does not hold at
       value / (1 + rounds to get there), left out if its player controls it with another
       unit; the best held one: the unit stays, assaulting an enemy unit in reach that
       contests the zone, else shooting (``shot``), else holding;
    3. the best one not held: it assaults
       an enemy unit in reach holding or contesting that zone, else walks there when a walk
       reaches it, else runs towards it."""
    battle = state.battle
    if battle is None or unit.engaged:
        return None
    reach = 2 * unit_mov(state, unit.id)
    foes = enemies(state, unit)
    for p in range(state.players):  # 1. the enemy Commander (assassination)
        chief = tactical.commander(state, p) if p != unit.owner else None
        if chief is not None and unit_gap(state, unit.id, chief.unit) <= reach:
            hit = _assault(state, acts, chief.unit)
            if hit is not None:
                return hit
    zones = [
        z for z in battle.zones if zone_value(state, z, unit) > 0 and not _covers_table(state, z)
    ]
    if not zones:
        return None
    leader = state.fighter(unit.leader)
    mov = unit_mov(state, unit.id)
    mine = [u for u in state.units_of(unit.owner) if u.id != unit.id]
    best: tuple[float, Zone, tuple[float, float]] | None = None
    for z in zones:
        value = zone_value(state, z, unit)
        shared = any(scenario.holds(state, u.id, z) for u in mine)
        if scenario.holds(state, unit.id, z):  # 2. worth staying: less so if others hold it
            worth = value * (SHARED if shared else 1.0)
            gx, gy = leader.x, leader.y
        else:  # 3. worth going to, for the distance
            owner, _ = scenario.controller(state, z)
            if owner == unit.owner and shared:
                continue
            gx, gy = zone_goal(state, z, unit)
            far = math.hypot(gx - leader.x, gy - leader.y)
            if z.kind == "area" and battle.scoring != "round":
                worth = area_worth(state, z, unit, value, far / max(reach, 1.0))
            else:
                worth = value / (1.0 + far / max(reach, 1.0))
        if best is None or worth > best[0]:
            best = (worth, z, (gx, gy))
    if best is not None and scenario.holds(state, unit.id, best[1]):
        z = best[1]
        contesters = [e for e in foes if _in_or_near(state, e.id, z)]
        for e in sorted(contesters, key=lambda e: (unit_gap(state, unit.id, e.id), e.id)):
            if unit_gap(state, unit.id, e.id) <= reach and (hit := _assault(state, acts, e.id)):
                return hit
        if shot is not None:
            return shot
        return next(a for a in acts if a.action == "hold")
    if best is None:
        return None
    _, zone, (gx, gy) = best
    holders = [e for e in foes if _in_or_near(state, e.id, zone)]
    for e in sorted(holders, key=lambda e: (unit_gap(state, unit.id, e.id), e.id)):
        if unit_gap(state, unit.id, e.id) <= reach and (hit := _assault(state, acts, e.id)):
            return hit
    far = math.hypot(gx - leader.x, gy - leader.y)
    kind = "walk" if far <= mov else "run"
    if not any(a.action == kind for a in acts):
        return None
    x = min(max(gx, 0.0), state.width)
    y = min(max(gy, 0.0), state.height)
    return UnitAction(unit.id, kind, round(x, 3), round(y, 3))
