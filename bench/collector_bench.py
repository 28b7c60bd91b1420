"""The garbage collector's share of whole games, with the engine's threshold while a game
plays (``engine/core/collector.py``) against the interpreter's default, in the same run.

Alternates the two settings game set by game set (CPU time, ``time.process_time``); the time
inside collections is measured by ``gc.callbacks``. The games are the same either way (their
event hashes are printed).
Run: ``PYTHONPATH=src .venv/bin/python bench/collector_bench.py [--games 6] [--rounds 2]``
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import time

from confrontation.engine.core import collector
from confrontation.sim.game import GameConfig, play_game


def _games(agents: tuple[str, str], seeds: range) -> tuple[float, float, str]:
    """(CPU-s, CPU-s inside collections, events hash) of ``seeds``' games."""
    inside = 0.0
    began = 0.0

    def watch(phase: str, info: dict[str, int]) -> None:
        nonlocal inside, began
        if phase == "start":
            began = time.process_time()
        else:
            inside += time.process_time() - began

    digest = hashlib.sha256()
    gc.callbacks.append(watch)
    start = time.process_time()
    try:
        for seed in seeds:
            result = play_game(GameConfig(agents=agents, seed=seed))
            digest.update(repr(result.events).encode())
    finally:
        gc.callbacks.remove(watch)
    return time.process_time() - start, inside, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games a set")
    parser.add_argument("--rounds", type=int, default=2, help="sets of each setting")
    args = parser.parse_args()
    engine_young = collector.YOUNG
    default_young = gc.get_threshold()[0]
    play_game(GameConfig(seed=1000))  # warm caches and imports
    for agents in (("greedy", "greedy"), ("random", "random")):
        totals = {"engine": [0.0, 0.0], "default": [0.0, 0.0]}
        hashes = set()
        for _ in range(args.rounds):
            for name, young in (("default", default_young), ("engine", engine_young)):
                collector.YOUNG = young
                try:
                    cpu, inside, digest = _games(agents, range(args.games))
                finally:
                    collector.YOUNG = engine_young
                totals[name][0] += cpu
                totals[name][1] += inside
                hashes.add(digest)
        for name, (cpu, inside) in totals.items():
            young = engine_young if name == "engine" else default_young
            print(
                f"{','.join(agents)} {name:7} young={young}: "
                f"{cpu:.2f} CPU-s, {inside:.2f} in collections ({inside / cpu:.1%})"
            )
        ratio = totals["engine"][0] / totals["default"][0]
        same = "same games" if len(hashes) == 1 else "GAMES DIFFER"
        print(f"{','.join(agents)}: engine/default CPU {ratio:.3f} ({same})")


if __name__ == "__main__":
    main()
