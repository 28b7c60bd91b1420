"""A scenario's situation (XX-A-1, XX-A-2; C3 "Situation", "Elements of Scenery": C3-SITUATION,
C3-ELEMENTS-OF-SCENERY, C3-TYPES-OF-SCENERY, C3-SCENARIO-SCENERY): its fixed scenario scenery
and how the standard scenery is placed.

XX-A-1: "Certains scénarios impliquent le placement d'éléments de décor particuliers à des
endroits précis. D'autres permettent toutefois aux joueurs de définir eux-mêmes le relief du
champ de bataille." XX-A-2 names three types of scenery: scenario scenery ("les objectifs ou
les éléments cruciaux requis par le scénario ... placés à des endroits spécifiques"), standard
scenery placed by the players, and mobile elements such as tokens.

A scenario file says (docs/scenery.md, field by field):

- ``[[scenario_scenery]]``: the fixed elements, set up first where the file puts them — a
  ``rect`` (centre ``x y``, ``width depth``, ``angle``), a ``circle`` (``x y diameter``) or a
  ``polygon`` (``points``), its ``height`` (a size class), ``passable``, ``objective`` and,
  to be damageable, ``structure_points`` with ``resistance`` (C3: "Unless specified in the
  scenario, all elements of scenery are considered to have the Inalterable ability");
- ``scenery_placement``: "random" (the engine's seeded layout, the default of the III-A-2
  scenarios) or "players" (XX-A-2: each in turn, a d6 for who starts);
- ``scenery``: how many standard elements; ``min_scenery``: the least number of elements in
  all ("un minimum de 4 éléments de décor, sauf si le contraire est précisé par le scénario").

Every element must lie 6 cm or more from the table's edges and from every other element and
be no larger than 30x30 cm (XX-A-2 advises it, C3 requires it: docs/rulings.md XX-A-2); a
bad file is one line naming the file, the line and the key.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from confrontation.armylists.load import LoadError, find_line, key_name
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import GameState, SceneryPiece
from confrontation.engine.table.field import piece_of, scenery_of
from confrontation.geometry.bases import base_table
from confrontation.geometry.scenery import MAX_SIDE_CM, MIN_ELEMENTS, MIN_GAP_CM, Scenery
from confrontation.geometry.table import FORMATS

Placement = Literal["random", "players"]

MIN_SCENERY = MIN_ELEMENTS
"""XX-A-2: "un minimum de 4 éléments de décor, sauf si le contraire est précisé"."""

_KEYS = {
    "rect": ("x", "y", "width", "depth"),
    "circle": ("x", "y", "diameter"),
    "polygon": ("points",),
}
_SHAPE_KEYS = ("x", "y", "width", "depth", "diameter", "points")
_NUMBERED = re.compile(r"^.+-\d+$")


class ScenerySpec(BaseModel):
    """A fixed element of scenario scenery as written (``[[scenario_scenery]]``)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    shape: Literal["rect", "circle", "polygon"]
    x: float | None = None
    y: float | None = None
    width: float | None = Field(default=None, gt=0)
    depth: float | None = Field(default=None, gt=0)
    angle: float = 0.0
    diameter: float | None = Field(default=None, gt=0)
    points: list[list[float]] | None = None
    height: str = "normal"
    passable: bool = True
    objective: bool = False
    structure_points: int | None = Field(default=None, ge=1)
    resistance: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _consistent(self) -> ScenerySpec:
        if _NUMBERED.match(self.name):
            raise ValueError(
                f"name {self.name!r} ends in '-<number>', as the standard elements are named "
                "(house-2…): give the scenario's element a name of its own"
            )
        for key in _KEYS[self.shape]:
            if getattr(self, key) is None:
                raise ValueError(f"a '{self.shape}' element needs {key}")
        for key in _SHAPE_KEYS:
            if key not in _KEYS[self.shape] and getattr(self, key) is not None:
                raise ValueError(f"{key} does not belong to a '{self.shape}' element")
        if self.angle and self.shape != "rect":
            raise ValueError(f"angle does not belong to a '{self.shape}' element")
        ranks = base_table().ranks
        if self.height not in ranks:
            raise ValueError(f"unknown height {self.height!r}: a size class ({', '.join(ranks)})")
        if (self.structure_points is None) != (self.resistance is None):
            raise ValueError(
                "structure_points and resistance go together (C3: the damage roll reads the "
                "element's RES); neither: Inalterable"
            )
        if self.points is not None:
            if len(self.points) < 3 or any(len(p) != 2 for p in self.points):
                raise ValueError("points: at least 3 points, each [x, y] in cm")
            outline = Polygon([(p[0], p[1]) for p in self.points])
            if not outline.is_valid or outline.area <= 0:
                raise ValueError("points: the outline crosses itself or encloses nothing")
        return self

    def piece(self) -> SceneryPiece:
        """The element as the game state carries it (scenario scenery, XX-A-2)."""
        height, passable = self.height, self.passable
        if self.shape == "circle":
            assert self.x is not None and self.y is not None and self.diameter is not None
            made = Scenery.circle(
                self.name, self.x, self.y, self.diameter, height=height, passable=passable
            )
        elif self.shape == "rect":
            assert self.x is not None and self.y is not None
            assert self.width is not None and self.depth is not None
            made = Scenery.rect(
                self.name,
                self.x,
                self.y,
                self.width,
                self.depth,
                self.angle,
                height=height,
                passable=passable,
            )
        else:
            assert self.points is not None
            outline = Polygon([(p[0], p[1]) for p in self.points])
            made = Scenery(self.name, outline, height, passable)
        return evolve(
            piece_of(made, scenario=True),
            structure_points=self.structure_points,
            resistance=self.resistance,
            objective=self.objective,
        )


