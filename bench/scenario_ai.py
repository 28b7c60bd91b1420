"""Do the computer players play the scenario? Greedy against random on every bundled
scenario with victory conditions (XX-A-4): greedy's win rate with its 95 % interval, and how
often each agent fulfils each condition (tokens carried, objectives held…), per game.

Sides swap every game (greedy is Player 1 in the even games). Seeds 0 … N-1 of the batch.
Run: ``.venv/bin/python bench/scenario_ai.py [--games 100] [--jobs 2] [SCENARIO ...]``
(results go in docs/ai.md with the command).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from confrontation.scenarios.base import bundled_scenarios, resolve
from confrontation.scenarios.victory import ConditionMet
from confrontation.sim.batch import wilson
from confrontation.sim.game import GameConfig, play_game

AGENTS = ("greedy", "random")


Game = tuple[int | None, dict[str, int], dict[str, int], tuple[int, int]]
"""Winning agent (0 greedy, 1 random, None), conditions met by each, (greedy VP, random VP)."""


def one_game(args: tuple[str, int]) -> Game:
    """One seeded game of ``args`` = (scenario, seed)."""
    scenario, seed = args
    swap = seed % 2 == 1
    agents = (AGENTS[1], AGENTS[0]) if swap else AGENTS
    met: list[ConditionMet] = []
    result = play_game(
        GameConfig(scenario=scenario, agents=agents, seed=seed),
        on_event=lambda e: met.append(e) if isinstance(e, ConditionMet) else None,
    )
    greedy_seat = 1 if swap else 0
    by: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    for event in met:
        by[0 if event.player == greedy_seat else 1][event.condition] += 1
    winner = None
    if result.winner is not None:
        winner = 0 if result.winner == greedy_seat else 1
    vp = result.state.scores
    return winner, dict(by[0]), dict(by[1]), (vp[greedy_seat], vp[1 - greedy_seat])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("scenarios", nargs="*")
    args = parser.parse_args()
    names = args.scenarios or [s for s in bundled_scenarios() if resolve(s).conditions]
    with ProcessPoolExecutor(args.jobs) as pool:
        for name in names:
            start = time.perf_counter()
            games = list(pool.map(one_game, [(name, s) for s in range(args.games)]))
            wins = sum(1 for g in games if g[0] == 0)
            losses = sum(1 for g in games if g[0] == 1)
            draws = len(games) - wins - losses
            low, high = wilson(wins, len(games))
            print(
                f"{name}: greedy wins {wins}/{len(games)} ({wins / len(games):.0%}, 95 % "
                f"{low:.0%}-{high:.0%}), random {losses}, draws {draws}; mean VP greedy "
                f"{sum(g[3][0] for g in games) / len(games):.2f}, random "
                f"{sum(g[3][1] for g in games) / len(games):.2f} "
                f"({time.perf_counter() - start:.0f} s)"
            )
            for condition in resolve(name).conditions:
                g = sum(1 for game in games if condition.id in game[1])
                r = sum(1 for game in games if condition.id in game[2])
                print(f"  {condition.id:>24}: greedy {g}/{len(games)}, random {r}/{len(games)}")


if __name__ == "__main__":
    main()
