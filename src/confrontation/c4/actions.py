"""The unit actions (``# C4 Activating Unit``, ``# C4 Moving a Unit``): the seam the integration
fills with c4-table's movement and c4-rules' salvos and combats.

For the integrator: :func:`options` lists the :class:`~.choices.UnitAction` s an activated
unit may take; :func:`perform` applies one and returns the new state and its events. Three
bodies are deliberately minimal and are the places to plug the real rules in:

- :func:`move_unit`: a straight-line move of the whole unit (every fighter translated alike),
  stopped 1 cm before any other base in its way and kept on the battlefield; replace with
  ``c4.unitmove`` (paths round obstacles, formations, friends passed through).
- :func:`shoot`: emits :class:`~.events.SalvoDue` only; replace with the salvos of
  ``c4.salvo`` (target seen, leader-to-leader range, losses nearest the marksmen's leader).
- :func:`melee`: emits :class:`~.events.MeleeDue` only; replace with ``c4.salvo``'s combats.

What is already the rule here: the action menu (``# C4 Activating Unit``: walk; walk and/or
ranged attack; run; assault; do nothing), walk MOV / run 2×MOV / assault 2×MOV with the
unit's MOV its slowest member's (``# C4 Moving a Unit``), no ranged attack or walk/run for an
engaged unit, no target that is engaged (``# C4 Unit Ranged Attack > Choice of the target``),
a free unit assaulting any enemy unit and an engaged one only an enemy it is in contact with
(``# C4 Moving a Unit > Assault``), the failed assault (farther than 2×MOV) moving as close as
possible, the successful one going scattered and engaging both units, and a combat when the
unit is engaged at the end of its move or stays engaged without moving (``# C4 Combat``).
"""

from __future__ import annotations

import math

from confrontation.c4.choices import UnitAction
from confrontation.c4.events import AssaultFailed, Engaged, MeleeDue, SalvoDue, UnitMoved
from confrontation.c4.handlers import Transition
from confrontation.c4.state import C4State, Fighter, Formation, Unit
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve

STOP_GAP = 1.0
"""``# C4 Moving a Unit > Obstacles``: a unit that cannot move entirely through stops 1 cm short."""
CONTACT = 0.01
"""Two bases whose edges are this close (cm) are in contact."""
STEP = 0.5
"""The straight-line move is checked every ``STEP`` cm along its way."""
DIRECTIONS = 8
"""Walk and run destinations offered: this many compass directions, plus towards each enemy."""


def unit_mov(state: C4State, unit_id: str) -> float:
    """``# C4 Moving a Unit``: the unit's Movement is that of its slowest member."""
    return min(f.mov for f in state.members(unit_id))


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
    leader = state.fighter(unit.leader)
    mov = unit_mov(state, unit_id)
    moves: list[UnitAction] = []
    for action, reach in (("walk", mov), ("run", 2 * mov)):
        spots = []
        for k in range(DIRECTIONS):
            a = 2 * math.pi * k / DIRECTIONS
            spots.append((leader.x + reach * math.cos(a), leader.y + reach * math.sin(a)))
        for e in foes:
            el = state.fighter(e.leader)
            spots.append((el.x, el.y))
        moves += [UnitAction(unit_id, action, round(x, 3), round(y, 3)) for x, y in spots]
    shots: list[UnitAction] = []
    if has_ranged(state, unit_id):
        for e in foes:
            if not e.engaged:
                shots.append(UnitAction(unit_id, "walk_shoot", leader.x, leader.y, e.id))
    assaults = [UnitAction(unit_id, "assault", target=e.id) for e in foes]
    return hold + moves + shots + assaults


def free_answer(state: C4State, act: UnitAction) -> str | None:
    """A walk, run or walk-and-shoot towards any point of the battlefield is as good as a
    listed one (the menu of :func:`options` is a finite sample): None if ``act`` is one."""
    listed = options(state, act.unit)
    if act.action not in ("walk", "run", "walk_shoot"):
        return f"{act!r} is not one of the unit's actions"
    same = [o for o in listed if o.action == act.action and o.target == act.target]
    if not same:
        return f"unit {act.unit} cannot {act.action} now"
    if not (math.isfinite(act.x) and math.isfinite(act.y)):
        return "a destination must be a point of the battlefield"
    if not (0 <= act.x <= state.width and 0 <= act.y <= state.height):
        return "a destination must be a point of the battlefield"
    return None


def _clear(state: C4State, movers: tuple[Fighter, ...], dx: float, dy: float) -> bool:
    """The movers shifted by (dx, dy) stay on the battlefield and 1 cm from every other base."""
    ids = {f.id for f in movers}
    others = [g for g in state.fighters if g.id not in ids]
    for f in movers:
        x, y = f.x + dx, f.y + dy
        if not (
            f.radius <= x <= state.width - f.radius and f.radius <= y <= state.height - f.radius
        ):
            return False
        for g in others:
            if math.hypot(x - g.x, y - g.y) - f.radius - g.radius < STOP_GAP - 1e-9:
                return False
    return True


