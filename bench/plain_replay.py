"""The plain path search (a battlefield's first path question) replayed: the questions of
three random-v-random games (seeds 0-2, 250 AP) are recorded, then answered again four
times from empty shape caches; prints the CPU seconds of each replay (issue 22, second
round: the plain search's own cost, without the rest of the game's noise).
Run: ``PYTHONPATH=src .venv/bin/python bench/plain_replay.py``.
"""

from __future__ import annotations

import time
from typing import Any

from confrontation.geometry import paths
from confrontation.sim.game import GameConfig, play_game


def main() -> None:
    calls: list[tuple[Any, Any]] = []
    orig = paths._search

    def rec(*a: Any, **k: Any) -> paths.Path | None:
        calls.append((a, k))
        return orig(*a, **k)

    paths._search = rec
    try:
        for seed in range(3):
            play_game(GameConfig(agents=("random", "random"), seed=seed))
    finally:
        paths._search = orig
    out = []
    for _ in range(4):
        paths._INFLATED.clear()
        paths._GROUPS.clear()
        begin = time.process_time()
        for a, k in calls:
            orig(*a, **k)
        out.append(time.process_time() - begin)
    print(f"{len(calls)} plain searches replayed, CPU s: " + ", ".join(f"{t:.3f}" for t in out))


if __name__ == "__main__":
    main()
