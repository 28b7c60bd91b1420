"""Do the computer players play the scenario? Greedy against random on every bundled
scenario with victory conditions (XX-A-4): greedy's win rate with its 95 % interval, and how
often each agent fulfils each condition (tokens carried, objectives held…), per game. In the
control-point pack (003) also each agent's CP scored, and how often his Commander dominated
an element at a scoring (CP-DOMINATE; per game and in all).

Sides swap every game (greedy is Player 1 in the even games). Seeds 0 … N-1 of the batch.
Run: ``.venv/bin/python bench/scenario_ai.py [--games 100] [--jobs 2] [SCENARIO ...]``
(results go in docs/ai.md with the command).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from confrontation.engine.core.events import Event
from confrontation.scenarios.base import bundled_scenarios, resolve
from confrontation.scenarios.control_points import ControlPointsScored
from confrontation.scenarios.victory import ConditionMet
from confrontation.sim.batch import wilson
from confrontation.sim.game import GameConfig, play_game

AGENTS = ("greedy", "random")


Game = tuple[int | None, dict[str, int], dict[str, int], tuple[int, int], tuple[int, ...]]
"""Winning agent (0 greedy, 1 random, None), conditions met by each, (greedy VP, random VP),
(greedy CP, random CP, greedy dominations, random dominations) in the 003 pack."""


def one_game(args: tuple[str, int]) -> Game:
    """One seeded game of ``args`` = (scenario, seed)."""
    scenario, seed = args
    swap = seed % 2 == 1
    agents = (AGENTS[1], AGENTS[0]) if swap else AGENTS
    met: list[ConditionMet] = []
    cps: list[ControlPointsScored] = []

    def seen(event: Event) -> None:
        if isinstance(event, ConditionMet):
            met.append(event)
        elif isinstance(event, ControlPointsScored):
            cps.append(event)

    result = play_game(GameConfig(scenario=scenario, agents=agents, seed=seed), on_event=seen)
    greedy_seat = 1 if swap else 0
    seats = (greedy_seat, 1 - greedy_seat)
    points = [0, 0]
    dominated = [0, 0]
    for scored in cps:
        for n, seat in enumerate(seats):
            points[n] += scored.gained[seat]
            dominated[n] += sum(1 for c in scored.claims if c[0] == seat and c[2] == "dominates")
    by: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    for event in met:
        by[0 if event.player == greedy_seat else 1][event.condition] += 1
    winner = None
    if result.winner is not None:
        winner = 0 if result.winner == greedy_seat else 1
    vp = result.state.scores
    cp = (*points, *dominated)
    return winner, dict(by[0]), dict(by[1]), (vp[greedy_seat], vp[1 - greedy_seat]), cp


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
            if any(g[4][0] + g[4][1] + g[4][2] + g[4][3] for g in games):
                n = len(games)
                print(
                    f"  CP scored: greedy {sum(g[4][0] for g in games) / n:.2f}, random "
                    f"{sum(g[4][1] for g in games) / n:.2f} per game; Commander dominating at a "
                    f"scoring: greedy {sum(g[4][2] for g in games)} times in "
                    f"{sum(1 for g in games if g[4][2])} games, random "
                    f"{sum(g[4][3] for g in games)} times in {sum(1 for g in games if g[4][3])}"
                )
            for condition in resolve(name).conditions:
                g = sum(1 for game in games if condition.id in game[1])
                r = sum(1 for game in games if condition.id in game[2])
                print(f"  {condition.id:>24}: greedy {g}/{len(games)}, random {r}/{len(games)}")


if __name__ == "__main__":
    main()
