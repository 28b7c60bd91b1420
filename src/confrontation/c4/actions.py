"""The unit actions (``# C4 Activating Unit``, ``# C4 Moving a Unit``, ``# C4 Moving Miniatures``):
the table's geometry (``c4.formation``, ``c4.unitmove``) applied to the game's state.

What to call: :func:`options` lists the :class:`~.choices.UnitAction` s an activated unit may
take (a finite menu; walk and run destinations, formations and orders may also be free
answers, judged by :func:`free_answer`); ``c4.fight.perform`` applies one (moves here,
salvos and combats there). The bridge to the table: :func:`members` (a unit as
``formation.Member`` s,
``engaged`` for those touching an enemy), :func:`surroundings` (the battlefield and the other
units), :func:`change_formation`, :func:`move_unit`, :func:`assault`, :func:`remove_fighters`
(losses, a fallen leader replaced by ``formation.new_leader``, units no longer in contact
disengaged).

The rules here: the action menu (walk; walk and/or ranged attack; run; assault; do nothing),
walk MOV / run 2×MOV / assault 2×MOV with the unit's MOV its slowest member's; a change of
formation at the beginning of the activation and, for a free unit, after its movement; the
leader's path round the obstacles, friendly scattered infantry and cavalry passed through,
the 1 cm stop, close formation kept (``unitmove.move_unit``); the assault (``unitmove.assault``:
distance round obstacles, failure → as close as possible in formation, success → scattered,
the fighters placed in contact in the player's order, several at once where asked); the
formation checked after every move (:class:`~.events.OutOfFormation`); no ranged attack, walk
or run for an engaged unit, no engaged target; a combat when the unit ends engaged.

Sections (docs/rules-index.toml): C4-ACTIVATING-UNIT, C4-MOVING-A-UNIT, C4-MOVING-MINIATURES,
C4-OBSTACLES, C4-ASSAULT, C4-UNITS.
"""

from __future__ import annotations

import math

from shapely.geometry import Point

from confrontation.c4 import formation as table_formation
from confrontation.c4 import unitmove
from confrontation.c4.choices import UnitAction
from confrontation.c4.events import (
    AssaultFailed,
    Disengaged,
    Engaged,
    FighterEliminated,
    FormationChanged,
    LeaderReplaced,
    OutOfFormation,
    UnitMoved,
)
from confrontation.c4.formation import Member
from confrontation.c4.handlers import Transition
from confrontation.c4.state import C4State, Fighter, Formation, Unit
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.table.field import scenery_of
from confrontation.geometry import CONTACT_TOLERANCE_CM, Scenery, Table

STOP_GAP = unitmove.STOP_CM
"""``# C4 Moving a Unit > Obstacles``: a unit that cannot move entirely through stops 1 cm short."""
CONTACT = CONTACT_TOLERANCE_CM
"""Two bases whose edges are this close (cm) are in contact."""
DIRECTIONS = 8
GOAL_SHARES = (1.0, 0.9, 0.75, 0.5, 0.25)
"""Ruling: a destination the leader cannot reach (inside a base or an element) — the unit heads
for the nearest of these shares of the way to it that it can reach."""
"""Walk and run destinations offered: this many compass directions, plus towards each enemy."""


def unit_mov(state: C4State, unit_id: str) -> float:
    """``# C4 Moving a Unit``: the unit's Movement is that of its slowest member."""
    return unitmove.unit_mov(f.mov for f in state.members(unit_id))


def gap(a: Fighter, b: Fighter) -> float:
    """Edge-to-edge distance between two bases (``# C4 Measuring Distance``), negative if they
    overlap."""
    return math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius


def unit_gap(state: C4State, a: str, b: str) -> float:
    """The shortest edge-to-edge distance between two units' fighters."""
    return min(gap(f, g) for f in state.members(a) for g in state.members(b))


def in_contact(state: C4State, a: str, b: str) -> bool:
    return unit_gap(state, a, b) <= CONTACT


def enemies(state: C4State, unit: Unit) -> list[Unit]:
    return [u for p in range(state.players) if p != unit.owner for u in state.units_of(p)]


def has_ranged(state: C4State, unit_id: str) -> bool:
    """``# C4 Unit Ranged Attack``: at least one fighter has ranged combat characteristics."""
    return any(f.ranged for f in state.members(unit_id))


# --- the bridge to the table's geometry ------------------------------------------------------


def _table_formation(value: str) -> table_formation.Formation:
    return table_formation.Formation(str(value))


