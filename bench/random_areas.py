"""Where a random-v-random game's CPU goes, by entry point (issue 22, sixth round).

Each entry point below is timed with ``time.process_time`` around its calls, less the time of
the other entry points called inside it (exclusive time), over ``play_game`` random-v-random
seeds 1-6 (after a warm-up game). What is left is the engine's own work: the steps, the
rules, the events, the records, the legal lists and the questions. No profiler: the shares
are not inflated towards small Python calls (cProfile) nor towards GEOS calls (sampling).

    PYTHONPATH=src .venv/bin/python bench/random_areas.py [--seeds 6]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from confrontation.engine.core.events import ChoiceMade, DieRolled
from confrontation.sim.game import GameConfig, play_game

ENTRIES: list[tuple[str, str, str | None, str]] = [
    ("path search (geometry/paths.py PathSearch.query)", "confrontation.geometry.paths",
     "PathSearch", "query"),
    ("spot checks (engine/table/field.py Field.spot_problem)",
     "confrontation.engine.table.field", "Field", "spot_problem"),
    ("sight (geometry/field.py Battlefield.sees, .sight)", "confrontation.geometry.field",
     "Battlefield", "sees"),
    ("sight (geometry/field.py Battlefield.sees, .sight)", "confrontation.geometry.field",
     "Battlefield", "sight"),
    ("fields built (engine/table/field.py field_of)", "confrontation.engine.table.field",
     None, "field_of"),
    ("contact placement (geometry/contact.py nearest_contact_position)",
     "confrontation.geometry.contact", None, "nearest_contact_position"),
    ("deployment spots (engine/table/field.py deployment_spots)",
     "confrontation.engine.table.field", None, "deployment_spots"),
    ("pursuits (engine/combat/pursuit.py table_pursuits)", "confrontation.engine.combat.pursuit",
     None, "table_pursuits"),
]  # fmt: skip


def _timed(
    label: str, fn: Callable[..., Any], spent: defaultdict[str, float], stack: list[float]
) -> Any:
    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        stack.append(0.0)
        try:
            return fn(*args, **kwargs)
        finally:
            elapsed = time.process_time() - start
            inner = stack.pop()
            spent[label] += elapsed - inner
            if stack:
                stack[-1] += elapsed

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="random games (seeds 1..N)")
    args = parser.parse_args()
    spent: defaultdict[str, float] = defaultdict(float)
    stack: list[float] = []
    for label, module_name, owner, name in ENTRIES:
        module = importlib.import_module(module_name)
        if owner is not None:
            cls = getattr(module, owner)
            setattr(cls, name, _timed(label, getattr(cls, name), spent, stack))
            continue
        plain = getattr(module, name)
        timed = _timed(label, plain, spent, stack)
        for other_name, other in list(sys.modules.items()):
            if other_name.startswith("confrontation") and getattr(other, name, None) is plain:
                setattr(other, name, timed)
    play_game(GameConfig(agents=("random", "random"), seed=0))  # warm-up
    spent.clear()
    start = time.process_time()
    steps = 0
    for seed in range(1, args.seeds + 1):
        events = play_game(GameConfig(agents=("random", "random"), seed=seed)).events
        steps += sum(isinstance(e, ChoiceMade | DieRolled) for e in events)
    total = time.process_time() - start
    print(f"random v random, seeds 1-{args.seeds}: {total:.2f} CPU-s, {steps} steps")
    for label, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"{seconds / total * 100:5.1f} %  {seconds:6.2f} s  {label}")
    rest = total - sum(spent.values())
    print(f"{rest / total * 100:5.1f} %  {rest:6.2f} s  the rest (the engine's own work)")


if __name__ == "__main__":
    main()
