"""Exact odds beside a C4 unit's shooting options (``c4.odds.salvo_odds``): for a "walk and
shoot" answer that shoots from where the unit stands, each profile's salvo at the target as
``c4.fight.shoot`` would resolve it now (the marksmen who see a fighter of the target, the
leader-to-leader range on the tape, the target's Resilience; ``# C4 Unit Ranged Attack``).

A salvo's odds are given as if it were the unit's first (an earlier salvo's losses change the
later ones: the page says so); nothing is given where a move comes first (the range is not
known before the move).
"""

from __future__ import annotations

from typing import Any

from confrontation.c4 import salvo as rules
from confrontation.c4 import sight
from confrontation.c4.actions import members
from confrontation.c4.choices import UnitAction
from confrontation.c4.fight import _others, _profiles, _resilience
from confrontation.c4.losses import nearest_first
from confrontation.c4.narrate import plural, profile_name
from confrontation.c4.odds import salvo_odds
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
