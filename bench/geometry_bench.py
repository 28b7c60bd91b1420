"""Geometry queries per second on a 120x60 table with 30 fighters and 6 scenery elements,
next to shapely's raw polygon-intersection speed measured in the same run.

Run: .venv/bin/python bench/geometry_bench.py
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Collection, Sequence

import numpy as np
import shapely

from confrontation.dice import SeededRoller
from confrontation.geometry import Base, Battlefield, Scenery, Table, random_layout
from confrontation.geometry import field as geometry_field
from confrontation.geometry import paths as geometry_paths
from confrontation.geometry.bases import Shape
from confrontation.geometry.contact import in_contact
from confrontation.geometry.paths import Path
from confrontation.sim.game import GameConfig, play_game

# A battlefield's table, fighters and scenery; a path question (mover, goal, pass_through,
# move_at_most_mov); a call: the battlefield's number in the game, its layout, the question.
_Layout = tuple[Table, dict[str, Base], tuple[Scenery, ...]]
_Question = tuple[str, tuple[float, float] | str, Collection[str], bool, float]
_Call = tuple[int, _Layout, _Question]


def _fighters(field_scenery: Sequence[Scenery], rng: np.random.Generator) -> dict[str, Base]:
    placed: dict[str, Base] = {}
    shapes = shapely.unary_union([s.footprint for s in field_scenery])
    while len(placed) < 30:
        side = len(placed) % 2
        x = float(rng.uniform(12, 45)) if side == 0 else float(rng.uniform(75, 108))
        size = str(rng.choice(["normal", "normal", "normal", "large", "small"]))
        shape: Shape = "square" if rng.random() < 0.5 else "round"
        b = Base.of(size, shape, x, float(rng.uniform(4, 56)), 0.0 if side == 0 else 180.0)
        if b.polygon.intersects(shapes) or any(
            b.polygon.distance(o.polygon) < 0.5 for o in placed.values()
        ):
            continue
        placed[f"{'ab'[side]}{len(placed)}"] = b
    return placed


def _rate(fn: Callable[[], object], seconds: float = 1.0) -> float:
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        if (elapsed := time.perf_counter() - start) >= seconds:
            return n / elapsed


def _game_path_calls(seed: int = 1000) -> list[_Call]:
    """The path questions one greedy-vs-greedy game asks (battlefield, mover, goal, ...)."""
    calls: list[tuple[Battlefield, _Question]] = []
    path = Battlefield.path

    def spy(
        self: Battlefield,
        mover: str,
        goal: tuple[float, float] | str,
        *,
        pass_through: Collection[str] = (),
        move_at_most_mov: bool = False,
        reach: float = math.inf,
    ) -> Path | None:
        calls.append((self, (mover, goal, pass_through, move_at_most_mov, reach)))
        return path(
            self,
            mover,
            goal,
            pass_through=pass_through,
            move_at_most_mov=move_at_most_mov,
            reach=reach,
        )

    Battlefield.path = spy  # type: ignore[method-assign]
    try:
        play_game(
            GameConfig(
                scenario="conquest",
                armies=("lion-vanguard", "lion-vanguard"),
                agents=("greedy", "greedy"),
                seed=seed,
            )
        )
    finally:
        Battlefield.path = path  # type: ignore[method-assign]
    order: dict[int, int] = {}
    out: list[_Call] = []
    for field, question in calls:
        k = order.setdefault(id(field), len(order))
        out.append((k, (field.table, dict(field.fighters), field.scenery), question))
    return out


def _replay(calls: list[_Call]) -> tuple[float, list[object]]:
    """CPU seconds to ask the questions again on new battlefields (caches emptied first)."""
    geometry_paths._INFLATED.clear()
    geometry_paths._GROUPS.clear()
    fields: dict[int, Battlefield] = {}
    answers: list[object] = []
    start = time.process_time()
    for k, args, (mover, goal, through, at_most, reach) in calls:
        field = fields.get(k)
        if field is None:
            field = fields[k] = Battlefield(*args)
        got = field.path(mover, goal, pass_through=through, move_at_most_mov=at_most, reach=reach)
        answers.append(None if got is None else got.points)
    elapsed = time.process_time() - start
    return elapsed, answers


def game_paths() -> None:
    """Path queries of a played game, asked again on new battlefields from empty shape
    caches: best of 3 runs, answers compared."""
    calls = _game_path_calls()
    times = []
    first: list[object] | None = None
    for _ in range(3):
        t, answers = _replay(calls)
        assert first is None or answers == first, "a replay changed an answer"
        first = answers
        times.append(t)
    n = len(calls)
    print(
        f"path queries in a played game (greedy vs greedy, lion-vanguard, seed 1000, {n} queries):"
        f" {min(times) * 1000:.0f} ms ({min(times) / n * 1000:.1f} ms a query)"
    )


def main() -> None:
    table = Table()
    scenery = random_layout(table, SeededRoller(7), 6)
    fighters = _fighters(scenery, np.random.default_rng(7))
    field = Battlefield(table, fighters, tuple(scenery))
    ids = list(fighters)
    pairs = list(itertools.permutations(ids, 2))
    cross = [(a, b) for a, b in pairs if a[0] != b[0]]
    polys = [fighters[i].polygon for i in ids]

    it_raw = itertools.cycle(itertools.permutations(polys, 2))
    raw = _rate(lambda: shapely.intersects(*next(it_raw)))
    it_c = itertools.cycle(pairs)
    contact = _rate(lambda: in_contact(*(fighters[i] for i in next(it_c))))
    it_s = itertools.cycle(cross)
    sight = _rate(lambda: field.sight(*next(it_s)))  # pairs met again: answers kept
    it_s1 = itertools.cycle(cross)

    def sight_first() -> None:
        geometry_field._SIGHTS.clear()  # every pair as if met for the first time
        field.sight(*next(it_s1))

    sight_new = _rate(sight_first)
    queries = cross[::7]
    # cold: a new Battlefield for every query (the path graph is built each time)
    it_c0 = itertools.cycle(queries)

    def cold_path() -> None:
        Battlefield(table, fighters, tuple(scenery)).path(*next(it_c0))

    path_cold = _rate(cold_path, seconds=2.0)
    # first pass on one Battlefield (graph built once, corners' neighbours found on the way)
    t0 = time.perf_counter()
    for q in queries:
        field.path(*q)
    path_first = len(queries) / (time.perf_counter() - t0)
    for q in queries:  # second pass: corners met twice get their neighbours cached
        field.path(*q)
    # warm: the same Battlefield, the queries cycled again (what an AI's many queries pay)
    it_p = itertools.cycle(queries)
    path = _rate(lambda: field.path(*next(it_p)), seconds=3.0)
    it_p2 = itertools.cycle(queries)
    place = _rate(lambda: field.contact_position(*next(it_p2)), seconds=2.0)

    print("geometry bench: 120x60 table, 30 fighters, 6 scenery elements")
    print(f"  {'shapely raw polygon intersects':<35}: {raw:10.0f} /s  (reference)")
    for name, r in (
        ("contact checks", contact),
        ("sight checks, first time", sight_new),
        ("sight checks, met again", sight),
        ("path queries, new Battlefield each", path_cold),
        ("path queries, first pass", path_first),
        ("path queries, warm", path),
        ("contact placements", place),
    ):
        print(f"  {name:<35}: {r:10.0f} /s  ratio to raw {r / raw:.5f}")


if __name__ == "__main__":
    main()
    game_paths()
