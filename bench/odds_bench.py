"""Combat odds: exact 1-against-1 time, Monte Carlo combats per second (numpy and the plain
engine), next to numpy's raw d6 rate measured in the same run (the ceiling).

Run: `.venv/bin/python bench/odds_bench.py` (or `make bench`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

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
    guard = best_time(
        lambda: combat_odds(
            Fighter("g", GUARD, Allocation(3, 1)),
            [
                Fighter("d1", DAWN, Allocation(2, 0)),
                Fighter("d2", DAWN, Allocation(1, 1)),
                Fighter("a", Stats(5, 5, 7, 6, 9), Allocation(1, 1)),
            ],
        ),
        1,
    )
    print(
        f"exact 1v1 combat: {exact * 1e3:.1f} ms cold, {warm * 1e3:.1f} ms warm "
        f"(target < 50 ms); exact 1v3 (VII-C example) {guard:.2f} s"
    )
    runs = 200_000
    result: dict[str, MonteCarloOdds] = {}

    def numpy_mc() -> None:
        result["mc"] = simulate(LONE, [ENEMY], runs=runs, seed=3)

    mc_time = best_time(numpy_mc, 3)
    engine_runs = 2_000
    engine_time = best_time(lambda: simulate_engine(LONE, [ENEMY], runs=engine_runs, seed=3), 1)
    batch_dice = result["mc"].dice  # dice rolled by the vectorised simulation
    mc_rate = runs / mc_time
    print(
        f"Monte Carlo 1v1: numpy {mc_rate:,.0f} combats/s ({batch_dice / mc_time / 1e6:.1f} M "
        f"dice/s = {batch_dice / mc_time / ceiling:.1%} of the ceiling); plain engine "
        f"{engine_runs / engine_time:,.0f} combats/s; ratio numpy/engine "
        f"{mc_rate / (engine_runs / engine_time):.0f}"
    )


if __name__ == "__main__":
    main()
