"""Combat odds: exact 1-against-1 time, Monte Carlo combats per second (numpy and the plain
engine), next to numpy's raw d6 rate measured in the same run (the ceiling).

The numpy Monte Carlo draws each attack's outcome from its exact odds (one random word per
attack, no die): its rate against the ceiling is counted in dice-equivalents, i.e. combats/s
times the dice the same combats throw when every die is rolled (``roll_dice=True``, measured
here on the same 200,000 combats). The die-by-die simulation is reported too.

Run: `.venv/bin/python bench/odds_bench.py` (or `make bench`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np

from confrontation.odds import (
    DefencePolicy,
    Fighter,
    MonteCarloOdds,
    combat_odds,
    simulate,
    simulate_engine,
)
from confrontation.odds.exact import attack_stop_natural, block_odds
from confrontation.rules.combat import Allocation, Stats

GUARD = Stats(ini=3, att=5, str_=8, def_=5, res=11)
DAWN = Stats(ini=3, att=3, str_=7, def_=3, res=7)
LONE = Fighter("guard", GUARD, Allocation(1, 1), DefencePolicy.SUSTAIN)
ENEMY = Fighter("warrior", DAWN, Allocation(1, 1), DefencePolicy.ONE)
VII_C_EXAMPLE = (
    Fighter("g", GUARD, Allocation(3, 1)),
    [
        Fighter("d1", DAWN, Allocation(2, 0)),
        Fighter("d2", DAWN, Allocation(1, 1)),
        Fighter("a", Stats(5, 5, 7, 6, 9), Allocation(1, 1)),
    ],
)


def best_time(work: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def cold_exact() -> None:
    """An exact 1-against-1 with the per-attack caches emptied (what a new match-up costs)."""
    block_odds.cache_clear()
    attack_stop_natural.cache_clear()
    combat_odds(LONE, [ENEMY])


def main() -> None:
    rng = np.random.default_rng(1)
    n = 10_000_000
    ceiling = n / best_time(lambda: rng.integers(1, 7, size=n, dtype=np.int64), 3)
    print(f"numpy d6 generation (ceiling): {ceiling / 1e6:.1f} M dice/s")

    exact = best_time(cold_exact)
    warm = best_time(lambda: combat_odds(LONE, [ENEMY]))
    guard = best_time(lambda: combat_odds(*VII_C_EXAMPLE), 1)
    print(
        f"exact 1v1 combat: {exact * 1e3:.1f} ms cold, {warm * 1e3:.1f} ms warm "
        f"(target < 50 ms); exact 1v3 (VII-C example) {guard:.2f} s"
    )
    runs = 200_000
    result: dict[str, MonteCarloOdds] = {}

    def numpy_mc(roll_dice: bool) -> Callable[[], None]:
        def work() -> None:
            result[str(roll_dice)] = simulate(LONE, [ENEMY], runs=runs, seed=3, roll_dice=roll_dice)

        return work

    start = time.perf_counter()
    simulate(LONE, [ENEMY], runs=1_000, seed=1)  # outcome rows computed on first use
    first = time.perf_counter() - start
    fast_time = best_time(numpy_mc(False), 5)
    dice_time = best_time(numpy_mc(True), 3)
    dice_per_combat = result["True"].dice / runs  # what the same combats roll, die by die
    fast_rate, dice_rate = runs / fast_time, runs / dice_time
    print(
        f"Monte Carlo 1v1, numpy, exact-odds draw: {fast_rate:,.0f} combats/s "
        f"(first call {first * 1e3:.0f} ms: tables); x {dice_per_combat:.2f} dice a combat = "
        f"{fast_rate * dice_per_combat / 1e6:.1f} M dice-equivalents/s = "
        f"{fast_rate * dice_per_combat / ceiling:.1%} of the ceiling"
    )
    print(
        f"Monte Carlo 1v1, numpy, every die rolled: {dice_rate:,.0f} combats/s "
        f"({dice_rate * dice_per_combat / 1e6:.1f} M dice/s = "
        f"{dice_rate * dice_per_combat / ceiling:.1%} of the ceiling)"
    )
    engine_runs = 2_000
    engine_time = best_time(lambda: simulate_engine(LONE, [ENEMY], runs=engine_runs, seed=3), 1)
    engine_rate = engine_runs / engine_time
    print(
        f"plain engine: {engine_rate:,.0f} combats/s; numpy/engine {fast_rate / engine_rate:,.0f} "
        f"(exact-odds draw), {dice_rate / engine_rate:,.0f} (dice)"
    )
    for label, lone, enemies, rounds in (
        ("1v3 (VII-C example)", *VII_C_EXAMPLE, 1),
        ("1v1, 3 rounds", LONE, [ENEMY], 3),
    ):
        rates = []
        for roll_dice in (False, True):
            seconds = best_time(
                partial(
                    simulate, lone, enemies, runs=runs, seed=4, rounds=rounds, roll_dice=roll_dice
                ),
                3,
            )
            rates.append(runs / seconds)
        print(
            f"Monte Carlo {label}: {rates[0]:,.0f} combats/s (exact-odds draw), "
            f"{rates[1]:,.0f} (dice)"
        )
    for name, r in result.items():
        killed = r.p_killed("warrior")
        print(
            f"  check ({'dice' if name == 'True' else 'odds'}): P(warrior killed) "
            f"{killed.estimate:.4f} [{killed.low:.4f}, {killed.high:.4f}]"
        )
    print(f"  exact: P(warrior killed) {float(combat_odds(LONE, [ENEMY]).p_killed('warrior')):.4f}")


if __name__ == "__main__":
    main()
