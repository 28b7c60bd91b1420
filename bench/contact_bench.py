"""The CPU of contact placement and of destinations in whole games (issue 22, eighth round).

Times, with ``time.process_time`` around every call (inclusive: what they call counts),
``Field.contact_position`` (contact placement: assaults, their menus and answers, pursuits)
and ``iter_destinations`` (walks, runs, cover and free pursuit moves: each step of its
generator), over greedy-v-greedy and random-v-random seeds 0-5 at 250 AP and greedy 750 AP
seed 0 (``engine_bench.scaled_army``), after a warm-up game; prints each area's CPU, its share
of the games' CPU and the number of calls. Run it on two trees, alternating:

    PYTHONPATH=<tree>/src .venv/bin/python bench/contact_bench.py [--rounds 2]
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

spent: dict[str, float] = {"contact": 0.0, "destinations": 0.0}
calls: dict[str, int] = {"contact": 0, "destinations": 0}


def _timed_contact(original: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        begin = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent["contact"] += time.process_time() - begin
            calls["contact"] += 1

    return timed


def _timed_destinations(original: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    def timed(*args: Any, **kwargs: Any) -> Iterator[Any]:
        calls["destinations"] += 1
        inner = original(*args, **kwargs)
        while True:
            begin = time.process_time()
            try:
                item = next(inner)
            except StopIteration:
                return
            finally:
                spent["destinations"] += time.process_time() - begin
            yield item

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="times each workload is played")
    args = parser.parse_args()
    table_field.Field.contact_position = _timed_contact(  # type: ignore[method-assign]
        table_field.Field.contact_position
    )
    timed = _timed_destinations(table_field.iter_destinations)
    table_field.iter_destinations = timed
    pursuit.iter_destinations = timed  # type: ignore[attr-defined]  # its own name for it
    play_game(GameConfig(agents=("greedy", "greedy"), seed=100))
    with tempfile.TemporaryDirectory() as folder:
        big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
        workloads: list[tuple[str, list[GameConfig]]] = [
            ("greedy", [GameConfig(agents=("greedy", "greedy"), seed=s) for s in range(6)]),
            ("random", [GameConfig(agents=("random", "random"), seed=s) for s in range(6)]),
            ("750 AP", [GameConfig(seed=0, armies=big)]),
        ]
        for name, configs in workloads:
            for _ in range(args.rounds):
                for key in spent:
                    spent[key], calls[key] = 0.0, 0
                begin = time.process_time()
                for config in configs:
                    play_game(config)
                total = time.process_time() - begin
                shares = ", ".join(
                    f"{key} {spent[key]:.3f} CPU-s = {100 * spent[key] / total:.1f} % "
                    f"({calls[key]} calls)"
                    for key in spent
                )
                print(f"{name}: games {total:.2f} CPU-s; {shares}", flush=True)


if __name__ == "__main__":
    main()
