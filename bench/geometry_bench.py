"""Geometry queries per second on a 120x60 table with 30 fighters and 6 scenery elements,
next to shapely's raw polygon-intersection speed measured in the same run.

Run: .venv/bin/python bench/geometry_bench.py
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import numpy as np
import shapely

from confrontation.dice import SeededRoller
from confrontation.geometry import Base, Battlefield, Table, random_layout
from confrontation.geometry import field as geometry_field
from confrontation.geometry.contact import in_contact


def _fighters(field_scenery: list, rng: np.random.Generator) -> dict[str, Base]:  # type: ignore[type-arg]
    placed: dict[str, Base] = {}
    shapes = shapely.unary_union([s.footprint for s in field_scenery])
    while len(placed) < 30:
        side = len(placed) % 2
        x = float(rng.uniform(12, 45)) if side == 0 else float(rng.uniform(75, 108))
        size = str(rng.choice(["normal", "normal", "normal", "large", "small"]))
        shape = "square" if rng.random() < 0.5 else "round"
        b = Base.of(size, shape, x, float(rng.uniform(4, 56)), 0.0 if side == 0 else 180.0)  # type: ignore[arg-type]
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
