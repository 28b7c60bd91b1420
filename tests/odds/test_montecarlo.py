"""The numpy Monte Carlo (odds.montecarlo.simulate): its two ways of drawing an attack (the
exact-odds alias draw, every die rolled) against the exact answers, its alias tables, its
determinism, and batches larger than one chunk. Fixed seeds: every check is deterministic;
tolerance 4.5 standard errors, as in test_combat_odds."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.odds import CombatOdds, DefencePolicy, Fighter, combat_odds, simulate
from confrontation.odds.montecarlo import _CHUNK, _FRACTION_BITS, _W, MonteCarloOdds, _alias
from confrontation.rules.characteristics import HealthState
from confrontation.rules.combat import Allocation, Stats

P = DefencePolicy
SIGMAS = 4.5
GUARD = Stats(ini=3, att=5, str_=8, def_=5, res=11)
DAWN = Stats(ini=3, att=3, str_=7, def_=3, res=7)
WEAK = Stats(ini=2, att=-1, str_=5, def_=1, res=5)

CASES: dict[str, tuple[Fighter, list[Fighter], dict[str, Any]]] = {
    "1v1 sustain against all": (
        Fighter("g", DAWN, Allocation(1, 1), P.SUSTAIN),
        [Fighter("w", GUARD, Allocation(0, 2), P.ALL)],
        {},
    ),
    "1v1 ATT -1, stunned, charged, 3 rounds": (
        Fighter("g", WEAK, Allocation(2, 0), P.NONE, HealthState(0, True)),
        [Fighter("w", DAWN, Allocation(1, 1), P.SUSTAIN)],
        {"charged": True, "rounds": 3},
    ),
    "1v2 two rounds, dice allocated again": (
        Fighter("g", GUARD, Allocation(1, 2), P.SUSTAIN),
        [Fighter("w1", DAWN, Allocation(1, 1)), Fighter("w2", DAWN, Allocation(2, 0))],
        {"rounds": 2},
    ),
    "1v3 wounded, charge": (
        Fighter("g", GUARD, Allocation(3, 1), P.ONE, HealthState(1, False)),
        [
            Fighter("w1", DAWN, Allocation(1, 1)),
            Fighter("w2", DAWN, Allocation(2, 0), P.NONE),
            Fighter("w3", DAWN, Allocation(0, 2), P.ALL),
        ],
        {"charge": True},
    ),
}


@cache
def _exact(case: str) -> CombatOdds:
    lone, enemies, options = CASES[case]
    return combat_odds(lone, enemies, **options)


def _close(p: float, mc: float, runs: int) -> bool:
    return abs(mc - p) <= SIGMAS * math.sqrt(max(p * (1 - p), 1e-4) / runs)


def _agree(exact: CombatOdds, mc: MonteCarloOdds) -> None:
    for name in exact.names:
        assert _close(float(exact.p_killed(name)), mc.p_killed(name).estimate, mc.runs), name
        est = mc.expected_levels(name)
        half = (est.high - est.low) / 2
        assert abs(est.estimate - float(exact.expected_levels(name))) <= SIGMAS / 1.96 * max(
            half, 1e-3
        ), name
    # the whole end state, Stunned flags included
    freq = mc.frequencies()
    for end, p in exact.outcomes.items():
        key = tuple((h.wound_levels, h.stunned) for h in end)
        assert _close(float(p), freq.get(key, 0.0), mc.runs), end
    assert set(freq) <= {tuple((h.wound_levels, h.stunned) for h in end) for end in exact.outcomes}


@pytest.mark.rule("VII-C-2", "VII-C-3", "VII-C-4", "VII-C-5", "II-B-5", "V-B-3")
@pytest.mark.parametrize("roll_dice", [False, True], ids=["odds", "dice"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_numpy_monte_carlo_agrees_with_the_exact_end_states(case: str, roll_dice: bool) -> None:
    lone, enemies, options = CASES[case]
    exact = _exact(case)
    mc = simulate(lone, enemies, runs=30_000, seed=17, roll_dice=roll_dice, **options)
    _agree(exact, mc)
    assert (mc.dice > 0) == roll_dice  # only the die-by-die draw throws dice


@pytest.mark.rule("VII-C-3", "VII-C-4")
def test_several_chunks_and_the_same_seed_give_the_same_combats() -> None:
    lone, enemies, _ = CASES["1v1 sustain against all"]
    runs = _CHUNK + 4_321
    one = simulate(lone, enemies, runs=runs, seed=5)
    again = simulate(lone, enemies, runs=runs, seed=5)
    other = simulate(lone, enemies, runs=runs, seed=6)
    assert one.levels.shape == (runs, 2)
    assert np.array_equal(one.levels, again.levels) and np.array_equal(one.stunned, again.stunned)
    assert not np.array_equal(one.levels, other.levels)
    _agree(_exact("1v1 sustain against all"), one)


@given(st.lists(st.integers(0, 50), min_size=1, max_size=_W).filter(any))
def test_alias_tables_give_back_the_probabilities(weights: list[int]) -> None:
    p = [Fraction(w, sum(weights)) for w in weights] + [Fraction(0)] * (_W - len(weights))
    prob, alias = _alias(p)
    one = 1 << _FRACTION_BITS
    mass = [Fraction(0)] * _W
    for column in range(_W):
        keep = Fraction(int(prob[column]), one)
        assert 0 <= keep <= 1
        mass[column] += keep / _W
        mass[int(alias[column])] += (1 - keep) / _W
    for q, m in zip(p, mass, strict=True):
        assert abs(q - m) <= Fraction(1, one)  # the thresholds are rounded to 2^-53
        if q == 0:
            assert m == 0  # an impossible outcome is never drawn