def members(state: C4State, unit_id: str) -> tuple[Member, ...]:
    """The unit's fighters as the table's :class:`~.formation.Member` s; ``engaged``: in
    contact with an enemy fighter (exempt from the scattered formation)."""
    unit = state.unit(unit_id)
    foes = [f for f in state.fighters if state.unit(f.unit).owner != unit.owner]
    out = []
    for f in state.members(unit_id):
        touching = any(gap(f, e) <= CONTACT for e in foes)
        out.append(Member(f.id, f.x, f.y, f.radius, f.standard, f.incarnate, touching))
    return tuple(out)


def other_unit(state: C4State, unit_id: str) -> unitmove.OtherUnit:
    unit = state.unit(unit_id)
    return unitmove.OtherUnit(
        unit.id,
        str(unit.owner),
        unit.category,
        _table_formation(unit.formation),
        members(state, unit_id),
    )


def surroundings(state: C4State, unit_id: str, stop_short: bool = False) -> unitmove.Surroundings:
    """What the unit's move must go round: the battlefield and every other unit.

    ``stop_short`` (a walk or a run, ruling): every enemy base grown by 1 cm is an obstacle
    too, so the unit "stops 1 cm in front of" an enemy unit it cannot move through (``# C4
    Moving a Unit > Obstacles``), never next to it — except bases already that close."""
    others = tuple(
        other_unit(state, u.id) for u in state.units if u.id != unit_id and state.members(u.id)
    )
    scenery: tuple[Scenery, ...] = tuple(scenery_of(p) for p in state.scenery)
    if stop_short:
        owner = state.unit(unit_id).owner
        own = state.members(unit_id)
        near: list[Scenery] = []
        for f in state.fighters:
            if state.unit(f.unit).owner == owner:
                continue
            if any(gap(f, m) < STOP_GAP for m in own):
                continue
            disc = Point(f.x, f.y).buffer(f.radius + STOP_GAP - 2 * CONTACT, quad_segs=8)
            near.append(Scenery(f"stop:{f.id}", disc, "flat", passable=False))
        scenery = (*scenery, *near)
    return unitmove.Surroundings(Table(state.width, state.height), scenery, others)


def _place(state: C4State, placed: tuple[Member, ...]) -> C4State:
    """Write the members' positions back into the state."""
    return state.with_fighters({m.id: evolve(state.fighter(m.id), x=m.x, y=m.y) for m in placed})


def _moved_event(state: C4State, before: C4State, unit_id: str) -> list[Event]:
    leader = state.unit(unit_id).leader
    a, b = before.fighter(leader), state.fighter(leader)
    if all(
        math.isclose(f.x, before.fighter(f.id).x) and math.isclose(f.y, before.fighter(f.id).y)
        for f in state.members(unit_id)
    ):
        return []
    return [UnitMoved(unit_id, round(b.x - a.x, 3), round(b.y - a.y, 3))]


def formation_problems(state: C4State, unit_id: str) -> list[str]:
    """``# C4 Units > Unit formation``: why the unit is not in formation (empty: it is)."""
    unit = state.unit(unit_id)
    if not state.members(unit_id):
        return []
    return table_formation.formation_problems(
        members(state, unit_id), unit.leader, _table_formation(unit.formation), unit.facing
    )


def checked(state: C4State, unit_id: str) -> list[Event]:
    """The formation checked after a move (``# C4 Units > Unit formation``)."""
    problems = formation_problems(state, unit_id)
    return [OutOfFormation(unit_id, tuple(problems))] if problems else []


def formation_change(state: C4State, unit_id: str, to: str) -> tuple[Member, ...] | None:
    """The unit laid out in formation ``to`` round its leader (``# C4 Moving Miniatures``),
    clear of the other units and on the battlefield; None if it has no room there."""
    unit = state.unit(unit_id)
    sur = surroundings(state, unit_id)
    obstacles = [table_formation.member_base(m).polygon for u in sur.units for m in u.members]
    return table_formation.change_formation(
        members(state, unit_id),
        unit.leader,
        _table_formation(to),
        unit.facing,
        obstacles=obstacles,
        table=sur.area,
    )


def change_formation(state: C4State, unit_id: str, to: str) -> Transition:
    """``# C4 Moving Miniatures``: a unit can change formation at the beginning of its
    activation, and a free unit after any movement (ruling: an engaged unit keeps its
    formation; a change with no room is not made)."""
    unit = state.unit(unit_id)
    if unit.engaged or Formation(to) is unit.formation:
        return state, []
    placed = formation_change(state, unit_id, to)
    if placed is None:
        return state, []
    before = state
    state = _place(state, placed).with_unit(evolve(unit, formation=Formation(to)))
    return state, [FormationChanged(unit_id, str(to)), *_moved_event(state, before, unit_id)]


