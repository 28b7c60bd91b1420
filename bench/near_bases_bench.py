"""Destination questions with the near bases only against every base (issue 22, eleventh round,
move8), in one process: every ``iter_destinations`` question of the two 750 AP greedy games
(``engine_bench.scaled_army``; ``250``: greedy seeds 0-5 at 250 AP) is recorded, then run to its
end with :func:`~confrontation.engine.table.field._swept_bases` and with every base, the two
interleaved question by question (the order swapped each time) over six rounds, so that the
machine's load weighs on both alike. Prints the CPU seconds of each and their ratio.

    PYTHONPATH=src .venv/bin/python bench/near_bases_bench.py [250]
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from confrontation.engine.combat import pursuit
from confrontation.engine.table import field as table_field
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army

ROUNDS = 6


def _every_base(here: Any, base: Any, potential: float, skip: set[str]) -> list[Any]:
    """What ``_swept_bases`` stands for: every base but ``skip``."""
    return [here.base(i) for i in here.ids() if i not in skip]


def _questions(configs: list[GameConfig]) -> list[tuple[Any, Any]]:
    """The arguments of every ``iter_destinations`` call of the games."""
    asked: list[tuple[Any, Any]] = []
    original = table_field.iter_destinations

    def recorded(*args: Any, **kwargs: Any) -> Iterator[Any]:
        asked.append((args, kwargs))
        return original(*args, **kwargs)

    table_field.iter_destinations = recorded
    pursuit.iter_destinations = recorded  # type: ignore[attr-defined]
    try:
        for config in configs:
            play_game(config)
    finally:
        table_field.iter_destinations = original
        pursuit.iter_destinations = original  # type: ignore[attr-defined]
    return asked


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        if sys.argv[1:] == ["250"]:
            configs = [GameConfig(seed=s) for s in range(6)]
        else:
            big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
            configs = [GameConfig(seed=s, armies=big) for s in (0, 1)]
        asked = _questions(configs)
    ways: dict[str, Callable[..., list[Any]]] = {
        "near": table_field._swept_bases,
        "every": _every_base,
    }
    spent = dict.fromkeys(ways, 0.0)
    try:
        for r in range(ROUNDS):
            for n, (args, kwargs) in enumerate(asked):
                for name in ("near", "every") if (n + r) % 2 else ("every", "near"):
                    table_field._swept_bases = ways[name]
                    begin = time.process_time()
                    for _ in table_field.iter_destinations(*args, **kwargs):
                        pass
                    spent[name] += time.process_time() - begin
    finally:
        table_field._swept_bases = ways["near"]
    print(
        f"{len(asked)} questions x {ROUNDS}: near bases {spent['near']:.3f} CPU-s, every base "
        f"{spent['every']:.3f} CPU-s, ratio {spent['near'] / spent['every']:.3f}"
    )


if __name__ == "__main__":
    main()
