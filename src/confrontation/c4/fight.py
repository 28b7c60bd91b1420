"""Shooting and melee on the game's state (``# C4 Unit Ranged Attack``, ``# C4 Combat``,
``# C4 Damage``): the table's sight and order of losses (``c4.sight``, ``c4.losses``) and the
rules' salvos and combats (``c4.salvo``) applied to a :class:`~.state.C4State`.

What to call: :func:`shoot` ``(state, unit, target, roller, order=, hold_fire=)`` and
:func:`melee` ``(state, unit, roller, order=)``; both return the new state and its events.
Every die comes from ``roller``; the flow passes a :class:`Tape` of the faces rolled so far
as chance steps, which raises :class:`NeedDie` when the resolution needs one more (the flow
then asks for it and resolves again from the start: the resolution is a pure function of the
state and the faces). A profile with no :class:`~.state.Stats` in the game does not shoot or
fight (a game of the flow's tests; the event says so).

Sections (docs/rules-index.toml): C4-UNIT-RANGED-ATTACK, C4-CHOICE-OF-THE-TARGET-AND-THE-
MARKSMEN, C4-MEASURING-THE-RANGE, C4-RANGED-ATTACK-TEST, C4-STRENGTH-TEST, C4-REMOVAL-OF-THE-
LOSSES, C4-COMBAT, C4-DAMAGE.
"""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.c4 import actions, morale, sight
from confrontation.c4 import salvo as rules
from confrontation.c4.actions import CONTACT, gap, members, remove_fighters
from confrontation.c4.choices import UnitAction
from confrontation.c4.events import CombatResolved, MeleeDue, SalvoDue, SalvoResolved
from confrontation.c4.formation import Member
from confrontation.c4.handlers import Transition
from confrontation.c4.losses import nearest_first
from confrontation.c4.state import C4State, Fighter, Stats
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.table.field import scenery_of


class NeedDie(Exception):
    """The resolution needs one more die than the :class:`Tape` holds."""


