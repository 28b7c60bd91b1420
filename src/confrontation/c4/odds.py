"""Exact odds of the unit-based ruleset (``002_…``, "C4"): tests, salvos and combats.

What to call (the CLI's ``confrontation odds c4-test / c4-salvo / c4-combat`` does):

* :func:`attack_odds` ``(dice, action, difficulty)`` and :func:`strength_odds`
  ``(hits, strength, resilience)``: laws of successes (:class:`SuccessDistribution`).
* :func:`salvo_odds` ``(marksmen=, dice=, ranged_attack=, difficulty=, strength=, resilience=,
  healths=) -> LossOdds``: hits, damage points and fighters eliminated by one salvo, exactly.
* :func:`combat_odds` ``(dice=, attack=, defense=, strength=, resilience=, healths=, cap=None)``:
  the same for one combat of a melee (no cap but the fighters in contact).
* :func:`melee_odds` ``(combats, defenders) -> MeleeOdds``: a whole melee, its combats
  (:class:`CombatSpec`) in the active player's order, exactly.

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


# --- a whole melee: several combats in the active player's order ------------------------------


@dataclass(frozen=True)
class CombatSpec:
    """One combat of a melee for :func:`melee_odds`: the defender profile it strikes, the dice
    the attackers give it (:func:`confrontation.c4.salvo.split_dice`), ATT value, the
    defenders' DEF, the chosen weapon's Strength and the defenders' RES."""

    defender: str
    dice: int
    attack: int
    defense: int
    strength: int
    resilience: int


@dataclass(frozen=True)
class MeleeOdds:
    """Exact law of a whole melee: ``outcomes[(k1, k2, …)]`` = P(k1 fighters of
    ``profiles[0]`` eliminated, k2 of ``profiles[1]``, …)."""

    profiles: tuple[str, ...]
    outcomes: dict[tuple[int, ...], Fraction]

    def expected(self, profile: str) -> Fraction:
        """Mean number of ``profile``'s fighters eliminated."""
        at = self.profiles.index(profile)
        return sum((k[at] * p for k, p in self.outcomes.items()), Fraction(0))

    def total_law(self) -> dict[int, Fraction]:
        """P(n fighters eliminated in all), whatever their profile."""
        law: dict[int, Fraction] = {}
        for k, p in self.outcomes.items():
            law[sum(k)] = law.get(sum(k), Fraction(0)) + p
        return law


def melee_odds(
    combats: Sequence[CombatSpec],
    defenders: dict[str, Sequence[int]],
    *,
    table: UniversalTable | None = None,
) -> MeleeOdds:
    """# C4 Combat: the exact law of a whole melee, its combats resolved in order.

    ``defenders[profile]`` lists the health left of that profile's fighters in contact,
    nearest the attacking unit's leader first. A later combat against the same profile strikes
    the survivors as the earlier ones left them (the eliminated gone, the wounded wounded), so
    the law follows every such state exactly (losses removed by
    :func:`confrontation.c4.salvo.remove_losses`, no cap but the fighters in contact).
    """
    from confrontation.c4.salvo import Target, remove_losses

    profiles = tuple(sorted(defenders))
    for c in combats:
        if c.defender not in defenders:
            raise ValueError(f"no defender of profile {c.defender!r} in contact")
        if c.dice < 0:
            raise ValueError("a combat has no negative number of dice")
    for healths in defenders.values():
        if any(h < 1 for h in healths):
            raise ValueError("every defender has at least one health point")
    State = tuple[tuple[int, ...], ...]
    start: State = tuple(tuple(defenders[p]) for p in profiles)
    states: dict[State, Fraction] = {start: Fraction(1)}
    for combat in combats:
        at = profiles.index(combat.defender)
        law = damage_law(
            combat.dice, combat.attack, combat.defense, combat.strength, combat.resilience, table
        )
        after: dict[State, Fraction] = {}
        for state, p in states.items():
            healths = state[at]
            total = sum(healths)
            probs = law.coefficients(total) if total else ()
            outcomes: list[tuple[tuple[int, ...], Fraction]] = []
            for points, q in enumerate(probs):
                targets = [Target(str(i), h, float(i)) for i, h in enumerate(healths)]
                losses = remove_losses(targets, points, cap=len(targets))
                wounded = dict(losses.wounds)
                gone = set(losses.eliminated)
                left = tuple(
                    h - wounded.get(str(i), 0) for i, h in enumerate(healths) if str(i) not in gone
                )
                outcomes.append((left, q))
            outcomes.append(((), 1 - sum(probs, Fraction(0))))  # enough to eliminate them all
            for left, q in outcomes:
                if q:
                    new = (*state[:at], left, *state[at + 1 :])
                    after[new] = after.get(new, Fraction(0)) + p * q
        states = after
    result: dict[tuple[int, ...], Fraction] = {}
    for state, p in states.items():
        key = tuple(len(start[i]) - len(state[i]) for i in range(len(profiles)))
        result[key] = result.get(key, Fraction(0)) + p
    return MeleeOdds(profiles, result)
