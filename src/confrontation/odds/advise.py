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

from confrontation.odds.combat import (
    CombatOdds,
    DefencePolicy,
    Fighter,
    combat_odds,
    penalised,
)
from confrontation.rules.combat import Allocation, allocation_choices, combat_dice

__all__ = [
    "Advice",
    "Goal",
    "advice_sentence",
    "advise",
    "assumptions",
    "charge_matters",
    "policies_for",
    "policy_words",
]


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


POLICY_WORDS = {
    DefencePolicy.NONE: "never defend",
    DefencePolicy.ONE: "defend with one die against each attack",
    DefencePolicy.ALL: "put every defence die against the first attack",
    DefencePolicy.SUSTAIN: "defend with one die against each attack and sustain with the last one",
}
"""Each defence policy in the words of the advice's sentence (VII-C-4 b, VII-C-5)."""


def policy_words(policy: DefencePolicy) -> str:
    """What a fighter following ``policy`` does with his defence dice, in plain words."""
    return POLICY_WORDS[policy]


def _dice(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def advice_sentence(best: Advice, goal: Goal) -> str:
    """The best alternative as one plain sentence, e.g. "Put 1 die in attack and 2 in defence,
    and defend with one die against each attack: 92 % to survive."."""
    alloc = best.allocation
    split = f"Put {_dice(alloc.attack)} in attack and {alloc.defence} in defence"
    how = "" if alloc.defence == 0 else f", and {policy_words(best.defence)}"
    if goal is Goal.KILL:
        gain = f"{_percent(best.score)} to kill every enemy"
    elif goal is Goal.SURVIVE:
        gain = f"{_percent(best.score)} to survive"
    else:
        gain = f"{float(best.score):+.2f} wound levels dealt minus taken on average"
    return f"{split}{how}: {gain}."


def assumptions(enemies: Sequence[Fighter]) -> str:
    """What the advice assumes each enemy does: his allocation and defence policy."""
    parts = []
    for enemy in enemies:
        if enemy.allocation is None:
            split = "puts every combat die in attack"
        else:
            a, d = enemy.allocation.attack, enemy.allocation.defence
            split = f"puts {_dice(a)} in attack and {d} in defence"
        defends = (
            ""
            if enemy.allocation is None or enemy.allocation.defence == 0
            else (f" and will {policy_words(enemy.defence)}")
        )
        parts.append(f"{enemy.name} {split}{defends}")
    return "Assumed: " + "; ".join(parts) + "."


def charge_matters(fighter: Fighter, enemies: Sequence[Fighter], *, charged: bool) -> bool:
    """Whether a charge (by ``fighter``, or by the enemies when ``charged``) puts a penalty on
    anyone (V-B-3: the Powers decide): if not, the option cannot change the odds."""
    return bool(penalised(fighter, enemies, charge=not charged, charged=charged))


def _percent(p: Fraction) -> str:
    """A whole percentage, or one decimal where rounding would show a sure thing that is not."""
    whole = round(float(p) * 100)
    if (whole in (0, 100)) and p not in (0, 1):
        return f"{float(p) * 100:.1f} %"
    return f"{whole} %"
