"""Whole games with this tree's path search against another tree's, in ONE process (issue
22, twelfth round): the battlefields' ``PathSearch`` (``geometry/field.py``) swapped for the
other tree's ``geometry/paths.py`` one set of games, this tree's the next, alternating (the
rest of the engine is this tree's either way), so the machine's load falls on both alike.
Plays a warm-up game with each, then ``--rounds`` times seeds 0-5 of ``agents`` at 250 AP
with both (which goes first alternating); prints each set's CPU seconds, the ratio of the
sums and whether the games' events are the same.

Run: ``cd bench && PYTHONPATH=<tree>/src python games_paths_ab.py random,random
/work/main/src/confrontation/geometry/paths.py --rounds 4``.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from types import ModuleType

from astar_ab import load
from confrontation.geometry import field, paths
from confrontation.sim.game import GameConfig, play_game


def games(search: ModuleType, agents: tuple[str, str], seeds: range) -> tuple[float, str]:
    """CPU seconds and events' hash of the games of ``seeds`` with ``search``'s path search."""
    field.PathSearch = search.PathSearch  # type: ignore[attr-defined]
    digest = hashlib.sha256()
    begin = time.process_time()
    for seed in seeds:
        result = play_game(GameConfig(agents=agents, seed=seed))
        digest.update(repr(result.events).encode())
    return time.process_time() - begin, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", help="two agents, e.g. random,random")
    parser.add_argument("other", help="the other tree's geometry/paths.py")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    first, second = args.agents.split(",")
    agents = (first, second)
    other = load(args.other)
    trees = (other, paths)
    for tree in trees:
        games(tree, agents, range(100, 101))
    spent: list[list[float]] = [[], []]
    hashes: list[set[str]] = [set(), set()]
    for r in range(args.rounds):
        for which in (0, 1) if r % 2 == 0 else (1, 0):
            cpu, digest = games(trees[which], agents, range(6))
            spent[which].append(cpu)
            hashes[which].add(digest)
    field.PathSearch = paths.PathSearch  # type: ignore[attr-defined]
    theirs, ours = spent
    print(
        f"{args.agents}: other {' '.join(f'{t:.2f}' for t in theirs)}; this tree"
        f" {' '.join(f'{t:.2f}' for t in ours)}; ratio of sums {sum(ours) / sum(theirs):.3f};"
        f" events {sorted(hashes[0])} / {sorted(hashes[1])}"
    )


if __name__ == "__main__":
    main()
