"""Whole-combat odds (VII-C): exact = every die face through the engine's fight() on tiny
combats; exact ≈ Monte Carlo (the engine's fight() with a SeededRoller, and numpy) on larger
ones, within 4.5 standard errors (a fixed seed: the check is deterministic)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import TypedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st
from odds_brute import PrefixRoller, enumerate_faces

from confrontation.odds import (
    CombatOdds,
    DefencePolicy,
    Fighter,
    combat_odds,
    simulate,
    simulate_engine,
)
from confrontation.odds.combat import CENTRE_SIDE, ENEMY_SIDE, Tactics, fixed_order_odds
from confrontation.odds.montecarlo import MonteCarloOdds
from confrontation.rules.characteristics import HealthState
from confrontation.rules.combat import (
    Allocation,
    Combatant,
    CombatState,
    DefenceChoice,
    Stats,
    defence_choices,
    fight,
)

P = DefencePolicy
SIGMAS = 4.5

WEAK = Stats(ini=3, att=0, str_=6, def_=2, res=5)
TOUGH = Stats(ini=3, att=2, str_=7, def_=3, res=4)


def _tiny(a: Allocation, b: Allocation, order: tuple[str, str], att_b: int = 2) -> CombatState:
    return CombatState(
        "a",
        (
            Combatant("a", CENTRE_SIDE, WEAK, a),
            Combatant("b", ENEMY_SIDE, replace(TOUGH, att=att_b), b),
        ),
        order,
    )


def _brute(
    state: CombatState, policies: dict[str, DefencePolicy]
) -> dict[tuple[HealthState, ...], Fraction]:
    def run(roller: PrefixRoller) -> tuple[HealthState, ...]:
        tactics = Tactics(state.centre, policies, tuple(f.id for f in state.fighters[1:]))
        end, _ = fight(roller, state, tactics.decisions())
        return tuple(f.health for f in end.fighters)

    return enumerate_faces(run)


@pytest.mark.rule("VII-C-3", "VII-C-4", "II-B-4")
def test_wound_penalties_and_death_equal_every_face_through_fight() -> None:
    # b strikes first; a wound lowers a's STR for his answer, a death loses his die.
    state = _tiny(Allocation(1, 0), Allocation(1, 0), (ENEMY_SIDE, CENTRE_SIDE))
    policies = {"a": P.NONE, "b": P.NONE}
    exact = fixed_order_odds(state, Tactics("a", policies, ("b",)))
    assert exact == _brute(state, policies)
    assert sum(exact.values()) == 1
    # a dies before striking in some of them: then b is untouched
    assert any(end[0].killed and end[1] == HealthState() for end in exact)


@pytest.mark.rule("VII-C-4", "II-A-4")
def test_attack_tests_and_a_defence_die_equal_every_face_through_fight() -> None:
    # b's ATT -1 makes his attack test fail on a natural 1; a defends with his die.
    state = _tiny(Allocation(0, 1), Allocation(1, 0), (ENEMY_SIDE, CENTRE_SIDE), att_b=-1)
    for policy in (P.ONE, P.SUSTAIN):
        policies = {"a": policy, "b": P.NONE}
        exact = fixed_order_odds(state, Tactics("a", policies, ("b",)))
        assert exact == _brute(state, policies)


# --- larger combats: Monte Carlo ------------------------------------------------------------------

GUARD = Stats(ini=3, att=5, str_=8, def_=5, res=11)
DAWN = Stats(ini=3, att=3, str_=7, def_=3, res=7)
ARKEON = Stats(ini=5, att=5, str_=7, def_=6, res=9)


def _close(exact: Fraction, *, mc: float, runs: int) -> bool:
    p = float(exact)
    sigma = math.sqrt(max(p * (1 - p), 1e-4) / runs)
    return abs(mc - p) <= SIGMAS * sigma


def _agree_levels(odds: CombatOdds, mc: MonteCarloOdds) -> None:
    for name in odds.names:
        assert _close(odds.p_killed(name), mc=mc.p_killed(name).estimate, runs=mc.runs), name
        exact = float(odds.expected_levels(name))
        est = mc.expected_levels(name)
        half = (est.high - est.low) / 2
        assert abs(est.estimate - exact) <= SIGMAS / 1.96 * max(half, 1e-3), name


class Charges(TypedDict, total=False):
    """Who charged this round (V-B-3), as the odds functions take it."""

    charge: bool
    charged: bool


CASES: dict[str, tuple[Fighter, list[Fighter], Charges]] = {
    "1v1 sustain": (
        Fighter("g", GUARD, Allocation(1, 1), P.SUSTAIN),
        [Fighter("w", DAWN, Allocation(1, 1), P.SUSTAIN)],
        {},
    ),
    "1v2 all, stunned, charge": (
        Fighter("g", GUARD, Allocation(1, 2), P.ALL, HealthState(1, True), power=2),
        [Fighter("w1", DAWN, Allocation(0, 2), P.SUSTAIN), Fighter("w2", DAWN, Allocation(2, 0))],
        {"charge": True},
    ),
    "1v2 charged": (
        Fighter("g", DAWN, Allocation(2, 1), P.ONE),
        [
            Fighter("w1", DAWN, Allocation(1, 1)),
            Fighter("w2", replace(DAWN, att=-1), Allocation(2, 0)),
        ],
        {"charged": True},
    ),
}


@pytest.mark.rule("VII-C-2", "VII-C-3", "VII-C-4", "VII-C-5", "V-B-3")
@pytest.mark.parametrize("case", sorted(CASES))
def test_exact_agrees_with_the_engine_played_by_a_seeded_roller(case: str) -> None:
    lone, enemies, options = CASES[case]
    exact = combat_odds(lone, enemies, **options)
    engine = simulate_engine(lone, enemies, runs=1500, seed=7, **options)
    _agree_levels(exact, engine)


@pytest.mark.rule("VII-C-3", "VII-C-4", "II-B-5")
@pytest.mark.parametrize("case", sorted(CASES))
def test_exact_agrees_with_numpy_monte_carlo(case: str) -> None:
    lone, enemies, options = CASES[case]
    exact = combat_odds(lone, enemies, **options)
    mc = simulate(lone, enemies, runs=40_000, seed=11, **options)
    _agree_levels(exact, mc)


@pytest.mark.rule("VII-C-3", "II-B-5")
def test_several_rounds_exact_agrees_with_numpy_monte_carlo() -> None:
    lone = Fighter("g", DAWN, Allocation(1, 1), P.SUSTAIN)
    enemy = Fighter("w", DAWN, Allocation(1, 1), P.ONE)
    exact = combat_odds(lone, [enemy], rounds=3)
    one = combat_odds(lone, [enemy])
    assert exact.p_killed("w") > one.p_killed("w")  # more rounds, more deaths
    mc = simulate(lone, [enemy], runs=40_000, seed=5, rounds=3)
    _agree_levels(exact, mc)


@pytest.mark.rule("VII-C-2")
def test_forced_initiative_mixes_into_the_rolled_one() -> None:
    lone = Fighter("g", DAWN, Allocation(2, 0))
    enemy = Fighter("w", replace(DAWN, ini=5), Allocation(1, 1))
    rolled = combat_odds(lone, [enemy])
    first = combat_odds(lone, [enemy], first=True)
    second = combat_odds(lone, [enemy], first=False)
    assert 0 < rolled.p_first < Fraction(1, 2)  # INI 3 against 5
    for end in set(first.outcomes) | set(second.outcomes):
        mixed = rolled.p_first * first.outcomes.get(end, 0) + (
            1 - rolled.p_first
        ) * second.outcomes.get(end, 0)
        assert rolled.outcomes.get(end, 0) == mixed
    # striking first helps
    assert first.p_killed("w") > second.p_killed("w")


# --- properties ---------------------------------------------------------------------------------

stats = st.builds(
    Stats,
    ini=st.integers(0, 6),
    att=st.integers(-2, 7),
    str_=st.integers(2, 10),
    def_=st.integers(-2, 7),
    res=st.integers(3, 12),
)
policies = st.sampled_from(list(DefencePolicy))


@pytest.mark.rule("VII-C-1", "VII-C-3")
@given(
    a=stats, b=stats, split_a=st.integers(0, 2), split_b=st.integers(0, 2), pa=policies, pb=policies
)
def test_any_1v1_is_a_distribution_with_consistent_summaries(
    a: Stats, b: Stats, split_a: int, split_b: int, pa: DefencePolicy, pb: DefencePolicy
) -> None:
    lone = Fighter("a", a, Allocation(split_a, 2 - split_a), pa)
    enemy = Fighter("b", b, Allocation(split_b, 2 - split_b), pb)
    odds = combat_odds(lone, [enemy])
    assert sum(odds.outcomes.values()) == 1
    assert all(p > 0 for p in odds.outcomes.values())
    # never both dead (one side's death ends the combat) and nobody hurt without attack dice
    assert odds.p(lambda s: s[0].killed and s[1].killed) == 0
    if split_a == 0:
        assert odds.p(lambda s: s[1].wound_levels > 0 or s[1].stunned) == 0
    assert 0 <= odds.expected_levels("a") <= 4


@pytest.mark.rule("VII-C-5", "VII-C-4")
@given(
    attack=st.integers(0, 3),
    defence=st.integers(0, 3),
    left=st.integers(0, 3),
    sustaining=st.booleans(),
    policy=policies,
)
def test_every_policy_announces_a_legal_defence(
    attack: int, defence: int, left: int, sustaining: bool, policy: DefencePolicy
) -> None:
    left = min(left, defence)
    sustaining = sustaining and left >= 1 and defence >= attack
    fighter = Combatant(
        "f", "x", DAWN, Allocation(attack, defence), defence_left=left, sustaining=sustaining
    )
    choices = defence_choices(fighter)
    choice = policy.choose(fighter, choices)
    assert choice in choices
    if sustaining:
        assert choice == DefenceChoice(1, True)
