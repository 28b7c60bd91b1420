"""The hash of seeded C4 games' events: run it on two trees to see that a change plays the
same C4 games (``c4.step.run`` and ``sim.c4game.play_c4``).

Plays seeds 0-1 of every game mode with greedy against random through ``c4.step.run`` and
through ``play_c4``, and one mcts-against-greedy game of two rounds; prints the sha-256 of the
events' ``repr`` of each group and their CPU seconds.
Run: ``PYTHONPATH=<tree>/src .venv/bin/python bench/c4_games_hash.py [--no-mcts]``.
"""

from __future__ import annotations

import hashlib
import sys
import time

from confrontation.agents.c4 import C4GreedyAgent, C4RandomAgent
from confrontation.c4.step import run
from confrontation.sim.c4game import MODES, C4Config, build, play_c4


def main() -> None:
    begin = time.process_time()
    by_run = hashlib.sha256()
    by_play = hashlib.sha256()
    for mode in MODES:
        for seed in range(2):
            config = C4Config(agents=("greedy", "random"), seed=seed, mode=mode)
            _, events = run(build(config), [C4GreedyAgent(seed), C4RandomAgent(seed + 1)])
            by_run.update(repr(events).encode())
            by_play.update(repr(play_c4(config).events).encode())
    print(f"run: {by_run.hexdigest()[:16]}  play_c4: {by_play.hexdigest()[:16]}")
    if "--no-mcts" not in sys.argv:
        config = C4Config(agents=("mcts", "greedy"), seed=7, rounds=2)
        mcts = hashlib.sha256(repr(play_c4(config).events).encode())
        print(f"mcts: {mcts.hexdigest()[:16]}")
    print(f"{time.process_time() - begin:.1f} CPU-s")


if __name__ == "__main__":
    main()
