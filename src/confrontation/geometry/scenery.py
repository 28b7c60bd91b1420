"""Scenery elements (II-D-1, III-A-3, XX-A-2): footprints, size classes, legal layouts.

A seeded generator of legal layouts draws from a numpy Generator, itself seeded from the
engine's :class:`~confrontation.dice.Roller` (never :mod:`random`).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from confrontation.data import data_path
from confrontation.dice import Roller
from confrontation.geometry.bases import size_rank
from confrontation.geometry.table import Table

#: III-A-3 / XX-A-2 / 000 "Amount and placement of scenery"
MIN_ELEMENTS = 4
MAX_SIDE_CM = 30.0
MIN_GAP_CM = 6.0


@dataclass(frozen=True)
class Scenery:
    """A scenery element: footprint (cm), height as a size class, crossable or not."""

    name: str
    footprint: Polygon
    height: str = "normal"
    passable: bool = True

    def __post_init__(self) -> None:
        size_rank(self.height)

    @property
    def rank(self) -> int:
        return size_rank(self.height)

    @classmethod
    def rect(
        cls,
        name: str,
        x: float,
        y: float,
        width: float,
        depth: float,
        angle: float = 0.0,
        *,
        height: str = "normal",
        passable: bool = True,
    ) -> Scenery:
        """A rectangle centred on (x, y), ``width`` along x before turning by ``angle``°."""
        poly = box(x - width / 2, y - depth / 2, x + width / 2, y + depth / 2)
        return cls(name, affinity.rotate(poly, angle, origin=(x, y)), height, passable)

    @classmethod
    def circle(
        cls,
        name: str,
        x: float,
        y: float,
        diameter: float,
        *,
        height: str = "normal",
        passable: bool = True,
    ) -> Scenery:
        return cls(name, Point(x, y).buffer(diameter / 2, quad_segs=8), height, passable)


def crossable(element: Scenery, mover_size: str, move_at_most_mov: bool) -> bool:
    """V-A: can a fighter of ``mover_size`` move through ``element``?

    Smaller landforms are crossed without penalty; one of the same size only if the fighter
    moves no more than MOV x 1; larger ones never. Impassable elements never. The caller
    says whether the move is at most MOV x 1 (the distance actually moved along the path;
    the engine's ``Field.move_path`` decides it).
    """
    if not element.passable:
        return False
    rank, mover = element.rank, size_rank(mover_size)
    if rank < mover:
        return True
    return rank == mover and move_at_most_mov


def layout_problems(
    table: Table,
    elements: list[Scenery] | tuple[Scenery, ...],
    *,
    min_elements: int = MIN_ELEMENTS,
    max_side: float = MAX_SIDE_CM,
    min_gap: float = MIN_GAP_CM,
) -> list[str]:
    """III-A-3 / XX-A-2: why this layout is not legal (empty list: legal).

    At least 4 elements; none larger than 30x30 cm (its smallest enclosing rectangle, any
    orientation); each at least 6 cm from every other and from every table edge.
    """
    problems: list[str] = []
    if len(elements) < min_elements:
        problems.append(f"{len(elements)} scenery elements, at least {min_elements} needed")
    inner = table.area.buffer(-min_gap, join_style="mitre")
    for e in elements:
        rect = e.footprint.minimum_rotated_rectangle
        xy = list(rect.exterior.coords)
        sides = sorted(math.dist(xy[i], xy[i + 1]) for i in range(2))
        if sides[1] > max_side + 1e-9:
            problems.append(f"{e.name}: {sides[0]:.1f}x{sides[1]:.1f} cm exceeds {max_side:g} cm")
        if not inner.buffer(1e-9).covers(e.footprint):
            problems.append(f"{e.name}: closer than {min_gap:g} cm to a table edge")
    for i, a in enumerate(elements):
        for b in elements[i + 1 :]:
            d = a.footprint.distance(b.footprint)
            if d < min_gap - 1e-9:
                problems.append(f"{a.name} and {b.name}: {d:.1f} cm apart, {min_gap:g} needed")
    return problems


@dataclass(frozen=True)
class Template:
    """A kind of scenery element the generator can place (data/scenery.toml)."""

    name: str
    shape: str
    sizes: tuple[tuple[float, float], ...]
    height: str
    passable: bool


def load_templates(path: Path | None = None) -> dict[str, Template]:
    """Read scenery templates (the bundled ``scenery.toml`` by default)."""
    text = path.read_text("utf-8") if path else data_path("scenery.toml").read_text("utf-8")
    raw = tomllib.loads(text)["templates"]
    out: dict[str, Template] = {}
    for name, t in raw.items():
        keys = ("diameter",) if t["shape"] == "circle" else ("width", "depth")
        sizes = tuple((float(t[k][0]), float(t[k][1])) for k in keys)
        out[name] = Template(name, t["shape"], sizes, t["height"], bool(t["passable"]))
    return out


def generator_from(roller: Roller, dice: int = 12) -> np.random.Generator:
    """A numpy Generator seeded from ``dice`` faces of an engine roller."""
    seed = 0
    for _ in range(dice):
        seed = seed * 6 + roller.d6() - 1
    return np.random.default_rng(seed)


def random_layout(
    table: Table,
    rng: Roller | np.random.Generator,
    count: int = 6,
    templates: dict[str, Template] | None = None,
    *,
    max_tries: int = 2000,
    existing: Sequence[Scenery] = (),
    clear: Sequence[BaseGeometry] = (),
) -> list[Scenery]:
    """A legal layout (III-A-3) of ``count`` elements drawn from ``templates``, each at least
    6 cm from the ``existing`` ones too (a scenario's scenery, XX-A-2) and from the places
    kept ``clear`` (a scenario's objectives and tokens, docs/rulings.md XX-A-2); the new ones
    only."""
    gen = rng if isinstance(rng, np.random.Generator) else generator_from(rng)
    temps = list((templates or load_templates()).values())
    placed: list[Scenery] = []
    inner = table.area.buffer(-MIN_GAP_CM, join_style="mitre")
    for _ in range(max_tries):
        if len(placed) == count:
            return placed
        t = temps[int(gen.integers(len(temps)))]
        dims = [float(gen.uniform(lo, hi)) for lo, hi in t.sizes]
        x = float(gen.uniform(0, table.width))
        y = float(gen.uniform(0, table.height))
        name = f"{t.name}-{len(existing) + len(placed) + 1}"
        if t.shape == "circle":
            e = Scenery.circle(name, x, y, dims[0], height=t.height, passable=t.passable)
        else:
            angle = float(gen.uniform(0, 180))
            e = Scenery.rect(
                name, x, y, dims[0], dims[1], angle, height=t.height, passable=t.passable
            )
        if not inner.covers(e.footprint):
            continue
        if any(e.footprint.distance(p.footprint) < MIN_GAP_CM for p in (*existing, *placed)):
            continue
        if any(e.footprint.distance(shape) < MIN_GAP_CM for shape in clear):
            continue
        placed.append(e)
    if len(placed) < count:
        raise ValueError(
            f"could not place {count} scenery elements on a {table.width:g}x"
            f"{table.height:g} table in {max_tries} tries"
        )
    return placed


def convex_parts(poly: Polygon) -> list[Polygon]:
    """The footprint as convex pieces (itself if convex, else triangles)."""
    if poly.convex_hull.area - poly.area <= 1e-9 * max(poly.area, 1.0):
        return [poly]
    tris = shapely.constrained_delaunay_triangles(poly)
    return [g for g in tris.geoms if g.area > 1e-12]
