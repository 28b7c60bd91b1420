"""Exact odds of the unit-based ruleset (``002_…``, "C4"): tests, salvos and combats.

What to call (the CLI's ``confrontation odds c4-test / c4-salvo / c4-combat`` does):

* :func:`attack_odds` ``(dice, action, difficulty)`` and :func:`strength_odds`
  ``(hits, strength, resilience)``: laws of successes (:class:`SuccessDistribution`).
* :func:`salvo_odds` ``(marksmen=, dice=, ranged_attack=, difficulty=, strength=, resilience=,
  healths=) -> LossOdds``: hits, damage points and fighters eliminated by one salvo, exactly.
* :func:`combat_odds` ``(dice=, attack=, defense=, strength=, resilience=, healths=, cap=None)``:
  the same for one combat of a melee (no cap but the fighters in contact).

"More hits than dice" (CLARIFICATIONS §7) makes the number of hits unbounded; the damage of
"one die per hit" is then a sum of a random number of dice. Both laws are rational generating
functions (:class:`confrontation.c4.resolution.Rational`), so every probability here is an
exact fraction; the law of the losses is finite (at most the cap), so it is given in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from confrontation.c4.resolution import (
    Rational,
    SuccessDistribution,
    UniversalTable,
    die_law,
    minimum_roll,
    successes_distribution,
    successes_law,
)
from confrontation.c4.salvo import max_eliminations


def attack_odds(
    dice: int, action: int, difficulty: int, *, table: UniversalTable | None = None
) -> SuccessDistribution:
    """Law of the hits of an attack test (# C4 Unit Ranged Attack > Ranged attack test)."""
    return successes_distribution(dice, action, difficulty, table=table)


def strength_odds(
    hits: int, strength: int, resilience: int, *, table: UniversalTable | None = None
) -> SuccessDistribution:
    """Law of the damage points of ``hits`` strength dice (# C4 Damage)."""
    return successes_distribution(hits, strength, resilience, table=table)


@dataclass(frozen=True)
class LossOdds:
    """Exact laws of one salvo or combat: hits, damage points (itemised below their cap, the
    rest a tail) and ``losses[k]`` = P(k fighters eliminated), k = 0 … the most possible."""

    hits: SuccessDistribution
    damage: SuccessDistribution
    losses: tuple[Fraction, ...]

    def expected_losses(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.losses)), Fraction(0))

    def at_least(self, k: int) -> Fraction:
        """P(at least ``k`` fighters eliminated)."""
        return sum(self.losses[max(k, 0) :], Fraction(0))


def damage_law(
    attack_dice: int,
    attack: int,
    attack_difficulty: int,
    strength: int,
    resilience: int,
    table: UniversalTable | None = None,
) -> Rational:
    """Generating function of the damage points: a strength die per hit of the attack."""
    hits = successes_law(attack_dice, attack, attack_difficulty, table)
    return hits.compose(die_law(minimum_roll(strength, resilience, table)))


def _loss_odds(
    dice: int,
    attack: int,
    difficulty: int,
    strength: int,
    resilience: int,
    healths: Sequence[int],
    cap: int,
    table: UniversalTable | None,
) -> LossOdds:
    if dice < 0 or cap < 0:
        raise ValueError("dice and the cap are not negative")
    if any(h < 1 for h in healths):
        raise ValueError("every target fighter has at least one health point")
    most = max_eliminations(healths, sum(healths), cap)
    enough = sum(sorted(healths)[:most])  # the damage that eliminates the most possible
    law = damage_law(dice, attack, difficulty, strength, resilience, table)
    probs = law.coefficients(max(enough, 2 * dice + 4))
    losses = [Fraction(0)] * (most + 1)
    for points, p in enumerate(probs[:enough]):
        losses[max_eliminations(healths, points, cap)] += p
    losses[most] += 1 - sum(probs[:enough], Fraction(0))
    hits = successes_distribution(dice, attack, difficulty, table=table)
    damage = SuccessDistribution(probs, 1 - sum(probs, Fraction(0)))
    return LossOdds(hits, damage, tuple(losses))


def salvo_odds(
    *,
    marksmen: int,
    dice: int,
    ranged_attack: int,
    difficulty: int,
    strength: int,
    resilience: int,
    healths: Sequence[int],
    table: UniversalTable | None = None,
) -> LossOdds:
    """# C4 Unit Ranged Attack: a whole salvo of ``marksmen`` of one profile (``dice`` each)
    against a unit whose fighters have ``healths``; no more eliminated than weapons shot."""
    if marksmen < 1 or dice < 1:
        raise ValueError("a salvo has at least one marksman rolling at least one die")
    return _loss_odds(
        dice * marksmen, ranged_attack, difficulty, strength, resilience, healths, marksmen, table
    )


def combat_odds(
    *,
    dice: int,
    attack: int,
    defense: int,
    strength: int,
    resilience: int,
    healths: Sequence[int],
    cap: int | None = None,
    table: UniversalTable | None = None,
) -> LossOdds:
    """# C4 Combat: one combat (``dice`` the attackers' share of their dice, ATT value against
    DEF, the chosen weapon's Strength against RES) against the defenders in contact."""
    limit = len(healths) if cap is None else cap
    return _loss_odds(dice, attack, defense, strength, resilience, healths, limit, table)