def move_unit(state: C4State, unit_id: str, x: float, y: float, kind: str = "walk") -> Transition:
    """``# C4 Moving a Unit``: walk (MOV) or run (2×MOV) the leader towards (x, y) round the
    obstacles; the unit ends in its formation (``unitmove.move_unit``)."""
    unit = state.unit(unit_id)
    lead = state.fighter(unit.leader)
    sur = surroundings(state, unit_id, stop_short=True)
    moved = None
    for share in GOAL_SHARES:  # a goal no base can reach: the nearest point of the way that can
        goal = (lead.x + (x - lead.x) * share, lead.y + (y - lead.y) * share)
        moved = unitmove.move_unit(
            members(state, unit_id),
            unit.leader,
            goal,
            unitmove.MoveKind(kind),
            unit_mov(state, unit_id),
            _table_formation(unit.formation),
            owner=str(unit.owner),
            category=unit.category,
            surroundings=sur,
        )
        if moved is not None and moved.distance > 1e-9:
            break
    if moved is None:
        return state, []
    before = state
    state = _place(state, moved.members).with_unit(evolve(unit, facing=round(moved.facing, 6)))
    return state, [*_moved_event(state, before, unit_id), *checked(state, unit_id)]


def options(state: C4State, unit_id: str) -> list[UnitAction]:
    """Every action the activated unit may take (a finite menu of destinations)."""
    unit = state.unit(unit_id)
    hold = [UnitAction(unit_id, "hold")]
    foes = enemies(state, unit)
    if unit.engaged:  # an engaged unit fights, or assaults an enemy it is in contact with
        return hold + [
            UnitAction(unit_id, "assault", target=e.id)
            for e in foes
            if e.id in unit.engaged or in_contact(state, unit_id, e.id)
        ]
    other = Formation.CLOSE if unit.formation is Formation.SCATTERED else Formation.SCATTERED
    if formation_change(state, unit_id, other) is not None:
        hold.append(UnitAction(unit_id, "hold", formation=str(other)))
    leader = state.fighter(unit.leader)
    mov = unit_mov(state, unit_id)
    moves: list[UnitAction] = []
    for action, reach in (("walk", mov), ("run", 2 * mov)):
        spots = []
        for k in range(DIRECTIONS):
            a = 2 * math.pi * k / DIRECTIONS
            spots.append((leader.x + reach * math.cos(a), leader.y + reach * math.sin(a)))
        for e in foes:  # towards each enemy leader, stopping short of his base
            el = state.fighter(e.leader)
            d = math.hypot(el.x - leader.x, el.y - leader.y)
            short = min(reach, d - leader.radius - el.radius - 2 * STOP_GAP)
            if short > 0.5:
                spots.append(
                    (
                        leader.x + (el.x - leader.x) * short / d,
                        leader.y + (el.y - leader.y) * short / d,
                    )
                )
        kept = dict.fromkeys(  # one answer per point: a foe straight ahead repeats a direction
            (round(x, 3), round(y, 3))
            for x, y in spots
            if 0 <= x <= state.width and 0 <= y <= state.height
        )
        moves += [UnitAction(unit_id, action, x, y) for x, y in kept]
    shots: list[UnitAction] = []
    if has_ranged(state, unit_id):
        for e in foes:
            if not e.engaged:
                shots.append(UnitAction(unit_id, "walk_shoot", leader.x, leader.y, e.id))
    assaults = [UnitAction(unit_id, "assault", target=e.id) for e in foes]
    return hold + moves + shots + assaults


