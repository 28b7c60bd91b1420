"""Exact odds beside a C4 unit's shooting options (``c4.odds.salvo_odds``): for a "walk and
shoot" answer that shoots from where the unit stands, each profile's salvo at the target as
``c4.fight.shoot`` would resolve it now (the marksmen who see a fighter of the target, the
leader-to-leader range on the tape, the target's Resilience; ``# C4 Unit Ranged Attack``).

A salvo's odds are given as if it were the unit's first (an earlier salvo's losses change the
later ones: the page says so); nothing is given where a move comes first (the range is not
known before the move).

Beside an assault (:func:`assault_lines`, ``# C4 Moving a Unit > Assault``): the Courage tests
against Fear (``c4.morale``, exactly: :func:`courage_chance`), the distance against twice the
Movement as ``c4.actions.assault`` measures it, and the melee that follows one that reaches;
beside an engaged unit's fight (:func:`melee_lines`, ``# C4 Combat``): its melee. A melee's
law (:func:`melee_law`) follows ``c4.fight.melee`` combat by combat, exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from confrontation.agents.advice import pct
from confrontation.c4 import salvo as rules
from confrontation.c4 import sight, unitmove
from confrontation.c4.actions import (
    CONTACT,
    _table_formation,
    assault,
    gap,
    members,
    other_unit,
    surroundings,
    unit_mov,
)
from confrontation.c4.choices import UnitAction
from confrontation.c4.events import Engaged
from confrontation.c4.fight import _others, _profiles, _resilience, best_weapon
from confrontation.c4.losses import nearest_first
from confrontation.c4.morale import courage_chance, default_morale, facing
from confrontation.c4.narrate import plural, profile_name
from confrontation.c4.odds import damage_law, salvo_odds
from confrontation.c4.state import C4State
from confrontation.engine.table.field import scenery_of


def shoots_in_place(state: C4State, choice: UnitAction) -> bool:
    """Does this answer shoot before (or without) moving?"""
    if choice.action != "walk_shoot" or choice.target is None:
        return False
    leader = state.fighter(state.unit(choice.unit).leader)
    still = abs(choice.x - leader.x) < 1e-6 and abs(choice.y - leader.y) < 1e-6
    return choice.shoot_first or still or (choice.x == 0.0 and choice.y == 0.0)


def salvo_lines(state: C4State, choice: UnitAction) -> list[dict[str, Any]]:
    """Each profile's salvo at ``choice.target`` now: marksmen, range, difficulty, and the
    exact chance of at least one fighter eliminated and the expected losses."""
    if not shoots_in_place(state, choice) or choice.target is None:
        return []
    unit, aim = state.unit(choice.unit), state.unit(choice.target)
    shooters = [f for f in state.members(unit.id) if f.ranged]
    targets = state.members(aim.id)
    if unit.engaged or aim.engaged or not shooters or not targets:
        return []
    ours = {m.id: m for m in members(state, unit.id)}
    theirs = members(state, aim.id)
    leader = ours[unit.leader]
    their_leader = next(m for m in theirs if m.id == aim.leader)
    distance = sight.range_distance(leader, their_leader)
    by_id = {f.id: f for f in targets}
    healths = [by_id[fid].health for fid in nearest_first(theirs, leader)]
    resilience = _resilience(state, targets)
    out = []
    for profile in _profiles(shooters, choice.order):
        stats = state.stats(profile)
        if profile in choice.hold_fire or stats is None or stats.ranged_dice < 1:
            continue
        marksmen = [ours[f.id] for f in state.members(unit.id) if f.profile == profile]
        seeing = sight.marksmen_who_see(
            marksmen,
            theirs,
            scenery=[scenery_of(p) for p in state.scenery],
            others=_others(state, unit.id, aim.id),
        )
        difficulty = rules.shot_difficulty(distance, stats.reach)
        if not seeing or difficulty is None:
            continue
        odds = salvo_odds(
            marksmen=len(seeing),
            dice=stats.ranged_dice,
            ranged_attack=stats.ranged,
            difficulty=difficulty,
            strength=stats.ranged_strength,
            resilience=resilience,
            healths=healths,
        )
        at_least = odds.at_least(1)
        expected = odds.expected_losses()
        name = profile_name(profile)
        who = f"{len(seeing)} {plural(name) if len(seeing) > 1 else name}"
        out.append(
            {
                "profile": profile,
                "marksmen": len(seeing),
                "distance": round(distance, 1),
                "difficulty": difficulty,
                "at_least_one": str(at_least),
                "expected_losses": str(expected),
                "text": (
                    f"{who}, {distance:.0f} cm (difficulty {difficulty}): "
                    f"{float(at_least):.0%} to eliminate one or more, "
                    f"{float(expected):.2f} expected"
                ),
            }
        )
    return out


# --- the assault: reaching, the Courage tests, the melee ------------------------------------


def _tests(state: C4State, unit_id: str, target: str) -> list[dict[str, Any]]:
    """The assault's Courage tests as ``c4.morale.assault_test`` takes them (its data)."""
    rules = default_morale()
    pairs = {"assaulting": (unit_id, target), "assaulted": (target, unit_id)}
    out = []
    for who in rules.tests:
        test = facing(state, *pairs[who], rules)
        if test is None or test.immune:
            continue
        chance = courage_chance(test.value, test.fear, test.dice)
        out.append(
            {
                "who": who,
                "value": test.value,
                "fear": test.fear,
                "dice": test.dice,
                "chance": str(chance),
            }
        )
    return out


