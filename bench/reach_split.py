"""Issue 22, thirteenth round (onesource): the greedy agent's "does this assault reach?" path
questions (``greedy._reachable``), split by answer and by where their CPU goes, and the most
each idea of the round could save.

Plays greedy games, seeds 0-2 (``--size 250`` or ``750``: ``engine_bench.scaled_army``),
recording every ``PathSearch.query`` and whether ``_reachable`` asked it; then asks them
all again in order (one ``PathSearch`` per battlefield as in the games, caches emptied
first), timing the reach questions and their steps:

- by answer: found; none before step 4 (``_near_ends``); start blocked; no goal set; the
  start farther from the goal set than the bound (answered before the corners since this
  round); none from the A*, "too long" or "no path at all" (told apart by an unbounded
  search asked after the timed replay);
- by mover (the same battlefield search, start and friends passed through): how many
  questions each asks, and the CPU of all but the first (the most that one search per mover
  answering all his targets could save, if its answers were free);
- "no path at all" from the A* with the goal set sealed in a pocket (inside one blocker
  polygon's hole, or inside its shell with the start outside): the A* CPU a pocket test
  would save;
- the lower bound tried and dropped (:func:`edge_gap`): how many questions it would answer
  before step 4, and its CPU.

Run from ``bench``: ``PYTHONPATH=../src:. python reach_split.py --size 750``.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Collection
from pathlib import Path as FilePath
from typing import Any

import shapely

from confrontation.agents import greedy
from confrontation.geometry import paths
from confrontation.sim.game import DEFAULT_ARMIES, GameConfig, play_game
from engine_bench import scaled_army

#: a recorded question: asked by ``_reachable``?, the search's arguments, start, goal, skip,
#: reach
Asked = tuple[bool, Any, tuple[float, float], Any, tuple[int, ...], float]
CACHES = ("_INFLATED", "_GROUPS", "_TOUCH", "_TARGETS", "_INNER", "_CONVEX")


def record(size: str) -> list[Asked]:
    """Every path question of three greedy games at ``size`` AP."""
    asked: list[Asked] = []
    reaching = [False]
    query, reachable = paths.PathSearch.query, greedy._reachable

    def spy(
        self: paths.PathSearch,
        start: tuple[float, float],
        goal: Any,
        *,
        skip: Collection[int] = (),
        reach: float = math.inf,
    ) -> paths.Path | None:
        asked.append((reaching[0], self._args, start, goal, tuple(skip), reach))
        return query(self, start, goal, skip=skip, reach=reach)

    def flagged(state: Any, fighter: Any, target: Any) -> bool:
        reaching[0] = True
        try:
            return reachable(state, fighter, target)
        finally:
            reaching[0] = False

    paths.PathSearch.query = spy  # type: ignore[method-assign]
    greedy._reachable = flagged
    try:
        with tempfile.TemporaryDirectory() as folder:
            big = tuple(str(scaled_army(a, 3, FilePath(folder))) for a in DEFAULT_ARMIES)
            armies = big if size == "750" else tuple(DEFAULT_ARMIES)
            for seed in (0, 1, 2):
                play_game(GameConfig(seed=seed, armies=armies))
    finally:
        paths.PathSearch.query = query  # type: ignore[method-assign]
        greedy._reachable = reachable
    return asked


def _timed(
    name: str, notes: dict[str, Any], keep: Callable[[Any, Any], None]
) -> Callable[[], None]:
    """Wrap ``paths.<name>``: its CPU added to ``notes[name]``, ``keep(args, answer)`` called;
    returns the undoing."""
    real = getattr(paths, name)

    def around(*args: Any) -> Any:
        begin = time.process_time()
        answer = real(*args)
        notes[name] = notes.get(name, 0.0) + time.process_time() - begin
        keep(args, answer)
        return answer

    setattr(paths, name, around)
    return lambda: setattr(paths, name, real)


def edge_gap(q: paths._Question) -> float:
    """The lower bound tried and dropped: the straight distance from the start to the goal
    base's edge less each near piece (``q.pieces`` after step 3) eroded 1e-3 cm deeper than
    the blocker's pieces, each alone (``math.inf``: nothing left)."""
    assert q.target is not None
    x0, y0, x1, y1 = q.target.bounds
    edge: Any = q.target.exterior
    for piece in q.pieces:
        bx0, by0, bx1, by1 = piece.box
        if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
            continue
        deep = DEEP.get(id(piece))
        if deep is None or deep[0] is not piece:
            deep = DEEP[id(piece)] = (piece, piece.shape.buffer(-(paths.CLEAR_EPS + 1e-3)))
        edge = edge.difference(deep[1])
        if edge.is_empty:
            return math.inf
    return float(edge.distance(q.sp))


DEEP: dict[int, tuple[Any, Any]] = {}


