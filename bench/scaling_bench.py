"""Army scaling (issue 22: "a 3× army game costs at most 4× a 250 AP game"), over enough
games to tell: greedy-v-greedy games at 250 AP (the default armies) and at 750 AP
(:func:`engine_bench.scaled_army`: the same cards three times over), the same seeds at each
size, played alternately (250, 750, 250, 750, ...) so that this shared machine's drift
weighs on both sizes alike.

``engine_bench.py``'s scaling line plays two games of each size: a game's CPU moves with its
length (the rounds played, the fighters left) by a factor of two or more from seed to seed,
so two games give a ratio anywhere between about 3 and 6. This bench prints each game's CPU,
rounds and steps, each size's mean CPU a game, and the ratio of the means with its 95 %
interval (delta method: the two means' relative standard errors added in quadrature; the
seeds are independent games at each size, not pairs). The same 250 AP games also give the
other goal's figure, a greedy game's CPU in python-chess random plies (goal ≤ 4,000): each
game's CPU is turned into plies at the chess rate measured right before and right after it
(:class:`engine_bench.Reference`, one-second slices).

Run: ``cd bench && PYTHONPATH=../src:. ../.venv/bin/python scaling_bench.py [--games 12]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
from pathlib import Path

from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import WARM_UP_SEED, Reference, scaled_army, steps_of

GOAL = 4.0
PLIES_GOAL = 4000


def played(config: GameConfig) -> tuple[float, int, int]:
    """(CPU seconds, rounds, steps) of one game."""
    begin = time.process_time()
    result = play_game(config)
    spent = time.process_time() - begin
    return spent, result.rounds, steps_of(result.events)


def ratio_interval(small: list[float], big: list[float]) -> tuple[float, float, float]:
    """The ratio of the means of ``big`` to ``small`` and its 95 % interval."""
    m1, m3 = statistics.fmean(small), statistics.fmean(big)
    r1 = statistics.stdev(small) / m1 / math.sqrt(len(small))
    r3 = statistics.stdev(big) / m3 / math.sqrt(len(big))
    ratio = m3 / m1
    spread = 1.96 * ratio * math.hypot(r1, r3)
    return ratio, ratio - spread, ratio + spread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games at each size (≥ 2)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games: at least 2 (the interval needs two games at each size)")
    cpu: dict[int, list[float]] = {250: [], 750: []}
    plies: list[float] = []  # the 250 AP games' CPU in chess plies
    with tempfile.TemporaryDirectory() as folder:
        big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
        play_game(GameConfig(seed=WARM_UP_SEED))  # untimed: catalogue, scenario, imports
        ref = Reference(1.0)
        print("seed  size  CPU-s  rounds  steps")
        for seed in range(args.seed, args.seed + args.games):
            for size, armies in ((250, None), (750, big)):
                config = (
                    GameConfig(seed=seed)
                    if armies is None
                    else GameConfig(seed=seed, armies=armies)
                )
                spent, rounds, steps = played(config)
                cpu[size].append(spent)
                if size == 250:
                    plies.append(ref.plies(spent))
                print(f"{seed:4d}  {size:4d}  {spent:5.2f}  {rounds:6d}  {steps:5d}", flush=True)
    for size, games in cpu.items():
        print(
            f"{size} AP: mean {statistics.fmean(games):.2f} CPU-s a game "
            f"(median {statistics.median(games):.2f}, {min(games):.2f}-{max(games):.2f})"
        )
    mean = statistics.fmean(plies)
    half = 1.96 * statistics.stdev(plies) / math.sqrt(len(plies))
    print(
        f"250 AP greedy game in chess plies: mean {mean:,.0f} (95 % interval "
        f"{mean - half:,.0f}-{mean + half:,.0f}; chess {ref.span()} plies/CPU-s); "
        f"goal ≤ {PLIES_GOAL:,}: {_verdict(mean - half, mean + half, PLIES_GOAL)}"
    )
    ratio, low, high = ratio_interval(cpu[250], cpu[750])
    print(
        f"750 AP / 250 AP, {args.games} games each: {ratio:.2f} "
        f"(95 % interval {low:.2f}-{high:.2f}); goal ≤ {GOAL:g}: {_verdict(low, high, GOAL)}"
    )


def _verdict(low: float, high: float, goal: float) -> str:
    """A goal "at most ``goal``" against an interval."""
    return "met" if high <= goal else ("not met" if low > goal else "not told apart")


if __name__ == "__main__":
    main()