def assault_reach(state: C4State, unit_id: str, target: str) -> tuple[float | None, float]:
    """The assault's distance round obstacles as ``c4.actions.assault`` measures it (None: no
    way) and the reach, twice the unit's Movement (``# C4 Moving a Unit > Assault``)."""
    unit = state.unit(unit_id)
    distance = unitmove.assault_distance(
        members(state, unit_id),
        unit.leader,
        other_unit(state, target),
        owner=str(unit.owner),
        category=unit.category,
        formation=_table_formation(unit.formation),
        surroundings=surroundings(state, unit_id),
    )
    return distance, unitmove.max_distance(unitmove.MoveKind.ASSAULT, unit_mov(state, unit_id))


Healths = tuple[tuple[str, int], ...]


def melee_law(
    state: C4State, unit_id: str, order: Sequence[str] = ()
) -> dict[Healths, Fraction] | None:
    """The exact law of the engaged enemies' health after the unit's melee (``c4.fight.melee``
    followed combat by combat: the same contacts, dice split, order, targets nearest the
    attacking leader first and ``c4.odds.damage_law`` for each combat's damage points); each
    key gives every enemy fighter in the melee's health left (0: eliminated). None: no melee."""
    unit = state.unit(unit_id)
    mine = state.members(unit_id)
    if not unit.engaged or not mine:
        return None
    foes = [f for u in unit.engaged for f in state.members(u)]
    if any(state.stats(f.profile) is None for f in (*mine, *foes)):
        return None
    key = {f.id: f"{f.unit}/{f.profile}" for f in foes}
    contacts = []
    for f in mine:
        touching = [key[g.id] for g in foes if gap(f, g) <= CONTACT]
        stats = state.stats(f.profile)
        assert stats is not None
        if touching:
            contacts.append(rules.Contact(f.id, f.profile, stats.att_dice, tuple(touching)))
    if not contacts:
        return None
    split = rules.split_dice(contacts)
    attackers = _profiles([f for f in mine if any(c.fighter == f.id for c in contacts)], order)
    leader = state.fighter(unit.leader)
    ids = tuple(f.id for f in foes)
    laws: dict[Healths, Fraction] = {tuple((f.id, f.health) for f in foes): Fraction(1)}
    for attacker in attackers:
        a_stats = state.stats(attacker)
        assert a_stats is not None
        weapon_strength = best_weapon(a_stats)[1]
        for (a_prof, d_key), dice in split.items():
            if a_prof != attacker or dice < 1:
                continue
            _, d_prof = d_key.split("/", 1)
            d_stats = state.stats(d_prof)
            assert d_stats is not None
            ours = [state.fighter(c.fighter) for c in contacts if c.profile == attacker]
            law = damage_law(dice, a_stats.att, d_stats.defense, weapon_strength, d_stats.res)
            after: dict[Healths, Fraction] = {}
            for healths, p in laws.items():
                left = dict(healths)
                in_touch = sorted(
                    (
                        f
                        for f in foes
                        if key[f.id] == d_key
                        and left[f.id] > 0
                        and any(gap(o, f) <= CONTACT for o in ours)
                    ),
                    key=lambda g: (gap(g, leader), g.id),
                )
                if not in_touch:
                    after[healths] = after.get(healths, Fraction(0)) + p
                    continue
                aims = [rules.Target(g.id, left[g.id], gap(g, leader)) for g in in_touch]
                total = sum(t.health for t in aims)
                probs = law.coefficients(total)
                outcomes = list(enumerate(probs[:total]))
                outcomes.append((total, 1 - sum(probs[:total], Fraction(0))))
                for points, q in outcomes:
                    if not q:
                        continue
                    losses = rules.remove_losses(aims, points, cap=len(aims))
                    new = dict(left)
                    for fid, hurt in losses.wounds:
                        new[fid] -= hurt
                    for fid in losses.eliminated:
                        new[fid] = 0
                    out = tuple((i, new[i]) for i in ids)
                    after[out] = after.get(out, Fraction(0)) + p * q
            laws = after
    return laws


