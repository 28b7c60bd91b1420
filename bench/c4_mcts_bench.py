"""C4 mcts against greedy on fresh seeds: wins with 95 % Wilson intervals and CPU per game.

    PYTHONPATH=src python bench/c4_mcts_bench.py --games 30 --seed 5000 [--mode marauder]

Plays ``--games`` seeded C4 games (``sim.c4game.play_c4``), mcts as player 0 and greedy as
player 1 (as ``confrontation simulate --rules c4 --agents mcts,greedy`` does), and prints each
game's winner and CPU seconds (``time.process_time``), then the totals. Runs against any
checkout (only ``play_c4`` and ``C4Config`` are used), so old and new can be compared.
"""

from __future__ import annotations

import argparse
import time

from confrontation.sim.batch import wilson
from confrontation.sim.c4game import C4Config, play_c4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--mode", default="marauder")
    args = parser.parse_args()
    wins = [0, 0]
    draws = 0
    cpu = 0.0
    for seed in range(args.seed, args.seed + args.games):
        config = C4Config(agents=("mcts", "greedy"), seed=seed, mode=args.mode)
        began = time.process_time()
        result = play_c4(config)
        spent = time.process_time() - began
        cpu += spent
        if result.winner is None:
            draws += 1
        else:
            wins[result.winner] += 1
        print(f"seed {seed}: winner {result.winner} scores {result.scores} cpu {spent:.2f}s")
    n = args.games
    for p, name in enumerate(("mcts", "greedy")):
        low, high = wilson(wins[p], n)
        print(f"{name}: {wins[p]}/{n} wins ({wins[p] / n:.0%}, 95 % CI {low:.0%}-{high:.0%})")
    print(f"draws: {draws}; CPU per game {cpu / n:.2f} s (total {cpu:.1f} s)")


if __name__ == "__main__":
    main()
