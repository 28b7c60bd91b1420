"""The whole path search (every ``PathSearch.query``: set-up and A*), this tree's against
another tree's ``geometry/paths.py``, in ONE process (issue 22, twelfth round): the
questions recorded by ``path_replay.py --record`` asked of both trees question by question
(which goes first alternating by round; both trees' shape caches emptied at each round's
start), so the machine's load falls on both alike. Prints each workload's CPU seconds per round both
ways, the ratio of their sums and medians, and checks that the answers are the same.

Run: ``cd bench && PYTHONPATH=<tree>/src python query_ab.py /tmp/q.pkl
/work/main/src/confrontation/geometry/paths.py --rounds 6``.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from types import ModuleType
from typing import Any

from astar_ab import load
from confrontation.geometry import paths
from path_replay import Call

CACHES = ("_INFLATED", "_GROUPS", "_TOUCH", "_TARGETS", "_INNER", "_CONVEX")


def forget(module: ModuleType) -> None:
    """Empty ``module``'s shape caches (whatever that tree has)."""
    for name in CACHES:
        cache = getattr(module, name, None)
        if cache is not None:
            cache.clear()


def one_round(modules: tuple[ModuleType, ModuleType], calls: list[Call], first: int) -> list[float]:
    """The recorded questions asked of both trees question by question (``first`` asked
    first each time), caches emptied at the start: each tree's CPU seconds."""
    for module in modules:
        forget(module)
    searches: list[dict[int, Any]] = [{}, {}]
    spent = [0.0, 0.0]
    clock = time.process_time
    for args, start, goal, skip, reach, _ in calls:
        got: list[Any] = [None, None]
        for which in (first, 1 - first):
            begin = clock()
            search = searches[which].get(id(args))
            if search is None:
                search = searches[which][id(args)] = modules[which].PathSearch(*args)
            path = search.query(start, goal, skip=skip, reach=reach)
            spent[which] += clock() - begin
            got[which] = None if path is None else path.points
        assert got[0] == got[1], "the two trees answer differently"
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", help="the file of path_replay.py --record")
    parser.add_argument("other", help="the other tree's geometry/paths.py")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    other = load(args.other)
    with open(args.questions, "rb") as got:
        found: dict[str, list[Call]] = pickle.load(got)
    for kind, calls in found.items():
        spent: list[list[float]] = [[], []]
        for r in range(args.rounds):
            cpu = one_round((other, paths), calls, r % 2)
            spent[0].append(cpu[0])
            spent[1].append(cpu[1])
        theirs, ours = spent
        print(
            f"{kind}: other {' '.join(f'{t:.3f}' for t in theirs)}; this tree"
            f" {' '.join(f'{t:.3f}' for t in ours)}; ratio of sums {sum(ours) / sum(theirs):.3f},"
            f" of medians {statistics.median(ours) / statistics.median(theirs):.3f}"
        )


if __name__ == "__main__":
    main()