def melee_summary(state: C4State, unit_id: str, order: Sequence[str] = ()) -> dict[str, Any]:
    """The melee's exact expected losses and chance of one or more (``melee_law``)."""
    law = melee_law(state, unit_id, order)
    if law is None:
        return {}
    lost: dict[int, Fraction] = {}
    for healths, p in law.items():
        k = sum(1 for _, h in healths if h == 0)
        lost[k] = lost.get(k, Fraction(0)) + p
    expected = sum((k * p for k, p in lost.items()), Fraction(0))
    at_least = 1 - lost.get(0, Fraction(0))
    return {
        "expected_losses": str(expected),
        "at_least_one": str(at_least),
        "text": f"melee: {pct(at_least)} to eliminate one or more, {float(expected):.2f} expected",
    }


def melee_lines(state: C4State, choice: UnitAction) -> dict[str, Any] | None:
    """Beside "stay and fight" of an engaged unit: its melee's exact odds (``# C4 Combat``)."""
    if choice.action != "hold" or not state.unit(choice.unit).engaged:
        return None
    melee = melee_summary(state, choice.unit, choice.order)
    return {"melee": melee, "text": melee["text"]} if melee else None


def assault_lines(state: C4State, choice: UnitAction) -> dict[str, Any] | None:
    """Beside an assault (``# C4 Moving a Unit > Assault``): the Courage tests against Fear
    (``c4.morale``), whether the assault reaches (the distance the engine measures round
    obstacles against twice the Movement), and the melee that follows a successful one —
    the fighters placed as ``c4.actions.assault`` places them, its exact expected losses.

    Measured before declaring under the project's agreement (docs/rulings.md "IV-B-2 —
    measuring before declaring": a person may measure as the AI does). What cannot be measured
    then is said so: where the assaulted unit may fail its test it flees first, and the
    distance to where it stops is "measured after declaring"."""
    if choice.action != "assault" or choice.target is None:
        return None
    unit_id, target = choice.unit, choice.target
    if not state.members(unit_id) or not state.members(target):
        return None
    tests = _tests(state, unit_id, target)
    own = next((t for t in tests if t["who"] == "assaulting"), None)
    theirs = next((t for t in tests if t["who"] == "assaulted"), None)
    go = Fraction(own["chance"]) if own else Fraction(1)
    stay = Fraction(theirs["chance"]) if theirs else Fraction(1)
    distance, reach = assault_reach(state, unit_id, target)
    reaches = distance is not None and distance <= reach + 1e-9
    doc: dict[str, Any] = {
        "tests": tests,
        "distance": None if distance is None else round(distance, 1),
        "reach": round(reach, 1),
        "reaches": reaches,
        "flight_possible": theirs is not None,
        "engage": str(go * stay * (1 if reaches else 0)),
    }
    parts = []
    if own:
        parts.append(
            f"Courage {own['value']} against Fear {own['fear']}: {pct(go)} to dare"
            + (f" ({own['dice']} dice)" if own["dice"] > 1 else "")
        )
    if distance is None:
        parts.append(f"no way round the obstacles (reach {reach:.0f} cm)")
    else:
        verdict = "reaches" if reaches else "falls short"
        parts.append(f"{distance:.0f} cm of {reach:.0f}: {verdict}")
    if theirs:
        parts.append(
            f"they flee {pct(1 - stay)} of the time (Fear {theirs['fear']}): "
            "then the distance is measured after declaring"
        )
    if reaches:
        placed, events = assault(state, unit_id, target, choice.order, choice.several)
        if any(isinstance(e, Engaged) for e in events):
            melee = melee_summary(placed, unit_id, choice.order)
            if melee:
                doc["melee"] = melee
                parts.append(melee["text"])
        if own or theirs:
            parts.append(f"{pct(go * stay)} to reach and fight")
    doc["text"] = "; ".join(parts)
    return doc
