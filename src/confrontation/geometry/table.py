"""The table and its zones (III-A-1): formats, line-of-battle deployment, scenario zones."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from confrontation.geometry.contact import CONTACT_TOLERANCE_CM

#: III-A-1 / I-A: the table formats, (width along x, height along y) in cm
FORMATS: dict[str, tuple[float, float]] = {
    "120x60": (120.0, 60.0),
    "90x90": (90.0, 90.0),
    "60x60": (60.0, 60.0),
    "120x120": (120.0, 120.0),  # CLARIFICATIONS §8: the control-point pack's table
}
#: III-A-1: a deployment area lies more than 15 cm and less than 50 cm from the median line
DEPLOY_NEAR_CM = 15.0
DEPLOY_FAR_CM = 50.0
#: III-A-1, CLARIFICATIONS §9: both bounds are open. A base within a tape measure's precision
#: of a bound (the contact tolerance, 0.05 mm) measures as lying *at* it, so the area stops
#: this far short of each bound that lies on the table (the table's edges stay closed).
OPEN_BOUND_CM = CONTACT_TOLERANCE_CM


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
        height/2). Each area is in its half, "more than 15 cm and less than 50 cm" from the
        median line, clipped to the table. Both bounds are open (CLARIFICATIONS §9): the
        area stops :data:`OPEN_BOUND_CM` short of each, so a base whose edge is 15 cm or 50 cm
        from the median line (to 0.05 mm) is outside it; an edge of the table is no bound of
        III-A-1 and stays closed (docs/rulings.md, III-A-1).
        """
        if split not in ("width", "length"):
            raise ValueError(f"split must be 'width' or 'length', not {split!r}")
        size = self.width if split == "width" else self.height
        m = size / 2.0
        near, far = DEPLOY_NEAR_CM + OPEN_BOUND_CM, DEPLOY_FAR_CM - OPEN_BOUND_CM
        # (low, high) along the axis across the median line; the far bound only if on the table
        one = (m - far if m - DEPLOY_FAR_CM > 0 else 0.0, m - near)
        two = (m + near, m + far if m + DEPLOY_FAR_CM < size else size)
        if split == "width":
            a = Zone.rect("deployment-1", one[0], 0, one[1], self.height)
            b = Zone.rect("deployment-2", two[0], 0, two[1], self.height)
        else:
            a = Zone.rect("deployment-1", 0, one[0], self.width, one[1])
            b = Zone.rect("deployment-2", 0, two[0], self.width, two[1])
        return a, b


@lru_cache(maxsize=64)
def _rectangle(width: float, height: float) -> Polygon:
    return box(0.0, 0.0, width, height)
