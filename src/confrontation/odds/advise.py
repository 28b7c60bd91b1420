"""Advice before a combat: how should the lone fighter allocate and spend his defence dice?

For one fighter against one or two enemies (whose allocations and defence policies are
given), every allocation of his combat dice (VII-C-1) and every defence policy that differs
for it is solved exactly (:func:`confrontation.odds.combat.combat_odds`) and ranked by the
chosen goal:

- ``kill``: P(every enemy is killed);
- ``survive``: P(the lone fighter is alive at the end);
- ``levels``: expected wound levels dealt minus wound levels taken.

>>> from confrontation.rules.combat import Stats
>>> me = Fighter("me", Stats(ini=4, att=4, str_=6, def_=4, res=6))
>>> foe = Fighter("foe", Stats(ini=4, att=4, str_=6, def_=4, res=6), Allocation(1, 1))
>>> rows = advise(me, [foe], Goal.SURVIVE)
>>> rows[0].score >= rows[-1].score
True
>>> all(r.odds.p_alive("me") == r.score for r in rows)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from confrontation.odds.combat import CombatOdds, DefencePolicy, Fighter, combat_odds
from confrontation.rules.combat import Allocation, allocation_choices, combat_dice

__all__ = ["Advice", "Goal", "advise", "policies_for"]


class Goal(Enum):
    """What the advice maximises."""

    KILL = "kill"
    SURVIVE = "survive"
    LEVELS = "levels"

    def score(self, odds: CombatOdds) -> Fraction:
        if self is Goal.KILL:
            return odds.p_defenders_killed
        if self is Goal.SURVIVE:
            return 1 - odds.p_attacker_killed
        return odds.expected_balance


@dataclass(frozen=True)
class Advice:
    """One alternative: an allocation, a defence policy, its exact odds and its score."""

    allocation: Allocation
    defence: DefencePolicy
    odds: CombatOdds
    score: Fraction


def policies_for(allocation: Allocation) -> tuple[DefencePolicy, ...]:
    """The defence policies that can differ for this allocation: none without a defence die;
    "all" only with two dice or more; "sustain" only when VII-C-5 allows it."""
    if allocation.defence == 0:
        return (DefencePolicy.NONE,)
    policies = [DefencePolicy.NONE, DefencePolicy.ONE]
    if allocation.defence >= 2:
        policies.append(DefencePolicy.ALL)
    if allocation.defence >= allocation.attack:
        policies.append(DefencePolicy.SUSTAIN)
    return tuple(policies)


def advise(
    fighter: Fighter,
    enemies: Sequence[Fighter],
    goal: Goal,
    *,
    charge: bool = False,
    charged: bool = False,
) -> list[Advice]:
    """Every allocation × defence policy of ``fighter`` against one or two ``enemies``, solved
    exactly, best first (ties: the order of :func:`allocation_choices`, most attack first)."""
    if not 1 <= len(enemies) <= 2:
        raise ValueError("advice is given for one fighter against one or two enemies")
    rows: list[Advice] = []
    for allocation in allocation_choices(combat_dice(len(enemies))):
        for policy in policies_for(allocation):
            me = replace(fighter, allocation=allocation, defence=policy)
            odds = combat_odds(me, enemies, charge=charge, charged=charged)
            rows.append(Advice(allocation, policy, odds, goal.score(odds)))
    return sorted(rows, key=lambda r: -r.score)
