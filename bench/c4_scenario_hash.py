"""The hash of seeded C4 scenario games' events and their CPU: run it on two trees to see
that a change plays the same games (the chapter-20 "conquest" and the control-point pack's
"cp-close-quarters" with their own rounds, greedy against random, seeds 5 and 6).
Run: ``PYTHONPATH=<tree>/src .venv/bin/python bench/c4_scenario_hash.py``.
"""

from __future__ import annotations

import hashlib
import time

from confrontation.sim.c4game import C4Config, play_c4

SCENARIOS = ("conquest", "cp-close-quarters")


def main() -> None:
    digest = hashlib.sha256()
    begin = time.process_time()
    for scenario in SCENARIOS:
        for seed in (5, 6):
            config = C4Config(seed=seed, scenario=scenario, rounds_given=False)
            digest.update(repr(play_c4(config).events).encode())
    spent = time.process_time() - begin
    print(f"C4 scenarios: 4 games {spent:.1f} CPU-s, events {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
