"""Two versions of ``geometry/paths.py`` in ONE process, alternated on the questions recorded
by ``path_replay.py --record`` (issue 22, twelfth round): the whole search (caches emptied
before each replay) or one step of it (``--step _blocker``: that function again on the
questions each version set up itself, caches warm). Prints, per workload, each version's
median CPU seconds and the median and range of the per-round ratios (this tree ÷ base);
in the whole-search mode each replay's answers are asserted equal to the recorded ones.

Run: ``cd bench && PYTHONPATH=<tree>/src python path_ab.py /tmp/q.pkl --base old_paths.py
--rounds 12 [--step _blocker]`` (``git show <commit>:src/confrontation/geometry/paths.py >
old_paths.py`` gives the base). ``--base`` the tree's own file is an A/A run: the spread of
the harness itself.
"""

from __future__ import annotations

import argparse
import importlib.util
import pickle
import statistics
import sys
import time
from pathlib import Path as FilePath
from types import ModuleType
from typing import Any

from confrontation.geometry import paths as tree_paths
from path_replay import Call


def load_module(name: str, file: str) -> ModuleType:
    """The Python file ``file`` loaded as module ``name`` (another tree's version of a module)."""
    spec = importlib.util.spec_from_file_location(name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _ask(module: ModuleType, calls: list[Call]) -> tuple[float, list[Any]]:
    """The recorded questions asked of ``module``, its caches emptied first."""
    for name in ("_INFLATED", "_GROUPS", "_TOUCH", "_TARGETS", "_INNER"):
        cache = getattr(module, name, None)
        if cache is not None:
            cache.clear()
    searches: dict[int, Any] = {}
    answers = []
    begin = time.process_time()
    for args, start, goal, skip, reach, _ in calls:
        search = searches.get(id(args))
        if search is None:
            search = searches[id(args)] = module.PathSearch(*args)
        path = search.query(start, goal, skip=skip, reach=reach)
        answers.append(None if path is None else path.points)
    return time.process_time() - begin, answers


def _captured(module: ModuleType, calls: list[Call], step: str) -> list[tuple[Any, ...]]:
    """The arguments of every call of ``module.<step>`` while the questions are asked."""
    got: list[tuple[Any, ...]] = []
    real = getattr(module, step)

    def spy(*args: Any) -> Any:
        got.append(args)
        return real(*args)

    setattr(module, step, spy)
    try:
        _ask(module, calls)
    finally:
        setattr(module, step, real)
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--base", required=True, help="the other version's paths.py")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--step", help="one function of paths.py, timed alone (caches warm)")
    parser.add_argument("--only", help="one workload")
    args = parser.parse_args()
    with open(args.file, "rb") as got:
        found: dict[str, list[Call]] = pickle.load(got)
    base = load_module("paths_base", args.base)
    tree = load_module("paths_tree", str(FilePath(tree_paths.__file__)))
    for kind, calls in found.items():
        if args.only and kind != args.only:
            continue
        captured = {}
        if args.step:
            captured = {m: _captured(m, calls, args.step) for m in (base, tree)}
        times: dict[ModuleType, list[float]] = {base: [], tree: []}
        for run in range(args.rounds):
            for m in (base, tree) if run % 2 == 0 else (tree, base):
                if args.step:
                    step = getattr(m, args.step)
                    begin = time.process_time()
                    for a in captured[m]:
                        step(*a)
                    times[m].append(time.process_time() - begin)
                    continue
                spent, answers = _ask(m, calls)
                assert all(a == c[5] for a, c in zip(answers, calls, strict=True)), kind
                times[m].append(spent)
        ratios = [t / b for t, b in zip(times[tree], times[base], strict=True)]
        what = args.step or "search"
        print(
            f"{kind} ({what}, {len(calls)} questions): base {statistics.median(times[base]):.3f}"
            f" s, tree {statistics.median(times[tree]):.3f} s; ratio median"
            f" {statistics.median(ratios):.3f}, range {min(ratios):.3f}-{max(ratios):.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
