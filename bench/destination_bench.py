"""The CPU of the destination steps in whole games (issue 22, ninth round).

Times, with ``time.process_time`` around every call (inclusive), ``_longest_clear`` (the
straight moves of ``iter_destinations``), ``_corridor_hits`` (corridors asked of GEOS by
goal spots, and on trees before the ninth round by ``_longest_clear`` too), ``_headings`` and
``Field.spot_problem`` and (tenth round) ``iter_destinations`` (every resume of the
generator, inclusive), over greedy-v-greedy and random-v-random seeds 0-5 after a warm-up game.
Run it on two trees, alternating:

    PYTHONPATH=<tree>/src .venv/bin/python bench/destination_bench.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from confrontation.engine.combat import pursuit
from confrontation.engine.table import field as table_field
from confrontation.sim.game import GameConfig, play_game

spent: dict[str, float] = {}


def _timed(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        begin = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - begin

    return timed


def _timed_iter(original: Callable[..., Any]) -> Callable[..., Any]:
    """``iter_destinations`` timed resume by resume (a generator: its work is done lazily)."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        begin = time.process_time()
        spots = original(*args, **kwargs)
        spent["iter_destinations"] = spent.get("iter_destinations", 0.0) + (
            time.process_time() - begin
        )
        while True:
            begin = time.process_time()
            try:
                spot = next(spots)
            except StopIteration:
                return
            finally:
                spent["iter_destinations"] += time.process_time() - begin
            yield spot

    return timed


def main() -> None:
    play_game(GameConfig(agents=("greedy", "greedy"), seed=100))
    for name in ("_corridor_hits", "_longest_clear", "_headings"):
        setattr(table_field, name, _timed(name, getattr(table_field, name)))
    timed_iter = _timed_iter(table_field.iter_destinations)
    setattr(table_field, "iter_destinations", timed_iter)  # noqa: B010
    setattr(pursuit, "iter_destinations", timed_iter)  # noqa: B010
    table_field.Field.spot_problem = _timed(  # type: ignore[method-assign]
        "spot_problem", table_field.Field.spot_problem
    )
    begin = time.process_time()
    for agent in ("greedy", "random"):
        for seed in range(6):
            play_game(GameConfig(agents=(agent, agent), seed=seed))
    total = time.process_time() - begin
    print(f"12 games {total:.2f} CPU-s; " + ", ".join(f"{k} {v:.3f}" for k, v in spent.items()))


if __name__ == "__main__":
    main()
