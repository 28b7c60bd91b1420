"""The CPU of pursuits and contact placement in whole games (issue 22, tenth round, pursuit2).

Times, with ``time.process_time`` around every call (inclusive), ``table_pursuits`` (every
pursuit menu), within it ``pursuit_placement`` (the engage moves) and the free moves'
``iter_destinations`` (each step of its generator), and ``Field.contact_position`` (every
contact placement: assaults, their menus, pursuits), over greedy-v-greedy seeds 0-9 and
random-v-random seeds 0-5 at 250 AP and greedy 750 AP seeds 0-1 (``engine_bench.scaled_army``),
after a warm-up game. Run it on two trees, alternating:

    PYTHONPATH=<tree>/src .venv/bin/python bench/pursuit_bench.py [--only 750]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from confrontation.engine.combat import pursuit
from confrontation.engine.table import field as table_field
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army

AREAS = ("pursuits", "placements", "free moves", "contact")
spent: dict[str, float] = dict.fromkeys(AREAS, 0.0)
calls: dict[str, int] = dict.fromkeys(AREAS, 0)


def _timed(area: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        begin = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[area] += time.process_time() - begin
            calls[area] += 1

    return timed


def _timed_steps(area: str, original: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    def timed(*args: Any, **kwargs: Any) -> Iterator[Any]:
        calls[area] += 1
        inner = original(*args, **kwargs)
        while True:
            begin = time.process_time()
            try:
                item = next(inner)
            except StopIteration:
                return
            finally:
                spent[area] += time.process_time() - begin
            yield item

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one workload: greedy, random or 750")
    args = parser.parse_args()
    # before the first game: the ruleset takes pursuit.table_pursuits when it is built
    pursuit.table_pursuits = _timed("pursuits", pursuit.table_pursuits)
    pursuit.pursuit_placement = _timed("placements", pursuit.pursuit_placement)
    pursuit.iter_destinations = _timed_steps("free moves", pursuit.iter_destinations)  # type: ignore[attr-defined]
    table_field.Field.contact_position = _timed(  # type: ignore[method-assign]
        "contact", table_field.Field.contact_position
    )
    play_game(GameConfig(agents=("greedy", "greedy"), seed=100))
    with tempfile.TemporaryDirectory() as folder:
        big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
        workloads: list[tuple[str, list[GameConfig]]] = [
            ("greedy", [GameConfig(agents=("greedy", "greedy"), seed=s) for s in range(10)]),
            ("random", [GameConfig(agents=("random", "random"), seed=s) for s in range(6)]),
            ("750", [GameConfig(seed=s, armies=big) for s in (0, 1)]),
        ]
        for name, configs in workloads:
            if args.only and args.only != name:
                continue
            for key in AREAS:
                spent[key], calls[key] = 0.0, 0
            begin = time.process_time()
            for config in configs:
                play_game(config)
            total = time.process_time() - begin
            shares = "; ".join(
                f"{key} {spent[key]:.3f} s ({calls[key]})" for key in AREAS if calls[key]
            )
            print(f"{name}: games {total:.2f} CPU-s; {shares}", flush=True)


if __name__ == "__main__":
    main()
