"""The two 750 AP greedy-v-greedy games of ``engine_bench.py``'s scaling figure (seeds 0
and 1, :func:`engine_bench.scaled_army` lists): their CPU seconds and the sha-256 of their
events' ``repr``, to check on two trees that a speed change plays the same big games.
Run: ``PYTHONPATH=<tree>/src .venv/bin/python bench/games_hash_750.py``.
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from pathlib import Path

from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army


def main() -> None:
    digest = hashlib.sha256()
    with tempfile.TemporaryDirectory() as folder:
        big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
        begin = time.process_time()
        for seed in (0, 1):
            result = play_game(GameConfig(seed=seed, armies=big))
            digest.update(repr(result.events).encode())
        spent = time.process_time() - begin
    print(f"greedy,greedy 750 AP: 2 games {spent:.2f} CPU-s, events {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