def straight_reach(
    state: C4State, unit_id: str, dx: float, dy: float, limit: float
) -> tuple[float, float]:
    """How far along (dx, dy) (at most ``limit`` cm) the whole unit gets before a base or the
    battlefield's edge stops it 1 cm short: the vector actually moved."""
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return 0.0, 0.0
    goal = min(length, limit)
    ux, uy = dx / length, dy / length
    movers = state.members(unit_id)
    done = 0.0
    while done < goal:
        nxt = min(goal, done + STEP)
        if not _clear(state, movers, ux * nxt, uy * nxt):
            lo, hi = done, nxt  # refine to 1/100 cm
            while hi - lo > 0.01:
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if _clear(state, movers, ux * mid, uy * mid) else (lo, mid)
            done = lo
            break
        done = nxt
    return ux * done, uy * done


def shift(state: C4State, unit_id: str, dx: float, dy: float) -> Transition:
    """Translate the unit's fighters by (dx, dy)."""
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return state, []
    moved = {f.id: evolve(f, x=f.x + dx, y=f.y + dy) for f in state.members(unit_id)}
    return state.with_fighters(moved), [UnitMoved(unit_id, round(dx, 3), round(dy, 3))]


def move_unit(state: C4State, unit_id: str, x: float, y: float, limit: float) -> Transition:
    """The seam's straight-line move: the leader towards (x, y), at most ``limit`` cm."""
    leader = state.fighter(state.unit(unit_id).leader)
    dx, dy = straight_reach(state, unit_id, x - leader.x, y - leader.y, limit)
    return shift(state, unit_id, dx, dy)


def shoot(state: C4State, unit_id: str, target: str) -> Transition:
    """The seam for ``# C4 Unit Ranged Attack``: the salvos are resolved here."""
    return state, [SalvoDue(unit_id, target)]


def melee(state: C4State, unit_id: str) -> Transition:
    """The seam for ``# C4 Combat``: the active unit's combats are resolved here."""
    return state, [MeleeDue(unit_id)]


def _engage(state: C4State, a: str, b: str) -> C4State:
    ua, ub = state.unit(a), state.unit(b)
    state = state.with_unit(
        evolve(ua, engaged=tuple(sorted({*ua.engaged, b})), formation=Formation.SCATTERED)
    )
    return state.with_unit(evolve(ub, engaged=tuple(sorted({*ub.engaged, a}))))


def assault(state: C4State, unit_id: str, target: str) -> Transition:
    """``# C4 Moving a Unit > Assault`` with straight-line distances (the seam)."""
    events: list[Event] = []
    reach = 2 * unit_mov(state, unit_id)
    distance = unit_gap(state, unit_id, target)
    if distance > reach:  # the assault fails: as close as possible, in formation
        el = state.fighter(state.unit(target).leader)
        state, moved = move_unit(state, unit_id, el.x, el.y, reach)
        return state, [AssaultFailed(unit_id, target, round(distance, 3)), *moved]
    if distance > CONTACT:
        pairs = [(gap(f, g), f, g) for f in state.members(unit_id) for g in state.members(target)]
        d, f, g = min(pairs, key=lambda t: (t[0], t[1].id, t[2].id))
        centre = math.hypot(g.x - f.x, g.y - f.y)
        dx, dy = (g.x - f.x) * d / centre, (g.y - f.y) * d / centre
        movers = state.members(unit_id)
        others = [h for h in state.fighters if h.unit not in (unit_id, target)]
        blocked = any(
            math.hypot(m.x + dx - h.x, m.y + dy - h.y) < m.radius + h.radius
            for m in movers
            for h in others
        )
        if blocked:  # the seam cannot skirt a third unit: treated as out of reach
            el = state.fighter(state.unit(target).leader)
            state, moved = move_unit(state, unit_id, el.x, el.y, reach)
            return state, [AssaultFailed(unit_id, target, round(distance, 3)), *moved]
        state, moved = shift(state, unit_id, dx, dy)
        events += moved
    state = _engage(state, unit_id, target)
    events.append(Engaged(unit_id, target))
    return state, events


def perform(state: C4State, act: UnitAction) -> Transition:
    """Apply the unit's action (``# C4 Activating Unit``); a combat follows when the unit ends
    engaged (``# C4 Combat``)."""
    unit = state.unit(act.unit)
    mov = unit_mov(state, act.unit)
    events: list[Event] = []
    if act.action == "walk":
        state, events = move_unit(state, act.unit, act.x, act.y, mov)
    elif act.action == "run":
        state, events = move_unit(state, act.unit, act.x, act.y, 2 * mov)
    elif act.action == "walk_shoot":
        assert act.target is not None
        state, events = move_unit(state, act.unit, act.x, act.y, mov)
        state, shot = shoot(state, act.unit, act.target)
        events += shot
    elif act.action == "assault":
        assert act.target is not None
        state, events = assault(state, act.unit, act.target)
    elif act.action != "hold":
        raise ValueError(f"unknown unit action {act.action!r}")
    if state.unit(unit.id).engaged and act.action in ("hold", "assault"):
        state, fought = melee(state, act.unit)
        events += fought
    return state, events
