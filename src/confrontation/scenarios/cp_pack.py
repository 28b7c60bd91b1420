"""The control-point scenario pack (``003_…``) as data: the ``[control_points]`` table of a
scenario file, and the record a game carries (the rules are in ``scenarios.control_points``).

CLARIFICATIONS §8 reads the pack with Confrontation armies on a 120×120 cm table, one inch
being 2.5 cm: zones are 30×15 cm rectangles or 30 cm circles (CP-ZONE), flags 40 mm round
bases that nothing can target or move (CP-FLAG), objectives 50 mm round bases, scenario scenery
with structure points (CP-OBJECTIVE, default 5 SP; RES 8 as ``data/scenery_structure.toml``'s
objective). An element's ``side`` (1 or 2) is the deployment area whose player it is friendly
to ("The objective on Player 1's side of the board is a friendly Faction model to Player 1");
without a side a zone or flag is neutral and an objective is enemy to all (CP-PROCESS-OF-
ELIMINATION-SPECIAL-RULES). Flags and objectives are laid as scenario scenery (XX-A-2) before
the standard scenery; zones are marked, not laid.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from confrontation.armylists.load import LoadError, find_line, key_name
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.state import SceneryPiece
from confrontation.engine.table.field import piece_of
from confrontation.geometry.scenery import Scenery

INCH_CM = 2.5
"""CLARIFICATIONS §8: one inch of the pack is 2.5 cm."""
FLAG_DIAMETER_CM = 4.0
"""CP-FLAG: a 40 mm round base."""
OBJECTIVE_DIAMETER_CM = 5.0
"""CP-OBJECTIVE: a 50 mm round base."""
FLAG_CONTEST_CM = 10.0
"""CP-CONTEST, CLARIFICATIONS §8: within 4" (10 cm) of a flag."""
OBJECTIVE_CONTEST_CM = 5.0
"""CP-CONTEST, CLARIFICATIONS §8: within 2" (5 cm) of an objective."""
KILL_BOX_CM = 35.0
"""CP-KILL-BOX, CLARIFICATIONS §8: within 14" (35 cm) of a table edge."""
KILL_BOX_CP = 2
"""CP-KILL-BOX: "his opponent immediately scores 2 control points"."""
OBJECTIVE_SP = 5
"""CLARIFICATIONS §8: an objective's structure points by default."""
OBJECTIVE_RES = 8
"""docs/rulings.md (C3 scenery): an objective's RES by default."""
WIN_AT = 5
"""CP-<NAME>-VICTORY-CONDITIONS: "at least 5 control points and more than his opponent"."""

