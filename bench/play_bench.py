"""Whole games: games per second (random and greedy agents), the cost of saving every game
as it is played, and ``simulate`` with 1 and 2 local jobs.

Every figure is a ratio against a reference measured in the same run: greedy against
random games, games saved (default step-boundary commits, then a commit at every step)
against the same games unsaved, and 2 jobs against 1. Games are full games with the
defaults of ``confrontation play`` (Conquest, the two bundled demo armies, 6 rounds).
One-process figures are CPU seconds of this process (``time.process_time``), so other work on
the machine barely moves them; ``simulate`` is wall-clock time (its point is parallelism), so
the load average is printed with it.
Run: ``.venv/bin/python bench/play_bench.py [--quick]`` (or ``make bench``).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from confrontation.geometry import bases, paths
from confrontation.sim.backends import LocalBackend
from confrontation.sim.batch import plan, play_spec, simulate
from confrontation.sim.game import GameConfig, play_game
from confrontation.sim.saved import play_stored
from confrontation.store import open_store

QUICK = "--quick" in sys.argv
GAMES = 2 if QUICK else 6
BATCH = 4 if QUICK else 12


def forget_positions() -> None:
    """Empty the caches that remember positions (path searches, inflated obstacles, base
    polygons), so that a measurement replaying earlier games' seeds is not helped."""
    paths._INFLATED.clear()
    paths._GROUPS.clear()
    paths.path_search.cache_clear()
    bases._polygon.cache_clear()


def games_per_second(play: Callable[[int], int], games: int) -> tuple[float, float]:
    """(games per CPU second, events per game) of ``games`` games with seeds 1..games."""
    forget_positions()
    events = 0
    begin = time.process_time()
    for seed in range(1, games + 1):
        events += play(seed)
    elapsed = time.process_time() - begin
    return games / elapsed, events / games


def plain(agents: tuple[str, str]) -> Callable[[int], int]:
    def play(seed: int) -> int:
        return len(play_game(GameConfig(agents=agents, seed=seed)).events)

    return play


def stored(folder: Path, batch_events: int) -> Callable[[int], int]:
    store = open_store(str(folder / f"bench-{batch_events}.db"), batch_events=batch_events)

    def play(seed: int) -> int:
        _, result = play_stored(GameConfig(agents=("random", "random"), seed=seed), store)
        return len(result.events)

    return play


def batch(jobs: int) -> float:
    """games/s of ``simulate`` (random agents, not stored) with ``jobs`` local processes."""
    specs = plan(BATCH, ("random", "random"), seed=3)
    result = simulate(specs, play_spec, backend=LocalBackend(jobs))
    return result.games_per_second()


def main() -> None:
    # Warm-up on other seeds, so that every measurement below meets warm general caches (odds
    # tables), not only the later ones — but no cache of these very positions.
    for seed in range(101, 101 + GAMES):
        plain(("random", "random"))(seed)
        plain(("greedy", "greedy"))(seed)
    random_rate, random_events = games_per_second(plain(("random", "random")), GAMES)
    print(f"random vs random: {random_rate:.3f} games/s ({random_events:.0f} events a game)")
    greedy_rate, greedy_events = games_per_second(plain(("greedy", "greedy")), GAMES)
    print(
        f"greedy vs greedy: {greedy_rate:.3f} games/s ({greedy_events:.0f} events a game); "
        f"ratio greedy/random {greedy_rate / random_rate:.2f}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        saved_rate, _ = games_per_second(stored(folder, 500), GAMES)
        print(
            f"random, saved as played (step-boundary batches): {saved_rate:.3f} games/s; "
            f"ratio saved/unsaved {saved_rate / random_rate:.3f}"
        )
        every_rate, _ = games_per_second(stored(folder, 1), GAMES)
        print(
            f"random, saved with a commit at every step: {every_rate:.3f} games/s; "
            f"ratio saved/unsaved {every_rate / random_rate:.3f}"
        )
    one = batch(1)
    two = batch(2)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"simulate {BATCH} random games, 1 job: {one:.3f} games/s")
    print(
        f"simulate {BATCH} random games, 2 jobs: {two:.3f} games/s; "
        f"ratio 2 jobs/1 job {two / one:.2f}"
    )


if __name__ == "__main__":
    main()
