"""The pushes of II-E-1 (``geometry.contact._push``) at 750 AP, the current code against the
code of stop 34 (written out below: every base of the table in each blocker, the places
tried ring by ring, one ``Base`` each), on the same calls.

The pushes of three greedy-v-greedy 750 AP games (seeds 0-2, ``engine_bench.scaled_army``)
are recorded, checked to give the same answers both ways, then replayed ``--repeat`` times
each way, alternated; printed: the CPU seconds of each and their ratio.
Run: ``cd bench && PYTHONPATH=../src:. ../.venv/bin/python push_ab.py``.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

from confrontation.geometry import contact
from confrontation.geometry.bases import Base
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army


def old_push(
    new: Base,
    target: Base,
    others: Sequence[Base],
    push: Sequence[int],
    obstacles: Sequence[BaseGeometry],
    table: BaseGeometry | None,
) -> tuple[tuple[int, Base], ...] | None:
    """``_push`` as it was at the end of stop 34."""
    current = list(others)
    moved: list[tuple[int, Base]] = []
    for i in push:
        o = current[i]
        if not shapely.intersects(new.polygon.buffer(-contact.CONTACT_TOLERANCE_CM), o.polygon):
            continue
        rest = [b for j, b in enumerate(current) if j != i] + [new, target]
        blocker = contact._blocker(rest, obstacles, table)
        best = None
        for r in contact._PUSH_RADII:
            moves = [
                o.moved(o.x + r * math.cos(a), o.y + r * math.sin(a)) for a in contact._PUSH_ANGLES
            ]
            clear = contact._free(moves, blocker)
            best = next(
                (
                    m
                    for m, ok in zip(moves, clear, strict=True)
                    if ok and contact.in_contact(m, target)
                ),
                None,
            )
            if best is not None:
                break
        if best is None:
            return None
        current[i] = best
        moved.append((i, best))
    return tuple(moved)


def recorded() -> list[tuple[Any, ...]]:
    """The arguments of every push of the three 750 AP games."""
    calls: list[tuple[Any, ...]] = []
    real = contact._push

    def record(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    contact._push = record  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            big = tuple(str(scaled_army(a, 3, Path(folder))) for a in DEFAULT_ARMIES)
            for seed in (0, 1, 2):
                play_game(GameConfig(seed=seed, armies=big))
    finally:
        contact._push = real
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    calls = recorded()
    for args in calls:
        assert contact._push(*args) == old_push(*args), "the two pushes differ"
    spent = {"old": 0.0, "new": 0.0}
    for _ in range(repeat):
        for name, push in (("old", old_push), ("new", contact._push)):
            begin = time.process_time()
            for args in calls:
                push(*args)
            spent[name] += time.process_time() - begin
    print(
        f"{len(calls)} pushes, the same answers; CPU-s over {repeat} replays: "
        f"old {spent['old']:.3f}, new {spent['new']:.3f}, new/old {spent['new'] / spent['old']:.2f}"
    )


if __name__ == "__main__":
    main()
