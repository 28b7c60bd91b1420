"""Path search in whole games: a greedy-v-greedy game's CPU as python-chess random plies.

Plays greedy-v-greedy games at the defaults of ``confrontation play`` (Conquest, 250 AP, the
bundled demo armies) with seeds 1..N after a warm-up on other seeds, and random chess games
(uniformly random legal moves, ``chess.Board``) in the same run; prints a game's CPU seconds
as the number of chess plies played in the same CPU time, and the share of the games' CPU
spent in the path search (``geometry.paths``, by cProfile, a separate pass). CPU time is
``time.process_time`` (the machine is shared). Issue 22's goal: at most 4,000 plies a game.
Run: ``PYTHONPATH=src .venv/bin/python bench/paths_bench.py [--quick] [--profile]``.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time

from confrontation.geometry import bases, paths
from confrontation.sim.game import GameConfig, play_game
from engine_bench import chess_rate as chess_reference

QUICK = "--quick" in sys.argv
GAMES = 2 if QUICK else 5
CHESS_SECONDS = 1.0 if QUICK else 3.0


def forget_positions() -> None:
    """Empty the caches that remember positions (as ``play_bench`` does)."""
    paths._INFLATED.clear()
    paths._GROUPS.clear()
    paths.path_search.cache_clear()
    bases._polygon.cache_clear()


def game_cpu(seeds: range, agents: tuple[str, str] = ("greedy", "greedy")) -> float:
    """Mean CPU seconds of a game of ``agents`` over ``seeds``."""
    forget_positions()
    begin = time.process_time()
    for seed in seeds:
        play_game(GameConfig(agents=agents, seed=seed))
    return (time.process_time() - begin) / len(seeds)


def path_share(seeds: range, agents: tuple[str, str] = ("greedy", "greedy")) -> float:
    """The share of the games' CPU spent under ``PathSearch.query`` (cProfile)."""
    forget_positions()
    prof = cProfile.Profile()
    prof.enable()
    for seed in seeds:
        play_game(GameConfig(agents=agents, seed=seed))
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt  # type: ignore[attr-defined]
    inner = 0.0
    for (filename, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        # cumulative time of the entry points of the module, counted once
        if filename.endswith("geometry/paths.py") and name in ("query", "shortest_path"):
            inner += row[3]
    return inner / total if total else 0.0


def main() -> None:
    for seed in range(101, 101 + (1 if QUICK else 2)):
        play_game(GameConfig(agents=("greedy", "greedy"), seed=seed))
    chess_rate = chess_reference(CHESS_SECONDS)
    print(f"python-chess: {chess_rate:,.0f} random plies per CPU second")
    seeds = range(1, GAMES + 1)
    game = game_cpu(seeds)
    print(
        f"greedy vs greedy, 250 AP: {game:.3f} CPU s a game ({GAMES} games) = "
        f"{game * chess_rate:,.0f} chess plies (goal: at most 4,000)"
    )
    randoms = game_cpu(seeds, ("random", "random"))
    print(
        f"random vs random, 250 AP: {randoms:.3f} CPU s a game = "
        f"{randoms * chess_rate:,.0f} chess plies"
    )
    if "--profile" in sys.argv:
        for agents in (("greedy", "greedy"), ("random", "random")):
            share = path_share(seeds, agents)
            print(
                f"path search in {agents[0]} games (PathSearch.query, cProfile): {share:.0%} of CPU"
            )


if __name__ == "__main__":
    main()