def _sealed_in_pocket(q: paths._Question) -> bool:
    """Is every part of the goal set inside one blocker polygon's hole, or inside its shell
    with the start outside it (then every way in crosses that polygon)?"""
    polys = shapely.get_parts(q.blocker)

    def closed(part: Any) -> bool:
        for p in polys:
            shell = shapely.Polygon(p.exterior)
            if shell.covers(part) and not shell.covers(q.sp):
                return True
            for hole in p.interiors:
                inside = shapely.Polygon(hole)
                if inside.covers(part) and not inside.covers(q.sp):
                    return True
        return False

    return all(closed(part) for part in shapely.get_parts(q.goal_set))


def split(asked: list[Asked]) -> None:
    """Ask the questions again; print the split of the reach questions."""
    for name in CACHES:
        cache = getattr(paths, name, None)
        if cache is not None:
            cache.clear()
    DEEP.clear()
    notes: dict[str, Any] = {}
    undo = [
        _timed("_near_ends", notes, lambda a, ok: notes.update(q=a[0], near=ok)),
        _timed("_blocker", notes, lambda a, ok: notes.update(free=ok)),
        _timed("_goal_set", notes, lambda a, ok: notes.update(goal=ok)),
        _timed("_bounded_astar", notes, lambda a, ok: None),
    ]
    count: Counter[str] = Counter()
    cpu: dict[str, float] = {}
    later: dict[str, float] = {}
    movers: Counter[tuple[Any, ...]] = Counter()
    searches: dict[int, paths.PathSearch] = {}
    astar_none: list[tuple[Asked, float]] = []
    gaps: list[tuple[str, float, float, float]] = []
    try:
        for item in asked:
            reaching, args, start, goal, skip, reach = item
            search = searches.get(id(args))
            if search is None:
                search = searches[id(args)] = paths.PathSearch(*args)
            notes.clear()
            begin = time.process_time()
            found = search.query(start, goal, skip=skip, reach=reach)
            spent = time.process_time() - begin
            if not reaching:
                continue
            q = notes.get("q")
            if found is not None:
                kind = "found"
            elif q is None:
                kind = "none: beyond the straight reach"
            elif not notes["near"]:
                kind = "none: before step 4"
            elif not notes["free"]:
                kind = "none: start blocked"
            elif not notes["goal"]:
                kind = "none: no goal set"
            elif "_bounded_astar" not in notes:
                kind = "none: goal set beyond the bound"
            else:
                kind = "none: the A*"
                astar_none.append((item, notes["_bounded_astar"]))
            count[kind] += 1
            cpu[kind] = cpu.get(kind, 0.0) + spent
            cpu[kind + " (A*)"] = cpu.get(kind + " (A*)", 0.0) + notes.get("_bounded_astar", 0.0)
            mover = (id(args), start, skip[:-1])
            if movers[mover]:
                later[kind] = later.get(kind, 0.0) + spent
            movers[mover] += 1
            if q is not None and notes["near"] and q.target is not None and reach < math.inf:
                begin = time.process_time()
                gap = edge_gap(q)
                gaps.append((kind, gap - q.bound, time.process_time() - begin, spent))
    finally:
        for u in undo:
            u()
    print(f"{sum(count.values())} reach questions, {sum(cpu[k] for k in count):.3f} CPU-s")
    for kind in sorted(count):
        print(
            f"  {kind}: {count[kind]}, {cpu[kind]:.3f} CPU-s (A* {cpu[kind + ' (A*)']:.3f});"
            f" not the mover's first question: {later.get(kind, 0.0):.3f} CPU-s"
        )
    sizes = Counter(movers.values())
    print(f"  movers: {len(movers)}; questions per mover {dict(sorted(sizes.items()))}")
    # too long or no path at all, and the pockets (an unbounded search, not timed)
    split_none: Counter[str] = Counter()
    for (_, args, start, goal, skip, _reach), astar in astar_none:
        search = searches[id(args)]
        if search.query(start, goal, skip=skip) is not None:
            split_none["too long"] += 1
            continue
        q = paths._Question(start, goal, math.inf)
        keep = [o for i, o in enumerate(args[0]) if i not in skip]
        paths._near_ends(q, keep, args[1] / 2.0)
        if args[2] is not None:
            q.pieces.append(paths._framed(args[2], args[1] / 2.0))
        paths._blocker(q)
        paths._goal_set(q)
        pocket = _sealed_in_pocket(q)
        split_none["no path, sealed in a pocket" if pocket else "no path, open"] += 1
        if pocket:
            split_none["pockets' A* CPU-s (x 1000)"] += round(astar * 1000)
    print(f"  the A*'s none: {dict(split_none)}")
    caught = [g for g in gaps if g[1] > paths.CORNER_MARGIN]
    print(
        f"  edge_gap: {len(caught)} of {len(gaps)} answered before step 4"
        f" ({Counter(g[0] for g in caught)}), their CPU {sum(g[3] for g in caught):.3f} s;"
        f" its own CPU {sum(g[2] for g in gaps):.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=("250", "750"), default="750")
    size = parser.parse_args().size
    asked = record(size)
    print(f"{size} AP, three greedy games: {len(asked)} path questions")
    split(asked)


if __name__ == "__main__":
    main()
