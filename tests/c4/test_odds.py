"""Exact C4 odds (# C4 Unit Ranged Attack, # C4 Combat): against sums, brute force and rolls."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confrontation.c4.odds import (
    CombatSpec,
    attack_odds,
    combat_odds,
    damage_law,
    melee_odds,
    salvo_odds,
    strength_odds,
)
from confrontation.c4.resolution import successes_distribution
from confrontation.c4.salvo import Target, max_eliminations, resolve_combat, resolve_salvo
from confrontation.dice import SeededRoller


def damage_by_sum(dice: int, a: int, d: int, s: int, r: int, upto: int) -> list[Fraction]:
    """P(D = k), k < upto, as Σ_h P(H = h) P(h strength dice give k): hits cut at 40."""
    hits = successes_distribution(dice, a, d, cap=40)
    out = [Fraction(0)] * upto
    for h, p in enumerate(hits.probabilities):
        law = successes_distribution(h, s, r, cap=upto)
        for k in range(upto):
            out[k] += p * law.probabilities[k]
    return out


@pytest.mark.parametrize(
    ("dice", "a", "d", "s", "r"), [(3, 4, 4, 5, 3), (2, 1, 6, 3, 7), (6, 3, 3, 3, 3)]
)
def test_damage_law_is_the_sum_over_hits(dice: int, a: int, d: int, s: int, r: int) -> None:
    exact = damage_law(dice, a, d, s, r).coefficients(6)
    approx = damage_by_sum(dice, a, d, s, r, 6)
    for k in range(6):
        assert abs(exact[k] - approx[k]) < Fraction(1, 10**25)


def test_loss_law_from_the_damage_law() -> None:
    # 2 targets of 1 HP, cap 2: P(0) = P(D = 0), P(1) = P(D = 1), P(2) = the rest.
    odds = salvo_odds(
        marksmen=2, dice=1, ranged_attack=3, difficulty=3, strength=3, resilience=3, healths=[1, 1]
    )
    law = damage_law(2, 3, 3, 3, 3).coefficients(2)
    assert odds.losses == (law[0], law[1], 1 - law[0] - law[1])
    assert odds.at_least(1) == 1 - law[0]
    assert odds.expected_losses() == law[1] + 2 * (1 - law[0] - law[1])


def test_no_more_losses_than_weapons_or_targets() -> None:
    odds = salvo_odds(
        marksmen=2, dice=3, ranged_attack=6, difficulty=0, strength=9, resilience=1, healths=[1] * 9
    )
    assert len(odds.losses) == 3  # 0, 1 or 2: two weapons shot
    few = salvo_odds(
        marksmen=5, dice=1, ranged_attack=6, difficulty=0, strength=9, resilience=1, healths=[2]
    )
    assert len(few.losses) == 2


def test_hits_and_strength_helpers() -> None:
    assert attack_odds(2, 3, 3).probabilities[0] == Fraction(1, 4)  # 4+ twice missed
    assert strength_odds(0, 3, 3).probabilities[0] == 1


def test_salvo_odds_agree_with_seeded_salvos() -> None:
    runs = 12_000
    roller = SeededRoller(2025)
    targets = [Target(f"t{i}", 2, float(i)) for i in range(5)]
    seen = Counter(
        len(
            resolve_salvo(
                roller,
                marksmen=4,
                dice=1,
                ranged_attack=4,
                difficulty=3,
                strength=4,
                resilience=3,
                targets=targets,
            ).losses.eliminated
        )
        for _ in range(runs)
    )
    odds = salvo_odds(
        marksmen=4, dice=1, ranged_attack=4, difficulty=3, strength=4, resilience=3, healths=[2] * 5
    )
    for k, p in enumerate(odds.losses):
        assert abs(seen[k] / runs - float(p)) < 0.015, k


def test_combat_odds_agree_with_seeded_combats() -> None:
    runs = 12_000
    roller = SeededRoller(7)
    targets = [Target("a", 1, 1.0), Target("b", 2, 2.0), Target("c", 1, 3.0)]
    seen = Counter(
        len(
            resolve_combat(
                roller, dice=5, attack=4, defense=4, strength=5, resilience=4, targets=targets
            ).losses.eliminated
        )
        for _ in range(runs)
    )
    odds = combat_odds(dice=5, attack=4, defense=4, strength=5, resilience=4, healths=[1, 2, 1])
    assert len(odds.losses) == 4
    for k, p in enumerate(odds.losses):
        assert abs(seen[k] / runs - float(p)) < 0.015, k


@settings(max_examples=40)
@given(
    marksmen=st.integers(1, 4),
    dice=st.integers(1, 3),
    ranged=st.integers(-2, 8),
    difficulty=st.integers(0, 8),
    strength=st.integers(0, 9),
    resilience=st.integers(0, 9),
    healths=st.lists(st.integers(1, 3), min_size=1, max_size=6),
)
def test_salvo_loss_laws_are_laws(
    marksmen: int,
    dice: int,
    ranged: int,
    difficulty: int,
    strength: int,
    resilience: int,
    healths: list[int],
) -> None:
    odds = salvo_odds(
        marksmen=marksmen,
        dice=dice,
        ranged_attack=ranged,
        difficulty=difficulty,
        strength=strength,
        resilience=resilience,
        healths=healths,
    )
    assert sum(odds.losses, Fraction(0)) == 1
    assert all(p >= 0 for p in odds.losses)
    assert len(odds.losses) - 1 == max_eliminations(healths, sum(healths), marksmen)
    # A stronger weapon never makes at least k losses less likely.
    stronger = salvo_odds(
        marksmen=marksmen,
        dice=dice,
        ranged_attack=ranged,
        difficulty=difficulty,
        strength=strength + 2,
        resilience=resilience,
        healths=healths,
    )
    for k in range(len(odds.losses)):
        assert stronger.at_least(k) >= odds.at_least(k)


def test_bad_odds_input() -> None:
    with pytest.raises(ValueError):
        salvo_odds(
            marksmen=0, dice=1, ranged_attack=1, difficulty=1, strength=1, resilience=1, healths=[1]
        )
    with pytest.raises(ValueError):
        combat_odds(dice=1, attack=1, defense=1, strength=1, resilience=1, healths=[0])


# --- a whole melee (# C4 Combat: combats in the active player's order) -----------------------


def test_one_combat_melee_is_the_combat() -> None:
    melee = melee_odds([CombatSpec("clone", 3, 4, 3, 4, 3)], {"clone": [1, 2, 1]})
    single = combat_odds(dice=3, attack=4, defense=3, strength=4, resilience=3, healths=[1, 2, 1])
    assert {k[0]: p for k, p in melee.outcomes.items()} == {
        k: p for k, p in enumerate(single.losses) if p
    }


def test_combats_on_different_profiles_are_independent() -> None:
    a = CombatSpec("clone", 2, 4, 3, 4, 3)
    b = CombatSpec("biopsist", 3, 5, 4, 4, 4)
    melee = melee_odds([a, b], {"clone": [1, 1], "biopsist": [2, 1]})
    la = combat_odds(dice=2, attack=4, defense=3, strength=4, resilience=3, healths=[1, 1]).losses
    lb = combat_odds(dice=3, attack=5, defense=4, strength=4, resilience=4, healths=[2, 1]).losses
    assert melee.profiles == ("biopsist", "clone")
    for (kb, ka), p in melee.outcomes.items():
        assert p == la[ka] * lb[kb]
    assert sum(melee.outcomes.values()) == 1
    assert melee.expected("clone") == sum(k * p for k, p in enumerate(la))


def test_melee_odds_agree_with_seeded_melees() -> None:
    # Two combats on the same profile: the second strikes the survivors as the first left them.
    combats = [CombatSpec("c", 3, 4, 4, 4, 4), CombatSpec("c", 2, 5, 4, 5, 4)]
    roller = SeededRoller(11)
    runs = 10_000
    seen: Counter[int] = Counter()
    for _ in range(runs):
        healths = {"f0": 2, "f1": 1, "f2": 2}
        for c in combats:
            targets = [Target(f, h, float(f[1])) for f, h in healths.items()]
            result = resolve_combat(
                roller,
                dice=c.dice,
                attack=c.attack,
                defense=c.defense,
                strength=c.strength,
                resilience=c.resilience,
                targets=targets,
            )
            for fighter in result.losses.eliminated:
                del healths[fighter]
            for fighter, points in result.losses.wounds:
                healths[fighter] -= points
        seen[3 - len(healths)] += 1
    law = melee_odds(combats, {"c": [2, 1, 2]}).total_law()
    assert sum(law.values()) == 1
    for k, p in law.items():
        assert abs(seen[k] / runs - float(p)) < 0.015, k


def test_bad_melee_input() -> None:
    with pytest.raises(ValueError, match="no defender"):
        melee_odds([CombatSpec("x", 1, 1, 1, 1, 1)], {"c": [1]})
    with pytest.raises(ValueError):
        melee_odds([CombatSpec("c", -1, 1, 1, 1, 1)], {"c": [1]})
    with pytest.raises(ValueError):
        melee_odds([], {"c": [0]})