class Tape:
    """A :class:`~confrontation.dice.Roller` reading the faces already rolled, in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = tuple(faces)
        self._at = 0

    @property
    def rolled(self) -> int:
        return self._at

    def d6(self) -> int:
        if self._at >= len(self._faces):
            raise NeedDie
        face = self._faces[self._at]
        self._at += 1
        return face

    @property
    def spent(self) -> bool:
        """Every face of the tape was read."""
        return self._at == len(self._faces)


def _profiles(fighters: Sequence[Fighter], order: Sequence[str]) -> list[str]:
    """The profiles of ``fighters``: those in the player's ``order`` first, then the others
    as they first appear in the unit."""
    present = list(dict.fromkeys(f.profile for f in fighters))
    return [p for p in order if p in present] + [p for p in present if p not in order]


def _resilience(state: C4State, fighters: Sequence[Fighter]) -> int:
    """``# C4 Unit Ranged Attack > Strength test``: the target unit's Resilience
    (``salvo.unit_resilience``: its standard fighters', else its specials')."""
    standard: list[int] = []
    special: list[int] = []
    for f in fighters:
        stats = state.stats(f.profile)
        res = stats.res if stats is not None else 0
        (standard if f.standard else special).append(res)
    return rules.unit_resilience(standard, special)


def apply_losses(state: C4State, losses: rules.Losses) -> Transition:
    """``# C4 Damage``: wounds take health points, eliminated fighters leave the battlefield
    (a fallen leader replaced: ``actions.remove_fighters``)."""
    from confrontation.c4.events import FighterWounded

    events: list[Event] = []
    for fid, points in losses.wounds:
        f = state.fighter(fid)
        f = evolve(f, health=f.health - points)
        state = state.with_fighters({fid: f})
        events.append(FighterWounded(fid, f.health))
    state, removed = remove_fighters(state, losses.eliminated)
    return state, events + removed


def _others(state: C4State, *units: str) -> list[Member]:
    """The fighters of every unit but ``units`` as table members (barriers to sight)."""
    return [m for u in state.units if u.id not in units for m in members(state, u.id)]


def shoot(
    state: C4State,
    unit_id: str,
    target: str,
    roller: Tape,
    order: Sequence[str] = (),
    hold_fire: Sequence[str] = (),
) -> Transition:
    """``# C4 Unit Ranged Attack``: one salvo per profile of marksmen, in the player's
    ``order`` (profiles in ``hold_fire`` do not shoot): > Choice of the target and the
    marksmen (a free unit, a target not engaged and seen, only the marksmen who see a fighter
    of it), > Measuring the range (leader to leader on the tape; beyond it, or the weapon's
    reach, no salvo), > Ranged attack test (dice × marksmen), > Strength test (a die per
    hit), > Removal of the losses (nearest the marksmen's leader first, no more than the
    weapons shot)."""
    unit, aim = state.unit(unit_id), state.unit(target)
    shooters = [f for f in state.members(unit_id) if f.ranged]
    if unit.engaged or aim.engaged or not shooters or not state.members(target):
        return state, []
    if any(state.stats(f.profile) is None for f in shooters):
        return state, [SalvoDue(unit_id, target)]
    events: list[Event] = []
    for profile in _profiles(shooters, order):
        if profile in hold_fire:
            continue
        stats = state.stats(profile)
        assert stats is not None
        targets = state.members(target)
        if not targets or stats.ranged_dice < 1:
            continue
        ours = {m.id: m for m in members(state, unit_id)}
        theirs = members(state, target)
        marksmen = [ours[f.id] for f in state.members(unit_id) if f.profile == profile]
        seeing = sight.marksmen_who_see(
            marksmen,
            theirs,
            scenery=[scenery_of(p) for p in state.scenery],
            others=_others(state, unit_id, target),
        )
        if not seeing:
            continue
        leader = ours[state.unit(unit_id).leader]
        their_leader = next(m for m in theirs if m.id == state.unit(target).leader)
        distance = sight.range_distance(leader, their_leader)
        difficulty = rules.shot_difficulty(distance, stats.reach)
        if difficulty is None:
            continue
        order_ids = nearest_first(theirs, leader)
        by_id = {f.id: f for f in targets}
        aims = [
            rules.Target(fid, by_id[fid].health, gap(by_id[fid], state.fighter(leader.id)))
            for fid in order_ids
        ]
        result = rules.resolve_salvo(
            roller,
            marksmen=len(seeing),
            dice=stats.ranged_dice,
            ranged_attack=stats.ranged,
            difficulty=difficulty,
            strength=stats.ranged_strength,
            resilience=_resilience(state, targets),
            targets=aims,
        )
        events.append(
            SalvoResolved(
                unit_id,
                target,
                profile,
                len(seeing),
                round(distance, 3),
                difficulty,
                stats.ranged_dice * len(seeing),
                result.hits,
                result.damage,
                result.losses.eliminated,
            )
        )
        state, lost = apply_losses(state, result.losses)
        events += lost
    return state, events


def best_weapon(stats: Stats) -> tuple[str | None, int]:
    """``# C4 Combat > 1/ Choice of weapon`` (ruling): the strongest of the profile's weapons,
    its bare Strength if none is stronger."""
    best: tuple[str | None, int] = (None, stats.strength)
    for name, strength in stats.weapons:
        if strength > best[1]:
            best = (name, strength)
    return best


def melee(state: C4State, unit_id: str, roller: Tape, order: Sequence[str] = ()) -> Transition:
    """``# C4 Combat``: the active unit's combats, profile against profile. A fighter fights
    only the enemies in contact with his base; his dice are split between the profiles he
    touches (``salvo.split_dice``, evenly); the combats come in the player's ``order`` of his
    profiles (then the defenders' profiles as they touch); each: > Choice of weapon
    (:func:`best_weapon`), > Hand to hand attack test (ATT against DEF), > Strength test (the
    weapon against RES), > Removal of the losses (the defenders of that profile in contact,
    nearest the attacking leader first). The defenders do not strike back now: they retaliate
    on their own activation."""
    unit = state.unit(unit_id)
    mine = state.members(unit_id)
    if not unit.engaged or not mine:
        return state, []
    foes = [f for u in unit.engaged for f in state.members(u)]
    if any(state.stats(f.profile) is None for f in (*mine, *foes)):
        return state, [MeleeDue(unit_id)]
    key = {f.id: f"{f.unit}/{f.profile}" for f in foes}
    contacts = []
    for f in mine:
        touching = [key[g.id] for g in foes if gap(f, g) <= CONTACT]
        stats = state.stats(f.profile)
        assert stats is not None
        if touching:
            contacts.append(rules.Contact(f.id, f.profile, stats.att_dice, tuple(touching)))
    split = rules.split_dice(contacts)
    attackers = _profiles([f for f in mine if any(c.fighter == f.id for c in contacts)], order)
    events: list[Event] = []
    leader = state.fighter(unit.leader)
    for attacker in attackers:
        a_stats = state.stats(attacker)
        assert a_stats is not None
        for (a_prof, d_key), dice in split.items():
            if a_prof != attacker or dice < 1:
                continue
            target_unit, d_prof = d_key.split("/", 1)
            d_stats = state.stats(d_prof)
            assert d_stats is not None
            fighters_now = {f.id for f in state.members(unit_id)}
            ours = [c.fighter for c in contacts if c.profile == attacker]
            ours = [i for i in ours if i in fighters_now]
            in_touch = [
                g
                for g in state.members(target_unit)
                if g.profile == d_prof and any(gap(state.fighter(i), g) <= CONTACT for i in ours)
            ]
            if not in_touch or not ours:
                continue
            if leader.id in fighters_now:
                leader = state.fighter(leader.id)
            ordered = sorted(in_touch, key=lambda g: (gap(g, leader), g.id))
            aims = [rules.Target(g.id, g.health, gap(g, leader)) for g in ordered]
            weapon, strength = best_weapon(a_stats)
            result = rules.resolve_combat(
                roller,
                dice=dice,
                attack=a_stats.att,
                defense=d_stats.defense,
                strength=strength,
                resilience=d_stats.res,
                targets=aims,
            )
            events.append(
                CombatResolved(
                    unit_id,
                    target_unit,
                    attacker,
                    d_prof,
                    dice,
                    weapon,
                    result.hits,
                    result.damage,
                    result.losses.eliminated,
                )
            )
            state, lost = apply_losses(state, result.losses)
            events += lost
    return state, events


# --- an action's stages ------------------------------------------------------------------


def stages(act: UnitAction) -> tuple[str, ...]:
    """What the action does, in order (``# C4 Activating Unit``): ``formation`` (at the
    beginning of the activation), ``move`` / ``assault``, ``shoot`` (before or after the walk,
    ``# C4 Unit Ranged Attack``), ``after`` (a free unit's formation after its movement),
    ``melee`` (``# C4 Combat``: when the unit ends engaged after an assault or stays); an
    assault's ``test`` (``c4.morale``) comes before it moves; a unit in rout's only stage is
    ``rally``."""
    out: list[str] = []
    if act.formation is not None:
        out.append("formation")
    if act.action in ("walk", "run"):
        out.append("move")
    elif act.action == "walk_shoot":
        out += ["shoot", "move"] if act.shoot_first else ["move", "shoot"]
    elif act.action == "assault":
        out += ["test", "assault"]  # C4 Moving a Unit > Assault: the test before the move
    elif act.action == "rally":  # a unit in rout (c4.morale): its rally test or its flight
        return (*out, "rally")
    elif act.action != "hold":
        raise ValueError(f"unknown unit action {act.action!r}")
    if act.after is not None:
        out.append("after")
    if act.action in ("hold", "assault"):
        out.append("melee")
    return tuple(out)


def _stage(state: C4State, act: UnitAction, name: str, roller: Tape) -> Transition:
    unit = act.unit
    if name == "formation":
        assert act.formation is not None
        return actions.change_formation(state, unit, act.formation)
    if name == "move":
        kind = "walk" if act.action == "walk_shoot" else act.action
        return actions.move_unit(state, unit, act.x, act.y, kind)
    if name == "test":
        assert act.target is not None
        return morale.assault_test(state, unit, act.target, roller)
    if name == "rally":
        return morale.rally(state, unit, roller)
    if name == "assault":
        assert act.target is not None
        if not state.members(act.target):  # it fled off the battlefield (c4.morale)
            return state, []
        return actions.assault(state, unit, act.target, act.order, act.several)
    if name == "after":
        assert act.after is not None
        if state.unit(unit).engaged:  # only a free unit
            return state, []
        return actions.change_formation(state, unit, act.after)
    if name == "shoot":
        assert act.target is not None
        return shoot(state, unit, act.target, roller, act.order, act.hold_fire)
    assert name == "melee"
    if not state.unit(unit).engaged:
        return state, []
    return melee(state, unit, roller, act.order)


def perform(
    state: C4State, act: UnitAction, start: int = 0, faces: Sequence[int] = ()
) -> tuple[C4State, list[Event], int | None]:
    """Run the action's :func:`stages` from ``start`` (``faces``: the dice rolled so far for
    that stage). Returns the state, the events and None when done, or the stage that needs
    one more die (its state is the one before that stage: roll, append the face, call
    again from there)."""
    events: list[Event] = []
    names = stages(act)
    for k in range(start, len(names)):
        tape = Tape(faces if k == start else ())
        try:
            state, happened = _stage(state, act, names[k], tape)
        except NeedDie:
            return state, events, k
        events += happened
        if names[k] == "test" and state.unit(act.unit).rout:
            break  # C4 Moving a Unit > Assault: in rout, its activation ends where it is
    return state, events, None