Tiebreak = Literal["none", "zones", "enemy-zones", "flags"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class ZoneSpec(_Strict):
    """A ``[[control_points.zones]]`` entry: a rectangle ``x0 y0 x1 y1`` or a circle ``x y
    radius`` (cm from the lower-left corner), friendly to the player of deployment area
    ``side`` (none: neutral)."""

    name: str = Field(min_length=1)
    side: Literal[1, 2] | None = None
    shape: Literal["rect", "circle"]
    x0: float | None = None
    y0: float | None = None
    x1: float | None = None
    y1: float | None = None
    x: float | None = None
    y: float | None = None
    radius: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _consistent(self) -> ZoneSpec:
        needs = {"rect": ("x0", "y0", "x1", "y1"), "circle": ("x", "y", "radius")}
        for key in needs[self.shape]:
            if getattr(self, key) is None:
                raise ValueError(f"a '{self.shape}' zone needs {key}")
        for key in ("x0", "y0", "x1", "y1", "x", "y", "radius"):
            if key not in needs[self.shape] and getattr(self, key) is not None:
                raise ValueError(f"{key} does not belong to a '{self.shape}' zone")
        if self.shape == "rect" and (self.x0 == self.x1 or self.y0 == self.y1):
            raise ValueError("a 'rect' zone has a width and a depth")
        return self

    def coords(self) -> tuple[float, ...]:
        keys = ("x", "y", "radius") if self.shape == "circle" else ("x0", "y0", "x1", "y1")
        return tuple(float(getattr(self, k)) for k in keys)


class FlagSpec(_Strict):
    """A ``[[control_points.flags]]`` entry: the centre of its 40 mm base, its ``side``."""

    name: str = Field(min_length=1)
    x: float
    y: float
    side: Literal[1, 2] | None = None


class ObjectiveSpec(_Strict):
    """A ``[[control_points.objectives]]`` entry: the centre of its 50 mm base, its ``side``
    (none: enemy to all), its structure points and RES."""

    name: str = Field(min_length=1)
    x: float
    y: float
    side: Literal[1, 2] | None = None
    structure_points: int = Field(default=OBJECTIVE_SP, ge=1)
    resistance: int = Field(default=OBJECTIVE_RES, ge=1)


class ControlPointsSpec(_Strict):
    """The ``[control_points]`` table of a scenario file (docs/scenarios.md)."""

    win_at: int = Field(default=WIN_AT, ge=1)
    from_round: int = Field(default=2, ge=1)
    kill_box: bool = False
    tiebreak: Tiebreak = "none"
    remove_flag_after: int | None = Field(default=None, ge=1)
    zones: list[ZoneSpec] = Field(default_factory=list)
    flags: list[FlagSpec] = Field(default_factory=list)
    objectives: list[ObjectiveSpec] = Field(default_factory=list)


# --- the record a game carries ------------------------------------------------------------------


@dataclass(frozen=True)
class CpElement:
    """A scenario element of the pack (CP-SCENARIO-ELEMENT): ``kind`` "zone", "flag" or
    "objective"; ``shape`` "rect" (x0 y0 x1 y1) or "circle" (x y radius); ``side`` the
    deployment area (0, 1) whose player it is friendly to, None: neutral / enemy to all."""

    name: str
    kind: str
    shape: str
    coords: tuple[float, ...]
    side: int | None = None


@dataclass(frozen=True)
class ControlPoints:
    """The pack's rules data and score in a game (part of the scenario record).

    ``cp``: each player's control points; ``history``: per scoring, the round and the CP each
    player gained; ``destroyed``: the objectives destroyed (name, the destroying player or -1)
    and ``paid``: those already scored; ``removed``: flags taken off the table (Incursion);
    ``won_by``: the player whose scenario victory ended the game; ``final``: the tiebreaker
    (1-4) that decided a game at its end, 0: none, 5: level after all four."""

    elements: tuple[CpElement, ...] = ()
    win_at: int = WIN_AT
    from_round: int = 2
    kill_box: bool = False
    tiebreak: str = "none"
    remove_flag_after: int = 0
    cp: tuple[int, ...] = (0, 0)
    history: tuple[tuple[int, tuple[int, ...]], ...] = ()
    destroyed: tuple[tuple[str, int], ...] = ()
    paid: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    won_by: int | None = None
    final: int = 0

    def element(self, name: str) -> CpElement:
        """The element named ``name`` (a ``KeyError`` if none)."""
        for item in self.elements:
            if item.name == name:
                return item
        raise KeyError(name)

    def of_kind(self, kind: str) -> tuple[CpElement, ...]:
        """The elements of ``kind`` still on the table (a removed flag is not)."""
        return tuple(e for e in self.elements if e.kind == kind and e.name not in self.removed)


def _side(side: int | None) -> int | None:
    return None if side is None else side - 1


def load_control_points(
    path: Path, text: str, spec: ControlPointsSpec, size: tuple[float, float]
) -> tuple[ControlPoints, tuple[SceneryPiece, ...]]:
    """The record and the scenario scenery (flags, objectives) of a ``[control_points]``
    table: names unique, zones wholly on the ``size`` table and not overlapping (a fighter
    counts in one zone). A problem is a one-line :class:`LoadError`."""
    width, height = size
    elements: list[CpElement] = []
    pieces: list[SceneryPiece] = []

    def fail(where: list[str | int], message: str) -> LoadError:
        loc: list[str | int] = ["control_points", *where]
        return LoadError(path, message, line=find_line(text, loc), key=key_name(loc))

    shapes: list[BaseGeometry] = []
    for n, zone in enumerate(spec.zones):
        coords = zone.coords()
        if zone.shape == "circle":
            shape = Point(coords[0], coords[1]).buffer(coords[2], quad_segs=32)
        else:
            shape = box(
                min(coords[0], coords[2]),
                min(coords[1], coords[3]),
                max(coords[0], coords[2]),
                max(coords[1], coords[3]),
            )
        x0, y0, x1, y1 = shape.bounds
        if x0 < -1e-6 or y0 < -1e-6 or x1 > width + 1e-6 or y1 > height + 1e-6:
            raise fail(["zones", n], f"zone {zone.name!r} is not wholly on the table")
        for m, other in enumerate(shapes):
            if other.intersection(shape).area > 1e-6:
                raise fail(
                    ["zones", n],
                    f"zones {spec.zones[m].name!r} and {zone.name!r} overlap (CP-ZONE)",
                )
        shapes.append(shape)
        elements.append(CpElement(zone.name, "zone", zone.shape, coords, _side(zone.side)))
    for flag in spec.flags:
        radius = FLAG_DIAMETER_CM / 2
        coords = (flag.x, flag.y, radius)
        elements.append(CpElement(flag.name, "flag", "circle", coords, _side(flag.side)))
        # CP-FLAG: "Incorporeal" (scanned "Incorporated"): it hides nothing (flat), but it is an
        # obstacle nobody crosses (CLARIFICATIONS §8)
        made = Scenery.circle(
            flag.name, flag.x, flag.y, FLAG_DIAMETER_CM, height="flat", passable=False
        )
        pieces.append(piece_of(made, scenario=True))  # CP-FLAG: no SP, Inalterable
    for objective in spec.objectives:
        radius = OBJECTIVE_DIAMETER_CM / 2
        coords = (objective.x, objective.y, radius)
        elements.append(
            CpElement(objective.name, "objective", "circle", coords, _side(objective.side))
        )
        made = Scenery.circle(
            objective.name, objective.x, objective.y, OBJECTIVE_DIAMETER_CM, passable=False
        )
        pieces.append(
            evolve(
                piece_of(made, scenario=True),
                structure_points=objective.structure_points,
                resistance=objective.resistance,
                objective=True,
            )
        )
    names = [e.name for e in elements]
    for n, name in enumerate(names):
        if name in names[:n]:
            raise fail([], f"element {name!r} appears twice (zones, flags, objectives)")
    if spec.remove_flag_after is not None and len(spec.flags) < 2:
        raise fail(["remove_flag_after"], "removing a flag at random needs two flags or more")
    record = ControlPoints(
        elements=tuple(elements),
        win_at=spec.win_at,
        from_round=spec.from_round,
        kill_box=spec.kill_box,
        tiebreak=spec.tiebreak,
        remove_flag_after=spec.remove_flag_after or 0,
    )
    if spec.tiebreak in ("zones", "enemy-zones") and not spec.zones:
        raise fail(["tiebreak"], f"tiebreak {spec.tiebreak!r} needs zones")
    if spec.tiebreak == "flags" and not spec.flags:
        raise fail(["tiebreak"], "tiebreak 'flags' needs flags")
    return record, tuple(pieces)
