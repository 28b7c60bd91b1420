"""Exact dice odds: `confrontation.dice` against icepool, timed in the same run.

One function per comparison, each printing its two times and their ratio; `main` runs them all.
Run: `.venv/bin/python bench/dice_bench.py` (or `make bench`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction

import icepool

from confrontation import dice
from confrontation.rules import wounds

REPEAT = 50


def best_time(work: Callable[[], object], repeat: int = REPEAT) -> float:
    """Best wall time of ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def report(name: str, ours: float, theirs: float, who: str = "confrontation.dice") -> None:
    print(
        f"{name}: {who} {ours * 1e3:.3f} ms, icepool {theirs * 1e3:.3f} ms, "
        f"ratio ours/icepool {ours / theirs:.2f}"
    )


def _clear_dice_caches() -> None:
    """Time every run cold: forget the memoised roll outcomes and closed forms."""
    dice._roll_outcomes.cache_clear()
    dice.p_ends_on_one.cache_clear()
    dice.opposed_round.cache_clear()


def compare_test_distribution() -> None:
    """3d6 test distribution (II-A-2): keep the best die, 6s raised.

    Ours: the exact natural distribution of a 3-dice test that always raises, every natural up
    to 38 itemised and the endless chains above lumped in an exact tail. icepool: keep-highest
    of three d6 each exploding on 6 six times (the same itemised range). The rules differ a
    little (Confédé re-rolls the 6s together, loses the other dice, and a re-roll showing 1
    makes the natural 1), so the work is comparable, not identical; without raises both are the
    plain highest of 3d6 and must agree exactly, which is checked first.
    """
    never = dice.natural_distribution(3, dice.RaisePolicy.NEVER).probabilities
    plain = icepool.Pool([icepool.d6] * 3).highest(1).sum()
    assert never == {x: Fraction(plain.quantity(x), plain.denominator()) for x in plain}

    def ours() -> dice.ResultDistribution:
        _clear_dice_caches()
        return dice.natural_distribution(3, dice.RaisePolicy.ALWAYS, cap=36)

    def theirs() -> object:
        return icepool.Pool([icepool.d6.explode([6], depth=6)] * 3).highest(1).sum()

    assert ours().total() == 1
    report("3-dice test distribution, always raising", best_time(ours), best_time(theirs))

    def ours_aimed() -> object:
        _clear_dice_caches()
        return dice.natural_distribution(3, dice.RaisePolicy.OPTIMAL, target=20)

    report(
        "3-dice test distribution, raising until 20 (icepool as above)",
        best_time(ours_aimed),
        best_time(theirs),
    )


def compare_wound_distribution() -> None:
    """Wound-roll distribution (II-B-1, II-B-6): every result, STR 6 against RES 7.

    Ours: `wounds.wound_odds` (joint location x result table) with its caches cleared, so the
    faces are enumerated again each run. icepool: the same table read on the sorted kept dice
    of 2d6 (normal) and of 3d6 keeping the two highest (amplified). Both must agree exactly.
    """
    table = wounds.default_injury_table()
    margin = 6 - 7

    def read(kept: tuple[int, int]) -> int:
        low, high = kept
        if low == high == 6:
            return int(wounds.WoundResult.KILLED)
        return int(table.cells[table.band(high + margin)][min(low, 5) - 1])

    pools = {
        wounds.WoundMode.NORMAL: lambda: icepool.d6.pool(2),
        wounds.WoundMode.AMPLIFIED: lambda: icepool.d6.pool(3).highest(2),
    }
    for mode, pool in pools.items():

        def ours(mode: wounds.WoundMode = mode) -> wounds.WoundOdds:
            wounds._odds.cache_clear()
            wounds._kept_pairs.cache_clear()
            return wounds.wound_odds(6, 7, mode)

        def theirs(pool: Callable[[], icepool.Pool] = pool) -> icepool.Die:
            return pool().expand().map(read)

        die = theirs()
        exact = {int(r): p for r, p in ours().outcomes().items() if p}
        assert exact == {x: Fraction(die.quantity(x), die.denominator()) for x in die}
        report(
            f"wound distribution, {mode.value} roll",
            best_time(ours),
            best_time(theirs),
            "confrontation.rules.wounds",
        )
    warm = best_time(lambda: [wounds.wound_distribution(6, 7) for _ in range(1000)]) / 1000
    print(f"wound distribution, cached (hot-loop) call: {warm * 1e6:.2f} µs")


COMPARISONS: list[Callable[[], None]] = [compare_test_distribution, compare_wound_distribution]


def main() -> None:
    for comparison in COMPARISONS:
        comparison()


if __name__ == "__main__":
    main()