def free_answer(state: C4State, act: UnitAction) -> str | None:
    """A walk, run or walk-and-shoot towards any point of the battlefield, any formation
    change that has room, any order of the unit's fighters or profiles, is as good as a
    listed one (the menu of :func:`options` is a finite sample): None if ``act`` is one."""
    unit = state.unit(act.unit)
    base = UnitAction(act.unit, act.action, act.x, act.y, act.target)
    listed = options(state, act.unit)
    if act.action not in ("walk", "run", "walk_shoot", "hold", "assault"):
        return f"{act!r} is not one of the unit's actions"
    same = [o for o in listed if o.action == act.action and o.target == act.target]
    if not same:
        return f"unit {act.unit} cannot {act.action} now"
    if act.action in ("hold", "assault") and (act.x, act.y) != (0.0, 0.0):
        return f"a unit that does {act.action} names no destination"
    if act.action in ("walk", "run", "walk_shoot"):
        if not (math.isfinite(act.x) and math.isfinite(act.y)):
            return "a destination must be a point of the battlefield"
        if not (0 <= act.x <= state.width and 0 <= act.y <= state.height):
            return "a destination must be a point of the battlefield"
    for name, value in (("formation", act.formation), ("after", act.after)):
        if value is not None and value not in (Formation.SCATTERED, Formation.CLOSE):
            return f"{name} must be scattered or close, not {value!r}"
    if act.formation is not None and act.formation != unit.formation:
        if unit.engaged:
            return "an engaged unit keeps its formation"
        if formation_change(state, act.unit, act.formation) is None:
            return f"unit {act.unit} has no room to take the {act.formation} formation"
    if act.after is not None and act.action not in ("walk", "run", "walk_shoot"):
        return "a change of formation after the movement follows a walk or a run"
    fighters = {f.id for f in state.members(act.unit)}
    profiles = {f.profile for f in state.members(act.unit)}
    if len(set(act.order)) != len(act.order) or not set(act.order) <= fighters | profiles:
        return "the order names each of the unit's fighters or profiles at most once"
    if not set(act.several) <= fighters or not set(act.hold_fire) <= profiles:
        return "several and hold_fire name the unit's fighters and profiles"
    if base != act and act.action == "assault" and not set(act.order) <= fighters:
        return "an assault's order names the unit's fighters"
    return None


def _engage(state: C4State, a: str, b: str) -> C4State:
    ua, ub = state.unit(a), state.unit(b)
    state = state.with_unit(
        evolve(ua, engaged=tuple(sorted({*ua.engaged, b})), formation=Formation.SCATTERED)
    )
    return state.with_unit(evolve(ub, engaged=tuple(sorted({*ub.engaged, a}))))


def assault(
    state: C4State,
    unit_id: str,
    target: str,
    order: tuple[str, ...] = (),
    several: tuple[str, ...] = (),
) -> Transition:
    """``# C4 Moving a Unit > Assault`` (``unitmove.assault``): the distance round obstacles
    against 2×MOV; failure → as close as possible in formation; success → scattered, the
    fighters placed in contact in the player's ``order``, ``several`` engaging several
    fighters at once; both units engaged."""
    unit = state.unit(unit_id)
    done = unitmove.assault(
        members(state, unit_id),
        unit.leader,
        unit_mov(state, unit_id),
        other_unit(state, target),
        owner=str(unit.owner),
        category=unit.category,
        formation=_table_formation(unit.formation),
        surroundings=surroundings(state, unit_id),
        order=list(order) or None,
        several=several,
    )
    before = state
    state = _place(state, done.members)
    moved = _moved_event(state, before, unit_id)
    if not done.success:
        distance = -1.0 if done.distance is None else round(done.distance, 3)
        return state, [AssaultFailed(unit_id, target, distance), *moved, *checked(state, unit_id)]
    state = _engage(state, unit_id, target)
    return state, [*moved, Engaged(unit_id, target), *checked(state, unit_id)]


def remove_fighters(state: C4State, fallen: tuple[str, ...]) -> Transition:
    """``# C4 Damage``: the eliminated fighters leave the battlefield; ``# C4 Units``: a fallen
    leader is replaced (``formation.new_leader``: an Incarnate, else the standard fighter
    closest to him, else the closest special); units no longer in contact are free of each
    other (ruling)."""
    events: list[Event] = []
    if not fallen:
        return state, events
    gone = set(fallen)
    before = state
    for fid in fallen:
        events.append(FighterEliminated(fid, state.fighter(fid).unit))
    state = evolve(state, fighters=tuple(f for f in state.fighters if f.id not in gone))
    for unit in state.units:
        if unit.leader not in gone:
            continue
        remaining = members(state, unit.id)
        old = before.fighter(unit.leader)
        old_member = Member(old.id, old.x, old.y, old.radius, old.standard, old.incarnate)
        new = table_formation.new_leader(remaining, old_member) if remaining else None
        if new is not None:
            state = state.with_unit(evolve(unit, leader=new))
            events.append(LeaderReplaced(unit.id, old.id, new))
    for unit in state.units:
        for other in state.unit(unit.id).engaged:
            alive = state.members(unit.id) and state.members(other)
            if alive and in_contact(state, unit.id, other):
                continue
            u, o = state.unit(unit.id), state.unit(other)
            state = state.with_unit(evolve(u, engaged=tuple(x for x in u.engaged if x != other)))
            o = state.unit(other)
            state = state.with_unit(evolve(o, engaged=tuple(x for x in o.engaged if x != unit.id)))
            if alive:
                events.append(Disengaged(unit.id, other))
    return state, events
