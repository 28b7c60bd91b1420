"""The table and its zones (III-A-1): formats, line-of-battle deployment, scenario zones."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

#: III-A-1 / I-A: the table formats, (width along x, height along y) in cm
FORMATS: dict[str, tuple[float, float]] = {
    "120x60": (120.0, 60.0),
    "90x90": (90.0, 90.0),
    "60x60": (60.0, 60.0),
}
#: III-A-1: a deployment area lies more than 15 cm and less than 50 cm from the median line
DEPLOY_NEAR_CM = 15.0
DEPLOY_FAR_CM = 50.0


@dataclass(frozen=True)
class Zone:
    """A named area of the table (deployment area, objective zone...)."""

    name: str
    area: BaseGeometry

    @classmethod
    def rect(cls, name: str, x0: float, y0: float, x1: float, y1: float) -> Zone:
        return cls(name, box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))

    @classmethod
    def circle(cls, name: str, x: float, y: float, radius: float) -> Zone:
        return cls(name, Point(x, y).buffer(radius, quad_segs=32))

    @classmethod
    def polygon(cls, name: str, points: list[tuple[float, float]]) -> Zone:
        return cls(name, Polygon(points))

    def contains_point(self, x: float, y: float) -> bool:
        return bool(self.area.buffer(1e-9).covers(Point(x, y)))


@dataclass(frozen=True)
class Table:
    """A rectangular table, origin at its lower-left corner, x along its width."""

    width: float = 120.0
    height: float = 60.0
    zones: tuple[Zone, ...] = field(default=())

    @classmethod
    def of(cls, fmt: str) -> Table:
        """One of the III-A-1 formats: "120x60", "90x90" or "60x60"."""
        if fmt not in FORMATS:
            raise ValueError(f"unknown table format {fmt!r}; use one of {', '.join(FORMATS)}")
        w, h = FORMATS[fmt]
        return cls(w, h)

    @property
    def area(self) -> Polygon:
        """The table's rectangle (one shared object per size: caches key on it)."""
        return _rectangle(self.width, self.height)

    def with_zones(self, *zones: Zone) -> Table:
        return Table(self.width, self.height, self.zones + zones)

    def zone(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"no zone {name!r} on this table")

    def line_of_battle(self, split: Literal["width", "length"] = "width") -> tuple[Zone, Zone]:
        """III-A-1: the two line-of-battle deployment areas.

        ``"width"``: the median line crosses the table across its width (Figure 1: parallel
        to the short edges, x = width/2); ``"length"``: along its length (Figure 2, y =
        height/2). Each area is in its half, more than 15 cm and less than 50 cm from the
        median line, clipped to the table (bounds inclusive: a tape measure has no
        "strictly"; docs/rulings.md, III-A-1).
        """
        if split == "width":
            m = self.width / 2.0
            a = Zone.rect(
                "deployment-1", max(m - DEPLOY_FAR_CM, 0), 0, m - DEPLOY_NEAR_CM, self.height
            )
            b = Zone.rect(
                "deployment-2",
                m + DEPLOY_NEAR_CM,
                0,
                min(m + DEPLOY_FAR_CM, self.width),
                self.height,
            )
        elif split == "length":
            m = self.height / 2.0
            a = Zone.rect(
                "deployment-1", 0, max(m - DEPLOY_FAR_CM, 0), self.width, m - DEPLOY_NEAR_CM
            )
            b = Zone.rect(
                "deployment-2",
                0,
                m + DEPLOY_NEAR_CM,
                self.width,
                min(m + DEPLOY_FAR_CM, self.height),
            )
        else:
            raise ValueError(f"split must be 'width' or 'length', not {split!r}")
        return a, b


@lru_cache(maxsize=64)
def _rectangle(width: float, height: float) -> Polygon:
    return box(0.0, 0.0, width, height)
