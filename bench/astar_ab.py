"""The path search's A* (step 7) alone, this tree's against another tree's, in ONE process
(issue 22, eleventh round): the questions recorded by ``path_replay.py --record`` are asked
once on this tree, every search's input to ``_astar`` (question, corners, heuristic) kept,
then both trees' ``_astar`` run on each input in turn (which goes first alternating by
round), so the machine's load falls on both alike; prints each workload's CPU seconds both
ways and their ratio, and checks that the answers are the same.

Run: ``cd bench && PYTHONPATH=<tree>/src python astar_ab.py /tmp/q.pkl
/work/wt/base/src/confrontation/geometry/paths.py --rounds 4``.
"""

from __future__ import annotations

import argparse
import importlib.util
import pickle
import sys
import time
from types import ModuleType
from typing import Any

import numpy as np

from confrontation.geometry import paths
from path_replay import Call, forget

Search = tuple[Any, np.ndarray, np.ndarray]


def load(file: str) -> ModuleType:
    """The other tree's ``paths.py`` as a module of its own."""
    spec = importlib.util.spec_from_file_location("other_paths", file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["other_paths"] = module
    spec.loader.exec_module(module)
    return module


def searches(calls: list[Call]) -> list[Search]:
    """Every A* input of the recorded questions, on this tree."""
    kept: list[Search] = []
    astar = paths._astar

    def spy(q: Any, corners: np.ndarray, heur: np.ndarray) -> paths.Path | None:
        kept.append((q, corners, heur))
        return astar(q, corners, heur)

    forget()
    paths._astar = spy
    try:
        made: dict[int, paths.PathSearch] = {}
        for args, start, goal, skip, reach, _ in calls:
            search = made.get(id(args))
            if search is None:
                search = made[id(args)] = paths.PathSearch(*args)
            search.query(start, goal, skip=skip, reach=reach)
    finally:
        paths._astar = astar
    return kept


def compare(kept: list[Search], other: ModuleType, rounds: int) -> tuple[float, float]:
    """CPU seconds of the other tree's A* and of this tree's on the same inputs."""
    spent = [0.0, 0.0]
    clock = time.process_time
    for r in range(rounds):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for q, corners, heur in kept:
            got: list[Any] = [None, None]
            for which in order:
                astar = other._astar if which == 0 else paths._astar
                begin = clock()
                path = astar(q, corners, heur)
                spent[which] += clock() - begin
                got[which] = None if path is None else path.points
            assert got[0] == got[1], "the two trees' A* answer differently"
    return spent[0], spent[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", help="the file of path_replay.py --record")
    parser.add_argument("other", help="the other tree's geometry/paths.py")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    other = load(args.other)
    with open(args.questions, "rb") as got:
        found: dict[str, list[Call]] = pickle.load(got)
    for kind, calls in found.items():
        kept = searches(calls)
        theirs, ours = compare(kept, other, args.rounds)
        print(
            f"{kind}: {len(kept)} searches, A* CPU s other {theirs:.3f}, this tree"
            f" {ours:.3f}, ratio {ours / theirs:.3f}"
        )


if __name__ == "__main__":
    main()
