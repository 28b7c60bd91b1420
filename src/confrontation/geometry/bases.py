"""Bases (I-B): sizes, shapes, position, facing, the sight point and the field of view.

Units: positions in cm from the table's lower-left corner, base sizes in mm (converted to cm
once, by :attr:`Base.width` / :attr:`Base.depth`). ``facing`` is in degrees counter-clockwise
from the +x axis: 90 faces "up" the table (+y).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from confrontation.data import data_path

Shape = Literal["square", "round"]
#: vertices per quarter circle when a round base is drawn as a polygon
ROUND_QUAD_SEGS = 16


@dataclass(frozen=True)
class BaseTable:
    """The contents of ``bases.toml``: size ranks, contact limits and base sizes per kind."""

    ranks: dict[str, int]
    contact_limits: dict[str, int]
    squares: dict[str, tuple[float, float]]
    rounds: dict[str, float]

    def rank(self, size: str) -> int:
        """Rank of a size class (II-D-3, V-A comparisons)."""
        try:
            return self.ranks[size]
        except KeyError:
            raise ValueError(f"unknown size {size!r} (bases.toml [sizes])") from None

    def dimensions(self, kind: str, shape: Shape) -> tuple[float, float]:
        """(width, depth) in mm of the base of ``kind`` and ``shape`` (I-B)."""
        if shape == "round":
            if kind not in self.rounds:
                raise ValueError(f"no round base for {kind!r} (bases.toml [bases])")
            d = self.rounds[kind]
            return d, d
        if shape == "square":
            if kind not in self.squares:
                raise ValueError(f"no square base for {kind!r} (bases.toml [bases])")
            return self.squares[kind]
        raise ValueError(f"base shape must be 'square' or 'round', not {shape!r}")


def load_base_table(path: Path | None = None) -> BaseTable:
    """Read a bases file (the bundled ``bases.toml`` by default)."""
    text = path.read_text("utf-8") if path else data_path("bases.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    squares = {k: (float(v["square"][0]), float(v["square"][1])) for k, v in raw["bases"].items()}
    rounds = {k: float(v["round"]) for k, v in raw["bases"].items()}
    return BaseTable(
        ranks={k: int(v) for k, v in raw["sizes"].items()},
        contact_limits={k: int(v) for k, v in raw["contact_limits"].items()},
        squares=squares,
        rounds=rounds,
    )


@cache
def base_table() -> BaseTable:
    """The bundled base table (loaded once)."""
    return load_base_table()


@cache
def size_rank(size: str) -> int:
    """Rank of a size class from the bundled table (kept per size: the table is loaded
    once; an unknown size raises every time)."""
    return base_table().rank(size)


def max_enemies_in_contact(size: str) -> int:
    """II-E-3: most enemies that can be in contact with a fighter of ``size``."""
    limits = base_table().contact_limits
    if size not in limits:
        raise ValueError(f"no contact limit for size {size!r} (bases.toml [contact_limits])")
    return limits[size]


@dataclass(frozen=True, slots=True)
class Base:
    """A fighter's base on the table (a pure shape: no rules state)."""

    x: float
    y: float
    facing: float = 90.0
    shape: Shape = "square"
    width_mm: float = 25.0
    depth_mm: float = 25.0
    size: str = "normal"
    level: int = 0

    @classmethod
    def of(
        cls,
        size: str,
        shape: Shape,
        x: float,
        y: float,
        facing: float = 90.0,
        *,
        kind: str | None = None,
        level: int = 0,
    ) -> Base:
        """The I-B base of a fighter of ``size`` (``kind`` e.g. "cavalry" overrides)."""
        size_rank(size)
        w, d = base_table().dimensions(kind or size, shape)
        return cls(x, y, facing, shape, w, d, size, level)

    @property
    def width(self) -> float:
        """Front width in cm."""
        return self.width_mm / 10.0

    @property
    def depth(self) -> float:
        """Depth in cm."""
        return self.depth_mm / 10.0

    @property
    def radius(self) -> float:
        """Radius in cm (round bases)."""
        return self.width_mm / 20.0

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def front(self) -> tuple[float, float]:
        """Unit vector the base faces."""
        a = math.radians(self.facing)
        return (math.cos(a), math.sin(a))

    @property
    def sight(self) -> tuple[float, float]:
        """II-D-2: the sight, the point marking the front of the base (front centre)."""
        fx, fy = self.front
        half = self.depth / 2.0
        return (self.x + fx * half, self.y + fy * half)

    @property
    def polygon(self) -> Polygon:
        """The base's footprint (cached)."""
        return _polygon(self.x, self.y, self.facing, self.shape, self.width_mm, self.depth_mm)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``polygon.bounds`` (minx, miny, maxx, maxy): the same numbers, kept per base
        value (a square's from its corners, without asking GEOS)."""
        return _bounds(self.x, self.y, self.facing, self.shape, self.width_mm, self.depth_mm)

    def moved(self, x: float, y: float, facing: float | None = None) -> Base:
        """The same base at another place (and facing)."""
        turned = self.facing if facing is None else facing
        return Base(x, y, turned, self.shape, self.width_mm, self.depth_mm, self.size, self.level)

    def facing_point(self, px: float, py: float) -> Base:
        """The same base turned so that it faces the point (px, py)."""
        return replace(self, facing=math.degrees(math.atan2(py - self.y, px - self.x)))

    def corners(self) -> list[tuple[float, float]]:
        """Corners of a square base, counter-clockwise from front-right."""
        return list(_corners(self.x, self.y, self.facing, self.width_mm, self.depth_mm))

    def sides(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The four sides of a square base (front first)."""
        c = self.corners()
        return [(c[i], c[(i + 1) % 4]) for i in range(4)]


Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


@lru_cache(maxsize=65536)
def _corners(x: float, y: float, facing: float, w: float, d: float) -> Corners:
    """:meth:`Base.corners` of a square base (kept per base value: a base's corners are
    asked again and again while it stands still)."""
    a = math.radians(facing)
    fx, fy = math.cos(a), math.sin(a)
    lx, ly = -fy, fx  # left of the facing direction
    hw, hd = w / 10.0 / 2.0, d / 10.0 / 2.0
    return (
        (x + fx * hd - lx * hw, y + fy * hd - ly * hw),
        (x + fx * hd + lx * hw, y + fy * hd + ly * hw),
        (x - fx * hd + lx * hw, y - fy * hd + ly * hw),
        (x - fx * hd - lx * hw, y - fy * hd - ly * hw),
    )


@cache
def _circle(w: float) -> np.ndarray:
    """The outline of a round base ``w`` mm wide centred on the origin, as GEOS draws it
    (``Point(0, 0).buffer(w / 20, quad_segs=ROUND_QUAD_SEGS)``)."""
    outline: np.ndarray = shapely.get_coordinates(
        Point(0.0, 0.0).buffer(w / 20.0, quad_segs=ROUND_QUAD_SEGS)
    )
    return outline


@lru_cache(maxsize=65536)
def _polygon(x: float, y: float, facing: float, shape: str, w: float, d: float) -> Polygon:
    if shape == "round":
        # the same vertices as ``Point(x, y).buffer(w / 20, quad_segs=16)``: GEOS places
        # each at x + r cos(a), y + r sin(a), as the outline round the origin moved by
        # (x, y) (tests/geometry/test_bases_cache.py), without a buffer operation
        circle: Polygon = shapely.polygons(_circle(w) + np.array((x, y)))
        return circle
    poly: Polygon = shapely.polygons(_corners(x, y, facing, w, d))
    shapely.prepare(poly)
    return poly


@lru_cache(maxsize=65536)
def _bounds(
    x: float, y: float, facing: float, shape: str, w: float, d: float
) -> tuple[float, float, float, float]:
    if shape == "round":
        x0, y0, x1, y1 = shapely.bounds(_polygon(x, y, facing, shape, w, d)).tolist()
        return (x0, y0, x1, y1)
    xs, ys = zip(*_corners(x, y, facing, w, d), strict=True)
    return (min(xs), min(ys), max(xs), max(ys))


def in_field_of_view(viewer: Base, px: float, py: float) -> bool:
    """II-D-2 / II-F-1: is the point within the viewer's field of view?

    180° in front of the line through the sight, perpendicular to the facing (the front
    edge of a square base); 360° for a fighter at altitude level 1.
    """
    if viewer.level == 1:
        return True
    sx, sy = viewer.sight
    fx, fy = viewer.front
    return (px - sx) * fx + (py - sy) * fy >= -1e-9


def field_of_view(viewer: Base, reach: float = 1000.0) -> Polygon:
    """The viewer's field of view as a polygon (a half-plane clipped to ``reach``)."""
    sx, sy = viewer.sight
    if viewer.level == 1:
        return Point(viewer.x, viewer.y).buffer(reach)
    fx, fy = viewer.front
    lx, ly = -fy, fx
    return Polygon(
        [
            (sx - lx * reach, sy - ly * reach),
            (sx + lx * reach, sy + ly * reach),
            (sx + lx * reach + fx * reach, sy + ly * reach + fy * reach),
            (sx - lx * reach + fx * reach, sy - ly * reach + fy * reach),
        ]
    )
