"""Every path question of whole games, recorded on one tree and replayed on another: the
same answers? and the CPU of the path search alone (issue 22, fifth round).

``--record FILE``: plays random-v-random and greedy-v-greedy seeds 0-5 at 250 AP and the two
750 AP greedy games of ``games_hash_750.py``, and pickles every ``PathSearch.query`` (its
obstacles, width, table, start, goal, skip, reach) with its answer, one list per workload.
``--replay FILE``: asks the questions again in order (one ``PathSearch`` per battlefield, as
the games did; shape caches emptied first), prints each workload's CPU seconds per run and
how many answers differ from the recorded ones (must be 0).
``--bends FILE``: for each recorded question, this tree's answer's bends at a corner that
turn away from that corner's own obstacle (a shortest path only turns round an obstacle,
never away from it): how many answers have one, and how many of those a clear leg skipping
the bend would have shortened (seventh round: why a "bitangent" pruning of the A* changed
answers; must be 0 since paths5).
Run: ``PYTHONPATH=<tree>/src .venv/bin/python bench/path_replay.py --record /tmp/q.pkl`` on
one tree, then ``--replay /tmp/q.pkl [--runs 3]`` on each tree, alternating.
"""

from __future__ import annotations

import argparse
import math
import pickle
import tempfile
import time
from collections.abc import Collection
from pathlib import Path as FilePath
from typing import Any

from confrontation.geometry import paths
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army

Call = tuple[Any, tuple[float, float], Any, tuple[int, ...], float, Any]


def record(file: str) -> None:
    """Play the games, keep their questions and answers."""
    found: dict[str, list[Call]] = {}
    calls: list[Call] = []
    query = paths.PathSearch.query

    def spy(
        self: paths.PathSearch,
        start: tuple[float, float],
        goal: Any,
        *,
        skip: Collection[int] = (),
        reach: float = math.inf,
    ) -> paths.Path | None:
        got = query(self, start, goal, skip=skip, reach=reach)
        answer = None if got is None else got.points
        calls.append((self._args, start, goal, tuple(skip), reach, answer))
        return got

    paths.PathSearch.query = spy  # type: ignore[method-assign]
    try:
        for kind in ("random", "greedy"):
            calls = []
            for seed in range(6):
                play_game(GameConfig(agents=(kind, kind), seed=seed))
            found[kind] = calls
        calls = []
        with tempfile.TemporaryDirectory() as folder:
            big = tuple(str(scaled_army(a, 3, FilePath(folder))) for a in DEFAULT_ARMIES)
            for seed in (0, 1):
                play_game(GameConfig(seed=seed, armies=big))
        found["greedy 750 AP"] = calls
    finally:
        paths.PathSearch.query = query  # type: ignore[method-assign]
    with open(file, "wb") as out:
        pickle.dump(found, out)
    print(", ".join(f"{k}: {len(v)} questions" for k, v in found.items()))


def forget() -> None:
    """Empty the path search's shape caches (whatever this tree has)."""
    for name in ("_INFLATED", "_GROUPS", "_TOUCH", "_TARGETS", "_INNER"):
        cache = getattr(paths, name, None)
        if cache is not None:
            cache.clear()


def ask(calls: list[Call]) -> tuple[float, list[Any]]:
    """Ask the recorded questions again, caches emptied first: the CPU seconds and the
    answers (each path's points, None for no path)."""
    forget()
    searches: dict[int, paths.PathSearch] = {}
    answers = []
    begin = time.process_time()
    for args, start, goal, skip, reach, _ in calls:
        search = searches.get(id(args))
        if search is None:
            search = searches[id(args)] = paths.PathSearch(*args)
        path = search.query(start, goal, skip=skip, reach=reach)
        answers.append(None if path is None else path.points)
    return time.process_time() - begin, answers


def replay(file: str, runs: int) -> None:
    with open(file, "rb") as got:
        found: dict[str, list[Call]] = pickle.load(got)
    for kind, calls in found.items():
        times, differ = [], 0
        for run in range(runs):
            spent, answers = ask(calls)
            times.append(spent)
            if run == 0:
                differ = sum(a != c[5] for a, c in zip(answers, calls, strict=True))
        shown = ", ".join(f"{t:.3f}" for t in times)
        print(f"{kind}: {len(calls)} questions, CPU s {shown}; answers differing: {differ}")


def _away_bends(call: Call) -> tuple[int, int]:
    """The bends of a recorded answer that turn away from their corner's obstacle, and how
    many of them a clear leg from the point before to the point after skips."""
    args, start, goal, skip, reach, answer = call
    if answer is None or len(answer) < 3:
        return 0, 0
    obstacles, width, table = args
    keep = [o for i, o in enumerate(obstacles) if i not in skip]
    q = paths._Question(start, goal, reach)
    if not paths._near_ends(q, keep, width / 2.0):
        return 0, 0
    if table is not None:
        q.pieces.append(paths._framed(table, width / 2.0))
    if not paths._blocker(q) or not paths._goal_set(q):
        return 0, 0
    corners, _ = paths._turning_corners(q, paths._convex_corners(q))
    away = skipped = 0
    for a, p, w in zip(answer, answer[1:], answer[2:], strict=False):
        rows = corners[(corners[:, 0] == p[0]) & (corners[:, 1] == p[1])]
        if not len(rows):
            continue
        row = rows[0]
        ax, ay = p[0] - a[0], p[1] - a[1]
        # the obstacle's side: the middle of the corner's previous and next corners
        mx, my = (row[2] + row[4]) / 2 - p[0], (row[3] + row[5]) / 2 - p[1]
        side = ax * my - ay * mx
        turn = ax * (w[1] - p[1]) - ay * (w[0] - p[0])
        if turn * side < -1e-6:
            away += 1
            skipped += q.clear(a, w)
    return away, skipped


def bends(file: str) -> None:
    with open(file, "rb") as got:
        found: dict[str, list[Call]] = pickle.load(got)
    for kind, recorded in found.items():
        forget()
        # this tree's answers to the recorded questions
        calls: list[Call] = []
        searches: dict[int, paths.PathSearch] = {}
        for args, start, goal, skip, reach, _ in recorded:
            search = searches.get(id(args))
            if search is None:
                search = searches[id(args)] = paths.PathSearch(*args)
            path = search.query(start, goal, skip=skip, reach=reach)
            calls.append((args, start, goal, skip, reach, None if path is None else path.points))
        counts = [_away_bends(c) for c in calls]
        paths_ = sum(1 for c in calls if c[5] is not None and len(c[5]) > 2)
        away = sum(1 for a, _ in counts if a)
        skipped = sum(1 for _, s in counts if s)
        print(
            f"{kind}: {paths_} answers with a bend; {away} turn away from an obstacle at a"
            f" corner; in {skipped} a clear leg skips such a bend"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", metavar="FILE")
    parser.add_argument("--replay", metavar="FILE")
    parser.add_argument("--bends", metavar="FILE")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.record:
        record(args.record)
    if args.replay:
        replay(args.replay, args.runs)
    if args.bends:
        bends(args.bends)


if __name__ == "__main__":
    main()
