"""Sight questions of whole games, replayed (issue 22, eighth round: sight).

Plays random-v-random and greedy-v-greedy games (seeds 0-5), records every question that
reaches ``Battlefield.sees`` / ``Battlefield.sight`` (with the answers a field takes over
from the previous one turned off, so that every tree records the same), then answers them
all again on fresh battlefields with the sight caches emptied, timing that alone (CPU,
best of ``--repeat``) and printing a hash of the answers (the same on every tree that
answers the same).

    PYTHONPATH=src .venv/bin/python bench/sight_replay.py [--seeds 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import hashlib
import time
from typing import Any

from confrontation.engine.table import field as table_field
from confrontation.geometry import field as geometry_field
from confrontation.geometry import sight as geometry_sight
from confrontation.geometry.bases import Base
from confrontation.sim.game import GameConfig, play_game


def record(seeds: int) -> list[tuple[str, Any, dict[str, Base], Any, str, str]]:
    """Every question of the games, with its battlefield's table, bases and scenery."""
    asked: list[tuple[str, Any, dict[str, Base], Any, str, str]] = []
    cls = geometry_field.Battlefield
    plain_sees, plain_sight = cls.sees, cls.sight

    def sees(self: geometry_field.Battlefield, source: str, target: str) -> bool:
        asked.append(("sees", self.table, dict(self.fighters), self.scenery, source, target))
        return plain_sees(self, source, target)

    def sight(self: geometry_field.Battlefield, source: str, target: str) -> Any:
        asked.append(("sight", self.table, dict(self.fighters), self.scenery, source, target))
        return plain_sight(self, source, target)

    cls.sees, cls.sight = sees, sight  # type: ignore[method-assign]
    # the same questions on every tree: answers taken over by a field are not asked below it
    heirs = getattr(table_field.Field, "inherit_sight", None)
    if heirs is not None:
        table_field.Field.inherit_sight = lambda self, old: None  # type: ignore[method-assign]
    try:
        for agent in ("random", "greedy"):
            for seed in range(seeds):
                play_game(GameConfig(agents=(agent, agent), seed=seed))
    finally:
        cls.sees, cls.sight = plain_sees, plain_sight  # type: ignore[method-assign]
        if heirs is not None:
            table_field.Field.inherit_sight = heirs  # type: ignore[method-assign]
    return asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="games of each agent (seeds 0..N-1)")
    parser.add_argument("--repeat", type=int, default=3, help="replays timed (the best kept)")
    args = parser.parse_args()
    asked = record(args.seeds)
    fields: dict[Any, geometry_field.Battlefield] = {}
    questions = []
    for kind, table, bases, scenery, source, target in asked:
        key = (id(table), tuple(bases.items()), scenery)
        here = fields.get(key)
        if here is None:
            here = fields[key] = geometry_field.Battlefield(table, bases, scenery)
        questions.append((kind, here, source, target))

    def run() -> list[str]:
        geometry_field._SIGHTS.clear()
        geometry_field._SEES.clear()
        geometry_sight._SHADOWS.clear()
        out = []
        for kind, here, source, target in questions:
            answer = here.sees(source, target) if kind == "sees" else here.sight(source, target)
            out.append(str(answer))
        return out

    best = float("inf")
    answers: list[str] = []
    for _ in range(args.repeat):
        start = time.process_time()
        answers = run()
        best = min(best, time.process_time() - start)
    digest = hashlib.sha256(" ".join(answers).encode()).hexdigest()[:16]
    print(f"{len(questions)} sight questions: best {best * 1000:.0f} ms CPU, answers {digest}")


if __name__ == "__main__":
    main()
