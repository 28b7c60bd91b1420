"""Deployment layouts for battles of three players or more (XX-F-1) as data.

"For a battle with more than two factions, a deployment zone is determined for each camp; by
default these zones must be 30 cm apart from each other." (XX-F-1) A layout file
(``data/layouts.toml``, or a user's own file) gives for a number of players the table's size,
one rectangular deployment area per player (area 1 first) and the centre circle the scenarios
call "the centre". :func:`load_layouts` reads it and checks it: the right number of areas,
each wholly on the table, every two of them at least :data:`SPACING_CM` apart, the centre on
the table and overlapping no area. Every problem is one line naming the file, the line and
the key (:class:`~confrontation.armylists.load.LoadError`). Format: docs/geometry.md.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import box

from confrontation.armylists.load import LoadError, find_line, key_name, parse_model, read_toml
from confrontation.data import data_path
from confrontation.engine.core.state import MAX_PLAYERS, Battleground
from confrontation.geometry.table import Table, Zone
from confrontation.model.profile import FieldProblem

SPACING_CM = 30.0
"""XX-F-1: "by default these zones must be 30 cm apart from each other"."""

LINES = ("width", "length")
"""The two-player splits (line of battle, III-A-1): no layout has these names."""

CENTRE = "centre"
"""The name of the layout's centre zone on its table (after the deployment zones)."""

Finite = Annotated[float, Field(allow_inf_nan=False)]


class RectSpec(BaseModel):
    """A deployment area: the rectangle ``x0 y0 x1 y1`` (cm from the lower-left corner)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    x0: Finite
    y0: Finite
    x1: Finite
    y1: Finite

    @model_validator(mode="after")
    def _ordered(self) -> RectSpec:
        if self.x1 <= self.x0:
            raise FieldProblem("x1", "an area needs x0 < x1")
        if self.y1 <= self.y0:
            raise FieldProblem("y1", "an area needs y0 < y1")
        return self


class CircleSpec(BaseModel):
    """The centre: the circle of centre ``x y`` and ``radius`` (cm)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    x: Finite
    y: Finite
    radius: Finite = Field(gt=0)


class LayoutSpec(BaseModel):
    """One layout as written."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    players: int = Field(ge=3, le=MAX_PLAYERS)
    width: Finite = Field(gt=0)
    height: Finite = Field(gt=0)
    areas: list[RectSpec]
    centre: CircleSpec

    @model_validator(mode="after")
    def _not_a_line(self) -> LayoutSpec:
        if self.name in LINES:
            raise FieldProblem(
                "name", f"{self.name!r} is the line of battle of two players (III-A-1)"
            )
        return self


class LayoutsFile(BaseModel):
    """A layouts file as written."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    layouts: list[LayoutSpec] = Field(min_length=1)


Rect = tuple[float, float, float, float]
Circle = tuple[float, float, float]


@dataclass(frozen=True)
class Layout:
    """A deployment layout (XX-F-1): the table's size, the areas (x0, y0, x1, y1) in
    deployment-area order and the centre (x, y, radius)."""

    name: str
    players: int
    width: float
    height: float
    areas: tuple[Rect, ...]
    centre: Circle

    @property
    def size(self) -> str:
        """The table's size as a format is written ("120x120")."""
        return f"{self.width:g}x{self.height:g}"

    def table(self) -> Table:
        """The table with the areas as zones ``deployment-1``… and the centre zone last."""
        return layout_table(self.width, self.height, self.areas, self.centre)


@lru_cache(maxsize=64)
def layout_table(width: float, height: float, areas: tuple[Rect, ...], centre: Circle) -> Table:
    """A layout's table: zone ``deployment-k`` is area k (index k - 1), then :data:`CENTRE`."""
    zones = [Zone.rect(f"deployment-{k}", *rect) for k, rect in enumerate(areas, start=1)]
    zones.append(Zone.circle(CENTRE, *centre))
    return Table(width, height, tuple(zones))


def ground_layout(ground: Battleground) -> Layout | None:
    """The layout a table was set up with (None: a two-player line of battle)."""
    if not ground.areas or ground.centre is None:
        return None
    return Layout(
        ground.split, len(ground.areas), ground.width, ground.height, ground.areas, ground.centre
    )