def check_scenery(
    path: Path,
    text: str,
    pieces: Sequence[SceneryPiece],
    table: str,
    standard: int,
    least: int,
) -> None:
    """XX-A-2 on a scenario file: names once each; every element on the ``table`` (a format),
    6 cm or more from its edges and from the others, at most 30x30 cm; at least ``least``
    elements in all with the ``standard`` ones. A problem is a :class:`LoadError`."""

    def fail(n: int | None, key: str, message: str) -> LoadError:
        loc: list[str | int] = ["scenario_scenery", n, key] if n is not None else [key]
        return LoadError(path, message, line=find_line(text, loc), key=key_name(loc))

    width, height = FORMATS[table]
    shapes = [scenery_of(p).footprint for p in pieces]
    for n, (piece, shape) in enumerate(zip(pieces, shapes, strict=True)):
        if piece.name in [p.name for p in pieces[:n]]:
            raise fail(n, "name", f"scenario scenery {piece.name!r} appears twice")
        rect = shape.minimum_rotated_rectangle
        xy = list(rect.exterior.coords)
        sides = sorted(math.dist(xy[i], xy[i + 1]) for i in range(2))
        if sides[1] > MAX_SIDE_CM + 1e-9:
            raise fail(
                n,
                "shape",
                f"{piece.name!r} is {sides[0]:.1f}x{sides[1]:.1f} cm: an element of scenery is "
                f"at most {MAX_SIDE_CM:g}x{MAX_SIDE_CM:g} cm (XX-A-2, C3)",
            )
        x0, y0, x1, y1 = shape.bounds
        edge = min(x0, y0, width - x1, height - y1)
        if edge < MIN_GAP_CM - 1e-9:
            where = "off" if edge < 0 else f"{edge:.1f} cm from an edge of"
            raise fail(
                n,
                "shape",
                f"{piece.name!r} is {where} the {table} table: every element of scenery is "
                f"{MIN_GAP_CM:g} cm or more from the table's edges (XX-A-2)",
            )
        for m, other in enumerate(shapes[:n]):
            gap = float(shape.distance(other))
            if gap < MIN_GAP_CM - 1e-9:
                raise fail(
                    n,
                    "shape",
                    f"{pieces[m].name!r} and {piece.name!r} are {gap:.1f} cm apart: elements "
                    f"of scenery are {MIN_GAP_CM:g} cm or more apart (XX-A-2)",
                )
    if len(pieces) + standard < least:
        raise fail(
            None,
            "scenery",
            f"{len(pieces) + standard} elements of scenery in all ({len(pieces)} scenario, "
            f"{standard} standard): at least {least} are needed (XX-A-2; min_scenery says "
            "otherwise)",
        )


def install_scenery(
    state: GameState,
    fixed: Sequence[SceneryPiece],
    placement: str = "random",
    clear: Sequence[BaseGeometry] = (),
) -> GameState:
    """``state``'s table with the scenario's ``fixed`` scenery set up first and its standard
    scenery laid by ``placement`` 6 cm from the shapes kept ``clear`` too (XX-A-2,
    docs/rulings.md); a table whose scenery is given already gets the fixed elements added to
    it. A table-less state is left alone."""
    ground = state.battleground
    if ground is None:
        return state
    if ground.scenery is not None:
        ground = evolve(ground, scenery=(*fixed, *ground.scenery))
    else:
        outlines = tuple(_outline(shape) for shape in clear)
        ground = evolve(ground, fixed=tuple(fixed), placement=placement, clear=outlines)
    return evolve(state, battleground=ground)


def _outline(shape: BaseGeometry) -> tuple[tuple[float, float], ...]:
    """A shape's outline as plain data (its convex hull's exterior, to 0.01 cm)."""
    hull = shape.convex_hull
    polygon = hull if isinstance(hull, Polygon) else hull.buffer(0.5)
    coords = polygon.exterior.coords
    return tuple((round(x, 2), round(y, 2)) for x, y in coords)
