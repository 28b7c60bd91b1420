"""Whole games' CPU and the hash of their events: run it on two trees, alternating, to see
that a speed change plays the same games and what it saves (issue 22, second round).

Plays a warm-up game (seed 100), then seeds 0-5 of ``agents`` at 250 AP (``play_game``
defaults); prints the CPU seconds of the six games and the sha-256 of their events' ``repr``.
Run: ``PYTHONPATH=<tree>/src .venv/bin/python bench/games_hash.py random,random``.
"""

from __future__ import annotations

import hashlib
import sys
import time

from confrontation.sim.game import GameConfig, play_game


def main() -> None:
    agents = tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else ("random", "random")
    assert len(agents) == 2
    digest = hashlib.sha256()
    play_game(GameConfig(agents=(agents[0], agents[1]), seed=100))
    begin = time.process_time()
    for seed in range(6):
        result = play_game(GameConfig(agents=(agents[0], agents[1]), seed=seed))
        digest.update(repr(result.events).encode())
    spent = time.process_time() - begin
    print(f"{','.join(agents)}: 6 games {spent:.2f} CPU-s, events {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