def layout_name(players: int) -> str:
    """The bundled layout for ``players`` players: ``players-3`` … ``players-6``."""
    return f"players-{players}"


# --- loading -----------------------------------------------------------------------------------


def bundled_path() -> Path:
    """The bundled layouts file."""
    return Path(str(data_path("layouts.toml")))


def load_layouts(path: Path | None = None) -> dict[str, Layout]:
    """Read a layouts file (the bundled ``layouts.toml`` by default): name → layout."""
    if path is None:
        return dict(_bundled())
    return _load(path)


@cache
def _bundled() -> dict[str, Layout]:
    return _load(bundled_path())


def _load(path: Path) -> dict[str, Layout]:
    text, data = read_toml(path)
    spec = parse_model(LayoutsFile, path, text, data)
    out: dict[str, Layout] = {}
    for index, layout in enumerate(spec.layouts):
        loc: list[str | int] = ["layouts", index]
        if layout.name in out:
            _fail(path, text, [*loc, "name"], f"layout {layout.name!r} appears twice")
        _check(path, text, loc, layout)
        out[layout.name] = Layout(
            layout.name,
            layout.players,
            layout.width,
            layout.height,
            tuple((a.x0, a.y0, a.x1, a.y1) for a in layout.areas),
            (layout.centre.x, layout.centre.y, layout.centre.radius),
        )
    return out


def _check(path: Path, text: str, loc: list[str | int], layout: LayoutSpec) -> None:
    """XX-F-1: one area per player, on the table, 30 cm apart; the centre on the table and
    overlapping no area (XX-C-3: a fighter counts in one area only)."""
    if len(layout.areas) != layout.players:
        _fail(
            path,
            text,
            [*loc, "areas"],
            f"{len(layout.areas)} areas for {layout.players} players: one per player (XX-F-1)",
        )
    table = box(0.0, 0.0, layout.width, layout.height)
    size = f"{layout.width:g}x{layout.height:g}"
    shapes = [box(a.x0, a.y0, a.x1, a.y1) for a in layout.areas]
    for k, shape in enumerate(shapes):
        if not table.covers(shape):
            _fail(path, text, [*loc, "areas", k], f"area {k + 1} is not wholly on the {size} table")
    for (i, a), (j, b) in itertools.combinations(enumerate(shapes), 2):
        gap = float(a.distance(b))
        if gap < SPACING_CM - 1e-9:
            _fail(
                path,
                text,
                [*loc, "areas", j],
                f"areas {i + 1} and {j + 1} are {gap:g} cm apart, at least {SPACING_CM:g} "
                "needed (XX-F-1)",
            )
    c = layout.centre
    centre = Zone.circle(CENTRE, c.x, c.y, c.radius).area
    if not table.buffer(1e-6).covers(centre):
        _fail(path, text, [*loc, "centre"], f"the centre is not wholly on the {size} table")
    for k, shape in enumerate(shapes):
        if shape.intersection(centre).area > 1e-6:
            _fail(
                path,
                text,
                [*loc, "centre"],
                f"the centre overlaps area {k + 1} (XX-C-3: a fighter counts in one area only)",
            )


def _fail(path: Path, text: str, loc: list[str | int], message: str) -> None:
    raise LoadError(path, message, line=find_line(text, loc), key=key_name(loc))


def find_layout(players: int, name: str | None = None, path: Path | None = None) -> Layout:
    """The layout ``name`` (default: ``players-N``) of the layouts file ``path`` (default: the
    bundled one) for a game of ``players`` players; a one-line ``ValueError`` naming XX-F-1
    when there is none or it is for another number of players."""
    wanted = name if name is not None else layout_name(players)
    if wanted in LINES:
        raise ValueError(
            f"XX-F-1: a game of {players} players deploys in the areas of a layout "
            f"(e.g. {layout_name(players)!r}), not in a line of battle split by {wanted!r}"
        )
    layouts = load_layouts(path)
    if wanted not in layouts:
        known = ", ".join(layouts) or "none"
        raise ValueError(f"XX-F-1: no deployment layout {wanted!r} (layouts: {known})")
    layout = layouts[wanted]
    if layout.players != players:
        raise ValueError(
            f"XX-F-1: layout {wanted!r} is for {layout.players} players, not {players}"
        )
    return layout
